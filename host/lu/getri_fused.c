/* Driver of getri_fused (cl_kernels/lu/getri.cl): dgetri's steps for small n in one launch,
 * a work-item a row (in registers), TBC matrices a work-group. One program per (n, TBC,
 * precision). */
#include "lu/getri.h"

static const char *const getri_files[] = {"common/common.cl", "lu/getri.cl", NULL};

/* Work-items a group aims at: enough rows of small matrices to fill a few warps. */
#define GROUP_ROWS 64

bchol_status bchol__getri_fused(bchol_call *call, bchol_precision p, int n, cl_mem A,
                                int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                int64_t offset_p, int64_t stride_p, cl_mem C, int64_t offset_c,
                                int ldc, int64_t stride_c, int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    int tbc = GROUP_ROWS / n > 1 ? GROUP_ROWS / n : 1;
    cl_kernel k = NULL;
    bchol_status st;
    /* fewer matrices a group where the built kernel takes fewer work-items */
    for (;;) {
        bchol_options o;
        bchol__options_init(&o);
        bchol__options_precision(&o, p);
        bchol__options_add(&o, "-D N=%d", n);
        bchol__options_add(&o, "-D TBC=%d", tbc);
        if ((st = bchol__get_kernel(ctx, getri_files, &o, "getri_fused", &k))) return st;
        if (bchol__kernel_wg_limit(ctx, k) >= (size_t)n * (size_t)tbc) break;
        if (tbc == 1)
            return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                               "getri fused kernel: %d work-items exceed the kernel's limit of %zu",
                               n, bchol__kernel_wg_limit(ctx, k));
        tbc /= 2;
    }
    cl_ulong off_a = (cl_ulong)offset_a, str_a = (cl_ulong)stride_a;
    cl_ulong off_p = (cl_ulong)offset_p, str_p = (cl_ulong)stride_p;
    cl_ulong off_c = (cl_ulong)offset_c, str_c = (cl_ulong)stride_c;
    cl_ulong count = (cl_ulong)batch, g0 = 0;
    cl_int ld_a = lda, ld_c = ldc;
    bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off_a), BCHOL_ARG(ld_a),  BCHOL_ARG(str_a),
                        BCHOL_ARG(ipiv),  BCHOL_ARG(off_p), BCHOL_ARG(str_p), BCHOL_ARG(C),
                        BCHOL_ARG(off_c), BCHOL_ARG(ld_c),  BCHOL_ARG(str_c), BCHOL_ARG(info),
                        BCHOL_ARG(count), BCHOL_ARG(g0)};
    const uint64_t groups = ((uint64_t)batch + (uint64_t)tbc - 1) / (uint64_t)tbc;
    return bchol__launch_groups(call, k, args, 14, 13, groups, (size_t)n * (size_t)tbc);
}
