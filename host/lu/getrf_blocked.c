/* Driver of the blocked getrf: right-looking LU with partial pivoting over the whole batch
 * (LAPACK dgetrf; Haidar et al. 2015, section 4 for LU), for matrices beyond the fused
 * kernel's local memory. For each nb-wide block column j < min(m, n), jb = min(nb,
 * min(m, n) - j):
 *
 *   panel            A(j:m, j:j+jb) = P*L*U by getrf_fused.cl on the (m-j)-by-jb panel
 *                    (ROW0 = j: pivots and info relative to the matrix), in local memory
 *                    where the panel fits, else in place in global memory
 *   getrf_swap_trsm  the panel's interchanges on the columns right of it (as one gather
 *                    of the <= 2*jb rows they permute), U12 = L11**-1 A12 in local memory
 *   GEMM             A22 -= L21 * U12 (bchol's gemm_batched or CLBlast's)
 *
 * and after the last panel getrf_swap_left: each panel's columns take the later panels'
 * interchanges at once, moved along the columns. Where rows m - nb do not fit local memory
 * for that, getrf_swap_trsm moves the left columns' rows at every panel instead (as
 * dgetrf). One program per panel height (the fused kernel's M), one for the swaps and
 * solve, one GEMM, one for the left interchanges. No workspace. Launches are split where
 * the grid would be too large. */
#include "lu/lu.h"
#include "blas/clblast_gemm.h"
#include "blas/gemm_batched.h"

static const char *const swap_files[] = {"common/common.cl", "lu/getrf_blocked.cl", NULL};

/* getrf_swap_trsm with CW columns per group (32, fewer where the 2*nb rows of them do
 * not fit local memory) over 256 work-items, fewer where the built kernel takes fewer. */
static bchol_status swap_kernel(bchol_context *ctx, bchol_precision p, int nb, int pivot,
                                int left, cl_kernel *k, int *cw, size_t *wg)
{
    const uint64_t usable = bchol__usable_local_mem(ctx);
    int w = 32;
    while (w > 1 && (uint64_t)2 * nb * w * bchol__elem_size(p) + (uint64_t)5 * nb * sizeof(cl_int) > usable)
        w /= 2;
    for (size_t g = 256;; g /= 2) {
        bchol_options o;
        bchol__options_init(&o);
        bchol__options_precision(&o, p);
        bchol__options_add(&o, "-D NB=%d", nb);
        bchol__options_add(&o, "-D CW=%d", w);
        bchol__options_add(&o, "-D WG=%d", (int)g);
        bchol__options_add(&o, "-D PIVOT=%d", pivot);
        bchol__options_add(&o, "-D LEFT=%d", left);
        bchol_status st = bchol__get_kernel(ctx, swap_files, &o, "getrf_swap_trsm", k);
        if (st) return st;
        if (bchol__kernel_wg_limit(ctx, *k) >= g || g == 1) {
            *cw = w;
            *wg = g;
            return BCHOL_SUCCESS;
        }
    }
}

/* Local memory of getrf_swap_left for rows rows: two int arrays and a column. */
static uint64_t left_bytes(bchol_precision p, int rows)
{
    return (uint64_t)rows * (2 * sizeof(cl_int) + bchol__elem_size(p));
}

/* getrf_swap_left for matrices of m rows, factored nb columns a panel (256 work-items,
 * fewer where the built kernel takes fewer). */
static bchol_status left_kernel(bchol_context *ctx, bchol_precision p, int m, int nb,
                                cl_kernel *k, size_t *wg)
{
    for (size_t g = 256;; g /= 2) {
        bchol_options o;
        bchol__options_init(&o);
        bchol__options_precision(&o, p);
        bchol__options_add(&o, "-D NB=%d", nb);
        bchol__options_add(&o, "-D MAXR=%d", m - nb);
        bchol__options_add(&o, "-D WG=%d", (int)g);
        bchol_status st = bchol__get_kernel(ctx, swap_files, &o, "getrf_swap_left", k);
        if (st) return st;
        if (bchol__kernel_wg_limit(ctx, *k) >= g || g == 1) {
            *wg = g;
            return BCHOL_SUCCESS;
        }
    }
}

bchol_status bchol__getrf_blocked(bchol_call *call, bchol_precision p, const bchol_getrf_choice *c,
                                  int pivot, int m, int n, cl_mem A, int64_t offset_a, int lda,
                                  int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    const int kmin = bchol__min_int(m, n), nb = c->nb;
    const uint64_t usable = bchol__usable_local_mem(ctx);
    const uint64_t need = (uint64_t)2 * nb * bchol__elem_size(p) + (uint64_t)5 * nb * sizeof(cl_int);
    if (need > usable)
        return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                           "getrf blocked variant: nb = %d needs %llu bytes of local memory; the "
                           "device has %llu", nb, (unsigned long long)need, (unsigned long long)usable);
    /* the left columns' interchanges after the last panel, where there are any and rows
     * m - nb fit local memory (nopiv has none: its left columns are never touched) */
    const int defer = !pivot || (!c->swaps_each && kmin > nb && left_bytes(p, m - nb) <= usable);
    cl_kernel swap = NULL, left = NULL;
    int cw = 0;
    size_t wg = 0, wg_left = 0;
    bchol_status st;
    if (n > bchol__min_int(nb, kmin) &&
        (st = swap_kernel(ctx, p, nb, pivot, !defer, &swap, &cw, &wg)))
        return st;
    if (pivot && defer && (st = left_kernel(ctx, p, m, nb, &left, &wg_left))) return st;

    const uint64_t ld = (uint64_t)lda;
    for (int j = 0; j < kmin; j += nb) {
        const int jb = bchol__min_int(nb, kmin - j), mp = m - j;
        /* 1. the panel */
        bchol_getrf_params prm = {0};
        prm.row0 = j;
        bchol__getrf_fused_params(ctx, p, mp, jb, &prm);
        if (c->panel_in_place ||
            (uint64_t)prm.tbc * bchol__getrf_fused_local_bytes(p, mp, jb, prm.lx) > usable) {
            prm.in_place = 1;
            prm.lx = bchol__min_int(mp, 64);
            prm.tbc = prm.lx >= 32 ? 1 : 32 / prm.lx;
        }
        if ((st = bchol__getrf_fused(call, p, &prm, pivot, mp, jb, A,
                                     offset_a + (int64_t)j * lda + j, lda, stride_a, ipiv,
                                     offset_p + j, stride_p, batch, info)))
            return st;
        /* 2-3. interchanges outside the panel, U12 */
        const int moved = defer ? n - j - jb : n - jb; /* columns getrf_swap_trsm moves */
        if (moved > 0) {
            cl_ulong off = (cl_ulong)offset_a, str = (cl_ulong)stride_a;
            cl_ulong off_p = pivot ? (cl_ulong)offset_p : 0, str_p = pivot ? (cl_ulong)stride_p : 0;
            cl_ulong count = (cl_ulong)batch, g0 = 0;
            cl_int l = lda, nn = n, jj = j, jjb = jb, tiles = (moved - 1) / cw + 1;
            cl_mem piv = pivot ? ipiv : NULL;
            bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off),  BCHOL_ARG(l),
                                BCHOL_ARG(str),   BCHOL_ARG(piv),  BCHOL_ARG(off_p),
                                BCHOL_ARG(str_p), BCHOL_ARG(nn),   BCHOL_ARG(jj),
                                BCHOL_ARG(jjb),   BCHOL_ARG(tiles), BCHOL_ARG(count),
                                BCHOL_ARG(g0)};
            if ((st = bchol__launch_groups(call, swap, args, 13, 12,
                                           (uint64_t)batch * (uint64_t)tiles, wg)))
                return st;
        }
        /* 4. A22 -= L21 * U12 */
        const int m2 = m - j - jb, n2 = n - j - jb;
        if (m2 > 0 && n2 > 0) {
            const uint64_t o = (uint64_t)offset_a, s = (uint64_t)stride_a;
            const bchol_gemm_operand L21 = {A, o + (uint64_t)j * ld + (uint64_t)(j + jb), s, lda};
            const bchol_gemm_operand U12 = {A, o + (uint64_t)(j + jb) * ld + (uint64_t)j, s, lda};
            const bchol_gemm_operand A22 = {A, o + (uint64_t)(j + jb) * ld + (uint64_t)(j + jb), s, lda};
            st = c->gemm == BCHOL_GEMM_CLBLAST
                     ? bchol__clblast_gemm(call, p, 'N', 'N', m2, n2, jb, -1.0, &L21, &U12, 1.0, &A22, batch)
                     : bchol__gemm_batched(call, p, m2, n2, jb, -1.0, &L21, &U12, 1.0, &A22, batch);
            if (st) return st;
        }
    }
    /* 5. the left columns' interchanges: every panel but the last */
    if (left) {
        cl_ulong off = (cl_ulong)offset_a, str = (cl_ulong)stride_a;
        cl_ulong off_p = (cl_ulong)offset_p, str_p = (cl_ulong)stride_p;
        cl_ulong count = (cl_ulong)batch, g0 = 0;
        cl_int l = lda, mm = m, kk = kmin, panels = (kmin - 1) / nb;
        bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off), BCHOL_ARG(l),      BCHOL_ARG(str),
                            BCHOL_ARG(ipiv),  BCHOL_ARG(off_p), BCHOL_ARG(str_p), BCHOL_ARG(mm),
                            BCHOL_ARG(kk),    BCHOL_ARG(panels), BCHOL_ARG(count), BCHOL_ARG(g0)};
        if ((st = bchol__launch_groups(call, left, args, 12, 11, (uint64_t)batch * (uint64_t)panels,
                                       wg_left)))
            return st;
    }
    return BCHOL_SUCCESS;
}
