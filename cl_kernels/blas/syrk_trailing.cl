/* Trailing update of the separate Cholesky (after gemm_tile.cl): step j computes
 *
 *   A22 -= L21 * L21**T,  A22 = A(j+jb:n, j+jb:n),  L21 = A(j+jb:n, j:j+jb),
 *
 * on the stored triangle only. A work-group computes one TM x TM tile of the product as
 * a plain GEMM tile; tiles on the diagonal compute the whole square (the extra flops of
 * Haidar et al. 2015, section 4.3.3) but write only their stored half, so the other
 * triangle of the user's matrix is never touched.
 *
 * The tiles of the lower triangle are grouped in diagonal blocks of qb x qb tiles,
 * enumerated triangle by triangle: with one block covering A22 this is the whole
 * update; with smaller blocks it is the block diagonal that a GEMM library leaves when it
 * updates the block columns below it.
 *
 * Build macros: those of gemm_tile.cl (TN = TM), NB (largest jb), VBATCHED (1: variable
 * sizes, as potrf_panel.cl).
 */
#ifndef NB
#define NB 32
#endif
#ifndef VBATCHED
#define VBATCHED 0
#endif

#if VBATCHED
/*
 * Variable sizes: matrix b of order n[b], leading dimension lda[b], at offsets[b]; only
 * matrices with n[b] > n_lo take part. The tiles cover the largest matrix; those beyond a
 * matrix's own A22 leave (ETM). Otherwise as below.
 */
__attribute__((reqd_work_group_size(GEMM_WG, 1, 1)))
__kernel void syrk_trailing(__global REAL *A, __global const ulong *offsets,
                            __global const int *ns, __global const int *ldas, const int n_lo,
                            __global const int *info, const int j, const int qb,
                            const int tiles_per_matrix, const ulong b0, const ulong count,
                            const ulong g0)
#else
/*
 * Matrices b0 .. b0+count-1 at step j, tiles_per_matrix tiles each: diagonal blocks of
 * qb tiles per side, each block's qb*(qb+1)/2 tiles in turn; tiles beyond A22 are idle.
 * This launch runs groups g0, g0+1, ... Matrices whose info is non-zero are skipped.
 */
__attribute__((reqd_work_group_size(GEMM_WG, 1, 1)))
__kernel void syrk_trailing(__global REAL *A, const ulong offset, const int lda,
                            const ulong stride, __global const int *info, const int n,
                            const int j, const int qb, const int tiles_per_matrix,
                            const ulong b0, const ulong count, const ulong g0)
#endif
{
    __local REAL sX[KB * SLX], sY[KB * SLY];
    const int lid = (int)get_local_id(0);
    const ulong g = g0 + get_group_id(0);
    const ulong b = g / (ulong)tiles_per_matrix;
    const int t = (int)(g % (ulong)tiles_per_matrix);
    const int tri = qb * (qb + 1) / 2, block = t / tri, s = t % tri;
    /* s = ti*(ti+1)/2 + tj with tj <= ti */
    int ti = (int)((sqrt((float)(8 * s + 1)) - 1.0f) * 0.5f);
    while ((ti + 1) * (ti + 2) / 2 <= s) ti++;
    while (ti * (ti + 1) / 2 > s) ti--;
    const int tj = s - ti * (ti + 1) / 2;
    const int row0 = (block * qb + ti) * TM, col0 = (block * qb + tj) * TM;
#if VBATCHED
    const int live = b < count;
    const ulong bb = b0 + (live ? b : 0);
    const int nb = ns[bb];
    const int n = (live && nb > n_lo) ? nb : 0;
    const int jb = min(NB, n - j), m = n - j - jb;
    const int active = row0 < m && info[bb] == 0;
#if EARLY_EXIT
    if (!active) return;
#endif
    const int lda = active ? ldas[bb] : 1;
    __global REAL *Ab = A + (active ? offsets[bb] : 0);
#else
    const int jb = min(NB, n - j), m = n - j - jb;
    const int live = b < count;
    const int active = live && row0 < m && info[b0 + b] == 0;
#if EARLY_EXIT
    if (!active) return;
#endif
    __global REAL *Ab = A + offset + (live ? (b0 + b) * stride : 0);
#endif
    /* idle tiles may lie beyond the matrix: keep their address arithmetic inside it */
    const int r0 = active ? row0 : 0, c0 = active ? col0 : 0;
    const int jj = active ? j : 0, jjb = active ? jb : 0;
    __global const REAL *X = &ELEM(Ab, lda, jj + jjb + r0, jj);
    __global const REAL *Y = &ELEM(Ab, lda, jj + jjb + c0, jj);
    __global REAL *C = &ELEM(Ab, lda, jj + jjb + r0, jj + jjb + c0);
    int rx, cx;
    gemm_tile_place(lid, &rx, &cx);

    /* acc = -C + X*Y**T, then C = -acc: C is read before the product, so that its
     * latency overlaps the loads of X and Y. Only the stored triangle is read. */
    REAL acc[WM][WN];
PRAGMA_UNROLL
    for (int i = 0; i < WM; i++)
PRAGMA_UNROLL
        for (int q = 0; q < WN; q++) {
            const int r = rx + i * RX, c = cx + q * CX;
            acc[i][q] = (active && row0 + r < m && col0 + c <= row0 + r) ? -ELEM(C, lda, r, c) : (REAL)0;
        }
    gemm_tile_nt(acc, X, lda, m - row0, Y, lda, m - col0, jb, sX, sY, active, lid, rx, cx);

    if (active)
PRAGMA_UNROLL
        for (int i = 0; i < WM; i++)
PRAGMA_UNROLL
            for (int q = 0; q < WN; q++) {
                const int r = rx + i * RX, c = cx + q * CX;
                if (row0 + r < m && col0 + c <= row0 + r) ELEM(C, lda, r, c) = -acc[i][q];
            }
}
