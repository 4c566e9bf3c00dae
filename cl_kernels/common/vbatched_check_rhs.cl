/* Checks of the right-hand-side arrays of a variable-size solve (potrs/posv vbatched), run
 * after the matrix checks of vbatched_check.cl have set info; built after that file, whose
 * block layout, scans and vbatched_check_scan kernel it reuses.
 *
 * For each matrix b still at info[b] = 0 the first failing check gives the code:
 *   nrhs[b] < 0                                            INFO_BAD_NRHS
 *   ldb[b] < max(1, n[b])                                  INFO_BAD_LDB
 *   offsets_b[b] < 0, or for n, nrhs > 0 the block [offsets_b[b], offsets_b[b] +
 *     (nrhs-1)*ldb + n) runs past the end of B (b_elems)   INFO_BAD_OFFSET_B
 *   nrhs[b] > max_nrhs                                     INFO_ABOVE_MAX_NRHS
 *   the block overlaps another's, decided in index order
 *     as for the matrices (vbatched_check.cl)              INFO_OVERLAP_B
 * A matrix that passes adds its n, and if n > 0 its nrhs, to the maxima in result[0],
 * result[1] (zeroed by the blocks kernel; with one block, written whole by the flag
 * kernel's only group), which the plain routines read back to size their launches (an
 * order-0 matrix has nothing to solve, whatever its nrhs).
 *
 * Two kernels over the blocks of vbatched_check.cl, with vbatched_check_scan between them
 * for more than CHECK_WG blocks, on the same scratch layout (ends | starts | nmax per
 * block, then one result):
 *   vbatched_check_rhs_blocks   per block: max end, min start of the well-formed blocks
 *   vbatched_check_rhs_flag     per matrix: its code; the maxima of the ones that pass
 *
 * Build macros: those of vbatched_check.cl, and the INFO_* codes below (from bchol.h).
 */
#ifndef INFO_BAD_NRHS
#define INFO_BAD_NRHS (-6)
#define INFO_BAD_LDB (-7)
#define INFO_BAD_OFFSET_B (-8)
#define INFO_ABOVE_MAX_NRHS (-9)
#define INFO_OVERLAP_B (-10)
#endif

/* 0 if the right-hand sides of a matrix with info 0 are well formed (footprint in
 * [*start, *end), empty for n = 0 or nrhs = 0), else the code of the first failed check. */
inline int check_rhs(const int n, const int nrhs, const int ldb, const long offset,
                     const ulong b_elems, const int max_nrhs, ulong *start, ulong *end)
{
    *start = NO_START;
    *end = 0;
    if (nrhs < 0) return INFO_BAD_NRHS;
    if (ldb < max(1, n)) return INFO_BAD_LDB;
    const ulong span = (n > 0 && nrhs > 0) ? (ulong)(nrhs - 1) * (ulong)ldb + (ulong)n : 0;
    if (offset < 0 || (span > 0 && ((ulong)offset > b_elems || span > b_elems - (ulong)offset)))
        return INFO_BAD_OFFSET_B;
    if (nrhs > max_nrhs) return INFO_ABOVE_MAX_NRHS;
    if (span > 0) {
        *start = (ulong)offset;
        *end = (ulong)offset + span;
    }
    return 0;
}

#define CHECK_RHS_ARGS                                                                           \
    __global const int *n, __global const int *nrhs, __global const int *ldb,                   \
        __global const long *offsets_b, const ulong b_elems, const int max_nrhs,                \
        const ulong count, const ulong g0, __global ulong *scratch, const ulong blocks,         \
        __global int *info

/* Code of matrix b: the matrix checks' one if not 0, else check_rhs's. */
inline int rhs_code(const ulong b, CHECK_RHS_ARGS, ulong *s0, ulong *e0)
{
    *s0 = NO_START;
    *e0 = 0;
    if (info[b] != 0) return info[b];
    return check_rhs(n[b], nrhs[b], ldb[b], offsets_b[b], b_elems, max_nrhs, s0, e0);
}

/* Block aggregates of blocks g0 + group (nmax unused: 0); block 0 also zeroes result for
 * the flag kernel's atomic maxima, which runs after it (no launch of its own for that). */
__attribute__((reqd_work_group_size(CHECK_WG, 1, 1)))
__kernel void vbatched_check_rhs_blocks(CHECK_RHS_ARGS, __global int *result)
{
    __global ulong *ends = scratch, *starts = scratch + blocks, *nmax = scratch + 2 * blocks;
    __local ulong s[CHECK_WG];
    const int lid = (int)get_local_id(0);
    const ulong block = g0 + get_group_id(0);
    if (block == 0 && lid < 2) result[lid] = 0;
    ulong first, last, end = 0, start_neg = 0;
    item_range(block, lid, count, &first, &last);
    for (ulong b = first; b < last; b++) {
        ulong s0, e0;
        if (rhs_code(b, n, nrhs, ldb, offsets_b, b_elems, max_nrhs, count, g0, scratch, blocks,
                     info, &s0, &e0) == 0) {
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

/* info[b] for the matrices of blocks g0 + group, given the block carries (block_carries);
 * the maxima of the matrices that pass go to result. */
__attribute__((reqd_work_group_size(CHECK_WG, 1, 1)))
__kernel void vbatched_check_rhs_flag(CHECK_RHS_ARGS, __global int *result)
{
    __local ulong s[CHECK_WG];
    const int lid = (int)get_local_id(0);
    const ulong block = g0 + get_group_id(0);
    ulong first, last, end = 0, start_neg = 0;
    item_range(block, lid, count, &first, &last);
    for (ulong b = first; b < last; b++) {
        ulong s0, e0;
        if (rhs_code(b, n, nrhs, ldb, offsets_b, b_elems, max_nrhs, count, g0, scratch, blocks,
                     info, &s0, &e0) == 0) {
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
    /* codes in registers first: info[b] is an input of rhs_code until every pass is done */
    int code[CHECK_PER_ITEM];
    for (ulong b = first; b < last; b++) {
        ulong s0, e0;
        int c = rhs_code(b, n, nrhs, ldb, offsets_b, b_elems, max_nrhs, count, g0, scratch,
                         blocks, info, &s0, &e0);
        if (c == 0 && e0 > 0 && before > s0) c = INFO_OVERLAP_B;
        before = max(before, e0);
        code[b - first] = c;
    }
    for (ulong b = last; b-- > first;) {
        ulong s0, e0;
        if (rhs_code(b, n, nrhs, ldb, offsets_b, b_elems, max_nrhs, count, g0, scratch, blocks,
                     info, &s0, &e0) == 0 && e0 > 0 && ~after_neg < e0)
            code[b - first] = INFO_OVERLAP_B;
        after_neg = max(after_neg, ~s0);
    }
    int big_n = 0, big_nrhs = 0;
    for (ulong b = first; b < last; b++) {
        info[b] = code[b - first];
        if (code[b - first] == 0) {
            big_n = max(big_n, n[b]);
            if (n[b] > 0) big_nrhs = max(big_nrhs, nrhs[b]);
        }
    }
    if (blocks == 1) { /* the only group (no blocks kernel ran): its maxima are the result */
        barrier(CLK_LOCAL_MEM_FENCE); /* s is free again */
        big_n = (int)group_scan_max((ulong)big_n, s, lid);
        big_nrhs = (int)group_scan_max((ulong)big_nrhs, s, lid);
        if (lid == CHECK_WG - 1) {
            result[0] = big_n;
            result[1] = big_nrhs;
        }
    } else if (big_n > 0 || big_nrhs > 0) { /* zeroed by the blocks kernel's block 0 */
        atomic_max(&result[0], big_n);
        atomic_max(&result[1], big_nrhs);
    }
}
