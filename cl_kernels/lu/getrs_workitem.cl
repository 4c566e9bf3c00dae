/* Batched LU solves with one work-item per system, for CPUs (issue 30; the Cholesky
 * counterpart is chol/potrs_workitem.cl): getrf's factors (P*A = L*U, L unit lower, U
 * upper, both over A; ipiv 1-based as LAPACK's) solve B in place in global memory, no
 * barrier and no local memory. The substitution kernel (getrs.cl) spreads a system's rows
 * over work-items with a barrier per step, which on a CPU splits the work-group's loop over
 * its work-items 2n times.
 *
 *   'N':  A X = B     ->  B = P B (the swaps (i, ipiv[i]) for i = 0..n-1, LAPACK's laswp),
 *                         L Y = B  (FORWARD_AXPY along L's columns, unit diagonal),
 *                         U X = Y  (BACKWARD_AXPY along U's columns)
 *   'T':  A**T X = B  ->  U**T Y = B (FORWARD_DOT along U's columns),
 *                         L**T X = Y (BACKWARD_DOT along L's columns, unit diagonal),
 *                         X = P**T X (the swaps in reverse order)
 *   getri: C = inv(A)  =  the 'N' solve of A C = I, C set to I first; info from U's diagonal.
 *   getrs_workitem_vbatched: the 'N' or 'T' solve with sizes and layout per system.
 *
 * The sweeps (common/workitem_sweeps.cl) run along contiguous columns as vectors of VW, NR
 * right-hand sides a pass (each factor vector loaded once for the NR of them), the rest one
 * by one. A zero U(j,j) divides, as getrs.cl does (LAPACK's getrs does not check). A pivot
 * outside [i+1, n] swaps nothing, as in getrs.cl, rather than reach outside B.
 *
 * n, nrhs and the layout are run-time arguments: one program per (NR, VW, TRANS, precision).
 * Built after common/common.cl, common/vector.cl and common/workitem_sweeps.cl. Build
 * macros: NR (1..32), VW (1, 2, 4, 8, 16), TRANS (0: 'N', 1: 'T'; getri builds with 0).
 * Any work-group size; work-items past the batch do nothing.
 */
#ifndef NR
#define NR 1
#endif
#ifndef TRANS
#define TRANS 0
#endif

/* The row interchanges of ipiv (Pb) on nr columns of B, in LAPACK's order or reversed. */
inline void apply_swaps(__global const int *Pb, __global REAL *Bb, const int ldb, const int n,
                        const int nr, const int reverse)
{
    for (int k = 0; k < n; k++) {
        const int i = reverse ? n - 1 - k : k;
        const int p = Pb[i] - 1;
        if (p <= i || p >= n) continue;
        for (int c = 0; c < nr; c++) {
            __global REAL *col = Bb + (size_t)c * ldb;
            const REAL t = col[i];
            col[i] = col[p];
            col[p] = t;
        }
    }
}

/* Solves nr columns of B at Bb (leading dimension ldb) with the factors at Ab and the
 * pivots at Pb. */
#define SOLVE_COLUMNS(name, nr)                                                                \
    inline void name(__global const REAL *Ab, const int lda, __global const int *Pb,           \
                     __global REAL *Bb, const int ldb, const int n)                            \
    {                                                                                          \
        REAL s[nr];                                                                            \
        if (!TRANS) {                                                                          \
            apply_swaps(Pb, Bb, ldb, n, (nr), 0);                                              \
            FORWARD_AXPY(nr, 1)                                                                \
            BACKWARD_AXPY(nr, 0)                                                               \
        } else {                                                                               \
            FORWARD_DOT(nr, 0)                                                                 \
            BACKWARD_DOT(nr, 1)                                                                \
            apply_swaps(Pb, Bb, ldb, n, (nr), 1);                                              \
        }                                                                                      \
    }

SOLVE_COLUMNS(solve_nr, NR)
#if NR > 1
SOLVE_COLUMNS(solve_one, 1)
#endif

/* All nrhs columns: passes of NR, the rest one by one. */
inline void solve_all(__global const REAL *Ab, const int lda, __global const int *Pb,
                      __global REAL *Bb, const int ldb, const int n, const int nrhs)
{
    int c = 0;
    for (; c + NR <= nrhs; c += NR) solve_nr(Ab, lda, Pb, Bb + (size_t)c * ldb, ldb, n);
#if NR > 1
    for (; c < nrhs; c++) solve_one(Ab, lda, Pb, Bb + (size_t)c * ldb, ldb, n);
#endif
}

/*
 * getrs: systems b0 .. b0+count-1 (factors b at offset_a + b*stride_a, pivots at offset_p +
 * b*stride_p, right-hand sides at offset_b + b*stride_b), one per work-item of a 1-D
 * NDRange. With skip_failed (gesv), a system whose info is not zero keeps its B.
 */
__kernel void getrs_workitem(__global const REAL *A, const ulong offset_a, const int lda,
                             const ulong stride_a, __global const int *ipiv,
                             const ulong offset_p, const ulong stride_p, __global REAL *B,
                             const ulong offset_b, const int ldb, const ulong stride_b,
                             const int n, const int nrhs, __global const int *info,
                             const int skip_failed, const ulong b0, const ulong count)
{
    const ulong g = get_global_id(0);
    if (g >= count) return;
    const ulong b = b0 + g;
    if (skip_failed && info[b] != 0) return;
    solve_all(A + offset_a + b * stride_a, lda, ipiv + offset_p + b * stride_p,
              B + offset_b + b * stride_b, ldb, n, nrhs);
}

/*
 * getri: C = inv(A) for systems b0 .. b0+count-1, C_b at offset_c + b*stride_c. info[b]:
 * the first k where U(k,k) is zero or not finite, else 0 (getrs.cl's rule); a singular
 * matrix's C is not written.
 */
__kernel void getri_workitem(__global const REAL *A, const ulong offset_a, const int lda,
                             const ulong stride_a, __global const int *ipiv,
                             const ulong offset_p, const ulong stride_p, __global REAL *C,
                             const ulong offset_c, const int ldc, const ulong stride_c,
                             const int n, __global int *info, const ulong b0, const ulong count)
{
    const ulong g = get_global_id(0);
    if (g >= count) return;
    const ulong b = b0 + g;
    __global const REAL *Ab = A + offset_a + b * stride_a;
    int singular = 0;
    for (int k = 0; k < n && !singular; k++) {
        const REAL d = Ab[k + (size_t)k * lda];
        if (d == (REAL)0 || !IS_FINITE(d)) singular = k + 1;
    }
    info[b] = singular;
    if (singular) return;
    __global REAL *Cb = C + offset_c + b * stride_c;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) Cb[i + (size_t)j * ldc] = i == j ? (REAL)1 : (REAL)0;
    solve_all(Ab, lda, ipiv + offset_p + b * stride_p, Cb, ldc, n, n);
}

/*
 * getrs_vbatched: systems b0 .. b0+count-1, system b of order n[b] with nrhs[b] right-hand
 * sides, factors at offsets_a[b] of A (leading dimension lda[b]), pivots at offsets_p[b]
 * of ipiv, right-hand sides at offsets_b[b] of B (ldb[b]). A system whose info is not zero
 * (an entry the device checks rejected, or gesv's failed factorization) keeps its B.
 */
__kernel void getrs_workitem_vbatched(__global const REAL *A, __global const long *offsets_a,
                                      __global const int *n, __global const int *lda,
                                      __global const int *ipiv, __global const long *offsets_p,
                                      __global REAL *B, __global const long *offsets_b,
                                      __global const int *nrhs, __global const int *ldb,
                                      __global const int *info, const ulong b0,
                                      const ulong count)
{
    const ulong g = get_global_id(0);
    if (g >= count) return;
    const ulong b = b0 + g;
    if (info[b] != 0) return;
    const int nb = n[b], kb = nrhs[b];
    if (nb <= 0 || kb <= 0) return;
    solve_all(A + offsets_a[b], lda[b], ipiv + offsets_p[b], B + offsets_b[b], ldb[b], nb, kb);
}
