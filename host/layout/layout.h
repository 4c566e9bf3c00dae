/* The interleaved layout (matrix index fastest, in chunks): the conversions between strided
 * and interleaved batches (interleave.c, interleave_rhs.c: also the public bchol_?interleave
 * routines) and the generator of the unrolled interleaved factorization kernels
 * (interleaved_gen.c). Calls only the core layer. Never installed. */
#ifndef BCHOL_LAYOUT_H
#define BCHOL_LAYOUT_H

#include "core/core.h"

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

#endif /* BCHOL_LAYOUT_H */
