/* getri's paths (bchol_{s,d}getri_batched): the choice between them and the drivers of
 * cl_kernels/lu/getri.cl; the solve-based path is lu_solve.h's. Never installed. */
#ifndef BCHOL_GETRI_H
#define BCHOL_GETRI_H

#include "lu/lu.h"

/* The fused kernel keeps a row of n in registers. */
#define BCHOL_GETRI_FUSED_MAX 64

/* The path and the blocked path's block width nb (1..64), GEMM (always BCHOL_GEMM_OWN:
 * see bchol__getri_choose) and matrices a piece of the batch (0: as many as the workspace cap
 * allows; tests set fewer to reach several pieces). */
typedef struct {
    bchol_getri_path path;
    int nb, gemm, chunk;
} bchol_getri_choice;

/*
 * The path for order n > 0: BCHOL_GETRI ("solve", "fused", "auto" or
 * "blocked[,nb=NB][,chunk=M]") where set, else auto; auto takes the fused kernel where
 * the backend's getri_fused_from <= n <= getri_fused_to_s/_d (at most
 * BCHOL_GETRI_FUSED_MAX), else the solve where n <= getri_solve_to_s/_d, else the blocked
 * path with the backend's getri_nb_s/_d and bchol's GEMM (CLBlast's only when asked). Fails with
 * BCHOL_ERR_ARGUMENT (nothing enqueued) on a malformed BCHOL_GETRI, fused above
 * BCHOL_GETRI_FUSED_MAX, or CLBlast asked for without it.
 */
bchol_status bchol__getri_choose(bchol_context *ctx, const char *routine, bchol_precision p,
                                 int n, bchol_getri_choice *c);

/* Enqueues the fused getri of a checked batch, 0 < n <= BCHOL_GETRI_FUSED_MAX, batch > 0. */
bchol_status bchol__getri_fused(bchol_call *call, bchol_precision p, int n, cl_mem A,
                                int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                int64_t offset_p, int64_t stride_p, cl_mem C, int64_t offset_c,
                                int ldc, int64_t stride_c, int64_t batch, cl_mem info);

/* Enqueues the blocked getri of a checked batch, n > 0, batch > 0, through a workspace of
 * n*n elements a matrix (the batch in pieces within 1 GiB and max_alloc, or of c->chunk). */
bchol_status bchol__getri_blocked(bchol_call *call, bchol_precision p, const bchol_getri_choice *c,
                                  int n, cl_mem A, int64_t offset_a, int lda, int64_t stride_a,
                                  cl_mem ipiv, int64_t offset_p, int64_t stride_p, cl_mem C,
                                  int64_t offset_c, int ldc, int64_t stride_c, int64_t batch,
                                  cl_mem info);

#endif /* BCHOL_GETRI_H */
