/* Driver of the workitem variant: one work-item per matrix factors it in place
 * (cl_kernels/chol/potrf_workitem.cl), the whole batch in one launch; strided batches and
 * variable sizes. */
#include "chol/chol.h"

static const char *const workitem_files[] = {"common/common.cl", "common/vector.cl", "chol/potrf_workitem.cl", NULL};

/* n > 0: the fixed-size kernel of order n; 0: the variable-size one. */
static bchol_status prepare(bchol_context *ctx, bchol_precision p, const bchol_params *prm,
                            int upper, int n, cl_kernel *k) {
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    if (n > 0) bchol__options_add(&o, "-D N=%d", n);
    else bchol__options_add(&o, "-D VBATCHED=1");
    bchol__options_add(&o, "-D NB=%d", prm->wnb);
    bchol__options_add(&o, "-D VW=%d", prm->wvec);
    bchol__options_add(&o, "-D MR=%d", prm->wmr);
    bchol__options_add(&o, "-D UPPER=%d", upper);
    return bchol__get_kernel(ctx, workitem_files, &o,
                             n > 0 ? "potrf_workitem" : "potrf_workitem_vbatched", k);
}

/* n^3/3 updates vw at a time (on llvmpipe, with its default wvec, n = 64 came out right
 * and 128 wrong, as this estimate says) */
static bchol_status check_loops(bchol_context *ctx, const bchol_params *prm, int n) {
    const int vw = prm->wvec > 0 ? prm->wvec : 1;
    return bchol__check_loops(ctx, "workitem factorization", n, (double)n * n * n / (3.0 * vw));
}

bchol_status bchol__workitem_prepare(bchol_context *ctx, bchol_precision p, const bchol_params *prm,
                                     int upper, int n, cl_kernel *k) {
    return prepare(ctx, p, prm, upper, n > 0 ? n : 1, k);
}

bchol_status bchol__workitem_vbatched_prepare(bchol_context *ctx, bchol_precision p,
                                              const bchol_params *prm, int upper, cl_kernel *k) {
    return prepare(ctx, p, prm, upper, 0, k);
}

bchol_status bchol__potrf_workitem(bchol_call *call, bchol_precision p, const bchol_params *params,
                                   int upper, int n, cl_mem A, int64_t offset, int lda,
                                   int64_t stride, int64_t batch, cl_mem info) {
    bchol_context *ctx = call->ctx;
    cl_kernel kernel;
    bchol_status st;
    if ((st = check_loops(ctx, params, n)) ||
        (st = bchol__workitem_prepare(ctx, p, params, upper, n, &kernel)))
        return st;
    cl_ulong off = (cl_ulong)offset, str = (cl_ulong)stride, b0 = 0, count = 0;
    cl_int ld = lda;
    bchol_arg args[] = {BCHOL_ARG(A),    BCHOL_ARG(off), BCHOL_ARG(ld),   BCHOL_ARG(str),
                        BCHOL_ARG(info), BCHOL_ARG(b0),  BCHOL_ARG(count)};
    return bchol__launch_items(call, kernel, args, 7, 5, batch, (size_t)params->wgroup);
}

/* Variable sizes: one work-item per matrix reads its own n[b], lda[b] and offsets[b]; the
 * whole batch in one launch, no launch per panel step and no work-group sized for the
 * largest matrix, which is what the fused kernel pays on a CPU. */
bchol_status bchol__potrf_vbatched_workitem(bchol_call *call, bchol_precision p,
                                            const bchol_params *prm, int upper, int n_hi,
                                            cl_mem n, cl_mem lda, cl_mem offsets, cl_mem A,
                                            int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    cl_kernel kernel;
    bchol_status st;
    if (n_hi <= 0) return BCHOL_SUCCESS;
    if ((st = check_loops(ctx, prm, n_hi)) ||
        (st = bchol__workitem_vbatched_prepare(ctx, p, prm, upper, &kernel)))
        return st;
    cl_int hi = n_hi;
    cl_ulong b0 = 0, count = 0;
    bchol_arg args[] = {BCHOL_ARG(A),    BCHOL_ARG(offsets), BCHOL_ARG(n),
                        BCHOL_ARG(lda),  BCHOL_ARG(info),    BCHOL_ARG(b0),
                        BCHOL_ARG(count), BCHOL_ARG(hi)};
    return bchol__launch_items(call, kernel, args, 8, 5, batch,
                               (size_t)(prm->wgroup > 0 ? prm->wgroup : 1));
}
