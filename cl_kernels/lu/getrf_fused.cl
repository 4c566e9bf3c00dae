/* Fused batched LU with partial pivoting (LAPACK getf2, unblocked right-looking), one
 * launch for the whole factorization (Haidar et al. 2015, the LU panel held in shared
 * memory).
 *
 * Each matrix is loaded whole into local memory (column-major, leading dimension M) and
 * factored there, column by column k = 0 .. min(M, N)-1:
 *   1. pivot search: every work-item scans its rows i >= k of column k for the largest
 *      |a(i,k)| (first index on ties, as LAPACK's idamax), then a tree reduction over the
 *      matrix's LX work-items keeps the larger value or, on a tie, the smaller row;
 *   2. rows k and p are interchanged over all N columns (L's part too, as LAPACK's dlaswp)
 *      and ipiv(k) = p + 1;
 *   3. column k below the diagonal is scaled by 1/a(k,k) (divided by a(k,k) where
 *      |a(k,k)| < the smallest normal number, as dgetf2), and the trailing block gets the
 *      rank-1 update A(k+1:M, k+1:N) -= l * u, each work-item on its own rows.
 * A zero pivot skips the scaling and the factorization goes on (LAPACK: U is singular);
 * info is the first k+1 where a(k,k) is zero or not finite. A NaN or infinity in the
 * column is taken as larger than every finite value, so that it reaches the pivot where
 * it appears (LAPACK's idamax passes over a NaN).
 *
 * Work-item tx of a matrix owns rows tx, tx+LX, ...; TBC matrices share a work-group.
 * Lanes past the batch run on zeros in local memory and touch no global memory.
 *
 * Build macros: M, N (rows, columns), LX (work-items per matrix), TBC (matrices per
 * work-group), PIVOT (1: partial pivoting; 0: getrf_nopiv), REAL/PRECISION_DOUBLE (see
 * common.cl), VBATCHED (1: the kernel getrf_vbatched of variable-size batches, M and N
 * the largest m and n it takes; default 0).
 *
 * For the blocked variant's panels (host/lu/getrf_blocked.c; not with VBATCHED):
 *   ROW0      the panel's first row in the whole matrix (the caller's offset and offset_p
 *             point at the panel): pivots are written as p + 1 + ROW0, and info, where
 *             ROW0 > 0, only where this panel finds the matrix's first bad pivot (info[b]
 *             was 0): status + ROW0 (LAPACK's dgetrf: INFO = IINFO + J - 1);
 *   IN_PLACE  1: factor the matrix in global memory where it lies (panels too tall for
 *             local memory); only the pivot search's reduction uses local memory, the
 *             barriers fence global memory too, and lanes past the batch touch nothing.
 *
 * VBATCHED: matrix b is m[b]-by-n[b], leading dimension lda[b],
 * starts at element offsets[b] of A, its min(m[b], n[b]) pivots at element offsets_p[b]
 * of ipiv. The per-matrix checks (vbatched_check.cl, lu/vbatched_check_piv.cl) ran before
 * and left info[b] = 0 for a well-formed entry: a matrix with info[b] != 0, m[b] = 0,
 * n[b] = 0, m[b] > M or n[b] > N (left to the blocked path) is not touched (its info
 * kept). A matrix sits in local memory with leading
 * dimension M; every work-item runs the K = min(M, N) steps (barriers in uniform control
 * flow) and a step k >= min(m[b], n[b]) does nothing to that matrix.
 */
#ifndef M
#define M 8
#endif
#ifndef N
#define N 8
#endif
#ifndef LX
#define LX M
#endif
#ifndef TBC
#define TBC 1
#endif
#ifndef PIVOT
#define PIVOT 1
#endif
#ifndef VBATCHED
#define VBATCHED 0
#endif
#ifndef ROW0
#define ROW0 0
#endif
#ifndef IN_PLACE
#define IN_PLACE 0
#endif
#if VBATCHED && (IN_PLACE || ROW0)
#error "VBATCHED takes whole matrices in local memory"
#endif

#define K (M < N ? M : N)

#if IN_PLACE
#define AT(i, j) Ab[(i) + (j) * lda]
#define FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#else
#define AT(i, j) a[(i) + (j) * M]
#define FENCE CLK_LOCAL_MEM_FENCE
#endif

/*
 * Matrix b of the batch at A + offset + b*stride (leading dimension lda), its pivots at
 * ipiv + offset_p + b*stride_p (unused where PIVOT = 0), info[b]. Work-group g0 + g holds
 * matrices (g0 + g)*TBC .. +TBC-1 of the batch's count.
 */
__attribute__((reqd_work_group_size(LX * TBC, 1, 1)))
#if VBATCHED
__kernel void getrf_vbatched(__global REAL *A, __global const long *offsets,
                             __global const int *m_arr, __global const int *n_arr,
                             __global const int *lda_arr,
                             __global int *ipiv, __global const long *offsets_p,
                             __global int *info, const ulong count, const ulong g0)
#else
__kernel void getrf_fused(__global REAL *A, const ulong offset, const int lda, const ulong stride,
                          __global int *ipiv, const ulong offset_p, const ulong stride_p,
                          __global int *info, const ulong count, const ulong g0)
#endif
{
#if !IN_PLACE
    __local REAL sA[TBC][M * N];
#endif
#if PIVOT
    __local REAL sV[TBC][LX];
    __local int sI[TBC][LX];
#endif
    const int lid = (int)get_local_id(0);
    const int tx = lid % LX, ty = lid / LX;
    const ulong b = (g0 + get_group_id(0)) * TBC + ty;
#if !IN_PLACE
    __local REAL *a = sA[ty];
#endif
#if VBATCHED
    /* a rejected entry (info != 0 from the checks), m = 0 or n = 0, or one larger than M x N
     * (the blocked path's share of a split batch): no work, nothing touched */
    const int live = b < count && info[b] == 0 && m_arr[b] > 0 && n_arr[b] > 0 &&
                     m_arr[b] <= M && n_arr[b] <= N;
    const int mb = live ? m_arr[b] : 0, nb = live ? n_arr[b] : 0;
    const int lda = live ? lda_arr[b] : 1;
    __global REAL *Ab = A + (live ? offsets[b] : 0);
#if PIVOT
    __global int *Pb = ipiv + (live ? offsets_p[b] : 0);
#endif
    /* the matrix into local memory, column by column; nothing outside its m-by-n block
     * is read */
    for (int e = tx; e < mb * nb; e += LX) {
        const int i = e % mb, j = e / mb;
        a[i + j * M] = Ab[i + j * lda];
    }
#else
    const int live = b < count;
    const int mb = M, nb = N;
    __global REAL *Ab = A + offset + (live ? b * stride : 0);
#if PIVOT
    __global int *Pb = ipiv + offset_p + (live ? b * stride_p : 0);
#endif
#if !IN_PLACE
    /* the matrix into local memory, column by column (consecutive work-items read
     * consecutive rows); an idle lane's matrix is zeros */
    for (int e = tx; e < M * N; e += LX) {
        const int i = e % M, j = e / M;
        a[e] = live ? Ab[i + j * lda] : (REAL)0;
    }
#endif
#endif
    const int kb = min(mb, nb);
    barrier(FENCE);

    int status = 0;
    for (int k = 0; k < K; k++) {
        const int on = k < kb; /* always, but for a VBATCHED matrix smaller than M x N */
#if PIVOT
        /* 1. this work-item's best row of column k at or below the diagonal (a row it owns
         * was last written by itself: no barrier since the previous update) */
        REAL best = (REAL)-1;
        int bi = M;
        for (int i = tx; i < mb && live; i += LX) {
            if (!on || i < k) continue;
            const REAL v = PIVOT_KEY(AT(i, k));
            if (v > best) {
                best = v;
                bi = i;
            }
        }
        sV[ty][tx] = best;
        sI[ty][tx] = bi;
        barrier(FENCE);
        for (int s = 1; s < LX; s <<= 1) {
            if ((tx & (2 * s - 1)) == 0 && tx + s < LX) {
                const REAL v = sV[ty][tx + s];
                const int i = sI[ty][tx + s];
                if (v > sV[ty][tx] || (v == sV[ty][tx] && i < sI[ty][tx])) {
                    sV[ty][tx] = v;
                    sI[ty][tx] = i;
                }
            }
            barrier(FENCE);
        }
        /* read by all before the barrier below; rewritten only at the next column */
        const int p = sI[ty][0];
        /* 2. interchange rows k and p, every column */
        if (on && live && p != k)
            for (int j = tx; j < nb; j += LX) {
                const REAL t = AT(k, j);
                AT(k, j) = AT(p, j);
                AT(p, j) = t;
            }
        if (on && live && tx == 0) Pb[k] = p + 1 + ROW0;
        barrier(FENCE);
#endif
        /* 3. scale column k below the pivot, rank-1 update of the trailing block */
        const REAL d = on && live ? AT(k, k) : (REAL)1;
        if (on && status == 0 && !(d != (REAL)0 && IS_FINITE(d))) status = k + 1;
        const int recip = fabs(d) >= SFMIN;
        const REAL inv = (REAL)1 / d;
        /* (a step past a VBATCHED tall matrix's columns has no column k to scale) */
        for (int i = tx; i < mb && live && on; i += LX) {
            if (i > k) {
                REAL l = AT(i, k);
                if (d != (REAL)0) l = recip ? l * inv : l / d;
                AT(i, k) = l;
                for (int j = k + 1; j < nb; j++) AT(i, j) -= l * AT(k, j);
            }
        }
#if !PIVOT
        /* the next column's pivot and row were updated by their owners */
        barrier(FENCE);
#endif
    }
    /* every row back from its owner before the columns go out (VBATCHED: and every
     * work-item's read of info[b] before it is written) */
#if VBATCHED
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (live) {
        for (int e = tx; e < mb * nb; e += LX) {
            const int i = e % mb, j = e / mb;
            Ab[i + j * lda] = a[i + j * M];
        }
        if (tx == 0) info[b] = status;
    }
#else
#if !IN_PLACE
    barrier(CLK_LOCAL_MEM_FENCE);
    if (live)
        for (int e = tx; e < M * N; e += LX) {
            const int i = e % M, j = e / M;
            Ab[i + j * lda] = a[e];
        }
#endif
    if (live && tx == 0) {
#if ROW0 == 0
        info[b] = status;
#else
        if (status != 0 && info[b] == 0) info[b] = status + ROW0;
#endif
    }
#endif
}
