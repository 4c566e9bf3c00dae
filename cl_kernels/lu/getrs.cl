/* Batched solves with the LU factors of getrf (P*A = L*U, L unit lower, U upper, both
 * stored over A; ipiv 1-based as LAPACK's):
 *   getrs 'N':  A X = B     ->  X = U^-1 L^-1 (P B)       (swaps forward, then L, then U)
 *   getrs 'T':  A**T X = B  ->  X = P**T L**-T U**-T B    (U**T, then L**T, then the swaps
 *                                                          in reverse order)
 *   getri:      C = inv(A)  =  the 'N' solve of A C = I, the identity made in registers.
 *
 * The work shape is the Cholesky substitution's (potrs_subst.cl): a unit is one matrix and
 * a tile of up to NT of its right-hand sides; the unit's lx work-items own the rows, tx,
 * tx+lx, ... (RPT each), for the whole tile in registers, so B is read once and written
 * once. Both triangular solves go column by column of op(A) (axpy form):
 *   forward,  j = 0..n-1:  x_j = b_j [/ d_j];  b_i -= F(i,j) * x_j  for i > j
 *   backward, j = n-1..0:  x_j = b_j [/ d_j];  b_i -= F(i,j) * x_j  for i < j
 * with F(i,j) = A(i,j) for 'N' (L below the diagonal, U above) and A(j,i) for 'T' (U**T
 * below, L**T above); the division by the diagonal of U is the backward's for 'N' and the
 * forward's for 'T' (L's diagonal is 1 and not stored). The owner of row j publishes x_j in
 * local memory (two alternating slots, one barrier per step), as potrs_subst does.
 *
 * The row interchanges never move data between work-items: LAPACK's laswp applies the
 * swaps (i, ipiv[i]) for i = 0..n-1 in turn, after which row r of P*B is row src(r) of B,
 * where src(r) follows r back through the swaps in reverse order. Each work-item finds
 * src of its own rows from ipiv (n reads, the same addresses over the unit), gathers its
 * rows from there for 'N' and getri, and scatters its solved rows there for 'T'. A pivot
 * outside [i+1, n] (not one getrf makes) swaps nothing rather than reach outside B.
 *
 * Build macros: NT (right-hand sides per tile), RPT (rows per work-item; the host makes
 * lx*RPT >= n), TBC (units per work-group), TRANS (0: 'N', 1: 'T'; getri builds with 0),
 * REAL/PRECISION_DOUBLE.
 */
#ifndef NT
#define NT 1
#endif
#ifndef RPT
#define RPT 1
#endif
#ifndef TBC
#define TBC 1
#endif
#ifndef TRANS
#define TRANS 0
#endif

/* F(i, j) of the header: the element of op(A) the solves read. */
#if TRANS
#define FELEM(A, lda, i, j) (A)[(j) + (i) * (lda)]
#else
#define FELEM(A, lda, i, j) (A)[(i) + (j) * (lda)]
#endif

/*
 * Solves one unit: the tile of nt columns at Bb (leading dimension ldb; its first column is
 * column c0 of the matrix's right-hand sides) with the factors at Ab and the pivots at Pb,
 * all of order n. ident: the right-hand sides are columns c0.. of the identity (getri), not
 * read from Bb. Every work-item runs every step so that barriers stay in uniform control
 * flow; an inactive unit touches no memory. xs holds 2*NT local values.
 */
inline void lu_unit(__global const REAL *Ab, const int lda, __global const int *Pb,
                    __global REAL *Bb, const int ldb, const int n, const int nt, const int c0,
                    const int active, const int ident, __local REAL *xs, const int tx,
                    const int lx)
{
    /* src of the owned rows (see the header). */
    int src[RPT];
PRAGMA_UNROLL
    for (int r = 0; r < RPT; r++) src[r] = tx + r * lx;
    if (active)
        for (int i = n - 1; i >= 0; i--) {
            int p = Pb[i] - 1;
            if (p < i || p >= n) p = i;
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++) {
                if (src[r] == i)
                    src[r] = p;
                else if (src[r] == p)
                    src[r] = i;
            }
        }

    /* The tile in registers (columns past nt stay zero and are never stored), and the
     * diagonal of U at the owned rows. */
    REAL rB[NT][RPT], rD[RPT];
PRAGMA_UNROLL
    for (int r = 0; r < RPT; r++) {
        const int row = tx + r * lx;
        const int mine = active && row < n;
        rD[r] = mine ? Ab[row + row * lda] : (REAL)1;
        const int from = TRANS ? row : src[r];
PRAGMA_UNROLL
        for (int c = 0; c < NT; c++)
            rB[c][r] = !(mine && c < nt) ? (REAL)0
                       : ident           ? (from == c0 + c ? (REAL)1 : (REAL)0)
                                         : Bb[from + (ulong)c * (ulong)ldb];
    }

    /* Forward: L Y = P B ('N') or U**T Y = B ('T'). (jt, jr) = (owner, register row) of
     * row j. */
    for (int j = 0, jt = 0, jr = 0; j < n; j++) {
        REAL rF[RPT];
PRAGMA_UNROLL
        for (int r = 0; r < RPT; r++) {
            const int row = tx + r * lx;
            rF[r] = (active && row > j && row < n) ? FELEM(Ab, lda, row, j) : (REAL)0;
        }
        __local REAL *x = xs + (j & 1) * NT;
        if (active && tx == jt)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++)
                if (r == jr)
PRAGMA_UNROLL
                    for (int c = 0; c < NT; c++) {
                        if (TRANS) rB[c][r] /= rD[r];
                        x[c] = rB[c][r];
                    }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (active)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++)
                if (tx + r * lx > j && tx + r * lx < n)
PRAGMA_UNROLL
                    for (int c = 0; c < NT; c++) rB[c][r] = mad(-rF[r], x[c], rB[c][r]);
        if (++jt == lx) {
            jt = 0;
            jr++;
        }
    }

    /* Backward: U X = Y ('N') or L**T X = Y ('T'). Forward's last step read no slot (no
     * row lies below n-1), so backward's first write to that slot needs no barrier. */
    for (int j = n - 1, jt = (n - 1) % lx, jr = (n - 1) / lx; j >= 0; j--) {
        REAL rF[RPT];
PRAGMA_UNROLL
        for (int r = 0; r < RPT; r++) {
            const int row = tx + r * lx;
            rF[r] = (active && row < j) ? FELEM(Ab, lda, row, j) : (REAL)0;
        }
        __local REAL *x = xs + (j & 1) * NT;
        if (active && tx == jt)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++)
                if (r == jr)
PRAGMA_UNROLL
                    for (int c = 0; c < NT; c++) {
                        if (!TRANS) rB[c][r] /= rD[r];
                        x[c] = rB[c][r];
                    }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (active)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++)
                if (tx + r * lx < j)
PRAGMA_UNROLL
                    for (int c = 0; c < NT; c++) rB[c][r] = mad(-rF[r], x[c], rB[c][r]);
        if (--jt < 0) {
            jt = lx - 1;
            jr--;
        }
    }

    /* The rows a work-item stores were read by another one where they were gathered or are
     * scattered: those reads come first. */
    barrier(CLK_GLOBAL_MEM_FENCE);
PRAGMA_UNROLL
    for (int r = 0; r < RPT; r++) {
        const int row = tx + r * lx;
        const int to = TRANS ? src[r] : row;
        if (active && row < n)
PRAGMA_UNROLL
            for (int c = 0; c < NT; c++)
                if (c < nt) Bb[to + (ulong)c * (ulong)ldb] = rB[c][r];
    }
}

/* The unit of work-item lid: u = (g0 + group)*TBC + ty over count matrices from b0, tiles
 * units per matrix; *active = 0 past the last unit. */
#define LU_UNIT_INDEX(tiles)                                                                   \
    const int lx = (int)get_local_size(0) / TBC;                                              \
    const int lid = (int)get_local_id(0);                                                     \
    const int tx = lid % lx, ty = lid / lx;                                                   \
    const ulong u = (g0 + get_group_id(0)) * TBC + ty;                                        \
    int active = u < count * (tiles);                                                         \
    const ulong b = b0 + (active ? u / (tiles) : 0);                                          \
    const int c0 = active ? (int)(u % (tiles)) * NT : 0

/*
 * getrs: units of matrices b0 .. b0+count-1, ceil(nrhs/NT) tiles per matrix (tile t holds
 * columns t*NT .. t*NT+NT-1); g0 > 0 where one launch does not take all the units of the
 * matrices. With skip_failed (gesv), a matrix whose info is not zero keeps its B.
 */
__kernel void getrs(__global const REAL *A, const ulong offset_a, const int lda,
                    const ulong stride_a, __global const int *ipiv, const ulong offset_p,
                    const ulong stride_p, __global REAL *B, const ulong offset_b, const int ldb,
                    const ulong stride_b, const int n, const int nrhs, __global const int *info,
                    const int skip_failed, const ulong b0, const ulong count, const ulong g0)
{
    __local REAL xs_all[TBC * 2 * NT];
    const ulong tiles = (ulong)((nrhs + NT - 1) / NT);
    LU_UNIT_INDEX(tiles);
    if (active && skip_failed && info[b] != 0) active = 0;
    const int nt = min(NT, nrhs - c0);
    __global const REAL *Ab = A + offset_a + (active ? b * stride_a : 0);
    __global const int *Pb = ipiv + offset_p + (active ? b * stride_p : 0);
    __global REAL *Bb = B + offset_b + (active ? b * stride_b + (ulong)c0 * (ulong)ldb : 0);
    lu_unit(Ab, lda, Pb, Bb, ldb, n, nt, c0, active, 0, xs_all + ty * 2 * NT, tx, lx);
}

/*
 * getri: C = inv(A) column tile by column tile (n right-hand sides). Every unit finds its
 * matrix's info from the diagonal of U (the first U(k,k) that is zero or not finite: k,
 * else 0); the unit of tile 0 writes it, and a singular matrix's C is not written.
 */
__kernel void getri(__global const REAL *A, const ulong offset_a, const int lda,
                    const ulong stride_a, __global const int *ipiv, const ulong offset_p,
                    const ulong stride_p, __global REAL *C, const ulong offset_c, const int ldc,
                    const ulong stride_c, const int n, __global int *info, const ulong b0,
                    const ulong count, const ulong g0)
{
    __local REAL xs_all[TBC * 2 * NT];
    const ulong tiles = (ulong)((n + NT - 1) / NT);
    LU_UNIT_INDEX(tiles);
    __global const REAL *Ab = A + offset_a + (active ? b * stride_a : 0);
    int singular = 0;
    if (active)
        for (int k = 0; k < n; k++) {
            const REAL d = Ab[k + k * lda];
            if (d == (REAL)0 || !IS_FINITE(d)) {
                singular = k + 1;
                break;
            }
        }
    if (active && c0 == 0 && tx == 0) info[b] = singular;
    if (singular) active = 0;
    const int nt = min(NT, n - c0);
    __global const int *Pb = ipiv + offset_p + (active ? b * stride_p : 0);
    __global REAL *Cb = C + offset_c + (active ? b * stride_c + (ulong)c0 * (ulong)ldc : 0);
    lu_unit(Ab, lda, Pb, Cb, ldc, n, nt, c0, active, 1, xs_all + ty * 2 * NT, tx, lx);
}

/*
 * getrs_vbatched: the 'N' or 'T' solve of a variable-size batch (getrs_vbatched,
 * gesv_vbatched), built with TBC = 1: a work-group is one unit (matrix b, tile of NT of
 * its right-hand sides), so that the order n[b] that bounds lu_unit's barrier loops is
 * the same over the group. Work-groups are sized for the batch's largest order and tiles
 * cover its largest nrhs; a unit past its matrix's nrhs[b], of n[b] = 0, or of a matrix
 * with info[b] != 0 (rejected by the checks, or singular from gesv's getrf) touches
 * nothing. Matrix b at A + offsets_a[b] (lda[b]), its pivots at ipiv + offsets_p[b], its
 * right-hand sides at B + offsets_b[b] (ldb[b]).
 */
__kernel void getrs_vbatched(__global const REAL *A, __global const long *offsets_a,
                             __global const int *n_arr, __global const int *lda_arr,
                             __global const int *ipiv, __global const long *offsets_p,
                             __global REAL *B, __global const long *offsets_b,
                             __global const int *nrhs_arr, __global const int *ldb_arr,
                             __global const int *info, const ulong tiles, const ulong b0,
                             const ulong count, const ulong g0)
{
    __local REAL xs_all[TBC * 2 * NT];
    LU_UNIT_INDEX(tiles);
    if (active && (info[b] != 0 || n_arr[b] <= 0 || c0 >= nrhs_arr[b])) active = 0;
    const int n = active ? n_arr[b] : 0;
    const int nt = active ? min(NT, nrhs_arr[b] - c0) : 0;
    const int lda = active ? lda_arr[b] : 1, ldb = active ? ldb_arr[b] : 1;
    __global const REAL *Ab = A + (active ? offsets_a[b] : 0);
    __global const int *Pb = ipiv + (active ? offsets_p[b] : 0);
    __global REAL *Bb = B + (active ? offsets_b[b] + (long)c0 * (long)ldb : 0);
    lu_unit(Ab, lda, Pb, Bb, ldb, n, nt, c0, active, 0, xs_all + ty * 2 * NT, tx, lx);
}
