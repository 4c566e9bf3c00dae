/* The substitution solve's search space (potrs; posv and the vbatched solve run the same
 * parameters): right-hand sides per tile nt, rows per work-item rpt, tiles (units) per
 * work-group tbc. Timed as bchol_{s,d}potrs_batched_ex on the workload's factors with
 * nrhs right-hand sides per matrix: nrhs is part of the problem (the sweep's --nrhs), not
 * a parameter, so each record and entry carries it and the sweep measures the space once
 * per nrhs. The interleaved solve is not swept here (its own kernel, layout and workload;
 * see DEVELOPING, Tuning). */
#include "tune.h"

#include <stdio.h>

enum { NT, RPT, TBC, NPARAMS };

const char *const tune_solve_names[] = {"nt", "rpt", "tbc"};
const char *const *const tune_solve_labels[] = {NULL, NULL, NULL};

/*
 * Candidates. nt: tiles of up to nrhs columns (powers of two; the solve narrows a wider
 * tile to nrhs, so wider ones would run as a narrower one). rpt: as the fused variant's
 * (tune_fused.c): GPUs want many work-items per matrix, so at most 8 rows each; CPUs up
 * to one work-item per unit (its rows in one loop). tbc: several units per group fill GPU
 * warps for small n; on CPUs a few. The LU solve (tune_getrs.c) sweeps the same space: its
 * kernel has this one's work shape.
 */
int tune_solve_values(int param, const tune_target *t, int *out, int max)
{
    static const int nts[] = {1, 2, 4, 8, 16, 32};
    static const int rpt_gpu[] = {1, 2, 4, 8}, rpt_cpu[] = {1, 2, 4, 8, 16, 32, 64};
    static const int tbc_gpu[] = {1, 2, 4, 8, 16, 32}, tbc_cpu[] = {1, 2, 4, 8};
    const int n = t->n;
    int k = 0;
    if (t->nrhs < 1) return 0; /* only with right-hand sides */
    switch (param) {
    case NT:
        for (int i = 0; i < 6 && k < max; i++)
            if (nts[i] / 2 < t->nrhs) out[k++] = nts[i];
        return k;
    case RPT: {
        const int *list = tune_is_gpu(t) ? rpt_gpu : rpt_cpu;
        const int count = tune_is_gpu(t) ? 4 : 7;
        for (int i = 0; i < count && k < max; i++)
            if (list[i] < n) out[k++] = list[i];
        if (n <= list[count - 1] && k < max) out[k++] = n > 0 ? n : 1; /* a work-item per unit */
        return k;
    }
    case TBC: return tune_is_gpu(t) ? tune_copy_list(tbc_gpu, 6, out, max) : tune_copy_list(tbc_cpu, 4, out, max);
    }
    return 0;
}

const char *tune_solve_prune(const int *c, const tune_target *t, char *why, size_t size)
{
    const int n = t->n, lx = tune_ceil_div(n, c[RPT]);
    if (c[NT] > 1 && c[NT] / 2 >= t->nrhs) { /* only from --set */
        snprintf(why, size, "nt = %d for nrhs = %d: the solve narrows the tile, running another nt",
                 c[NT], t->nrhs);
        return "tile wider than nrhs";
    }
    /* two slots of NT values per unit */
    const unsigned long long local = 2ull * (unsigned long long)c[TBC] * c[NT] * tune_elem(t);
    if (local > t->dev.local_mem_usable) {
        snprintf(why, size, "needs %llu bytes of local memory; a kernel may use %llu", local,
                 (unsigned long long)t->dev.local_mem_usable);
        return "local memory";
    }
    if ((size_t)lx * (size_t)c[TBC] > t->dev.max_work_group) {
        snprintf(why, size, "%d work-items per group; the device takes %zu", lx * c[TBC], t->dev.max_work_group);
        return "work-group size";
    }
    /* per work-item: the tile's NT x RPT block, the reciprocal diagonal and the L column */
    const int regs = (c[NT] + 2) * c[RPT];
    if (tune_is_gpu(t) && regs * (tune_elem(t) / 4) > 192) {
        snprintf(why, size, "%d 32-bit registers of arrays per work-item spill (> 192)", regs * (tune_elem(t) / 4));
        return "registers";
    }
    if (!tune_is_gpu(t) && regs * tune_elem(t) > 16384) {
        snprintf(why, size, "%d bytes of private arrays per work-item (> 16 KiB)", regs * tune_elem(t));
        return "private memory";
    }
    return NULL;
}

void tune_solve_to_params(const int *c, tune_params *t)
{
    *t = (tune_params){0};
    t->solve = (bchol_solve_params){.variant = BCHOL_SOLVE_SUBST, .nt = c[NT], .rpt = c[RPT], .tbc = c[TBC]};
}

void tune_solve_from_params(const tune_params *t, int *c)
{
    c[NT] = t->solve.nt;
    c[RPT] = t->solve.rpt;
    c[TBC] = t->solve.tbc;
}

/* what bchol_{s,d}potrs_batched runs without a tuning file */
static void defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    tune_params p = {0};
    bchol_potrs_params(ctx, t->precision, t->n, t->nrhs, &p.solve, NULL);
    tune_solve_from_params(&p, c);
}

/* bchol_potrs_prepare builds the kernel for (nt, rpt, tbc, uplo, precision) and fits it as
 * the call will: what the build processes run, and what the parent loads again. */
bchol_status tune_solve_prepare(bchol_context *ctx, const tune_target *t, char uplo, const tune_params *p,
                                tune_params *effective)
{
    *effective = *p;
    return bchol_potrs_prepare(ctx, &p->solve, t->precision, uplo, t->n, t->nrhs, &effective->solve);
}

bchol_status tune_solve_run(bchol_context *ctx, const tune_target *t, tune_workload *w, const tune_params *p)
{
    const int n = w->n, nrhs = t->nrhs;
    if (w->precision == 'd')
        return bchol_dpotrs_batched_ex(ctx, &p->solve, w->uplo, n, nrhs, w->F, 0, n, (int64_t)n * n, w->B, 0, n,
                                       (int64_t)n * nrhs, w->batch, NULL);
    return bchol_spotrs_batched_ex(ctx, &p->solve, w->uplo, n, nrhs, w->F, 0, n, (int64_t)n * n, w->B, 0, n,
                                   (int64_t)n * nrhs, w->batch, NULL);
}

const tune_variant tune_solve = {
    .name = "solve",
    .gpu_default = 1, /* on CPUs only where named (tune.h) */
    .variant = BCHOL_VARIANT_AUTO, /* no factorization variant */
    .solve = 1,
    .nparams = NPARAMS,
    .param_names = tune_solve_names,
    .labels = tune_solve_labels,
    .values = tune_solve_values,
    .prune = tune_solve_prune,
    .to_params = tune_solve_to_params,
    .from_params = tune_solve_from_params,
    .defaults = defaults,
    .prepare = tune_solve_prepare,
    .run = tune_solve_run,
};
