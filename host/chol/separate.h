/* What the separate variant's drivers share (potrf_separate.c: fixed sizes,
 * potrf_vbatched_separate.c: variable sizes). Never installed. */
#ifndef BCHOL_SEPARATE_H
#define BCHOL_SEPARATE_H

#include "chol/chol.h"
#include "blas/tile_kernels.h"

/* Upper bound of the workspace of one call: the batch is chunked to stay below it. */
#define BCHOL_SEPARATE_WORKSPACE_CAP ((size_t)64 << 20)

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

#endif
