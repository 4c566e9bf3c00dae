/* Driver of the regs getrf (cl_kernels/lu/getrf_regs.cl): a work-item per row, the row in
 * registers, two barriers per step; for small orders on GPUs (issue 30). Picks the
 * matrices per work-group, fits them to the device's work-group and local-memory limits,
 * and launches the batch in slices. */
#include "lu/lu.h"

static const char *const regs_files[] = {"common/common.cl", "lu/getrf_regs.cl", NULL};

/* Work-items a group aims at by default: several warps, so that a barrier of one matrix
 * leaves others to run (on the H200, 1-8 matrices a group cost within 10% of each other
 * from n = 24 and 128 work-items ran the small orders fastest). */
#define REGS_GROUP 128

/* Local memory of one matrix: the pivot keys (m) and the pivot row (n), each padded to
 * whole 16-byte vectors (the kernel reads them so). */
static uint64_t local_bytes(bchol_precision p, int m, int n)
{
    const uint64_t lv = 16 / bchol__elem_size(p);
    return ((((uint64_t)m + lv - 1) / lv) + (((uint64_t)n + lv - 1) / lv)) * 16;
}

int bchol__getrf_regs_fits(const bchol_context *ctx, bchol_precision p, int m, int n)
{
    return (size_t)m <= bchol__device_wg_limit(ctx) &&
           local_bytes(p, m, n) <= bchol__usable_local_mem(ctx);
}

bchol_status bchol__getrf_regs_check(bchol_context *ctx, const char *routine, bchol_precision p,
                                     int m, int n)
{
    if ((size_t)m > bchol__device_wg_limit(ctx))
        return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                           "%s: the regs LU kernel takes a work-item per row; %d rows are more "
                           "than the %zu work-items a work-group may have on this device",
                           routine, m, bchol__device_wg_limit(ctx));
    if (local_bytes(p, m, n) > bchol__usable_local_mem(ctx))
        return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                           "%s: the regs LU kernel's pivot keys and row for %d-by-%d matrices "
                           "need %llu bytes of local memory; the device has %llu",
                           routine, m, n, (unsigned long long)local_bytes(p, m, n),
                           (unsigned long long)bchol__usable_local_mem(ctx));
    return BCHOL_SUCCESS;
}

static bchol_status get_kernel(bchol_context *ctx, bchol_precision p, int pivot, int m, int n,
                               int tbc, cl_kernel *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D M=%d", m);
    bchol__options_add(&o, "-D N=%d", n);
    bchol__options_add(&o, "-D TBC=%d", tbc);
    bchol__options_add(&o, "-D PIVOT=%d", pivot);
    /* Vector reads of local memory: 1.04-1.16x at float n = 16, 24, 32, 64 and double n = 16
     * on the H200, within 3% at float 8 and 48, but 4x slower at float 96 (spills) and
     * 0.83-0.96x at double 32-64 (2026-11-27, docs/performance.md, LU). */
    const int vlocal = p == BCHOL_D ? n <= 16 : n <= 64;
    bchol__options_add(&o, "-D VLOCAL=%d", vlocal);
    /* Pivot keys compared as integers: 1.04-1.16x at float n = 8, 16, 48, 64 and double 8 on
     * the H200; 0.97-0.98x at float 32 and double 32-64, within 1% elsewhere (2026-11-27,
     * docs/performance.md, LU). Sizes between take the nearest measured one. */
    const int key_int = p == BCHOL_D ? n <= 12 : n <= 24 || (n > 40 && n <= 80);
    bchol__options_add(&o, "-D KEY_INT=%d", key_int);
    return bchol__get_kernel(ctx, regs_files, &o, "getrf_regs", k);
}

bchol_status bchol__getrf_regs(bchol_call *call, bchol_precision p, int tbc, int pivot, int m,
                               int n, cl_mem A, int64_t offset_a, int lda, int64_t stride_a,
                               cl_mem ipiv, int64_t offset_p, int64_t stride_p, int64_t batch,
                               cl_mem info)
{
    bchol_context *ctx = call->ctx;
    bchol_status st;
    if ((st = bchol__getrf_regs_check(ctx, "getrf regs kernel", p, m, n))) return st;
    /* matrices per group: the caller's, else about REGS_GROUP work-items (at most 64),
     * within the work-group and local-memory limits */
    const size_t wg = bchol__device_wg_limit(ctx);
    if (tbc <= 0) tbc = m >= REGS_GROUP ? 1 : REGS_GROUP / m;
    if (tbc > 64) tbc = 64;
    if ((size_t)tbc * (size_t)m > wg) tbc = (int)(wg / (size_t)m);
    const uint64_t fit = bchol__usable_local_mem(ctx) / local_bytes(p, m, n);
    if ((uint64_t)tbc > fit) tbc = (int)fit;

    /* The kernel is built for its work-group size (reqd_work_group_size): where the built
     * kernel takes fewer work-items, put fewer matrices in a group and build again. */
    cl_kernel kernel = NULL;
    for (;;) {
        if ((st = get_kernel(ctx, p, pivot, m, n, tbc, &kernel))) return st;
        const size_t limit = bchol__kernel_wg_limit(ctx, kernel);
        if ((size_t)m * (size_t)tbc <= limit) break;
        if (tbc == 1 || (size_t)m > limit)
            return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                               "getrf regs kernel: %d rows need as many work-items; the built "
                               "kernel takes at most %zu",
                               m, limit);
        tbc = (int)(limit / (size_t)m);
    }

    return bchol__getrf_launch(call, kernel, pivot, A, offset_a, lda, stride_a, ipiv, offset_p,
                               stride_p, batch, info, (size_t)tbc, (size_t)m * (size_t)tbc);
}
