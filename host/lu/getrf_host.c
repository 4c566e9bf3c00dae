/* bchol_{s,d}getrf_batched_host: synchronous LU of host arrays, in pieces (core's
 * bchol__host_pieces, halving a piece the device refuses memory for), so that after a
 * failure every matrix of the caller is either as it was or factored (with its pivots and
 * info). */
#include "lu/lu.h"

#include <stdio.h>

typedef struct {
    const char *routine;
    bchol_precision p;
    int m, n, k, lda;
    int64_t stride_a, stride_p;
} getrf_piece;

static bchol_status run_piece(bchol_context *ctx, void *arg, const cl_mem *bufs, cl_mem info,
                              int64_t count, cl_event *ev)
{
    const getrf_piece *j = arg;
    return bchol__getrf_batched(ctx, j->routine, j->p, 1, j->m, j->n, bufs[0], 0, j->lda,
                                j->stride_a, bufs[1], 0, j->stride_p, count, info, ev);
}

/* The caller's A, ipiv and info must lie in the address space (pieces are found by
 * pointer arithmetic that would wrap). */
static bchol_status check_spans(bchol_context *ctx, const getrf_piece *j, const void *A,
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
    getrf_piece piece = {routine, p, m, n, k, lda, stride_a, stride_p};
    if ((st = check_spans(ctx, &piece, A, ipiv, batch, info))) return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    if (k == 0) {
        for (int64_t b = 0; b < batch; b++) info[b] = 0;
        return BCHOL_SUCCESS;
    }
    if ((st = bchol__getrf_check_size(ctx, routine, p, m, n))) return st;

    /* ipiv goes in too: what lies between the pivots comes back as it was */
    const bchol__host_job job = {routine, "factorization", 1, run_piece, &piece};
    const bchol__host_array arrays[] = {
        {A, stride_a, (uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)m, bchol__elem_size(p), 1},
        {ipiv, stride_p, (uint64_t)k, sizeof(int), 1}};
    return bchol__host_pieces(ctx, &job, arrays, 2, info, batch);
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
