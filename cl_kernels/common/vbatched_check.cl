/* Checks of a variable-size batch's per-matrix arrays on the device, so that the host never
 * reads them back.
 *
 * Matrix b is m[b]-by-n[b] (square callers pass their n array as m and max_n as max_m).
 * It is well formed when n[b] >= 0, m[b] >= 0, lda[b] >= max(1, m[b]), its indices fit in
 * int ((n-1)*lda + m <= 2^31-1), offsets[b] >= 0, for m[b], n[b] > 0 its footprint
 * [offsets[b], offsets[b] + (n-1)*lda + m) lies inside A (a_elems elements), n[b] <= max_n
 * and m[b] <= max_m (checked in this order: the first failure gives the code; for a square
 * caller the m codes never come first). A well-formed matrix with m, n > 0 overlaps when its footprint meets another one's; that is decided in index order, as
 *     start_b < max { end_a : a < b }   or   end_b > min { start_c : c > b },
 * which finds every true overlap (both members are rejected) in O(batch), and is exact
 * when the matrices lie in memory in index order; out-of-order layouts are rejected too.
 *
 * Three kernels over blocks of CHECK_WG * CHECK_PER_ITEM matrices, sharing one
 * scratch buffer of 3*blocks+1 ulongs: ends | starts | nmax per block, then the result:
 *   vbatched_check_blocks   per block: max end, min start, max m and n of well-formed
 *                           matrices (packed in one ulong: m << 32 | n)
 *   vbatched_check_scan     one work-group: exclusive prefix max of the block ends, suffix
 *                           min of the block starts, and the largest well-formed m and n
 *                           (packed as the blocks'); only
 *                           launched for more than CHECK_WG blocks (see block_carries)
 *   vbatched_check_flag     per matrix: info = 0 or the code of its first failed check
 *
 * Build macros: CHECK_WG (work-group size), CHECK_PER_ITEM, and the info codes INFO_BAD_N,
 * INFO_ABOVE_MAX_N, INFO_BAD_LDA, INFO_BAD_OFFSET, INFO_OVERLAP, INFO_BAD_M,
 * INFO_ABOVE_MAX_M (from bchol.h).
 */
#ifndef CHECK_WG
#define CHECK_WG 32
#endif
#ifndef CHECK_PER_ITEM
#define CHECK_PER_ITEM 32
#endif
#define CHECK_BLOCK (CHECK_WG * CHECK_PER_ITEM)
#ifndef INFO_BAD_N
#define INFO_BAD_N (-1)
#define INFO_BAD_LDA (-2)
#define INFO_BAD_OFFSET (-3)
#define INFO_ABOVE_MAX_N (-4)
#define INFO_OVERLAP (-5)
#endif
#ifndef INFO_BAD_M
#define INFO_BAD_M (-13)
#define INFO_ABOVE_MAX_M (-14)
#endif

#define NO_START ((ulong)0xffffffffffffffffUL)

/* 0 if matrix b is well formed (its footprint in [*start, *end), empty for m or n = 0),
 * else the info code of the first check it fails. */
inline int check_matrix(const int m, const int n, const int lda, const long offset,
                        const ulong a_elems, const int max_m, const int max_n, ulong *start,
                        ulong *end)
{
    *start = NO_START;
    *end = 0;
    if (n < 0) return INFO_BAD_N;
    if (m < 0) return INFO_BAD_M;
    if (lda < max(1, m)) return INFO_BAD_LDA;
    const ulong span = m > 0 && n > 0 ? (ulong)(n - 1) * (ulong)lda + (ulong)m : 0;
    if (span > 0x7fffffffUL) return INFO_BAD_LDA; /* element indices are ints */
    if (offset < 0 || (span > 0 && ((ulong)offset > a_elems || span > a_elems - (ulong)offset)))
        return INFO_BAD_OFFSET;
    if (n > max_n) return INFO_ABOVE_MAX_N;
    if (m > max_m) return INFO_ABOVE_MAX_M;
    if (span > 0) {
        *start = (ulong)offset;
        *end = (ulong)offset + span;
    }
    return 0;
}

/* Inclusive prefix max over the work-group of v (work-item order), in local memory s. */
inline ulong group_scan_max(ulong v, __local ulong *s, const int lid)
{
    s[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 1; d < CHECK_WG; d *= 2) {
        const ulong other = lid >= d ? s[lid - d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = max(v, other);
        s[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return v;
}

/* The carries of block `block` into a flag kernel: the largest end of the blocks before
 * it and (as ~) the smallest start of the blocks after it. With more than CHECK_WG blocks
 * vbatched_check_scan has left them in ends[block] and starts[block]. With at most CHECK_WG
 * (up to 32768 matrices) the host does not launch the scan (each launch costs about 8 us
 * on the H200, whatever its work) and the group takes them from the block aggregates,
 * one block per work-item. blocks is the same for every work-item: the barriers stay in
 * uniform control flow. */
inline void block_carries(__global const ulong *scratch, const ulong blocks, const ulong block,
                          __local ulong *s, const int lid, ulong *before, ulong *after_neg)
{
    __global const ulong *ends = scratch, *starts = scratch + blocks;
    if (blocks > CHECK_WG) {
        *before = ends[block];
        *after_neg = ~starts[block];
        return;
    }
    const ulong k = (ulong)lid;
    group_scan_max(k < block ? ends[k] : 0, s, lid);
    *before = s[CHECK_WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE); /* s is read before the next scan writes it */
    group_scan_max(k > block && k < blocks ? ~starts[k] : 0, s, lid);
    *after_neg = s[CHECK_WG - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Entries of block `block` that work-item lid walks: [*first, *last). */
inline void item_range(const ulong block, const int lid, const ulong count, ulong *first,
                       ulong *last)
{
    const ulong f = block * CHECK_BLOCK + (ulong)lid * CHECK_PER_ITEM;
    *first = min(f, count);
    *last = min(f + CHECK_PER_ITEM, count);
}

/* Block aggregates of blocks g0 + group. */
__attribute__((reqd_work_group_size(CHECK_WG, 1, 1)))
__kernel void vbatched_check_blocks(__global const int *m, __global const int *n,
                                    __global const int *lda, __global const long *offsets,
                                    const ulong a_elems, const int max_m, const int max_n,
                                    const ulong count, const ulong g0,
                                    __global ulong *scratch, const ulong blocks)
{
    __global ulong *ends = scratch, *starts = scratch + blocks, *nmax = scratch + 2 * blocks;
    __local ulong s[CHECK_WG];
    const int lid = (int)get_local_id(0);
    const ulong block = g0 + get_group_id(0);
    ulong first, last, end = 0, start_neg = 0; /* max of ~start = ~(min of start) */
    int big = 0, big_m = 0;
    item_range(block, lid, count, &first, &last);
    for (ulong b = first; b < last; b++) {
        ulong s0, e0;
        if (check_matrix(m[b], n[b], lda[b], offsets[b], a_elems, max_m, max_n, &s0, &e0) == 0) {
            end = max(end, e0);
            start_neg = max(start_neg, ~s0);
            big = max(big, n[b]);
            big_m = max(big_m, m[b]);
        }
    }
    /* four reductions through the one scan: the last work-item holds the block's value */
    end = group_scan_max(end, s, lid);
    start_neg = group_scan_max(start_neg, s, lid);
    big = (int)group_scan_max((ulong)big, s, lid);
    big_m = (int)group_scan_max((ulong)big_m, s, lid);
    if (lid == CHECK_WG - 1) {
        ends[block] = end;
        starts[block] = ~start_neg;
        nmax[block] = (ulong)big_m << 32 | (ulong)big;
    }
}

/* One work-group over all blocks: ends[k] becomes the max end of blocks < k, starts[k]
 * the min start of blocks > k (both exclusive), and the result the largest m and n (packed
 * as nmax). */
__attribute__((reqd_work_group_size(CHECK_WG, 1, 1)))
__kernel void vbatched_check_scan(__global ulong *scratch, const ulong blocks)
{
    __global ulong *ends = scratch, *starts = scratch + blocks, *nmax = scratch + 2 * blocks;
    __local ulong s[CHECK_WG];
    const int lid = (int)get_local_id(0);
    ulong carry = 0;
    int big = 0, big_m = 0;
    for (ulong k0 = 0; k0 < blocks; k0 += CHECK_WG) { /* forward: prefix max of ends */
        const ulong k = k0 + (ulong)lid;
        if (k < blocks) {
            big = max(big, (int)(nmax[k] & 0xffffffffUL));
            big_m = max(big_m, (int)(nmax[k] >> 32));
        }
        group_scan_max(k < blocks ? ends[k] : 0, s, lid);
        const ulong excl = max(lid > 0 ? s[lid - 1] : 0, carry);
        const ulong total = s[CHECK_WG - 1];
        barrier(CLK_LOCAL_MEM_FENCE); /* s is read before the next chunk writes it */
        if (k < blocks) ends[k] = excl;
        carry = max(carry, total);
    }
    carry = 0; /* backward: suffix min of starts, as a prefix max of ~start from the end */
    for (ulong k0 = 0; k0 < blocks; k0 += CHECK_WG) {
        const ulong kr = k0 + (ulong)lid, k = blocks - 1 - kr;
        group_scan_max(kr < blocks ? ~starts[k] : 0, s, lid);
        const ulong excl = max(lid > 0 ? s[lid - 1] : 0, carry);
        const ulong total = s[CHECK_WG - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (kr < blocks) starts[k] = ~excl;
        carry = max(carry, total);
    }
    big = (int)group_scan_max((ulong)big, s, lid);
    const ulong packed = (ulong)group_scan_max((ulong)big_m, s, lid) << 32 | (ulong)big;
    if (lid == CHECK_WG - 1) scratch[3 * blocks] = packed;
}

/* info[b] for the matrices of blocks g0 + group, given the block carries. */
__attribute__((reqd_work_group_size(CHECK_WG, 1, 1)))
__kernel void vbatched_check_flag(__global const int *m, __global const int *n,
                                  __global const int *lda, __global const long *offsets,
                                  const ulong a_elems, const int max_m, const int max_n,
                                  const ulong count, const ulong g0,
                                  __global const ulong *scratch, const ulong blocks,
                                  __global int *info)
{
    __local ulong s[CHECK_WG];
    const int lid = (int)get_local_id(0);
    const ulong block = g0 + get_group_id(0);
    ulong first, last, end = 0, start_neg = 0;
    item_range(block, lid, count, &first, &last);
    for (ulong b = first; b < last; b++) {
        ulong s0, e0;
        if (check_matrix(m[b], n[b], lda[b], offsets[b], a_elems, max_m, max_n, &s0, &e0) == 0) {
            end = max(end, e0);
            start_neg = max(start_neg, ~s0);
        }
    }
    /* before: max end of the matrices before this work-item's; after: min start after */
    ulong before, after_neg;
    block_carries(scratch, blocks, block, s, lid, &before, &after_neg);
    group_scan_max(end, s, lid);
    before = max(before, lid > 0 ? s[lid - 1] : 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    /* the suffix over work-items is a prefix over the reversed order */
    group_scan_max(start_neg, s, CHECK_WG - 1 - lid);
    after_neg = max(after_neg, lid < CHECK_WG - 1 ? s[CHECK_WG - 2 - lid] : 0);
    for (ulong b = first; b < last; b++) {
        ulong s0, e0;
        int code = check_matrix(m[b], n[b], lda[b], offsets[b], a_elems, max_m, max_n, &s0, &e0);
        if (code == 0 && e0 > 0 && before > s0) code = INFO_OVERLAP;
        before = max(before, e0);
        info[b] = code;
    }
    for (ulong b = last; b-- > first;) {
        ulong s0, e0;
        if (check_matrix(m[b], n[b], lda[b], offsets[b], a_elems, max_m, max_n, &s0, &e0) == 0 && e0 > 0 &&
            ~after_neg < e0)
            info[b] = INFO_OVERLAP;
        after_neg = max(after_neg, ~s0);
    }
}
