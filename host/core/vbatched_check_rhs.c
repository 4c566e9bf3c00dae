/* Device checks of a variable-size solve's right-hand-side arrays
 * (cl_kernels/common/vbatched_check_rhs.cl, built after vbatched_check.cl): blocks, the scan of
 * vbatched_check.cl, then flag, as the matrix checks do. */
#include "core/core.h"

#define CHECK_WG BCHOL__CHECK_WG
#define CHECK_BLOCK (BCHOL__CHECK_WG * BCHOL__CHECK_PER_ITEM)

static const char *const rhs_files[] = {"common/vbatched_check.cl", "common/vbatched_check_rhs.cl", NULL};

static bchol_status get_kernel(bchol_context *ctx, const char *name, cl_kernel *k) {
    bchol_options o;
    bchol__options_init(&o);
    bchol__vcheck_options(&o);
    bchol__options_add(&o, "-D INFO_BAD_NRHS=%d", BCHOL_INFO_BAD_NRHS);
    bchol__options_add(&o, "-D INFO_BAD_LDB=%d", BCHOL_INFO_BAD_LDB);
    bchol__options_add(&o, "-D INFO_BAD_OFFSET_B=%d", BCHOL_INFO_BAD_OFFSET_B);
    bchol__options_add(&o, "-D INFO_ABOVE_MAX_NRHS=%d", BCHOL_INFO_ABOVE_MAX_NRHS);
    bchol__options_add(&o, "-D INFO_OVERLAP_B=%d", BCHOL_INFO_OVERLAP_B);
    bchol_status st = bchol__get_kernel(ctx, rhs_files, &o, name, k);
    return st ? st : bchol__vcheck_fits(ctx, name, *k);
}

static bchol_status launch_blocks(bchol_call *call, const char *name, cl_mem n, cl_mem nrhs,
                                  cl_mem ldb, cl_mem offsets_b, uint64_t b_elems, int max_nrhs,
                                  int64_t batch, cl_mem scratch, uint64_t blocks, cl_mem info,
                                  cl_mem result) {
    cl_kernel k;
    bchol_status st;
    if ((st = get_kernel(call->ctx, name, &k))) return st;
    cl_ulong elems = b_elems, count = (cl_ulong)batch, nblocks = blocks, g0 = 0;
    cl_int mx = max_nrhs;
    bchol_arg args[] = {BCHOL_ARG(n),         BCHOL_ARG(nrhs),  BCHOL_ARG(ldb),
                        BCHOL_ARG(offsets_b), BCHOL_ARG(elems), BCHOL_ARG(mx),
                        BCHOL_ARG(count),     BCHOL_ARG(g0),    BCHOL_ARG(scratch),
                        BCHOL_ARG(nblocks),   BCHOL_ARG(info),  BCHOL_ARG(result)};
    return bchol__launch_groups(call, k, args, 12, 7, blocks, CHECK_WG);
}

bchol_status bchol__vcheck_rhs(bchol_call *call, cl_mem n, cl_mem nrhs, cl_mem ldb,
                               cl_mem offsets_b, uint64_t b_elems, int max_nrhs, int64_t batch,
                               cl_mem info, cl_mem result) {
    bchol_context *ctx = call->ctx;
    const uint64_t blocks = ((uint64_t)batch + CHECK_BLOCK - 1) / CHECK_BLOCK;
    cl_int err;
    cl_mem scratch = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                    (size_t)(3 * blocks + 1) * sizeof(cl_ulong), NULL, &err);
    if (!scratch) return bchol__fail_cl(ctx, err, "vbatched solve checks: scratch buffer");
    /* one block: no carries to take from others, the flag kernel alone (as for A), which
     * then writes the maxima itself; else the blocks kernel also zeroes them */
    bchol_status st = BCHOL_SUCCESS;
    if (blocks > 1)
        st = launch_blocks(call, "vbatched_check_rhs_blocks", n, nrhs, ldb, offsets_b, b_elems,
                           max_nrhs, batch, scratch, blocks, info, result);
    if (!st) st = bchol__vcheck_scan(call, scratch, blocks);
    if (!st)
        st = launch_blocks(call, "vbatched_check_rhs_flag", n, nrhs, ldb, offsets_b, b_elems,
                           max_nrhs, batch, scratch, blocks, info, result);
    clReleaseMemObject(scratch); /* OpenCL keeps it until the commands using it finish */
    return st;
}
