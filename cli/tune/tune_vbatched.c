/* The vbatched routines' search space: the fused kernel's ib, matrices per work-group tbc,
 * rpt and work-group shape (fixed, shrinking, or packing more matrices as the rows left
 * shrink), early termination (classic: idle work-groups leave; aggressive: idle work-items
 * skip the work too), the schedule (greedy: every matrix at the first launch; lazy: each
 * as late as possible; one-launch: every step in one launch) and which matrices share a group (index order, or by steps). Timed on the workload's
 * variable-size view: the leading blocks of its matrices, orders uniform in [1, n], so the
 * entry at n serves batches whose largest order is about n. Swept where the fused kernel
 * holds n in local memory, up to the crossover where the vbatched routines hand larger
 * matrices to the separate variant (the dispatcher looks entries up at the fused share's
 * largest order). */
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>

enum { IB, TBC, RPT, SHAPE, ETM, SCHEDULE, ORDER, NPARAMS };

static const char *const names[NPARAMS] = {"ib", "tbc", "rpt", "shape", "etm", "schedule", "order"};
static const char *const shape_labels[] = {"default", "fixed", "shrink", "pack", NULL};
static const char *const etm_labels[] = {"default", "classic", "aggressive", NULL};
static const char *const schedule_labels[] = {"default", "greedy", "lazy", "one-launch", NULL};
static const char *const order_labels[] = {"default", "index", "steps", NULL};
static const char *const *const labels[NPARAMS] = {NULL,       NULL,         NULL, shape_labels,
                                                   etm_labels, schedule_labels, order_labels};


/* As the fused variant's (tune_fused.c), with the PACK shape on GPUs (on CPUs each
 * work-group size is a PoCL compilation, as for SHRINK). */
static int values(int param, const tune_target *t, int *out, int max)
{
    static const int ibs[] = {4, 8, 16, 32};
    static const int tbc_gpu[] = {1, 2, 4, 8, 16}, tbc_cpu[] = {1, 2, 4};
    static const int rpt_gpu[] = {1, 2, 4, 8}, rpt_cpu[] = {1, 2, 4, 8, 16, 32, 64};
    const int n = t->n;
    int k = 0;
    /* only the fused share of a vbatched call: up to the crossover it splits at */
    if ((unsigned long long)n * 4 * tune_elem(t) > t->dev.local_mem_usable || n > t->vb_crossover) return 0;
    switch (param) {
    case IB: {
        int cap = 4;
        while (cap < n && cap < 32) cap *= 2;
        for (int i = 0; i < 4 && k < max; i++)
            if (ibs[i] <= cap) out[k++] = ibs[i];
        return k;
    }
    case TBC: {
        const int *list = tune_is_gpu(t) ? tbc_gpu : tbc_cpu;
        const int count = tune_is_gpu(t) ? 5 : 3;
        for (int i = 0; i < count && k < max; i++) out[k++] = list[i];
        return k;
    }
    case RPT: {
        const int *list = tune_is_gpu(t) ? rpt_gpu : rpt_cpu;
        const int count = tune_is_gpu(t) ? 4 : 7;
        for (int i = 0; i < count && k < max; i++)
            if (list[i] < n) out[k++] = list[i];
        if (n <= list[count - 1] && k < max) out[k++] = n > 0 ? n : 1;
        return k;
    }
    case SHAPE: /* CPUs: fixed only (a PoCL compilation per work-group size, tune_fused.c) */
        out[k++] = BCHOL_SHAPE_FIXED;
        if (tune_is_gpu(t) && k < max) out[k++] = BCHOL_SHAPE_SHRINK;
        if (tune_is_gpu(t) && k < max) out[k++] = BCHOL_SHAPE_PACK;
        return k;
    case ETM:
        out[k++] = BCHOL_ETM_CLASSIC;
        if (k < max) out[k++] = BCHOL_ETM_AGGRESSIVE;
        return k;
    case SCHEDULE:
        out[k++] = BCHOL_SCHEDULE_GREEDY;
        if (k < max) out[k++] = BCHOL_SCHEDULE_LAZY;
        if (k < max) out[k++] = BCHOL_SCHEDULE_ONE_LAUNCH;
        return k;
    case ORDER:
        out[k++] = BCHOL_ORDER_INDEX;
        if (k < max) out[k++] = BCHOL_ORDER_STEPS;
        return k;
    }
    return 0;
}

static const char *prune(const int *c, const tune_target *t, char *why, size_t size)
{
    if (c[SCHEDULE] == BCHOL_SCHEDULE_ONE_LAUNCH && c[SHAPE] != BCHOL_SHAPE_FIXED) {
        snprintf(why, size, "one launch sizes its work-groups for the largest order: the shape changes nothing");
        return "shape";
    }
    if (c[ORDER] == BCHOL_ORDER_STEPS && c[TBC] == 1 && c[SHAPE] != BCHOL_SHAPE_PACK) {
        snprintf(why, size, "one matrix per work-group: the order of the groups changes nothing");
        return "order";
    }
    /* the driver would pack fewer matrices than asked: that configuration is another's */
    const int n = t->n, lx = tune_ceil_div(n, c[RPT]);
    const unsigned long long local =
        (unsigned long long)c[TBC] * ((unsigned long long)(n > c[IB] ? n : c[IB]) * c[IB] * tune_elem(t) + 8);
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
    t->etm = (bchol_etm)c[ETM];
    t->schedule = (bchol_schedule)c[SCHEDULE];
    t->order = (bchol_order)c[ORDER];
}

static void from_params(const tune_params *t, int *c)
{
    c[IB] = t->p.ib;
    c[TBC] = t->p.tbc;
    c[RPT] = t->p.rpt;
    c[SHAPE] = t->p.shape;
    c[ETM] = (int)t->etm;
    c[SCHEDULE] = (int)t->schedule;
    c[ORDER] = (int)t->order;
}

/* what bchol_{s,d}potrf_vbatched runs for a largest order n without a tuning file */
static void defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    bchol_vbatched_params v;
    bchol_potrf_vbatched_params(ctx, t->precision, t->n, 0, &v, NULL);
    tune_params p = {.p = v.fused, .etm = v.etm, .schedule = v.schedule, .order = v.order};
    from_params(&p, c);
}

/* The vbatched routines build their kernels at their first call (there is no prepare
 * for them): a call on one identity matrix of the workload's largest order builds what
 * the timed calls run (the check program and the step kernel for ib, rpt, uplo, etm and
 * schedule, fitted to max_n = n; on PoCL also the work-group functions of its launches,
 * which depend on max_n, not on the batch). Also what the tuner's build processes run. */
static bchol_status prepare(bchol_context *ctx, const tune_target *t, char uplo,
                            const tune_params *p, tune_params *effective)
{
    *effective = *p;
    const int n = t->n;
    const size_t elem = t->precision == 'd' ? sizeof(double) : sizeof(float);
    unsigned char *a = calloc((size_t)n * n, elem);
    if (!a) return BCHOL_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < n; i++) {
        if (t->precision == 'd') ((double *)a)[(size_t)i * n + i] = 1;
        else ((float *)a)[(size_t)i * n + i] = 1;
    }
    const int64_t off = 0;
    cl_context cl = bchol_context_cl_context(ctx);
    const cl_mem_flags copy = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
    cl_int err = CL_SUCCESS;
    cl_mem A = clCreateBuffer(cl, copy, (size_t)n * n * elem, a, &err), vn = NULL, vlda = NULL, voff = NULL, info = NULL;
    if (A) vn = clCreateBuffer(cl, copy, sizeof(int), (void *)&n, &err);
    if (vn) vlda = clCreateBuffer(cl, copy, sizeof(int), (void *)&n, &err);
    if (vlda) voff = clCreateBuffer(cl, copy, sizeof off, (void *)&off, &err);
    if (voff) info = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    free(a);
    bchol_status st = BCHOL_ERR_OUT_OF_MEMORY;
    if (info) {
        const bchol_vbatched_params v = {.fused = p->p, .etm = p->etm, .schedule = p->schedule,
                                           .order = p->order};
        cl_event done = NULL;
        st = t->precision == 'd'
                 ? bchol_dpotrf_vbatched_ex(ctx, &v, uplo, n, vn, vlda, voff, A, 1, info, &done)
                 : bchol_spotrf_vbatched_ex(ctx, &v, uplo, n, vn, vlda, voff, A, 1, info, &done);
        if (done) {
            if (clWaitForEvents(1, &done) != CL_SUCCESS && !st) st = BCHOL_ERR_OPENCL;
            clReleaseEvent(done);
        }
    }
    cl_mem bufs[] = {A, vn, vlda, voff, info};
    for (int i = 0; i < 5; i++)
        if (bufs[i]) clReleaseMemObject(bufs[i]);
    return st;
}

static bchol_status run(bchol_context *ctx, const tune_target *target, tune_workload *w,
                        const tune_params *t)
{
    (void)target;
    /* variant FUSED: every matrix through the fused kernel (no split at a crossover) */
    const bchol_vbatched_params v = {.fused = t->p, .etm = t->etm, .schedule = t->schedule,
                                     .order = t->order};
    if (w->precision == 'd')
        return bchol_dpotrf_vbatched_ex(ctx, &v, w->uplo, w->n, w->vn, w->vlda, w->voff, w->A,
                                        w->batch, w->info, NULL);
    return bchol_spotrf_vbatched_ex(ctx, &v, w->uplo, w->n, w->vn, w->vlda, w->voff, w->A, w->batch,
                                    w->info, NULL);
}

const tune_variant tune_vbatched = {
    .name = "vbatched",
    .gpu_default = 1, /* on CPUs only where named (tune.h) */
    .variant = BCHOL_VARIANT_FUSED, /* its kernel; it is no alternative for strided batches */
    .variable_sizes = 1,
    .nparams = NPARAMS,
    .param_names = names,
    /* the step program's macros are ib, rpt, uplo, ETM and schedule (potrf_vbatched_fused.c) */
    .launch_params = 1u << TBC | 1u << SHAPE | 1u << ORDER,
    .labels = labels,
    .values = values,
    .prune = prune,
    .to_params = to_params,
    .from_params = from_params,
    .defaults = defaults,
    .prepare = prepare,
    .run = run,
};
