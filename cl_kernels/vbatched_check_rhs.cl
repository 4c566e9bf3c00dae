/* Checks of the right-hand-side arrays of a variable-size solve (potrs/posv vbatched), run
 * after vbatched_check.cl has set info from the matrix arrays.
 *
 * For each matrix b still at info[b] = 0 the first failing check gives the code:
 *   nrhs[b] < 0                                            INFO_BAD_NRHS
 *   ldb[b] < max(1, n[b])                                  INFO_BAD_LDB
 *   offsets_b[b] < 0, or for n, nrhs > 0 the block [offsets_b[b], offsets_b[b] +
 *     (nrhs-1)*ldb + n) runs past the end of B (b_elems)   INFO_BAD_OFFSET_B
 *   nrhs[b] > max_nrhs                                     INFO_ABOVE_MAX_NRHS
 * A matrix that passes adds its n and nrhs to the maxima in result[0], result[1] (zeroed
 * by the host), which the plain routines read back to size their launches.
 *
 * Build macros: INFO_* codes (from bchol.h).
 */
#ifndef INFO_BAD_NRHS
#define INFO_BAD_NRHS (-6)
#define INFO_BAD_LDB (-7)
#define INFO_BAD_OFFSET_B (-8)
#define INFO_ABOVE_MAX_NRHS (-9)
#endif

__kernel void vbatched_check_rhs(__global const int *n, __global const int *nrhs,
                                 __global const int *ldb, __global const long *offsets_b,
                                 const ulong b_elems, const int max_nrhs, const ulong b0,
                                 const ulong count, __global int *info, __global int *result)
{
    const ulong i = get_global_id(0);
    if (i >= count) return; /* no barrier in this kernel */
    const ulong b = b0 + i;
    if (info[b] != 0) return;
    const int nb = n[b], rb = nrhs[b], ld = ldb[b];
    const long off = offsets_b[b];
    int code = 0;
    if (rb < 0)
        code = INFO_BAD_NRHS;
    else if (ld < max(1, nb))
        code = INFO_BAD_LDB;
    else if (off < 0)
        code = INFO_BAD_OFFSET_B;
    else if (nb > 0 && rb > 0) {
        const ulong span = (ulong)(rb - 1) * (ulong)ld + (ulong)nb;
        if ((ulong)off > b_elems || span > b_elems - (ulong)off) code = INFO_BAD_OFFSET_B;
    }
    if (code == 0 && rb > max_nrhs) code = INFO_ABOVE_MAX_NRHS;
    if (code != 0) {
        info[b] = code;
        return;
    }
    atomic_max(&result[0], nb);
    atomic_max(&result[1], rb);
}
