/* Batched LU with partial pivoting, one work-item per matrix: LAPACK's getf2 (unblocked,
 * right-looking) on the matrix where it lies in global memory, for CPUs (issue 30).
 *
 * The fused kernel (getrf_fused.cl) spreads a matrix over work-items that meet at a
 * barrier for every pivot; a CPU runs a work-group as a loop split at each barrier, and
 * that is where its time goes. Here a work-item owns a whole matrix: no barrier, no local
 * memory, the matrix stays in the core's caches, and the O(n^3) part (the column's scaling
 * and the rank-1 update) runs down the contiguous columns in explicit vectors of VW
 * elements, the rows that do not fill a vector in scalars.
 *
 * Column k = 0 .. min(M, N)-1, as getrf_fused.cl does it (so pivots and info are the
 * same):
 *   1. pivot search down column k from the diagonal: the first largest |a(i,k)|, a NaN or
 *      infinity above every finite value (LAPACK's idamax passes over a NaN);
 *   2. rows k and p interchanged over all N columns, ipiv(k) = p + 1;
 *   3. column k below the pivot scaled by 1/a(k,k) (divided by a(k,k) where |a(k,k)| is
 *      below the smallest normal number, dgetf2's sfmin rule; not at all where it is
 *      zero), and A(k+1:M, k+1:N) -= l * u, VW rows of l held in a register across the
 *      trailing columns.
 * info = the first k+1 where a(k,k) is zero or not finite; the factorization goes on.
 *
 * WB > 1 blocks it (LAPACK's right-looking getrf within the work-item): steps 1-3 on a
 * panel of WB columns, their rank-1 updates within the panel only (the interchanges still
 * over all N columns), then U12 = L11**-1 A12 and A22 -= L21 U12 over the columns right
 * of it, WB columns of L21 held in registers while the trailing columns stream past, so
 * that A22 goes through the caches once a panel instead of once a column. Every element
 * takes the same fused multiply-adds in the same order as unblocked: the results and
 * pivots are bitwise those of WB = 1. The steps past the last whole panel run unblocked.
 *
 * Build macros: M, N (rows, columns), PIVOT (1: partial pivoting; 0: getrf_nopiv), VW
 * (vector width: 1, 2, 4, 8 or 16; common/vector.cl), WB (panel width, 1: unblocked;
 * default 1), REAL/PRECISION_DOUBLE (common.cl),
 * VBATCHED (1: the kernel getrf_workitem_vbatched of variable-size batches, orders read
 * per matrix; M and N unused; default 0). Any work-group size: work-items are
 * independent; those past the batch return without touching memory.
 */
#ifndef M
#define M 8
#endif
#ifndef N
#define N 8
#endif
#ifndef PIVOT
#define PIVOT 1
#endif
#ifndef VBATCHED
#define VBATCHED 0
#endif
#ifndef WB
#define WB 1
#endif

/* Steps k = k0 .. k1-1 of getf2 on the m-by-n matrix at Ab (leading dimension lda), its
 * pivots at Pb (unused where PIVOT = 0): the interchanges over all n columns, the rank-1
 * updates over columns k+1 .. jend-1. Returns status, or k+1 for the first zero or
 * non-finite pivot where status is 0. */
inline int steps(__global REAL *Ab, const int lda, __global int *Pb, const int m, const int n,
                 const int k0, const int k1, const int jend, int status)
{
    for (int k = k0; k < k1; k++) {
        __global REAL *ck = Ab + (size_t)k * lda;
#if PIVOT
        /* 1. pivot search */
        REAL best = PIVOT_KEY(ck[k]);
        int p = k;
        for (int i = k + 1; i < m; i++) {
            const REAL v = PIVOT_KEY(ck[i]);
            if (v > best) {
                best = v;
                p = i;
            }
        }
        Pb[k] = p + 1;
        /* 2. interchange rows k and p */
        if (p != k) {
            __global REAL *r = Ab;
            for (int j = 0; j < n; j++, r += lda) {
                const REAL t = r[k];
                r[k] = r[p];
                r[p] = t;
            }
        }
#endif
        /* 3. scale the column, rank-1 update of the trailing block */
        const REAL d = ck[k];
        if (status == 0 && !(d != (REAL)0 && IS_FINITE(d))) status = k + 1;
        const int scale = d != (REAL)0;
        const int recip = fabs(d) >= SFMIN;
        const REAL inv = (REAL)1 / d;
        int i = k + 1;
        for (; i + VW <= m; i += VW) {
            REALV l = VLOAD(ck + i);
            if (scale) l = recip ? l * (REALV)inv : l / (REALV)d;
            VSTORE(l, ck + i);
            __global REAL *cj = ck + lda;
            for (int j = k + 1; j < jend; j++, cj += lda)
                VSTORE(fma(-l, (REALV)cj[k], VLOAD(cj + i)), cj + i);
        }
        for (; i < m; i++) {
            REAL l = ck[i];
            if (scale) l = recip ? l * inv : l / d;
            ck[i] = l;
            __global REAL *cj = ck + lda;
            for (int j = k + 1; j < jend; j++, cj += lda) cj[i] = fma(-l, cj[k], cj[i]);
        }
    }
    return status;
}

#if WB > 1
/* After the panel k0 .. k0+WB-1: U12 = L11**-1 A12 (L11 unit lower) in rows k0 .. k0+WB-1,
 * then A22 -= L21 U12, of the columns j0 = k0+WB .. n-1; each element's multiply-adds in
 * the order of the unblocked steps (q, p = 0 .. WB-1). */
inline void update(__global REAL *Ab, const int lda, const int m, const int n, const int k0)
{
    const int j0 = k0 + WB;
    __global const REAL *L = Ab + (size_t)k0 * lda; /* column k0 */
    for (int j = j0; j < n; j++) {
        __global REAL *cj = Ab + (size_t)j * lda + k0;
        REAL u[WB];
#pragma unroll
        for (int p = 0; p < WB; p++) {
            REAL v = cj[p];
#pragma unroll
            for (int q = 0; q < p; q++) v = fma(-L[(size_t)q * lda + k0 + p], u[q], v);
            u[p] = v;
            cj[p] = v;
        }
    }
    int i = j0;
    for (; i + VW <= m; i += VW) {
        REALV l[WB];
#pragma unroll
        for (int p = 0; p < WB; p++) l[p] = VLOAD(L + (size_t)p * lda + i);
        __global REAL *cj = Ab + (size_t)j0 * lda;
        for (int j = j0; j < n; j++, cj += lda) {
            REALV a = VLOAD(cj + i);
#pragma unroll
            for (int p = 0; p < WB; p++) a = fma(-l[p], (REALV)cj[k0 + p], a);
            VSTORE(a, cj + i);
        }
    }
    for (; i < m; i++) {
        REAL l[WB];
#pragma unroll
        for (int p = 0; p < WB; p++) l[p] = L[(size_t)p * lda + i];
        __global REAL *cj = Ab + (size_t)j0 * lda;
        for (int j = j0; j < n; j++, cj += lda) {
            REAL a = cj[i];
#pragma unroll
            for (int p = 0; p < WB; p++) a = fma(-l[p], cj[k0 + p], a);
            cj[i] = a;
        }
    }
}
#endif

/* getf2 (WB = 1) or the blocked getrf (WB > 1) on the m-by-n matrix at Ab; returns info. */
inline int getf2(__global REAL *Ab, const int lda, __global int *Pb, const int m, const int n)
{
    const int kmax = m < n ? m : n;
    int status = 0, k0 = 0;
#if WB > 1
    for (; k0 + WB <= kmax; k0 += WB) {
        status = steps(Ab, lda, Pb, m, n, k0, k0 + WB, k0 + WB, status);
        update(Ab, lda, m, n, k0);
    }
#endif
    return steps(Ab, lda, Pb, m, n, k0, kmax, n, status);
}

#if VBATCHED
/*
 * Variable sizes (getrf_vbatched on CPUs): matrix b has m[b] rows, n[b] columns, leading
 * dimension lda[b], starts at element offsets[b] of A, its pivots at offsets_p[b] of ipiv.
 * The device checks ran before: a matrix with info[b] != 0 (rejected) or m[b] or n[b] = 0
 * is not touched. Work-item l of work-group g0 + g takes matrix (g0 + g)*local_size + l.
 */
__kernel void getrf_workitem_vbatched(__global REAL *A, __global const long *offsets,
                                      __global const int *m_arr, __global const int *n_arr,
                                      __global const int *lda_arr, __global int *ipiv,
                                      __global const long *offsets_p, __global int *info,
                                      const ulong count, const ulong g0)
{
    const ulong b = (g0 + get_group_id(0)) * get_local_size(0) + get_local_id(0);
    if (b >= count || info[b] != 0) return;
    const int m = m_arr[b], n = n_arr[b];
    if (m <= 0 || n <= 0) return;
    info[b] = getf2(A + offsets[b], lda_arr[b], ipiv + offsets_p[b], m, n);
}
#else
/*
 * Matrix b of the batch at A + offset + b*stride (leading dimension lda), its pivots at
 * ipiv + offset_p + b*stride_p (unused where PIVOT = 0), info[b]; work-item l of
 * work-group g0 + g takes matrix (g0 + g)*local_size + l of the batch's count.
 */
__kernel void getrf_workitem(__global REAL *A, const ulong offset, const int lda,
                             const ulong stride, __global int *ipiv, const ulong offset_p,
                             const ulong stride_p, __global int *info, const ulong count,
                             const ulong g0)
{
    const ulong b = (g0 + get_group_id(0)) * get_local_size(0) + get_local_id(0);
    if (b >= count) return;
#if PIVOT
    __global int *Pb = ipiv + offset_p + b * stride_p;
#else
    __global int *Pb = ipiv;
#endif
    info[b] = getf2(A + offset + b * stride, lda, Pb, M, N);
}
#endif
