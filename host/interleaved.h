/* What the interleaved-layout files share: the kernel generator's configuration, the
 * enqueue functions of the factorization and of the layout conversions. Never installed. */
#ifndef BCHOL_INTERLEAVED_H
#define BCHOL_INTERLEAVED_H

#include "internal.h"

/* One generated factorization kernel. */
typedef struct {
    int n;       /* order of the matrices */
    int nb;      /* tile size, 1..n */
    int looking; /* BCHOL_LOOKING_LEFT / _RIGHT / _TOP */
    int unroll;  /* BCHOL_UNROLL_TILES / _FULL */
    int upper;   /* 0: lower storage, 1: upper storage (L(i,j) read at (j,i)) */
    int64_t chunk; /* > 0: the layout's chunk size, built into the code; 0: a kernel argument */
    int wg;      /* work-items per work-group (reqd_work_group_size) */
    /* 1: the wg lanes of every work-group are consecutive in one chunk and all exist in the
     * buffer (padding lanes included), so addresses are affine in the work-item id and
     * every lane loads without a clamp (CPU compilers vectorize across work-items then). */
    int aligned;
    /* 1 (needs aligned): a store writes the old value back where the matrix has failed or
     * the lane is padding, instead of skipping it -- branch-free code for CPUs. */
    int blend;
    /* 1: the staged kernel (BCHOL_ILV_STAGED_KERNEL) of the strided routine: each
     * work-group copies its wg matrices' stored triangles from the strided batch into local
     * memory, interleaved, factors them there and copies them back (aligned, blend and
     * chunk unused). */
    int staged;
    int copy_items; /* staged: about how many work-items a group's copies take (>= 1) */
} bchol_ilv_config;

/* Name of the generated kernel. Arguments: (global REAL *A, ulong chunk, ulong batch,
 * ulong b0, global int *info, ulong info0); work-item g factors matrix b = b0 + g if it
 * is < batch, and writes info[info0 + b]. */
#define BCHOL_ILV_KERNEL "potrf_interleaved"

/* Name of the staged kernel. Arguments: (global REAL *A, ulong offset, int lda, ulong
 * stride, ulong batch, global int *info, ulong g0): work-group g0 + g (of
 * bchol__ilv_staged_items(n, wg, copy_items) work-items) factors matrices (g0 + g)*wg ...
 * of the strided batch (element (i, j) of matrix b at offset + b*stride + i + j*lda) and
 * writes their info at info[b]. */
#define BCHOL_ILV_STAGED_KERNEL "potrf_interleaved_staged"

/* Local memory of the staged kernel for order n and wg work-items per group: the lower
 * triangle of wg matrices, wg + 1 elements apart (see interleaved_gen.c). */
uint64_t bchol__ilv_staged_local_bytes(int n, int wg, size_t elem_size);
/* Work-items of a staged group of wg matrices whose copies take about cap work-items
 * (>= wg: the copies take more than the factorization). */
int bchol__ilv_staged_items(int n, int wg, int cap);

/* OpenCL C text of the kernel for cfg, to be built after common.cl with the precision
 * macros. Returns NULL when out of memory; the caller frees the text. */
char *bchol__interleaved_source(const bchol_ilv_config *cfg);

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

/* Enqueues a copy strided A -> interleaved B (to_interleaved = 1) or back, of a checked
 * batch. uplo_mode: 0 lower triangle, 1 upper triangle, 2 the whole matrix. lanes >= batch:
 * the copy into B also writes the identity (its copied part) into lanes batch..lanes-1, so
 * that a kernel run over whole work-groups reads no memory nobody wrote (a workspace's
 * padding lanes); back, it is ignored. */
bchol_status bchol__interleave_enqueue(bchol_call *call, bchol_precision p, int to_interleaved,
                                       int uplo_mode, int n, cl_mem A, int64_t offset, int lda,
                                       int64_t stride, cl_mem B, int64_t batch, int64_t chunk,
                                       int64_t lanes);

/* Builds (or finds) the conversion kernels that bchol__interleave_enqueue uses, both ways. */
bchol_status bchol__interleave_prepare(bchol_context *ctx, bchol_precision p);

/* The same copy of n-by-cols blocks (right-hand sides: mode 2, cols = nrhs); the
 * interleaved block b starts at (b/chunk)*n*cols*chunk + b%chunk. */
bchol_status bchol__interleave_rect_enqueue(bchol_call *call, bchol_precision p,
                                            int to_interleaved, int uplo_mode, int n, int cols,
                                            cl_mem A, int64_t offset, int lda, int64_t stride,
                                            cl_mem B, int64_t batch, int64_t chunk, int64_t lanes);

/* Elements an interleaved batch spans (see bchol.h), or 0 on overflow past 2^63; the
 * _rect form for rows-by-cols blocks (right-hand sides). */
uint64_t bchol__interleaved_span(int n, int64_t batch, int64_t chunk);
uint64_t bchol__interleaved_span_rect(int rows, int cols, int64_t batch, int64_t chunk);

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

/* The interleaved solve kernel (cl_kernels/potrs_interleaved.cl), built and fitted to
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
