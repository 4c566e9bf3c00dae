/* Driver of the workitem solve: one work-item per system solves it in place
 * (cl_kernels/chol/potrs_workitem.cl), nt right-hand sides per pass, the whole batch in
 * one launch (split only at the grid's limits); strided batches and variable sizes. */
#include "chol/chol.h"

static const char *const workitem_files[] = {"common/common.cl", "common/vector.cl",
                                             "common/workitem_sweeps.cl", "chol/potrs_workitem.cl",
                                             NULL};

/* Systems per work-group: work-items are independent; 8 as the workitem factorization. */
enum { WORKITEM_SOLVE_GROUP = 8 };

/* The kernel for nt (narrowed to nrhs, the largest nrhs of a variable-size batch) and vw
 * (1, 2, 4, 8 or 16; anything else: the default). */
static bchol_status workitem_plan(bchol_context *ctx, bchol_precision p,
                                  const bchol_solve_params *params, int vw, int upper, int n, int nrhs,
                                  int vbatched, bchol_subst_plan *plan)
{
    bchol_solve_params prm = *params;
    /* Passes of nt columns, the rest one by one: no wider than nrhs. */
    if (prm.nt < 1) prm.nt = 1;
    while (prm.nt > 1 && prm.nt > nrhs) prm.nt /= 2;
    if (!bchol__workitem_solve_vw_ok(vw)) vw = BCHOL__WORKITEM_SOLVE_VW;
    /* two sweeps of n columns for each right-hand side, over its rows vw at a time */
    const bchol_status st0 = bchol__check_loops(ctx, "workitem solve", n,
                                                2.0 * n * bchol__ceil_div(n, vw) * (nrhs > 0 ? nrhs : 1));
    if (st0) return st0;
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D NR=%d", prm.nt);
    bchol__options_add(&o, "-D VW=%d", vw);
    bchol__options_add(&o, "-D UPPER=%d", upper);
    bchol__options_add(&o, "-D VBATCHED=%d", vbatched);
    bchol_status st = bchol__get_kernel(ctx, workitem_files, &o,
                                        vbatched ? "potrs_workitem_vbatched" : "potrs_workitem",
                                        &plan->kernel);
    if (st) return st;
    plan->prm = prm;
    plan->vw = vw;
    plan->upper = upper;
    plan->n = n;
    plan->nrhs = nrhs;
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrs_workitem_plan(bchol_context *ctx, bchol_precision p,
                                        const bchol_solve_params *params, int vw, int upper, int n,
                                        int nrhs, bchol_subst_plan *plan)
{
    return workitem_plan(ctx, p, params, vw, upper, n, nrhs, 0, plan);
}

bchol_status bchol__potrs_workitem_vbatched_plan(bchol_context *ctx, bchol_precision p,
                                                 const bchol_solve_params *params, int upper,
                                                 int max_n, int max_nrhs, bchol_subst_plan *plan)
{
    return workitem_plan(ctx, p, params, BCHOL__WORKITEM_SOLVE_VW, upper, max_n, max_nrhs, 1, plan);
}

bchol_status bchol__potrs_workitem(bchol_call *call, const bchol_subst_plan *plan, cl_mem A,
                                   int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                   int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                   cl_mem info)
{
    cl_ulong off_a = (cl_ulong)offset_a, str_a = (cl_ulong)stride_a;
    cl_ulong off_b = (cl_ulong)offset_b, str_b = (cl_ulong)stride_b, b0 = 0, count = 0;
    cl_int ld_a = lda, ld_b = ldb, n = plan->n, nrhs = plan->nrhs, skip = info != NULL;
    bchol_arg args[] = {BCHOL_ARG(A),  BCHOL_ARG(off_a), BCHOL_ARG(ld_a), BCHOL_ARG(str_a),
                        BCHOL_ARG(B),  BCHOL_ARG(off_b), BCHOL_ARG(ld_b), BCHOL_ARG(str_b),
                        BCHOL_ARG(n),  BCHOL_ARG(nrhs),  BCHOL_ARG(info), BCHOL_ARG(skip),
                        BCHOL_ARG(b0), BCHOL_ARG(count)};
    return bchol__launch_items(call, plan->kernel, args, 14, 12, batch, WORKITEM_SOLVE_GROUP);
}

bchol_status bchol__potrs_workitem_vbatched(bchol_call *call, const bchol_subst_plan *plan,
                                            cl_mem n, cl_mem nrhs, cl_mem lda, cl_mem ldb,
                                            cl_mem offsets_a, cl_mem A, cl_mem offsets_b, cl_mem B,
                                            int64_t batch, cl_mem info)
{
    cl_ulong b0 = 0, count = 0;
    bchol_arg args[] = {BCHOL_ARG(A),    BCHOL_ARG(offsets_a), BCHOL_ARG(n),
                        BCHOL_ARG(lda),  BCHOL_ARG(B),         BCHOL_ARG(offsets_b),
                        BCHOL_ARG(nrhs), BCHOL_ARG(ldb),       BCHOL_ARG(info),
                        BCHOL_ARG(b0),   BCHOL_ARG(count)};
    return bchol__launch_items(call, plan->kernel, args, 11, 9, batch, WORKITEM_SOLVE_GROUP);
}
