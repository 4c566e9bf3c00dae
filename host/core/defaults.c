/* BCHOL_DEFAULTS: whose default parameters a context uses. "generic" keeps the device's
 * backend for identity and driver quirks but takes the generic backend's defaults, so that
 * a tuning file can be measured against what bchol runs on a device it does not know;
 * unset, "" or "device" keeps the device backend's. Any other value gives one warning,
 * sent with the tuning files' at the first call that needs parameters (tuning_load.c: a
 * handler set after the context was made then receives it), and the device backend's
 * defaults. */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The device backend's, with every default parameter from generic's. */
static void take_generic_defaults(bchol_backend *b)
{
    const bchol_backend *g = &bchol__backend_generic;
    b->fused_defaults = g->fused_defaults;
    b->solve_defaults = g->solve_defaults;
    b->separate_defaults = g->separate_defaults;
    b->crossover_s = g->crossover_s;
    b->crossover_d = g->crossover_d;
    b->vbatched_defaults = g->vbatched_defaults;
    b->vbatched_crossover_s = g->vbatched_crossover_s;
    b->vbatched_crossover_d = g->vbatched_crossover_d;
    b->vbatched_one_launch_per_cu = g->vbatched_one_launch_per_cu;
    b->vbatched_one_launch_max_n = g->vbatched_one_launch_max_n;
    b->interleaved_defaults = g->interleaved_defaults;
    b->strided_variant = g->strided_variant;
    b->workitem_defaults = g->workitem_defaults;
    b->interleaved_solve_block = g->interleaved_solve_block;
}

void bchol__defaults_select(bchol_context *ctx, const bchol_backend *device_backend)
{
    const char *v = getenv("BCHOL_DEFAULTS");
    ctx->backend = device_backend;
    ctx->generic_defaults = 0;
    ctx->defaults_warning[0] = 0;
    if (!v || !*v || !strcmp(v, "device")) return;
    if (!strcmp(v, "generic")) {
        ctx->backend_copy = *device_backend;
        take_generic_defaults(&ctx->backend_copy);
        ctx->backend = &ctx->backend_copy;
        ctx->generic_defaults = 1;
        return;
    }
    snprintf(ctx->defaults_warning, sizeof ctx->defaults_warning,
             "bchol: BCHOL_DEFAULTS=%.100s is not one of device, generic; using the %s backend's "
             "defaults",
             v, device_backend->family);
}
