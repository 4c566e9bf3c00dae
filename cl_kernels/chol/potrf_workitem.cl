/* Batched Cholesky, one work-item per matrix: a blocked left-looking factorization of the
 * matrix in place, for CPUs (issue 31).
 *
 * A CPU runs a work-group's work-items as a loop, and every barrier splits that loop (PoCL
 * saves each work-item's private arrays to memory across it): the fused kernel's GPU
 * shape, a matrix spread over work-items that share its panel through local memory,
 * spends its time there. Here a work-item owns a whole matrix, so there is no barrier and
 * no local memory; the matrix stays in the core's caches while it is factored, and the
 * inner loops run along contiguous memory as explicit vectors of VW elements.
 *
 * Step j0 (block column j0..j0+jb-1, jb = min(NB, N-j0)):
 *   1. update from the left, A(j0:N, j0:j0+jb) -= L(j0:N, 0:j0) * L(j0:j0+jb, 0:j0)**T
 *      (SYRK on the diagonal block, GEMM below it; only the lower part of the diagonal
 *      block is written);
 *   2. POTF2 of the jb-by-jb diagonal block (scalar: jb**3/6 flops);
 *   3. TRSM of the rows below it, L(j0+jb:N, j0:j0+jb) = A(...) * L_diag**-T.
 * Lower storage (UPPER = 0): L's columns are contiguous, so the vectors hold VW rows; the
 * update keeps MR*VW rows by NB columns of the product in registers (per k, MR vector
 * loads and NB broadcasts feed MR*NB fused multiply-adds) and the TRSM solves VW rows at a
 * time in registers. Upper storage (UPPER = 1) holds L's rows contiguously (element (i,j)
 * of L is U(j,i)): the update's vectors run along k, MR rows by NB columns of dot products
 * summed across the vector at the end, and the TRSM multiplies each row by the inverse of
 * the diagonal block, transposed (formed once per step, NB x NB in private memory).
 * Rows that do not fill a vector take scalar code: no access leaves the matrix's columns.
 * A pivot that is not positive and finite stops the matrix: info = its column + 1.
 *
 * Build macros: N (order; VBATCHED = 1 builds the variable-size kernel instead, each
 * matrix's order read at run time), NB (block width, 1..32), VW (vector width: 1, 2, 4, 8
 * or 16; common/vector.cl), MR (vectors (lower) or rows (upper) of the update's register
 * tile: 1 or 2), UPPER, REAL/PRECISION_DOUBLE (common.cl). Any work-group size: work-items
 * are independent.
 */
#ifndef N
#define N 16
#endif
#ifndef NB
#define NB 8
#endif
#ifndef MR
#define MR 2
#endif
#ifndef UPPER
#define UPPER 0
#endif
#ifndef VBATCHED
#define VBATCHED 0
#endif

/* Element (i, j) of the lower factor in the stored triangle. */
#if UPPER
#define ELEM(A, lda, i, j) (A)[(j) + (size_t)(i) * (lda)]
#else
#define ELEM(A, lda, i, j) (A)[(i) + (size_t)(j) * (lda)]
#endif

/* POTF2 of the diagonal block at (j0, j0), already updated: returns 0 or the failed
 * column + 1. Row-oriented (Crout), so each inner sum runs along a row of L. */
inline int diag_potf2(__global REAL *A, const int lda, const int j0, const int jb)
{
    for (int c = 0; c < jb; c++) {
        const int col = j0 + c;
        REAL d = ELEM(A, lda, col, col);
        for (int k = j0; k < col; k++) d = mad(-ELEM(A, lda, col, k), ELEM(A, lda, col, k), d);
        if (!PIVOT_OK(d)) return col + 1;
        const REAL l = sqrt(d);
        ELEM(A, lda, col, col) = l;
        const REAL inv = (REAL)1 / l;
        for (int r = col + 1; r < j0 + jb; r++) {
            REAL s = ELEM(A, lda, r, col);
            for (int k = j0; k < col; k++) s = mad(-ELEM(A, lda, r, k), ELEM(A, lda, col, k), s);
            ELEM(A, lda, r, col) = s * inv;
        }
    }
    return 0;
}

#if !UPPER
/* ---- lower storage: vectors along L's columns -------------------------------------- */

/* Step 1 on the mr*VW rows from i (all < n): the product in registers, then written where
 * the row lies below or on the column (every row in the diagonal block's chunks is
 * checked; the rest are below it). */
inline void update_rows(__global REAL *A, const int lda, const int i, const int j0,
                        const int jb, const int mr)
{
    REALV acc[MR][NB];
#pragma unroll
    for (int r = 0; r < MR; r++)
#pragma unroll
        for (int c = 0; c < NB; c++) acc[r][c] = (REALV)0;
    for (int k = 0; k < j0; k++) {
        __global const REAL *colk = A + (size_t)k * lda;
        REALV a[MR];
#pragma unroll
        for (int r = 0; r < MR; r++) a[r] = r < mr ? VLOAD(colk + i + r * VW) : (REALV)0;
#pragma unroll
        for (int c = 0; c < NB; c++) {
            const REAL b = c < jb ? colk[j0 + c] : (REAL)0;
#pragma unroll
            for (int r = 0; r < MR; r++) acc[r][c] = fma(a[r], (REALV)b, acc[r][c]);
        }
    }
#pragma unroll
    for (int r = 0; r < MR; r++) {
        if (r >= mr) break;
        const int i0 = i + r * VW;
#pragma unroll
        for (int c = 0; c < NB; c++) {
            if (c >= jb) break;
            __global REAL *p = A + i0 + (size_t)(j0 + c) * lda;
            if (i0 >= j0 + c) {
                VSTORE(VLOAD(p) - acc[r][c], p);
            } else { /* the chunk crosses the diagonal: rows above it keep their value */
                REAL t[VW];
                VSTORE(acc[r][c], t);
                for (int e = 0; e < VW; e++)
                    if (i0 + e >= j0 + c) p[e] -= t[e];
            }
        }
    }
}

/* Step 1 on one row i (scalar: the rows that do not fill a vector). */
inline void update_row(__global REAL *A, const int lda, const int i, const int j0, const int jb)
{
    REAL acc[NB];
    for (int c = 0; c < NB; c++) acc[c] = (REAL)0;
    for (int k = 0; k < j0; k++) {
        __global const REAL *colk = A + (size_t)k * lda;
        const REAL a = colk[i];
        for (int c = 0; c < NB; c++) acc[c] = mad(a, c < jb ? colk[j0 + c] : (REAL)0, acc[c]);
    }
    for (int c = 0; c < NB; c++)
        if (c < jb && i >= j0 + c) A[i + (size_t)(j0 + c) * lda] -= acc[c];
}

/* Step 3 on VW rows from i (below the diagonal block): x = x * L_diag**-T in registers. */
inline void trsm_rows(__global REAL *A, const int lda, const int i, const int j0, const int jb)
{
    REALV x[NB];
#pragma unroll
    for (int c = 0; c < NB; c++) x[c] = c < jb ? VLOAD(A + i + (size_t)(j0 + c) * lda) : (REALV)0;
#pragma unroll
    for (int c = 0; c < NB; c++) {
        if (c >= jb) break;
        __global const REAL *lc = A + (size_t)(j0 + c) * lda + j0; /* L(j0.., j0+c) */
        x[c] = x[c] / (REALV)lc[c];
#pragma unroll
        for (int cc = c + 1; cc < NB; cc++)
            if (cc < jb) x[cc] = fma(-x[c], (REALV)lc[cc], x[cc]);
    }
#pragma unroll
    for (int c = 0; c < NB; c++)
        if (c < jb) VSTORE(x[c], A + i + (size_t)(j0 + c) * lda);
}

inline void trsm_row(__global REAL *A, const int lda, const int i, const int j0, const int jb)
{
    for (int c = 0; c < jb; c++) {
        __global const REAL *lc = A + (size_t)(j0 + c) * lda + j0;
        const REAL x = A[i + (size_t)(j0 + c) * lda] / lc[c];
        A[i + (size_t)(j0 + c) * lda] = x;
        for (int cc = c + 1; cc < jb; cc++) A[i + (size_t)(j0 + cc) * lda] -= x * lc[cc];
    }
}

inline int factor(__global REAL *A, const int lda, const int n)
{
    for (int j0 = 0; j0 < n; j0 += NB) {
        const int jb = min(NB, n - j0);
        int i = j0;
        if (j0 > 0) {
            for (; i + MR * VW <= n; i += MR * VW) update_rows(A, lda, i, j0, jb, MR);
            for (; i + VW <= n; i += VW) update_rows(A, lda, i, j0, jb, 1);
            for (; i < n; i++) update_row(A, lda, i, j0, jb);
        }
        const int info = diag_potf2(A, lda, j0, jb);
        if (info) return info;
        i = j0 + jb;
        for (; i + VW <= n; i += VW) trsm_rows(A, lda, i, j0, jb);
        for (; i < n; i++) trsm_row(A, lda, i, j0, jb);
    }
    return 0;
}

#else
/* ---- upper storage: vectors along L's rows (k) -------------------------------------- */

/* Step 1 on the mr rows from i (all < n): dot products of L(i+r, 0:j0) with
 * L(j0+c, 0:j0), VW elements of k at a time, the last j0 % VW in scalars. */
inline void update_rows(__global REAL *A, const int lda, const int i, const int j0,
                        const int jb, const int mr)
{
    REALV acc[MR][NB];
    REAL rest[MR][NB];
#pragma unroll
    for (int r = 0; r < MR; r++)
#pragma unroll
        for (int c = 0; c < NB; c++) {
            acc[r][c] = (REALV)0;
            rest[r][c] = (REAL)0;
        }
    __global REAL *row[MR];
    __global const REAL *bro[NB];
    for (int r = 0; r < MR; r++) row[r] = A + (size_t)(r < mr ? i + r : i) * lda;
    for (int c = 0; c < NB; c++) bro[c] = A + (size_t)(c < jb ? j0 + c : j0) * lda;
    int k = 0;
    for (; k + VW <= j0; k += VW) {
        REALV a[MR];
#pragma unroll
        for (int r = 0; r < MR; r++) a[r] = VLOAD(row[r] + k);
#pragma unroll
        for (int c = 0; c < NB; c++) {
            const REALV b = VLOAD(bro[c] + k);
#pragma unroll
            for (int r = 0; r < MR; r++) acc[r][c] = fma(a[r], b, acc[r][c]);
        }
    }
    for (; k < j0; k++)
        for (int c = 0; c < NB; c++)
            for (int r = 0; r < MR; r++) rest[r][c] = mad(row[r][k], bro[c][k], rest[r][c]);
#pragma unroll
    for (int r = 0; r < MR; r++) {
        if (r >= mr) break;
#pragma unroll
        for (int c = 0; c < NB; c++)
            if (c < jb && i + r >= j0 + c) row[r][j0 + c] -= hsum(acc[r][c]) + rest[r][c];
    }
}

/* T = L_diag**-T (upper triangular, zero outside jb x jb), by columns of L_diag**-1:
 * T[c][r] = (L_diag**-1)(r, c), each sum along a row of L. */
inline void diag_inverse_t(__global const REAL *A, const int lda, const int j0, const int jb,
                           REAL T[NB][NB])
{
    for (int c = 0; c < NB; c++)
        for (int r = 0; r < NB; r++) T[c][r] = (REAL)0;
    for (int c = 0; c < jb; c++) {
        T[c][c] = (REAL)1 / ELEM(A, lda, j0 + c, j0 + c);
        for (int r = c + 1; r < jb; r++) {
            __global const REAL *lr = A + (size_t)(j0 + r) * lda + j0; /* L(j0+r, j0..) */
            REAL s = (REAL)0;
            for (int k = c; k < r; k++) s = mad(-lr[k], T[c][k], s);
            T[c][r] = s / lr[r];
        }
    }
}

/* Step 3 on row i: x = x * L_diag**-T as a product with T (the substitution's divisions
 * and dependent steps left the row scalar; the product runs along T's rows, NB wide). */
inline void trsm_row(__global REAL *A, const int lda, const int i, const int jb, const int j0,
                     REAL T[NB][NB])
{
    __global REAL *x = A + (size_t)i * lda + j0;
    REAL y[NB];
#pragma unroll
    for (int cc = 0; cc < NB; cc++) y[cc] = (REAL)0;
    for (int c = 0; c < NB; c++) {
        const REAL xc = c < jb ? x[c] : (REAL)0;
#pragma unroll
        for (int cc = 0; cc < NB; cc++) y[cc] = fma(xc, T[c][cc], y[cc]);
    }
    for (int cc = 0; cc < NB; cc++)
        if (cc < jb) x[cc] = y[cc];
}

inline int factor(__global REAL *A, const int lda, const int n)
{
    for (int j0 = 0; j0 < n; j0 += NB) {
        const int jb = min(NB, n - j0);
        if (j0 > 0) {
            int i = j0;
            for (; i + MR <= n; i += MR) update_rows(A, lda, i, j0, jb, MR);
            for (; i < n; i++) update_rows(A, lda, i, j0, jb, 1);
        }
        const int info = diag_potf2(A, lda, j0, jb);
        if (info) return info;
        if (j0 + jb < n) {
            REAL T[NB][NB];
            diag_inverse_t(A, lda, j0, jb, T);
            for (int i = j0 + jb; i < n; i++) trsm_row(A, lda, i, jb, j0, T);
        }
    }
    return 0;
}
#endif

#if !VBATCHED
/*
 * Matrices b0 .. b0+count-1 of A (matrix b at offset + b*stride), one per work-item of a
 * 1-D NDRange (any work-group size; work-items past count do nothing). info[b] = 0 or
 * the first failed column + 1, LAPACK's.
 */
__kernel void potrf_workitem(__global REAL *A, const ulong offset, const int lda,
                             const ulong stride, __global int *info, const ulong b0,
                             const ulong count)
{
    const ulong b = get_global_id(0);
    if (b >= count) return;
    info[b0 + b] = factor(A + offset + (b0 + b) * stride, lda, N);
}
#else
/*
 * Variable sizes: matrices b0 .. b0+count-1, matrix b of order n[b] with leading dimension
 * lda[b] at offsets[b] of A, one per work-item. A matrix the device checks rejected or that
 * another variant takes (info[b] != 0, n[b] = 0 or n[b] > n_hi) is left alone: the order
 * is a run-time bound of the loops, and nothing private depends on it (NB sizes the tiles).
 */
__kernel void potrf_workitem_vbatched(__global REAL *A, __global const long *offsets,
                                      __global const int *n, __global const int *lda,
                                      __global int *info, const ulong b0, const ulong count,
                                      const int n_hi)
{
    const ulong g = get_global_id(0);
    if (g >= count) return;
    const ulong b = b0 + g;
    const int nb = n[b];
    if (info[b] != 0 || nb <= 0 || nb > n_hi) return;
    info[b] = factor(A + offsets[b], lda[b], nb);
}
#endif
