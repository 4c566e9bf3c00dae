/* The blocked getrf's row interchanges and triangular solve (host/lu/getrf_blocked.c),
 * after the panel A(j:m, j:j+jb) is factored (getrf_fused.cl as a panel):
 *
 *   2. the panel's jb interchanges, rows j+i and ipiv(j+i)-1 for i = 0 .. jb-1 in order,
 *      applied to the columns right of the panel, up to column n-1, and, with LEFT = 1, to
 *      those left of it from column `first` (LAPACK's dlaswp right and left of it);
 *   3. U12 = L11**-1 * A12 on the columns right of the panel (unit lower L11 = the
 *      panel's top jb x jb block), rows j .. j+jb-1.
 * With LEFT = 0 the left columns' interchanges wait for getrf_swap_left, after the last
 * panel: a row of a column-major matrix is a 32-byte sector per element, so moving L's
 * rows at every panel cost more than the trailing matrix's own interchanges.
 *
 * A work-group owns CW of the columns it moves (n - first - jb, or with LEFT = 0 the
 * n - j - jb right of the panel) of one matrix. The jb
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
 * getrf_nopiv, no interchanges), LEFT (0/1), REAL (common.cl); getrf_swap_left: MAXR.
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

#ifndef LEFT
#define LEFT 1
#endif

#define SLOTS (2 * NB)

/* Column c of the group's columns (from c0): the left columns from `first` then those
 * right of the panel, or only those right of it. */
#if LEFT
#define COLUMN(c) ((c) + first < j ? (c) + first : (c) + first + jb)
#else
#define COLUMN(c) ((c) + j + jb)
#endif

__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void getrf_swap_trsm(__global REAL *A, const ulong offset, const int lda,
                              const ulong stride, __global const int *ipiv, const ulong offset_p,
                              const ulong stride_p, const int n, const int j, const int jb,
                              const int first, const int tiles, const ulong count, const ulong g0)
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
    const int ncols = live ? min(CW, (LEFT ? n - first - jb : n - j - jb) - c0) : 0;

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
            sX[idx] = Ab[sSrc[e] + (size_t)COLUMN(c0 + c) * lda];
        }
    }
    /* every source row read (by any work-item) before any is overwritten */
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

    /* U12 = L11**-1 * A12 in slots 0 .. jb-1 of the columns right of the panel */
    for (int q = 0; q < jb - 1; q++) {
        for (int idx = lid; idx < NB * CW; idx += WG) {
            const int i = idx % NB, c = idx / NB;
            if (c < ncols && COLUMN(c0 + c) > j && i > q && i < jb)
                sX[i + c * SLOTS] -= Ab[(j + i) + (size_t)(j + q) * lda] * sX[q + c * SLOTS];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* scatter: slot e to row sRow[e] */
    for (int idx = lid; idx < SLOTS * CW; idx += WG) {
        const int e = idx % SLOTS, c = idx / SLOTS;
        if (c < ncols && sRow[e] >= 0) {
            Ab[sRow[e] + (size_t)COLUMN(c0 + c) * lda] = sX[idx];
        }
    }
}

#ifndef MAXR
#define MAXR 64
#endif

/*
 * The left columns' interchanges (LEFT = 0 above), after the last panel: the columns of
 * panel p (j .. j+jb-1) take the interchanges of every later panel, i = s .. kmin-1 with
 * s = j + jb, which permute rows s .. m-1 only. One work-item composes them into
 * where(r), the row whose entries end at row r (rows s .. m-1, at most MAXR of them); then
 * the group moves each column through local memory, read and written along the column.
 * Work-group g0 + g is panel g % panels (panels: all but the last) of matrix g / panels.
 */
__attribute__((reqd_work_group_size(WG, 1, 1)))
__kernel void getrf_swap_left(__global REAL *A, const ulong offset, const int lda,
                              const ulong stride, __global const int *ipiv, const ulong offset_p,
                              const ulong stride_p, const int m, const int kmin, const int panels,
                              const ulong count, const ulong g0)
{
    __local int sWhere[MAXR], sPiv[MAXR];
    __local REAL sCol[MAXR];
    const int lid = (int)get_local_id(0);
    const ulong g = g0 + get_group_id(0);
    const ulong b = g / (ulong)panels;
    const int j = (int)(g % (ulong)panels) * NB;
    const int s = j + NB; /* panels before the last are NB wide */
    const int live = b < count;
    __global REAL *Ab = A + offset + (live ? b * stride : 0);
    __global const int *pv = ipiv + offset_p + (live ? b * stride_p : 0);
    const int rows = live ? m - s : 0;

    for (int r = lid; r < rows; r += WG) {
        sWhere[r] = r;
        if (r < kmin - s) sPiv[r] = pv[s + r] - 1 - s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        for (int i = 0; i < kmin - s && i < rows; i++) {
            const int q = sPiv[i], t = sWhere[i];
            sWhere[i] = sWhere[q];
            sWhere[q] = t;
        }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int c = j; c < j + NB; c++) {
        __global REAL *col = Ab + (size_t)c * lda + s;
        for (int r = lid; r < rows; r += WG) sCol[r] = col[r];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int r = lid; r < rows; r += WG)
            if (sWhere[r] != r) col[r] = sCol[sWhere[r]];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
