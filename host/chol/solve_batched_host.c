/* bchol_{s,d}potrs_batched_host and bchol_{s,d}posv_batched_host: synchronous solves on
 * host arrays, in pieces that keep A and B each within one device allocation (core's
 * bchol__host_pieces; a piece the device refuses memory for fails the call). */
#include "chol/chol.h"

#include <stdio.h>

typedef struct {
    const char *routine;
    bchol_precision p;
    int factor;
    char uplo;
    int n, nrhs, lda, ldb;
    int64_t stride_a, stride_b;
} solve_piece;

/* bufs: A, then B where nrhs > 0 */
static bchol_status run_piece(bchol_context *ctx, void *arg, const cl_mem *bufs, cl_mem info,
                              int64_t count, cl_event *ev)
{
    const solve_piece *j = arg;
    cl_mem B = j->nrhs > 0 ? bufs[1] : NULL;
    return j->factor ? bchol__posv_batched(ctx, j->routine, j->p, j->uplo, j->n, j->nrhs, bufs[0],
                                           0, j->lda, j->stride_a, B, 0, j->ldb, j->stride_b,
                                           count, info, ev)
                     : bchol__potrs_batched(ctx, j->routine, j->p, NULL, j->uplo, j->n, j->nrhs,
                                            bufs[0], 0, j->lda, j->stride_a, B, 0, j->ldb,
                                            j->stride_b, count, ev);
}

/* The caller's arrays must lie in the address space (pieces are found by pointer arithmetic
 * that would wrap). Only the arrays the call uses are checked. */
static bchol_status check_spans(bchol_context *ctx, const char *routine, bchol_precision p,
                                int factor, int n, int nrhs, const void *A, int lda,
                                int64_t stride_a, const void *B, int ldb, int64_t stride_b,
                                int64_t batch, const int *info)
{
    const size_t es = bchol__elem_size(p);
    const int solve = n > 0 && nrhs > 0;
    char what[120];
    uint64_t span;
    bchol_status st;
    if (batch == 0) return BCHOL_SUCCESS;
    if (n > 0 && (solve || factor)) {
        snprintf(what, sizeof what, "argument 7 (stride_a = %lld) with batch = %lld: A",
                 (long long)stride_a, (long long)batch);
        if (bchol__batch_span(0, stride_a, batch, lda, n, n, &span)) span = UINT64_MAX;
        if ((st = bchol__check_host_span(ctx, routine, BCHOL_ERR_STRIDE_A, what, A, span, es)))
            return st;
    }
    if (solve) {
        snprintf(what, sizeof what, "argument 10 (stride_b = %lld) with batch = %lld: B",
                 (long long)stride_b, (long long)batch);
        if (bchol__batch_span(0, stride_b, batch, ldb, n, nrhs, &span)) span = UINT64_MAX;
        if ((st = bchol__check_host_span(ctx, routine, BCHOL_ERR_STRIDE_B, what, B, span, es)))
            return st;
    }
    snprintf(what, sizeof what, "argument 11 (batch = %lld): info", (long long)batch);
    return factor ? bchol__check_host_span(ctx, routine, BCHOL_ERR_BATCH, what, info,
                                           (uint64_t)batch, sizeof(int))
                  : BCHOL_SUCCESS;
}

static bchol_status solve_host(bchol_context *ctx, const char *routine, bchol_precision p,
                               int factor, char uplo, int n, int nrhs, void *A, int lda,
                               int64_t stride_a, void *B, int ldb, int64_t stride_b, int64_t batch,
                               int *info)
{
    int upper;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = bchol__check_uplo(ctx, routine, 2, uplo, &upper))) return st;
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 0", routine, n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 4 (nrhs = %d) must be >= 0", routine,
                           nrhs);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA,
                           "%s: argument 6 (lda = %d) must be >= max(1, n) = %d", routine, lda,
                           n > 1 ? n : 1);
    if ((st = bchol__check_index_span(ctx, routine, 3, n, lda))) return st;
    if (stride_a < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument 7 (stride_a = %lld) must be >= lda*n = %lld", routine,
                           (long long)stride_a, (long long)lda * n);
    if (ldb < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDB,
                           "%s: argument 9 (ldb = %d) must be >= max(1, n) = %d", routine, ldb,
                           n > 1 ? n : 1);
    if (stride_b < (int64_t)ldb * nrhs)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_B,
                           "%s: argument 10 (stride_b = %lld) must be >= ldb*nrhs = %lld", routine,
                           (long long)stride_b, (long long)ldb * nrhs);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 11 (batch = %lld) must be >= 0",
                           routine, (long long)batch);
    const int solve = n > 0 && nrhs > 0;
    if (batch > 0 && n > 0 && (solve || factor) && !A)
        return bchol__fail(ctx, BCHOL_ERR_A, "%s: argument 5 (A) is NULL", routine);
    if (batch > 0 && solve && !B)
        return bchol__fail(ctx, BCHOL_ERR_B, "%s: argument 8 (B) is NULL", routine);
    if (batch > 0 && factor && !info)
        return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument 12 (info) is NULL", routine);
    if ((st = check_spans(ctx, routine, p, factor, n, nrhs, A, lda, stride_a, B, ldb, stride_b,
                          batch, info)))
        return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0 || (!solve && !factor)) return BCHOL_SUCCESS;
    if (n == 0) {
        for (int64_t b = 0; b < batch; b++)
            info[b] = 0;
        return BCHOL_SUCCESS;
    }

    const size_t es = bchol__elem_size(p);
    solve_piece piece = {routine, p, factor, uplo, n, nrhs, lda, ldb, stride_a, stride_b};
    const bchol__host_job job = {routine, factor ? "factorization and solve" : "solve", 0,
                                 run_piece, &piece};
    const bchol__host_array arrays[] = {
        {A, stride_a, (uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)n, es, factor},
        {B, stride_b, (uint64_t)(nrhs - 1) * (uint64_t)ldb + (uint64_t)n, es, 1}};
    return bchol__host_pieces(ctx, &job, arrays, solve ? 2 : 1, factor ? info : NULL, batch);
}

bchol_status bchol_spotrs_batched_host(bchol_context *ctx, char uplo, int n, int nrhs,
                                       const float *A, int lda, int64_t stride_a, float *B, int ldb,
                                       int64_t stride_b, int64_t batch)
{
    return solve_host(ctx, "bchol_spotrs_batched_host", BCHOL_S, 0, uplo, n, nrhs, (void *)A, lda,
                      stride_a, B, ldb, stride_b, batch, NULL);
}

bchol_status bchol_dpotrs_batched_host(bchol_context *ctx, char uplo, int n, int nrhs,
                                       const double *A, int lda, int64_t stride_a, double *B,
                                       int ldb, int64_t stride_b, int64_t batch)
{
    return solve_host(ctx, "bchol_dpotrs_batched_host", BCHOL_D, 0, uplo, n, nrhs, (void *)A, lda,
                      stride_a, B, ldb, stride_b, batch, NULL);
}

bchol_status bchol_sposv_batched_host(bchol_context *ctx, char uplo, int n, int nrhs, float *A,
                                      int lda, int64_t stride_a, float *B, int ldb,
                                      int64_t stride_b, int64_t batch, int *info)
{
    return solve_host(ctx, "bchol_sposv_batched_host", BCHOL_S, 1, uplo, n, nrhs, A, lda, stride_a,
                      B, ldb, stride_b, batch, info);
}

bchol_status bchol_dposv_batched_host(bchol_context *ctx, char uplo, int n, int nrhs, double *A,
                                      int lda, int64_t stride_a, double *B, int ldb,
                                      int64_t stride_b, int64_t batch, int *info)
{
    return solve_host(ctx, "bchol_dposv_batched_host", BCHOL_D, 1, uplo, n, nrhs, A, lda, stride_a,
                      B, ldb, stride_b, batch, info);
}
