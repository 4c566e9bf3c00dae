/* The dispatcher: which variant and parameters a routine uses on this device. For now
 * the backend's defaults; the tuning file will override them. */
#include "internal.h"

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

/* ---- interleaved variant: its fields and the variant of strided batches ---------------- */

void bchol__strided_params(const bchol_context *ctx, bchol_precision p, int n,
                           bchol_params *params, const char **source)
{
    bchol__fused_params(ctx, p, n, params, source);
    ctx->backend->interleaved_defaults((char)p, n, params);
    params->variant = ctx->backend->strided_variant((char)p, n);
}

void bchol__complete_params(const bchol_context *ctx, bchol_precision p, int n,
                            bchol_params *params)
{
    bchol_params d;
    bchol__strided_params(ctx, p, n, &d, NULL);
    if (params->nb <= 0) params->nb = d.nb;
    if (params->looking <= 0) params->looking = d.looking;
    if (params->unroll <= 0) params->unroll = d.unroll;
    if (params->chunking <= 0) params->chunking = d.chunking;
    if (params->chunk <= 0) params->chunk = d.chunk;
    if (params->math <= 0) params->math = d.math;
    if (params->variant <= BCHOL_VARIANT_AUTO) params->variant = d.variant;
    if (params->ib <= 0) params->ib = d.ib;
    if (params->tbc <= 0) params->tbc = d.tbc;
    if (params->rpt <= 0) params->rpt = d.rpt;
    if (params->shape <= 0) params->shape = d.shape;
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
    bchol__strided_params(ctx, (bchol_precision)precision, n, params, source);
    return BCHOL_SUCCESS;
}
