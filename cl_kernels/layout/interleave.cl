/* Copies between strided and interleaved batches (bchol_{s,d}interleave, _deinterleave,
 * and the n-by-cols right-hand sides of bchol_{s,d}interleave_rhs, _deinterleave_rhs).
 *
 * Element (i, j) of matrix b is at offset + b*stride + i + j*lda in the strided batch and
 * at ((b / chunk) * n*cols + e) * chunk + b % chunk, e = i + j*n, in the interleaved one
 * (cols = n for the square matrices). Only
 * elements in the copied part (mode 0: lower triangle, 1: upper triangle, 2: all) are read
 * or written; matrices at or past batch are not touched, but for lanes batch..lanes-1 of an
 * interleaved destination, which get the identity (a workspace's padding lanes, read by
 * kernels that run whole work-groups; lanes = batch otherwise).
 *
 * Two shapes of the same copy:
 *  - interleave/deinterleave (GPUs): a batched transpose of the (matrix, element) index
 *    pair; a work-group moves a TILE-by-TILE block through local memory, so that both
 *    sides are accessed in consecutive addresses (coalesced);
 *  - interleave_loop/deinterleave_loop (CPUs): one work-item copies one matrix with plain
 *    loops. On a CPU the copy runs at memory speed this way, while the local-memory
 *    transpose pays for its barrier and index arithmetic per element (5-10x slower under
 *    PoCL).
 *
 * Build macros: TILE (work-group of TILE*TILE work-items), REAL (see common.cl).
 */
#ifndef TILE
#define TILE 16
#endif

inline int copied(int i, int j, int mode) { return mode == 2 || (mode == 0 ? i >= j : i <= j); }

/* Start of matrix b in the interleaved batch; 32-bit division when it fits (much faster on
 * GPUs, and batches past 2^32 matrices are rare). */
inline ulong lane_base(ulong b, ulong chunk, int nn)
{
    if (((b | chunk) >> 32) == 0) {
        const uint ub = (uint)b, uc = (uint)chunk;
        return (ulong)(ub / uc) * (ulong)nn * chunk + ub % uc;
    }
    return (b / chunk) * (ulong)nn * chunk + b % chunk;
}

/* 1-D NDRange (nn = n*cols elements per matrix): group g = g0 + group id covers elements
 * (g % etiles)*TILE.. of matrices (g / etiles)*TILE..; the host slices the groups into
 * launches (g0: the launch's first group). */
#define TILE_COORDS                                                                          \
    const int tx = (int)get_local_id(0) % TILE, ty = (int)get_local_id(0) / TILE;            \
    const int nn = n * cols, etiles = (nn + TILE - 1) / TILE;                                   \
    const ulong g = g0 + get_group_id(0);                                                    \
    const int e0 = (int)(g % (ulong)etiles) * TILE;                                          \
    const ulong m0 = (g / (ulong)etiles) * TILE;

__attribute__((reqd_work_group_size(TILE * TILE, 1, 1)))
__kernel void interleave(__global const REAL *A, const ulong offset, const int lda,
                         const ulong stride, __global REAL *B, const ulong chunk, const int n,
                         const int cols, const int mode, const ulong batch, const ulong g0,
                         const ulong lanes)
{
    __local REAL tile[TILE][TILE + 1];
    TILE_COORDS
    {   /* read along the elements of matrix m0 + ty */
        const int e = e0 + tx, i = e % n, j = e / n;
        const ulong b = m0 + ty;
        if (e < nn && b < lanes && copied(i, j, mode))
            tile[ty][tx] = b < batch ? A[offset + b * stride + (ulong)(i + j * lda)] : (REAL)(i == j);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {   /* write along the matrices, element e0 + ty */
        const int e = e0 + ty, i = e % n, j = e / n;
        const ulong b = m0 + tx;
        if (e < nn && b < lanes && copied(i, j, mode))
            B[lane_base(b, chunk, nn) + (ulong)e * chunk] = tile[tx][ty];
    }
}

__attribute__((reqd_work_group_size(TILE * TILE, 1, 1)))
__kernel void deinterleave(__global const REAL *B, const ulong chunk, __global REAL *A,
                           const ulong offset, const int lda, const ulong stride, const int n,
                           const int cols, const int mode, const ulong batch, const ulong g0)
{
    __local REAL tile[TILE][TILE + 1];
    TILE_COORDS
    {   /* read along the matrices, element e0 + ty */
        const int e = e0 + ty, i = e % n, j = e / n;
        const ulong b = m0 + tx;
        if (e < nn && b < batch && copied(i, j, mode))
            tile[ty][tx] = B[lane_base(b, chunk, nn) + (ulong)e * chunk];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {   /* write along the elements of matrix m0 + ty */
        const int e = e0 + tx, i = e % n, j = e / n;
        const ulong b = m0 + ty;
        if (e < nn && b < batch && copied(i, j, mode))
            A[offset + b * stride + (ulong)(i + j * lda)] = tile[tx][ty];
    }
}

/* ---- CPUs: one work-item per matrix ----------------------------------------------------- */

/* Rows lo..hi-1 of column j lie in the copied part. */
inline void copied_rows(int j, int n, int mode, int *lo, int *hi)
{
    *lo = mode == 0 ? j : 0;
    *hi = mode == 1 ? j + 1 : n;
}

__kernel void interleave_loop(__global const REAL *restrict A, const ulong offset, const int lda,
                              const ulong stride, __global REAL *restrict B, const ulong chunk,
                              const int n, const int cols, const int mode, const ulong batch,
                              const ulong g0, const ulong lanes)
{
    const ulong b = g0 * get_local_size(0) + get_global_id(0);
    if (b >= lanes) return;
    __global const REAL *a = A + offset + b * stride;
    __global REAL *d = B + lane_base(b, chunk, n * cols);
    for (int j = 0; j < cols; j++) {
        int lo, hi;
        copied_rows(j, n, mode, &lo, &hi);
        if (b < batch)
            for (int i = lo; i < hi; i++) d[(ulong)(i + j * n) * chunk] = a[i + j * lda];
        else
            for (int i = lo; i < hi; i++) d[(ulong)(i + j * n) * chunk] = (REAL)(i == j);
    }
}

__kernel void deinterleave_loop(__global const REAL *restrict B, const ulong chunk,
                                __global REAL *restrict A, const ulong offset, const int lda,
                                const ulong stride, const int n, const int cols, const int mode,
                                const ulong batch, const ulong g0)
{
    const ulong b = g0 * get_local_size(0) + get_global_id(0);
    if (b >= batch) return;
    __global REAL *a = A + offset + b * stride;
    __global const REAL *d = B + lane_base(b, chunk, n * cols);
    for (int j = 0; j < cols; j++) {
        int lo, hi;
        copied_rows(j, n, mode, &lo, &hi);
        for (int i = lo; i < hi; i++) a[i + j * lda] = d[(ulong)(i + j * n) * chunk];
    }
}
