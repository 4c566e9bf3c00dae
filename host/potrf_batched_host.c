/* bchol_{s,d}potrf_batched_host: synchronous factorization of host arrays, in pieces no
 * larger than one device allocation. */
#include "internal.h"

#include <limits.h>

static bchol_status potrf_host(bchol_context *ctx, const char *routine, bchol_precision p,
                               char uplo, int n, void *A, int lda, int64_t stride, int64_t batch,
                               int *info)
{
    int upper;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = bchol__check_uplo(ctx, routine, 2, uplo, &upper))) return st;
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 0", routine, n);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA, "%s: argument 5 (lda = %d) must be >= max(1, n) = %d",
                           routine, lda, n > 1 ? n : 1);
    if (stride < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A, "%s: argument 6 (stride = %lld) must be >= lda*n = %lld",
                           routine, (long long)stride, (long long)lda * n);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 7 (batch = %lld) must be >= 0", routine,
                           (long long)batch);
    if (batch > 0 && n > 0 && !A)
        return bchol__fail(ctx, BCHOL_ERR_A, "%s: argument 4 (A) is NULL", routine);
    if (batch > 0 && !info)
        return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument 8 (info) is NULL", routine);
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    if (n == 0) {
        for (int64_t b = 0; b < batch; b++) info[b] = 0;
        return BCHOL_SUCCESS;
    }

    const size_t es = bchol__elem_size(p);
    const uint64_t last = (uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)n; /* one matrix */
    uint64_t per_chunk = batch;
    if (last * es > ctx->info.max_alloc)
        return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY,
                           "%s: one matrix (%llu bytes) exceeds the device's largest allocation",
                           routine, (unsigned long long)(last * es));
    if ((uint64_t)stride * es > 0) {
        uint64_t fit = (ctx->info.max_alloc - last * es) / ((uint64_t)stride * es) + 1;
        if (fit < per_chunk) per_chunk = fit;
    }

    cl_int err = CL_SUCCESS;
    for (int64_t b0 = 0; b0 < batch && !st; b0 += (int64_t)per_chunk) {
        int64_t count = batch - b0 < (int64_t)per_chunk ? batch - b0 : (int64_t)per_chunk;
        uint64_t span = (uint64_t)(count - 1) * (uint64_t)stride + last;
        char *hostA = (char *)A + (size_t)b0 * (size_t)stride * es;
        cl_mem dA = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, span * es, NULL, &err);
        cl_mem dinfo = dA ? clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                           (size_t)count * sizeof(cl_int), NULL, &err)
                          : NULL;
        if (!dA || !dinfo) {
            st = bchol__fail_cl(ctx, err, routine);
        } else if ((err = clEnqueueWriteBuffer(ctx->queue, dA, CL_FALSE, 0, span * es, hostA, 0,
                                               NULL, NULL))) {
            st = bchol__fail_cl(ctx, err, "clEnqueueWriteBuffer");
        } else if (!(st = bchol__potrf_batched(ctx, routine, p, NULL, uplo, n, dA, 0, lda, stride,
                                               count, dinfo, NULL))) {
            if ((err = clEnqueueReadBuffer(ctx->queue, dA, CL_FALSE, 0, span * es, hostA, 0, NULL,
                                           NULL)) ||
                (err = clEnqueueReadBuffer(ctx->queue, dinfo, CL_TRUE, 0,
                                           (size_t)count * sizeof(cl_int), info + b0, 0, NULL, NULL)))
                st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
        }
        /* Wait before releasing: the reads target the caller's memory. */
        clFinish(ctx->queue);
        if (dinfo) clReleaseMemObject(dinfo);
        if (dA) clReleaseMemObject(dA);
    }
    return st;
}

bchol_status bchol_spotrf_batched_host(bchol_context *ctx, char uplo, int n, float *A, int lda,
                                       int64_t stride, int64_t batch, int *info)
{
    return potrf_host(ctx, "bchol_spotrf_batched_host", BCHOL_S, uplo, n, A, lda, stride, batch, info);
}

bchol_status bchol_dpotrf_batched_host(bchol_context *ctx, char uplo, int n, double *A, int lda,
                                       int64_t stride, int64_t batch, int *info)
{
    return potrf_host(ctx, "bchol_dpotrf_batched_host", BCHOL_D, uplo, n, A, lda, stride, batch, info);
}
