/* Driver of the workitem LU solve (cl_kernels/lu/getrs_workitem.cl): one work-item per
 * system solves it in place, nt right-hand sides a pass; the whole batch in one launch
 * (split only at the grid's limits). getrs, gesv, getri's solve path and the vbatched
 * getrs and gesv reach it through lu_solve.c's plans and enqueues where the variant is
 * BCHOL_SOLVE_WORKITEM. */
#include "lu/lu_solve.h"

static const char *const workitem_files[] = {"common/common.cl", "common/vector.cl",
                                             "common/workitem_sweeps.cl", "lu/getrs_workitem.cl",
                                             NULL};

/* Systems per work-group: work-items are independent; 8 as the Cholesky workitem solve. */
enum { GETRS_WORKITEM_GROUP = 8 };

/* The vector widths the kernel builds with (common/vector.cl). */
static int vw_ok(int vw) { return vw == 1 || vw == 2 || vw == 4 || vw == 8 || vw == 16; }

bchol_status bchol__getrs_workitem_plan(bchol_context *ctx, bchol_precision p,
                                        const bchol_solve_params *prm, int vw, int trans,
                                        const char *kernel, int n, int nrhs,
                                        bchol_lu_solve_plan *plan)
{
    bchol_solve_params fitted = *prm;
    fitted.variant = BCHOL_SOLVE_WORKITEM;
    /* passes of nt columns, the rest one by one: no wider than nrhs */
    if (fitted.nt < 1) fitted.nt = 1;
    if (fitted.nt > 32) fitted.nt = 32;
    while (fitted.nt > 1 && fitted.nt > nrhs) fitted.nt /= 2;
    if (!vw_ok(vw)) vw = 8;
    /* two sweeps of n columns for each right-hand side, over its rows vw at a time */
    bchol_status st0 = bchol__check_loops(ctx, "workitem LU solve", n,
                                          2.0 * n * bchol__ceil_div(n, vw) * (nrhs > 0 ? nrhs : 1));
    if (st0) return st0;
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D NR=%d", fitted.nt);
    bchol__options_add(&o, "-D VW=%d", vw);
    bchol__options_add(&o, "-D TRANS=%d", trans);
    bchol_status st = bchol__get_kernel(ctx, workitem_files, &o, kernel, &plan->kernel);
    if (st) return st;
    plan->prm = fitted;
    plan->vw = vw;
    plan->n = n;
    plan->nrhs = nrhs;
    return BCHOL_SUCCESS;
}

bchol_status bchol__getrs_workitem_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan,
                                           int getri, cl_mem A, int64_t offset_a, int lda,
                                           int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                           int64_t stride_p, cl_mem B, int64_t offset_b, int ldb,
                                           int64_t stride_b, int64_t batch, cl_mem info)
{
    cl_ulong off_a = (cl_ulong)offset_a, str_a = (cl_ulong)stride_a;
    cl_ulong off_p = (cl_ulong)offset_p, str_p = (cl_ulong)stride_p;
    cl_ulong off_b = (cl_ulong)offset_b, str_b = (cl_ulong)stride_b, b0 = 0, count = 0;
    cl_int ld_a = lda, ld_b = ldb, n = plan->n, nrhs = plan->nrhs, skip = info != NULL;
    if (getri) {
        bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off_a), BCHOL_ARG(ld_a),
                            BCHOL_ARG(str_a), BCHOL_ARG(ipiv),  BCHOL_ARG(off_p),
                            BCHOL_ARG(str_p), BCHOL_ARG(B),     BCHOL_ARG(off_b),
                            BCHOL_ARG(ld_b),  BCHOL_ARG(str_b), BCHOL_ARG(n),
                            BCHOL_ARG(info),  BCHOL_ARG(b0),    BCHOL_ARG(count)};
        return bchol__launch_items(call, plan->kernel, args, 15, 13, batch, GETRS_WORKITEM_GROUP);
    }
    bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off_a), BCHOL_ARG(ld_a),
                        BCHOL_ARG(str_a), BCHOL_ARG(ipiv),  BCHOL_ARG(off_p),
                        BCHOL_ARG(str_p), BCHOL_ARG(B),     BCHOL_ARG(off_b),
                        BCHOL_ARG(ld_b),  BCHOL_ARG(str_b), BCHOL_ARG(n),
                        BCHOL_ARG(nrhs),  BCHOL_ARG(info),  BCHOL_ARG(skip),
                        BCHOL_ARG(b0),    BCHOL_ARG(count)};
    return bchol__launch_items(call, plan->kernel, args, 17, 15, batch, GETRS_WORKITEM_GROUP);
}

bchol_status bchol__getrs_workitem_vbatched_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan,
                                                    cl_mem n, cl_mem nrhs, cl_mem lda, cl_mem ldb,
                                                    cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                                    cl_mem ipiv, cl_mem offsets_b, cl_mem B,
                                                    int64_t batch, cl_mem info)
{
    cl_ulong b0 = 0, count = 0;
    bchol_arg args[] = {BCHOL_ARG(A),   BCHOL_ARG(offsets_a), BCHOL_ARG(n),
                        BCHOL_ARG(lda), BCHOL_ARG(ipiv),      BCHOL_ARG(offsets_p),
                        BCHOL_ARG(B),   BCHOL_ARG(offsets_b), BCHOL_ARG(nrhs),
                        BCHOL_ARG(ldb), BCHOL_ARG(info),      BCHOL_ARG(b0),
                        BCHOL_ARG(count)};
    return bchol__launch_items(call, plan->kernel, args, 13, 11, batch, GETRS_WORKITEM_GROUP);
}
