/* Driver of the interleaved factorization: generates the kernel for (n, nb, looking,
 * unroll, chunk, uplo), builds it after common.cl through the program cache (precision
 * and fast math as build options), and enqueues one work-item per matrix in work-groups
 * of params->chunk work-items. */
#include "chol/interleaved.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bchol_status get_kernel(bchol_context *ctx, bchol_precision p, const bchol_ilv_config *cfg,
                               int fast_math, cl_kernel *kernel)
{
    char *common = NULL, *body = NULL, *text = NULL;
    bchol_status st = bchol__kernel_source(ctx, "common/common.cl", &common);
    if (st) return st;
    if ((body = bchol__interleaved_source(cfg)) &&
        (text = malloc(strlen(common) + strlen(body) + 64))) {
        /* #line keeps build-log positions meaningful in both parts. */
        sprintf(text, "#line 1 \"common.cl\"\n%s\n#line 1 \"generated\"\n%s", common, body);
        bchol_options o;
        bchol__options_init(&o);
        bchol__options_precision(&o, p);
        /* Fast math is the part of -cl-unsafe-math-optimizations that cannot change info:
         * the whole option let PoCL flush subnormals to zero, and a positive subnormal
         * pivot (info 0 for LAPACK) then failed (info = its column). */
        if (fast_math) {
            bchol__options_add(&o, "-cl-mad-enable");
            bchol__options_add(&o, "-cl-no-signed-zeros");
        }
        st = bchol__get_kernel_from_text(ctx, text, &o,
                                         cfg->staged ? BCHOL_ILV_STAGED_KERNEL : BCHOL_ILV_KERNEL, kernel);
    } else {
        st = bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "no memory for the generated kernel text");
    }
    free(common);
    free(body);
    free(text);
    return st;
}

/* Whether the wg lanes of each work-group are consecutive in one chunk and all lie in the
 * buffer of `elements` (padding lanes of the last group included). */
static int lanes_aligned(int n, int64_t batch, int64_t chunk, int wg, uint64_t elements)
{
    const int64_t lanes = (batch + wg - 1) / wg * wg;
    if (chunk % wg != 0 && lanes > chunk) return 0;
    const uint64_t span = bchol__interleaved_span(n, lanes, chunk);
    return span && span <= elements;
}

/* The generator's configuration from params: tiles, order, storage, and params->chunk
 * work-items (matrices) per group within the device's limit. */
static bchol_ilv_config config_of(const bchol_context *ctx, const bchol_params *params, int upper,
                                  int n, int staged)
{
    bchol_ilv_config cfg = {0};
    cfg.n = n;
    cfg.nb = params->inb < n ? params->inb : n;
    cfg.looking = params->looking;
    cfg.unroll = params->unroll;
    cfg.upper = upper;
    cfg.staged = staged;
    cfg.wg = params->chunk;
    if ((size_t)cfg.wg > ctx->info.max_work_group) cfg.wg = (int)ctx->info.max_work_group;
    return cfg;
}

bchol_status bchol__interleaved_kernel(bchol_context *ctx, bchol_precision p,
                                      const bchol_params *params, int upper, int n, int64_t batch,
                                      int64_t chunk, uint64_t elements, int *wg, cl_kernel *kernel)
{
    bchol_ilv_config cfg = config_of(ctx, params, upper, n, 0);
    /* A layout of several chunks gets its chunk size built in (constant address offsets);
     * one chunk (the simple layout) takes it as an argument, so that the batch size does
     * not make a new program. */
    cfg.chunk = chunk < batch ? chunk : 0;

    bchol_status st;
    /* A long kernel may take fewer work-items per group than asked (registers). */
    for (;;) {
        cfg.aligned = lanes_aligned(n, batch, chunk, cfg.wg, elements);
        /* CPUs vectorize across work-items; a branch-free store keeps them doing it.
         * BCHOL_STORES=blend|predicated picks one (for testing both on one device). */
        const char *force = getenv("BCHOL_STORES");
        cfg.blend = cfg.aligned && (force && *force ? !strcmp(force, "blend")
                                                    : (ctx->info.type & CL_DEVICE_TYPE_CPU) != 0);
        if ((st = get_kernel(ctx, p, &cfg, params->math == BCHOL_MATH_FAST, kernel))) return st;
        size_t limit = bchol__kernel_wg_limit(ctx, *kernel);
        if ((size_t)cfg.wg <= limit) break;
        if (cfg.wg == 1)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "interleaved kernel: n = %d, nb = %d does not run even with one "
                               "work-item per group on this device",
                               n, cfg.nb);
        cfg.wg = (int)limit < cfg.wg / 2 ? (int)limit : cfg.wg / 2;
    }
    *wg = cfg.wg;
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrf_interleaved_enqueue(bchol_call *call, bchol_precision p,
                                              const bchol_params *params, int upper, int n,
                                              cl_mem A, int64_t batch, int64_t chunk, cl_mem info,
                                              int64_t info0)
{
    bchol_context *ctx = call->ctx;
    size_t size = 0;
    clGetMemObjectInfo(A, CL_MEM_SIZE, sizeof size, &size, NULL);
    cl_kernel kernel;
    int wg;
    bchol_status st = bchol__interleaved_kernel(ctx, p, params, upper, n, batch, chunk,
                                                size / bchol__elem_size(p), &wg, &kernel);
    if (st) return st;

    const size_t local = (size_t)wg;
    const int64_t per_launch = bchol__launch_batch_limit(ctx, wg, local);
    cl_ulong ch = (cl_ulong)chunk, total = (cl_ulong)batch, i0 = (cl_ulong)info0;
    for (int64_t first = 0; first < batch; first += per_launch) {
        const int64_t count = batch - first < per_launch ? batch - first : per_launch;
        const size_t global = (size_t)((count + wg - 1) / wg) * local;
        cl_ulong b0 = (cl_ulong)first;
        bchol_arg args[] = {BCHOL_ARG(A),  BCHOL_ARG(ch),   BCHOL_ARG(total),
                            BCHOL_ARG(b0), BCHOL_ARG(info), BCHOL_ARG(i0)};
        if ((st = bchol__launch(call, kernel, 6, args, 1, &global, &local))) return st;
    }
    return BCHOL_SUCCESS;
}

/* ---- the staged kernel: strided batches through local memory ---------------------------- */

/* Work-items a staged group's copies take where the kernel allows: its factoring
 * work-items and helpers (see interleaved_gen.c, stage_copy). */
#define STAGED_COPY_ITEMS 256

bchol_status bchol__ilv_staged_kernel(bchol_context *ctx, bchol_precision p,
                                      const bchol_params *params, int upper, int n, int *wg,
                                      size_t *local, cl_kernel *kernel)
{
    bchol_ilv_config cfg = config_of(ctx, params, upper, n, 1);
    /* as many matrices per group as local memory holds */
    const size_t es = bchol__elem_size(p);
    const uint64_t room = bchol__usable_local_mem(ctx);
    while (cfg.wg > 1 && bchol__ilv_staged_local_bytes(n, cfg.wg, es) > room) cfg.wg--;
    if (bchol__ilv_staged_local_bytes(n, cfg.wg, es) > room)
        return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                           "interleaved kernel, staged: n = %d needs %llu bytes of local memory "
                           "for one matrix; the device has %llu",
                           n, (unsigned long long)bchol__ilv_staged_local_bytes(n, 1, es),
                           (unsigned long long)room);
    /* The copies take about STAGED_COPY_ITEMS work-items, fewer where the kernel takes
     * fewer (registers), and then fewer matrices per group. */
    cfg.copy_items = STAGED_COPY_ITEMS;
    for (;;) {
        size_t limit = ctx->info.max_work_group;
        if ((size_t)cfg.copy_items > limit) cfg.copy_items = (int)limit;
        const size_t items = (size_t)bchol__ilv_staged_items(n, cfg.wg, cfg.copy_items);
        if (items <= limit) {
            bchol_status st = get_kernel(ctx, p, &cfg, params->math == BCHOL_MATH_FAST, kernel);
            if (st) return st;
            limit = bchol__kernel_wg_limit(ctx, *kernel);
            if (items <= limit) break;
        }
        if ((size_t)cfg.copy_items > limit)
            cfg.copy_items = (int)limit;
        else if (cfg.wg > 1)
            cfg.wg /= 2;
        else
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "interleaved kernel, staged: n = %d, nb = %d does not run even "
                               "with one matrix per group on this device",
                               n, cfg.nb);
    }
    *wg = cfg.wg;
    *local = (size_t)bchol__ilv_staged_items(n, cfg.wg, cfg.copy_items);
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrf_staged_enqueue(bchol_call *call, bchol_precision p,
                                         const bchol_params *params, int upper, int n, cl_mem A,
                                         int64_t offset, int lda, int64_t stride, int64_t batch,
                                         cl_mem info)
{
    cl_kernel kernel;
    int wg;
    size_t local;
    bchol_status st = bchol__ilv_staged_kernel(call->ctx, p, params, upper, n, &wg, &local, &kernel);
    if (st) return st;
    cl_ulong off = (cl_ulong)offset, str = (cl_ulong)stride, total = (cl_ulong)batch, g0 = 0;
    cl_int ld = lda;
    bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off),  BCHOL_ARG(ld), BCHOL_ARG(str),
                        BCHOL_ARG(total), BCHOL_ARG(info), BCHOL_ARG(g0)};
    return bchol__launch_groups(call, kernel, args, 7, 6, (uint64_t)((batch + wg - 1) / wg), local);
}
