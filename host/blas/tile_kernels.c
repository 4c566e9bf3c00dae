/* Shapes, build options and device checks of the GEMM-tile kernels (tile_kernels.h). */
#include "blas/tile_kernels.h"

static int pow2_at_least(int x)
{
    int p = 1;
    while (p < x) p <<= 1;
    return p;
}

/* K is at most nb: chunks of 16, or the whole of a smaller nb. */
static int k_chunk(int nb) { return bchol__min_int(16, pow2_at_least(nb)); }

/* 16 x 16 work-items with (tile/16)^2 results each, or rx x cx with rx <= cx where fewer
 * work-items are allowed (wg a power of two up to 256). */
bchol_tile_shape bchol__syrk_shape(int nb, int tile, int wg)
{
    int rx = 1;
    while (rx * rx * 4 <= wg) rx <<= 1;
    const int cx = wg / rx;
    return (bchol_tile_shape){tile, tile, tile / rx, tile / cx, k_chunk(nb)};
}

bchol_tile_shape bchol__trsm_shape(int nb, int tile, int wg)
{
    const int cx = bchol__min_int(bchol__min_int(16, pow2_at_least(nb)), wg), rx = wg / cx;
    const int wn = bchol__ceil_div(nb, cx), wm = tile > rx ? tile / rx : 1;
    return (bchol_tile_shape){rx * wm, cx * wn, wm, wn, k_chunk(nb)};
}

int bchol__tile_wg(size_t cap)
{
    int p = 1;
    while ((size_t)p * 2 <= cap && p < BCHOL_TILE_WG) p <<= 1;
    return p;
}

size_t bchol__tile_local_bytes(bchol_precision p, bchol_tile_shape s)
{
    return (size_t)s.kb * (size_t)(s.tm + 1 + s.tn + 1) * bchol__elem_size(p);
}

void bchol__tile_options(bchol_options *o, bchol_tile_shape s)
{
    bchol__options_add(o, "-D TM=%d", s.tm);
    bchol__options_add(o, "-D TN=%d", s.tn);
    bchol__options_add(o, "-D WM=%d", s.wm);
    bchol__options_add(o, "-D WN=%d", s.wn);
    bchol__options_add(o, "-D KB=%d", s.kb);
}

bchol_status bchol__get_kernel_checked(bchol_context *ctx, const char *const *files,
                                       const bchol_options *o, const char *name, size_t wg,
                                       size_t local_bytes, cl_kernel *k, size_t *limit)
{
    bchol_status st = bchol__get_kernel(ctx, files, o, name, k);
    if (st) return st;
    if (local_bytes > bchol__usable_local_mem(ctx))
        return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                           "separate variant: %s needs %zu bytes of local memory; the device has "
                           "%llu (lower nb or tile)",
                           name, local_bytes, (unsigned long long)bchol__usable_local_mem(ctx));
    const size_t has = bchol__kernel_wg_limit(ctx, *k);
    if (has < wg && has < *limit) *limit = has;
    return BCHOL_SUCCESS;
}
