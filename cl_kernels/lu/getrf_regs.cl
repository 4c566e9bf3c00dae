/* Batched LU with partial pivoting (LAPACK getf2, unblocked right-looking), each row in the
 * registers of one work-item, for small orders on GPUs.
 *
 * Work-item i of a matrix holds row i of the matrix in a private array r[N], only ever
 * indexed by compile-time constants (the loops over columns and over k unroll fully).
 * Rows are never moved: each work-item keeps pos, the place its row has reached after the
 * interchanges so far (LAPACK's order), and writes its row there at the end. Column k =
 * 0 .. min(M, N)-1:
 *   1. every work-item whose row is not yet a pivot row (pos >= k) writes |r(k)| to the
 *      key buffer at index pos, NaN and infinities above every finite value;
 *   2. after a barrier, every work-item scans keys k..M-1 itself and finds the pivot's
 *      place q: the first largest key (LAPACK's idamax order: rows in their current order,
 *      the first on ties). No reduction, no broadcast;
 *   3. the work-item at q writes its row (columns k..N-1) to local memory and ipiv(k) =
 *      q + 1; rows k and q swap places (the two work-items update pos);
 *   4. after a second barrier, every row below (pos > k) forms its multiplier l = r(k) /
 *      u(k) (by the reciprocal where |u(k)| >= the smallest normal number, divided
 *      otherwise, as dgetf2; a zero pivot scales nothing) and updates r(j) -= l * u(j),
 *      j > k.
 * The keys are next written after the second barrier, and the pivot row after the first
 * barrier of the next step, when every reader of the previous ones is done: one buffer of
 * each serves every step. info is the first k+1 where u(k) is zero or not finite; the
 * factorization goes on.
 *
 * VLOCAL = 1 reads local memory in vectors of 16 bytes (LV elements, compile-time
 * indices): the scan's keys and the update's pivot row are broadcast reads, one load per
 * element otherwise. The vectors' extra registers cost more than the loads saved at the
 * larger orders (host/lu/getrf_regs.c picks). Each matrix's keys and row are padded to
 * whole vectors.
 *
 * M work-items a matrix, TBC matrices a work-group. Loads and stores go straight between
 * global memory and registers: consecutive work-items touch consecutive rows of a column;
 * a barrier fencing global memory orders every load before the stores.
 * Lanes past the batch run on zeros, take part in every barrier and touch no global memory.
 *
 * Build macros: M, N (rows, columns), TBC, PIVOT (1: partial pivoting; 0: getrf_nopiv, q =
 * k), VLOCAL (0/1), UNROLL and REAL/PRECISION_DOUBLE (common.cl).
 */
#ifndef M
#define M 8
#endif
#ifndef N
#define N 8
#endif
#ifndef TBC
#define TBC 1
#endif
#ifndef PIVOT
#define PIVOT 1
#endif

#define K (M < N ? M : N)

#ifndef VLOCAL
#define VLOCAL 1
#endif
/* KEY_INT = 1 compares the keys as integers: the bits of a non-negative float or double
 * order as the values do (PIVOT_KEY leaves no NaN and no -0), and the same pivot is found;
 * faster at some orders, slower at others (host/lu/getrf_regs.c picks). */
#ifndef KEY_INT
#define KEY_INT 1
#endif

/* A key as stored and compared (KVEC: LV of them) */
#if !KEY_INT
typedef REAL KEY;
#define AS_KEY(x) (x)
#elif PRECISION_DOUBLE
typedef long KEY;
#define AS_KEY(x) as_long(x)
#else
typedef int KEY;
#define AS_KEY(x) as_int(x)
#endif
/* 16-byte vectors of local memory (LV elements; one with VLOCAL = 0: scalar reads);
 * LANE(w, e) is element e (a constant) of one. */
#if !VLOCAL
#define LV 1
typedef REAL LVEC;
typedef KEY KVEC;
#define LANE(w, e) (w)
#define MAKE_LVEC(f, v) (f(v))
#elif PRECISION_DOUBLE
#define LV 2
typedef double2 LVEC;
#if KEY_INT
typedef long2 KVEC;
#else
typedef double2 KVEC;
#endif
#define LANE(w, e) ((e) == 0 ? (w).s0 : (w).s1)
#define MAKE_LVEC(f, v) ((LVEC)(f((v) * LV), f((v) * LV + 1)))
#else
#define LV 4
typedef float4 LVEC;
#if KEY_INT
typedef int4 KVEC;
#else
typedef float4 KVEC;
#endif
#define LANE(w, e) ((e) == 0 ? (w).s0 : (e) == 1 ? (w).s1 : (e) == 2 ? (w).s2 : (w).s3)
#define MAKE_LVEC(f, v) ((LVEC)(f((v) * LV), f((v) * LV + 1), f((v) * LV + 2), f((v) * LV + 3)))
#endif
#define MV ((M + LV - 1) / LV)
#define NV ((N + LV - 1) / LV)
/* r(j) for the pivot row's vectors; the padding past column N-1 (never read) repeats r(0) */
#define ROW_ELEM(j) r[(j) < N ? (j) : 0]

/*
 * Matrix b of the batch at A + offset + b*stride (leading dimension lda), its pivots at
 * ipiv + offset_p + b*stride_p (unused where PIVOT = 0), info[b]. Work-group g0 + g holds
 * matrices (g0 + g)*TBC .. +TBC-1 of the batch's count.
 */
__attribute__((reqd_work_group_size(M * TBC, 1, 1)))
__kernel void getrf_regs(__global REAL *A, const ulong offset, const int lda, const ulong stride,
                         __global int *ipiv, const ulong offset_p, const ulong stride_p,
                         __global int *info, const ulong count, const ulong g0)
{
#if PIVOT
    __local KVEC sKey[TBC][MV]; /* |a(., k)| by place */
#endif
    __local LVEC sU[TBC][NV]; /* the pivot row */
    const int lid = (int)get_local_id(0);
    const int tx = lid % M, ty = lid / M;
    const ulong b = (g0 + get_group_id(0)) * TBC + ty;
    const int live = b < count;
    __global REAL *Ab = A + offset + (live ? b * stride : 0);
#if PIVOT
    __global int *Pb = ipiv + offset_p + (live ? b * stride_p : 0);
    __local KVEC *keyv = sKey[ty];
    __local KEY *key = (__local KEY *)keyv;
#endif
    __local LVEC *uv = sU[ty];

    REAL r[N];
    PRAGMA_UNROLL
    for (int j = 0; j < N; j++) r[j] = live ? Ab[tx + j * lda] : (REAL)0;

    int pos = tx, status = 0;
    PRAGMA_UNROLL
    for (int k = 0; k < K; k++) {
        int q = k;
#if PIVOT
        /* 1, 2. the pivot's place: the first largest of keys k .. M-1 (keys are >= 0) */
        if (pos >= k) key[pos] = AS_KEY(PIVOT_KEY(r[k]));
        barrier(CLK_LOCAL_MEM_FENCE);
        KEY best = (KEY)-1;
        PRAGMA_UNROLL
        for (int v = k / LV; v < MV; v++) {
            const KVEC w = keyv[v];
            PRAGMA_UNROLL
            for (int e = 0; e < LV; e++) {
                const int i = v * LV + e;
                if (i >= k && i < M && LANE(w, e) > best) {
                    best = LANE(w, e);
                    q = i;
                }
            }
        }
#endif
        /* 3. the pivot row to every work-item, the two rows' places exchanged */
        if (pos == q) {
            PRAGMA_UNROLL
            for (int v = k / LV; v < NV; v++) uv[v] = MAKE_LVEC(ROW_ELEM, v);
#if PIVOT
            if (live) Pb[k] = q + 1;
#endif
        }
#if PIVOT
        pos = pos == q ? k : pos == k ? q : pos;
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        /* 4. the multiplier and the rank-1 update of the rows below */
        const LVEC wk = uv[k / LV];
        const REAL d = LANE(wk, k % LV);
        if (status == 0 && !(d != (REAL)0 && IS_FINITE(d))) status = k + 1;
        if (pos > k) {
            REAL l = r[k];
            if (fabs(d) >= SFMIN)
                l *= (REAL)1 / d;
            else if (d != (REAL)0)
                l /= d;
            r[k] = l;
            PRAGMA_UNROLL
            for (int v = k / LV; v < NV; v++) {
                const LVEC w = uv[v];
                PRAGMA_UNROLL
                for (int e = 0; e < LV; e++) {
                    const int j = v * LV + e;
                    if (j > k && j < N) r[j] -= l * LANE(w, e);
                }
            }
        }
#if !PIVOT
        /* u is rewritten at the next step: every reader first */
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
    }

    /* a row goes where another work-item's row was read: every read first (the steps'
     * barriers fence local memory only) */
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (live) {
        PRAGMA_UNROLL
        for (int j = 0; j < N; j++) Ab[pos + j * lda] = r[j];
        if (tx == 0) info[b] = status;
    }
}
