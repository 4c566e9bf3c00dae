/* Blocked LU with partial pivoting on a variable-size batch (host/lu/getrf_vbatched_blocked.c):
 * right-looking LAPACK dgetrf with per-matrix m, n, lda and offsets read on the device. The
 * host launches the three kernels once per NB-wide block column j of the largest matrix;
 * in each, matrix b takes part while j < min(m[b], n[b]), with jb = min(NB, min(m[b],
 * n[b]) - j) columns in this step:
 *
 *   getrf_vb_panel       A(j:m, j:j+jb) = P*L*U in place in global memory (unblocked
 *                        getf2 as getrf_fused.cl: the same pivot order, NaN and infinity
 *                        above every finite value, the same scaling), one work-group a
 *                        matrix; pivots j+1.. and info as LAPACK's dgetrf (the first
 *                        zero or non-finite pivot over all panels)
 *   getrf_vb_swap_trsm   the panel's interchanges on every column outside it (dlaswp),
 *                        then U12 = L11**-1 A12 right of it; one work-item a column
 *   getrf_vb_gemm        A22 -= L21 * U12, TS x TS tiles of A22, L21 and U12 through
 *                        local memory
 *
 * A matrix takes no part where info[b] < 0 (rejected by the checks: nothing touched),
 * where m[b] or n[b] is 0, or where m[b] <= LO_M and n[b] <= LO_N (lo_m, lo_n: the fused
 * kernel's share of a split batch). info[b] > 0 (a zero pivot found) goes on, as LAPACK.
 * Work-groups without work return before any barrier: each group's matrix and tile are
 * uniform over it.
 *
 * Build macros: NB (panel width), WG (work-items of the panel and swap kernels, a power
 * of two), TS (GEMM tile side; TS*TS work-items), REAL/PRECISION_DOUBLE (common.cl).
 */
#ifndef NB
#define NB 32
#endif
#ifndef WG
#define WG 64
#endif
#ifndef TS
#define TS 16
#endif

/* UNIFORM_LOOPS = 1 (PoCL, backends/pocl.c): the panel's loop that holds barriers runs to
 * NB, a bound fixed at build time, with the steps past the matrix's jb idle, and a group
 * without work passes its barriers instead of returning: PoCL 5.0 factored wrong under
 * barrier loops whose trip count came from a load (as in cl_kernels/blas/gemm_tile.cl). */
#ifndef UNIFORM_LOOPS
#define UNIFORM_LOOPS 0
#endif

#define VB_ARGS                                                                                \
    __global REAL *A, __global const long *offsets, __global const int *m_arr,                 \
        __global const int *n_arr, __global const int *lda_arr, __global const int *info,     \
        const int lo_m, const int lo_n, const int j

/* Matrix b's part in step j: its jb (0: none), m, n, lda. */
inline int vb_step(const ulong b, const ulong count, __global const int *m_arr,
                   __global const int *n_arr, __global const int *lda_arr,
                   __global const int *info, const int lo_m, const int lo_n, const int j,
                   int *m, int *n, int *lda)
{
    if (b >= count || info[b] < 0) return 0;
    *m = m_arr[b];
    *n = n_arr[b];
    *lda = lda_arr[b];
    if (*m <= lo_m && *n <= lo_n) return 0;
    const int k = min(*m, *n);
    return j < k ? min(NB, k - j) : 0;
}

#define AT(i, c) Ab[(i) + (size_t)(c) * lda]

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void getrf_vb_panel(__global REAL *A, __global const long *offsets,
                             __global const int *m_arr, __global const int *n_arr,
                             __global const int *lda_arr, __global int *info, const int lo_m,
                             const int lo_n, const int j, __global int *ipiv,
                             __global const long *offsets_p, const ulong count, const ulong g0)
{
    __local REAL sV[WG];
    __local int sI[WG];
    const int lid = (int)get_local_id(0);
    const ulong b = g0 + get_group_id(0);
    int m = 0, n = 0, lda = 1;
    const int jb = vb_step(b, count, m_arr, n_arr, lda_arr, info, lo_m, lo_n, j, &m, &n, &lda);
#if !UNIFORM_LOOPS
    if (jb == 0) return;
#endif
    const int live = jb > 0;
    if (!live) m = 0; /* an idle group's loops run empty */
    const int info0 = live ? info[b] : 0; /* read by all before work-item 0 writes it */
    __global REAL *Ab = A + (live ? offsets[b] : 0);
    __global int *Pb = ipiv + (live ? offsets_p[b] : 0);
    int status = 0;
#if UNIFORM_LOOPS
    for (int kk = 0; kk < NB; kk++) {
        const int k = j + kk, on = kk < jb;
#else
    for (int k = j; k < j + jb; k++) {
        const int on = 1;
#endif
        /* 1. the first row of the largest |a(i,k)|, i >= k */
        REAL best = (REAL)-1;
        int bi = m;
        for (int i = k + lid; i < m && on; i += WG) {
            const REAL v = PIVOT_KEY(AT(i, k));
            if (v > best) {
                best = v;
                bi = i;
            }
        }
        sV[lid] = best;
        sI[lid] = bi;
        /* every read of column k done before the interchange writes it */
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (int s = WG / 2; s > 0; s >>= 1) {
            if (lid < s) {
                const REAL v = sV[lid + s];
                const int i = sI[lid + s];
                if (v > sV[lid] || (v == sV[lid] && i < sI[lid])) {
                    sV[lid] = v;
                    sI[lid] = i;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const int p = sI[0];
        /* 2. rows k and p within the panel (the other columns: getrf_vb_swap_trsm) */
        if (on && p != k)
            for (int c = j + lid; c < j + jb; c += WG) {
                const REAL t = AT(k, c);
                AT(k, c) = AT(p, c);
                AT(p, c) = t;
            }
        if (on && lid == 0) Pb[k] = p + 1;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        /* 3. column k below the pivot, rank-1 update of the panel's columns right of k */
        const REAL d = on ? AT(k, k) : (REAL)1;
        if (on && status == 0 && !(d != (REAL)0 && IS_FINITE(d))) status = k + 1;
        const int recip = fabs(d) >= SFMIN;
        const REAL inv = (REAL)1 / d;
        for (int i = k + 1 + lid; i < m && on; i += WG) {
            REAL l = AT(i, k);
            if (d != (REAL)0) l = recip ? l * inv : l / d;
            AT(i, k) = l;
            for (int c = k + 1; c < j + jb; c++) AT(i, c) -= l * AT(k, c);
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (live && lid == 0 && status != 0 && info0 == 0) info[b] = status;
}

/* Work-item c of matrix b's tile t: column c of the n - jb outside the panel (left of it,
 * then right of it). */
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void getrf_vb_swap_trsm(VB_ARGS, __global const int *ipiv,
                                 __global const long *offsets_p, const int tiles,
                                 const ulong count, const ulong g0)
{
    const ulong g = g0 + get_group_id(0);
    const ulong b = g / (ulong)tiles;
    int m, n, lda;
    const int jb = vb_step(b, count, m_arr, n_arr, lda_arr, info, lo_m, lo_n, j, &m, &n, &lda);
    const int c = (int)(g % (ulong)tiles) * WG + (int)get_local_id(0);
    if (jb == 0 || c >= n - jb) return;
    const int col = c < j ? c : c + jb;
    __global REAL *Ab = A + offsets[b];
    __global const int *Pb = ipiv + offsets_p[b];
    for (int i = j; i < j + jb; i++) { /* the interchanges in order, as dlaswp */
        const int p = Pb[i] - 1;
        if (p != i) {
            const REAL t = AT(i, col);
            AT(i, col) = AT(p, col);
            AT(p, col) = t;
        }
    }
    if (col < j) return;
    /* U12(:, col) = L11**-1 A12(:, col), L11 unit lower */
    for (int i = j + 1; i < j + jb; i++) {
        REAL s = AT(i, col);
        for (int q = j; q < i; q++) s -= AT(i, q) * AT(q, col);
        AT(i, col) = s;
    }
}

/* Tile (tr, tc) of matrix b's A22 = A(j+jb:m, j+jb:n): A22 -= L21 * U12. */
__attribute__((reqd_work_group_size(TS * TS, 1, 1)))
__kernel void getrf_vb_gemm(VB_ARGS, const int tiles_m, const int tiles_n, const ulong count,
                            const ulong g0)
{
    __local REAL sL[NB][TS + 1], sU[NB][TS + 1];
    const ulong g = g0 + get_group_id(0), per = (ulong)tiles_m * (ulong)tiles_n;
    const ulong b = g / per;
    const int t = (int)(g % per), tr = t % tiles_m, tc = t / tiles_m;
    int m = 0, n = 0, lda = 1;
    const int jb = vb_step(b, count, m_arr, n_arr, lda_arr, info, lo_m, lo_n, j, &m, &n, &lda);
    const int r0 = j + jb + tr * TS, c0 = j + jb + tc * TS;
    const int live = jb > 0 && r0 < m && c0 < n;
#if !UNIFORM_LOOPS
    if (!live) return;
#endif
    if (!live) m = n = 0; /* an idle group reads and writes nothing */
    __global REAL *Ab = A + (live ? offsets[b] : 0);
    const int lid = (int)get_local_id(0), li = lid % TS, lj = lid / TS;
    /* L21's rows r0.. and U12's columns c0.. (zeros past the matrix) */
    for (int e = lid; e < NB * TS; e += TS * TS) {
        const int i = e % TS, q = e / TS;
        sL[q][i] = q < jb && r0 + i < m ? AT(r0 + i, j + q) : (REAL)0;
        const int qq = e % NB, cc = e / NB;
        sU[qq][cc] = qq < jb && c0 + cc < n ? AT(j + qq, c0 + cc) : (REAL)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int r = r0 + li, col = c0 + lj;
    if (r < m && col < n) {
        REAL s = (REAL)0;
        for (int q = 0; q < jb; q++) s += sL[q][li] * sU[q][lj];
        AT(r, col) -= s;
    }
}
