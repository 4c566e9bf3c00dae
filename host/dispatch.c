/* The dispatcher: which variant and parameters a routine uses on this device. The tuning
 * table's entry when one matches the device (tuning.h: vendor -> architecture -> name,
 * nearest measured size below), else the backend's defaults. */
#include "internal.h"
#include "tuning.h"

#include <stdio.h>

/* The text bchol_potrf_params hands out: valid until the next call in this thread. */
static _Thread_local char source_text[1024];

static void backend_defaults(const bchol_context *ctx, bchol_precision p, int n,
                             bchol_params *params)
{
    *params = (bchol_params){0};
    params->variant = BCHOL_VARIANT_FUSED;
    ctx->backend->fused_defaults((char)p, n, params);
}

/* The choice for `variant` (AUTO: the table's fastest variant at this size), and why
 * (why may be NULL). */
static void choose(bchol_context *ctx, bchol_precision p, int n, bchol_variant variant,
                   bchol_params *out, char *why, size_t size)
{
    char scratch[8];
    if (!why) {
        why = scratch;
        size = sizeof scratch;
    }
    backend_defaults(ctx, p, n, out);
    const struct bchol_tuning *t = bchol__tuning_for(ctx);
    bchol_tuning_pick pick = bchol__tuning_lookup(t, &ctx->info, (char)p, variant, n);
    const bchol_tuning_entry *e = pick.entry;
    const char *family = ctx->backend->family;
    if (!e) {
        if (t)
            snprintf(why, size, "backend %s defaults (the tuning files for this device have no %c%s%s entry)",
                     family, (char)p, variant == BCHOL_VARIANT_AUTO ? "" : " ",
                     variant == BCHOL_VARIANT_AUTO ? "" : bchol__variant_name(variant));
        else
            snprintf(why, size, "backend %s defaults (%s)", family, ctx->tuning_note);
        return;
    }
    const bchol_tuning_section *s = pick.section;
    const char *vname = bchol__variant_name(e->variant);
    if (e->variant == BCHOL_VARIANT_FUSED && n > bchol__fused_max_n(ctx, p, &e->params)) {
        snprintf(why, size,
                 "backend %s defaults (the tuned %c %s entry for n = %d in %s needs more local "
                 "memory than the device has at n = %d)",
                 family, e->precision, vname, e->n, s->file, n);
        return;
    }
    *out = e->params;
    char measured[128] = "";
    if (e->ms >= 0 && e->default_ms >= 0)
        snprintf(measured, sizeof measured, "; tuned %.4g ms vs %.4g ms with the defaults", e->ms,
                 e->default_ms);
    char where[96];
    if (pick.below_smallest)
        snprintf(where, sizeof where, "the smallest measured size (n = %d is below it)", n);
    else if (e->n == n)
        snprintf(where, sizeof where, "measured at this size");
    else
        snprintf(where, sizeof where, "the nearest measured size below n = %d", n);
    snprintf(why, size, "tuning file %s, devices[%d] %s/%s/%s%s%s: %c %s entry for n = %d, %s%s",
             s->file, s->index, s->vendor, s->architecture, s->name, s->family[0] ? " family " : "",
             s->family, e->precision, vname, e->n, where, measured);
}

void bchol__fused_params(bchol_context *ctx, bchol_precision p, int n, bchol_params *params,
                         const char **source)
{
    choose(ctx, p, n, BCHOL_VARIANT_FUSED, params, source ? source_text : NULL, sizeof source_text);
    if (source) *source = source_text;
}

void bchol__complete_params(bchol_context *ctx, bchol_precision p, int n, bchol_params *params)
{
    bchol_params d;
    choose(ctx, p, n, params->variant, &d, NULL, 0);
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
    choose(ctx, (bchol_precision)precision, n, BCHOL_VARIANT_AUTO, params, source_text,
           sizeof source_text);
    if (source) *source = source_text;
    return BCHOL_SUCCESS;
}
