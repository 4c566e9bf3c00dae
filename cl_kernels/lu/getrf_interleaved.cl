/* Batched LU with partial pivoting (getrf) and its solve (getrs) on interleaved batches,
 * for tiny orders: one work-item per matrix (getrs: per matrix and tile of NT right-hand
 * sides), the whole matrix in a private array a[N*N] (column-major), no barriers.
 *
 * Layouts (see bchol.h): element (i, j) of matrix b at ((b/chunk)*N*N + j*N + i)*chunk +
 * b%chunk; pivot i of matrix b at ((b/chunk)*N + i)*chunk + b%chunk (1-based); element
 * (i, r) of b's right-hand sides at ((b/chunk)*N*nrhs + r*N + i)*chunk + b%chunk.
 * Consecutive work-items own consecutive matrices: every load and store of a work-group
 * falls on consecutive addresses.
 *
 * getrf, per column k (LAPACK's dgetf2, as cl_kernels/lu/getrf_fused.cl):
 *   1. pivot: the first row i >= k of the largest |a(i,k)|, a NaN or an infinity ranked
 *      above every finite value (getrf_fused.cl's PIVOT_KEY);
 *   2. rows k and p interchanged over all N columns. p is known at run time only, so the
 *      swap is a select over the rows i > k (the same code for every lane: no divergence,
 *      and with the loops unrolled every index is a constant, so a stays in registers);
 *   3. column k scaled by 1/a(k,k) (divided where |a(k,k)| < the smallest normal number;
 *      left as it is where a(k,k) = 0), rank-1 update of the trailing block.
 * info = the first k+1 where a(k,k) is zero or not finite; the factorization goes on
 * after it (LAPACK). Lanes past the batch return at once: they read and write nothing.
 *
 * Build macros: N (order, 1..32), FULL (1: unroll every loop; the host sets it for small
 * N), TRANS (getrs: 0 'N', 1 'T'), NT (getrs: right-hand sides per work-item), WG
 * (work-items per group), REAL/PRECISION_DOUBLE (common.cl).
 */
#ifndef N
#define N 4
#endif
#ifndef FULL
#define FULL 0
#endif
#ifndef TRANS
#define TRANS 0
#endif
#ifndef NT
#define NT 1
#endif
#ifndef WG
#define WG 64
#endif

#if FULL
#define UNROLL _Pragma("unroll")
#else
#define UNROLL PRAGMA_UNROLL
#endif

/* Element (i, j) of the matrix at a (the lane's first element), and pivot i at p. */
#define AELEM(a, chunk, i, j) (a)[((ulong)(j) * N + (ulong)(i)) * (chunk)]
#define PELEM(p, chunk, i) (p)[(ulong)(i) * (chunk)]
#define XELEM(x, chunk, i, c) (x)[((ulong)(c) * N + (ulong)(i)) * (chunk)]

/*
 * Work-item g0*WG + global id factors matrix b = that index if b < batch: A, ipiv and
 * info[b] as above. The host slices the groups into launches (g0: the launch's first).
 */
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void getrf_interleaved(__global REAL *A, __global int *ipiv, const ulong chunk,
                                const ulong batch, __global int *info, const ulong g0)
{
    const ulong b = (g0 + get_group_id(0)) * WG + get_local_id(0);
    if (b >= batch) return;
    const ulong q = b / chunk, lane = b % chunk;
    __global REAL *ab = A + q * (ulong)(N * N) * chunk + lane;
    __global int *pb = ipiv + q * (ulong)N * chunk + lane;

    REAL a[N * N];
UNROLL
    for (int j = 0; j < N; j++)
UNROLL
        for (int i = 0; i < N; i++) a[i + j * N] = AELEM(ab, chunk, i, j);

    int status = 0;
UNROLL
    for (int k = 0; k < N; k++) {
        /* 1. the first row of the largest key at or below the diagonal */
        REAL best = PIVOT_KEY(a[k + k * N]);
        int p = k;
UNROLL
        for (int i = k + 1; i < N; i++) {
            const REAL v = PIVOT_KEY(a[i + k * N]);
            const int take = v > best;
            best = take ? v : best;
            p = take ? i : p;
        }
        PELEM(pb, chunk, k) = p + 1;
        /* 2. rows k and p interchanged, every column (p = k: nothing selected) */
UNROLL
        for (int j = 0; j < N; j++) {
            const REAL old = a[k + j * N];
            REAL top = old;
UNROLL
            for (int i = k + 1; i < N; i++) {
                const REAL r = a[i + j * N];
                const int sel = i == p;
                top = sel ? r : top;
                a[i + j * N] = sel ? old : r;
            }
            a[k + j * N] = top;
        }
        /* 3. scale column k, rank-1 update of the trailing block */
        const REAL d = a[k + k * N];
        if (status == 0 && !(d != (REAL)0 && IS_FINITE(d))) status = k + 1;
        const int recip = fabs(d) >= SFMIN;
        const REAL inv = (REAL)1 / d;
UNROLL
        for (int i = k + 1; i < N; i++) {
            const REAL l0 = a[i + k * N];
            const REAL l = d != (REAL)0 ? (recip ? l0 * inv : l0 / d) : l0;
            a[i + k * N] = l;
UNROLL
            for (int j = k + 1; j < N; j++) a[i + j * N] -= l * a[k + j * N];
        }
    }

UNROLL
    for (int j = 0; j < N; j++)
UNROLL
        for (int i = 0; i < N; i++) AELEM(ab, chunk, i, j) = a[i + j * N];
    /* the last store: info[b] is this work-item's alone (no other work-item reads it) */
    info[b] = status;
}

/*
 * Group g = g0 + group id solves tile g % tiles of the WG matrices (g / tiles)*WG + lid
 * (tiles = ceil(nrhs/NT)). op(A) X = B with P*A = L*U:
 *   'N': B <- P*B (the swaps (k, ipiv(k)) in order), L Y = B (unit), U X = Y;
 *   'T': U**T Y = B, L**T Z = Y (unit), X = P**T Z (the swaps in reverse order).
 * A pivot outside [k+1, N] at position k+1 swaps nothing (as getrs.cl).
 */
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void getrs_interleaved(__global const REAL *A, __global const int *ipiv,
                                __global REAL *B, const ulong chunk, const int nrhs,
                                const ulong batch, const ulong g0)
{
    const ulong tiles = (ulong)((nrhs + NT - 1) / NT);
    const ulong g = g0 + get_group_id(0);
    const ulong b = (g / tiles) * WG + get_local_id(0);
    if (b >= batch) return;
    const ulong q = b / chunk, lane = b % chunk;
    const int c0 = (int)(g % tiles) * NT;
    const int nt = min(NT, nrhs - c0);
    __global const REAL *ab = A + q * (ulong)(N * N) * chunk + lane;
    __global const int *pb = ipiv + q * (ulong)N * chunk + lane;
    __global REAL *x = B + (q * (ulong)N * (ulong)nrhs + (ulong)c0 * N) * chunk + lane;

    REAL r[NT][N];
UNROLL
    for (int c = 0; c < NT; c++)
UNROLL
        for (int i = 0; i < N; i++) r[c][i] = c < nt ? XELEM(x, chunk, i, c) : (REAL)0;

#if !TRANS
UNROLL
    for (int k = 0; k < N; k++) {
        const int p = PELEM(pb, chunk, k) - 1;
UNROLL
        for (int c = 0; c < NT; c++) {
            const REAL old = r[c][k];
            REAL top = old;
UNROLL
            for (int i = k + 1; i < N; i++) {
                const REAL v = r[c][i];
                const int sel = i == p;
                top = sel ? v : top;
                r[c][i] = sel ? old : v;
            }
            r[c][k] = top;
        }
    }
    /* L Y = B, column by column of L (unit diagonal) */
UNROLL
    for (int j = 0; j < N; j++)
UNROLL
        for (int i = j + 1; i < N; i++) {
            const REAL l = AELEM(ab, chunk, i, j);
UNROLL
            for (int c = 0; c < NT; c++) r[c][i] -= l * r[c][j];
        }
    /* U X = Y, column by column of U from the last */
UNROLL
    for (int j = N - 1; j >= 0; j--) {
        const REAL d = AELEM(ab, chunk, j, j);
UNROLL
        for (int c = 0; c < NT; c++) r[c][j] /= d;
UNROLL
        for (int i = 0; i < j; i++) {
            const REAL u = AELEM(ab, chunk, i, j);
UNROLL
            for (int c = 0; c < NT; c++) r[c][i] -= u * r[c][j];
        }
    }
#else
    /* U**T Y = B: row j of U is column j of U**T */
UNROLL
    for (int j = 0; j < N; j++) {
        const REAL d = AELEM(ab, chunk, j, j);
UNROLL
        for (int c = 0; c < NT; c++) r[c][j] /= d;
UNROLL
        for (int i = j + 1; i < N; i++) {
            const REAL u = AELEM(ab, chunk, j, i);
UNROLL
            for (int c = 0; c < NT; c++) r[c][i] -= u * r[c][j];
        }
    }
    /* L**T Z = Y (unit), from the last row */
UNROLL
    for (int j = N - 1; j >= 0; j--)
UNROLL
        for (int i = 0; i < j; i++) {
            const REAL l = AELEM(ab, chunk, j, i);
UNROLL
            for (int c = 0; c < NT; c++) r[c][i] -= l * r[c][j];
        }
    /* X = P**T Z: the swaps in reverse order */
UNROLL
    for (int k = N - 1; k >= 0; k--) {
        const int p = PELEM(pb, chunk, k) - 1;
UNROLL
        for (int c = 0; c < NT; c++) {
            const REAL old = r[c][k];
            REAL top = old;
UNROLL
            for (int i = k + 1; i < N; i++) {
                const REAL v = r[c][i];
                const int sel = i == p;
                top = sel ? v : top;
                r[c][i] = sel ? old : v;
            }
            r[c][k] = top;
        }
    }
#endif

UNROLL
    for (int c = 0; c < NT; c++)
        if (c < nt)
UNROLL
            for (int i = 0; i < N; i++) XELEM(x, chunk, i, c) = r[c][i];
}
