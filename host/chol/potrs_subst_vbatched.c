/* Launches of the variable-size substitution solve (cl_kernels/chol/potrs_vbatched.cl): the
 * plan is fitted for the largest n and nrhs; each launch covers whole matrices. A workitem
 * plan goes to its own launches (potrs_workitem.c). */
#include "chol/chol.h"


bchol_status bchol__potrs_subst_vbatched(bchol_call *call, const bchol_subst_plan *plan, cl_mem n,
                                         cl_mem nrhs, cl_mem lda, cl_mem ldb, cl_mem offsets_a,
                                         cl_mem A, cl_mem offsets_b, cl_mem B, int64_t batch,
                                         cl_mem info) {
    if (plan->prm.variant == BCHOL_SOLVE_WORKITEM)
        return bchol__potrs_workitem_vbatched(call, plan, n, nrhs, lda, ldb, offsets_a, A,
                                              offsets_b, B, batch, info);
    bchol_context *ctx = call->ctx;
    const bchol_solve_params *prm = &plan->prm;
    const int lx = bchol__ceil_div(plan->n, prm->rpt);
    const cl_int tiles = bchol__ceil_div(plan->nrhs, prm->nt);
    const size_t local = (size_t)lx * (size_t)prm->tbc;
    /* Units (matrix, tile) per launch, in whole matrices. */
    int64_t chunk = bchol__launch_batch_limit(ctx, prm->tbc, local) / tiles;
    if (chunk < 1) chunk = 1;
    bchol_status st;
    for (int64_t first = 0; first < batch; first += chunk) {
        cl_ulong b0 = (cl_ulong)first, g0 = 0;
        cl_ulong count = (cl_ulong)(batch - first < chunk ? batch - first : chunk);
        /* tbc units a group; where one matrix has more tiles than a launch takes, its units
         * span launches too */
        const uint64_t tbc = (uint64_t)prm->tbc, groups = (count * (cl_ulong)tiles + tbc - 1) / tbc;
        bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(offsets_a), BCHOL_ARG(n),
                            BCHOL_ARG(lda),   BCHOL_ARG(B),         BCHOL_ARG(offsets_b),
                            BCHOL_ARG(nrhs),  BCHOL_ARG(ldb),       BCHOL_ARG(info),
                            BCHOL_ARG(tiles), BCHOL_ARG(b0),        BCHOL_ARG(count),
                            BCHOL_ARG(g0)};
        if ((st = bchol__launch_groups(call, plan->kernel, args, 13, 12, groups, local))) return st;
    }
    return BCHOL_SUCCESS;
}
