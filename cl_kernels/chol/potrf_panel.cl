/* Panel kernel of the separate (right-looking, batched-BLAS) Cholesky: step j factors the
 * jb-by-jb diagonal block A11 = A(j:j+jb, j:j+jb) of every matrix and inverts its factor,
 *
 *   A11 = L11 * L11**T   (POTF2, written back over A11's stored triangle)
 *   W   = L11**-1        (TRTRI, written to the workspace for the TRSM kernel)
 *
 * (Haidar et al. 2015, sections 4.2-4.3: batched POTF2 in local memory with nested
 * blocking, and TRSM through the inverted diagonal block and a GEMM.)
 * One work-group per matrix; the block lives in local memory. POTF2 is blocked by PB
 * columns: an unblocked right-looking factorization of each PB-wide column block,
 * followed by one rank-PB update of the rest of the block (fewer passes over local
 * memory than rank-1 updates). Upper storage is read as the transpose of lower (element
 * (i,j) of L is U(j,i)), so both triangles run natively.
 *
 * Build macros: NB (largest jb), PB (inner block), PANEL_WG (work-items, >= NB), UPPER,
 * EARLY_EXIT, REAL/PRECISION_DOUBLE (common.cl), VBATCHED (1: variable sizes, per-matrix
 * n, lda and offsets read on the device; see below).
 */
#ifndef NB
#define NB 32
#endif
#ifndef PB
#define PB 8
#endif
#ifndef PANEL_WG
#define PANEL_WG 256
#endif
#ifndef UPPER
#define UPPER 0
#endif
#ifndef EARLY_EXIT
#define EARLY_EXIT 1
#endif
#ifndef VBATCHED
#define VBATCHED 0
#endif

#if UPPER
#define ELEM(A, lda, i, j) (A)[(j) + (i) * (lda)]
#else
#define ELEM(A, lda, i, j) (A)[(i) + (j) * (lda)]
#endif

/* Local copy of the block, column-major; the odd leading dimension spreads a row over
 * the memory banks. */
#define LDP (NB + 1)
#define PL(r, c) P[(c) * LDP + (r)]

/* Element e of a rows-by-cols rectangle, enumerated so that consecutive work-items touch
 * consecutive addresses of the stored triangle: down a column for lower storage, along a
 * row (U's column) for upper. */
#if UPPER
#define RECT_ROW(e, rows, cols) ((e) / (cols))
#define RECT_COL(e, rows, cols) ((e) % (cols))
#else
#define RECT_ROW(e, rows, cols) ((e) % (rows))
#define RECT_COL(e, rows, cols) ((e) / (rows))
#endif

/* Loops that hold barriers: to jb, or (UNIFORM_LOOPS, see gemm_tile.cl) to NB with the
 * columns past jb idle. */
#if UNIFORM_LOOPS
#define J_LOOP NB
#define C_LOOP_END(k0, kend) min((k0) + PB, NB)
#else
#define J_LOOP jb
#define C_LOOP_END(k0, kend) (kend)
#endif

#if VBATCHED
/*
 * Variable sizes: matrices b0 .. b0+count-1, matrix b of order n[b] and leading dimension
 * lda[b] at element offsets[b] of A. Only matrices with n[b] > n_lo take part (the
 * smaller ones are the fused kernel's), and only while j < n[b] (ETM: the others leave,
 * or pass the barriers with nothing to do where groups cannot leave early). info[b] was
 * set by the device checks; a matrix whose info is non-zero is skipped, a failing pivot
 * sets it (counted from the matrix start). W as below.
 */
__attribute__((reqd_work_group_size(PANEL_WG, 1, 1)))
__kernel void potrf_panel(__global REAL *A, __global const ulong *offsets,
                          __global const int *ns, __global const int *ldas, const int n_lo,
                          __global int *info, __global REAL *W, const int j, const ulong b0,
                          const ulong count, const ulong g0)
{
    __local REAL P[NB * LDP];
    const int lid = (int)get_local_id(0);
    const ulong b = g0 + get_group_id(0);
    const ulong bb = b0 + (b < count ? b : 0);
    const int nb = ns[bb];
    const int live = b < count && nb > n_lo && j < nb && info[bb] == 0;
#if EARLY_EXIT
    if (!live) return;
#endif
    int active = live;
    const int n = live ? nb : 0, lda = live ? ldas[bb] : 1;
    __global REAL *Ab = A + (live ? offsets[bb] : 0);
#else
/*
 * Matrices b0 .. b0+count-1 (matrix b at offset + b*stride), step j of order-n matrices.
 * W holds NB*NB elements per matrix of this launch (matrix b0+b at W + b*NB*NB): L11**-1
 * in the orientation of the stored triangle, zero above its diagonal and beyond jb.
 * This launch runs matrices b0+g0, b0+g0+1, ... (one work-group each). info[b] is set at
 * step 0 and on failure (counted from the matrix start); a matrix whose info is already
 * non-zero is skipped.
 */
__attribute__((reqd_work_group_size(PANEL_WG, 1, 1)))
__kernel void potrf_panel(__global REAL *A, const ulong offset, const int lda,
                          const ulong stride, __global int *info, __global REAL *W, const int n,
                          const int j, const ulong b0, const ulong count, const ulong g0)
{
    __local REAL P[NB * LDP];
    const int lid = (int)get_local_id(0);
    const ulong b = g0 + get_group_id(0);
    const int live = b < count;
    const int prior = (live && j > 0) ? info[b0 + b] : 0;
#if EARLY_EXIT
    if (!live || prior != 0) return;
#endif
    int active = live && prior == 0;
    __global REAL *Ab = A + offset + (live ? (b0 + b) * stride : 0);
#endif
    const int jb = min(NB, n - j);
    int status = 0;

    if (active)
        for (int e = lid; e < jb * jb; e += PANEL_WG) {
            const int r = RECT_ROW(e, jb, jb), c = RECT_COL(e, jb, jb);
            if (r >= c) PL(r, c) = ELEM(Ab, lda, j + r, j + c);
        }

    /* POTF2: for each column, the pivot's square root, the column below it scaled, and
     * its outer product subtracted from the columns of its PB block; after each block,
     * the rank-PB update of the columns to its right. */
    for (int k0 = 0; k0 < J_LOOP; k0 += PB) {
        const int kend = min(k0 + PB, jb);
        for (int c = k0; c < C_LOOP_END(k0, kend); c++) {
            barrier(CLK_LOCAL_MEM_FENCE);
            const int has = c < kend; /* always, but where the loops run to NB */
            const REAL d = has ? PL(c, c) : (REAL)1;
            if (active && has && !PIVOT_OK(d)) {
                status = j + c + 1;
                active = 0;
            }
            const REAL ljj = active ? sqrt(d) : (REAL)1;
            const REAL inv = (REAL)1 / ljj;
            if (active && has)
                for (int r = c + 1 + lid; r < jb; r += PANEL_WG) PL(r, c) *= inv;
            barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read d */
            if (active && has) {
                if (lid == 0) PL(c, c) = ljj;
                const int rows = jb - c - 1, cols = kend - c - 1;
                for (int e = lid; e < rows * cols; e += PANEL_WG) {
                    const int r = c + 1 + RECT_ROW(e, rows, cols), cc = c + 1 + RECT_COL(e, rows, cols);
                    if (r >= cc) PL(r, cc) = mad(-PL(r, c), PL(cc, c), PL(r, cc));
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int rest = jb - kend;
        if (active)
            for (int e = lid; e < rest * rest; e += PANEL_WG) {
                const int r = kend + RECT_ROW(e, rest, rest), cc = kend + RECT_COL(e, rest, rest);
                if (r >= cc) {
                    REAL s = (REAL)0;
                    for (int k = k0; k < kend; k++) s = mad(PL(r, k), PL(cc, k), s);
                    PL(r, cc) -= s;
                }
            }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (active)
        for (int e = lid; e < jb * jb; e += PANEL_WG) {
            const int r = RECT_ROW(e, jb, jb), c = RECT_COL(e, jb, jb);
            if (r >= c) ELEM(Ab, lda, j + r, j + c) = PL(r, c);
        }

    /* TRTRI in place (LAPACK's xTRTI2, lower, right to left): with T = L(c+1:, c+1:)
     * already inverted, column c of the inverse is -T * L(c+1:, c) / L(c,c). Work-item
     * lid owns row c+1+lid. */
    for (int c = J_LOOP - 1; c >= 0; c--) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const int r = c + 1 + lid;
        const int has = c < jb;
        const REAL dinv = has ? (REAL)1 / PL(c, c) : (REAL)1;
        REAL x = (REAL)0;
        if (active && has && r < jb) {
            for (int l = c + 1; l <= r; l++) x = mad(PL(r, l), PL(l, c), x);
            x *= -dinv;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (active && has) {
            if (r < jb) PL(r, c) = x;
            if (lid == 0) PL(c, c) = dinv;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* W(r, c) = L11**-1(r, c), stored like the matrix (transposed for upper storage) so
     * that the TRSM kernel reads it the way it reads the panel. */
    if (active) {
        __global REAL *Wb = W + b * (ulong)(NB * NB);
        for (int e = lid; e < NB * NB; e += PANEL_WG) {
            const int r = RECT_ROW(e, NB, NB), c = RECT_COL(e, NB, NB);
            ELEM(Wb, NB, r, c) = (r >= c && r < jb) ? PL(r, c) : (REAL)0;
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE); /* every work-item has read the info before one writes it */
#if VBATCHED
    if (lid == 0 && status != 0) info[bb] = status;
#else
    if (live && lid == 0 && (j == 0 || status != 0)) info[b0 + b] = status;
#endif
}
