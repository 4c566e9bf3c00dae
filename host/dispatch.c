/* The dispatcher: which variant and parameters a routine uses on this device. For now
 * the backend's defaults; the tuning file will override them. */
#include "internal.h"
#include "clblast_gemm.h"

#include <stdio.h>

void bchol__fused_params(const bchol_context *ctx, bchol_precision p, int n,
                         bchol_params *params, const char **source)
{
    static char text[64];
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
