/* getri's search space ("getri"): the path bchol_{s,d}getri_batched takes (the solve of
 * A*C = I with getrs' kernel, dgetri's steps fused in one launch for n <= 64, or dgetri
 * blocked) and the blocked path's panel width nb: the choice the backend makes by fixed
 * size bounds (backends/: getri_fused_from/_to, getri_solve_to, getri_nb), which a tuning
 * entry replaces per precision and size. Why: where the paths cross over depends on the
 * device (the solve does 2n^3 flops against dgetri's 4n^3/3 but in getrs' tuned kernel;
 * the fused kernel holds a row in registers; the blocked path's GEMMs pay off only at
 * larger n), and nb sets those GEMMs' shape; the bounds were measured on a few devices
 * only (on the 2-core EPYC's PoCL, 2026-11-28, the solve ran n = 8, 24 and 70 fastest,
 * fused 2-4x and blocked 3-80x its time). A configuration runs bchol_{s,d}getri_batched
 * with BCHOL_GETRI naming it (the override the library reads at every call), on getrf's
 * factors of the LU batch (general matrices, one singular: tune_workload_getrs), C
 * written over the working batch; checked by every info and ||I - A*C|| of the sampled
 * matrices (tune_workload_verify_getri). It competes with nothing else (a confirmation
 * round of its own: own_round), and is planned only where --variants names it, like
 * getrf's and getrs'. */
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PATH, NB };

static const char *const names[] = {"path", "nb"};
/* labels[v] is bchol_getri_path v (host/tuning/tuning_file.c reads them so); an entry
 * never names auto */
static const char *const path_labels[] = {"auto", "solve", "fused", "blocked", NULL};
static const char *const *const labels[] = {path_labels, NULL};

/* The fused kernel keeps a row of n in registers (host/lu/getri.h); BCHOL_GETRI takes nb
 * 1..64. */
#define FUSED_MAX 64
#define NB_MAX 64

/* BCHOL_GETRI's text for a configuration ("blocked,nb=16"). */
static void env_text(const bchol_getri_config *g, char *out, size_t size)
{
    switch (g->path) {
    case BCHOL_GETRI_SOLVE: snprintf(out, size, "solve"); break;
    case BCHOL_GETRI_FUSED: snprintf(out, size, "fused"); break;
    case BCHOL_GETRI_BLOCKED: snprintf(out, size, "blocked,nb=%d", g->nb); break;
    default: snprintf(out, size, "auto"); break;
    }
}

/* Forces the configuration for the library calls that follow (unset with NULL). */
static void force(const bchol_getri_config *g)
{
    char text[64];
    if (!g) {
        unsetenv("BCHOL_GETRI");
        return;
    }
    env_text(g, text, sizeof text);
    setenv("BCHOL_GETRI", text, 1);
}

/* path: solve, fused up to n = 64, blocked. nb: 0 (the paths without panels), and the
 * blocked path's panels 8, 16, 32, 64 up to n (nb = n: one panel, inv(U) in one triangular
 * step, no GEMM; below n = 8, n alone). At most 6 configurations a size, so the list is
 * the same on CPUs. */
static int values(int param, const tune_target *t, int *out, int max)
{
    static const int nbs[] = {8, 16, 32, 64};
    int k = 0;
    if (param == PATH) {
        out[k++] = BCHOL_GETRI_SOLVE;
        if (t->n <= FUSED_MAX && k < max) out[k++] = BCHOL_GETRI_FUSED;
        if (k < max) out[k++] = BCHOL_GETRI_BLOCKED;
        return k;
    }
    out[k++] = 0;
    for (int i = 0; i < 4 && k < max; i++)
        if (nbs[i] <= t->n) out[k++] = nbs[i];
    if (t->n < nbs[0] && k < max) out[k++] = t->n;
    return k;
}

/* The cross-combinations (a path without panels given one, the blocked path none), and
 * what only --set can ask for: auto, fused past n = 64, panels wider than n or than
 * BCHOL_GETRI takes. */
static const char *prune(const int *c, const tune_target *t, char *why, size_t size)
{
    if (c[PATH] < BCHOL_GETRI_SOLVE || c[PATH] > BCHOL_GETRI_BLOCKED) {
        snprintf(why, size, "path %d: auto is the dispatcher's choice, not a path", c[PATH]);
        return "no path";
    }
    if (c[PATH] != BCHOL_GETRI_BLOCKED && c[NB]) {
        snprintf(why, size, "path %s has no panels (nb = %d)", path_labels[c[PATH]], c[NB]);
        return "nb without panels";
    }
    if (c[PATH] == BCHOL_GETRI_BLOCKED && c[NB] < 1) {
        snprintf(why, size, "path blocked needs a panel width (nb = %d)", c[NB]);
        return "blocked without nb";
    }
    if (c[PATH] == BCHOL_GETRI_FUSED && t->n > FUSED_MAX) {
        snprintf(why, size, "the fused kernel takes n <= %d", FUSED_MAX);
        return "fused size";
    }
    if (c[PATH] == BCHOL_GETRI_BLOCKED && (c[NB] > t->n || c[NB] > NB_MAX)) {
        snprintf(why, size, "nb = %d: a panel is at most min(n, %d) = %d wide", c[NB], NB_MAX,
                 t->n < NB_MAX ? t->n : NB_MAX);
        return "redundant";
    }
    return NULL;
}

static void to_params(const int *c, tune_params *p)
{
    *p = (tune_params){0};
    p->getri = (bchol_getri_config){(bchol_getri_path)c[PATH], c[NB]};
}

static void from_params(const tune_params *p, int *c)
{
    c[PATH] = (int)p->getri.path;
    c[NB] = p->getri.nb;
}

/* What the untuned library runs at n: BCHOL_GETRI unset (the tuner reads no tuning file:
 * BCHOL_TUNING_FILE=off), so the backend's defaults. Should the query fail, the solve,
 * which runs any n (never auto: an entry naming it would make the library refuse the
 * file). */
static void defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    tune_params p = {0};
    force(NULL);
    if (bchol_getri_config_for(ctx, t->precision, t->n, &p.getri, NULL))
        p.getri = (bchol_getri_config){BCHOL_GETRI_SOLVE, 0};
    from_params(&p, c);
}

/* One getri of the factors of one identity matrix of order n (L = U = I, no
 * interchanges) with the configuration forced: getri builds its kernels at its first call,
 * so this builds what the timed calls run (getrs' kernel at nrhs = n, the fused kernel, or
 * the blocked path's panel and GEMM kernels for nb). What the build processes run too. The
 * effective configuration: bchol_getri_config_for under the same override. */
static bchol_status prepare(bchol_context *ctx, const tune_target *t, char uplo, const tune_params *p,
                            tune_params *effective)
{
    (void)uplo;
    *effective = *p;
    const int n = t->n;
    const size_t elem = t->precision == 'd' ? sizeof(double) : sizeof(float);
    unsigned char *a = calloc((size_t)n * n, elem);
    int *piv = malloc((size_t)n * sizeof *piv);
    if (!a || !piv) {
        free(a);
        free(piv);
        return BCHOL_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        if (t->precision == 'd') ((double *)a)[(size_t)i * n + i] = 1;
        else ((float *)a)[(size_t)i * n + i] = 1;
        piv[i] = i + 1;
    }
    cl_context cl = bchol_context_cl_context(ctx);
    cl_int err = CL_SUCCESS;
    const cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    cl_mem A = clCreateBuffer(cl, in, (size_t)n * n * elem, a, &err);
    cl_mem ipiv = A ? clCreateBuffer(cl, in, (size_t)n * sizeof(int), piv, &err) : NULL;
    cl_mem C = ipiv ? clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)n * n * elem, NULL, &err) : NULL;
    cl_mem info = C ? clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(int), NULL, &err) : NULL;
    free(a);
    free(piv);
    bchol_status st = BCHOL_ERR_OUT_OF_MEMORY;
    if (info) {
        const int64_t sa = (int64_t)n * n;
        force(&p->getri);
        st = bchol_getri_config_for(ctx, t->precision, n, &effective->getri, NULL);
        if (!st)
            st = t->precision == 'd'
                     ? bchol_dgetri_batched(ctx, n, A, 0, n, sa, ipiv, 0, n, C, 0, n, sa, 1, info, NULL)
                     : bchol_sgetri_batched(ctx, n, A, 0, n, sa, ipiv, 0, n, C, 0, n, sa, 1, info, NULL);
        force(NULL);
        if (!st && clFinish(bchol_context_queue(ctx)) != CL_SUCCESS) st = BCHOL_ERR_OPENCL;
    }
    cl_mem bufs[] = {A, ipiv, C, info};
    for (int i = 0; i < 4; i++)
        if (bufs[i]) clReleaseMemObject(bufs[i]);
    return st;
}

/* getri on getrs' factors and pivots of the LU batch (made at the first run, not timed),
 * C over the working batch (w->A holds batch >= lu_batch matrices of n*n), lda = ldc = n. */
static bchol_status run(bchol_context *ctx, const tune_target *t, tune_workload *w, const tune_params *p)
{
    (void)t;
    char why[300];
    if (tune_workload_getrs(w, why, sizeof why)) return BCHOL_ERR_OUT_OF_MEMORY;
    const int n = w->n;
    const int64_t sa = (int64_t)n * n;
    force(&p->getri);
    const bchol_status st =
        w->precision == 'd'
            ? bchol_dgetri_batched(ctx, n, w->lu_f, 0, n, sa, w->lu_p, 0, n, w->A, 0, n, sa, w->lu_batch, w->info,
                                   NULL)
            : bchol_sgetri_batched(ctx, n, w->lu_f, 0, n, sa, w->lu_p, 0, n, w->A, 0, n, sa, w->lu_batch, w->info,
                                   NULL);
    force(NULL);
    return st;
}

static int verify(tune_workload *w, const tune_target *t, char *why, size_t size)
{
    (void)t;
    return tune_workload_verify_getri(w, why, size);
}

const tune_variant tune_getri = {
    .name = "getri",
    .variant = BCHOL_VARIANT_AUTO, /* no factorization variant */
    .lu = 1,                       /* getrf's batch (fewer matrices on CPUs); only where named */
    .own_round = 1,                /* competes with nothing: not in getrf's round */
    .nparams = 2,                  /* path, nb */
    .zero_params = 1u << NB,       /* nb 0: the solve and fused paths */
    .param_names = names,
    .labels = labels,
    .values = values,
    .prune = prune,
    .to_params = to_params,
    .from_params = from_params,
    .defaults = defaults,
    .prepare = prepare,
    .run = run,
    .verify = verify,
};
