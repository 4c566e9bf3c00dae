/* Fused left-looking Cholesky of a variable-size batch (Abdelfattah et al. 2016, Sec. 4).
 *
 * Built after common.cl and potrf_fused.cl: each launch runs fused_step_group on tbc
 * matrices per work-group (lx = local size / tbc work-items each). The host launches
 * ceil(max_n/IB) steps sized for the largest matrix; each matrix derives its own step from
 * n[b]:
 *   greedy (LAZY=0): every matrix starts at launch 0 and finishes after ceil(n_b/IB)
 *     launches; its step is the launch's column j.
 *   lazy (LAZY=1, implicit sorting): matrix b starts at launch T - ceil(n_b/IB), T =
 *     ceil(max_n/IB), so that every matrix does its last (possibly narrow) panel on the last
 *     launch. At launch t it has at most (T-t)*IB rows left, which sizes the launch.
 * A matrix that has no step in this launch (not started, finished, failed, or rejected by
 * the checks) is idle: it passes the group's barriers and touches nothing. The matrices of
 * one group may be at different steps (lazy) or have panels of different widths (the
 * last, narrow one): the update's loop runs to the group's largest j, which every
 * work-item reads from local memory, the panel's column loop always to IB, and each
 * matrix works only in the iterations it has. A work-group whose matrices are all idle returns at once with
 * EARLY_EXIT (ETM-classic); otherwise (PoCL) it passes fused_step_group's barriers idle.
 * ETM_AGGRESSIVE (see potrf_fused.cl) also idles the work-items of a live matrix that hold
 * no row.
 *
 * The work-groups take the matrices in index order, or (sorted = 1) in the order of
 * potrf_vbatched_sort below: by decreasing number of panel steps, so that a
 * group's matrices start and finish on the same launches and the launch's live groups come
 * first.
 *
 * Build macros: LAZY (0/1), ETM_AGGRESSIVE (0/1), EARLY_EXIT, and those of potrf_fused.cl
 * except N, LX and TBC (matrices per work-group and their work-items are chosen at launch).
 */
#ifndef LAZY
#define LAZY 1
#endif

/* Sort keys: the number of IB-wide panels of a matrix that the fused kernel takes (more
 * than STEP_KEYS-1 panels share the last key), 0 for the others. */
#define STEP_KEYS 256

inline uint step_key(const int nb, const int inf, const int n_hi)
{
    return inf != 0 || nb <= 0 || nb > n_hi ? 0u : (uint)min((nb + IB - 1) / IB, STEP_KEYS - 1);
}

/* order[p] = g for the chunk's matrices b0+g, keys in decreasing order (within a key, in
 * any order: each matrix's arithmetic does not depend on its group). One work-group does
 * the whole counting sort, its counters in local memory: nothing to zero beforehand and
 * one launch, where a sort over many groups took a fill and two launches of 20 us each
 * (NVIDIA). */
__kernel void potrf_vbatched_sort(__global const int *n, __global const int *info,
                                  const ulong b0, const ulong count, const int n_hi,
                                  __global uint *order)
{
    __local uint hist[STEP_KEYS], cursor[STEP_KEYS];
    const uint lid = (uint)get_local_id(0), lsize = (uint)get_local_size(0);
    for (uint k = lid; k < STEP_KEYS; k += lsize) hist[k] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong g = lid; g < count; g += lsize)
        atomic_inc(&hist[step_key(n[b0 + g], info[b0 + g], n_hi)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    /* one work-item's running sum, over the keys in use only: a matrix of at most n_hi
     * rows has at most n_hi/IB + 1 panels */
    if (lid == 0) {
        uint s = 0;
        for (int k = min(n_hi / IB + 1, STEP_KEYS - 1); k >= 0; k--) {
            cursor[k] = s;
            s += hist[k];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong g = lid; g < count; g += lsize) {
        const uint k = step_key(n[b0 + g], info[b0 + g], n_hi);
        order[atomic_inc(&cursor[k])] = (uint)g;
    }
}

/* The matrix of group slot g (g < count: b0 + g, or b0 + order[g] when sorted; beyond the
 * chunk, b0: a slot without a matrix reads a valid entry and stays idle). */
inline ulong group_matrix(const ulong g, const ulong b0, const ulong count, const int sorted,
                          __global const uint *order)
{
    return b0 + (g < count ? (sorted ? (ulong)order[g] : g) : 0);
}

/*
 * Launch `launch` (panel columns j = launch*IB of the largest matrix) of `launches` on
 * matrices b0 .. b0+count-1, tbc of them per work-group: matrix b has order n[b] and
 * leading dimension lda[b] and starts at element offsets[b] of A. info[b] was set by the
 * checks (0 or a negative code); a matrix whose info is non-zero is skipped, a failing
 * pivot sets it. work holds tbc panels of `slot` elements (max(rows, IB)*IB for the
 * launch's largest remaining row count); bounds holds 2*tbc ints. Matrices with n[b] >
 * n_hi are left to the separate variant (a batch split by size class). sorted = 1: group
 * slot g takes matrix b0 + order[g].
 */
__kernel void potrf_vbatched_step(__global REAL *A, __global const ulong *offsets,
                                  __global const int *n, __global const int *lda,
                                  __global int *info, const int launch, const int launches,
                                  const ulong b0, const ulong count, const int n_hi,
                                  const int tbc, const int slot, const int sorted,
                                  __global const uint *order, __local REAL4 *work4,
                                  __local int *bounds)
{
    __local REAL *work = (__local REAL *)work4; /* REAL4-typed: aligned for the update's reads */
    const int lx = (int)get_local_size(0) / tbc;
    const int lid = (int)get_local_id(0);
    const int tx = lid % lx, ty = lid / lx;
    const ulong g = (ulong)get_group_id(0) * (ulong)tbc + (ulong)ty;
    const ulong b = group_matrix(g, b0, count, sorted, order);
    const int nb = n[b];
#if LAZY
    const int jb = (launch - (launches - (nb + IB - 1) / IB)) * IB;
#else
    const int jb = launch * IB;
#endif
    const int active = g < count && nb <= n_hi && jb >= 0 && jb < nb && info[b] == 0;
    /* the group's bounds: its largest j among the matrices with a step, and whether any has one */
    int jg = active ? jb : 0, live = active;
    if (tbc > 1) {
        if (tx == 0) {
            bounds[ty] = jg;
            bounds[tbc + ty] = live;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = 0; i < tbc; i++) {
            jg = max(jg, bounds[i]);
            live |= bounds[tbc + i];
        }
    }
#if EARLY_EXIT
    if (!live) return; /* ETM-classic: no matrix of the group has a step; the group leaves */
#endif
    __global REAL *Ab = A + (active ? offsets[b] : 0);
    const int status = fused_step_group(Ab, active ? lda[b] : 1, active ? nb : 0, active ? jb : 0,
                                        active, work + ty * slot, tx, lx, jg);
    barrier(CLK_GLOBAL_MEM_FENCE); /* every work-item has read info[b] before one writes it */
    if (active && tx == 0 && status != 0) info[b] = status;
}

/*
 * Every step of matrices b0 .. b0+count-1 in one launch (loop-inclusive): a work-group
 * takes tbc matrices and runs their ib-wide steps in turn, j = 0, IB, ... up to its largest
 * matrix, each matrix while j < n[b] (greedy within the group; the order by steps puts
 * matrices of the same step count together). Work-groups are sized for n_hi rows; the
 * hardware scheduler balances them, and there is no launch per step. Arguments as
 * potrf_vbatched_step (slot: fused_slot for n_hi rows); bounds holds 2*tbc ints.
 */
__kernel void potrf_vbatched_all(__global REAL *A, __global const ulong *offsets,
                                 __global const int *n, __global const int *lda,
                                 __global int *info, const ulong b0, const ulong count,
                                 const int n_hi, const int tbc, const int slot, const int sorted,
                                 __global const uint *order, __local REAL4 *work4,
                                 __local int *bounds)
{
    __local REAL *work = (__local REAL *)work4; /* REAL4-typed: aligned for the update's reads */
    const int lx = (int)get_local_size(0) / tbc;
    const int lid = (int)get_local_id(0);
    const int tx = lid % lx, ty = lid / lx;
    const ulong g = (ulong)get_group_id(0) * (ulong)tbc + (ulong)ty;
    const ulong b = group_matrix(g, b0, count, sorted, order);
    const int nb = n[b];
    const int mine = g < count && nb <= n_hi && nb > 0 && info[b] == 0;
    /* the group's largest order */
    int ng = mine ? nb : 0;
    if (tbc > 1) {
        if (tx == 0) bounds[ty] = ng;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = 0; i < tbc; i++) ng = max(ng, bounds[i]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#if EARLY_EXIT
    if (ng == 0) return;
#endif
    __global REAL *Ab = A + (mine ? offsets[b] : 0);
    const int ld = mine ? lda[b] : 1;
    int failed = 0;
    for (int j = 0; j < ng; j += IB) {
        const int active = mine && !failed && j < nb;
        const int status = fused_step_group(Ab, ld, active ? nb : 0, active ? j : 0, active,
                                            work + ty * slot, tx, lx, j);
        /* a failed pivot ends its matrix: every work-item of it must agree */
        if (active && tx == 0) bounds[tbc + ty] = status;
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (active && bounds[tbc + ty] != 0) {
            failed = 1;
            if (tx == 0) info[b] = bounds[tbc + ty];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
