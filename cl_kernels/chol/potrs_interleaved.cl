/* Batched Cholesky solve (potrs) on interleaved batches: one work-item per (matrix, tile
 * of NT right-hand sides). A X = B with A = L*L**T is solved as L Y = B, then L**T X = Y;
 * upper storage (A = U**T*U) is read as L = U**T, so both triangles run natively.
 *
 * Layouts (see bchol.h): element (i, j) of factor b at ((b/chunk)*N*N + j*N + i)*chunk +
 * b%chunk; element (i, r) of b's right-hand sides at ((b/chunk)*N*nrhs + r*N + i)*chunk +
 * b%chunk. Consecutive work-items own consecutive matrices, so every load and store of a
 * work-group falls on consecutive addresses (coalesced on GPUs, vector lanes on CPUs).
 *
 * Two paths, chosen by the host through BLOCK:
 *   BLOCK = 0  the whole tile r[NT][N] stays private from load to store: B is read and
 *              written once, the factor read twice per tile (forward, backward). The loops
 *              run to the build-time order N, so a compiler may unroll them and keep the
 *              tile in registers -- for small N only: a tile indexed at run time lives in
 *              (slow, per-thread) memory.
 *   BLOCK = KB the rows are split into blocks of KB (the last one holds the N % KB left
 *              over, or KB). Only one block y[KB][NT] is private, always indexed with
 *              compile-time indices (the loops within a block are unrolled), so it stays
 *              in registers for any N; the loops over blocks run at run time. A block is
 *              solved against the blocks already solved, which are read back from B in
 *              global memory (the work-item wrote them; across a work-group the reads
 *              are as coalesced as the first ones):
 *                forward   Y_J = L_JJ^-1 (B_J - sum_{K<J} L_JK Y_K)
 *                backward  X_J = L_JJ^-T (Y_J - sum_{K>J} L_KJ^T X_K)
 *              B is read about N/(2 KB) times more than in the first path.
 *
 * Build macros: N (order), NT (right-hand sides per tile), WG (work-items per group),
 * UPPER (0/1), BLOCK (0 or the block size), REAL (see common.cl), and for CPUs:
 *   ALIGNED  1: the WG lanes of every group are consecutive in one chunk and all exist in
 *            the buffers (padding lanes included), so addresses are affine in the
 *            work-item id and no lane leaves early (compilers vectorize across lanes);
 *            a padding lane or failed matrix stores back the values it holds (blend).
 *   FULL     1: every loop is unrolled (straight-line code; the host keeps N*N*NT small).
 */
#ifndef N
#define N 4
#endif
#ifndef NT
#define NT 1
#endif
#ifndef WG
#define WG 64
#endif
#ifndef UPPER
#define UPPER 0
#endif
#ifndef ALIGNED
#define ALIGNED 0
#endif
#ifndef FULL
#define FULL 0
#endif
#ifndef BLOCK
#define BLOCK 0
#endif

/* Full unrolling of the loops over N grows the code as N^2: only for small orders (the
 * backend's UNROLL still decides whether PRAGMA_UNROLL unrolls at all). The blocked path
 * unrolls the loops within a block and over NT always: that is its point. */
#if FULL
#define UNROLL_N _Pragma("unroll")
#define UNROLL_C _Pragma("unroll")
#elif N <= 32
#define UNROLL_N PRAGMA_UNROLL
#else
#define UNROLL_N
#endif
#ifndef UNROLL_C
#if BLOCK
#define UNROLL_C _Pragma("unroll")
#else
#define UNROLL_C PRAGMA_UNROLL
#endif
#endif

/* Element (i, j) of L in the stored triangle of the factor at a. */
#if UPPER
#define LELEM(a, chunk, i, j) (a)[((ulong)(i) * N + (ulong)(j)) * (chunk)]
#else
#define LELEM(a, chunk, i, j) (a)[((ulong)(j) * N + (ulong)(i)) * (chunk)]
#endif

/* Element (i, c) of the tile's right-hand sides at x. */
#define XELEM(x, chunk, i, c) (x)[((ulong)(c) * N + (ulong)(i)) * (chunk)]

/* A store: with ALIGNED every lane stores, and one that must not change B (padding lane,
 * failed matrix: ok = 0) writes back the value it holds. */
#if ALIGNED
#define STORE(at, v, ok) (*(at) = (ok) ? (v) : *(at))
#else
#define STORE(at, v, ok) (*(at) = (v))
#endif

#if BLOCK
/* ---- blocked path: one block of rows in registers -------------------------------------
 * Each helper works on the first R rows of y (R and S are constants at every call). The
 * loops run to BLOCK with a test against R inside rather than to R: compilers optimize a
 * helper before inlining it, and a loop to a parameter then gets unrolled only partly,
 * which indexes y at run time. Unrolled to BLOCK, the tests fold once R is known. */
#define UNROLL_B _Pragma("unroll")
/* Inlined whatever the compiler's cost model says: a call would pass y through memory. */
#define INLINE inline __attribute__((always_inline))
/* Rows of the last block, and the full blocks before it. */
#define LAST_ROWS (N % BLOCK ? N % BLOCK : BLOCK)
#define LEAD_BLOCKS ((N - LAST_ROWS) / BLOCK)

/* y = rows [r0, r0 + R) of the tile (columns past nt are zero). */
INLINE void block_load(REAL y[BLOCK][NT], const int R, __global const REAL *x, const ulong chunk,
                       const int r0, const int nt)
{
UNROLL_C
    for (int c = 0; c < NT; c++)
UNROLL_B
        for (int i = 0; i < BLOCK; i++)
            if (i < R) y[i][c] = c < nt ? XELEM(x, chunk, r0 + i, c) : (REAL)0;
}

INLINE void block_store(REAL y[BLOCK][NT], const int R, __global REAL *x, const ulong chunk,
                        const int r0, const int nt, const int ok)
{
UNROLL_C
    for (int c = 0; c < NT; c++)
        if (c < nt)
UNROLL_B
            for (int i = 0; i < BLOCK; i++)
                if (i < R) {
                    __global REAL *at = &XELEM(x, chunk, r0 + i, c);
                    STORE(at, y[i][c], ok);
                }
}

/* y -= L(r0:r0+R, k0:k0+S) * X(k0:k0+S, :), X read back from x (forward). With trans:
 * y -= L(k0:k0+S, r0:r0+R)**T * X(k0:k0+S, :) (backward; k runs downwards there, so that
 * each row subtracts in the order of the unblocked path). */
INLINE void block_update(REAL y[BLOCK][NT], const int R, const int S, const int trans,
                         __global const REAL *a, __global const REAL *x, const ulong chunk,
                         const int r0, const int k0, const int nt)
{
UNROLL_B
    for (int kk = 0; kk < BLOCK; kk++) {
        if (kk >= S) continue;
        const int k = trans ? S - 1 - kk : kk;
        REAL xk[NT];
UNROLL_C
        for (int c = 0; c < NT; c++) xk[c] = c < nt ? XELEM(x, chunk, k0 + k, c) : (REAL)0;
UNROLL_B
        for (int i = 0; i < BLOCK; i++) {
            if (i >= R) continue;
            const REAL l = trans ? LELEM(a, chunk, k0 + k, r0 + i) : LELEM(a, chunk, r0 + i, k0 + k);
UNROLL_C
            for (int c = 0; c < NT; c++) y[i][c] = mad(-l, xk[c], y[i][c]);
        }
    }
}

/* y = L(r0:r0+R, r0:r0+R)^-1 y, column by column of the diagonal block. */
INLINE void block_forward(REAL y[BLOCK][NT], const int R, __global const REAL *a, const ulong chunk,
                          const int r0)
{
UNROLL_B
    for (int j = 0; j < BLOCK; j++) {
        if (j >= R) continue;
        const REAL d = LELEM(a, chunk, r0 + j, r0 + j);
UNROLL_C
        for (int c = 0; c < NT; c++) y[j][c] /= d;
UNROLL_B
        for (int i = j + 1; i < BLOCK; i++) {
            if (i >= R) continue;
            const REAL l = LELEM(a, chunk, r0 + i, r0 + j);
UNROLL_C
            for (int c = 0; c < NT; c++) y[i][c] = mad(-l, y[j][c], y[i][c]);
        }
    }
}

/* y = L(r0:r0+R, r0:r0+R)^-T y, row by row of the diagonal block. */
INLINE void block_backward(REAL y[BLOCK][NT], const int R, __global const REAL *a,
                           const ulong chunk, const int r0)
{
UNROLL_B
    for (int j = BLOCK - 1; j >= 0; j--) {
        if (j >= R) continue;
        const REAL d = LELEM(a, chunk, r0 + j, r0 + j);
UNROLL_C
        for (int c = 0; c < NT; c++) y[j][c] /= d;
UNROLL_B
        for (int i = 0; i < j; i++) {
            const REAL l = LELEM(a, chunk, r0 + j, r0 + i);
UNROLL_C
            for (int c = 0; c < NT; c++) y[i][c] = mad(-l, y[j][c], y[i][c]);
        }
    }
}
#endif

/*
 * Group g = g0 + group id solves tile g % tiles of the WG matrices (g / tiles)*WG + lid
 * (tiles = ceil(nrhs/NT); the host slices the groups into launches, g0 the launch's
 * first); lanes at or past batch, and with skip_failed the matrices whose info
 * is not zero (posv: the factorization failed), touch nothing. No barriers: lanes may
 * leave early.
 */
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void potrs_interleaved(__global const REAL *A, __global REAL *B, const ulong chunk,
                                const int nrhs, const ulong batch, const ulong g0,
                                __global const int *info, const int skip_failed)
{
    const ulong tiles = (ulong)((nrhs + NT - 1) / NT);
    const ulong g = g0 + get_group_id(0);
    const ulong b = (g / tiles) * WG + get_local_id(0);
#if ALIGNED
    /* the group's first lane decides the chunk; every lane computes, some store back */
    const int ok = b < batch && !(skip_failed && info[min(b, batch - 1)] != 0);
    const ulong bg = (g / tiles) * WG;
    const ulong q = bg / chunk, lane = bg % chunk + get_local_id(0);
#else
    if (b >= batch) return;
    if (skip_failed && info[b] != 0) return;
    const int ok = 1;
    const ulong q = b / chunk, lane = b % chunk;
#endif
    const int c0 = (int)(g % tiles) * NT;
    const int nt = min(NT, nrhs - c0);
    __global const REAL *a = A + q * (ulong)(N * N) * chunk + lane;
    __global REAL *x = B + (q * (ulong)N * (ulong)nrhs + (ulong)c0 * N) * chunk + lane;

#if BLOCK
    REAL y[BLOCK][NT];
    /* Forward over the lead blocks: Y_J = L_JJ^-1 (B_J - sum_{K<J} L_JK Y_K), stored. */
    for (int J = 0; J < LEAD_BLOCKS; J++) {
        block_load(y, BLOCK, x, chunk, J * BLOCK, nt);
        for (int K = 0; K < J; K++)
            block_update(y, BLOCK, BLOCK, 0, a, x, chunk, J * BLOCK, K * BLOCK, nt);
        block_forward(y, BLOCK, a, chunk, J * BLOCK);
        block_store(y, BLOCK, x, chunk, J * BLOCK, nt, ok);
    }
    /* The last block: forward, then at once backward (X_last = L_ll^-T Y_last). */
    block_load(y, LAST_ROWS, x, chunk, N - LAST_ROWS, nt);
    for (int K = 0; K < LEAD_BLOCKS; K++)
        block_update(y, LAST_ROWS, BLOCK, 0, a, x, chunk, N - LAST_ROWS, K * BLOCK, nt);
    block_forward(y, LAST_ROWS, a, chunk, N - LAST_ROWS);
    block_backward(y, LAST_ROWS, a, chunk, N - LAST_ROWS);
    block_store(y, LAST_ROWS, x, chunk, N - LAST_ROWS, nt, ok);
    /* Backward over the lead blocks, last first: X_J = L_JJ^-T (Y_J - sum_{K>J} L_KJ^T X_K),
     * K from the last block down, as the unblocked path subtracts. */
    for (int J = LEAD_BLOCKS - 1; J >= 0; J--) {
        block_load(y, BLOCK, x, chunk, J * BLOCK, nt);
        block_update(y, BLOCK, LAST_ROWS, 1, a, x, chunk, J * BLOCK, N - LAST_ROWS, nt);
        for (int K = LEAD_BLOCKS - 1; K > J; K--)
            block_update(y, BLOCK, BLOCK, 1, a, x, chunk, J * BLOCK, K * BLOCK, nt);
        block_backward(y, BLOCK, a, chunk, J * BLOCK);
        block_store(y, BLOCK, x, chunk, J * BLOCK, nt, ok);
    }
#else
    /* Columns past nrhs stay zero and are never stored. */
    REAL r[NT][N];
UNROLL_C
    for (int c = 0; c < NT; c++)
UNROLL_N
        for (int i = 0; i < N; i++)
            r[c][i] = c < nt ? XELEM(x, chunk, i, c) : (REAL)0;

    /* Forward, column by column of L: y_j = b_j / L(j,j); b_i -= L(i,j) y_j, i > j. */
UNROLL_N
    for (int j = 0; j < N; j++) {
        const REAL d = LELEM(a, chunk, j, j);
UNROLL_C
        for (int c = 0; c < NT; c++) r[c][j] /= d;
UNROLL_N
        for (int i = j + 1; i < N; i++) {
            const REAL l = LELEM(a, chunk, i, j);
UNROLL_C
            for (int c = 0; c < NT; c++) r[c][i] = mad(-l, r[c][j], r[c][i]);
        }
    }
    /* Backward, row by row of L (columns of L**T): x_j = y_j / L(j,j); y_i -= L(j,i) x_j,
     * i < j. */
UNROLL_N
    for (int j = N - 1; j >= 0; j--) {
        const REAL d = LELEM(a, chunk, j, j);
UNROLL_C
        for (int c = 0; c < NT; c++) r[c][j] /= d;
UNROLL_N
        for (int i = 0; i < j; i++) {
            const REAL l = LELEM(a, chunk, j, i);
UNROLL_C
            for (int c = 0; c < NT; c++) r[c][i] = mad(-l, r[c][j], r[c][i]);
        }
    }

UNROLL_C
    for (int c = 0; c < NT; c++)
        if (c < nt)
UNROLL_N
            for (int i = 0; i < N; i++) {
                __global REAL *at = &XELEM(x, chunk, i, c);
                STORE(at, r[c][i], ok);
            }
#endif
}
