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

/* Kernel name of swap_files built with base's options and WG = 256 work-items, halved until
 * the built kernel takes its group (*wg). */
static bchol_status build_fitted(bchol_context *ctx, const bchol_options *base, const char *name,
                                 cl_kernel *k, size_t *wg)
{
    for (size_t g = 256;; g /= 2) {
        bchol_options o = *base;
        bchol__options_add(&o, "-D WG=%d", (int)g);
        bchol_status st = bchol__get_kernel(ctx, swap_files, &o, name, k);
        if (st) return st;
        if (bchol__kernel_wg_limit(ctx, *k) >= g || g == 1) {
            *wg = g;
            return BCHOL_SUCCESS;
        }
    }
}

/* getrf_swap_trsm with CW columns per group (32, fewer where the 2*nb rows of them do
 * not fit local memory) over 256 work-items, fewer where the built kernel takes fewer. */
static bchol_status swap_kernel(bchol_context *ctx, bchol_precision p, int nb, int pivot,
                                int left, cl_kernel *k, int *cw, size_t *wg)
{
    const uint64_t usable = bchol__usable_local_mem(ctx);
    int w = 32;
    while (w > 1 && (uint64_t)2 * nb * w * bchol__elem_size(p) + (uint64_t)5 * nb * sizeof(cl_int) > usable)
        w /= 2;
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D NB=%d", nb);
    bchol__options_add(&o, "-D CW=%d", w);
    bchol__options_add(&o, "-D PIVOT=%d", pivot);
    bchol__options_add(&o, "-D LEFT=%d", left);
    *cw = w;
    return build_fitted(ctx, &o, "getrf_swap_trsm", k, wg);
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
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D NB=%d", nb);
    bchol__options_add(&o, "-D MAXR=%d", m - nb);
    return build_fitted(ctx, &o, "getrf_swap_left", k, wg);
}

/* One level of the blocked loop: its getrf_swap_trsm kernel, that kernel's columns per
 * group and whether it moves the left columns' rows too (from column first of the call). */
typedef struct {
    int cw, left;
    size_t wg;
    cl_kernel swap;
} level;

/* The matrices' view every step shares. */
typedef struct {
    bchol_call *call;
    bchol_precision p;
    const bchol_getrf_choice *c;
    int pivot, m, n, lda;
    cl_mem A, ipiv, info;
    int64_t offset_a, stride_a, offset_p, stride_p, batch;
} matrices;

/* 1. the panel A(j:m, j:j+jb) by the fused kernel */
static bchol_status panel(const matrices *x, int j, int jb)
{
    bchol_context *ctx = x->call->ctx;
    const int mp = x->m - j;
    bchol_getrf_params prm = {0};
    prm.row0 = j;
    bchol__getrf_fused_params(ctx, x->p, mp, jb, &prm);
    if (x->c->panel_in_place ||
        (uint64_t)prm.tbc * bchol__getrf_fused_local_bytes(x->p, mp, jb, prm.lx) >
            bchol__usable_local_mem(ctx)) {
        prm.in_place = 1;
        prm.lx = bchol__min_int(mp, 64);
        prm.tbc = prm.lx >= 32 ? 1 : 32 / prm.lx;
    }
    return bchol__getrf_fused(x->call, x->p, &prm, x->pivot, mp, jb, x->A,
                              x->offset_a + (int64_t)j * x->lda + j, x->lda, x->stride_a, x->ipiv,
                              x->offset_p + j, x->stride_p, x->batch, x->info);
}

/* 2-3. block column j's interchanges on columns first .. end-1 outside it (with lv->left,
 * else only right of it) and U12 on those right of it; 4. A(j+jb:m, j+jb:end) -= L21 * U12 */
static bchol_status swap_update(const matrices *x, const level *lv, int j, int jb, int first,
                                int end)
{
    bchol_status st;
    const int moved = lv->left ? end - first - jb : end - j - jb; /* columns getrf_swap_trsm moves */
    if (moved > 0) {
        cl_mem A = x->A;
        cl_ulong off = (cl_ulong)x->offset_a, str = (cl_ulong)x->stride_a;
        cl_ulong off_p = x->pivot ? (cl_ulong)x->offset_p : 0, str_p = x->pivot ? (cl_ulong)x->stride_p : 0;
        cl_ulong count = (cl_ulong)x->batch, g0 = 0;
        cl_int l = x->lda, nn = end, jj = j, jjb = jb, ff = first, tiles = (moved - 1) / lv->cw + 1;
        cl_mem piv = x->pivot ? x->ipiv : NULL;
        bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off),  BCHOL_ARG(l),
                            BCHOL_ARG(str),   BCHOL_ARG(piv),  BCHOL_ARG(off_p),
                            BCHOL_ARG(str_p), BCHOL_ARG(nn),   BCHOL_ARG(jj),
                            BCHOL_ARG(jjb),   BCHOL_ARG(ff),   BCHOL_ARG(tiles),
                            BCHOL_ARG(count), BCHOL_ARG(g0)};
        if ((st = bchol__launch_groups(x->call, lv->swap, args, 14, 13,
                                       (uint64_t)x->batch * (uint64_t)tiles, lv->wg)))
            return st;
    }
    const int m2 = x->m - j - jb, n2 = end - j - jb;
    if (m2 <= 0 || n2 <= 0) return BCHOL_SUCCESS;
    const uint64_t o = (uint64_t)x->offset_a, s = (uint64_t)x->stride_a, ld = (uint64_t)x->lda;
    const bchol_gemm_operand L21 = {x->A, o + (uint64_t)j * ld + (uint64_t)(j + jb), s, x->lda};
    const bchol_gemm_operand U12 = {x->A, o + (uint64_t)(j + jb) * ld + (uint64_t)j, s, x->lda};
    const bchol_gemm_operand A22 = {x->A, o + (uint64_t)(j + jb) * ld + (uint64_t)(j + jb), s, x->lda};
    return x->c->gemm == BCHOL_GEMM_CLBLAST
               ? bchol__clblast_gemm(x->call, x->p, 'N', 'N', m2, n2, jb, -1.0, &L21, &U12, 1.0, &A22, x->batch)
               : bchol__gemm_batched(x->call, x->p, m2, n2, jb, -1.0, &L21, &U12, 1.0, &A22, x->batch);
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
    /* panels of nb columns factored as panels of ib (an inner level of the same steps
     * within the panel's columns, their interchanges on the panel's left columns at once)
     * where ib divides nb and the left interchanges wait: the fused kernel's time grows
     * with the square of its width */
    const int ib = c->ib > 0 && c->ib < nb && nb % c->ib == 0 && defer ? c->ib : 0;
    level outer = {0, !defer, 0, NULL}, inner = {0, 1, 0, NULL};
    cl_kernel left = NULL;
    size_t wg_left = 0;
    bchol_status st;
    if (n > bchol__min_int(nb, kmin) &&
        (st = swap_kernel(ctx, p, nb, pivot, !defer, &outer.swap, &outer.cw, &outer.wg)))
        return st;
    if (ib && (st = swap_kernel(ctx, p, ib, pivot, 1, &inner.swap, &inner.cw, &inner.wg))) return st;
    if (pivot && defer && (st = left_kernel(ctx, p, m, nb, &left, &wg_left))) return st;

    const matrices x = {call, p, c, pivot, m, n, lda, A, ipiv, info,
                        offset_a, stride_a, offset_p, stride_p, batch};
    for (int j = 0; j < kmin; j += nb) {
        const int jb = bchol__min_int(nb, kmin - j);
        if (ib) {
            for (int t = j; t < j + jb; t += ib) {
                const int tb = bchol__min_int(ib, j + jb - t);
                if ((st = panel(&x, t, tb)) || (st = swap_update(&x, &inner, t, tb, j, j + jb)))
                    return st;
            }
        } else if ((st = panel(&x, j, jb))) {
            return st;
        }
        if ((st = swap_update(&x, &outer, j, jb, 0, n))) return st;
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
