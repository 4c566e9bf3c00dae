/* bchol_{s,d}posv_batched: factor with the potrf path, then solve the matrices whose
 * factorization succeeded; the substitution kernel reads info and leaves the B of a
 * failed matrix untouched. */
#include "chol/chol.h"

bchol_status bchol__posv_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                 char uplo, int n, int nrhs, cl_mem A, int64_t offset_a, int lda,
                                 int64_t stride_a, cl_mem B, int64_t offset_b, int ldb,
                                 int64_t stride_b, int64_t batch, cl_mem info, cl_event *event)
{
    int upper;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = bchol__check_solve_args(ctx, routine, 0, p, 1, uplo, n, nrhs, A, offset_a, lda,
                                      stride_a, B, offset_b, ldb, stride_b, batch, &upper)))
        return st;
    if (batch > 0 &&
        (st = bchol__check_buffer(ctx, routine, 14, "info", info, bchol__info_bytes(batch),
                                  BCHOL_ERR_INFO, BCHOL_ERR_INFO_SIZE)))
        return st;
    if ((st = bchol__check_solve_uses(ctx, routine, 0, p, 1, n, nrhs, A, offset_a, lda, stride_a,
                                      B, offset_b, ldb, stride_b, batch, info)))
        return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;

    /* The solve kernel is built first: if it cannot be, the call fails before A changes. */
    const int solve = n > 0 && nrhs > 0;
    bchol_subst_plan plan;
    if (solve) {
        bchol_solve_params chosen = {0};
        int vw;
        bchol__complete_solve_params(ctx, p, n, nrhs, 0, &chosen, &vw);
        if ((st = bchol__potrs_subst_plan(ctx, p, &chosen, vw, upper, n, nrhs, &plan))) return st;
    }
    /* Every argument is checked, so potrf can only fail on its own limits (size, build). */
    cl_event factored = NULL;
    if ((st = bchol__potrf_batched(ctx, routine, p, NULL, uplo, n, A, offset_a, lda, stride_a,
                                   batch, info, &factored)))
        return st;
    bchol_call call;
    bchol__call_begin(&call, ctx);
    bchol__call_join(&call, factored);
    if (solve)
        st = bchol__potrs_subst(&call, &plan, A, offset_a, lda, stride_a, B, offset_b, ldb,
                                stride_b, batch, info);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sposv_batched(bchol_context *ctx, char uplo, int n, int nrhs, cl_mem A,
                                 int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                 int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                 cl_mem info, cl_event *event)
{
    return bchol__posv_batched(ctx, "bchol_sposv_batched", BCHOL_S, uplo, n, nrhs, A, offset_a, lda,
                               stride_a, B, offset_b, ldb, stride_b, batch, info, event);
}

bchol_status bchol_dposv_batched(bchol_context *ctx, char uplo, int n, int nrhs, cl_mem A,
                                 int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                 int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                 cl_mem info, cl_event *event)
{
    return bchol__posv_batched(ctx, "bchol_dposv_batched", BCHOL_D, uplo, n, nrhs, A, offset_a, lda,
                               stride_a, B, offset_b, ldb, stride_b, batch, info, event);
}
