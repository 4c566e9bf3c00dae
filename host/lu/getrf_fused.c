/* Driver of the fused getrf (cl_kernels/lu/getrf_fused.cl): each matrix whole in local
 * memory, factored in one launch. Builds the kernel for (m, n, lx, tbc, pivot, precision),
 * fits the work-group to the built kernel's limit, and launches the batch in slices. */
#include "lu/lu.h"

static const char *const fused_files[] = {"common/common.cl", "lu/getrf_fused.cl", NULL};

/* The matrix, and where the kernel pivots, the reduction's value and row per work-item. */
uint64_t bchol__getrf_fused_local_bytes(bchol_precision p, int m, int n, int lx)
{
    const uint64_t es = bchol__elem_size(p);
    return (uint64_t)m * (uint64_t)n * es + (uint64_t)lx * (es + sizeof(cl_int));
}

/* Work-items per matrix: one per row up to 64 rows (each owns rows tx, tx+lx, ... beyond),
 * so that the rank-1 update of a row runs on one work-item. Matrices per group: up to
 * about 32 work-items a group for small m, within local memory. Fields already set (a
 * getrf-fused tuning entry, BCHOL_GETRF's lx/tbc) are kept. */
void bchol__getrf_fused_params(const bchol_context *ctx, bchol_precision p, int m, int n,
                               bchol_getrf_params *prm)
{
    if (prm->lx <= 0) prm->lx = m < 64 ? m : 64;
    if (prm->tbc <= 0) {
        const uint64_t per = bchol__getrf_fused_local_bytes(p, m, n, prm->lx);
        const uint64_t fit = bchol__usable_local_mem(ctx) / (per ? per : 1);
        /* the backend's work-items per group (32 where it names none) */
        const int group = ctx->backend->getrf_group > 0 ? ctx->backend->getrf_group : 32;
        int want = prm->lx >= group ? 1 : group / prm->lx;
        prm->tbc = fit < (uint64_t)want ? (fit > 1 ? (int)fit : 1) : want;
    }
}

static bchol_status get_kernel(bchol_context *ctx, bchol_precision p, const bchol_getrf_params *prm,
                               int pivot, int m, int n, cl_kernel *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D M=%d", m);
    bchol__options_add(&o, "-D N=%d", n);
    bchol__options_add(&o, "-D LX=%d", prm->lx);
    bchol__options_add(&o, "-D TBC=%d", prm->tbc);
    bchol__options_add(&o, "-D PIVOT=%d", pivot);
    /* only where set: the plain fused programs keep their options (and cache keys) */
    if (prm->row0) bchol__options_add(&o, "-D ROW0=%d", prm->row0);
    if (prm->in_place) bchol__options_add(&o, "-D IN_PLACE=1");
    return bchol__get_kernel(ctx, fused_files, &o, "getrf_fused", k);
}

bchol_status bchol__getrf_fused(bchol_call *call, bchol_precision p, const bchol_getrf_params *params,
                                int pivot, int m, int n, cl_mem A, int64_t offset_a, int lda,
                                int64_t stride_a, cl_mem ipiv, int64_t offset_p, int64_t stride_p,
                                int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    bchol_getrf_params prm = *params;
    bchol__getrf_fused_params(ctx, p, m, n, &prm);
    if (prm.lx > m) prm.lx = m; /* a work-item without rows would only pass barriers */
    const uint64_t usable = bchol__usable_local_mem(ctx);
    const uint64_t need = prm.in_place ? (uint64_t)prm.tbc * (uint64_t)prm.lx * (bchol__elem_size(p) + sizeof(cl_int))
                                       : (uint64_t)prm.tbc * bchol__getrf_fused_local_bytes(p, m, n, prm.lx);
    if (need > usable)
        return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                           "getrf fused kernel: %d-by-%d matrices need %llu bytes of local "
                           "memory (lx = %d, tbc = %d); the device has %llu",
                           m, n, (unsigned long long)need, prm.lx, prm.tbc,
                           (unsigned long long)usable);

    /* The kernel is built for its work-group size (reqd_work_group_size): where the built
     * kernel takes fewer work-items, put fewer matrices in a group, then give each
     * work-item more rows, and build again. */
    cl_kernel kernel = NULL;
    bchol_status st;
    for (int tries = 0;; tries++) {
        if ((st = get_kernel(ctx, p, &prm, pivot, m, n, &kernel))) return st;
        const size_t limit = bchol__kernel_wg_limit(ctx, kernel);
        if ((size_t)prm.lx * (size_t)prm.tbc <= limit) break;
        if (tries == 8)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "getrf fused kernel: no work-group shape fits %d-by-%d matrices "
                               "(the kernel takes at most %zu work-items)",
                               m, n, limit);
        if (prm.tbc > 1) {
            const size_t fit = limit / (size_t)prm.lx;
            prm.tbc = fit > 1 ? (int)fit : 1;
        } else {
            prm.lx = (size_t)prm.lx / 2 < limit ? prm.lx / 2 : (int)limit;
            if (prm.lx < 1) prm.lx = 1;
        }
    }

    return bchol__getrf_launch(call, kernel, pivot, A, offset_a, lda, stride_a, ipiv, offset_p,
                               stride_p, batch, info, (size_t)prm.tbc,
                               (size_t)prm.lx * (size_t)prm.tbc);
}
