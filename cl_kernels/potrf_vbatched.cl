/* Fused left-looking Cholesky of a variable-size batch (Abdelfattah et al. 2016, Sec. 4).
 *
 * Built after common.cl and potrf_fused.cl: each launch runs fused_step on one matrix per
 * work-group. The host launches ceil(max_n/IB) steps sized for the largest matrix; each
 * work-group derives its own matrix's step from n[b]:
 *   greedy (LAZY=0): every matrix starts at launch 0 and finishes after ceil(n_b/IB)
 *     launches; its step is the launch's column j.
 *   lazy (LAZY=1, implicit sorting): matrix b starts at launch T - ceil(n_b/IB), T =
 *     ceil(max_n/IB), so that every matrix does its last (possibly narrow) panel on the last
 *     launch. At launch t it has at most (T-t)*IB rows left, which sizes the launch.
 * A work-group whose matrix has no step in this launch (not started, finished, failed, or
 * rejected by the checks) is idle: with EARLY_EXIT it returns at once (ETM-classic);
 * otherwise (PoCL) it takes fused_step's one-barrier path for n = 0. ETM_AGGRESSIVE (see
 * potrf_fused.cl) also idles the work-items of a live group that hold no row.
 *
 * Build macros: LAZY (0/1), ETM_AGGRESSIVE (0/1), EARLY_EXIT, and those of potrf_fused.cl
 * except N, LX and TBC (one matrix per work-group, shape chosen at launch).
 */
#ifndef LAZY
#define LAZY 1
#endif

/*
 * Launch `launch` (panel columns j = launch*IB of the largest matrix) of `launches` on
 * matrices b0 .. b0+count-1: matrix b has order n[b] and leading dimension lda[b] and
 * starts at element offsets[b] of A. info[b] was set by the checks (0 or a negative
 * code); a matrix whose info is non-zero is skipped, a failing pivot sets it. work holds
 * max(rows, IB)*IB elements for the launch's largest remaining row count. Matrices with
 * n[b] > n_hi are left to the separate variant (a batch split by size class).
 */
__kernel void potrf_vbatched_step(__global REAL *A, __global const ulong *offsets,
                                  __global const int *n, __global const int *lda,
                                  __global int *info, const int launch, const int launches,
                                  const ulong b0, const ulong count, const int n_hi,
                                  __local REAL *work)
{
    const int lx = (int)get_local_size(0);
    const int tx = (int)get_local_id(0);
    const ulong g = get_group_id(0);
    const ulong b = b0 + (g < count ? g : 0);
    const int nb = n[b];
#if LAZY
    const int jb = (launch - (launches - (nb + IB - 1) / IB)) * IB;
#else
    const int jb = launch * IB;
#endif
    const int active = g < count && nb <= n_hi && jb >= 0 && jb < nb && info[b] == 0;
#if EARLY_EXIT
    if (!active) return; /* ETM-classic: the whole work-group leaves */
#endif
    __global REAL *Ab = A + (active ? offsets[b] : 0);
    const int status = fused_step(Ab, active ? lda[b] : 1, active ? nb : 0, active ? jb : 0,
                                  active, work, tx, lx);
    if (active && tx == 0 && status != 0) info[b] = status;
}
