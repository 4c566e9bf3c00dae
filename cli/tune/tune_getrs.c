/* The LU solve's search space ("getrs"): the substitution shape nt, rpt, tbc of
 * cl_kernels/lu/getrs.cl (getrs, gesv, getri's solve path), the Cholesky solve's space
 * (tune_solve.c: the kernel has its work shape) swept once per --nrhs. A configuration runs
 * bchol_{s,d}getrs_batched ('N') with BCHOL_LU_SOLVE_SHAPE naming it (the override the
 * library reads at every call), on getrf's factors of the LU batch (general matrices, one
 * singular: tune_workload_getrs), checked by the residual of sampled systems. It competes
 * with nothing else, and is planned only where --variants names it, like getrf's. */
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Forces the shape for the library calls that follow (unset with NULL). */
static void force_shape(const bchol_solve_params *s)
{
    char text[64];
    if (!s) {
        unsetenv("BCHOL_LU_SOLVE_SHAPE");
        return;
    }
    snprintf(text, sizeof text, "%d,%d,%d", s->nt, s->rpt, s->tbc);
    setenv("BCHOL_LU_SOLVE_SHAPE", text, 1);
}

/* what bchol_{s,d}getrs_batched runs without a tuning file (fitted to the built kernel,
 * nt narrowed to nrhs: the backend's solve defaults depend on nrhs, so the shape before
 * fitting cannot be asked for at this nrhs apart from the fitted one) */
static void defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    tune_params p = {0};
    /* the substitution kernel's defaults, where the backend runs the workitem solve (PoCL):
     * getrs entries shape that kernel only */
    const char *was = getenv("BCHOL_LU_SOLVE_VARIANT");
    char *saved = was ? strdup(was) : NULL;
    setenv("BCHOL_LU_SOLVE_VARIANT", "subst", 1);
    if (bchol_getrs_params(ctx, t->precision, 'N', t->n, t->nrhs, &p.solve, NULL)) p.solve = (bchol_solve_params){0};
    if (saved) setenv("BCHOL_LU_SOLVE_VARIANT", saved, 1);
    else unsetenv("BCHOL_LU_SOLVE_VARIANT");
    free(saved);
    tune_solve_from_params(&p, c);
}

/* bchol_getrs_params with the shape forced builds the kernel and fits it as the call will:
 * what the build processes run, and what the parent loads again. */
static bchol_status prepare(bchol_context *ctx, const tune_target *t, char uplo, const tune_params *p,
                            tune_params *effective)
{
    (void)uplo;
    *effective = *p;
    force_shape(&p->solve);
    bchol_status st = bchol_getrs_params(ctx, t->precision, 'N', t->n, t->nrhs, &effective->solve, NULL);
    force_shape(NULL);
    effective->solve.variant = BCHOL_SOLVE_SUBST;
    return st;
}

bchol_status tune_getrs_call(bchol_context *ctx, const tune_target *t, tune_workload *w)
{
    char why[300];
    if (tune_workload_getrs(w, why, sizeof why)) return BCHOL_ERR_OUT_OF_MEMORY;
    const int n = w->n, nrhs = t->nrhs;
    const int64_t sa = (int64_t)n * n, sb = (int64_t)n * nrhs;
    return w->precision == 'd'
               ? bchol_dgetrs_batched(ctx, 'N', n, nrhs, w->lu_f, 0, n, sa, w->lu_p, 0, n, w->B, 0, n, sb,
                                      w->lu_batch, NULL)
               : bchol_sgetrs_batched(ctx, 'N', n, nrhs, w->lu_f, 0, n, sa, w->lu_p, 0, n, w->B, 0, n, sb,
                                      w->lu_batch, NULL);
}

static bchol_status run(bchol_context *ctx, const tune_target *t, tune_workload *w, const tune_params *p)
{
    force_shape(&p->solve);
    const bchol_status st = tune_getrs_call(ctx, t, w);
    force_shape(NULL);
    return st;
}

const tune_variant tune_getrs = {
    .name = "getrs",
    .variant = BCHOL_VARIANT_AUTO, /* no factorization variant */
    .solve = 1,                    /* once per nrhs, records and entries carry it */
    .lu = 1,                       /* getrf's batch (fewer matrices on CPUs); only where named */
    .own_round = 1,                /* a round of its own per nrhs */
    .nparams = 3, /* the solve's nt, rpt, tbc */
    .param_names = tune_solve_names,
    .labels = tune_solve_labels,
    .values = tune_solve_values,
    .prune = tune_solve_prune,
    .to_params = tune_solve_to_params,
    .from_params = tune_solve_from_params,
    .defaults = defaults,
    .prepare = prepare,
    .run = run,
};
