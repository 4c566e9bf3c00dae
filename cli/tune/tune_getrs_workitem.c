/* The workitem LU solve's search space ("getrs-workitem"): right-hand sides per pass nt and
 * vector width vw of cl_kernels/lu/getrs_workitem.cl (getrs, gesv and getri's solve path
 * where the backend runs it: PoCL), the workitem solve's space (tune_solve_workitem.c)
 * swept once per --nrhs. A configuration runs bchol_{s,d}getrs_batched ('N') with
 * BCHOL_LU_SOLVE_VARIANT=workitem, BCHOL_LU_SOLVE_SHAPE naming nt and
 * BCHOL_LU_SOLVE_WORKITEM_VW naming vw (the overrides the library reads at every call), on
 * getrf's factors of the LU batch, checked as getrs's (tune_getrs.c). Its entries shape that
 * kernel and choose nothing; planned only where --variants names it, like getrs. */
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Forces the workitem LU solve with nt and vw for the library calls that follow (all
 * unset with NULL). */
static void force(const tune_params *p)
{
    char text[64];
    if (!p) {
        unsetenv("BCHOL_LU_SOLVE_VARIANT");
        unsetenv("BCHOL_LU_SOLVE_SHAPE");
        unsetenv("BCHOL_LU_SOLVE_WORKITEM_VW");
        return;
    }
    setenv("BCHOL_LU_SOLVE_VARIANT", "workitem", 1);
    snprintf(text, sizeof text, "%d,1,1", p->solve.nt);
    setenv("BCHOL_LU_SOLVE_SHAPE", text, 1);
    snprintf(text, sizeof text, "%d", p->solve_vw);
    setenv("BCHOL_LU_SOLVE_WORKITEM_VW", text, 1);
}

/* what the workitem LU solve runs without a tuning file: the backend's nt (narrowed to
 * nrhs, as the run narrows it) and the kernel's default width, 8 */
static void defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    tune_params p = {0};
    setenv("BCHOL_LU_SOLVE_VARIANT", "workitem", 1);
    if (bchol_getrs_params(ctx, t->precision, 'N', t->n, t->nrhs, &p.solve, NULL)) p.solve = (bchol_solve_params){0};
    unsetenv("BCHOL_LU_SOLVE_VARIANT");
    while (p.solve.nt > 1 && p.solve.nt / 2 >= t->nrhs) p.solve.nt /= 2;
    p.solve_vw = 8;
    tune_solve_workitem_from_params(&p, c);
}

/* bchol_getrs_params with the configuration forced builds the kernel and fits it as the
 * call will: what the build processes run, and what the parent loads again. */
static bchol_status prepare(bchol_context *ctx, const tune_target *t, char uplo, const tune_params *p,
                            tune_params *effective)
{
    (void)uplo;
    *effective = *p;
    force(p);
    bchol_status st = bchol_getrs_params(ctx, t->precision, 'N', t->n, t->nrhs, &effective->solve, NULL);
    force(NULL);
    effective->solve.variant = BCHOL_SOLVE_WORKITEM;
    return st;
}

static bchol_status run(bchol_context *ctx, const tune_target *t, tune_workload *w, const tune_params *p)
{
    force(p);
    const bchol_status st = tune_getrs_call(ctx, t, w);
    force(NULL);
    return st;
}

const tune_variant tune_getrs_workitem = {
    .name = "getrs-workitem",
    .variant = BCHOL_VARIANT_AUTO, /* no factorization variant */
    .solve = 1,                    /* once per nrhs, records and entries carry it */
    .lu = 1,                       /* getrf's batch; only where named */
    .own_round = 1,                /* a round of its own per nrhs */
    .nparams = 2,                  /* nt, vw */
    .param_names = tune_solve_workitem_names,
    .labels = tune_solve_workitem_labels,
    .values = tune_solve_workitem_values,
    .prune = tune_solve_workitem_prune,
    .to_params = tune_solve_workitem_to_params,
    .from_params = tune_solve_workitem_from_params,
    .defaults = defaults,
    .prepare = prepare,
    .run = run,
};
