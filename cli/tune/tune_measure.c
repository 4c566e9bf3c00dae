/* Measuring one configuration: build it (pruned when the library would run another
 * work-group), run it once and check the results against the reference (the warm-up),
 * then time --reps runs with OpenCL profiling events. Returns the record for the file:
 * the time, or why it failed. */
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void first_line(const char *text, char *out, size_t size)
{
    snprintf(out, size, "%s", text);
    char *nl = strchr(out, '\n');
    if (nl) *nl = 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A time as the file gives it back: in whole tenths of a nanosecond. cJSON writes 15
 * significant digits, which bring back a neighbouring double for about a third of the
 * times (ns * 1e-6, and their medians), so a decision made on the times in memory could
 * differ from the same decision on --resume where two times tie (most likely how CI's
 * tune_run_probes came to plan another probe when resuming a complete run). Such a time
 * is written and read back exactly (to 4e5 ms). */
static double stored_ms(double ms) { return round(ms * 1e7) / 1e7; }

/* What every record of a configuration says first: which one it is. */
static cJSON *record_head(const tune_workload *w, const tune_item *it)
{
    cJSON *r = cJSON_CreateObject();
    char prec[2] = {it->precision, 0};
    cJSON_AddStringToObject(r, "precision", prec);
    cJSON_AddStringToObject(r, "variant", it->v->name);
    cJSON_AddNumberToObject(r, "n", it->n);
    if (it->nrhs) cJSON_AddNumberToObject(r, "nrhs", it->nrhs);
    /* getrf's runs take fewer matrices on CPUs (tune_lu_batch) */
    bchol_device_info d;
    bchol_context_device_info(w->ctx, &d);
    const long long batch = it->v->lu ? tune_lu_batch(&d, w->n, w->batch) : w->batch;
    cJSON_AddNumberToObject(r, "batch", (double)batch);
    cJSON_AddItemToObject(r, "params", tune_config_json(it->v, it->cfg));
    if (it->is_default) cJSON_AddTrueToObject(r, "default");
    return r;
}

cJSON *tune_record_failed(const tune_workload *w, const tune_item *it, const char *why, double seconds)
{
    cJSON *r = record_head(w, it);
    cJSON_AddStringToObject(r, "failed", why);
    cJSON_AddNumberToObject(r, "seconds", round(seconds * 1000) / 1000);
    return r;
}

cJSON *tune_measure(const tune_timing *o, bchol_context *ctx, const tune_target *size_target,
                    tune_workload *w, const tune_item *it)
{
    const tune_variant *v = it->v;
    tune_target item_target = *size_target;
    item_target.nrhs = it->nrhs; /* the solve's problem */
    const tune_target *t = &item_target;
    cJSON *r = record_head(w, it);
    char why[600];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);

    tune_params prm, eff;
    v->to_params(it->cfg, &prm);
    bchol_status st = v->prepare(ctx, t, o->uplo, &prm, &eff);
    if (st) {
        char line[400];
        first_line(bchol_last_error(ctx), line, sizeof line);
        snprintf(why, sizeof why, "%s: %s", bchol_status_string(st), line);
        cJSON_AddStringToObject(r, "failed", why);
        return r;
    }
    int ecfg[TUNE_MAX_PARAMS];
    v->from_params(&eff, ecfg);
    if (memcmp(ecfg, it->cfg, sizeof(int) * (size_t)v->nparams)) {
        char as[200];
        tune_format_config(v, ecfg, as, sizeof as);
        if (!it->is_default) {
            /* the library would run another configuration: that one is measured on its own */
            snprintf(why, sizeof why,
                     "the built kernel takes fewer work-items (CL_KERNEL_WORK_GROUP_SIZE): the "
                     "library would run %s",
                     as);
            cJSON_AddStringToObject(r, "failed", why);
            return r;
        }
        cJSON_AddStringToObject(r, "runs_as", as); /* what the untuned library runs */
        prm = eff;
    }
    double *times = malloc((size_t)o->reps * sizeof *times);
    bchol_context_set_timing(ctx, 1);
    for (int k = 0; k < o->warmup + o->reps && !st; k++) {
        if (tune_workload_reset(w)) {
            snprintf(why, sizeof why, "resetting the batch failed");
            st = BCHOL_ERR_OPENCL;
            break;
        }
        double ms = 0;
        if ((st = v->run(ctx, t, w, &prm)) || (st = bchol_last_call_ms(ctx, &ms))) {
            char line[400];
            first_line(bchol_last_error(ctx), line, sizeof line);
            snprintf(why, sizeof why, "%s: %s", bchol_status_string(st), line);
            break;
        }
        if (k == 0 && v->after && (st = v->after(ctx, t, w, &prm))) {
            char line[400];
            first_line(bchol_last_error(ctx), line, sizeof line);
            snprintf(why, sizeof why, "%s: %s", bchol_status_string(st), line);
            break;
        }
        if (k == 0 && (v->verify           ? v->verify(w, t, why, sizeof why)
                       : v->solve && v->lu ? tune_workload_verify_getrs(w, t->nrhs, why, sizeof why)
                       : v->solve        ? tune_workload_verify_solve(w, t->nrhs, why, sizeof why)
                       : v->lu ? tune_workload_verify_lu(w, why, sizeof why)
                               : tune_workload_verify(w, v->variable_sizes, why, sizeof why))) {
            st = BCHOL_ERR_ARGUMENT; /* any non-zero: the reason is in why */
            break;
        }
        if (k >= o->warmup) times[k - o->warmup] = ms;
    }
    if (st) {
        cJSON_AddStringToObject(r, "failed", why);
    } else {
        qsort(times, (size_t)o->reps, sizeof *times, cmp_double);
        double median = o->reps % 2 ? times[o->reps / 2] : 0.5 * (times[o->reps / 2 - 1] + times[o->reps / 2]);
        cJSON_AddNumberToObject(r, "ms", stored_ms(o->use_min ? times[0] : median));
        cJSON_AddNumberToObject(r, "ms_median", stored_ms(median));
        cJSON_AddNumberToObject(r, "ms_min", stored_ms(times[0]));
        cJSON_AddNumberToObject(r, "ms_max", stored_ms(times[o->reps - 1]));
    }
    free(times);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cJSON_AddNumberToObject(r, "seconds",
                            round(((t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec)) * 1000) / 1000);
    return r;
}

/* Times the records again in interleaved rounds and writes "confirm_ms" into each. */
int tune_confirm(const tune_timing *o, bchol_context *ctx, const tune_target *t, tune_workload *w,
                 cJSON *const *records, int count, char *why, size_t size)
{
    tune_params prm[TUNE_CONFIRM_MAX];
    tune_target target[TUNE_CONFIRM_MAX];
    const tune_variant *var[TUNE_CONFIRM_MAX];
    double times[TUNE_CONFIRM_MAX][64];
    const int rounds = o->reps < 64 ? o->reps : 64;
    if (count > TUNE_CONFIRM_MAX) count = TUNE_CONFIRM_MAX;
    for (int i = 0; i < count; i++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(records[i], "variant");
        int cfg[TUNE_MAX_PARAMS];
        var[i] = cJSON_IsString(name) ? tune_variant_named(name->valuestring) : NULL;
        if (!var[i] || tune_config_from_json(var[i], cJSON_GetObjectItemCaseSensitive(records[i], "params"), cfg)) {
            snprintf(why, size, "a record to confirm has no known variant or parameters");
            return -1;
        }
        tune_params p;
        var[i]->to_params(cfg, &p);
        target[i] = *t;
        target[i].nrhs = tune_record_nrhs(records[i]);
        /* what the library runs (the defaults may have been fitted) */
        bchol_status st = var[i]->prepare(ctx, &target[i], o->uplo, &p, &prm[i]);
        if (st) {
            snprintf(why, size, "%s: %s", bchol_status_string(st), bchol_last_error(ctx));
            return -1;
        }
    }
    bchol_context_set_timing(ctx, 1);
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < count; i++) {
            double ms;
            bchol_status st = BCHOL_SUCCESS;
            if (tune_workload_reset(w) || (st = var[i]->run(ctx, &target[i], w, &prm[i])) ||
                (st = bchol_last_call_ms(ctx, &ms))) {
                snprintf(why, size, "%s: %s", bchol_status_string(st), bchol_last_error(ctx));
                return -1;
            }
            times[i][r] = ms;
        }
    for (int i = 0; i < count; i++) {
        qsort(times[i], (size_t)rounds, sizeof times[i][0], cmp_double);
        double median = rounds % 2 ? times[i][rounds / 2] : 0.5 * (times[i][rounds / 2 - 1] + times[i][rounds / 2]);
        cJSON_DeleteItemFromObjectCaseSensitive(records[i], "confirm_ms");
        cJSON_AddNumberToObject(records[i], "confirm_ms", stored_ms(o->use_min ? times[i][0] : median));
    }
    return 0;
}
