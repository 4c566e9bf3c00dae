/* The separate variant's search space: block size nb of the right-looking loop, inner
 * block pb of the panel's POTF2, the trailing update's GEMM (bchol's tiles or CLBlast),
 * the tile order of bchol's GEMM kernels, and gb, the diagonal blocks bchol's SYRK keeps
 * when CLBlast updates the rest. Swept only from n = 32: below, a step is one launch of
 * next to no work and the fused and interleaved variants are the contenders. */
#include "tune.h"

#include <stdio.h>

enum { NB, PB, GEMM, TILE, GB, NPARAMS };

#define MIN_N 32

static const char *const names[NPARAMS] = {"nb", "pb", "gemm", "tile", "gb"};
static const char *const gemm_labels[] = {"default", "own", "clblast", NULL};
static const char *const *const labels[NPARAMS] = {NULL, NULL, gemm_labels, NULL, NULL};

static int pow2_at_least(int x)
{
    int p = 1;
    while (p < x) p *= 2;
    return p;
}

static int values(int param, const tune_target *t, int *out, int max)
{
    static const int nbs[] = {8, 16, 32, 64}, pbs[] = {4, 8, 16, 32, 64}, tiles[] = {16, 32, 64, 128},
                     gbs[] = {64, 128, 256, 512};
    const int n = t->n;
    int k = 0;
    if (n < MIN_N) return 0;
    switch (param) {
    case NB: /* a block as wide as the matrix is one unblocked step: the widest kept */
        for (int i = 0; i < 4 && k < max; i++)
            if (nbs[i] < n || (i == 0 || nbs[i - 1] < n)) out[k++] = nbs[i];
        return k;
    case PB:
        for (int i = 0; i < 5 && k < max; i++) out[k++] = pbs[i];
        return k;
    case GEMM:
        out[k++] = BCHOL_GEMM_OWN;
#ifdef BCHOL_HAVE_CLBLAST
        if (k < max) out[k++] = BCHOL_GEMM_CLBLAST;
#endif
        return k;
    case TILE: /* tiles larger than the trailing matrix rounded up only idle work-items */
        for (int i = 0; i < 4 && k < max; i++)
            if (tiles[i] <= pow2_at_least(n) || i == 0) out[k++] = tiles[i];
        return k;
    case GB: /* the backend's first: gemm = own ignores gb and runs with it */
        out[k++] = t->defaults.gb > 0 ? t->defaults.gb : gbs[0];
        for (int i = 0; i < 4 && k < max; i++)
            if (gbs[i] < n && gbs[i] != out[0]) out[k++] = gbs[i];
        return k;
    }
    return 0;
}

static const char *prune(const int *c, const tune_target *t, char *why, size_t size)
{
    if (c[PB] > c[NB]) {
        snprintf(why, size, "pb = %d > nb = %d is the same unblocked panel as pb = nb", c[PB], c[NB]);
        return "redundant";
    }
    /* gemm = own ignores gb: only the backend's gb is measured, not the same run again */
    if (c[GEMM] != BCHOL_GEMM_CLBLAST && c[GB] != t->defaults.gb) {
        snprintf(why, size, "gb = %d only matters with gemm = clblast", c[GB]);
        return "redundant";
    }
    if (c[GEMM] == BCHOL_GEMM_CLBLAST && c[GB] >= t->n - c[NB]) {
        snprintf(why, size, "gb = %d covers the trailing matrix: CLBlast would update nothing",
                 c[GB]);
        return "redundant";
    }
    /* the GEMM tiles keep kb rows of both operands in local memory (potrf_separate.c) */
    const int kb = c[NB] < 16 ? pow2_at_least(c[NB]) : 16;
    const unsigned long long local = (unsigned long long)kb * (2ULL * c[TILE] + 2) * tune_elem(t);
    if (local > t->dev.local_mem_usable) {
        snprintf(why, size, "GEMM tiles of %d need %llu bytes of local memory; a kernel may use %llu",
                 c[TILE], local, (unsigned long long)t->dev.local_mem_usable);
        return "local memory";
    }
    /* bchol's GEMM kernels run 16 x 16 work-items */
    if (t->dev.max_work_group < 256) {
        snprintf(why, size, "the GEMM tiles need 256 work-items per group; the device takes %zu",
                 t->dev.max_work_group);
        return "work-group size";
    }
    return NULL;
}

static void to_params(const int *c, tune_params *t)
{
    *t = (tune_params){0};
    t->p = (bchol_params){.variant = BCHOL_VARIANT_SEPARATE, .nb = c[NB], .pb = c[PB], .gemm = c[GEMM],
                        .tile = c[TILE], .gb = c[GB]};
}

static void from_params(const tune_params *t, int *c)
{
    const bchol_params *p = &t->p;
    c[NB] = p->nb;
    c[PB] = p->pb;
    c[GEMM] = p->gemm;
    c[TILE] = p->tile;
    c[GB] = p->gb;
}

static void defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    tune_params p = {0};
    bchol_potrf_params(ctx, t->precision, t->n, &p.p, NULL);
    from_params(&p, c);
}

const tune_variant tune_separate = {
    .name = "separate",
    .gpu_default = 1, /* on CPUs only where named (tune.h) */
    .variant = BCHOL_VARIANT_SEPARATE,
    .probe_every_k = 1,
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
