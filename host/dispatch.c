/* The dispatcher: which variant and parameters a routine uses on this device. For now
 * the backend's defaults; the tuning file will override them. */
#include "internal.h"
#include "clblast_gemm.h"

#include <stdio.h>

void bchol__fused_params(const bchol_context *ctx, bchol_precision p, int n,
                         bchol_params *params, const char **source)
{
    static _Thread_local char text[64]; /* per thread: contexts are shared between threads */
    params->variant = BCHOL_VARIANT_FUSED;
    ctx->backend->fused_defaults((char)p, n, params);
    if (source) {
        snprintf(text, sizeof text, "backend %s defaults", ctx->backend->family);
        *source = text;
    }
}

/* Largest n the dispatcher gives the fused variant (backend defaults). */
static int crossover(const bchol_context *ctx, bchol_precision p)
{
    return p == BCHOL_D ? ctx->backend->crossover_d : ctx->backend->crossover_s;
}

void bchol__complete_params(const bchol_context *ctx, bchol_precision p, int n,
                            bchol_params *params)
{
    bchol_params d = {0};
    bchol__fused_params(ctx, p, n, &d, NULL);
    if (params->ib <= 0) params->ib = d.ib;
    if (params->tbc <= 0) params->tbc = d.tbc;
    if (params->rpt <= 0) params->rpt = d.rpt;
    if (params->shape <= 0) params->shape = d.shape;

    /* The separate variant: above the crossover, and wherever the fused kernel cannot
     * hold n in local memory. */
    ctx->backend->separate_defaults((char)p, n, &d);
    if (d.gemm == BCHOL_GEMM_CLBLAST && !bchol__clblast_available()) d.gemm = BCHOL_GEMM_OWN;
    if (params->nb <= 0) params->nb = d.nb;
    if (params->pb <= 0) params->pb = d.pb;
    if (params->gemm <= 0) params->gemm = d.gemm;
    if (params->tile <= 0) params->tile = d.tile;
    if (params->gb <= 0) params->gb = d.gb;
    if (params->variant <= BCHOL_VARIANT_AUTO)
        params->variant = n > crossover(ctx, p) || n > bchol__fused_max_n(ctx, p, params)
                              ? BCHOL_VARIANT_SEPARATE
                              : BCHOL_VARIANT_FUSED;
}

bchol_status bchol_potrf_params(bchol_context *ctx, char precision, int n, bchol_params *params,
                                const char **source)
{
    if (!ctx) return bchol__fail(NULL, BCHOL_ERR_CONTEXT, "bchol_potrf_params: argument 1 (ctx) is NULL");
    if (precision != 's' && precision != 'd')
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "bchol_potrf_params: argument 2 (precision = %d) must be 's' or 'd'",
                           (int)precision);
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "bchol_potrf_params: argument 3 (n = %d) must be >= 0", n);
    if (!params) return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "bchol_potrf_params: argument 4 (params) is NULL");
    bchol_params chosen = {0};
    bchol__fused_params(ctx, (bchol_precision)precision, n, &chosen, source);
    chosen.variant = BCHOL_VARIANT_AUTO;
    bchol__complete_params(ctx, (bchol_precision)precision, n, &chosen);
    *params = chosen;
    return BCHOL_SUCCESS;
}

/* ---- solve (potrs, posv) ---------------------------------------------------------- */

void bchol__solve_params(const bchol_context *ctx, bchol_precision p, int n, int nrhs,
                         bchol_solve_params *params, const char **source)
{
    static char text[64];
    ctx->backend->solve_defaults((char)p, n, nrhs, params);
    params->variant = BCHOL_SOLVE_SUBST;
    if (source) {
        snprintf(text, sizeof text, "backend %s defaults", ctx->backend->family);
        *source = text;
    }
}

void bchol__complete_solve_params(const bchol_context *ctx, bchol_precision p, int n, int nrhs,
                                  bchol_solve_params *params)
{
    bchol_solve_params d;
    bchol__solve_params(ctx, p, n, nrhs, &d, NULL);
    if (params->variant <= BCHOL_SOLVE_AUTO) params->variant = d.variant;
    if (params->nt <= 0) params->nt = d.nt;
    if (params->rpt <= 0) params->rpt = d.rpt;
    if (params->tbc <= 0) params->tbc = d.tbc;
}

bchol_status bchol_potrs_params(bchol_context *ctx, char precision, int n, int nrhs,
                                bchol_solve_params *params, const char **source)
{
    if (!ctx) return bchol__fail(NULL, BCHOL_ERR_CONTEXT, "bchol_potrs_params: argument 1 (ctx) is NULL");
    if (precision != 's' && precision != 'd')
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "bchol_potrs_params: argument 2 (precision = %d) must be 's' or 'd'",
                           (int)precision);
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "bchol_potrs_params: argument 3 (n = %d) must be >= 0", n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "bchol_potrs_params: argument 4 (nrhs = %d) must be >= 0", nrhs);
    if (!params)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "bchol_potrs_params: argument 5 (params) is NULL");
    bchol__solve_params(ctx, (bchol_precision)precision, n, nrhs, params, source);
    return BCHOL_SUCCESS;
}

/* ---- variable-size batches -------------------------------------------------------------
 * The fused kernel's parameters at the largest n, one matrix per work-group, and the
 * seed's best version (lazy scheduling with ETM-aggressive; Abdelfattah et al. 2016,
 * Fig. 4). */

void bchol__vbatched_params(const bchol_context *ctx, bchol_precision p, int max_n,
                            bchol_vbatched_params *params, const char **source)
{
    bchol__fused_params(ctx, p, max_n, &params->fused, source);
    params->fused.tbc = 1;
    params->etm = BCHOL_ETM_AGGRESSIVE;
    params->schedule = BCHOL_SCHEDULE_LAZY;
}

void bchol__complete_vbatched_params(const bchol_context *ctx, bchol_precision p, int max_n,
                                     bchol_vbatched_params *params)
{
    bchol_vbatched_params d;
    bchol__vbatched_params(ctx, p, max_n, &d, NULL);
    if (params->fused.variant <= BCHOL_VARIANT_AUTO) params->fused.variant = d.fused.variant;
    if (params->fused.ib <= 0) params->fused.ib = d.fused.ib;
    if (params->fused.tbc <= 0) params->fused.tbc = d.fused.tbc;
    if (params->fused.rpt <= 0) params->fused.rpt = d.fused.rpt;
    if (params->fused.shape <= 0) params->fused.shape = d.fused.shape;
    if (params->etm <= BCHOL_ETM_DEFAULT) params->etm = d.etm;
    if (params->schedule <= BCHOL_SCHEDULE_DEFAULT) params->schedule = d.schedule;
}

bchol_status bchol_potrf_vbatched_params(bchol_context *ctx, char precision, int max_n,
                                         bchol_vbatched_params *params, const char **source)
{
    const char *r = "bchol_potrf_vbatched_params";
    if (!ctx) return bchol__fail(NULL, BCHOL_ERR_CONTEXT, "%s: argument 1 (ctx) is NULL", r);
    if (precision != 's' && precision != 'd')
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (precision = %d) must be 's' or 'd'",
                           r, (int)precision);
    if (max_n < 0) return bchol__fail(ctx, BCHOL_ERR_MAX_N, "%s: argument 3 (max_n = %d) must be >= 0", r, max_n);
    if (!params) return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 4 (params) is NULL", r);
    bchol__vbatched_params(ctx, (bchol_precision)precision, max_n, params, source);
    return BCHOL_SUCCESS;
}
