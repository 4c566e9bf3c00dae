/* Driver of the fused left-looking variant: builds the kernel for (n, ib, tbc, rpt, uplo,
 * precision), fits the work-group to the device, and enqueues one launch per panel. */
#include "chol/chol.h"

static const char *const fused_files[] = {"common/common.cl", "chol/potrf_fused.cl", NULL};


/* A panel is ib columns of the rows left, and never fewer than ib rows: the kernel keeps
 * the diagonal block there. The variable-size kernel also keeps each matrix's bounds. */
uint64_t bchol__fused_local_bytes(bchol_precision p, int rows, int ib, int vbatched)
{
    const uint64_t panel = (uint64_t)(rows > ib ? rows : ib) * (uint64_t)ib * bchol__elem_size(p);
    return panel + (vbatched ? 2 * sizeof(cl_int) : 0);
}

int bchol__fused_fit_tbc(const bchol_context *ctx, bchol_precision p, int rows, int ib,
                         int vbatched, int want)
{
    const uint64_t per = bchol__fused_local_bytes(p, rows, ib, vbatched);
    const uint64_t fit = per ? bchol__usable_local_mem(ctx) / per : 0;
    return fit < (uint64_t)want ? (fit > 1 ? (int)fit : 1) : want;
}

bchol_status bchol__fused_ib_buildable(bchol_context *ctx, bchol_precision p, int ib)
{
    if (p == BCHOL_D && ib == ctx->backend->broken_fused_ib_d)
        return bchol__fail(ctx, BCHOL_ERR_BUILD,
                           "fused kernel: ib = %d in double is not built on this device: its "
                           "OpenCL compiler aborts on that kernel (%s); any other ib up to 32 builds",
                           ib, ctx->info.platform);
    return BCHOL_SUCCESS;
}

/* Local memory of a work-group: tbc matrices' panels of m rows. */
static size_t local_bytes(bchol_precision p, const bchol_params *prm, int m)
{
    return (size_t)prm->tbc * (size_t)bchol__fused_local_bytes(p, m, prm->ib, 0);
}

int bchol__fused_max_n(const bchol_context *ctx, bchol_precision p, const bchol_params *prm)
{
    /* the inverse of local_bytes(p, prm, n) <= usable local memory */
    uint64_t per_row = (uint64_t)prm->tbc * (uint64_t)prm->ib * bchol__elem_size(p);
    uint64_t n = per_row ? bchol__usable_local_mem(ctx) / per_row : 0;
    /* a panel takes max(n, ib) rows: if ib rows do not fit, no n does */
    if (n < (uint64_t)prm->ib) return 0;
    return n > 1000000 ? 1000000 : (int)n;
}

/* The kernel for panels of ib columns (prm->ib, or the last panel's narrower width with
 * tail = 1); the work-group shape and the rest from prm. */
static bchol_status get_fused_kernel(bchol_context *ctx, bchol_precision p,
                                     const bchol_params *prm, int ib, int tail, int upper, int n,
                                     cl_kernel *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D N=%d", n);
    bchol__options_add(&o, "-D IB=%d", ib);
    bchol__options_add(&o, "-D TBC=%d", prm->tbc);
    bchol__options_add(&o, "-D RPT=%d", prm->rpt);
    bchol__options_add(&o, "-D UPPER=%d", upper);
    if (tail) bchol__options_add(&o, "-D TAIL=1");
    if (prm->shape == BCHOL_SHAPE_FIXED) bchol__options_add(&o, "-D LX=%d", bchol__ceil_div(n, prm->rpt));
    return bchol__get_kernel(ctx, fused_files, &o, "potrf_fused_step", k);
}

/* The width the last panel's kernel is built for: ib where ib divides n, else the panel's
 * width rounded up to a multiple of 4 (PoCL 3.1's compiler aborts on this kernel with
 * IB = 2 in double: "Incoming edges to non-entry block!"). */
static int last_width(int n, int ib)
{
    const int w = (n - (n - 1) / ib * ib + 3) / 4 * 4;
    return w < ib ? w : ib;
}

bchol_status bchol__fused_prepare(bchol_context *ctx, bchol_precision p, bchol_params *prm,
                                  int upper, int n, cl_kernel *kernel, cl_kernel *tail)
{
    bchol_status st;
    if ((st = bchol__fused_ib_buildable(ctx, p, prm->ib))) return st;
    if (local_bytes(p, prm, n) > bchol__usable_local_mem(ctx))
        return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                           "fused kernel: n = %d needs %zu bytes of local memory (ib = %d, "
                           "tbc = %d); the device has %llu",
                           n, local_bytes(p, prm, n), prm->ib, prm->tbc,
                           (unsigned long long)bchol__usable_local_mem(ctx));

    /* The first step has the most rows. If the built kernel takes fewer work-items than
     * that needs, give each work-item more rows, or put fewer matrices in a group. */
    size_t want;
    for (int tries = 0;; tries++) {
        if ((st = get_fused_kernel(ctx, p, prm, prm->ib, 0, upper, n, kernel))) return st;
        size_t limit = bchol__kernel_wg_limit(ctx, *kernel);
        want = (size_t)bchol__ceil_div(n, prm->rpt) * (size_t)prm->tbc;
        if (want <= limit) break;
        if (tries == 8)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "fused kernel: no work-group shape fits n = %d (the kernel "
                               "takes at most %zu work-items)",
                               n, limit);
        if (prm->tbc > 1) {
            size_t fit = limit / (size_t)bchol__ceil_div(n, prm->rpt);
            prm->tbc = fit > 1 ? (int)fit : 1;
        } else {
            prm->rpt = prm->rpt * 2 > bchol__ceil_div(n, (int)limit) ? prm->rpt * 2 : bchol__ceil_div(n, (int)limit);
        }
    }
    /* A narrower last panel gets its own kernel (potrf_fused.cl, TAIL): with the panel's
     * width built in, its step skips the empty columns' barriers and flops. Where that
     * kernel takes fewer work-items than the shape needs, the last step runs the other. */
    *tail = NULL;
    const int w = last_width(n, prm->ib);
    if (w != prm->ib) {
        cl_kernel k;
        if ((st = get_fused_kernel(ctx, p, prm, w, 1, upper, n, &k))) return st;
        if (want <= bchol__kernel_wg_limit(ctx, k)) *tail = k;
    }
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrf_fused(bchol_call *call, bchol_precision p, const bchol_params *params,
                                int upper, int n, cl_mem A, int64_t offset, int lda,
                                int64_t stride, int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    bchol_params prm = *params;
    cl_kernel kernel = NULL, tail = NULL;
    bchol_status st;
    if ((st = bchol__fused_prepare(ctx, p, &prm, upper, n, &kernel, &tail))) return st;

    const int lx_first = bchol__ceil_div(n, prm.rpt);
    /* the last, narrower panel's step: the tail kernel, built for its width */
    bchol_params last_step = prm;
    last_step.ib = last_width(n, prm.ib);
    const int64_t chunk = bchol__launch_batch_limit(ctx, prm.tbc, (size_t)lx_first * prm.tbc);
    cl_ulong off = (cl_ulong)offset, str = (cl_ulong)stride;
    cl_int ld = lda;
    for (int64_t first = 0; first < batch; first += chunk) {
        cl_ulong b0 = (cl_ulong)first;
        cl_ulong count = (cl_ulong)(batch - first < chunk ? batch - first : chunk);
        size_t groups = (size_t)((count + (cl_ulong)prm.tbc - 1) / (cl_ulong)prm.tbc);
        for (cl_int j = 0; j < n; j += prm.ib) {
            const int m = n - j;
            const int lx = prm.shape == BCHOL_SHAPE_FIXED ? lx_first : bchol__ceil_div(m, prm.rpt);
            const int last = m < prm.ib && tail;
            size_t local = (size_t)lx * (size_t)prm.tbc;
            size_t global = groups * local;
            bchol_arg args[] = {BCHOL_ARG(A),   BCHOL_ARG(off), BCHOL_ARG(ld),
                                BCHOL_ARG(str), BCHOL_ARG(info), BCHOL_ARG(j),
                                BCHOL_ARG(b0),  BCHOL_ARG(count),
                                BCHOL_LOCAL(local_bytes(p, last ? &last_step : &prm, m))};
            if ((st = bchol__launch(call, last ? tail : kernel, 9, args, 1, &global, &local)))
                return st;
        }
    }
    return BCHOL_SUCCESS;
}
