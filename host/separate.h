/* What the separate variant's drivers share (potrf_separate.c: fixed sizes,
 * potrf_vbatched_separate.c: variable sizes). Never installed. */
#ifndef BCHOL_SEPARATE_H
#define BCHOL_SEPARATE_H

#include "internal.h"

/* Work-items of the GEMM-tile kernels (16 x 16 for the SYRK tiles). */
#define BCHOL_TILE_WG 256
/* Upper bound of the workspace of one call: the batch is chunked to stay below it. */
#define BCHOL_SEPARATE_WORKSPACE_CAP ((size_t)64 << 20)

typedef struct {
    int tm, tn, wm, wn, kb;
} bchol_tile_shape;

typedef struct {
    cl_kernel panel, trsm, syrk;
    bchol_tile_shape ts, ss;
    size_t panel_wg, tile_wg; /* work-items per group: panel, TRSM and SYRK */
} bchol_separate_kernels;

/* Builds (or finds) the panel, TRSM and SYRK kernels for prm's nb, pb and tile, with
 * -D VBATCHED=vbatched, and checks that the device can run them: in smaller work-groups
 * where a kernel's work-group limit is below the shape's; nb above that limit fails. */
bchol_status bchol__separate_kernels(bchol_context *ctx, bchol_precision p, const bchol_params *prm,
                                     int upper, int vbatched, bchol_separate_kernels *k);

/* Enqueues groups work-groups of wg work-items, in launches no larger than the grid
 * allows; args[g0_arg] receives the first group of each launch. */
bchol_status bchol__separate_launch_groups(bchol_call *call, cl_kernel kernel, bchol_arg *args,
                                           int nargs, int g0_arg, uint64_t groups, size_t wg);

#endif
