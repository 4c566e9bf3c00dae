/* bchol_{s,d}potrf_batched_host: synchronous factorization of host arrays through one pair
 * of device buffers, reused for every piece of the batch. A piece is as large as one device
 * allocation allows; when the device refuses memory before anything has come back, the
 * piece is halved and tried again. A piece is copied back only after its factorization
 * has run, so after a failure every matrix of the caller is either as it was or factored
 * (with its info). */
#include "chol/chol.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Matrices per piece at most: bounds the host copy of a piece's info (64 MiB). */
#define MAX_PIECE ((int64_t)1 << 24)

/* Factors count matrices at hostA (one piece) through dA and dinfo; tmp holds count ints.
 * *copying is set once the copy back has begun: the caller's memory may have changed. */
static bchol_status run_piece(bchol_context *ctx, const char *routine, bchol_precision p, char uplo,
                              int n, char *hostA, int lda, int64_t stride, int64_t count, int *info,
                              cl_mem dA, cl_mem dinfo, int *tmp, int *copying) {
    const size_t es = bchol__elem_size(p);
    const size_t bytes = ((size_t)(count - 1) * (size_t)stride + (size_t)(n - 1) * lda + n) * es;
    const size_t ibytes = (size_t)count * sizeof(cl_int);
    cl_event ev = NULL;
    bchol_status st;
    cl_int err = clEnqueueWriteBuffer(ctx->queue, dA, CL_FALSE, 0, bytes, hostA, 0, NULL, NULL);
    if (err) {
        st = bchol__fail_cl(ctx, err, "clEnqueueWriteBuffer");
    } else if (!(st = bchol__potrf_batched(ctx, routine, p, NULL, uplo, n, dA, 0, lda, stride,
                                           count, dinfo, &ev))) {
        /* The factorization must have run (drivers report a failed execution, e.g. memory
         * they could not back, only in its event) before anything comes back. */
        cl_int status = CL_COMPLETE;
        if (!(err = clWaitForEvents(1, &ev)))
            err =
                clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (!err && status < 0) err = status;
        clReleaseEvent(ev);
        if (err) {
            st = bchol__fail_cl(ctx, err, "factorization");
        } else if ((err = clEnqueueReadBuffer(ctx->queue, dinfo, CL_FALSE, 0, ibytes, tmp, 0, NULL,
                                              NULL))) {
            /* info comes back to tmp first, so that the caller's info and matrices change
             * together, once the matrices are back */
            st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
        } else {
            *copying = 1;
            err = clEnqueueReadBuffer(ctx->queue, dA, CL_TRUE, 0, bytes, hostA, 0, NULL, NULL);
            if (err)
                st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
            else
                memcpy(info, tmp, ibytes);
        }
    }
    /* Nothing may still read or write the caller's memory once we return. */
    if (st) clFinish(ctx->queue);
    return st;
}

/* The caller's A and info must lie in the address space (pieces are found by pointer
 * arithmetic that would wrap). */
static bchol_status check_spans(bchol_context *ctx, const char *routine, bchol_precision p, int n,
                                const void *A, int lda, int64_t stride, int64_t batch,
                                const int *info) {
    char what[120];
    uint64_t span = 0;
    bchol_status st;
    snprintf(what, sizeof what, "argument 6 (stride = %lld) with batch = %lld: A", (long long)stride,
             (long long)batch);
    if (batch > 0 && n > 0 && bchol__batch_span(0, stride, batch, lda, n, n, &span))
        span = UINT64_MAX; /* beyond 2^64 elements: fails below */
    if ((st = bchol__check_host_span(ctx, routine, BCHOL_ERR_STRIDE_A, what, A, span,
                                     bchol__elem_size(p))))
        return st;
    snprintf(what, sizeof what, "argument 7 (batch = %lld): info", (long long)batch);
    return bchol__check_host_span(ctx, routine, BCHOL_ERR_BATCH, what, info, (uint64_t)batch,
                                  sizeof(int));
}

static bchol_status potrf_host(bchol_context *ctx, const char *routine, bchol_precision p,
                               char uplo, int n, void *A, int lda, int64_t stride, int64_t batch,
                               int *info) {
    int upper;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = bchol__check_uplo(ctx, routine, 2, uplo, &upper))) return st;
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 0", routine, n);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA,
                           "%s: argument 5 (lda = %d) must be >= max(1, n) = %d", routine, lda,
                           n > 1 ? n : 1);
    if ((st = bchol__check_index_span(ctx, routine, 3, n, lda))) return st;
    if (stride < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument 6 (stride = %lld) must be >= lda*n = %lld", routine,
                           (long long)stride, (long long)lda * n);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 7 (batch = %lld) must be >= 0",
                           routine, (long long)batch);
    if (batch > 0 && n > 0 && !A)
        return bchol__fail(ctx, BCHOL_ERR_A, "%s: argument 4 (A) is NULL", routine);
    if (batch > 0 && !info)
        return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument 8 (info) is NULL", routine);
    if ((st = check_spans(ctx, routine, p, n, A, lda, stride, batch, info))) return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    if (n == 0) {
        for (int64_t b = 0; b < batch; b++)
            info[b] = 0;
        return BCHOL_SUCCESS;
    }

    const size_t es = bchol__elem_size(p);
    const uint64_t last = (uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)n; /* one matrix */
    if (last * es > ctx->info.max_alloc)
        return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY,
                           "%s: one matrix (%llu bytes) exceeds the device's largest allocation",
                           routine, (unsigned long long)(last * es));
    /* matrices one allocation holds, 1 + (room after one matrix) / stride, in elements so
     * that no product wraps (a batch of one may have any stride) */
    uint64_t fit = 1 + (ctx->info.max_alloc - last * es) / es / (uint64_t)stride;
    int64_t piece = (uint64_t)batch < fit ? batch : (int64_t)fit;
    if (piece > MAX_PIECE) piece = MAX_PIECE;

    int *tmp = malloc((size_t)piece * sizeof(int));
    if (!tmp) return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "%s: no host memory", routine);
    cl_mem dA = NULL, dinfo = NULL;
    int64_t done = 0;
    while (done < batch) {
        const int64_t count = batch - done < piece ? batch - done : piece;
        int copying = 0;
        if (!dA) {
            cl_int err = CL_SUCCESS;
            uint64_t span = (uint64_t)(piece - 1) * (uint64_t)stride + last;
            dA = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, span * es, NULL, &err);
            if (dA)
                dinfo = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                       (size_t)piece * sizeof(cl_int), NULL, &err);
            st = dinfo ? BCHOL_SUCCESS : bchol__fail_cl(ctx, err, "clCreateBuffer");
        }
        if (!st)
            st = run_piece(ctx, routine, p, uplo, n, (char *)A + (size_t)done * (size_t)stride * es,
                           lda, stride, count, info + done, dA, dinfo, tmp, &copying);
        if (!st) {
            done += count;
            continue;
        }
        /* Out of device memory before anything came back: try again with half the piece. */
        if (done > 0 || copying || piece == 1 ||
            (st != BCHOL_ERR_OUT_OF_MEMORY && st != BCHOL_ERR_RESOURCES))
            break;
        piece = (piece + 1) / 2;
        if (dinfo) clReleaseMemObject(dinfo);
        if (dA) clReleaseMemObject(dA);
        dA = dinfo = NULL;
        st = BCHOL_SUCCESS;
    }
    if (dinfo) clReleaseMemObject(dinfo);
    if (dA) clReleaseMemObject(dA);
    free(tmp);
    return st;
}

bchol_status bchol_spotrf_batched_host(bchol_context *ctx, char uplo, int n, float *A, int lda,
                                       int64_t stride, int64_t batch, int *info) {
    return potrf_host(ctx, "bchol_spotrf_batched_host", BCHOL_S, uplo, n, A, lda, stride, batch,
                      info);
}

bchol_status bchol_dpotrf_batched_host(bchol_context *ctx, char uplo, int n, double *A, int lda,
                                       int64_t stride, int64_t batch, int *info) {
    return potrf_host(ctx, "bchol_dpotrf_batched_host", BCHOL_D, uplo, n, A, lda, stride, batch,
                      info);
}
