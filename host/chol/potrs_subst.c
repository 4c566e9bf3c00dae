/* Driver of the substitution solve: builds the kernel for (nt, rpt, tbc, uplo,
 * precision), fits the work-group to the device, and enqueues one launch per piece of
 * the batch (forward and back substitution together). */
#include "chol/chol.h"

static const char *const subst_files[] = {"common/common.cl", "chol/potrs_subst.cl", NULL};
static const char *const vbatched_files[] = {"common/common.cl", "chol/potrs_subst.cl", "chol/potrs_vbatched.cl",
                                             NULL};


static bchol_status get_subst_kernel(bchol_context *ctx, bchol_precision p,
                                     const bchol_solve_params *prm, int upper, int vbatched,
                                     cl_kernel *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D NT=%d", prm->nt);
    bchol__options_add(&o, "-D RPT=%d", prm->rpt);
    bchol__options_add(&o, "-D TBC=%d", prm->tbc);
    bchol__options_add(&o, "-D UPPER=%d", upper);
    if (vbatched)
        return bchol__get_kernel(ctx, vbatched_files, &o, "potrs_subst_vbatched", k);
    return bchol__get_kernel(ctx, subst_files, &o, "potrs_subst", k);
}

/* get_subst_kernel as a bchol_solve_build; arg: {upper, vbatched, precision}. */
static bchol_status build_subst(bchol_context *ctx, const bchol_solve_params *prm, const void *arg,
                                cl_kernel *k)
{
    const int *a = arg;
    return get_subst_kernel(ctx, (bchol_precision)a[2], prm, a[0], a[1], k);
}

/* vbatched: the variable-size kernel, fitted for the largest n and nrhs. */
static bchol_status subst_plan(bchol_context *ctx, bchol_precision p,
                               const bchol_solve_params *params, int upper, int n, int nrhs,
                               int vbatched, bchol_subst_plan *plan)
{
    bchol_solve_params prm = *params;
    const int arg[3] = {upper, vbatched, (int)p};
    cl_kernel kernel = NULL;
    bchol_status st = bchol__solve_fit(ctx, &prm, n, nrhs, "substitution solve", build_subst, arg, &kernel);
    if (st) return st;
    plan->kernel = kernel;
    plan->prm = prm;
    plan->upper = upper;
    plan->n = n;
    plan->nrhs = nrhs;
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrs_subst_plan(bchol_context *ctx, bchol_precision p,
                                     const bchol_solve_params *params, int vw, int upper, int n,
                                     int nrhs, bchol_subst_plan *plan)
{
    if (params->variant == BCHOL_SOLVE_WORKITEM)
        return bchol__potrs_workitem_plan(ctx, p, params, vw, upper, n, nrhs, plan);
    return subst_plan(ctx, p, params, upper, n, nrhs, 0, plan);
}

bchol_status bchol__potrs_subst_vbatched_plan(bchol_context *ctx, bchol_precision p,
                                              const bchol_solve_params *params, int upper,
                                              int max_n, int max_nrhs, bchol_subst_plan *plan)
{
    if (params->variant == BCHOL_SOLVE_WORKITEM)
        return bchol__potrs_workitem_vbatched_plan(ctx, p, params, upper, max_n, max_nrhs, plan);
    bchol_solve_params prm = *params;
    prm.variant = BCHOL_SOLVE_SUBST;
    return subst_plan(ctx, p, &prm, upper, max_n, max_nrhs, 1, plan);
}

bchol_status bchol__potrs_subst(bchol_call *call, const bchol_subst_plan *plan, cl_mem A,
                                int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                cl_mem info)
{
    if (plan->prm.variant == BCHOL_SOLVE_WORKITEM)
        return bchol__potrs_workitem(call, plan, A, offset_a, lda, stride_a, B, offset_b, ldb,
                                     stride_b, batch, info);
    bchol_context *ctx = call->ctx;
    const bchol_solve_params *prm = &plan->prm;
    const int lx = bchol__ceil_div(plan->n, prm->rpt);
    const int64_t tiles = bchol__ceil_div(plan->nrhs, prm->nt);
    const size_t local = (size_t)lx * (size_t)prm->tbc;
    /* Units (matrix, tile) per launch, in whole matrices. */
    int64_t chunk = bchol__launch_batch_limit(ctx, prm->tbc, local) / tiles;
    if (chunk < 1) chunk = 1;
    cl_ulong off_a = (cl_ulong)offset_a, str_a = (cl_ulong)stride_a;
    cl_ulong off_b = (cl_ulong)offset_b, str_b = (cl_ulong)stride_b;
    cl_int ld_a = lda, ld_b = ldb, n = plan->n, nrhs = plan->nrhs, skip = info != NULL;
    bchol_status st;
    for (int64_t first = 0; first < batch; first += chunk) {
        cl_ulong b0 = (cl_ulong)first, g0 = 0;
        cl_ulong count = (cl_ulong)(batch - first < chunk ? batch - first : chunk);
        /* tbc units a group; where one matrix has more tiles than a launch takes, its units
         * span launches too */
        const uint64_t tbc = (uint64_t)prm->tbc, groups = (count * (cl_ulong)tiles + tbc - 1) / tbc;
        bchol_arg args[] = {BCHOL_ARG(A),  BCHOL_ARG(off_a), BCHOL_ARG(ld_a), BCHOL_ARG(str_a),
                            BCHOL_ARG(B),  BCHOL_ARG(off_b), BCHOL_ARG(ld_b), BCHOL_ARG(str_b),
                            BCHOL_ARG(n),  BCHOL_ARG(nrhs),  BCHOL_ARG(info), BCHOL_ARG(skip),
                            BCHOL_ARG(b0), BCHOL_ARG(count), BCHOL_ARG(g0)};
        if ((st = bchol__launch_groups(call, plan->kernel, args, 15, 14, groups, local))) return st;
    }
    return BCHOL_SUCCESS;
}
