/* Driver of the workitem variant: one work-item per matrix factors it in place
 * (cl_kernels/chol/potrf_workitem.cl), the whole batch in one launch. */
#include "chol/chol.h"

static const char *const workitem_files[] = {"common/common.cl", "chol/potrf_workitem.cl", NULL};

bchol_status bchol__workitem_prepare(bchol_context *ctx, bchol_precision p, const bchol_params *prm,
                                     int upper, int n, cl_kernel *k) {
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D N=%d", n);
    bchol__options_add(&o, "-D NB=%d", prm->wnb);
    bchol__options_add(&o, "-D VW=%d", prm->wvec);
    bchol__options_add(&o, "-D MR=%d", prm->wmr);
    bchol__options_add(&o, "-D UPPER=%d", upper);
    return bchol__get_kernel(ctx, workitem_files, &o, "potrf_workitem", k);
}

bchol_status bchol__potrf_workitem(bchol_call *call, bchol_precision p, const bchol_params *params,
                                   int upper, int n, cl_mem A, int64_t offset, int lda,
                                   int64_t stride, int64_t batch, cl_mem info) {
    bchol_context *ctx = call->ctx;
    cl_kernel kernel;
    bchol_status st;
    if ((st = bchol__workitem_prepare(ctx, p, params, upper, n, &kernel))) return st;
    size_t local = (size_t)params->wgroup;
    const size_t limit = bchol__kernel_wg_limit(ctx, kernel);
    if (local > limit) local = limit > 0 ? limit : 1;
    /* the kernel skips work-items past count: the last group may be partial */
    const int64_t chunk = bchol__launch_batch_limit(ctx, (int64_t)local, local);
    cl_ulong off = (cl_ulong)offset, str = (cl_ulong)stride;
    cl_int ld = lda;
    for (int64_t first = 0; first < batch; first += chunk) {
        cl_ulong b0 = (cl_ulong)first;
        cl_ulong count = (cl_ulong)(batch - first < chunk ? batch - first : chunk);
        size_t global = (size_t)((count + local - 1) / local) * local;
        bchol_arg args[] = {BCHOL_ARG(A),    BCHOL_ARG(off), BCHOL_ARG(ld),   BCHOL_ARG(str),
                            BCHOL_ARG(info), BCHOL_ARG(b0),  BCHOL_ARG(count)};
        if ((st = bchol__launch(call, kernel, 7, args, 1, &global, &local))) return st;
    }
    return BCHOL_SUCCESS;
}
