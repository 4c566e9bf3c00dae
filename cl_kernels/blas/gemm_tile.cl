/* Register-blocked tile of a batched "NT" matrix product, shared by the TRSM and SYRK
 * kernels of the separate Cholesky:
 *
 *   acc(TM x TN) = X(0:TM, 0:K) * Y(0:TN, 0:K)**T
 *
 * X and Y are views of a column-major buffer in the orientation of the stored triangle:
 * element (r, l) of a view at base is ELEM(base, ld, r, l), i.e. base[r + l*ld] for lower
 * storage and base[l + r*ld] for upper (the transpose). K is streamed KB columns at a
 * time through local memory; each work-item accumulates a WM x WN micro-tile in
 * registers. Its rows are rx + i*RX and its columns cx + i*CX (strided), so that local
 * reads are conflict-free and the work-items along the contiguous direction of the
 * stored triangle touch consecutive addresses.
 *
 * Build macros: TM, TN (tile), WM, WN (micro-tile), KB (K chunk), UPPER,
 * Y_LOWER_TRIANGULAR (1: Y(r, l) = 0 for l > r, so the products of whole column blocks
 * of the result with later K chunks are skipped), and REAL/PRECISION_DOUBLE (common.cl).
 * The work-group has (TM/WM)*(TN/WN) work-items.
 */
#ifndef TM
#define TM 64
#endif
#ifndef TN
#define TN 64
#endif
#ifndef WM
#define WM 4
#endif
#ifndef WN
#define WN 4
#endif
#ifndef KB
#define KB 16
#endif
#ifndef UPPER
#define UPPER 0
#endif
#ifndef EARLY_EXIT
#define EARLY_EXIT 1
#endif
#ifndef Y_LOWER_TRIANGULAR
#define Y_LOWER_TRIANGULAR 0
#endif

#define RX (TM / WM)
#define CX (TN / WN)
#define GEMM_WG (RX * CX)
/* Odd leading dimensions of the local tiles: the loads of upper storage walk down them. */
#define SLX (TM + 1)
#define SLY (TN + 1)

#if UPPER
#define ELEM(A, lda, i, j) (A)[(j) + (i) * (lda)]
#else
#define ELEM(A, lda, i, j) (A)[(i) + (j) * (lda)]
#endif

/* This work-item's place in the tile: the coordinate that runs along contiguous memory
 * of the result (rows for lower storage, columns for upper) varies fastest. */
inline void gemm_tile_place(const int lid, int *rx, int *cx)
{
#if UPPER
    *cx = lid % CX;
    *rx = lid / CX;
#else
    *rx = lid % RX;
    *cx = lid / RX;
#endif
}

/* Copies rows 0..tile_rows-1 (valid below rows) and columns k0..k0+KB-1 (valid below K)
 * of a view into the local tile s[l * lds + r], zeros outside. */
inline void gemm_tile_load(__local REAL *s, const int lds, __global const REAL *base,
                           const int ld, const int tile_rows, const int rows, const int k0,
                           const int K, const int active, const int lid)
{
    for (int e = lid; e < tile_rows * KB; e += GEMM_WG) {
#if UPPER
        const int r = e / KB, l = e % KB;
#else
        const int r = e % tile_rows, l = e / tile_rows;
#endif
        s[l * lds + r] = (active && r < rows && k0 + l < K) ? ELEM(base, ld, r, k0 + l) : (REAL)0;
    }
}

/* UNIFORM_LOOPS = 1: loops that hold barriers run to a bound fixed at build time (NB), not
 * to one read from memory (a variable-size batch's order): PoCL 5.0 factored wrong under
 * loops whose barriers' trip count came from a load (backends/pocl.c, docs/DEVELOPING.md).
 * The columns past K load as zeros, so the product is the same. */
#ifndef UNIFORM_LOOPS
#define UNIFORM_LOOPS 0
#endif
#if UNIFORM_LOOPS
#define K_LOOP(K) NB
#else
#define K_LOOP(K) (K)
#endif

/*
 * acc += X * Y**T for the tile: X has `xrows` valid rows (of TM), Y `yrows` valid rows (of
 * TN), both K columns. Every work-item of the group must call it (barriers); with active
 * = 0 nothing is read. sX holds KB*SLX elements, sY KB*SLY.
 */
inline void gemm_tile_nt(REAL acc[WM][WN], __global const REAL *X, const int ldx,
                         const int xrows, __global const REAL *Y, const int ldy, const int yrows,
                         const int K, __local REAL *sX, __local REAL *sY, const int active,
                         const int lid, const int rx, const int cx)
{
    for (int k0 = 0; k0 < K_LOOP(K); k0 += KB) {
        barrier(CLK_LOCAL_MEM_FENCE); /* the previous chunk is consumed */
        gemm_tile_load(sX, SLX, X, ldx, TM, xrows, k0, K, active, lid);
        gemm_tile_load(sY, SLY, Y, ldy, TN, yrows, k0, K, active, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
PRAGMA_UNROLL
        for (int l = 0; l < KB; l++) {
            REAL x[WM], y[WN];
PRAGMA_UNROLL
            for (int i = 0; i < WM; i++) x[i] = sX[l * SLX + rx + i * RX];
PRAGMA_UNROLL
            for (int q = 0; q < WN; q++) y[q] = sY[l * SLY + cx + q * CX];
PRAGMA_UNROLL
            for (int i = 0; i < WM; i++)
PRAGMA_UNROLL
                for (int q = 0; q < WN; q++)
                    /* columns cx + q*CX < (q+1)*CX <= k0 of a triangular Y are zero here
                     * (the same q for the whole group: no divergence) */
                    if (!Y_LOWER_TRIANGULAR || (q + 1) * CX > k0)
                        acc[i][q] = mad(x[i], y[q], acc[i][q]);
        }
    }
}
