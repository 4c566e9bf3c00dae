/* Batched Cholesky solve (potrs) on interleaved batches: one work-item per (matrix, tile
 * of NT right-hand sides). A X = B with A = L*L**T is solved as L Y = B, then L**T X = Y;
 * upper storage (A = U**T*U) is read as L = U**T, so both triangles run natively.
 *
 * Layouts (see bchol.h): element (i, j) of factor b at ((b/chunk)*N*N + j*N + i)*chunk +
 * b%chunk; element (i, r) of b's right-hand sides at ((b/chunk)*N*nrhs + r*N + i)*chunk +
 * b%chunk. Consecutive work-items own consecutive matrices, so every load and store of a
 * work-group falls on consecutive addresses (coalesced on GPUs, vector lanes on CPUs).
 *
 * The tile stays in private memory from load to store: B is read and written once, the
 * factor read twice per tile (forward, backward). The loops run to the build-time order
 * N, so a compiler may unroll them and keep the tile in registers.
 *
 * Build macros: N (order), NT (right-hand sides per tile), WG (work-items per group),
 * UPPER (0/1), REAL (see common.cl), and for CPUs:
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

/* Full unrolling of the loops over N grows the code as N^2: only for small orders (the
 * backend's UNROLL still decides whether PRAGMA_UNROLL unrolls at all). */
#if FULL
#define UNROLL_N _Pragma("unroll")
#define UNROLL_C _Pragma("unroll")
#elif N <= 32
#define UNROLL_N PRAGMA_UNROLL
#else
#define UNROLL_N
#endif
#ifndef UNROLL_C
#define UNROLL_C PRAGMA_UNROLL
#endif

/* Element (i, j) of L in the stored triangle of the factor at a. */
#if UPPER
#define LELEM(a, chunk, i, j) (a)[((ulong)(i) * N + (ulong)(j)) * (chunk)]
#else
#define LELEM(a, chunk, i, j) (a)[((ulong)(j) * N + (ulong)(i)) * (chunk)]
#endif

/*
 * Group g solves tile g % tiles of the WG matrices b0 + (g / tiles)*WG + lid (tiles =
 * ceil(nrhs/NT)); lanes at or past batch, and with skip_failed the matrices whose info
 * is not zero (posv: the factorization failed), touch nothing. No barriers: lanes may
 * leave early.
 */
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void potrs_interleaved(__global const REAL *A, __global REAL *B, const ulong chunk,
                                const int nrhs, const ulong batch, const ulong b0,
                                __global const int *info, const int skip_failed)
{
    const ulong tiles = (ulong)((nrhs + NT - 1) / NT);
    const ulong g = get_group_id(0);
    const ulong b = b0 + (g / tiles) * WG + get_local_id(0);
#if ALIGNED
    /* the group's first lane decides the chunk; every lane computes, some store back */
    const int ok = b < batch && !(skip_failed && info[min(b, batch - 1)] != 0);
    const ulong bg = b0 + (g / tiles) * WG;
    const ulong q = bg / chunk, lane = bg % chunk + get_local_id(0);
#else
    if (b >= batch) return;
    if (skip_failed && info[b] != 0) return;
    const ulong q = b / chunk, lane = b % chunk;
#endif
    const int c0 = (int)(g % tiles) * NT;
    const int nt = min(NT, nrhs - c0);
    __global const REAL *a = A + q * (ulong)(N * N) * chunk + lane;
    __global REAL *x = B + (q * (ulong)N * (ulong)nrhs + (ulong)c0 * N) * chunk + lane;

    /* Columns past nrhs stay zero and are never stored. */
    REAL r[NT][N];
UNROLL_C
    for (int c = 0; c < NT; c++)
UNROLL_N
        for (int i = 0; i < N; i++)
            r[c][i] = c < nt ? x[((ulong)c * N + (ulong)i) * chunk] : (REAL)0;

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
                __global REAL *at = x + ((ulong)c * N + (ulong)i) * chunk;
#if ALIGNED
                *at = ok ? r[c][i] : *at;
#else
                *at = r[c][i];
#endif
            }
}
