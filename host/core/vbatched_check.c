/* Checks of a variable-size batch's per-matrix arrays, on the device (the host never reads
 * the arrays): a block reduction, a one-group scan of the block aggregates (for more than
 * CHECK_WG blocks), and the per-matrix flags. See cl_kernels/common/vbatched_check.cl for the
 * rules. */
#include "core/core.h"

static const char *const check_files[] = {"common/vbatched_check.cl", NULL};

#define CHECK_WG BCHOL__CHECK_WG
#define CHECK_BLOCK (BCHOL__CHECK_WG * BCHOL__CHECK_PER_ITEM)

void bchol__vcheck_options(bchol_options *o)
{
    bchol__options_add(o, "-D CHECK_WG=%d", BCHOL__CHECK_WG);
    bchol__options_add(o, "-D CHECK_PER_ITEM=%d", BCHOL__CHECK_PER_ITEM);
    bchol__options_add(o, "-D INFO_BAD_N=%d", BCHOL_INFO_BAD_N);
    bchol__options_add(o, "-D INFO_ABOVE_MAX_N=%d", BCHOL_INFO_ABOVE_MAX_N);
    bchol__options_add(o, "-D INFO_BAD_LDA=%d", BCHOL_INFO_BAD_LDA);
    bchol__options_add(o, "-D INFO_BAD_OFFSET=%d", BCHOL_INFO_BAD_OFFSET);
    bchol__options_add(o, "-D INFO_OVERLAP=%d", BCHOL_INFO_OVERLAP);
    bchol__options_add(o, "-D INFO_BAD_M=%d", BCHOL_INFO_BAD_M);
    bchol__options_add(o, "-D INFO_ABOVE_MAX_M=%d", BCHOL_INFO_ABOVE_MAX_M);
}

static bchol_status get_check_kernel(bchol_context *ctx, const char *name, cl_kernel *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__vcheck_options(&o);
    bchol_status st = bchol__get_kernel(ctx, check_files, &o, name, k);
    return st ? st : bchol__vcheck_fits(ctx, name, *k);
}

bchol_status bchol__vcheck_fits(bchol_context *ctx, const char *name, cl_kernel k)
{
    const size_t limit = bchol__kernel_wg_limit(ctx, k);
    if (limit < CHECK_WG)
        return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                           "variable-size checks: %s needs work-groups of %d work-items; the "
                           "device runs it with at most %zu",
                           name, CHECK_WG, limit);
    return BCHOL_SUCCESS;
}

static bchol_status launch_blocks(bchol_call *call, const char *name, cl_mem m, cl_mem n,
                                  cl_mem lda, cl_mem offsets, uint64_t a_elems, int max_m,
                                  int max_n, int64_t batch, const bchol_vcheck *vc, cl_mem info)
{
    cl_kernel k;
    bchol_status st;
    if ((st = get_check_kernel(call->ctx, name, &k))) return st;
    cl_ulong elems = a_elems, count = (cl_ulong)batch, blocks = vc->blocks, g0 = 0;
    cl_int mm = max_m, mx = max_n;
    bchol_arg args[] = {BCHOL_ARG(m),     BCHOL_ARG(n),      BCHOL_ARG(lda),
                        BCHOL_ARG(offsets), BCHOL_ARG(elems), BCHOL_ARG(mm),
                        BCHOL_ARG(mx),    BCHOL_ARG(count),  BCHOL_ARG(g0),
                        BCHOL_ARG(vc->scratch), BCHOL_ARG(blocks), BCHOL_ARG(info)};
    return bchol__launch_groups(call, k, args, info ? 12 : 11, 8, blocks, CHECK_WG);
}

bchol_status bchol__vcheck_reduce(bchol_call *call, bchol_vcheck *vc, cl_mem n, cl_mem lda,
                                  cl_mem offsets, uint64_t a_elems, int max_n, int64_t batch,
                                  int need_max_n)
{
    return bchol__vcheck_reduce_mn(call, vc, n, n, lda, offsets, a_elems, max_n, max_n, batch,
                                   need_max_n);
}

bchol_status bchol__vcheck_reduce_mn(bchol_call *call, bchol_vcheck *vc, cl_mem m, cl_mem n,
                                     cl_mem lda, cl_mem offsets, uint64_t a_elems, int max_m,
                                     int max_n, int64_t batch, int need_max_n)
{
    bchol_context *ctx = call->ctx;
    cl_int err;
    vc->blocks = ((uint64_t)batch + CHECK_BLOCK - 1) / CHECK_BLOCK;
    vc->scratch = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                 (size_t)(3 * vc->blocks + 1) * sizeof(cl_ulong), NULL, &err);
    if (!vc->scratch) return bchol__fail_cl(ctx, err, "vbatched checks: scratch buffer");
    /* One block has no carries to take from the others: unless the largest n is to be read
     * back, the flag kernel alone does the checks (one launch less for up to 512 matrices). */
    if (vc->blocks == 1 && !need_max_n) return BCHOL_SUCCESS;
    bchol_status st = launch_blocks(call, "vbatched_check_blocks", m, n, lda, offsets, a_elems,
                                    max_m, max_n, batch, vc, NULL);
    return st ? st : bchol__vcheck_scan(call, vc->scratch, vc->blocks);
}

bchol_status bchol__vcheck_scan(bchol_call *call, cl_mem scratch, uint64_t blocks)
{
    /* up to CHECK_WG blocks the flag kernels take the carries themselves (block_carries) */
    if (blocks <= CHECK_WG) return BCHOL_SUCCESS;
    cl_kernel scan;
    bchol_status st = get_check_kernel(call->ctx, "vbatched_check_scan", &scan);
    if (st) return st;
    size_t one = CHECK_WG;
    cl_ulong count = blocks;
    bchol_arg args[] = {BCHOL_ARG(scratch), BCHOL_ARG(count)};
    return bchol__launch(call, scan, 2, args, 1, &one, &one);
}

bchol_status bchol__vcheck_read_max_n(bchol_call *call, const bchol_vcheck *vc, int *max_n)
{
    int max_m;
    return bchol__vcheck_read_max_mn(call, vc, &max_m, max_n);
}

bchol_status bchol__vcheck_read_max_mn(bchol_call *call, const bchol_vcheck *vc, int *max_m,
                                       int *max_n)
{
    /* the scan's result, or without a scan the blocks' maxima (at most CHECK_WG of them) */
    cl_ulong v[CHECK_WG] = {0};
    const int scanned = vc->blocks > CHECK_WG;
    const size_t first = (size_t)(scanned ? 3 * vc->blocks : 2 * vc->blocks);
    const size_t count = scanned ? 1 : (size_t)vc->blocks;
    cl_event ev = NULL;
    cl_int err = bchol__read_wait(call->ctx->queue, vc->scratch, first * sizeof v[0],
                                  count * sizeof v[0], v, &ev);
    if (err) return bchol__fail_cl(call->ctx, err, "vbatched checks: reading the largest n");
    bchol__call_add_event(call, ev);
    /* each value packs the largest m (high half) and n (low half) */
    cl_ulong big_m = 0, big_n = 0;
    for (size_t i = 0; i < count; i++) {
        if ((v[i] >> 32) > big_m) big_m = v[i] >> 32;
        if ((v[i] & 0xffffffffu) > big_n) big_n = v[i] & 0xffffffffu;
    }
    *max_m = (int)big_m;
    *max_n = (int)big_n;
    return BCHOL_SUCCESS;
}

bchol_status bchol__vcheck_flag(bchol_call *call, const bchol_vcheck *vc, cl_mem n, cl_mem lda,
                                cl_mem offsets, uint64_t a_elems, int max_n, int64_t batch,
                                cl_mem info)
{
    return launch_blocks(call, "vbatched_check_flag", n, n, lda, offsets, a_elems, max_n, max_n,
                         batch, vc, info);
}

bchol_status bchol__vcheck_flag_mn(bchol_call *call, const bchol_vcheck *vc, cl_mem m, cl_mem n,
                                   cl_mem lda, cl_mem offsets, uint64_t a_elems, int max_m,
                                   int max_n, int64_t batch, cl_mem info)
{
    return launch_blocks(call, "vbatched_check_flag", m, n, lda, offsets, a_elems, max_m, max_n,
                         batch, vc, info);
}

void bchol__vcheck_release(bchol_vcheck *vc)
{
    /* OpenCL keeps the buffer until the commands that use it have finished. */
    if (vc->scratch) clReleaseMemObject(vc->scratch);
    vc->scratch = NULL;
}
