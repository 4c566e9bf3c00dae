/* getri on getrf's factors (P*A = L*U: L unit lower below the diagonal, U upper, both over
 * A; ipiv 1-based), LAPACK's dgetri: inv(A) = inv(U) * inv(L) * P, in three steps
 *
 *   1. V = inv(U)                                   (dtrtri)
 *   2. X solves X * L = V                           (dgetri's solve with L from the right)
 *   3. the columns of X interchanged, j = n-2 .. 0: columns j and ipiv(j)-1 (a pivot
 *      outside [j+1, n] swaps nothing rather than reach outside the matrix)
 *
 * Steps 1 and 2 work on each row of the result alone:
 *   row r of V:  v U = e_r  ->  v_c = (e_r(c) - sum_{k<c} v_k U(k,c)) / U(c,c), c = 0 .. n-1
 *   row r of X:  x L = v    ->  x_c = v_c - sum_{k>c} x_k L(k,c),             c = n-1 .. 0
 * so a work-item owns a row: no barriers in the arithmetic, and the work-items of a matrix
 * read the same factor entry at the same time.
 *
 * getri_fused (small n): all three steps in one launch, the row in registers (N = n, loops
 * unrolled), N work-items a matrix, TBC matrices a group. Column k of X is column dest(k)
 * of C; dest is found once per matrix in local memory (one barrier) so that the row is
 * scattered with static register indices.
 *
 * The blocked getri (host/lu/getri_blocked.c) runs steps 1 and 2 a block column of NB at a
 * time on a workspace W (n-by-n a matrix, ld n, zeroed first by getri_zero), the GEMMs
 * between these kernels:
 *   trtri, block column j left to right:  W(0:j, j:j+jb) = W(0:j, 0:j) * U(0:j, j:j+jb)
 *       (GEMM), then getri_trsm_upper: rows r < j solve x U_jj = -W(r, j:j+jb), rows j <=
 *       r < j+jb solve x U_jj = e_(r-j) (row r-j of inv(U_jj))
 *   L, block column j right to left:  W(:, j:j+jb) -= W(:, j+jb:n) * L(j+jb:n, j:j+jb)
 *       (GEMM), then getri_trsm_lower: every row solves x L_jj = W(r, j:j+jb)
 *   getri_store: step 3 on each row of W, then the row to C.
 *
 * info (every kernel that writes C): the smallest k with U(k,k) zero or not finite, else
 * 0; a matrix with info > 0 keeps its C.
 *
 * Build macros: N (getri_fused's order), TBC (its matrices a group), NB (the blocked
 * kernels' widest block), REAL/PRECISION_DOUBLE (common.cl).
 */
#ifndef N
#define N 1
#endif
#ifndef TBC
#define TBC 1
#endif
#ifndef NB
#define NB 32
#endif

/* info of the factors at Ab (see the header). */
inline int getri_info(__global const REAL *Ab, const int lda, const int n)
{
    for (int k = 0; k < n; k++) {
        const REAL d = Ab[k + k * lda];
        if (d == (REAL)0 || !IS_FINITE(d)) return k + 1;
    }
    return 0;
}

/*
 * getri_fused: matrices (g0 + group)*TBC + ty of count, work-item tx owns row tx. Lanes
 * past the batch leave after the barrier (PoCL 3.1: no return before one).
 */
__attribute__((reqd_work_group_size(N * TBC, 1, 1)))
__kernel void getri_fused(__global const REAL *A, const ulong offset_a, const int lda,
                          const ulong stride_a, __global const int *ipiv, const ulong offset_p,
                          const ulong stride_p, __global REAL *C, const ulong offset_c,
                          const int ldc, const ulong stride_c, __global int *info,
                          const ulong count, const ulong g0)
{
    __local int perm_all[TBC * N], dest_all[TBC * N];
    const int lid = (int)get_local_id(0), tx = lid % N, ty = lid / N;
    const ulong b = (g0 + get_group_id(0)) * TBC + ty;
    const int live = b < count;
    __local int *perm = perm_all + ty * N, *dest = dest_all + ty * N;

    /* perm(c): the column of X that ends in column c (the swaps in dgetri's order);
     * dest is its inverse. */
    if (tx == 0) {
        for (int c = 0; c < N; c++) perm[c] = c;
        if (live) {
            __global const int *Pb = ipiv + offset_p + b * stride_p;
            for (int j = N - 2; j >= 0; j--) {
                const int p = Pb[j] - 1;
                if (p > j && p < N) {
                    const int t = perm[j];
                    perm[j] = perm[p];
                    perm[p] = t;
                }
            }
        }
        for (int c = 0; c < N; c++) dest[perm[c]] = c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!live) return;

    __global const REAL *Ab = A + offset_a + b * stride_a;
    const int singular = getri_info(Ab, lda, N);
    if (tx == 0) info[b] = singular;
    if (singular) return;

    /* 1. row tx of inv(U); v_k = 0 for k < tx, so the sums may start at 0. */
    REAL x[N];
PRAGMA_UNROLL
    for (int c = 0; c < N; c++) {
        REAL s = c == tx ? (REAL)1 : (REAL)0;
PRAGMA_UNROLL
        for (int k = 0; k < c; k++) s = mad(-x[k], Ab[k + c * lda], s);
        x[c] = s / Ab[c + c * lda];
    }
    /* 2. x L = v, from the last column */
PRAGMA_UNROLL
    for (int c = N - 1; c >= 0; c--) {
        REAL s = x[c];
PRAGMA_UNROLL
        for (int k = c + 1; k < N; k++) s = mad(-x[k], Ab[k + c * lda], s);
        x[c] = s;
    }
    /* 3. scattered to the interchanged columns */
    __global REAL *Cb = C + offset_c + b * stride_c;
PRAGMA_UNROLL
    for (int k = 0; k < N; k++) Cb[tx + (ulong)dest[k] * (ulong)ldc] = x[k];
}

/* The unit (matrix b, row r) of a work-item of the blocked kernels: one row of each of
 * count matrices of order n; past the last, the work-item leaves (no barriers). */
#define GETRI_ROW_UNIT                                                                         \
    const ulong u = (g0 + get_group_id(0)) * get_local_size(0) + get_local_id(0);             \
    if (u >= count * (ulong)n) return;                                                        \
    const ulong b = u / (ulong)n;                                                             \
    const int r = (int)(u % (ulong)n);                                                        \
    __global const REAL *Ab = A + offset_a + b * stride_a;                                    \
    __global REAL *Wr = W + offset_w + b * (ulong)n * (ulong)n + r

/* W = 0, count elements (the workspace of a piece). */
__kernel void getri_zero(__global REAL *W, const ulong count, const ulong g0)
{
    const ulong u = (g0 + get_group_id(0)) * get_local_size(0) + get_local_id(0);
    if (u < count) W[u] = (REAL)0;
}

/* W(r, j:j+jb) := -W(r, j:j+jb) * inv(U_jj) for r < j; row r-j of inv(U_jj) for j <= r <
 * j+jb (rows below are zero already and stay so). */
__kernel void getri_trsm_upper(__global const REAL *A, const ulong offset_a, const int lda,
                               const ulong stride_a, __global REAL *W, const ulong offset_w,
                               const int n, const int j, const int jb, const ulong count,
                               const ulong g0)
{
    GETRI_ROW_UNIT;
    if (r >= j + jb) return;
    __global const REAL *U = Ab + j + (ulong)j * (ulong)lda;
    REAL x[NB];
PRAGMA_UNROLL
    for (int c = 0; c < NB; c++)
        x[c] = c >= jb  ? (REAL)0
               : r < j ? -Wr[(ulong)(j + c) * (ulong)n]
                       : (r - j == c ? (REAL)1 : (REAL)0);
PRAGMA_UNROLL
    for (int c = 0; c < NB; c++)
        if (c < jb) {
            REAL s = x[c];
PRAGMA_UNROLL
            for (int k = 0; k < c; k++) s = mad(-x[k], U[k + c * lda], s);
            x[c] = s / U[c + c * lda];
        }
PRAGMA_UNROLL
    for (int c = 0; c < NB; c++)
        if (c < jb) Wr[(ulong)(j + c) * (ulong)n] = x[c];
}

/* W(r, j:j+jb) := W(r, j:j+jb) * inv(L_jj), L_jj unit lower, every row r. */
__kernel void getri_trsm_lower(__global const REAL *A, const ulong offset_a, const int lda,
                               const ulong stride_a, __global REAL *W, const ulong offset_w,
                               const int n, const int j, const int jb, const ulong count,
                               const ulong g0)
{
    GETRI_ROW_UNIT;
    __global const REAL *L = Ab + j + (ulong)j * (ulong)lda;
    REAL x[NB];
PRAGMA_UNROLL
    for (int c = 0; c < NB; c++) x[c] = c < jb ? Wr[(ulong)(j + c) * (ulong)n] : (REAL)0;
PRAGMA_UNROLL
    for (int c = NB - 1; c >= 0; c--)
        if (c < jb) {
            REAL s = x[c];
PRAGMA_UNROLL
            for (int k = c + 1; k < NB; k++)
                if (k < jb) s = mad(-x[k], L[k + c * lda], s);
            x[c] = s;
        }
PRAGMA_UNROLL
    for (int c = 0; c < NB; c++)
        if (c < jb) Wr[(ulong)(j + c) * (ulong)n] = x[c];
}

/* info (of matrix b0 + b: A, ipiv and C start at this piece's first matrix, W is the
 * piece's); then, where it is 0, step 3 on row r of W and the row to C. */
__kernel void getri_store(__global const REAL *A, const ulong offset_a, const int lda,
                          const ulong stride_a, __global REAL *W, const ulong offset_w,
                          const int n, __global const int *ipiv, const ulong offset_p,
                          const ulong stride_p, __global REAL *C, const ulong offset_c,
                          const int ldc, const ulong stride_c, __global int *info,
                          const ulong b0, const ulong count, const ulong g0)
{
    GETRI_ROW_UNIT;
    const int singular = getri_info(Ab, lda, n);
    if (r == 0) info[b0 + b] = singular;
    if (singular) return;
    __global const int *Pb = ipiv + offset_p + b * stride_p;
    for (int j = n - 2; j >= 0; j--) {
        const int p = Pb[j] - 1;
        if (p > j && p < n) {
            const REAL t = Wr[(ulong)j * (ulong)n];
            Wr[(ulong)j * (ulong)n] = Wr[(ulong)p * (ulong)n];
            Wr[(ulong)p * (ulong)n] = t;
        }
    }
    __global REAL *Cr = C + offset_c + b * stride_c + r;
    for (int c = 0; c < n; c++) Cr[(ulong)c * (ulong)ldc] = Wr[(ulong)c * (ulong)n];
}
