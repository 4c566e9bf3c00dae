/* Batched LU with partial pivoting (LAPACK getf2, unblocked right-looking), each column in
 * the registers of one work-item, for small orders on GPUs.
 *
 * Work-item j of a matrix owns column j, held in a private array c[M] that is only ever
 * indexed by compile-time constants (the loops over rows and over k unroll fully; a run-
 * time index would put the array in stack memory). Column k = 0 .. min(M, N)-1:
 *   1. the owner of column k writes it (rows k..M-1) to local memory, one buffer per
 *      parity of k, so that the single barrier of a step also orders the reuse of the
 *      buffer two steps later;
 *   2. every work-item reads that column and finds the pivot row p itself, the fused
 *      kernel's order (getrf_fused.cl): the first largest |a(i,k)|, i >= k, NaN and
 *      infinities above every finite value (LAPACK's idamax passes over a NaN). No
 *      reduction, no second barrier;
 *   3. every work-item interchanges rows k and p of its own column (selects over the
 *      unrolled rows), forms the multipliers l_i = a(i,k)/a(p,k), i > k, from the local
 *      copy (row p's entry being row k's after the interchange; multiplied by the
 *      reciprocal where |a(p,k)| >= the smallest normal number, divided otherwise, as
 *      dgetf2; a zero pivot scales nothing), and where j > k updates c(i) -= l_i * c(k);
 *      the owner of column k keeps the l_i instead.
 * info is the first k+1 where the pivot is zero or not finite; the factorization goes on.
 * ipiv(k) = p + 1 is kept by work-item k and stored with the others' at the end.
 *
 * Columns come in and go out through local memory where STAGE = 1 (consecutive work-
 * items touch consecutive elements of global memory; the staging copy's leading
 * dimension is odd so that a work-item's column reads meet no bank conflicts), else
 * straight from global memory, each work-item down its own column.
 *
 * N work-items a matrix, TBC matrices a work-group. Lanes past the batch run on zeros,
 * take part in every barrier and touch no global memory.
 *
 * Build macros: M, N (rows, columns), TBC, PIVOT (1: partial pivoting; 0: getrf_nopiv, p =
 * k), STAGE, UNROLL and REAL/PRECISION_DOUBLE (common.cl).
 */
#ifndef M
#define M 8
#endif
#ifndef N
#define N 8
#endif
#ifndef TBC
#define TBC 1
#endif
#ifndef PIVOT
#define PIVOT 1
#endif
#ifndef STAGE
#define STAGE 1
#endif

#define K (M < N ? M : N)
/* the staging copy's leading dimension: odd, so column reads spread over the banks */
#define LDS (M | 1)

#if PRECISION_DOUBLE
#define SFMIN DBL_MIN
#else
#define SFMIN FLT_MIN
#endif

#define PIVOT_KEY(x) (IS_FINITE(x) ? fabs(x) : (REAL)INFINITY)

/*
 * Matrix b of the batch at A + offset + b*stride (leading dimension lda), its pivots at
 * ipiv + offset_p + b*stride_p (unused where PIVOT = 0), info[b]. Work-group g0 + g holds
 * matrices (g0 + g)*TBC .. +TBC-1 of the batch's count.
 */
__attribute__((reqd_work_group_size(N * TBC, 1, 1)))
__kernel void getrf_regs(__global REAL *A, const ulong offset, const int lda, const ulong stride,
                         __global int *ipiv, const ulong offset_p, const ulong stride_p,
                         __global int *info, const ulong count, const ulong g0)
{
    __local REAL sK[TBC][2][M]; /* column k, by parity of k */
#if STAGE
    __local REAL sS[TBC][LDS * N];
#endif
    const int lid = (int)get_local_id(0);
    const int tx = lid % N, ty = lid / N;
    const ulong b = (g0 + get_group_id(0)) * TBC + ty;
    const int live = b < count;
    __global REAL *Ab = A + offset + (live ? b * stride : 0);

    REAL c[M];
#if STAGE
    __local REAL *s = sS[ty];
    for (int e = tx; e < M * N; e += N) {
        const int i = e % M, j = e / M;
        s[i + j * LDS] = live ? Ab[i + j * lda] : (REAL)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    PRAGMA_UNROLL
    for (int i = 0; i < M; i++) c[i] = s[i + tx * LDS];
#else
    PRAGMA_UNROLL
    for (int i = 0; i < M; i++) c[i] = live ? Ab[i + tx * lda] : (REAL)0;
#endif

    /* Every private index below is a loop counter over all M rows, with i against k a
     * condition: constant once the row loops unroll, whether or not the loop over k does
     * (c(k) and c(p) are found by selects for the same reason). */
    int status = 0, mypiv = 0;
    PRAGMA_UNROLL
    for (int k = 0; k < K; k++) {
        __local REAL *col = sK[ty][k & 1];
        /* 1. column k, rows k.., to every work-item of the matrix */
        if (tx == k) {
            PRAGMA_UNROLL
            for (int i = 0; i < M; i++)
                if (i >= k) col[i] = c[i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* 2. the pivot row */
        int p = k;
#if PIVOT
        REAL best = PIVOT_KEY(col[k]);
        PRAGMA_UNROLL
        for (int i = 0; i < M; i++) {
            if (i > k) {
                const REAL v = PIVOT_KEY(col[i]);
                if (v > best) {
                    best = v;
                    p = i;
                }
            }
        }
#endif
        /* 3. rows k and p of this column interchanged; u = the new c(k) */
        REAL ck = c[0];
        PRAGMA_UNROLL
        for (int i = 1; i < M; i++) ck = i == k ? c[i] : ck;
        REAL u = ck;
#if PIVOT
        PRAGMA_UNROLL
        for (int i = 1; i < M; i++) u = i == p ? c[i] : u;
        PRAGMA_UNROLL
        for (int i = 0; i < M; i++) c[i] = i == p ? ck : i == k ? u : c[i];
#endif
        if (tx == k) mypiv = p;
        const REAL d = col[p];
        if (status == 0 && !(d != (REAL)0 && IS_FINITE(d))) status = k + 1;
        /* the multipliers, rows k+1.. after the interchange (row p holds row k's entry) */
        REAL l[M];
        PRAGMA_UNROLL
        for (int i = 0; i < M; i++) l[i] = i > k ? (i == p ? col[k] : col[i]) : (REAL)0;
        if (fabs(d) >= SFMIN) {
            const REAL inv = (REAL)1 / d;
            PRAGMA_UNROLL
            for (int i = 0; i < M; i++)
                if (i > k) l[i] *= inv;
        } else if (d != (REAL)0) {
            PRAGMA_UNROLL
            for (int i = 0; i < M; i++)
                if (i > k) l[i] /= d;
        }
        /* the rank-1 update of the trailing columns; column k keeps L's part */
        PRAGMA_UNROLL
        for (int i = 0; i < M; i++)
            if (i > k) c[i] = tx > k ? c[i] - l[i] * u : tx == k ? l[i] : c[i];
    }

    /* the columns back, and the pivots, one per work-item of the first K */
#if STAGE
    PRAGMA_UNROLL
    for (int i = 0; i < M; i++) s[i + tx * LDS] = c[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (live)
        for (int e = tx; e < M * N; e += N) {
            const int i = e % M, j = e / M;
            Ab[i + j * lda] = s[i + j * LDS];
        }
#else
    if (live) {
        PRAGMA_UNROLL
        for (int i = 0; i < M; i++) Ab[i + tx * lda] = c[i];
    }
#endif
    if (live) {
#if PIVOT
        if (tx < K) ipiv[offset_p + b * stride_p + tx] = mypiv + 1;
#endif
        if (tx == 0) info[b] = status;
    }
}
