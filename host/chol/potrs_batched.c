/* bchol_{s,d}potrs_batched[_ex]: argument checks (shared with posv), quick returns, then
 * the substitution solve. */
#include "chol/chol.h"

#include <limits.h>

bchol_status bchol__check_solve_args(bchol_context *ctx, const char *routine, int k,
                                     bchol_precision p, int factors, char uplo, int n, int nrhs,
                                     cl_mem A, int64_t offset_a, int lda, int64_t stride_a,
                                     cl_mem B, int64_t offset_b, int ldb, int64_t stride_b,
                                     int64_t batch, int *upper)
{
    bchol_status st;
    if ((st = bchol__check_uplo(ctx, routine, 2 + k, uplo, upper))) return st;
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument %d (n = %d) must be >= 0", routine,
                           3 + k, n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument %d (nrhs = %d) must be >= 0", routine,
                           4 + k, nrhs);
    if (offset_a < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_A,
                           "%s: argument %d (offset_a = %lld) must be >= 0", routine, 6 + k,
                           (long long)offset_a);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA,
                           "%s: argument %d (lda = %d) must be >= max(1, n) = %d", routine, 7 + k,
                           lda, n > 1 ? n : 1);
    if ((st = bchol__check_index_span(ctx, routine, 3 + k, n, lda))) return st;
    if (stride_a < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument %d (stride_a = %lld) must be >= lda*n = %lld", routine,
                           8 + k, (long long)stride_a, (long long)lda * n);
    if (offset_b < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_B,
                           "%s: argument %d (offset_b = %lld) must be >= 0", routine, 10 + k,
                           (long long)offset_b);
    if (ldb < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDB,
                           "%s: argument %d (ldb = %d) must be >= max(1, n) = %d", routine, 11 + k,
                           ldb, n > 1 ? n : 1);
    if (stride_b < (int64_t)ldb * nrhs)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_B,
                           "%s: argument %d (stride_b = %lld) must be >= ldb*nrhs = %lld", routine,
                           12 + k, (long long)stride_b, (long long)ldb * nrhs);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument %d (batch = %lld) must be >= 0",
                           routine, 13 + k, (long long)batch);
    /* Buffers are checked only where they will be used. */
    if (batch == 0 || n == 0 || (nrhs == 0 && !factors)) return BCHOL_SUCCESS;

    const size_t es = bchol__elem_size(p);
    uint64_t span;
    if (bchol__batch_span(offset_a, stride_a, batch, lda, n, n, &span) || span > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_A_SIZE, "%s: the batch of A spans more than 2^64 bytes",
                           routine);
    if ((st = bchol__check_buffer(ctx, routine, 5 + k, "A", A, span * es, BCHOL_ERR_A,
                                  BCHOL_ERR_A_SIZE)))
        return st;
    if (nrhs == 0) return BCHOL_SUCCESS;
    if (bchol__batch_span(offset_b, stride_b, batch, ldb, n, nrhs, &span) || span > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_B_SIZE, "%s: the batch of B spans more than 2^64 bytes",
                           routine);
    return bchol__check_buffer(ctx, routine, 9 + k, "B", B, span * es, BCHOL_ERR_B,
                               BCHOL_ERR_B_SIZE);
}

bchol_status bchol__check_solve_uses(bchol_context *ctx, const char *routine, int k,
                                     bchol_precision p, int factors, int n, int nrhs, cl_mem A,
                                     int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                     int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                     cl_mem info)
{
    const size_t es = bchol__elem_size(p);
    const int solve = n > 0 && nrhs > 0;
    uint64_t end_a = 0, end_b = 0;
    if (batch == 0) return BCHOL_SUCCESS;
    if (n > 0 && (solve || factors)) bchol__batch_span(offset_a, stride_a, batch, lda, n, n, &end_a);
    if (solve) bchol__batch_span(offset_b, stride_b, batch, ldb, n, nrhs, &end_b);
    const bchol_buffer_use uses[] = {
        {5 + k, "A", end_a ? A : NULL, (uint64_t)offset_a * es, end_a * es,
         factors ? BCHOL__READ | BCHOL__WRITE : BCHOL__READ, BCHOL_ERR_A},
        {9 + k, "B", end_b ? B : NULL, (uint64_t)offset_b * es, end_b * es,
         BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_B},
        {14 + k, "info", factors ? info : NULL, 0, bchol__info_bytes(batch),
         BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_INFO}};
    return bchol__check_buffer_uses(ctx, routine, uses, 3);
}

bchol_status bchol__potrs_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                  const bchol_solve_params *params, char uplo, int n, int nrhs,
                                  cl_mem A, int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                  int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                  cl_event *event)
{
    int upper;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (params && (st = bchol__check_solve_params(ctx, routine, params, 1))) return st;
    if ((st =
             bchol__check_solve_args(ctx, routine, params ? 1 : 0, p, 0, uplo, n, nrhs, A, offset_a,
                                     lda, stride_a, B, offset_b, ldb, stride_b, batch, &upper)) ||
        (st = bchol__check_solve_uses(ctx, routine, params ? 1 : 0, p, 0, n, nrhs, A, offset_a,
                                      lda, stride_a, B, offset_b, ldb, stride_b, batch, NULL)))
        return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0 || n == 0 || nrhs == 0) return BCHOL_SUCCESS;

    bchol_solve_params chosen = {0};
    if (params) chosen = *params;
    int vw;
    bchol__complete_solve_params(ctx, p, n, nrhs, 0, &chosen, &vw);
    bchol_subst_plan plan;
    if ((st = bchol__potrs_subst_plan(ctx, p, &chosen, vw, upper, n, nrhs, &plan))) return st;
    bchol_call call;
    bchol__call_begin(&call, ctx);
    st = bchol__potrs_subst(&call, &plan, A, offset_a, lda, stride_a, B, offset_b, ldb, stride_b,
                            batch, NULL);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_spotrs_batched(bchol_context *ctx, char uplo, int n, int nrhs, cl_mem A,
                                  int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                  int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                  cl_event *event)
{
    return bchol__potrs_batched(ctx, "bchol_spotrs_batched", BCHOL_S, NULL, uplo, n, nrhs, A,
                                offset_a, lda, stride_a, B, offset_b, ldb, stride_b, batch, event);
}

bchol_status bchol_dpotrs_batched(bchol_context *ctx, char uplo, int n, int nrhs, cl_mem A,
                                  int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                  int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                  cl_event *event)
{
    return bchol__potrs_batched(ctx, "bchol_dpotrs_batched", BCHOL_D, NULL, uplo, n, nrhs, A,
                                offset_a, lda, stride_a, B, offset_b, ldb, stride_b, batch, event);
}

static const bchol_solve_params no_params = {0};

bchol_status bchol_spotrs_batched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                     char uplo, int n, int nrhs, cl_mem A, int64_t offset_a,
                                     int lda, int64_t stride_a, cl_mem B, int64_t offset_b, int ldb,
                                     int64_t stride_b, int64_t batch, cl_event *event)
{
    return bchol__potrs_batched(ctx, "bchol_spotrs_batched_ex", BCHOL_S,
                                params ? params : &no_params, uplo, n, nrhs, A, offset_a, lda,
                                stride_a, B, offset_b, ldb, stride_b, batch, event);
}

bchol_status bchol_dpotrs_batched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                     char uplo, int n, int nrhs, cl_mem A, int64_t offset_a,
                                     int lda, int64_t stride_a, cl_mem B, int64_t offset_b, int ldb,
                                     int64_t stride_b, int64_t batch, cl_event *event)
{
    return bchol__potrs_batched(ctx, "bchol_dpotrs_batched_ex", BCHOL_D,
                                params ? params : &no_params, uplo, n, nrhs, A, offset_a, lda,
                                stride_a, B, offset_b, ldb, stride_b, batch, event);
}
