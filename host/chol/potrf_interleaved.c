/* bchol_{s,d}potrf_interleaved[_ex]: argument checks, quick returns, then the generated
 * interleaved kernel. Also the checks of the interleaved fields of bchol_params, which the
 * strided _ex routines share. */
#include "chol/interleaved.h"

/* Fully unrolled code grows as n^3/6 statements: past this order the build takes minutes
 * and the seed found no gain past n = 20. */
#define MAX_FULL_N 64

bchol_status bchol__check_interleaved_params(bchol_context *ctx, const char *routine, int pos,
                                             int n, const bchol_params *p)
{
    const char *what = NULL;
    int value = 0;
    if (p->inb > 64) what = "inb", value = p->inb;
    else if (p->looking > BCHOL_LOOKING_TOP) what = "looking", value = p->looking;
    else if (p->unroll > BCHOL_UNROLL_FULL) what = "unroll", value = p->unroll;
    else if (p->chunking > BCHOL_STAGED) what = "chunking", value = p->chunking;
    else if (p->chunk > 1024) what = "chunk", value = p->chunk;
    else if (p->math > BCHOL_MATH_FAST) what = "math", value = p->math;
    if (what)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument %d (params->%s = %d) is out of range (inb <= 64, chunk <= "
                           "1024, or not one of the BCHOL_LOOKING/UNROLL/CHUNKED/MATH values)",
                           routine, pos, what, value);
    if (p->unroll == BCHOL_UNROLL_FULL && n > MAX_FULL_N)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument %d (params->unroll = full) is limited to n <= %d (n = %d)",
                           routine, pos, MAX_FULL_N, n);
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrf_interleaved(bchol_context *ctx, const char *routine, bchol_precision p,
                                      const bchol_params *params, char uplo, int n, cl_mem A,
                                      int64_t batch, int64_t chunk, cl_mem info, cl_event *event)
{
    /* Positions of the arguments after ctx: the _ex forms have params in position 2. */
    const int k = params ? 1 : 0;
    int upper;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (params && params->variant != BCHOL_VARIANT_AUTO && params->variant != BCHOL_VARIANT_INTERLEAVED)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->variant = %d) must be AUTO or INTERLEAVED",
                           routine, (int)params->variant);
    if (params && (st = bchol__check_interleaved_params(ctx, routine, 2, n, params))) return st;
    if ((st = bchol__check_uplo(ctx, routine, 2 + k, uplo, &upper))) return st;
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument %d (n = %d) must be >= 0", routine, 3 + k, n);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument %d (batch = %lld) must be >= 0",
                           routine, 5 + k, (long long)batch);
    if (chunk < 1)
        return bchol__fail(ctx, BCHOL_ERR_CHUNK, "%s: argument %d (chunk = %lld) must be >= 1",
                           routine, 6 + k, (long long)chunk);
    const size_t es = bchol__elem_size(p);
    const uint64_t span = batch > 0 ? bchol__interleaved_span(n, batch, chunk) : 0;
    if (batch > 0 && n > 0 && (!span || span > UINT64_MAX / es))
        return bchol__fail(ctx, BCHOL_ERR_A_SIZE,
                           "%s: the interleaved batch (n = %d, chunk = %lld) spans more than 2^63 "
                           "elements",
                           routine, n, (long long)chunk);
    if (batch > 0 && n > 0 &&
        (st = bchol__check_buffer(ctx, routine, 4 + k, "A", A, span * es, BCHOL_ERR_A,
                                  BCHOL_ERR_A_SIZE)))
        return st;
    if (batch > 0 && (st = bchol__check_buffer(ctx, routine, 7 + k, "info", info,
                                               bchol__info_bytes(batch), BCHOL_ERR_INFO,
                                               BCHOL_ERR_INFO_SIZE)))
        return st;
    const bchol_buffer_use uses[] = {
        {4 + k, "A", n > 0 ? A : NULL, 0, span * es, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_A},
        {7 + k, "info", info, 0, bchol__info_bytes(batch), BCHOL__READ | BCHOL__WRITE,
         BCHOL_ERR_INFO}};
    if (batch > 0 && (st = bchol__check_buffer_uses(ctx, routine, uses, 2))) return st;
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;

    bchol_call call;
    bchol__call_begin(&call, ctx);
    if (n == 0) return bchol__call_end(&call, bchol__fill_int(&call, info, 0, batch), event);
    bchol_params chosen = {0};
    if (params) chosen = *params;
    bchol__complete_interleaved_params(ctx, p, n, &chosen);
    st = bchol__potrf_interleaved_enqueue(&call, p, &chosen, upper, n, A, batch, chunk, info, 0);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_spotrf_interleaved(bchol_context *ctx, char uplo, int n, cl_mem A, int64_t batch,
                                      int64_t chunk, cl_mem info, cl_event *event)
{
    return bchol__potrf_interleaved(ctx, "bchol_spotrf_interleaved", BCHOL_S, NULL, uplo, n, A, batch, chunk,
                             info, event);
}

bchol_status bchol_dpotrf_interleaved(bchol_context *ctx, char uplo, int n, cl_mem A, int64_t batch,
                                      int64_t chunk, cl_mem info, cl_event *event)
{
    return bchol__potrf_interleaved(ctx, "bchol_dpotrf_interleaved", BCHOL_D, NULL, uplo, n, A, batch, chunk,
                             info, event);
}

static const bchol_params no_params = {0};

bchol_status bchol_spotrf_interleaved_ex(bchol_context *ctx, const bchol_params *params, char uplo,
                                         int n, cl_mem A, int64_t batch, int64_t chunk, cl_mem info,
                                         cl_event *event)
{
    return bchol__potrf_interleaved(ctx, "bchol_spotrf_interleaved_ex", BCHOL_S, params ? params : &no_params,
                             uplo, n, A, batch, chunk, info, event);
}

bchol_status bchol_dpotrf_interleaved_ex(bchol_context *ctx, const bchol_params *params, char uplo,
                                         int n, cl_mem A, int64_t batch, int64_t chunk, cl_mem info,
                                         cl_event *event)
{
    return bchol__potrf_interleaved(ctx, "bchol_dpotrf_interleaved_ex", BCHOL_D, params ? params : &no_params,
                             uplo, n, A, batch, chunk, info, event);
}
