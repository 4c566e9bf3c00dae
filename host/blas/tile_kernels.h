/* The batched-BLAS tile kernels' shared host side (tile_kernels.c): how a GEMM-shaped
 * kernel built on cl_kernels/blas/gemm_tile.cl is shaped (tiles per work-group, results
 * per work-item, the K chunk), built and checked against the device. The factorizations'
 * blocked drivers (today the Cholesky separate variant's TRSM and SYRK updates) build
 * their update kernels through these. Never installed. */
#ifndef BCHOL_TILE_KERNELS_H
#define BCHOL_TILE_KERNELS_H

#include "core/core.h"

/* Most work-items of a tile kernel (16 x 16 for the square SYRK tiles). */
#define BCHOL_TILE_WG 256

/* A tile of tm x tn results computed by work-items of wm x wn results each, K read in
 * chunks of kb. */
typedef struct {
    int tm, tn, wm, wn, kb;
} bchol_tile_shape;

/* The tile kernels' work-items under a kernel limit cap: the largest power of two up to
 * BCHOL_TILE_WG and cap. */
int bchol__tile_wg(size_t cap);
/* Square tiles of order tile over wg work-items for an update of inner order nb. */
bchol_tile_shape bchol__syrk_shape(int nb, int tile, int wg);
/* All nb columns in one group (an in-place solve against an nb-wide block): up to 16
 * work-items across them, the rest down at least tile rows. */
bchol_tile_shape bchol__trsm_shape(int nb, int tile, int wg);
/* Local memory of a tile kernel of shape s. */
size_t bchol__tile_local_bytes(bchol_precision p, bchol_tile_shape s);
/* The -D macros of shape s (TM, TN, WM, WN, KB). */
void bchol__tile_options(bchol_options *o, bchol_tile_shape s);

/* Builds (or finds) a kernel and checks that the device has local_bytes of local memory
 * for it (else BCHOL_ERR_RESOURCES naming it); where the kernel's own work-group limit is
 * below wg and below *limit, *limit is lowered to it (the caller rebuilds smaller). */
bchol_status bchol__get_kernel_checked(bchol_context *ctx, const char *const *files,
                                       const bchol_options *o, const char *name, size_t wg,
                                       size_t local_bytes, cl_kernel *k, size_t *limit);

#endif
