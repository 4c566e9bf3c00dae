/* TRSM kernel of the separate Cholesky (after gemm_tile.cl): step j solves
 *
 *   L21 * L11**T = A21,  A21 = A(j+jb:n, j:j+jb),  as  L21 = A21 * W**T,  W = L11**-1
 *
 * with the inverse the panel kernel left in the workspace: a GEMM instead of a chain of
 * dependent substitutions (Haidar et al. 2015, section 4.3.3). Done in place: a
 * work-group owns TM whole rows of A21 (TN >= jb columns), reads all of them before it
 * writes any, and no other group touches them.
 *
 * Build macros: those of gemm_tile.cl (TN >= NB; the host sets Y_LOWER_TRIANGULAR, since
 * W is), NB (workspace block order), VBATCHED (1: variable sizes, as potrf_panel.cl).
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
 * matrices with n[b] > n_lo take part. tiles_per_matrix covers the largest matrix; the
 * tiles beyond a matrix's own rows leave (ETM). Otherwise as below.
 */
__attribute__((reqd_work_group_size(GEMM_WG, 1, 1)))
__kernel void trsm_panel(__global REAL *A, __global const ulong *offsets,
                         __global const int *ns, __global const int *ldas, const int n_lo,
                         __global const int *info, __global const REAL *W, const int j,
                         const int tiles_per_matrix, const ulong b0, const ulong count,
                         const ulong g0)
{
    __local REAL sX[KB * SLX], sY[KB * SLY];
    const int lid = (int)get_local_id(0);
    const ulong g = g0 + get_group_id(0);
    const ulong b = g / (ulong)tiles_per_matrix;
    const int row0 = (int)(g % (ulong)tiles_per_matrix) * TM;
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
    __global REAL *X = active ? &ELEM(Ab, lda, j + jb + row0, j) : Ab;
#else
/*
 * Matrices b0 .. b0+count-1 at step j, tiles_per_matrix row tiles each (at least
 * ceil((n-j-jb)/TM); extra tiles idle); this launch runs groups g0, g0+1, ... of them.
 * W holds NB*NB elements per matrix (b0+b at W + b*NB*NB). Matrices whose info is
 * non-zero are skipped.
 */
__attribute__((reqd_work_group_size(GEMM_WG, 1, 1)))
__kernel void trsm_panel(__global REAL *A, const ulong offset, const int lda,
                         const ulong stride, __global const int *info,
                         __global const REAL *W, const int n, const int j,
                         const int tiles_per_matrix, const ulong b0, const ulong count,
                         const ulong g0)
{
    __local REAL sX[KB * SLX], sY[KB * SLY];
    const int lid = (int)get_local_id(0);
    const ulong g = g0 + get_group_id(0);
    const ulong b = g / (ulong)tiles_per_matrix;
    const int row0 = (int)(g % (ulong)tiles_per_matrix) * TM;
    const int jb = min(NB, n - j), m = n - j - jb;
    const int live = b < count;
    const int active = live && row0 < m && info[b0 + b] == 0;
#if EARLY_EXIT
    if (!active) return;
#endif
    __global REAL *Ab = A + offset + (live ? (b0 + b) * stride : 0);
    __global REAL *X = &ELEM(Ab, lda, j + jb + (active ? row0 : 0), j);
#endif
    __global const REAL *Wb = W + (live ? b : 0) * (ulong)(NB * NB);
    int rx, cx;
    gemm_tile_place(lid, &rx, &cx);

    REAL acc[WM][WN];
PRAGMA_UNROLL
    for (int i = 0; i < WM; i++)
PRAGMA_UNROLL
        for (int q = 0; q < WN; q++) acc[i][q] = (REAL)0;
    gemm_tile_nt(acc, X, lda, m - row0, Wb, NB, jb, jb, sX, sY, active, lid, rx, cx);
    /* in place: every work-item has read the rows of X before any overwrites them */
    barrier(CLK_GLOBAL_MEM_FENCE);

    if (active)
PRAGMA_UNROLL
        for (int i = 0; i < WM; i++)
PRAGMA_UNROLL
            for (int q = 0; q < WN; q++) {
                const int r = rx + i * RX, c = cx + q * CX;
                if (row0 + r < m && c < jb) ELEM(X, lda, r, c) = acc[i][q];
            }
}
