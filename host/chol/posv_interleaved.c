/* bchol_{s,d}posv_interleaved[_ex]: factor with the generated interleaved kernel, then
 * solve the matrices whose factorization succeeded; the solve kernel reads info and
 * leaves the B of a failed matrix untouched. */
#include "chol/interleaved.h"

bchol_status bchol__posv_interleaved(bchol_context *ctx, const char *routine, bchol_precision p,
                                     const bchol_params *params, char uplo, int n, int nrhs,
                                     cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                     cl_mem info, cl_event *event)
{
    const int k = params ? 1 : 0;
    int upper;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (params && params->variant != BCHOL_VARIANT_AUTO &&
        params->variant != BCHOL_VARIANT_INTERLEAVED)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->variant = %d) must be AUTO or INTERLEAVED",
                           routine, (int)params->variant);
    if (params && (st = bchol__check_interleaved_params(ctx, routine, 2, n, params))) return st;
    if ((st = bchol__check_ilv_solve_args(ctx, routine, k, p, 1, uplo, n, nrhs, A, B, batch,
                                          chunk, &upper)))
        return st;
    if (batch > 0 &&
        (st = bchol__check_buffer(ctx, routine, 9 + k, "info", info,
                                  bchol__info_bytes(batch), BCHOL_ERR_INFO,
                                  BCHOL_ERR_INFO_SIZE)))
        return st;
    if ((st = bchol__check_ilv_solve_uses(ctx, routine, k, p, 1, n, nrhs, A, B, batch, chunk,
                                          info)))
        return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;

    /* The solve kernel is built first: if it cannot be, the call fails before A changes. */
    const int solve = n > 0 && nrhs > 0;
    bchol_ilv_solve_plan plan;
    if (solve && (st = bchol__potrs_interleaved_plan(ctx, p, NULL, upper, n, nrhs, A, B, batch,
                                                         chunk, &plan)))
        return st;
    bchol_call call;
    bchol__call_begin(&call, ctx);
    if (n == 0) return bchol__call_end(&call, bchol__fill_int(&call, info, 0, batch), event);
    bchol_params chosen = {0};
    if (params) chosen = *params;
    bchol__complete_interleaved_params(ctx, p, n, &chosen);
    st = bchol__potrf_interleaved_enqueue(&call, p, &chosen, upper, n, A, batch, chunk, info, 0);
    if (!st && solve) st = bchol__potrs_interleaved_enqueue(&call, &plan, A, B, batch, chunk, info);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sposv_interleaved(bchol_context *ctx, char uplo, int n, int nrhs, cl_mem A,
                                     cl_mem B, int64_t batch, int64_t chunk, cl_mem info,
                                     cl_event *event)
{
    return bchol__posv_interleaved(ctx, "bchol_sposv_interleaved", BCHOL_S, NULL, uplo, n, nrhs, A, B,
                            batch, chunk, info, event);
}

bchol_status bchol_dposv_interleaved(bchol_context *ctx, char uplo, int n, int nrhs, cl_mem A,
                                     cl_mem B, int64_t batch, int64_t chunk, cl_mem info,
                                     cl_event *event)
{
    return bchol__posv_interleaved(ctx, "bchol_dposv_interleaved", BCHOL_D, NULL, uplo, n, nrhs, A, B,
                            batch, chunk, info, event);
}

static const bchol_params no_params = {0};

bchol_status bchol_sposv_interleaved_ex(bchol_context *ctx, const bchol_params *params, char uplo,
                                        int n, int nrhs, cl_mem A, cl_mem B, int64_t batch,
                                        int64_t chunk, cl_mem info, cl_event *event)
{
    return bchol__posv_interleaved(ctx, "bchol_sposv_interleaved_ex", BCHOL_S,
                            params ? params : &no_params, uplo, n, nrhs, A, B, batch, chunk, info,
                            event);
}

bchol_status bchol_dposv_interleaved_ex(bchol_context *ctx, const bchol_params *params, char uplo,
                                        int n, int nrhs, cl_mem A, cl_mem B, int64_t batch,
                                        int64_t chunk, cl_mem info, cl_event *event)
{
    return bchol__posv_interleaved(ctx, "bchol_dposv_interleaved_ex", BCHOL_D,
                            params ? params : &no_params, uplo, n, nrhs, A, B, batch, chunk, info,
                            event);
}
