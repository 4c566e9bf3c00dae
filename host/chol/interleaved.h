/* What the Cholesky routines on the interleaved layout share: the generated kernel's build
 * and enqueue, the strided routine's interleaved variant, the interleaved solve and the
 * bodies of the public interleaved routines. Never installed. */
#ifndef BCHOL_INTERLEAVED_H
#define BCHOL_INTERLEAVED_H

#include "chol/chol.h"
#include "layout/layout.h"

/* Builds (or finds) the generated kernel that factors an interleaved batch of `batch`
 * matrices with chunk size chunk in a buffer of `elements` elements, fitted to the device:
 * *wg gets the work-items per group it runs with (params->chunk, or fewer). */
bchol_status bchol__interleaved_kernel(bchol_context *ctx, bchol_precision p,
                                      const bchol_params *params, int upper, int n, int64_t batch,
                                      int64_t chunk, uint64_t elements, int *wg, cl_kernel *kernel);

/* Enqueues the factorization of a checked, non-empty interleaved batch with complete
 * params (every field set); info of matrix b goes to info[info0 + b]. */
bchol_status bchol__potrf_interleaved_enqueue(bchol_call *call, bchol_precision p,
                                              const bchol_params *params, int upper, int n,
                                              cl_mem A, int64_t batch, int64_t chunk, cl_mem info,
                                              int64_t info0);

/* Builds (or finds) the staged kernel for the strided batch (params->chunking =
 * BCHOL_STAGED): *wg gets its matrices per group, params->chunk or fewer (local memory,
 * registers), *local its work-items per group. */
bchol_status bchol__ilv_staged_kernel(bchol_context *ctx, bchol_precision p,
                                      const bchol_params *params, int upper, int n, int *wg,
                                      size_t *local, cl_kernel *kernel);

/* Enqueues the staged factorization of a checked, non-empty strided batch with complete
 * params; info of matrix b goes to info[b]. */
bchol_status bchol__potrf_staged_enqueue(bchol_call *call, bchol_precision p,
                                         const bchol_params *params, int upper, int n, cl_mem A,
                                         int64_t offset, int lda, int64_t stride, int64_t batch,
                                         cl_mem info);

/* The strided routine's interleaved variant: for pieces of the batch, convert into a
 * workspace, factor there and convert the stored triangle back. With may_decline set
 * (the dispatcher chose the variant, the caller did not), a workspace of one work-group's
 * matrices that does not fit one allocation, or cannot be had, sets *declined and
 * returns success with nothing enqueued, so that the caller runs another variant. */
bchol_status bchol__potrf_via_interleaved(bchol_call *call, bchol_precision p,
                                          const bchol_params *params, int upper, int n, cl_mem A,
                                          int64_t offset, int lda, int64_t stride, int64_t batch,
                                          cl_mem info, int may_decline, int *declined);

/* Builds what bchol__potrf_via_interleaved runs with complete params on a batch of more
 * than one work-group of matrices: the conversion kernels and the generated kernel for the
 * workspace's layout. Enqueues nothing. */
bchol_status bchol__potrf_via_interleaved_prepare(bchol_context *ctx, bchol_precision p,
                                                  const bchol_params *params, int upper, int n);

/* Checks the interleaved fields of params (argument position pos) for order n; 0 fields
 * are allowed (they take the default). */
bchol_status bchol__check_interleaved_params(bchol_context *ctx, const char *routine, int pos,
                                             int n, const bchol_params *p);

/* The interleaved solve kernel (cl_kernels/chol/potrs_interleaved.cl), built and fitted to
 * the device for one problem shape before anything is enqueued (posv fails before it
 * factors). */
typedef struct {
    cl_kernel kernel;
    int nt, wg, n, nrhs;
    int block; /* rows per register block (blocked path), 0: the whole tile */
} bchol_ilv_solve_plan;

/* params may be NULL (defaults); its nt and tbc (work-group size) are used. The buffers
 * decide whether the lanes of a group may be addressed affinely (padding lanes exist). */
bchol_status bchol__potrs_interleaved_plan(bchol_context *ctx, bchol_precision p,
                                           const bchol_solve_params *params, int upper, int n,
                                           int nrhs, cl_mem A, cl_mem B, int64_t batch,
                                           int64_t chunk, bchol_ilv_solve_plan *plan);
/* Enqueues the solve of a checked, non-empty batch; with info not NULL, matrices whose
 * info is not zero keep their B. */
bchol_status bchol__potrs_interleaved_enqueue(bchol_call *call, const bchol_ilv_solve_plan *plan,
                                              cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                              cl_mem info);
/* The checks that potrs_interleaved and posv_interleaved share (k = 1 when an _ex params
 * argument comes second); sets *upper. */
bchol_status bchol__check_ilv_solve_args(bchol_context *ctx, const char *routine, int k,
                                         bchol_precision p, int factors, char uplo, int n,
                                         int nrhs, cl_mem A, cl_mem B, int64_t batch,
                                         int64_t chunk, int *upper);
/* After those checks (and posv's of info): how potrs (factors = 0) or posv uses A, B and
 * info (bchol__check_buffer_uses). */
bchol_status bchol__check_ilv_solve_uses(bchol_context *ctx, const char *routine, int k,
                                         bchol_precision p, int factors, int n, int nrhs,
                                         cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                         cl_mem info);

/* The bodies of the public interleaved routines (routine names the caller in messages;
 * params NULL for the plain forms), for the host-array forms (interleaved_host.c). */
bchol_status bchol__potrf_interleaved(bchol_context *ctx, const char *routine, bchol_precision p,
                                      const bchol_params *params, char uplo, int n, cl_mem A,
                                      int64_t batch, int64_t chunk, cl_mem info, cl_event *event);
bchol_status bchol__potrs_interleaved(bchol_context *ctx, const char *routine, bchol_precision p,
                                      const bchol_solve_params *params, char uplo, int n, int nrhs,
                                      cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                      cl_event *event);
bchol_status bchol__posv_interleaved(bchol_context *ctx, const char *routine, bchol_precision p,
                                     const bchol_params *params, char uplo, int n, int nrhs,
                                     cl_mem A, cl_mem B, int64_t batch, int64_t chunk, cl_mem info,
                                     cl_event *event);

#endif
