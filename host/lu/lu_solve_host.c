/* bchol_{s,d}gesv_batched_host: synchronous gesv on host arrays, in pieces that keep A,
 * ipiv and B each within one device allocation (core's bchol__host_pieces; a piece the
 * device refuses memory for fails the call). ipiv goes in too, so what lies between the
 * pivots comes back as it was. */
#include "lu/lu_solve.h"

#include <stdio.h>

typedef struct {
    const char *routine;
    bchol_precision p;
    int n, nrhs, lda, ldb;
    int64_t stride_a, stride_p, stride_b;
} gesv_piece;

/* bufs: A, ipiv, then B where nrhs > 0 */
static bchol_status run_piece(bchol_context *ctx, void *arg, const cl_mem *bufs, cl_mem info,
                              int64_t count, cl_event *ev)
{
    const gesv_piece *j = arg;
    return bchol__gesv_batched(ctx, j->routine, j->p, j->n, j->nrhs, bufs[0], 0, j->lda,
                               j->stride_a, bufs[1], 0, j->stride_p, j->nrhs > 0 ? bufs[2] : NULL,
                               0, j->ldb, j->stride_b, count, info, ev);
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

    const size_t es = bchol__elem_size(p);
    gesv_piece piece = {routine, p, n, nrhs, lda, ldb, stride_a, stride_p, stride_b};
    const bchol__host_job job = {routine, "factorization and solve", 0, run_piece, &piece};
    const bchol__host_array arrays[] = {
        {A, stride_a, (uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)n, es, 1},
        {ipiv, stride_p, (uint64_t)n, sizeof(int), 1},
        {B, stride_b, (uint64_t)(nrhs - 1) * (uint64_t)ldb + (uint64_t)n, es, 1}};
    return bchol__host_pieces(ctx, &job, arrays, solve ? 3 : 2, info, batch);
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
