/* bchol_{s,d}gesv_batched_host: synchronous gesv on host arrays, in pieces that keep A,
 * ipiv and B each within one device allocation (as solve_batched_host.c). A, ipiv and B
 * go to the device and come back whole over each piece's span, so what lies between the
 * matrices (and between their pivots) comes back as it was. */
#include "lu/lu_solve.h"

#include <stdio.h>

/* Matrices per piece so that count-1 strides plus one matrix fit max_alloc bytes. */
static uint64_t fit(uint64_t max_alloc, uint64_t last, int64_t stride, size_t es)
{
    if ((uint64_t)stride * es == 0) return UINT64_MAX;
    return (max_alloc - last * es) / ((uint64_t)stride * es) + 1;
}

/* The caller's arrays must lie in the address space (pieces are found by pointer
 * arithmetic that would wrap). Only the arrays the call uses are checked. */
static bchol_status check_spans(bchol_context *ctx, const char *routine, bchol_precision p, int n,
                                int nrhs, const void *A, int lda, int64_t stride_a,
                                const int *ipiv, int64_t stride_p, const void *B, int ldb,
                                int64_t stride_b, int64_t batch, const int *info)
{
    const size_t es = bchol__elem_size(p);
    char what[120];
    uint64_t span;
    bchol_status st;
    if (batch == 0) return BCHOL_SUCCESS;
    if (n > 0) {
        snprintf(what, sizeof what, "argument 6 (stride_a = %lld) with batch = %lld: A",
                 (long long)stride_a, (long long)batch);
        if (bchol__batch_span(0, stride_a, batch, lda, n, n, &span)) span = UINT64_MAX;
        if ((st = bchol__check_host_span(ctx, routine, BCHOL_ERR_STRIDE_A, what, A, span, es)))
            return st;
        snprintf(what, sizeof what, "argument 8 (stride_p = %lld) with batch = %lld: ipiv",
                 (long long)stride_p, (long long)batch);
        if (bchol__batch_span(0, stride_p, batch, n, n, 1, &span)) span = UINT64_MAX;
        if ((st = bchol__check_host_span(ctx, routine, BCHOL_ERR_STRIDE_P, what, ipiv, span,
                                         sizeof(int))))
            return st;
    }
    if (n > 0 && nrhs > 0) {
        snprintf(what, sizeof what, "argument 11 (stride_b = %lld) with batch = %lld: B",
                 (long long)stride_b, (long long)batch);
        if (bchol__batch_span(0, stride_b, batch, ldb, n, nrhs, &span)) span = UINT64_MAX;
        if ((st = bchol__check_host_span(ctx, routine, BCHOL_ERR_STRIDE_B, what, B, span, es)))
            return st;
    }
    snprintf(what, sizeof what, "argument 12 (batch = %lld): info", (long long)batch);
    return bchol__check_host_span(ctx, routine, BCHOL_ERR_BATCH, what, info, (uint64_t)batch,
                                  sizeof(int));
}

static bchol_status gesv_host(bchol_context *ctx, const char *routine, bchol_precision p, int n,
                              int nrhs, void *A, int lda, int64_t stride_a, int *ipiv,
                              int64_t stride_p, void *B, int ldb, int64_t stride_b, int64_t batch,
                              int *info)
{
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 2 (n = %d) must be >= 0", routine, n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 3 (nrhs = %d) must be >= 0", routine,
                           nrhs);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA,
                           "%s: argument 5 (lda = %d) must be >= max(1, n) = %d", routine, lda,
                           n > 1 ? n : 1);
    if ((st = bchol__check_index_span(ctx, routine, 2, n, lda))) return st;
    if (stride_a < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument 6 (stride_a = %lld) must be >= lda*n = %lld", routine,
                           (long long)stride_a, (long long)lda * n);
    if (stride_p < n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_P,
                           "%s: argument 8 (stride_p = %lld) must be >= n = %d", routine,
                           (long long)stride_p, n);
    if (ldb < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDB,
                           "%s: argument 10 (ldb = %d) must be >= max(1, n) = %d", routine, ldb,
                           n > 1 ? n : 1);
    if (stride_b < (int64_t)ldb * nrhs)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_B,
                           "%s: argument 11 (stride_b = %lld) must be >= ldb*nrhs = %lld", routine,
                           (long long)stride_b, (long long)ldb * nrhs);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 12 (batch = %lld) must be >= 0",
                           routine, (long long)batch);
    const int solve = n > 0 && nrhs > 0;
    if (batch > 0 && n > 0 && !A)
        return bchol__fail(ctx, BCHOL_ERR_A, "%s: argument 4 (A) is NULL", routine);
    if (batch > 0 && n > 0 && !ipiv)
        return bchol__fail(ctx, BCHOL_ERR_IPIV, "%s: argument 7 (ipiv) is NULL", routine);
    if (batch > 0 && solve && !B)
        return bchol__fail(ctx, BCHOL_ERR_B, "%s: argument 9 (B) is NULL", routine);
    if (batch > 0 && !info)
        return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument 13 (info) is NULL", routine);
    if ((st = check_spans(ctx, routine, p, n, nrhs, A, lda, stride_a, ipiv, stride_p, B, ldb,
                          stride_b, batch, info)))
        return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    if (n == 0) {
        for (int64_t b = 0; b < batch; b++) info[b] = 0;
        return BCHOL_SUCCESS;
    }
    if ((st = bchol__getrf_check_size(ctx, routine, p, n, n))) return st;

    const size_t es = bchol__elem_size(p), is = sizeof(cl_int);
    const uint64_t max_alloc = ctx->info.max_alloc;
    const uint64_t last_a = (uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)n;
    const uint64_t last_p = (uint64_t)n;
    const uint64_t last_b = solve ? (uint64_t)(nrhs - 1) * (uint64_t)ldb + (uint64_t)n : 0;
    if (last_a * es > max_alloc || last_b * es > max_alloc)
        return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY,
                           "%s: one matrix exceeds the device's largest allocation (%llu bytes)",
                           routine, (unsigned long long)max_alloc);
    uint64_t per_chunk = (uint64_t)batch, f = fit(max_alloc, last_a, stride_a, es);
    if (f < per_chunk) per_chunk = f;
    if ((f = fit(max_alloc, last_p, stride_p, is)) < per_chunk) per_chunk = f;
    if (solve && (f = fit(max_alloc, last_b, stride_b, es)) < per_chunk) per_chunk = f;

    cl_int err = CL_SUCCESS;
    cl_command_queue q = ctx->queue;
    for (int64_t b0 = 0; b0 < batch && !st; b0 += (int64_t)per_chunk) {
        int64_t count = batch - b0 < (int64_t)per_chunk ? batch - b0 : (int64_t)per_chunk;
        uint64_t span_a = (uint64_t)(count - 1) * (uint64_t)stride_a + last_a;
        uint64_t span_p = (uint64_t)(count - 1) * (uint64_t)stride_p + last_p;
        uint64_t span_b = solve ? (uint64_t)(count - 1) * (uint64_t)stride_b + last_b : 0;
        char *hA = (char *)A + (size_t)b0 * (size_t)stride_a * es;
        int *hP = ipiv + (size_t)b0 * (size_t)stride_p;
        char *hB = solve ? (char *)B + (size_t)b0 * (size_t)stride_b * es : NULL;
        cl_mem dA = NULL, dP = NULL, dB = NULL, dI = NULL;
        dA = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, span_a * es, NULL, &err);
        if (dA) dP = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, span_p * is, NULL, &err);
        if (dP && solve) dB = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, span_b * es, NULL, &err);
        if (dP && (dB || !solve))
            dI = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, (size_t)count * is, NULL, &err);
        if (!dI) {
            st = bchol__fail_cl(ctx, err, routine);
        } else if ((err = clEnqueueWriteBuffer(q, dA, CL_FALSE, 0, span_a * es, hA, 0, NULL, NULL)) ||
                   (err = clEnqueueWriteBuffer(q, dP, CL_FALSE, 0, span_p * is, hP, 0, NULL, NULL)) ||
                   (solve &&
                    (err = clEnqueueWriteBuffer(q, dB, CL_FALSE, 0, span_b * es, hB, 0, NULL, NULL)))) {
            st = bchol__fail_cl(ctx, err, "clEnqueueWriteBuffer");
        } else {
            st = bchol__gesv_batched(ctx, routine, p, n, nrhs, dA, 0, lda, stride_a, dP, 0, stride_p,
                                     dB, 0, ldb, stride_b, count, dI, NULL);
            if (!st &&
                ((err = clEnqueueReadBuffer(q, dA, CL_FALSE, 0, span_a * es, hA, 0, NULL, NULL)) ||
                 (err = clEnqueueReadBuffer(q, dP, CL_FALSE, 0, span_p * is, hP, 0, NULL, NULL)) ||
                 (solve &&
                  (err = clEnqueueReadBuffer(q, dB, CL_FALSE, 0, span_b * es, hB, 0, NULL, NULL))) ||
                 (err = clEnqueueReadBuffer(q, dI, CL_FALSE, 0, (size_t)count * is, info + b0, 0,
                                            NULL, NULL))))
                st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
        }
        /* Wait before releasing: the copies use the caller's memory. */
        clFinish(q);
        if (dI) clReleaseMemObject(dI);
        if (dB) clReleaseMemObject(dB);
        if (dP) clReleaseMemObject(dP);
        if (dA) clReleaseMemObject(dA);
    }
    return st;
}

bchol_status bchol_sgesv_batched_host(bchol_context *ctx, int n, int nrhs, float *A, int lda,
                                      int64_t stride_a, int *ipiv, int64_t stride_p, float *B,
                                      int ldb, int64_t stride_b, int64_t batch, int *info)
{
    return gesv_host(ctx, "bchol_sgesv_batched_host", BCHOL_S, n, nrhs, A, lda, stride_a, ipiv,
                     stride_p, B, ldb, stride_b, batch, info);
}

bchol_status bchol_dgesv_batched_host(bchol_context *ctx, int n, int nrhs, double *A, int lda,
                                      int64_t stride_a, int *ipiv, int64_t stride_p, double *B,
                                      int ldb, int64_t stride_b, int64_t batch, int *info)
{
    return gesv_host(ctx, "bchol_dgesv_batched_host", BCHOL_D, n, nrhs, A, lda, stride_a, ipiv,
                     stride_p, B, ldb, stride_b, batch, info);
}
