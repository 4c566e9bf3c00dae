/* The blocked getrf's row interchanges and triangular solve (host/lu/getrf_blocked.c),
 * after the panel A(j:m, j:j+jb) is factored (getrf_fused.cl as a panel):
 *
 *   2. the panel's jb interchanges, rows j+i and ipiv(j+i)-1 for i = 0 .. jb-1 in order,
 *      applied to every column outside the panel (LAPACK's dlaswp left and right of it);
 *   3. U12 = L11**-1 * A12 on the columns right of the panel (unit lower L11 = the
 *      panel's top jb x jb block), rows j .. j+jb-1.
 *
 * A work-group owns CW of the n - jb columns outside the panel of one matrix. The jb
 * interchanges in order are one permutation of at most 2*jb rows (rows j .. j+jb-1 and
 * the pivot rows below them; Haidar et al. 2015, Figure 2: all rows of the swap sequence
 * at once): row r of the result is row src(r) of the input, src(r) found by following r
 * back through the swaps. The group gathers those rows of its columns into local memory
 * (the block rows j .. j+jb-1 contiguous in each column: consecutive work-items on
 * consecutive rows), solves U12 there (jb steps of a rank-1 update of the rows below,
 * one barrier each, L11 read from the panel in global memory), and writes the rows back.
 *
 * Slots: e < jb is row j+e; slot NB+i is row ipiv(j+i)-1 where that row is below the
 * block and no earlier i named it; the others are empty (-1).
 *
 * Build macros: NB (largest jb), CW (columns per work-group), WG (work-items), PIVOT (0:
 * getrf_nopiv, no interchanges), REAL (common.cl).
 */
#ifndef NB
#define NB 32
#endif
#ifndef CW
#define CW 32
#endif
#ifndef WG
#define WG 256
#endif
#ifndef PIVOT
#define PIVOT 1
#endif

#define SLOTS (2 * NB)

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void getrf_swap_trsm(__global REAL *A, const ulong offset, const int lda,
                              const ulong stride, __global const int *ipiv, const ulong offset_p,
                              const ulong stride_p, const int n, const int j, const int jb,
                              const int tiles, const ulong count, const ulong g0)
{
    __local REAL sX[SLOTS * CW];
    __local int sRow[SLOTS], sSrc[SLOTS];
#if PIVOT
    __local int sP[NB];
#endif
    const int lid = (int)get_local_id(0);
    const ulong g = g0 + get_group_id(0);
    const ulong b = g / (ulong)tiles;
    const int c0 = (int)(g % (ulong)tiles) * CW; /* first of this group's columns */
    const int live = b < count;
    __global REAL *Ab = A + offset + (live ? b * stride : 0);
    const int ncols = live ? min(CW, n - jb - c0) : 0;

#if PIVOT
    __global const int *pv = ipiv + offset_p + (live ? b * stride_p : 0);
    if (lid < NB) sP[lid] = (live && lid < jb) ? pv[j + lid] - 1 : j + lid;
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    /* the permutation's slots */
    for (int e = lid; e < SLOTS; e += WG) {
        int r = -1;
        if (e < jb) {
            r = j + e;
        }
#if PIVOT
        else if (e >= NB && e - NB < jb) {
            const int i = e - NB, p = sP[i];
            r = p >= j + jb ? p : -1;
            for (int q = 0; q < i && r >= 0; q++)
                if (sP[q] == p) r = -1;
        }
#endif
        int s = r;
#if PIVOT
        /* back through the swaps: the row that ends at r */
        for (int i = jb - 1; i >= 0 && r >= 0; i--) {
            if (s == j + i) s = sP[i];
            else if (s == sP[i]) s = j + i;
        }
#endif
        sRow[e] = r;
        sSrc[e] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* gather: slot e of column c from row sSrc[e] */
    for (int idx = lid; idx < SLOTS * CW; idx += WG) {
        const int e = idx % SLOTS, c = idx / SLOTS;
        if (c < ncols && sRow[e] >= 0) {
            const int col = c0 + c < j ? c0 + c : c0 + c + jb;
            sX[idx] = Ab[sSrc[e] + (size_t)col * lda];
        }
    }
    /* every source row read (by any work-item) before any is overwritten */
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

    /* U12 = L11**-1 * A12 in slots 0 .. jb-1 of the columns right of the panel */
    for (int q = 0; q < jb - 1; q++) {
        for (int idx = lid; idx < NB * CW; idx += WG) {
            const int i = idx % NB, c = idx / NB;
            if (c < ncols && c0 + c >= j && i > q && i < jb)
                sX[i + c * SLOTS] -= Ab[(j + i) + (size_t)(j + q) * lda] * sX[q + c * SLOTS];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* scatter: slot e to row sRow[e] */
    for (int idx = lid; idx < SLOTS * CW; idx += WG) {
        const int e = idx % SLOTS, c = idx / SLOTS;
        if (c < ncols && sRow[e] >= 0) {
            const int col = c0 + c < j ? c0 + c : c0 + c + jb;
            Ab[sRow[e] + (size_t)col * lda] = sX[idx];
        }
    }
}
