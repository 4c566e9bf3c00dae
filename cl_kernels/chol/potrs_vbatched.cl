/* Batched Cholesky solve of a variable-size batch, by substitution.
 *
 * Built after common.cl and potrs_subst.cl, whose subst_unit does the work. A unit is one
 * matrix and a tile of up to NT of its right-hand sides; the host sizes the launch for the
 * largest n (work-items per unit, RPT rows each) and the largest nrhs (tiles per matrix).
 * Each unit reads its matrix's sizes: a unit whose matrix was rejected by the checks or
 * failed its factorization (info != 0), has n = 0, or whose tile lies past its nrhs does
 * nothing, and a work-group runs only as many steps as its largest live unit's n, so a
 * group of idle units leaves at once without a barrier (no early return: PoCL).
 *
 * Build macros: those of potrs_subst.cl.
 */

/* Order of unit u's matrix if the unit has work, else 0. */
inline int unit_order(const ulong u, const int tiles, const ulong count, const ulong b0,
                      __global const int *n, __global const int *nrhs, __global const int *info)
{
    if (u >= count * (ulong)tiles) return 0;
    const ulong b = b0 + u / (ulong)tiles;
    const int c0 = (int)(u % (ulong)tiles) * NT;
    return (info[b] == 0 && c0 < nrhs[b]) ? n[b] : 0;
}

/*
 * Matrices b0 .. b0+count-1, tiles = ceil(max_nrhs/NT) units each, TBC units a group from
 * group g0 (> 0 where one launch does not take all the units of the matrices): matrix b
 * has order
 * n[b], nrhs[b] right-hand sides, factor at offsets_a[b] of A with leading dimension
 * lda[b], right-hand sides at offsets_b[b] of B with leading dimension ldb[b].
 */
__kernel void potrs_subst_vbatched(__global const REAL *A, __global const long *offsets_a,
                                   __global const int *n, __global const int *lda,
                                   __global REAL *B, __global const long *offsets_b,
                                   __global const int *nrhs, __global const int *ldb,
                                   __global const int *info, const int tiles, const ulong b0,
                                   const ulong count, const ulong g0)
{
    __local REAL xs_all[TBC * 2 * NT];
    const int lx = (int)get_local_size(0) / TBC;
    const int lid = (int)get_local_id(0);
    const int tx = lid % lx, ty = lid / lx;
    const ulong u_first = (g0 + get_group_id(0)) * TBC;
    /* The group's step count: the same in every work-item, so barriers stay uniform. */
    int steps = 0;
    for (int t = 0; t < TBC; t++)
        steps = max(steps, unit_order(u_first + t, tiles, count, b0, n, nrhs, info));
    const ulong u = u_first + ty;
    const int nb = unit_order(u, tiles, count, b0, n, nrhs, info);
    const int active = nb > 0;
    const ulong b = b0 + (active ? u / (ulong)tiles : 0);
    const int c0 = active ? (int)(u % (ulong)tiles) * NT : 0;
    const int nt = active ? min(NT, nrhs[b] - c0) : 0;
    const int ld_b = active ? ldb[b] : 1;
    __global const REAL *Ab = A + (active ? offsets_a[b] : 0);
    __global REAL *Bb = B + (active ? offsets_b[b] + (long)c0 * ld_b : 0);
    subst_unit(Ab, active ? lda[b] : 1, Bb, ld_b, nb, steps, nt, active, xs_all + ty * 2 * NT, tx,
               lx);
}
