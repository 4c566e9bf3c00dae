/* Batched Cholesky solve by substitution (potrs): A X = B with A = L*L**T is solved as
 * L Y = B (forward) then L**T X = Y (backward), Y and X overwriting B. Upper storage,
 * A = U**T*U, is read as L = U**T (element (i,j) of L is U(j,i)), so both triangles run
 * natively.
 *
 * A unit is one matrix and a tile of up to NT of its right-hand sides. The unit's lx
 * work-items own the tile's rows: work-item tx holds rows tx, tx+lx, ... (RPT of them)
 * for all NT columns in registers, so B is read once and written once. Both solves go
 * column by column of L (the axpy form of substitution):
 *   forward,  j = 0..n-1:  x_j = b_j / L(j,j);  b_i -= L(i,j) * x_j  for i > j
 *   backward, j = n-1..0:  x_j = b_j / L(j,j);  b_i -= L(j,i) * x_j  for i < j
 * The owner of row j finishes x_j and publishes it in local memory; after one barrier
 * every work-item updates its own rows. x_j alternates between two local slots, so the
 * owner of the next row never overwrites a slot that slower work-items still read: one
 * barrier per step, 2n per launch. The L column (or row) of the step is loaded before
 * the barrier so that its latency hides behind it.
 *
 * n, nrhs and the layout are run-time arguments: one program serves every size, and the
 * variable-size form (potrs_vbatched.cl) only changes where n, lda, ldb and the offsets
 * come from, through the shared subst_unit.
 *
 * Build macros: NT (right-hand sides per tile), RPT (rows per work-item; the host makes
 * lx*RPT >= n), TBC (units per work-group), UPPER (0/1), REAL/PRECISION_DOUBLE.
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
#ifndef UPPER
#define UPPER 0
#endif

/* Element (i, j) of the lower factor L in the stored triangle. */
#if UPPER
#define LELEM(A, lda, i, j) (A)[(j) + (i) * (lda)]
#else
#define LELEM(A, lda, i, j) (A)[(i) + (j) * (lda)]
#endif

/*
 * Solves one unit: the tile of nt columns at Bb (leading dimension ldb) with the factor of
 * order n at Ab. steps >= n is the work-group's common step count (its largest n): every
 * work-item runs every step so that barriers stay in uniform control flow; steps past
 * this unit's n and inactive units touch no memory. xs holds 2*NT local values.
 */
inline void subst_unit(__global const REAL *Ab, const int lda, __global REAL *Bb, const int ldb,
                       const int n, const int steps, const int nt, const int active,
                       __local REAL *xs, const int tx, const int lx)
{
    /* The tile in registers (columns past nt stay zero and are never stored), and the
     * reciprocal diagonal of L at the owned rows: the owner of a step multiplies instead
     * of dividing while the rest of its warp waits (one rounding more per step). */
    REAL rB[NT][RPT], rD[RPT];
PRAGMA_UNROLL
    for (int r = 0; r < RPT; r++) {
        const int row = tx + r * lx;
        const int mine = active && row < n;
        rD[r] = mine ? (REAL)1 / LELEM(Ab, lda, row, row) : (REAL)1;
PRAGMA_UNROLL
        for (int c = 0; c < NT; c++)
            rB[c][r] = (mine && c < nt) ? Bb[row + (ulong)c * (ulong)ldb] : (REAL)0;
    }

    /* Forward: L Y = B. (jt, jr) = (owner, register row) of row j. */
    for (int j = 0, jt = 0, jr = 0; j < steps; j++) {
        REAL rL[RPT];
PRAGMA_UNROLL
        for (int r = 0; r < RPT; r++) {
            const int row = tx + r * lx;
            rL[r] = (active && row > j && row < n) ? LELEM(Ab, lda, row, j) : (REAL)0;
        }
        __local REAL *x = xs + (j & 1) * NT;
        if (active && tx == jt)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++)
                if (r == jr)
PRAGMA_UNROLL
                    for (int c = 0; c < NT; c++) {
                        rB[c][r] *= rD[r];
                        x[c] = rB[c][r];
                    }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (active)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++)
                if (tx + r * lx > j && tx + r * lx < n)
PRAGMA_UNROLL
                    for (int c = 0; c < NT; c++) rB[c][r] = mad(-rL[r], x[c], rB[c][r]);
        if (++jt == lx) {
            jt = 0;
            jr++;
        }
    }

    /* Backward: L**T X = Y. Forward's last step read no slot (no row lies below
     * steps-1), so backward's first write to that slot needs no barrier of its own. */
    for (int j = steps - 1, jt = (steps - 1) % lx, jr = (steps - 1) / lx; j >= 0; j--) {
        REAL rL[RPT];
PRAGMA_UNROLL
        for (int r = 0; r < RPT; r++) {
            const int row = tx + r * lx;
            rL[r] = (active && j < n && row < j) ? LELEM(Ab, lda, j, row) : (REAL)0;
        }
        __local REAL *x = xs + (j & 1) * NT;
        if (active && tx == jt)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++)
                if (r == jr)
PRAGMA_UNROLL
                    for (int c = 0; c < NT; c++) {
                        rB[c][r] *= rD[r];
                        x[c] = rB[c][r];
                    }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (active)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++)
                if (tx + r * lx < j)
PRAGMA_UNROLL
                    for (int c = 0; c < NT; c++) rB[c][r] = mad(-rL[r], x[c], rB[c][r]);
        if (--jt < 0) {
            jt = lx - 1;
            jr--;
        }
    }

PRAGMA_UNROLL
    for (int r = 0; r < RPT; r++) {
        const int row = tx + r * lx;
        if (active && row < n)
PRAGMA_UNROLL
            for (int c = 0; c < NT; c++)
                if (c < nt) Bb[row + (ulong)c * (ulong)ldb] = rB[c][r];
    }
}

/*
 * Units u = (g0 + group)*TBC + ty of matrices b0 .. b0+count-1, tiles = ceil(nrhs/NT)
 * units per matrix (tile t holds columns t*NT .. t*NT+NT-1); g0 > 0 where one launch does
 * not take all the units of the matrices. With skip_failed, a matrix whose info is not
 * zero is left alone (posv: its factorization failed).
 */
__kernel void potrs_subst(__global const REAL *A, const ulong offset_a, const int lda,
                          const ulong stride_a, __global REAL *B, const ulong offset_b,
                          const int ldb, const ulong stride_b, const int n, const int nrhs,
                          __global const int *info, const int skip_failed, const ulong b0,
                          const ulong count, const ulong g0)
{
    __local REAL xs_all[TBC * 2 * NT];
    const int lx = (int)get_local_size(0) / TBC;
    const int lid = (int)get_local_id(0);
    const int tx = lid % lx, ty = lid / lx;
    const ulong tiles = (ulong)((nrhs + NT - 1) / NT);
    const ulong u = (g0 + get_group_id(0)) * TBC + ty;
    int active = u < count * tiles;
    const ulong b = b0 + (active ? u / tiles : 0);
    const int c0 = active ? (int)(u % tiles) * NT : 0;
    const int nt = min(NT, nrhs - c0);
    if (active && skip_failed && info[b] != 0) active = 0;
    __global const REAL *Ab = A + offset_a + (active ? b * stride_a : 0);
    __global REAL *Bb = B + offset_b + (active ? b * stride_b + (ulong)c0 * (ulong)ldb : 0);
    subst_unit(Ab, lda, Bb, ldb, n, n, nt, active, xs_all + ty * 2 * NT, tx, lx);
}
