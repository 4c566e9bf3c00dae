/* The blocked getrf's row interchanges and triangular solve (host/lu/getrf_blocked.c),
 * after the panel A(j:m, j:j+jb) is factored (getrf_fused.cl as a panel):
 *
 *   2. the panel's jb interchanges, rows j+i and ipiv(j+i)-1 for i = 0 .. jb-1 in order,
 *      applied to every column outside the panel (LAPACK's dlaswp left and right of it);
 *   3. U12 = L11**-1 * A12 on the columns right of the panel (unit lower L11 = the
 *      panel's top jb x jb block), rows j .. j+jb-1.
 *
 * Each work-item owns one column (Haidar et al. 2015, Figure 2: all rows of the swap
 * sequence at once, in order within the column, no exchange between work-items), swaps
 * its rows in global memory, then solves its jb entries of U12 in private memory against
 * L11, which the work-group loads into local memory once. Groups g0 + group id
 * enumerate (matrix, tile of CW of the n - jb columns outside the panel).
 *
 * Build macros: NB (largest jb), CW (columns per work-group = its work-items), PIVOT (0:
 * getrf_nopiv, no interchanges), REAL (common.cl).
 */
#ifndef NB
#define NB 32
#endif
#ifndef CW
#define CW 64
#endif
#ifndef PIVOT
#define PIVOT 1
#endif

__attribute__((reqd_work_group_size(CW, 1, 1)))
__kernel void getrf_swap_trsm(__global REAL *A, const ulong offset, const int lda,
                              const ulong stride, __global const int *ipiv, const ulong offset_p,
                              const ulong stride_p, const int n, const int j, const int jb,
                              const int tiles, const ulong count, const ulong g0)
{
    __local REAL sL[NB * NB];
    const int lid = (int)get_local_id(0);
    const ulong g = g0 + get_group_id(0);
    const ulong b = g / (ulong)tiles;
    const int c = (int)(g % (ulong)tiles) * CW + lid; /* among the n - jb columns */
    const int live = b < count;
    __global REAL *Ab = A + offset + (live ? b * stride : 0);
    /* L11 (strictly lower part), where this group has columns right of the panel */
    const int solves = live && (int)(g % (ulong)tiles) * CW + CW > j;
    for (int e = lid; e < NB * NB; e += CW) {
        const int r = e % NB, q = e / NB;
        sL[e] = (solves && r > q && r < jb) ? Ab[(j + r) + (size_t)(j + q) * lda] : (REAL)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (live && c < n - jb) {
        const int col = c < j ? c : c + jb;
        __global REAL *x = Ab + (size_t)col * lda;
#if PIVOT
        __global const int *pv = ipiv + offset_p + b * stride_p;
        for (int i = j; i < j + jb; i++) {
            const int p = pv[i] - 1;
            if (p != i) {
                const REAL t = x[i];
                x[i] = x[p];
                x[p] = t;
            }
        }
#endif
        if (col >= j + jb) {
            REAL v[NB];
            for (int i = 0; i < NB; i++) v[i] = i < jb ? x[j + i] : (REAL)0;
            for (int q = 0; q < NB; q++)
                for (int i = q + 1; i < NB; i++) v[i] -= sL[i + q * NB] * v[q];
            for (int i = 0; i < jb; i++) x[j + i] = v[i];
        }
    }
}
