/* Device checks of a variable-size solve's right-hand-side arrays
 * (cl_kernels/vbatched_check_rhs.cl): one work-item per matrix, after the matrix checks. */
#include "internal.h"

#define CHECK_WG 64

static const char *const rhs_files[] = {"vbatched_check_rhs.cl", NULL};

bchol_status bchol__vcheck_rhs(bchol_call *call, cl_mem n, cl_mem nrhs, cl_mem ldb,
                               cl_mem offsets_b, uint64_t b_elems, int max_nrhs, int64_t batch,
                               cl_mem info, cl_mem result)
{
    bchol_context *ctx = call->ctx;
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_add(&o, "-D INFO_BAD_NRHS=%d", BCHOL_INFO_BAD_NRHS);
    bchol__options_add(&o, "-D INFO_BAD_LDB=%d", BCHOL_INFO_BAD_LDB);
    bchol__options_add(&o, "-D INFO_BAD_OFFSET_B=%d", BCHOL_INFO_BAD_OFFSET_B);
    bchol__options_add(&o, "-D INFO_ABOVE_MAX_NRHS=%d", BCHOL_INFO_ABOVE_MAX_NRHS);
    cl_kernel k;
    bchol_status st;
    if ((st = bchol__get_kernel(ctx, rhs_files, &o, "vbatched_check_rhs", &k))) return st;
    if ((st = bchol__fill_int(call, result, 0, 2))) return st;
    const int64_t per_launch = bchol__launch_batch_limit(ctx, CHECK_WG, CHECK_WG);
    cl_ulong elems = b_elems;
    cl_int mx = max_nrhs;
    for (int64_t first = 0; first < batch; first += per_launch) {
        cl_ulong b0 = (cl_ulong)first;
        cl_ulong count = (cl_ulong)(batch - first < per_launch ? batch - first : per_launch);
        size_t local = CHECK_WG;
        size_t global = (size_t)((count + CHECK_WG - 1) / CHECK_WG) * CHECK_WG;
        bchol_arg args[] = {BCHOL_ARG(n),  BCHOL_ARG(nrhs),  BCHOL_ARG(ldb),   BCHOL_ARG(offsets_b),
                            BCHOL_ARG(elems), BCHOL_ARG(mx), BCHOL_ARG(b0), BCHOL_ARG(count),
                            BCHOL_ARG(info), BCHOL_ARG(result)};
        if ((st = bchol__launch(call, k, 10, args, 1, &global, &local))) return st;
    }
    return BCHOL_SUCCESS;
}
