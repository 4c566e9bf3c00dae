/* Batched Cholesky solve, one work-item per system: forward then backward substitution
 * on the strided data in global memory, for CPUs (issue 31; the factorization's
 * counterpart is potrf_workitem.cl).
 *
 * The substitution kernel (potrs_subst.cl) spreads a system's rows over work-items that
 * share each step's x_j through local memory with a barrier per step, 2n barriers per
 * launch: on a CPU, where a work-group runs as a loop over its work-items, each barrier
 * splits that loop. Here a work-item solves a whole system (A_b and all its right-hand
 * sides), no barrier and no local memory; the loops run along contiguous memory as
 * explicit vectors of VW elements, NR right-hand sides at a time (each L vector loaded once
 * for the NR of them).
 *
 * Lower storage (A = L*L**T, L's columns contiguous):
 *   forward,  L Y = B, column-oriented (axpy):  y_j = b_j / L(j,j);
 *             b(j+1:n) -= y_j * L(j+1:n, j)
 *   backward, L**T X = Y, dot products along L's columns:
 *             x_j = (y_j - L(j+1:n, j) . x(j+1:n)) / L(j,j),  j = n-1 .. 0
 * Upper storage (A = U**T*U, U's columns contiguous) is the mirror:
 *   forward,  U**T Y = B: y_j = (b_j - U(0:j, j) . y(0:j)) / U(j,j)
 *   backward, U X = Y:    x_j = y_j / U(j,j); b(0:j) -= x_j * U(0:j, j),  j = n-1 .. 0
 * Elements that do not fill a vector take scalar code: no access leaves the system's
 * columns.
 *
 * n, nrhs and the layout are run-time arguments: one program per (NR, UPPER, precision),
 * and VBATCHED = 1 builds the variable-size kernel (sizes and layout per system) instead.
 * Built after common/vector.cl and common/workitem_sweeps.cl (the four sweeps, shared with
 * lu/getrs_workitem.cl). Build macros: NR (right-hand sides per pass, 1..32), VW (vector
 * width 1, 2, 4, 8, 16; common/vector.cl), UPPER (0/1), REAL/PRECISION_DOUBLE (common.cl).
 * Any work-group size.
 */
#ifndef NR
#define NR 1
#endif
#ifndef UPPER
#define UPPER 0
#endif
#ifndef VBATCHED
#define VBATCHED 0
#endif

/* Solves nr columns of B from Bb (leading dimension ldb) with the factor at Ab: the
 * sweeps of common/workitem_sweeps.cl. */
#define SOLVE_COLUMNS(name, nr)                                                                \
    inline void name(__global const REAL *Ab, const int lda, __global REAL *Bb, const int ldb,  \
                     const int n)                                                              \
    {                                                                                          \
        REAL s[nr];                                                                            \
        if (!UPPER) {                                                                          \
            FORWARD_AXPY(nr, 0)                                                                \
            BACKWARD_DOT(nr, 0)                                                                \
        } else {                                                                               \
            FORWARD_DOT(nr, 0)                                                                 \
            BACKWARD_AXPY(nr, 0)                                                               \
        }                                                                                      \
    }

SOLVE_COLUMNS(solve_nr, NR)
#if NR > 1
SOLVE_COLUMNS(solve_one, 1)
#endif

#if !VBATCHED
/*
 * Systems b0 .. b0+count-1 (factor b at offset_a + b*stride_a, right-hand sides at
 * offset_b + b*stride_b), one per work-item of a 1-D NDRange (work-items past count do
 * nothing). With skip_failed, a system whose info is not zero is left alone (posv: its
 * factorization failed).
 */
__kernel void potrs_workitem(__global const REAL *A, const ulong offset_a, const int lda,
                             const ulong stride_a, __global REAL *B, const ulong offset_b,
                             const int ldb, const ulong stride_b, const int n, const int nrhs,
                             __global const int *info, const int skip_failed, const ulong b0,
                             const ulong count)
{
    const ulong g = get_global_id(0);
    if (g >= count) return;
    const ulong b = b0 + g;
    if (skip_failed && info[b] != 0) return;
    __global const REAL *Ab = A + offset_a + b * stride_a;
    __global REAL *Bb = B + offset_b + b * stride_b;
    int c = 0;
    for (; c + NR <= nrhs; c += NR) solve_nr(Ab, lda, Bb + (size_t)c * ldb, ldb, n);
#if NR > 1
    for (; c < nrhs; c++) solve_one(Ab, lda, Bb + (size_t)c * ldb, ldb, n);
#endif
}
#else
/*
 * Variable sizes: systems b0 .. b0+count-1, system b of order n[b] with nrhs[b] right-hand
 * sides, factor at offsets_a[b] of A (leading dimension lda[b]), right-hand sides at
 * offsets_b[b] of B (ldb[b]), one per work-item. A system whose info is not zero (an
 * entry the device checks rejected, or a failed factorization) is left alone.
 */
__kernel void potrs_workitem_vbatched(__global const REAL *A, __global const long *offsets_a,
                                      __global const int *n, __global const int *lda,
                                      __global REAL *B, __global const long *offsets_b,
                                      __global const int *nrhs, __global const int *ldb,
                                      __global const int *info, const ulong b0,
                                      const ulong count)
{
    const ulong g = get_global_id(0);
    if (g >= count) return;
    const ulong b = b0 + g;
    if (info[b] != 0) return;
    const int nb = n[b], kb = nrhs[b], ld_a = lda[b], ld_b = ldb[b];
    if (nb <= 0 || kb <= 0) return;
    __global const REAL *Ab = A + offsets_a[b];
    __global REAL *Bb = B + offsets_b[b];
    int c = 0;
    for (; c + NR <= kb; c += NR) solve_nr(Ab, ld_a, Bb + (size_t)c * ld_b, ld_b, nb);
#if NR > 1
    for (; c < kb; c++) solve_one(Ab, ld_a, Bb + (size_t)c * ld_b, ld_b, nb);
#endif
}
#endif
