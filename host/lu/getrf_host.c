/* bchol_{s,d}getrf_batched_host: synchronous LU of host arrays through one set of device
 * buffers (A, ipiv, info), reused for every piece of the batch, as potrf_batched_host.c:
 * a piece is as large as one device allocation allows, halved when the device refuses
 * memory before anything has come back, and copied back only after its factorization
 * has run. A and ipiv go in and come back whole over the piece's span, so that what lies
 * between the matrices and between their pivots comes back as it was. */
#include "lu/lu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Matrices per piece at most: bounds the host copy of a piece's info (64 MiB). */
#define MAX_PIECE ((int64_t)1 << 24)

typedef struct {
    const char *routine;
    bchol_precision p;
    int m, n, k, lda;
    int64_t stride_a, stride_p;
} host_job;

/* Elements of A and ints of ipiv that count matrices span. */
static uint64_t a_span(const host_job *j, int64_t count)
{
    return (uint64_t)(count - 1) * (uint64_t)j->stride_a + (uint64_t)(j->n - 1) * (uint64_t)j->lda +
           (uint64_t)j->m;
}
static uint64_t p_span(const host_job *j, int64_t count)
{
    return (uint64_t)(count - 1) * (uint64_t)j->stride_p + (uint64_t)j->k;
}

/* Factors count matrices at hostA, hostP (one piece) through dA, dP and dinfo; tmp holds
 * count ints. *copying is set once the copy back has begun. */
static bchol_status run_piece(bchol_context *ctx, const host_job *j, char *hostA, int *hostP,
                              int64_t count, int *info, cl_mem dA, cl_mem dP, cl_mem dinfo,
                              int *tmp, int *copying)
{
    const size_t bytes = (size_t)a_span(j, count) * bchol__elem_size(j->p);
    const size_t pbytes = (size_t)p_span(j, count) * sizeof(cl_int);
    const size_t ibytes = (size_t)count * sizeof(cl_int);
    cl_event ev = NULL;
    bchol_status st;
    cl_int err = clEnqueueWriteBuffer(ctx->queue, dA, CL_FALSE, 0, bytes, hostA, 0, NULL, NULL);
    if (!err) err = clEnqueueWriteBuffer(ctx->queue, dP, CL_FALSE, 0, pbytes, hostP, 0, NULL, NULL);
    if (err) {
        st = bchol__fail_cl(ctx, err, "clEnqueueWriteBuffer");
    } else if (!(st = bchol__getrf_batched(ctx, j->routine, j->p, 1, j->m, j->n, dA, 0, j->lda,
                                           j->stride_a, dP, 0, j->stride_p, count, dinfo, &ev))) {
        /* The factorization must have run (a failed execution shows only in its event)
         * before anything comes back. */
        cl_int status = CL_COMPLETE;
        if (!(err = clWaitForEvents(1, &ev)))
            err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                 NULL);
        if (!err && status < 0) err = status;
        clReleaseEvent(ev);
        if (err) {
            st = bchol__fail_cl(ctx, err, "factorization");
        } else if ((err = clEnqueueReadBuffer(ctx->queue, dinfo, CL_FALSE, 0, ibytes, tmp, 0, NULL,
                                              NULL))) {
            st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
        } else {
            *copying = 1;
            err = clEnqueueReadBuffer(ctx->queue, dA, CL_FALSE, 0, bytes, hostA, 0, NULL, NULL);
            if (!err)
                err = clEnqueueReadBuffer(ctx->queue, dP, CL_TRUE, 0, pbytes, hostP, 0, NULL, NULL);
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

/* The caller's A, ipiv and info must lie in the address space (pieces are found by
 * pointer arithmetic that would wrap). */
static bchol_status check_spans(bchol_context *ctx, const host_job *j, const void *A,
                                const int *ipiv, int64_t batch, const int *info)
{
    char what[120];
    uint64_t span = 0;
    bchol_status st;
    snprintf(what, sizeof what, "argument 6 (stride_a = %lld) with batch = %lld: A",
             (long long)j->stride_a, (long long)batch);
    if (batch > 0 && j->k > 0 && bchol__batch_span(0, j->stride_a, batch, j->lda, j->m, j->n, &span))
        span = UINT64_MAX; /* beyond 2^64 elements: fails below */
    if ((st = bchol__check_host_span(ctx, j->routine, BCHOL_ERR_STRIDE_A, what, A, span,
                                     bchol__elem_size(j->p))))
        return st;
    snprintf(what, sizeof what, "argument 8 (stride_p = %lld) with batch = %lld: ipiv",
             (long long)j->stride_p, (long long)batch);
    span = 0;
    if (batch > 0 && j->k > 0 && bchol__batch_span(0, j->stride_p, batch, 0, j->k, 1, &span))
        span = UINT64_MAX;
    if ((st = bchol__check_host_span(ctx, j->routine, BCHOL_ERR_STRIDE_P, what, ipiv, span,
                                     sizeof(int))))
        return st;
    snprintf(what, sizeof what, "argument 9 (batch = %lld): info", (long long)batch);
    return bchol__check_host_span(ctx, j->routine, BCHOL_ERR_BATCH, what, info, (uint64_t)batch,
                                  sizeof(int));
}

static bchol_status getrf_host(bchol_context *ctx, const char *routine, bchol_precision p, int m,
                               int n, void *A, int lda, int64_t stride_a, int *ipiv,
                               int64_t stride_p, int64_t batch, int *info)
{
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    const int k = m < n ? m : n;
    if (m < 0)
        return bchol__fail(ctx, BCHOL_ERR_M, "%s: argument 2 (m = %d) must be >= 0", routine, m);
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 0", routine, n);
    if (lda < (m > 1 ? m : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA, "%s: argument 5 (lda = %d) must be >= max(1, m) = %d",
                           routine, lda, m > 1 ? m : 1);
    if (n > 1 && (int64_t)(n - 1) * lda + m > INT32_MAX)
        return bchol__fail(ctx, BCHOL_ERR_N,
                           "%s: argument 3 (n = %d) with lda = %d spans more than 2^31-1 elements",
                           routine, n, lda);
    if (stride_a < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument 6 (stride_a = %lld) must be >= lda*n = %lld", routine,
                           (long long)stride_a, (long long)lda * n);
    if (stride_p < k)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_P,
                           "%s: argument 8 (stride_p = %lld) must be >= min(m, n) = %d", routine,
                           (long long)stride_p, k);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 9 (batch = %lld) must be >= 0",
                           routine, (long long)batch);
    if (batch > 0 && k > 0 && !A)
        return bchol__fail(ctx, BCHOL_ERR_A, "%s: argument 4 (A) is NULL", routine);
    if (batch > 0 && k > 0 && !ipiv)
        return bchol__fail(ctx, BCHOL_ERR_IPIV, "%s: argument 7 (ipiv) is NULL", routine);
    if (batch > 0 && !info)
        return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument 10 (info) is NULL", routine);
    const host_job job = {routine, p, m, n, k, lda, stride_a, stride_p};
    if ((st = check_spans(ctx, &job, A, ipiv, batch, info))) return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    if (k == 0) {
        for (int64_t b = 0; b < batch; b++) info[b] = 0;
        return BCHOL_SUCCESS;
    }
    if ((st = bchol__getrf_check_size(ctx, routine, p, m, n))) return st;

    const size_t es = bchol__elem_size(p);
    const uint64_t last = a_span(&job, 1), plast = (uint64_t)k; /* one matrix */
    if (last * es > ctx->info.max_alloc)
        return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY,
                           "%s: one matrix (%llu bytes) exceeds the device's largest allocation",
                           routine, (unsigned long long)(last * es));
    /* matrices one allocation holds, 1 + (room after one matrix) / stride, counted in
     * elements so that no product wraps; the same for the pivots */
    uint64_t fit = 1 + (ctx->info.max_alloc - last * es) / es / (uint64_t)stride_a;
    const uint64_t pfit =
        1 + (ctx->info.max_alloc - plast * sizeof(cl_int)) / sizeof(cl_int) / (uint64_t)stride_p;
    if (pfit < fit) fit = pfit;
    int64_t piece = (uint64_t)batch < fit ? batch : (int64_t)fit;
    if (piece > MAX_PIECE) piece = MAX_PIECE;

    int *tmp = malloc((size_t)piece * sizeof(int));
    if (!tmp) return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "%s: no host memory", routine);
    cl_mem dA = NULL, dP = NULL, dinfo = NULL;
    int64_t done = 0;
    while (done < batch) {
        const int64_t count = batch - done < piece ? batch - done : piece;
        int copying = 0;
        if (!dA) {
            cl_int err = CL_SUCCESS;
            dA = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, (size_t)a_span(&job, piece) * es,
                                NULL, &err);
            if (dA)
                dP = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                    (size_t)p_span(&job, piece) * sizeof(cl_int), NULL, &err);
            if (dP)
                dinfo = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                       (size_t)piece * sizeof(cl_int), NULL, &err);
            st = dinfo ? BCHOL_SUCCESS : bchol__fail_cl(ctx, err, "clCreateBuffer");
        }
        if (!st)
            st = run_piece(ctx, &job, (char *)A + (size_t)done * (size_t)stride_a * es,
                           ipiv + (size_t)done * (size_t)stride_p, count, info + done, dA, dP,
                           dinfo, tmp, &copying);
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
        if (dP) clReleaseMemObject(dP);
        if (dA) clReleaseMemObject(dA);
        dA = dP = dinfo = NULL;
        st = BCHOL_SUCCESS;
    }
    if (dinfo) clReleaseMemObject(dinfo);
    if (dP) clReleaseMemObject(dP);
    if (dA) clReleaseMemObject(dA);
    free(tmp);
    return st;
}

bchol_status bchol_sgetrf_batched_host(bchol_context *ctx, int m, int n, float *A, int lda,
                                       int64_t stride_a, int *ipiv, int64_t stride_p,
                                       int64_t batch, int *info)
{
    return getrf_host(ctx, "bchol_sgetrf_batched_host", BCHOL_S, m, n, A, lda, stride_a, ipiv,
                      stride_p, batch, info);
}

bchol_status bchol_dgetrf_batched_host(bchol_context *ctx, int m, int n, double *A, int lda,
                                       int64_t stride_a, int *ipiv, int64_t stride_p,
                                       int64_t batch, int *info)
{
    return getrf_host(ctx, "bchol_dgetrf_batched_host", BCHOL_D, m, n, A, lda, stride_a, ipiv,
                      stride_p, batch, info);
}
