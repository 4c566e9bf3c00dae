/* Checks of the pivot arrays of a variable-size LU batch (getrf/getrs/gesv vbatched), run
 * after the matrix checks of vbatched_check.cl have set info; built after that file, whose
 * block layout, scans and vbatched_check_scan kernel it reuses (as vbatched_check_rhs.cl).
 *
 * For each matrix b still at info[b] = 0 (m[b], n[b] >= 0 then; square callers pass n as
 * m) the first failing check gives the code, with k = min(m[b], n[b]) pivots:
 *   offsets_p[b] < 0, or for k > 0 the pivots [offsets_p[b], offsets_p[b] + k) run
 *     past the end of ipiv (p_elems ints)                  INFO_BAD_OFFSET_P
 *   the pivots overlap another matrix's, decided in index
 *     order as for the matrices (vbatched_check.cl)        INFO_OVERLAP_P
 *
 * Two kernels over the blocks of vbatched_check.cl, with vbatched_check_scan between them
 * for more than CHECK_WG blocks, on the same scratch layout (ends | starts | nmax per
 * block, then one result):
 *   vbatched_check_piv_blocks   per block: max end, min start of the well-formed pivots
 *   vbatched_check_piv_flag     per matrix: its code
 *
 * Build macros: those of vbatched_check.cl, and the INFO_* codes below (from bchol.h).
 */
#ifndef INFO_BAD_OFFSET_P
#define INFO_BAD_OFFSET_P (-11)
#define INFO_OVERLAP_P (-12)
#endif

/* 0 if the pivots of a matrix with info 0 are well formed (footprint in [*start, *end),
 * empty for n = 0), else the code of the first failed check. */
inline int check_piv(const int n, const long offset, const ulong p_elems, ulong *start,
                     ulong *end)
{
    *start = NO_START;
    *end = 0;
    if (offset < 0 || (n > 0 && ((ulong)offset > p_elems || (ulong)n > p_elems - (ulong)offset)))
        return INFO_BAD_OFFSET_P;
    if (n > 0) {
        *start = (ulong)offset;
        *end = (ulong)offset + (ulong)n;
    }
    return 0;
}

#define CHECK_PIV_ARGS                                                                         \
    __global const int *m, __global const int *n, __global const long *offsets_p,             \
        const ulong p_elems,                                                                   \
        const ulong count, const ulong g0, __global ulong *scratch, const ulong blocks,       \
        __global int *info

/* Code of matrix b: the earlier checks' one if not 0, else check_piv's. */
inline int piv_code(const ulong b, __global const int *m, __global const int *n,
                    __global const long *offsets_p, const ulong p_elems,
                    __global const int *info, ulong *s0, ulong *e0)
{
    *s0 = NO_START;
    *e0 = 0;
    if (info[b] != 0) return info[b];
    return check_piv(min(m[b], n[b]), offsets_p[b], p_elems, s0, e0);
}

/* Block aggregates of blocks g0 + group (nmax unused: 0). */
__attribute__((reqd_work_group_size(CHECK_WG, 1, 1)))
__kernel void vbatched_check_piv_blocks(CHECK_PIV_ARGS)
{
    __global ulong *ends = scratch, *starts = scratch + blocks, *nmax = scratch + 2 * blocks;
    __local ulong s[CHECK_WG];
    const int lid = (int)get_local_id(0);
    const ulong block = g0 + get_group_id(0);
    ulong first, last, end = 0, start_neg = 0;
    item_range(block, lid, count, &first, &last);
    for (ulong b = first; b < last; b++) {
        ulong s0, e0;
        if (piv_code(b, m, n, offsets_p, p_elems, info, &s0, &e0) == 0) {
            end = max(end, e0);
            start_neg = max(start_neg, ~s0);
        }
    }
    end = group_scan_max(end, s, lid);
    start_neg = group_scan_max(start_neg, s, lid);
    if (lid == CHECK_WG - 1) {
        ends[block] = end;
        starts[block] = ~start_neg;
        nmax[block] = 0;
    }
}

/* info[b] for the matrices of blocks g0 + group, given the block carries (block_carries). */
__attribute__((reqd_work_group_size(CHECK_WG, 1, 1)))
__kernel void vbatched_check_piv_flag(CHECK_PIV_ARGS)
{
    __local ulong s[CHECK_WG];
    const int lid = (int)get_local_id(0);
    const ulong block = g0 + get_group_id(0);
    ulong first, last, end = 0, start_neg = 0;
    item_range(block, lid, count, &first, &last);
    for (ulong b = first; b < last; b++) {
        ulong s0, e0;
        if (piv_code(b, m, n, offsets_p, p_elems, info, &s0, &e0) == 0) {
            end = max(end, e0);
            start_neg = max(start_neg, ~s0);
        }
    }
    ulong before, after_neg;
    block_carries(scratch, blocks, block, s, lid, &before, &after_neg);
    group_scan_max(end, s, lid);
    before = max(before, lid > 0 ? s[lid - 1] : 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    group_scan_max(start_neg, s, CHECK_WG - 1 - lid);
    after_neg = max(after_neg, lid < CHECK_WG - 1 ? s[CHECK_WG - 2 - lid] : 0);
    /* codes in registers first: info[b] is an input of piv_code until every pass is done */
    int code[CHECK_PER_ITEM];
    for (ulong b = first; b < last; b++) {
        ulong s0, e0;
        int c = piv_code(b, m, n, offsets_p, p_elems, info, &s0, &e0);
        if (c == 0 && e0 > 0 && before > s0) c = INFO_OVERLAP_P;
        before = max(before, e0);
        code[b - first] = c;
    }
    for (ulong b = last; b-- > first;) {
        ulong s0, e0;
        if (piv_code(b, m, n, offsets_p, p_elems, info, &s0, &e0) == 0 && e0 > 0 &&
            ~after_neg < e0)
            code[b - first] = INFO_OVERLAP_P;
        after_neg = max(after_neg, ~s0);
    }
    for (ulong b = first; b < last; b++) info[b] = code[b - first];
}
