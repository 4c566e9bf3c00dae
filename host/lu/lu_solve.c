/* Driver of the LU substitution kernel (cl_kernels/lu/getrs.cl): builds it for (nt, rpt,
 * tbc, trans, precision), fits the work-group to the device, and enqueues one launch per
 * piece of the batch, handing the workitem variant to getrs_workitem.c; and the pivot
 * checks that getrs, gesv and getri share. */
#include "lu/lu_solve.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const lu_solve_files[] = {"common/common.cl", "lu/getrs.cl", NULL};


static bchol_status get_kernel(bchol_context *ctx, bchol_precision p, const bchol_solve_params *prm,
                               int trans, const char *name, cl_kernel *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D NT=%d", prm->nt);
    bchol__options_add(&o, "-D RPT=%d", prm->rpt);
    bchol__options_add(&o, "-D TBC=%d", prm->tbc);
    bchol__options_add(&o, "-D TRANS=%d", trans);
    return bchol__get_kernel(ctx, lu_solve_files, &o, name, k);
}

/* get_kernel as a bchol_solve_build. */
struct build_arg {
    bchol_precision p;
    int trans;
    const char *name;
};

static bchol_status build(bchol_context *ctx, const bchol_solve_params *prm, const void *arg, cl_kernel *k)
{
    const struct build_arg *a = arg;
    return get_kernel(ctx, a->p, prm, a->trans, a->name, k);
}

/* The work-group fitted to the built kernel named name, from the shape prm. */
static bchol_status fit_plan(bchol_context *ctx, bchol_precision p, bchol_solve_params prm,
                             int trans, const char *name, int n, int nrhs,
                             bchol_lu_solve_plan *plan)
{
    const struct build_arg arg = {p, trans, name};
    cl_kernel kernel = NULL;
    bchol_status st = bchol__solve_fit(ctx, &prm, n, nrhs, "LU substitution solve", build, &arg, &kernel);
    if (st) return st;
    plan->kernel = kernel;
    plan->prm = prm;
    plan->prm.variant = BCHOL_SOLVE_SUBST;
    plan->vw = 0;
    plan->n = n;
    plan->nrhs = nrhs;
    return BCHOL_SUCCESS;
}

bchol_status bchol__lu_solve_plan(bchol_context *ctx, bchol_precision p, int trans, int getri,
                                  int n, int nrhs, bchol_lu_solve_plan *plan)
{
    bchol_solve_params prm;
    int vw;
    if (getri) nrhs = n, trans = 0;
    /* One shape for trans 'N' and 'T': the two differ only in which of A(i,j), A(j,i) a
     * work-item reads and where its rows go, so one getrs entry (timed with 'N') serves
     * both. getri's solve path asks at nrhs = n. */
    bchol__lu_solve_shape(ctx, p, n, nrhs, &prm, &vw, NULL, 0);
    if (prm.variant == BCHOL_SOLVE_WORKITEM)
        return bchol__getrs_workitem_plan(ctx, p, &prm, vw, trans,
                                          getri ? "getri_workitem" : "getrs_workitem", n, nrhs, plan);
    return fit_plan(ctx, p, prm, trans, getri ? "getri" : "getrs", n, nrhs, plan);
}

bchol_status bchol__getrs_vbatched_plan(bchol_context *ctx, bchol_precision p,
                                        const bchol_solve_params *params, int trans, int max_n,
                                        int max_nrhs, bchol_lu_solve_plan *plan)
{
    bchol_solve_params prm = {0};
    if (!bchol__lu_solve_shape_env(&prm)) {
        ctx->backend->solve_defaults((char)p, max_n, max_nrhs, &prm);
        if (params && params->nt > 0) prm.nt = params->nt;
        if (params && params->rpt > 0) prm.rpt = params->rpt;
        const bchol_solve_variant want = params ? params->variant : BCHOL_SOLVE_AUTO;
        if (bchol__lu_solve_variant(ctx, p, max_n, max_nrhs, want) == BCHOL_SOLVE_WORKITEM) {
            /* the fixed-size batch's getrs-workitem entry at the largest n and nrhs, under
             * the caller's nt */
            int nt, vw;
            bchol__lu_solve_workitem_tuned(ctx, p, max_n, max_nrhs, &nt, &vw);
            if (nt > 0 && !(params && params->nt > 0)) prm.nt = nt;
            return bchol__getrs_workitem_plan(ctx, p, &prm, vw, trans, "getrs_workitem_vbatched",
                                              max_n, max_nrhs, plan);
        }
    }
    prm.tbc = 1; /* one unit a group: its order bounds the barrier loops (getrs.cl) */
    return fit_plan(ctx, p, prm, trans, "getrs_vbatched", max_n, max_nrhs, plan);
}

bchol_status bchol__getrs_vbatched_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan,
                                           cl_mem n, cl_mem nrhs, cl_mem lda, cl_mem ldb,
                                           cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                           cl_mem ipiv, cl_mem offsets_b, cl_mem B, int64_t batch,
                                           cl_mem info)
{
    if (plan->prm.variant == BCHOL_SOLVE_WORKITEM)
        return bchol__getrs_workitem_vbatched_enqueue(call, plan, n, nrhs, lda, ldb, offsets_a, A,
                                                      offsets_p, ipiv, offsets_b, B, batch, info);
    const bchol_solve_params *prm = &plan->prm;
    const int lx = bchol__ceil_div(plan->n, prm->rpt);
    const int64_t tiles = bchol__ceil_div(plan->nrhs, prm->nt);
    const size_t local = (size_t)lx;
    /* Units per launch, in whole matrices. */
    int64_t chunk = bchol__launch_batch_limit(call->ctx, 1, local) / tiles;
    if (chunk < 1) chunk = 1;
    cl_ulong t = (cl_ulong)tiles;
    bchol_status st;
    for (int64_t first = 0; first < batch; first += chunk) {
        cl_ulong b0 = (cl_ulong)first, g0 = 0;
        cl_ulong count = (cl_ulong)(batch - first < chunk ? batch - first : chunk);
        bchol_arg args[] = {BCHOL_ARG(A),         BCHOL_ARG(offsets_a), BCHOL_ARG(n),
                            BCHOL_ARG(lda),       BCHOL_ARG(ipiv),      BCHOL_ARG(offsets_p),
                            BCHOL_ARG(B),         BCHOL_ARG(offsets_b), BCHOL_ARG(nrhs),
                            BCHOL_ARG(ldb),       BCHOL_ARG(info),      BCHOL_ARG(t),
                            BCHOL_ARG(b0),        BCHOL_ARG(count),     BCHOL_ARG(g0)};
        if ((st = bchol__launch_groups(call, plan->kernel, args, 15, 14, count * t, local)))
            return st;
    }
    return BCHOL_SUCCESS;
}

/* The launches of either kernel: units (matrix, tile of NT columns), tbc a group. */
static bchol_status enqueue(bchol_call *call, const bchol_lu_solve_plan *plan, int getri,
                            cl_mem A, int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                            int64_t offset_p, int64_t stride_p, cl_mem B, int64_t offset_b,
                            int ldb, int64_t stride_b, int64_t batch, cl_mem info)
{
    if (plan->prm.variant == BCHOL_SOLVE_WORKITEM)
        return bchol__getrs_workitem_enqueue(call, plan, getri, A, offset_a, lda, stride_a, ipiv,
                                             offset_p, stride_p, B, offset_b, ldb, stride_b, batch,
                                             info);
    bchol_context *ctx = call->ctx;
    const bchol_solve_params *prm = &plan->prm;
    const int lx = bchol__ceil_div(plan->n, prm->rpt);
    const int64_t tiles = bchol__ceil_div(plan->nrhs, prm->nt);
    const size_t local = (size_t)lx * (size_t)prm->tbc;
    /* Units per launch, in whole matrices. */
    int64_t chunk = bchol__launch_batch_limit(ctx, prm->tbc, local) / tiles;
    if (chunk < 1) chunk = 1;
    cl_ulong off_a = (cl_ulong)offset_a, str_a = (cl_ulong)stride_a;
    cl_ulong off_p = (cl_ulong)offset_p, str_p = (cl_ulong)stride_p;
    cl_ulong off_b = (cl_ulong)offset_b, str_b = (cl_ulong)stride_b;
    cl_int ld_a = lda, ld_b = ldb, n = plan->n, nrhs = plan->nrhs, skip = info != NULL;
    bchol_status st;
    for (int64_t first = 0; first < batch; first += chunk) {
        cl_ulong b0 = (cl_ulong)first, g0 = 0;
        cl_ulong count = (cl_ulong)(batch - first < chunk ? batch - first : chunk);
        const uint64_t tbc = (uint64_t)prm->tbc, groups = (count * (cl_ulong)tiles + tbc - 1) / tbc;
        if (getri) {
            bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off_a), BCHOL_ARG(ld_a),
                                BCHOL_ARG(str_a), BCHOL_ARG(ipiv),  BCHOL_ARG(off_p),
                                BCHOL_ARG(str_p), BCHOL_ARG(B),     BCHOL_ARG(off_b),
                                BCHOL_ARG(ld_b),  BCHOL_ARG(str_b), BCHOL_ARG(n),
                                BCHOL_ARG(info),  BCHOL_ARG(b0),    BCHOL_ARG(count),
                                BCHOL_ARG(g0)};
            st = bchol__launch_groups(call, plan->kernel, args, 16, 15, groups, local);
        } else {
            bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off_a), BCHOL_ARG(ld_a),
                                BCHOL_ARG(str_a), BCHOL_ARG(ipiv),  BCHOL_ARG(off_p),
                                BCHOL_ARG(str_p), BCHOL_ARG(B),     BCHOL_ARG(off_b),
                                BCHOL_ARG(ld_b),  BCHOL_ARG(str_b), BCHOL_ARG(n),
                                BCHOL_ARG(nrhs),  BCHOL_ARG(info),  BCHOL_ARG(skip),
                                BCHOL_ARG(b0),    BCHOL_ARG(count), BCHOL_ARG(g0)};
            st = bchol__launch_groups(call, plan->kernel, args, 18, 17, groups, local);
        }
        if (st) return st;
    }
    return BCHOL_SUCCESS;
}

bchol_status bchol__getrs_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan, cl_mem A,
                                  int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                  int64_t offset_p, int64_t stride_p, cl_mem B, int64_t offset_b,
                                  int ldb, int64_t stride_b, int64_t batch, cl_mem info)
{
    return enqueue(call, plan, 0, A, offset_a, lda, stride_a, ipiv, offset_p, stride_p, B,
                   offset_b, ldb, stride_b, batch, info);
}

bchol_status bchol__getri_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan, cl_mem A,
                                  int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                  int64_t offset_p, int64_t stride_p, cl_mem C, int64_t offset_c,
                                  int ldc, int64_t stride_c, int64_t batch, cl_mem info)
{
    return enqueue(call, plan, 1, A, offset_a, lda, stride_a, ipiv, offset_p, stride_p, C,
                   offset_c, ldc, stride_c, batch, info);
}

bchol_status bchol__check_pivot_args(bchol_context *ctx, const char *routine, int pos_offset,
                                     int n, int64_t offset_p, int64_t stride_p)
{
    if (offset_p < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_P,
                           "%s: argument %d (offset_p = %lld) must be >= 0", routine, pos_offset,
                           (long long)offset_p);
    if (stride_p < n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_P,
                           "%s: argument %d (stride_p = %lld) must be >= n = %d", routine,
                           pos_offset + 1, (long long)stride_p, n);
    return BCHOL_SUCCESS;
}

uint64_t bchol__pivot_bytes(int n, int64_t offset_p, int64_t stride_p, int64_t batch)
{
    uint64_t span;
    if (n <= 0 || batch <= 0) return 0;
    if (bchol__batch_span(offset_p, stride_p, batch, n, n, 1, &span) ||
        span > UINT64_MAX / sizeof(cl_int))
        return UINT64_MAX;
    return span * sizeof(cl_int);
}
