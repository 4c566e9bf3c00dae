/* The workitem variant's search space (one work-item per matrix, cl_kernels/chol/
 * potrf_workitem.cl): block width wnb, vector width wvec, register tile wmr, matrices per
 * work-group wgroup. Swept on CPU devices only: a GPU runs it far behind the fused kernel
 * (one work-item per matrix leaves its lanes idle), and it should not lengthen their
 * tuning. */
#include "tune.h"

#include <stdio.h>

enum { WNB, WVEC, WMR, WGROUP, NPARAMS };

static const char *const names[NPARAMS] = {"wnb", "wvec", "wmr", "wgroup"};
static const char *const *const labels[NPARAMS] = {NULL, NULL, NULL, NULL};

static int values(int param, const tune_target *t, int *out, int max) {
    static const int wnbs[] = {8, 16, 32}, wvecs[] = {4, 8, 16}, wmrs[] = {1, 2}, groups[] = {8};
    static const int *const lists[NPARAMS] = {wnbs, wvecs, wmrs, groups};
    static const int counts[NPARAMS] = {3, 3, 2, 1};
    if (tune_is_gpu(t)) return 0;
    int k = 0;
    for (int i = 0; i < counts[param] && k < max; i++)
        out[k++] = lists[param][i];
    return k;
}

static const char *prune(const int *c, const tune_target *t, char *why, size_t size) {
    /* blocks wider than the matrix are one unblocked step, as the narrowest that covers it */
    if (c[WNB] > 8 && c[WNB] / 2 >= t->n) {
        snprintf(why, size, "wnb = %d: a block of %d columns already covers n = %d", c[WNB],
                 c[WNB] / 2, t->n);
        return "redundant";
    }
    return NULL;
}

static void to_params(const int *c, tune_params *t) {
    *t = (tune_params){0};
    t->p = (bchol_params){.variant = BCHOL_VARIANT_WORKITEM,
                          .wnb = c[WNB],
                          .wvec = c[WVEC],
                          .wmr = c[WMR],
                          .wgroup = c[WGROUP]};
}

static void from_params(const tune_params *t, int *c) {
    c[WNB] = t->p.wnb;
    c[WVEC] = t->p.wvec;
    c[WMR] = t->p.wmr;
    c[WGROUP] = t->p.wgroup;
}

static void defaults(bchol_context *ctx, const tune_target *t, int *c) {
    tune_params p = {0};
    bchol_potrf_params(ctx, t->precision, t->n, &p.p, NULL);
    from_params(&p, c);
}

const tune_variant tune_workitem = {
    .name = "workitem",
    .variant = BCHOL_VARIANT_WORKITEM,
    .probe_every_k = 1,
    .nparams = NPARAMS,
    .param_names = names,
    .launch_params = 1u << WGROUP,
    .labels = labels,
    .values = values,
    .prune = prune,
    .to_params = to_params,
    .from_params = from_params,
    .defaults = defaults,
    .prepare = tune_strided_prepare,
    .run = tune_strided_run,
};
