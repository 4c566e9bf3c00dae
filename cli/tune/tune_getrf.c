/* getrf's search spaces, one variant each ("getrf-fused", "getrf-blocked", "getrf-workitem",
 * "getrf-regs"; `--variants getrf` names them all): the fused kernel's work-items per matrix
 * lx and matrices per group tbc; the blocked variant's panel width nb and trailing GEMM; the
 * workitem and regs variants' matrices per group tbc, and the workitem variant's panel width
 * nb. A configuration runs through
 * bchol_{s,d}getrf_batched with BCHOL_GETRF naming it (the override the library reads at
 * every call), so that what is timed is what the dispatcher runs for a tuning entry; the
 * result is checked by LAPACK's xGET01 ratio and every info (tune_workload_verify_lu).
 * They compete with each other at a size (the entry with the fastest time runs), never
 * with the Cholesky variants. A new getrf variant is a table here, its row in
 * host/tuning/tuning_file.c and its name in tune_variants.c. */
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LX, TBC };  /* fused */
enum { NB, GEMM, IB }; /* blocked */

static const char *const fused_names[] = {"lx", "tbc"};
static const char *const blocked_names[] = {"nb", "gemm", "ib"};
static const char *const workitem_names[] = {"tbc", "nb"};
static const char *const regs_names[] = {"tbc"};
static const char *const gemm_labels[] = {"default", "own", "clblast", NULL};
static const char *const *const plain2[] = {NULL, NULL};
static const char *const *const blocked_labels[] = {NULL, gemm_labels, NULL};

/* BCHOL_GETRF's text for a configuration ("blocked,nb=16,gemm=own"). */
static void env_text(const bchol_getrf_config *g, char *out, size_t size) {
    switch (g->variant) {
    case BCHOL_GETRF_FUSED:
        snprintf(out, size, "fused,lx=%d,tbc=%d", g->lx, g->tbc);
        break;
    case BCHOL_GETRF_BLOCKED:
        snprintf(out, size, "blocked,nb=%d,gemm=%s", g->nb,
                 g->gemm == BCHOL_GEMM_CLBLAST ? "clblast" : "own");
        if (g->ib > 0) snprintf(out + strlen(out), size - strlen(out), ",ib=%d", g->ib);
        break;
    case BCHOL_GETRF_REGS: /* tbc 0: the driver's group (BCHOL_GETRF takes 1..64) */
        if (g->tbc > 0)
            snprintf(out, size, "regs,tbc=%d", g->tbc);
        else
            snprintf(out, size, "regs");
        break;
    default: /* nb 0 (a record from before nb): the library's panel width */
        snprintf(out, size, "workitem,tbc=%d", g->tbc);
        if (g->nb > 0) snprintf(out + strlen(out), size - strlen(out), ",nb=%d", g->nb);
        break;
    }
}

/* One getrf of the workload's batch (or, with A NULL, of one identity matrix of order n:
 * the build), with the configuration forced through BCHOL_GETRF. */
static bchol_status run_getrf(bchol_context *ctx, char precision, int n,
                              const bchol_getrf_config *g, cl_mem A, cl_mem ipiv, long long batch,
                              cl_mem info) {
    char text[96];
    env_text(g, text, sizeof text);
    setenv("BCHOL_GETRF", text, 1);
    const int64_t sa = (int64_t)n * n;
    bchol_status st =
        precision == 'd'
            ? bchol_dgetrf_batched(ctx, n, n, A, 0, n, sa, ipiv, 0, n, batch, info, NULL)
            : bchol_sgetrf_batched(ctx, n, n, A, 0, n, sa, ipiv, 0, n, batch, info, NULL);
    unsetenv("BCHOL_GETRF");
    return st;
}

/* getrf builds its kernels at its first call (there is no prepare for it): a call on one
 * identity matrix of order n builds what the timed calls run (the fused kernel for n, lx,
 * tbc; the blocked variant's panel, swap and GEMM kernels for its block columns; the
 * workitem kernel). Also what the tuner's build processes run. */
static bchol_status prepare(bchol_context *ctx, const tune_target *t, char uplo,
                            const tune_params *p, tune_params *effective) {
    (void)uplo;
    *effective = *p;
    const int n = t->n;
    const size_t elem = t->precision == 'd' ? sizeof(double) : sizeof(float);
    unsigned char *a = calloc((size_t)n * n, elem);
    if (!a) return BCHOL_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < n; i++) {
        if (t->precision == 'd')
            ((double *)a)[(size_t)i * n + i] = 1;
        else
            ((float *)a)[(size_t)i * n + i] = 1;
    }
    cl_context cl = bchol_context_cl_context(ctx);
    cl_int err = CL_SUCCESS;
    cl_mem A =
        clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (size_t)n * n * elem, a, &err);
    cl_mem ipiv =
        A ? clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)n * sizeof(int), NULL, &err) : NULL;
    cl_mem info = ipiv ? clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(int), NULL, &err) : NULL;
    free(a);
    bchol_status st = BCHOL_ERR_OUT_OF_MEMORY;
    if (info) {
        st = run_getrf(ctx, t->precision, n, &p->getrf, A, ipiv, 1, info);
        if (!st && clFinish(bchol_context_queue(ctx)) != CL_SUCCESS) st = BCHOL_ERR_OPENCL;
    }
    cl_mem bufs[] = {A, ipiv, info};
    for (int i = 0; i < 3; i++)
        if (bufs[i]) clReleaseMemObject(bufs[i]);
    return st;
}

/* getrf's own batch over the working copy first (general matrices: the Cholesky
 * variants' are diagonally dominant, where the pivot search never interchanges rows); the
 * copy is not part of the timed call. */
static bchol_status run(bchol_context *ctx, const tune_target *t, tune_workload *w,
                        const tune_params *p) {
    (void)t;
    char why[200];
    if (tune_workload_lu(w, why, sizeof why)) return BCHOL_ERR_OUT_OF_MEMORY;
    if (tune_workload_reset_lu(w)) return BCHOL_ERR_OPENCL;
    return run_getrf(ctx, w->precision, w->n, &p->getrf, w->A, w->ipiv, w->lu_batch, w->info);
}

/* What the untuned library runs for the variant at n (the backend's defaults, BCHOL_GETRF
 * naming the variant alone), or zeros where it cannot run n (fused past local memory:
 * such a configuration is then pruned). */
static void variant_defaults(bchol_context *ctx, const tune_target *t, const char *variant,
                             bchol_getrf_config *g) {
    setenv("BCHOL_GETRF", variant, 1);
    if (bchol_getrf_config_for(ctx, t->precision, t->n, t->n, g, NULL))
        *g = (bchol_getrf_config){0};
    unsetenv("BCHOL_GETRF");
}

/* ---- fused ----------------------------------------------------------------------------- */

/* lx: a work-item per row up to 64 rows (the default), and fewer, each owning more rows;
 * tbc: matrices per group, to fill GPU warps at small n (within local memory: prune). On
 * CPUs, where the fused kernel trails the workitem variant (PoCL, float n = 16 and 64: 3-4x
 * its time at its best shape), a coarse grid: lx 4, 16 and 64 (or n). */
static int fused_values(int param, const tune_target *t, int *out, int max) {
    static const int lx_gpu[] = {4, 8, 16, 32, 64}, lx_cpu[] = {4, 16, 64},
                     tbc_gpu[] = {1, 2, 4, 8, 16, 32}, tbc_cpu[] = {1, 4};
    const int *lxs = tune_is_gpu(t) ? lx_gpu : lx_cpu, nlx = tune_is_gpu(t) ? 5 : 3;
    int k = 0;
    /* not where even one matrix with one work-item overflows local memory */
    const unsigned long long es = (unsigned long long)tune_elem(t);
    if ((unsigned long long)t->n * t->n * es + es + 4 > t->dev.local_mem_usable) return 0;
    if (param == LX) {
        for (int i = 0; i < nlx && k < max; i++)
            if (lxs[i] < t->n) out[k++] = lxs[i];
        if (t->n <= 64 && k < max) out[k++] = t->n;
        return k;
    }
    return tune_is_gpu(t) ? tune_copy_list(tbc_gpu, 6, out, max)
                          : tune_copy_list(tbc_cpu, 2, out, max);
}

static const char *fused_prune(const int *c, const tune_target *t, char *why, size_t size) {
    const int n = t->n, lx = c[LX] < n ? c[LX] : n;
    const unsigned long long es = (unsigned long long)tune_elem(t);
    const unsigned long long local =
        (unsigned long long)c[TBC] * ((unsigned long long)n * n * es + lx * (es + 4));
    if (c[LX] < 1 || c[TBC] < 1) {
        snprintf(why, size, "the fused kernel cannot hold n = %d in local memory", n);
        return "local memory";
    }
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
    return NULL;
}

static void fused_to(const int *c, tune_params *p) {
    *p = (tune_params){0};
    p->getrf = (bchol_getrf_config){.variant = BCHOL_GETRF_FUSED, .lx = c[LX], .tbc = c[TBC]};
}

static void fused_from(const tune_params *p, int *c) {
    c[LX] = p->getrf.lx;
    c[TBC] = p->getrf.tbc;
}

static void fused_defaults(bchol_context *ctx, const tune_target *t, int *c) {
    tune_params p = {0};
    variant_defaults(ctx, t, "fused", &p.getrf);
    fused_from(&p, c);
}

/* ---- blocked --------------------------------------------------------------------------- */

/* nb: panels narrower than n (one panel of n columns is the fused kernel's work with extra
 * launches; on CPUs not 8, which ran float n = 64 at 2.6x nb = 32's time); gemm: CLBlast's
 * on GPUs too (a configuration of a bchol built without it fails and is recorded so); ib:
 * inner panels (0: none) on GPUs from n = 128, where the panels' share of the time is
 * largest (on the H200 nb 32 ib 16 ran float 512 1.20x faster, float 128-256 0.89-0.95x). */
static int blocked_values(int param, const tune_target *t, int *out, int max) {
    static const int nbs[] = {8, 16, 32, 64};
    int k = 0;
    if (param == NB) {
        for (int i = tune_is_gpu(t) ? 0 : 1; i < 4 && k < max; i++)
            if (nbs[i] < t->n) out[k++] = nbs[i];
        return k;
    }
    if (param == IB) {
        out[k++] = 0;
        if (tune_is_gpu(t) && t->n >= 128)
            for (int ib = 8; ib <= 16 && k < max; ib *= 2) out[k++] = ib;
        return k;
    }
    out[k++] = BCHOL_GEMM_OWN;
    if (tune_is_gpu(t) && k < max) out[k++] = BCHOL_GEMM_CLBLAST;
    return k;
}

static const char *blocked_prune(const int *c, const tune_target *t, char *why, size_t size) {
    if (c[NB] >= t->n) { /* only from --set or the defaults */
        snprintf(why, size, "nb = %d: one panel covers n = %d", c[NB], t->n);
        return "redundant";
    }
    if (c[IB] > 0 && (c[IB] >= c[NB] || c[NB] % c[IB])) {
        snprintf(why, size, "ib = %d: inner panels need ib < nb = %d dividing it", c[IB], c[NB]);
        return "redundant";
    }
    return NULL;
}

static void blocked_to(const int *c, tune_params *p) {
    *p = (tune_params){0};
    p->getrf = (bchol_getrf_config){
        .variant = BCHOL_GETRF_BLOCKED, .nb = c[NB], .gemm = c[GEMM], .ib = c[IB]};
}

static void blocked_from(const tune_params *p, int *c) {
    c[NB] = p->getrf.nb;
    c[GEMM] = p->getrf.gemm;
    c[IB] = p->getrf.ib;
}

static void blocked_defaults(bchol_context *ctx, const tune_target *t, int *c) {
    tune_params p = {0};
    variant_defaults(ctx, t, "blocked", &p.getrf);
    blocked_from(&p, c);
}

/* ---- workitem -------------------------------------------------------------------------- */

/* tbc: matrices (work-items) per group; nb: the panel width of its blocked getf2 (1:
 * unblocked), up to n. Swept on CPUs only, as the Cholesky workitem variant (one
 * work-item per matrix leaves a GPU's lanes idle). */
static int workitem_values(int param, const tune_target *t, int *out, int max) {
    static const int tbcs[] = {1, 4, 8, 16}, nbs[] = {1, 4, 8, 16, 32};
    if (tune_is_gpu(t)) return 0;
    if (param == 0) return tune_copy_list(tbcs, 4, out, max);
    int k = 0;
    for (int i = 0; i < 5 && k < max; i++)
        if (nbs[i] == 1 || nbs[i] <= t->n) out[k++] = nbs[i];
    return k;
}

static const char *workitem_prune(const int *c, const tune_target *t, char *why, size_t size) {
    if ((size_t)c[0] > t->dev.max_work_group) {
        snprintf(why, size, "%d work-items per group; the device takes %zu", c[0],
                 t->dev.max_work_group);
        return "work-group size";
    }
    return NULL;
}

static void workitem_to(const int *c, tune_params *p) {
    *p = (tune_params){0};
    p->getrf = (bchol_getrf_config){.variant = BCHOL_GETRF_WORKITEM, .tbc = c[0], .nb = c[1]};
}

static void workitem_from(const tune_params *p, int *c) {
    c[0] = p->getrf.tbc;
    c[1] = p->getrf.nb;
}

static void workitem_defaults(bchol_context *ctx, const tune_target *t, int *c) {
    tune_params p = {0};
    variant_defaults(ctx, t, "workitem", &p.getrf);
    workitem_from(&p, c);
}

/* ---- regs ------------------------------------------------------------------------------ */

/* Orders the regs variant is swept at: it keeps a row per work-item in registers, meant
 * for small orders (on the H200 its rows spill at float n = 128); larger ones are the
 * fused and blocked variants'. */
#define REGS_MAX_N 128

/* tbc: matrices per group, on GPUs only (on CPUs small orders are the workitem variant's
 * ground, and PoCL runs regs slowly); nothing where the kernel cannot run n (a matrix's n
 * work-items past the group limit, or its pivot keys and row, 2n elements for the tuner's
 * square matrices, past local memory: bchol__getrf_regs_fits) or past REGS_MAX_N. The defaults' tbc 0 (the
 * driver's group, about 128 work-items) is measured beside them. */
static int regs_values(int param, const tune_target *t, int *out, int max) {
    static const int tbcs[] = {1, 2, 4, 8, 16, 32};
    (void)param;
    const unsigned long long keys_row = 2ull * (unsigned long long)t->n * tune_elem(t);
    if (!tune_is_gpu(t) || t->n > REGS_MAX_N || (size_t)t->n > t->dev.max_work_group ||
        keys_row > t->dev.local_mem_usable)
        return 0;
    return tune_copy_list(tbcs, 6, out, max);
}

/* A group of tbc matrices takes m*tbc work-items (n*tbc for the tuner's square matrices)
 * and 2n elements of local memory a matrix; past either limit the driver would quietly
 * run fewer. */
static const char *regs_prune(const int *c, const tune_target *t, char *why, size_t size) {
    const unsigned long long tbc = c[0] > 0 ? (unsigned long long)c[0] : 1;
    if (tbc * (unsigned long long)t->n > t->dev.max_work_group) {
        snprintf(why, size, "%llu work-items per group; the device takes %zu",
                 tbc * (unsigned long long)t->n, t->dev.max_work_group);
        return "work-group size";
    }
    const unsigned long long local = tbc * 2ull * (unsigned long long)t->n * tune_elem(t);
    if (local > t->dev.local_mem_usable) {
        snprintf(why, size, "needs %llu bytes of local memory; a kernel may use %llu", local,
                 (unsigned long long)t->dev.local_mem_usable);
        return "local memory";
    }
    return NULL;
}

static void regs_to(const int *c, tune_params *p) {
    *p = (tune_params){0};
    p->getrf = (bchol_getrf_config){.variant = BCHOL_GETRF_REGS, .tbc = c[0]};
}

static void regs_from(const tune_params *p, int *c) { c[0] = p->getrf.tbc; }

static void regs_defaults(bchol_context *ctx, const tune_target *t, int *c) {
    tune_params p = {0};
    variant_defaults(ctx, t, "regs", &p.getrf);
    regs_from(&p, c);
}

const tune_variant tune_getrf_fused = {
    .name = "getrf-fused",
    .variant = BCHOL_VARIANT_AUTO, /* no Cholesky variant */
    .lu = 1,
    .nparams = 2,
    .param_names = fused_names,
    .launch_params = 0, /* lx and tbc are the program's macros */
    .labels = plain2,
    .values = fused_values,
    .prune = fused_prune,
    .to_params = fused_to,
    .from_params = fused_from,
    .defaults = fused_defaults,
    .prepare = prepare,
    .run = run,
};

const tune_variant tune_getrf_blocked = {
    .name = "getrf-blocked",
    .variant = BCHOL_VARIANT_AUTO,
    .lu = 1,
    .nparams = 3,
    .zero_params = 1u << IB, /* ib 0: no inner panels */
    .param_names = blocked_names,
    .labels = blocked_labels,
    .values = blocked_values,
    .prune = blocked_prune,
    .to_params = blocked_to,
    .from_params = blocked_from,
    .defaults = blocked_defaults,
    .prepare = prepare,
    .run = run,
};

const tune_variant tune_getrf_workitem = {
    .name = "getrf-workitem",
    .variant = BCHOL_VARIANT_AUTO,
    .lu = 1,
    .nparams = 2,
    .optional_params = 1u << 1, /* nb: records from before it have none (0: the library's) */
    .param_names = workitem_names,
    .launch_params = 1u << 0, /* matrices per group: a launch argument */
    .labels = plain2,
    .values = workitem_values,
    .prune = workitem_prune,
    .to_params = workitem_to,
    .from_params = workitem_from,
    .defaults = workitem_defaults,
    .prepare = prepare,
    .run = run,
};

const tune_variant tune_getrf_regs = {
    .name = "getrf-regs",
    .variant = BCHOL_VARIANT_AUTO,
    .lu = 1,
    .nparams = 1,
    .param_names = regs_names,
    .launch_params = 0, /* tbc is the program's macro (TBC) */
    .labels = plain2,
    .values = regs_values,
    .prune = regs_prune,
    .to_params = regs_to,
    .from_params = regs_from,
    .defaults = regs_defaults,
    .prepare = prepare,
    .run = run,
};
