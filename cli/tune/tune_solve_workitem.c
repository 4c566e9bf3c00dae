/* The workitem solve's search space ("solve-workitem"): right-hand sides per pass nt and
 * vector width vw of cl_kernels/chol/potrs_workitem.cl (one work-item per system), swept
 * once per --nrhs as the substitution solve (tune_solve.c), on the same workload (its
 * factors and right-hand sides) with the same check (the residual of sampled systems). A
 * configuration runs bchol_{s,d}potrs_batched_ex with the workitem variant and nt, and
 * BCHOL_SOLVE_WORKITEM_VW naming vw (bchol_solve_params has no field for it; the library
 * reads the variable at every call). It shares the solve's confirmation round at each
 * nrhs, so that the two kinds' entries carry times the dispatcher can compare: the faster
 * at a size and nrhs decides which solve potrs and posv run. In the default plan on CPUs
 * (where the backend runs it), on GPUs only where --variants names it. */
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>

enum { NT, VW, NPARAMS };

const char *const tune_solve_workitem_names[NPARAMS] = {"nt", "vw"};
const char *const *const tune_solve_workitem_labels[NPARAMS] = {NULL, NULL};

/*
 * Candidates. nt: passes of up to nrhs columns (powers of two up to 16; a wider pass runs
 * narrowed to nrhs, as tune_solve.c narrows its tiles). vw: the vector types that suit the
 * loops along a column (4, 8, 16 elements; the kernel also takes 1 and 2, which only
 * --set asks for).
 */
int tune_solve_workitem_values(int param, const tune_target *t, int *out, int max)
{
    static const int nts[] = {1, 2, 4, 8, 16}, vws[] = {4, 8, 16};
    int k = 0;
    if (t->nrhs < 1) return 0; /* only with right-hand sides */
    switch (param) {
    case NT:
        for (int i = 0; i < 5 && k < max; i++)
            if (nts[i] / 2 < t->nrhs) out[k++] = nts[i];
        return k;
    case VW: return tune_copy_list(vws, 3, out, max);
    }
    return 0;
}

const char *tune_solve_workitem_prune(const int *c, const tune_target *t, char *why, size_t size)
{
    if (c[NT] > 1 && c[NT] / 2 >= t->nrhs) { /* only from --set */
        snprintf(why, size, "nt = %d for nrhs = %d: the solve narrows the pass, running another nt", c[NT],
                 t->nrhs);
        return "pass wider than nrhs";
    }
    if (c[NT] > 32) { /* only from --set */
        snprintf(why, size, "nt = %d: the kernel takes at most 32 right-hand sides per pass", c[NT]);
        return "pass too wide";
    }
    if (c[VW] != 1 && c[VW] != 2 && c[VW] != 4 && c[VW] != 8 && c[VW] != 16) { /* only from --set */
        snprintf(why, size, "vw = %d: OpenCL's vectors have 1, 2, 4, 8 or 16 elements", c[VW]);
        return "vector width";
    }
    return NULL;
}

void tune_solve_workitem_to_params(const int *c, tune_params *t)
{
    *t = (tune_params){0};
    t->solve = (bchol_solve_params){.variant = BCHOL_SOLVE_WORKITEM, .nt = c[NT]};
    t->solve_vw = c[VW];
}

void tune_solve_workitem_from_params(const tune_params *t, int *c)
{
    c[NT] = t->solve.nt;
    c[VW] = t->solve_vw;
}

/* Forces the vector width for the library calls that follow (unset with 0). */
static void force_vw(int vw)
{
    char text[16];
    if (!vw) {
        unsetenv("BCHOL_SOLVE_WORKITEM_VW");
        return;
    }
    snprintf(text, sizeof text, "%d", vw);
    setenv("BCHOL_SOLVE_WORKITEM_VW", text, 1);
}

/* what the workitem solve runs without a tuning file: the backend's nt (narrowed to nrhs,
 * as the run narrows it) and the kernel's default vector width, 8 */
static void defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    tune_params p = {0};
    const bchol_solve_params want = {.variant = BCHOL_SOLVE_WORKITEM};
    if (bchol_potrs_prepare(ctx, &want, t->precision, 'L', t->n, t->nrhs, &p.solve)) {
        bchol_potrs_params(ctx, t->precision, t->n, t->nrhs, &p.solve, NULL);
        while (p.solve.nt > 1 && p.solve.nt / 2 >= t->nrhs) p.solve.nt /= 2;
    }
    p.solve_vw = 8;
    tune_solve_workitem_from_params(&p, c);
}

/* bchol_potrs_prepare with the workitem variant and vw forced builds the kernel the call
 * will run: what the build processes run, and what the parent loads again. */
static bchol_status prepare(bchol_context *ctx, const tune_target *t, char uplo, const tune_params *p,
                            tune_params *effective)
{
    force_vw(p->solve_vw);
    const bchol_status st = tune_solve_prepare(ctx, t, uplo, p, effective);
    force_vw(0);
    return st;
}

static bchol_status run(bchol_context *ctx, const tune_target *t, tune_workload *w, const tune_params *p)
{
    force_vw(p->solve_vw);
    const bchol_status st = tune_solve_run(ctx, t, w, p);
    force_vw(0);
    return st;
}

const tune_variant tune_solve_workitem = {
    .name = "solve-workitem",
    .variant = BCHOL_VARIANT_AUTO, /* no factorization variant */
    .solve = 1,                    /* once per nrhs; the solve's round, workload and check */
    .cpu_default = 1,              /* on GPUs only where named */
    .nparams = NPARAMS,
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
