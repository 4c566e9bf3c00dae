/* The variants bchol tune sweeps (one table each, tune_<variant>.c), and the helpers that
 * turn a configuration into text and into the "params" object of a tuning file. */
#include "tune.h"

#include <stdio.h>
#include <string.h>

extern const tune_variant tune_fused, tune_separate, tune_interleaved, tune_interleaved_native,
    tune_vbatched, tune_solve, tune_workitem, tune_getrf_fused, tune_getrf_blocked, tune_getrf_workitem,
    tune_getrf_regs, tune_getrs, tune_solve_workitem, tune_getrs_workitem, tune_getri;

/* Sweep order within a size; each variant's values() returns nothing at sizes outside
 * its range, so that by default every variant that applies to a size is measured. */
const tune_variant *const tune_variants[] = {&tune_fused,          &tune_interleaved,    &tune_interleaved_native,
                                             &tune_separate,       &tune_workitem,       &tune_vbatched,
                                             &tune_solve,          &tune_solve_workitem, &tune_getrf_fused,
                                             &tune_getrf_blocked,  &tune_getrf_workitem, &tune_getrf_regs,
                                             &tune_getrs,          &tune_getrs_workitem, &tune_getri,
                                             NULL};
_Static_assert(sizeof tune_variants / sizeof tune_variants[0] <= TUNE_MAX_VARIANTS + 1,
               "more variants than TUNE_MAX_VARIANTS: raise it (tune.h)");

const tune_variant *tune_variant_named(const char *name)
{
    for (int i = 0; tune_variants[i]; i++)
        if (!strcmp(tune_variants[i]->name, name)) return tune_variants[i];
    return NULL;
}

bchol_status tune_strided_prepare(bchol_context *ctx, const tune_target *t, char uplo,
                                  const tune_params *p, tune_params *effective)
{
    *effective = *p;
    return bchol_potrf_prepare(ctx, &p->p, t->precision, uplo, t->n, &effective->p);
}

bchol_status tune_strided_run(bchol_context *ctx, const tune_target *target, tune_workload *w,
                              const tune_params *t)
{
    (void)target;
    const bchol_params *p = &t->p;
    const int n = w->n;
    if (w->precision == 'd')
        return bchol_dpotrf_batched_ex(ctx, p, w->uplo, n, w->A, 0, n, (int64_t)n * n, w->batch,
                                       w->info, NULL);
    return bchol_spotrf_batched_ex(ctx, p, w->uplo, n, w->A, 0, n, (int64_t)n * n, w->batch,
                                   w->info, NULL);
}

void tune_format_config(const tune_variant *v, const int *cfg, char *out, size_t size)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < v->nparams && used < size; i++) {
        int w = v->labels[i] ? snprintf(out + used, size - used, "%s%s=%s", i ? " " : "",
                                        v->param_names[i], v->labels[i][cfg[i]])
                             : snprintf(out + used, size - used, "%s%s=%d", i ? " " : "",
                                        v->param_names[i], cfg[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

cJSON *tune_config_json(const tune_variant *v, const int *cfg)
{
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; o && i < v->nparams; i++) {
        if (v->labels[i])
            cJSON_AddStringToObject(o, v->param_names[i], v->labels[i][cfg[i]]);
        else
            cJSON_AddNumberToObject(o, v->param_names[i], cfg[i]);
    }
    return o;
}

int tune_config_from_json(const tune_variant *v, const cJSON *params, int *cfg)
{
    for (int i = 0; i < v->nparams; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(params, v->param_names[i]);
        if (v->labels[i]) {
            int found = -1;
            for (int k = 0; cJSON_IsString(x) && v->labels[i][k]; k++)
                if (!strcmp(x->valuestring, v->labels[i][k])) found = k;
            if (found < 0) return -1;
            cfg[i] = found;
        } else if (!x && (v->optional_params >> i & 1u)) {
            cfg[i] = 0;
        } else {
            if (!cJSON_IsNumber(x)) return -1;
            cfg[i] = x->valueint;
        }
    }
    return 0;
}
