/* Fused left-looking batched Cholesky, loop-exclusive (Abdelfattah et al. 2016, Alg. 2-3).
 *
 * One launch per IB-wide panel j..j+ib-1. Each matrix's work-items
 *   1. apply the pending update from the left, C = A(j:n, 0:j) * A(j:j+ib, 0:j)**T (SYRK on
 *      the diagonal block and GEMM below it, as one product), streaming the factored
 *      columns IB at a time: the next block is prefetched into registers while the current
 *      one is multiplied (Algorithm 3's double buffer), and the top ib rows of the block
 *      -- the B operand -- are transposed from registers into local memory;
 *   2. load the panel minus C into registers and factor it there: POTF2 of the ib-by-ib
 *      diagonal block and TRSM of the rows below, right-looking over the ib columns, each
 *      column of the diagonal block shared through local memory;
 *   3. write the panel back (only the lower part of its diagonal block).
 * Work-item tx of a matrix owns panel rows tx, tx+lx, ... (RPT of them). TBC matrices
 * share a work-group for tiny n. Upper storage is read as the transpose of lower
 * (element (i,j) of L is U(j,i)), so both triangles run natively.
 *
 * Build macros: N (order), IB (panel width), TBC (matrices per work-group), RPT (rows per
 * work-item), UPPER (0/1), TAIL (0/1, below), REAL/PRECISION_DOUBLE (see common.cl).
 */
#ifndef N
#define N 16
#endif
#ifndef IB
#define IB 8
#endif
#ifndef TBC
#define TBC 1
#endif
#ifndef RPT
#define RPT 1
#endif
#ifndef UPPER
#define UPPER 0
#endif

/* TAIL = 1: the fixed-size kernel of the last step where its panel is narrower than the
 * others (N not a multiple of their width): built with IB = that width, so that the panel
 * loop and the update's tile have no empty columns. Its IB need not divide j, so the update
 * reads no column at or beyond j (the blocks of the left-looking sum overhang j). */
#ifndef TAIL
#define TAIL 0
#endif
/* Whether column c of a block lies before j: always, but in the tail kernel. A macro, not
 * (!TAIL || c), whose constant operand of && makes clang print warnings on every build. */
#if TAIL
#define BEFORE_J(c) (c)
#else
#define BEFORE_J(c) 1
#endif

#if PRECISION_DOUBLE
typedef double4 REAL4;
#else
typedef float4 REAL4;
#endif

/* Element (i, j) of the lower factor in the stored triangle. */
#if UPPER
#define ELEM(A, lda, i, j) (A)[(j) + (i) * (lda)]
#else
#define ELEM(A, lda, i, j) (A)[(i) + (j) * (lda)]
#endif

/* Work-items per matrix: fixed at build time when every step uses the same shape (lets
 * the compiler see the row stride, and with LX = 1 vectorize over a work-item's rows). */
#ifdef LX
#define LANES LX
#else
#define LANES lx
#endif

/* Whole idle work-groups return at once (ETM-classic). PoCL 3.1 hangs on such a return
 * before barriers when a matrix has two work-items, so its backend builds with 0. */
#ifndef EARLY_EXIT
#define EARLY_EXIT 1
#endif

/* ETM-aggressive (variable-size batches, Abdelfattah et al. 2016, Sec. 4): work-items that
 * hold no row of their matrix (tx >= n-j) skip every load, store and flop of the step but
 * still pass its barriers, which must stay in uniform control flow. With 0 (the fixed-size
 * kernel, ETM-classic) they run the arithmetic on zeros and only their memory accesses
 * are masked. */
#ifndef ETM_AGGRESSIVE
#define ETM_AGGRESSIVE 0
#endif

/*
 * One step on one matrix of order n at Ab: panel columns j..j+ib-1, rows j..n-1.
 * P is this matrix's local memory, max(n-j, IB)*IB elements, of which it uses IB*IB (the
 * update's B operand, then two copies of a panel column). It holds barriers: every
 * work-item of the work-group must call it with the same group bound jg >= j (the
 * left-looking update runs k < jg), and the panel's column loop always runs IB columns. A matrix does nothing in an
 * iteration it does not have (k >= j, c >= ib) but pass its barriers, so that matrices at
 * different steps share a work-group (variable sizes). active = 0 makes a matrix go
 * through the barriers without touching memory (with n = 0 and jg = 0: IB barriers).
 * Returns 0, or j+c+1 when the pivot of panel column c fails (the panel is then not
 * written back).
 * Loops over a work-item's rows (r) are innermost: consecutive rows are consecutive in
 * memory for lower storage.
 */
inline int fused_step_group(__global REAL *Ab, const int lda, const int n, const int j,
                            int active, __local REAL *P, const int tx, const int lx,
                            const int jg)
{
    const int m = n - j;
    const int ib = min(IB, m);
    int status = 0;
    /* busy: this work-item works on a live matrix; IDLE: it skips the arithmetic too */
#if ETM_AGGRESSIVE
    int busy = active && tx < m;
#define IDLE (!busy)
#else
    int busy = active;
#define IDLE 0
#endif

    REAL rC[IB][RPT];
PRAGMA_UNROLL
    for (int c = 0; c < IB; c++)
PRAGMA_UNROLL
        for (int r = 0; r < RPT; r++) rC[c][r] = (REAL)0;

    if (jg > 0) {
        REAL rA[IB][RPT], rN[IB][RPT];
        __local REAL *sB = P; /* IB x IB, free until the panel is loaded */
        /* A panel narrower than IB: B's rows ib..IB-1 are zero (the update reads B's rows
         * four at a time and discards what the rows past ib give; zeroed so that no lane
         * reads local memory never written). Nothing else writes them before the panel. */
        if (ib < IB && (active || !ETM_AGGRESSIVE))
            for (int e = tx; e < IB * (IB - ib); e += LANES)
                sB[(e / (IB - ib)) * IB + ib + e % (IB - ib)] = (REAL)0;
PRAGMA_UNROLL
        for (int kk = 0; kk < IB; kk++)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++) {
                const int row = tx + r * LANES;
                rA[kk][r] = (busy && j > 0 && row < m && BEFORE_J(kk < j)) ? ELEM(Ab, lda, j + row, kk)
                                                                              : (REAL)0;
            }
        for (int k = 0; k < jg; k += IB) {
            const int has = k < j; /* this matrix has block column k to apply */
            barrier(CLK_LOCAL_MEM_FENCE);
            /* B = A(j:j+ib, k:k+IB): the first ib panel rows, already in registers */
            if (!IDLE && has)
PRAGMA_UNROLL
            for (int kk = 0; kk < IB; kk++)
PRAGMA_UNROLL
                for (int r = 0; r < RPT; r++) {
                    const int row = tx + r * LANES;
                    if (row < ib) sB[kk * IB + row] = rA[kk][r];
                }
            barrier(CLK_LOCAL_MEM_FENCE);
            const int kn = k + IB;
            if (kn < j)
PRAGMA_UNROLL
                for (int kk = 0; kk < IB; kk++)
PRAGMA_UNROLL
                    for (int r = 0; r < RPT; r++) {
                        const int row = tx + r * LANES;
                        rN[kk][r] = (busy && row < m && BEFORE_J(kn + kk < j)) ? ELEM(Ab, lda, j + row, kn + kk)
                                                                          : (REAL)0;
                    }
            /* C += A_k * B**T; columns c >= ib of C are never used. B's rows are read four
             * elements at a time where IB allows (one local load per four columns: with a
             * scalar load per column, local loads are half the update's instructions at
             * RPT = 2). P and B's rows start at multiples of IB elements from the kernels'
             * REAL4-typed local argument, so are aligned (typed REAL *, NVIDIA's driver did
             * not align it for REAL4 reads: the kernel faulted wherever the update ran). */
            if (!IDLE && has)
PRAGMA_UNROLL
            for (int kk = 0; kk < IB; kk++) {
#if IB % 4 == 0
PRAGMA_UNROLL
                for (int c = 0; c < IB; c += 4) {
                    const REAL4 b = ((__local const REAL4 *)sB)[(kk * IB + c) / 4];
PRAGMA_UNROLL
                    for (int r = 0; r < RPT; r++) {
                        rC[c][r] = mad(rA[kk][r], b.x, rC[c][r]);
                        rC[c + 1][r] = mad(rA[kk][r], b.y, rC[c + 1][r]);
                        rC[c + 2][r] = mad(rA[kk][r], b.z, rC[c + 2][r]);
                        rC[c + 3][r] = mad(rA[kk][r], b.w, rC[c + 3][r]);
                    }
                }
#else
PRAGMA_UNROLL
                for (int c = 0; c < IB; c++) {
                    const REAL b = sB[kk * IB + c];
PRAGMA_UNROLL
                    for (int r = 0; r < RPT; r++) rC[c][r] = mad(rA[kk][r], b, rC[c][r]);
                }
#endif
            }
PRAGMA_UNROLL
            for (int kk = 0; kk < IB; kk++)
PRAGMA_UNROLL
                for (int r = 0; r < RPT; r++) rA[kk][r] = rN[kk][r];
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone is done with sB before P is reused */
    }

    /* X = A(j:n, j:j+ib) - C, in registers (rC; the lower part of the diagonal block only) */
    if (busy)
PRAGMA_UNROLL
        for (int c = 0; c < IB; c++)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++) {
                const int row = tx + r * LANES;
                rC[c][r] = (c < ib && c <= row && row < m) ? ELEM(Ab, lda, j + row, j + c) - rC[c][r]
                                                           : (REAL)0;
            }

    /* POTF2 + TRSM in registers, right-looking over the panel's columns: the owners of the
     * diagonal block's rows c..ib-1 publish column c in local memory, one barrier, then
     * every work-item takes the pivot's square root, scales its rows of column c and
     * subtracts the outer product from its columns to the right. Column c's copy
     * alternates between two IB-element halves of P, so one barrier per column suffices:
     * column c+2 overwrites a half only after every work-item has passed column c+1's
     * barrier, hence finished reading column c. The loop runs to IB with its barrier
     * unconditional (unrolled on GPUs, so rC stays in registers; under `if (c < the group's
     * widest panel)` PoCL gave wrong factors to groups of several matrices); a matrix
     * skips the columns its panel lacks. */
PRAGMA_UNROLL
    for (int c = 0; c < IB; c++) {
        const int has = c < ib; /* this matrix's panel has column c */
        __local REAL *col = P + (c & 1) * IB;
        if (busy && has)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++) {
                const int row = tx + r * LANES;
                if (row >= c && row < ib) col[row] = rC[c][r];
            }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (!IDLE && has) {
            const REAL d = busy ? col[c] : (REAL)1; /* no one wrote col for a failed or idle matrix */
            if (busy && !PIVOT_OK(d)) {
                status = j + c + 1;
                busy = 0;
            }
            const REAL ld = busy ? sqrt(d) : (REAL)1;
            const REAL inv = (REAL)1 / ld;
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++) {
                const int row = tx + r * LANES;
                rC[c][r] = row == c ? ld : rC[c][r] * inv;
            }
PRAGMA_UNROLL
            for (int cc = c + 1; cc < IB; cc++) {
                const REAL u = busy && cc < ib ? col[cc] * inv : (REAL)0;
PRAGMA_UNROLL
                for (int r = 0; r < RPT; r++) rC[cc][r] = mad(-rC[c][r], u, rC[cc][r]);
            }
        }
    }

    if (busy)
PRAGMA_UNROLL
        for (int c = 0; c < IB; c++)
PRAGMA_UNROLL
            for (int r = 0; r < RPT; r++) {
                const int row = tx + r * LANES;
                if (c < ib && c <= row && row < m) ELEM(Ab, lda, j + row, j + c) = rC[c][r];
            }
    return status;
#undef IDLE
}

/* One step on one matrix: every work-item of the work-group calls it with the same j and
 * n (the fixed size), so the matrix's own loop bounds are the group's. */
inline int fused_step(__global REAL *Ab, const int lda, const int n, const int j, int active,
                      __local REAL *P, const int tx, const int lx)
{
    return fused_step_group(Ab, lda, n, j, active, P, tx, lx, j);
}

/*
 * Step j of the fixed-size batch: matrices b0 .. b0+count-1 of A (matrix b at
 * offset + b*stride). 1-D NDRange of work-groups of lx*TBC work-items; work holds
 * TBC * max(N-j, IB) * IB elements. info[b] is set at step 0 and on failure; a matrix whose
 * info is already non-zero is skipped.
 */
#ifdef LX
__attribute__((reqd_work_group_size(LX * TBC, 1, 1)))
#endif
__kernel void potrf_fused_step(__global REAL *A, const ulong offset, const int lda,
                               const ulong stride, __global int *info, const int j,
                               const ulong b0, const ulong count, __local REAL4 *work4)
{
    __local REAL *work = (__local REAL *)work4; /* REAL4-typed: aligned for the update's reads */
    const int lx = (int)get_local_size(0) / TBC;
    const int lid = (int)get_local_id(0);
    const int tx = lid % LANES, ty = lid / LANES;
    const ulong b = (ulong)get_group_id(0) * TBC + ty;
    const int live = b < count;
    __global REAL *Ab = A + offset + (live ? (b0 + b) * stride : 0);
    const int prior = (live && j > 0) ? info[b0 + b] : 0;
#if TBC == 1 && EARLY_EXIT
    if (!live || prior != 0) return; /* the whole work-group has nothing to do */
#endif
    const int m = N - j;
    __local REAL *P = work + ty * (max(m, IB) * IB);
    const int status = fused_step(Ab, lda, N, j, live && prior == 0, P, tx, lx);
    /* every work-item of the matrix has read its info (prior) before one writes it */
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (live && tx == 0 && (j == 0 || status != 0)) info[b0 + b] = status;
}
