/* Driver of the blocked getrf on a variable-size batch (cl_kernels/lu/getrf_vbatched_blocked.cl),
 * for matrices beyond the fused kernel's local memory: right-looking LU with per-matrix
 * sizes read on the device, as the Cholesky vbatched separate path
 * (host/chol/potrf_vbatched_separate.c). The host knows only bounds max_m, max_n and max_k
 * (of min(m, n)): for each nb-wide block column j < min(max_m, max_n, max_k),
 *
 *   getrf_vb_panel       the panel of every matrix still at work, one work-group each
 *   getrf_vb_swap_trsm   interchanges outside the panel, U12; columns for the widest matrix
 *   getrf_vb_gemm        A22 -= L21*U12; tiles for the largest matrix's A22
 *
 * and the work-groups of matrices that are done, rejected, or the fused kernel's (m <=
 * lo_m and n <= lo_n) return at once. No workspace. */
#include "lu/lu.h"

static const char *const vb_files[] = {"common/common.cl", "lu/getrf_vbatched_blocked.cl", NULL};

typedef struct {
    cl_kernel panel, swap, gemm;
    size_t wg; /* work-items of the panel and swap kernels */
    int ts;    /* GEMM tile side: ts*ts work-items */
} vb_kernels;

/* The three kernels for nb, in the largest work-groups (WG 64, TS 16) the device takes
 * for every one of them. */
static bchol_status get_kernels(bchol_context *ctx, bchol_precision p, int nb, vb_kernels *k)
{
    static const char *const names[3] = {"getrf_vb_panel", "getrf_vb_swap_trsm", "getrf_vb_gemm"};
    for (int wg = 64, ts = 16;; wg /= 2, ts /= 2) {
        bchol_options o;
        bchol__options_init(&o);
        bchol__options_precision(&o, p);
        bchol__options_add(&o, "-D NB=%d", nb);
        bchol__options_add(&o, "-D WG=%d", wg);
        bchol__options_add(&o, "-D TS=%d", ts);
        if (ctx->backend->uniform_barrier_loops) bchol__options_add(&o, "-D UNIFORM_LOOPS=1");
        cl_kernel *ks[3] = {&k->panel, &k->swap, &k->gemm};
        int fit = 1;
        for (int i = 0; i < 3; i++) {
            bchol_status st = bchol__get_kernel(ctx, vb_files, &o, names[i], ks[i]);
            if (st) return st;
            const size_t want = i == 2 ? (size_t)ts * (size_t)ts : (size_t)wg;
            if (bchol__kernel_wg_limit(ctx, *ks[i]) < want) fit = 0;
        }
        if (fit) {
            k->wg = (size_t)wg;
            k->ts = ts;
            return BCHOL_SUCCESS;
        }
        if (ts == 1)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "getrf_vbatched: the blocked kernels run in no work-group size "
                               "on this device");
    }
}

bchol_status bchol__getrf_vbatched_blocked(bchol_call *call, bchol_precision p, int nb,
                                           int lo_m, int lo_n, int max_m, int max_n, int max_k,
                                           cl_mem m,
                                           cl_mem n, cl_mem lda, cl_mem offsets_a, cl_mem A,
                                           cl_mem offsets_p, cl_mem ipiv, int64_t batch,
                                           cl_mem info)
{
    bchol_context *ctx = call->ctx;
    int kmax = max_m < max_n ? max_m : max_n;
    if (kmax > max_k) kmax = max_k;
    if (kmax <= 0 || batch == 0 || (max_m <= lo_m && max_n <= lo_n)) return BCHOL_SUCCESS;
    vb_kernels k;
    bchol_status st = get_kernels(ctx, p, nb, &k);
    if (st) return st;
    const cl_ulong count = (cl_ulong)batch;
    cl_ulong g0 = 0;
    cl_int lm = lo_m, ln = lo_n;
    for (cl_int j = 0; j < kmax && !st; j += nb) {
        bchol_arg pa[] = {BCHOL_ARG(A),    BCHOL_ARG(offsets_a), BCHOL_ARG(m),
                          BCHOL_ARG(n),    BCHOL_ARG(lda),       BCHOL_ARG(info),
                          BCHOL_ARG(lm),   BCHOL_ARG(ln),        BCHOL_ARG(j),
                          BCHOL_ARG(ipiv), BCHOL_ARG(offsets_p), BCHOL_ARG(count),
                          BCHOL_ARG(g0)};
        if ((st = bchol__launch_groups(call, k.panel, pa, 13, 12, count, k.wg))) break;
        /* columns outside the panel: at most max_n - 1 (a matrix at work has jb >= 1) */
        cl_int tiles = bchol__ceil_div(max_n - 1, (int)k.wg);
        if (tiles > 0) {
            bchol_arg sa[] = {BCHOL_ARG(A),     BCHOL_ARG(offsets_a), BCHOL_ARG(m),
                              BCHOL_ARG(n),     BCHOL_ARG(lda),       BCHOL_ARG(info),
                              BCHOL_ARG(lm),    BCHOL_ARG(ln),        BCHOL_ARG(j),
                              BCHOL_ARG(ipiv),  BCHOL_ARG(offsets_p), BCHOL_ARG(tiles),
                              BCHOL_ARG(count), BCHOL_ARG(g0)};
            if ((st = bchol__launch_groups(call, k.swap, sa, 14, 13, count * (cl_ulong)tiles,
                                           k.wg)))
                break;
        }
        /* A22 is at most (max_m - j - 1) x (max_n - j - 1) */
        cl_int tm = bchol__ceil_div(max_m - j - 1, k.ts), tn = bchol__ceil_div(max_n - j - 1, k.ts);
        if (tm > 0 && tn > 0) {
            bchol_arg ga[] = {BCHOL_ARG(A),  BCHOL_ARG(offsets_a), BCHOL_ARG(m),     BCHOL_ARG(n),
                              BCHOL_ARG(lda), BCHOL_ARG(info),     BCHOL_ARG(lm),    BCHOL_ARG(ln),
                              BCHOL_ARG(j),  BCHOL_ARG(tm),        BCHOL_ARG(tn),    BCHOL_ARG(count),
                              BCHOL_ARG(g0)};
            st = bchol__launch_groups(call, k.gemm, ga, 13, 12,
                                      count * (cl_ulong)tm * (cl_ulong)tn,
                                      (size_t)k.ts * (size_t)k.ts);
        }
    }
    return st;
}
