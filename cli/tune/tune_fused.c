/* The fused variant's search space: panel width ib, matrices per work-group tbc, panel
 * rows per work-item rpt, and the work-group shape over the steps (fixed or shrinking). */
#include "tune.h"

#include <stdio.h>

enum { IB, TBC, RPT, SHAPE, NPARAMS };

static const char *const names[NPARAMS] = {"ib", "tbc", "rpt", "shape"};
static const char *const shape_labels[] = {"default", "fixed", "shrink", NULL};
static const char *const *const labels[NPARAMS] = {NULL, NULL, NULL, shape_labels};


/*
 * Candidates. ib: panels wider than the matrix (rounded up to a power of two) only add
 * registers. tbc: several matrices per group keep GPU warps full for tiny n; on CPUs they
 * only add barriers, so few. rpt: up to one work-item per matrix on CPUs (PoCL vectorizes
 * a work-item's rows); GPUs want many work-items, so at most 8 rows each. shape: on CPUs
 * fixed only: PoCL compiles a work-group function per local size at its first launch, so a
 * shrinking shape costs about n/rpt compilations (seconds) at every new n, which the timed
 * runs after the warm-up do not show.
 */
static int values(int param, const tune_target *t, int *out, int max)
{
    static const int ibs[] = {4, 8, 16, 32};
    static const int tbc_gpu[] = {1, 2, 4, 8, 16, 32}, tbc_cpu[] = {1, 2, 4};
    static const int rpt_gpu[] = {1, 2, 4, 8}, rpt_cpu[] = {1, 2, 4, 8, 16, 32, 64};
    static const int shapes[] = {BCHOL_SHAPE_FIXED, BCHOL_SHAPE_SHRINK};
    const int n = t->n;
    int k = 0;
    /* the narrowest panel of one matrix must fit local memory, else fused does not apply */
    if ((unsigned long long)n * 4 * tune_elem(t) > t->dev.local_mem_usable) return 0;
    switch (param) {
    case IB: {
        int cap = 4;
        while (cap < n && cap < 32) cap *= 2;
        for (int i = 0; i < 4 && k < max; i++)
            if (ibs[i] <= cap) out[k++] = ibs[i];
        return k;
    }
    case TBC:
        return tune_is_gpu(t) ? tune_copy_list(tbc_gpu, 6, out, max) : tune_copy_list(tbc_cpu, 3, out, max);
    case RPT: {
        const int *list = tune_is_gpu(t) ? rpt_gpu : rpt_cpu;
        const int count = tune_is_gpu(t) ? 4 : 7;
        for (int i = 0; i < count && k < max; i++)
            if (list[i] < n) out[k++] = list[i];
        if (n <= list[count - 1] && k < max) out[k++] = n > 0 ? n : 1; /* a work-item per matrix */
        return k;
    }
    case SHAPE: return tune_copy_list(shapes, tune_is_gpu(t) ? 2 : 1, out, max);
    }
    return 0;
}

static const char *prune(const int *c, const tune_target *t, char *why, size_t size)
{
    const int n = t->n, lx = tune_ceil_div(n, c[RPT]);
    const unsigned long long local =
        (unsigned long long)c[TBC] * (unsigned long long)(n > c[IB] ? n : c[IB]) * c[IB] * tune_elem(t);
    if (local > t->dev.local_mem_usable) {
        snprintf(why, size, "needs %llu bytes of local memory; a kernel may use %llu", local,
                 (unsigned long long)t->dev.local_mem_usable);
        return "local memory";
    }
    if ((size_t)lx * (size_t)c[TBC] > t->dev.max_work_group) {
        snprintf(why, size, "%d work-items per group; the device takes %zu", lx * c[TBC],
                 t->dev.max_work_group);
        return "work-group size";
    }
    /* three ib-by-rpt register arrays per work-item (the update's A, next A and C blocks) */
    const int regs = 3 * c[IB] * c[RPT];
    if (tune_is_gpu(t) && regs * (tune_elem(t) / 4) > 192) {
        snprintf(why, size, "%d 32-bit registers of arrays per work-item spill (> 192)",
                 regs * (tune_elem(t) / 4));
        return "registers";
    }
    if (!tune_is_gpu(t) && regs * tune_elem(t) > 16384) {
        snprintf(why, size, "%d bytes of private arrays per work-item (> 16 KiB)", regs * tune_elem(t));
        return "private memory";
    }
    return NULL;
}

static void to_params(const int *c, tune_params *t)
{
    *t = (tune_params){0};
    t->p = (bchol_params){.variant = BCHOL_VARIANT_FUSED, .ib = c[IB], .tbc = c[TBC], .rpt = c[RPT],
                        .shape = c[SHAPE]};
}

static void from_params(const tune_params *t, int *c)
{
    const bchol_params *p = &t->p;
    c[IB] = p->ib;
    c[TBC] = p->tbc;
    c[RPT] = p->rpt;
    c[SHAPE] = p->shape;
}

/* with no tuning file in use, the dispatcher's choice is the backend's defaults */
static void defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    tune_params p = {0};
    bchol_potrf_params(ctx, t->precision, t->n, &p.p, NULL);
    from_params(&p, c);
}

const tune_variant tune_fused = {
    .name = "fused",
    .gpu_default = 1, /* on CPUs only where named (tune.h) */
    .variant = BCHOL_VARIANT_FUSED,
    .probe_every_k = 2,
    .nparams = NPARAMS,
    .param_names = names,
    .labels = labels,
    .values = values,
    .prune = prune,
    .to_params = to_params,
    .from_params = from_params,
    .defaults = defaults,
    .prepare = tune_strided_prepare,
    .run = tune_strided_run,
};
