/* bchol tune --report FILE: per size, the best configuration against the backend defaults;
 * per parameter, how much the time depends on it (in the spirit of Table I of Kurzak and
 * Gates' interleaved batch Cholesky paper); how noisy the timings were. With --against
 * TUNED, how close the pick TUNED gives each size of FILE (its nearest measured size
 * below) comes to FILE's exhaustive best there: the check for sizes off the tuning grid.
 * Where the file measured several variants: the fastest per size and where it changes.
 * The solve's records are reported per nrhs (part of its problem), and never compared
 * with the factorizations; nor are the variants with rounds of their own (getrs,
 * getrs-workitem, getri) compared with any other. */
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const cJSON *r;
    double ms, confirm_ms; /* the sweep's time; the confirmation round's, or -1 */
    int cfg[TUNE_MAX_PARAMS];
} ok_record;

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *o, const char *key, double fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Whether record r is of the precision, variant and nrhs (0: none) being reported. */
static int of_group(const cJSON *r, char precision, const tune_variant *v, int nrhs)
{
    return str(r, "precision")[0] == precision && !strcmp(str(r, "variant"), v->name) &&
           tune_record_nrhs(r) == nrhs;
}

/* The successful records of one precision, variant, size and nrhs. */
static int collect(const cJSON *tried, char precision, const tune_variant *v, int n, int nrhs, ok_record *out,
                   int max, int *failed)
{
    int count = 0;
    *failed = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, tried)
    {
        if (!of_group(r, precision, v, nrhs) || (int)num(r, "n", -1) != n) continue;
        double ms = num(r, "ms", -1);
        if (ms < 0 || cJSON_GetObjectItemCaseSensitive(r, "failed")) {
            (*failed)++;
            continue;
        }
        if (count == max) continue;
        out[count].r = r;
        out[count].ms = ms;
        out[count].confirm_ms = num(r, "confirm_ms", -1);
        if (tune_config_from_json(v, cJSON_GetObjectItemCaseSensitive(r, "params"), out[count].cfg))
            continue;
        count++;
    }
    return count;
}

/* How much the time at one size depends on parameter p: the loss when p is held at its
 * worst value and the others tuned (best time with that value / best time), and the
 * spread of the median time over p's values. 0 when p took a single value. */
static int importance(const ok_record *rec, int count, int p, double *loss, double *spread)
{
    int values[TUNE_MAX_VALUES * 4], nvalues = 0;
    for (int i = 0; i < count; i++) {
        int k = 0;
        while (k < nvalues && values[k] != rec[i].cfg[p]) k++;
        if (k == nvalues && nvalues < (int)(sizeof values / sizeof values[0])) values[nvalues++] = rec[i].cfg[p];
    }
    if (nvalues < 2) return 0;
    double best = INFINITY, worst_best = 0, lo = INFINITY, hi = 0;
    double *times = malloc((size_t)count * sizeof *times);
    for (int k = 0; k < nvalues && times; k++) {
        int m = 0;
        double b = INFINITY;
        for (int i = 0; i < count; i++)
            if (rec[i].cfg[p] == values[k]) {
                times[m++] = rec[i].ms;
                if (rec[i].ms < b) b = rec[i].ms;
            }
        double med = median(times, m);
        if (b < best) best = b;
        if (b > worst_best) worst_best = b;
        if (med < lo) lo = med;
        if (med > hi) hi = med;
    }
    free(times);
    if (!(best > 0) || !(lo > 0)) return 0;
    *loss = worst_best / best;
    *spread = hi / lo;
    return 1;
}

static int same_identity(const cJSON *a, const cJSON *b)
{
    static const char *const keys[] = {"family", "vendor", "architecture", "name"};
    for (int i = 0; i < 4; i++)
        if (strcmp(str(a, keys[i]), str(b, keys[i]))) return 0;
    return 1;
}

static double rhs_ratio(int a, int b)
{
    const double x = a > 0 ? a : 1, y = b > 0 ? b : 1;
    return x > y ? x / y : y / x;
}

/* The chosen entry of `tuned` that the dispatcher would use at n (and nrhs): the nearest
 * measured size at or below n, else the smallest; among the solve's entries there, the
 * closest nrhs by ratio, the larger on a tie (host/tuning/tuning_lookup.c). */
static const cJSON *pick(const cJSON *tuned, char precision, const tune_variant *v, int n, int nrhs)
{
    const cJSON *e, *below = NULL, *smallest = NULL;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(tuned, "chosen"))
    {
        if (str(e, "precision")[0] != precision || strcmp(str(e, "variant"), v->name)) continue;
        int en = (int)num(e, "n", -1);
        if (en <= n && (!below || en > num(below, "n", -1))) below = e;
        if (!smallest || en < num(smallest, "n", -1)) smallest = e;
    }
    const cJSON *at = below ? below : smallest, *best = NULL;
    if (!at || !v->solve) return at;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(tuned, "chosen"))
    {
        if (str(e, "precision")[0] != precision || strcmp(str(e, "variant"), v->name) ||
            num(e, "n", -1) != num(at, "n", -1))
            continue;
        const int k = tune_record_nrhs(e), bk = best ? tune_record_nrhs(best) : 0;
        if (!best || rhs_ratio(k, nrhs) < rhs_ratio(bk, nrhs) ||
            (rhs_ratio(k, nrhs) == rhs_ratio(bk, nrhs) && k > bk))
            best = e;
    }
    return best;
}

/* For each size of this file: the time of the configuration `tuned` picks, measured here,
 * against the best measured here. */
static void check_against(const cJSON *tried, const cJSON *tuned, const char *against, char precision,
                          const tune_variant *v, int nrhs, const int *sizes, int nsizes, ok_record *rec, int max)
{
    int within = 0, compared = 0;
    double worst = 1;
    printf("picks of %s at these sizes, timed here:\n", against);
    printf("%6s %8s %11s %11s %8s  %s\n", "n", "from_n", "pick_ms", "best_ms", "ratio", "picked parameters");
    for (int s = 0; s < nsizes; s++) {
        int failed, count = collect(tried, precision, v, sizes[s], nrhs, rec, max, &failed), cfg[TUNE_MAX_PARAMS];
        const cJSON *e = pick(tuned, precision, v, sizes[s], nrhs);
        char params[200] = "-";
        /* strictly between its size and the next measured one: its "between" parameters
         * where it has them (host/chol/dispatch.c, params_at) */
        const cJSON *use = e ? cJSON_GetObjectItemCaseSensitive(e, "params") : NULL;
        if (e && sizes[s] > num(e, "n", -1) && sizes[s] <= num(e, "between_to", -1))
            use = cJSON_GetObjectItemCaseSensitive(e, "between");
        if (!e || tune_config_from_json(v, use, cfg)) {
            printf("%6d %8s %11s %11s %8s  (no entry in %s)\n", sizes[s], "-", "-", "-", "-", against);
            continue;
        }
        tune_format_config(v, cfg, params, sizeof params);
        /* the pick against the best here: in the confirmation round if the pick was one of
         * its finalists, else in the sweep */
        double best = INFINITY, best_confirmed = INFINITY, picked = -1, picked_confirmed = -1;
        for (int i = 0; i < count; i++) {
            if (rec[i].ms < best) best = rec[i].ms;
            if (rec[i].confirm_ms >= 0 && rec[i].confirm_ms < best_confirmed) best_confirmed = rec[i].confirm_ms;
            if (!memcmp(rec[i].cfg, cfg, sizeof(int) * (size_t)v->nparams)) {
                picked = rec[i].ms;
                picked_confirmed = rec[i].confirm_ms;
            }
        }
        if (picked_confirmed >= 0) {
            picked = picked_confirmed;
            best = best_confirmed;
        }
        if (picked < 0 || !count) {
            printf("%6d %8.0f %11s %11s %8s  %s (not measured here)\n", sizes[s], num(e, "n", -1), "-", "-", "-", params);
            continue;
        }
        /* times of 0 (runs shorter than the device's timer resolution) tie */
        double ratio = best > 0 ? picked / best : picked > 0 ? INFINITY : 1;
        compared++;
        within += ratio <= 1.05;
        if (ratio > worst) worst = ratio;
        printf("%6d %8.0f %11.4f %11.4f %7.3fx  %s\n", sizes[s], num(e, "n", -1), picked, best, ratio, params);
    }
    if (compared)
        printf("%d of %d sizes within 5%% of the best measured here; the worst pick is %.3fx the best\n", within,
               compared, worst);
}

/* "pruned up front: 24 (private memory 18, registers 6)" for a precision, variant and nrhs */
static void report_pruned(const cJSON *pruned, char precision, const tune_variant *v, int nrhs)
{
    const char *reasons[16];
    int counts[16], nreasons = 0, total = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, pruned)
    {
        if (!of_group(r, precision, v, nrhs)) continue;
        int k = 0;
        while (k < nreasons && strcmp(reasons[k], str(r, "reason"))) k++;
        if (k == nreasons && nreasons < 16) {
            reasons[nreasons] = str(r, "reason");
            counts[nreasons++] = 0;
        }
        if (k < nreasons) counts[k] += (int)num(r, "count", 0);
        total += (int)num(r, "count", 0);
    }
    printf("pruned up front (never built): %d", total);
    for (int k = 0; k < nreasons; k++) printf("%s%s %d", k ? ", " : " (", reasons[k], counts[k]);
    printf("%s\n", nreasons ? ")" : "");
}

static void report_group(const cJSON *tried, const cJSON *pruned, char precision, const tune_variant *v,
                         int nrhs, const cJSON *tuned, const char *against)
{
    int sizes[256], nsizes = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, tried)
    {
        if (!of_group(r, precision, v, nrhs)) continue;
        int n = (int)num(r, "n", -1), k = 0;
        while (k < nsizes && sizes[k] != n) k++;
        if (k == nsizes && nsizes < 256) sizes[nsizes++] = n;
    }
    if (!nsizes) return;
    for (int i = 1; i < nsizes; i++) /* insertion sort: a handful of sizes */
        for (int k = i; k > 0 && sizes[k - 1] > sizes[k]; k--) {
            int t = sizes[k];
            sizes[k] = sizes[k - 1];
            sizes[k - 1] = t;
        }
    const int max = cJSON_GetArraySize(tried) + 1;
    ok_record *rec = malloc((size_t)max * sizeof *rec);
    double *noise = malloc((size_t)max * sizeof *noise);
    double log_speedup = 0, seconds = 0;
    double loss_log[TUNE_MAX_PARAMS] = {0}, spread_log[TUNE_MAX_PARAMS] = {0};
    int counted[TUNE_MAX_PARAMS] = {0}, nspeedup = 0, nnoise = 0;
    if (!rec || !noise) return;

    if (nrhs) printf("\n## %c %s nrhs=%d\n", precision, v->name, nrhs);
    else printf("\n## %c %s\n", precision, v->name);
    printf("%6s %8s %6s %6s %11s %11s %8s %7s  %s\n", "n", "batch", "ok", "failed", "best_ms",
           "default_ms", "speedup", "noise", "best parameters");
    for (int s = 0; s < nsizes; s++) {
        int failed, count = collect(tried, precision, v, sizes[s], nrhs, rec, max, &failed), confirmed = 0;
        const ok_record *best = NULL, *deflt = NULL;
        for (int i = 0; i < count; i++) confirmed |= rec[i].confirm_ms >= 0;
        /* as the chosen entries: after a confirmation round its times decide */
#define TIME(x) (confirmed && (x)->confirm_ms >= 0 ? (x)->confirm_ms : (x)->ms)
        for (int i = 0; i < count; i++) {
            if ((!confirmed || rec[i].confirm_ms >= 0) && (!best || TIME(&rec[i]) < TIME(best))) best = &rec[i];
            if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec[i].r, "default"))) deflt = &rec[i];
            double lo = num(rec[i].r, "ms_min", rec[i].ms), hi = num(rec[i].r, "ms_max", rec[i].ms);
            noise[nnoise++] = (hi - lo) / rec[i].ms;
            seconds += num(rec[i].r, "seconds", 0);
        }
        const cJSON *x;
        cJSON_ArrayForEach(x, tried)
        {
            if (of_group(x, precision, v, nrhs) && (int)num(x, "n", -1) == sizes[s] &&
                cJSON_GetObjectItemCaseSensitive(x, "failed"))
                seconds += num(x, "seconds", 0);
        }
        if (!best) {
            printf("%6d %8s %6d %6d %11s %11s %8s %7s  (every configuration failed)\n", sizes[s], "-",
                   count, failed, "-", "-", "-", "-");
            continue;
        }
        char params[200], speedup[16] = "-", dms[16] = "-", spread[16];
        tune_format_config(v, best->cfg, params, sizeof params);
        if (deflt) {
            snprintf(speedup, sizeof speedup, "%.2fx", TIME(deflt) / TIME(best));
            snprintf(dms, sizeof dms, "%.4f", TIME(deflt));
            log_speedup += log(TIME(deflt) / TIME(best));
            nspeedup++;
        }
        snprintf(spread, sizeof spread, "%.1f%%",
                 100 * (num(best->r, "ms_max", best->ms) - num(best->r, "ms_min", best->ms)) / best->ms);
        printf("%6d %8.0f %6d %6d %11.4f %11s %8s %7s  %s%s\n", sizes[s], num(best->r, "batch", 0),
               count, failed, TIME(best), dms, speedup, spread, params, confirmed ? "" : "  (not confirmed)");
#undef TIME
        for (int p = 0; p < v->nparams; p++) {
            double loss, spr;
            if (importance(rec, count, p, &loss, &spr)) {
                loss_log[p] += log(loss);
                spread_log[p] += log(spr);
                counted[p]++;
            }
        }
    }
    printf("(best and default times from the confirmation round: each variant's %d fastest and the\n"
           " defaults timed again in interleaved rounds; noise: (max - min) / median of the best's\n"
           " first timed runs)\n", TUNE_CONFIRM_BEST);
    if (nspeedup)
        printf("geometric mean speedup over the defaults: %.3fx (%d sizes)\n", exp(log_speedup / nspeedup),
               nspeedup);
    if (nnoise) {
        qsort(noise, (size_t)nnoise, sizeof *noise, cmp_double);
        printf("timing noise: (max - min) / median of the repeats: median %.1f%%, 90th percentile %.1f%%\n",
               100 * noise[nnoise / 2], 100 * noise[(nnoise * 9) / 10]);
    }
    /* "seconds" is the tuner's own time for a configuration: its builds are in build
     * processes (build_seconds, shared between configurations) when --jobs or a build
     * limit is in force */
    printf("measuring took %.1f minutes of the tuner's own time (checks and timed runs, and the "
           "builds it did not leave to build processes)\n", seconds / 60);
    report_pruned(pruned, precision, v, nrhs);

    /* parameters ordered by how much holding them at their worst value costs */
    int order[TUNE_MAX_PARAMS];
    for (int p = 0; p < v->nparams; p++) order[p] = p;
    for (int i = 1; i < v->nparams; i++)
        for (int k = i; k > 0; k--) {
            int a = order[k - 1], b = order[k];
            double la = counted[a] ? loss_log[a] / counted[a] : -1, lb = counted[b] ? loss_log[b] / counted[b] : -1;
            if (la >= lb) break;
            order[k - 1] = b;
            order[k] = a;
        }
    printf("which parameters matter (geometric means over the sizes where a parameter took several values):\n");
    printf("  %-10s %6s %14s %14s\n", "parameter", "sizes", "worst-value", "median-spread");
    for (int i = 0; i < v->nparams; i++) {
        int p = order[i];
        if (!counted[p]) {
            printf("  %-10s %6d %14s %14s\n", v->param_names[p], 0, "-", "-");
            continue;
        }
        printf("  %-10s %6d %13.2fx %13.2fx\n", v->param_names[p], counted[p],
               exp(loss_log[p] / counted[p]), exp(spread_log[p] / counted[p]));
    }
    printf("  worst-value: best time with the parameter held at its worst value / best time;\n"
           "  median-spread: largest / smallest median time over the parameter's values.\n");
    if (tuned) check_against(tried, tuned, against, precision, v, nrhs, sizes, nsizes, rec, max);
    free(rec);
    free(noise);
}

/* Per size, each variant's chosen time and the fastest: the variant the dispatcher runs
 * there (its compared_variants rule), and the sizes where that winner changes (the
 * fused/separate and strided/interleaved crossovers). lu: getrf's variants, which compete
 * only with each other (0: potrf's). */
static void report_crossovers(const cJSON *section, char precision, int lu)
{
    int sizes[256], nsizes = 0, nv = 0, seen[TUNE_MAX_VARIANTS] = {0};
    const cJSON *e, *chosen = cJSON_GetObjectItemCaseSensitive(section, "chosen");
    for (int v = 0; tune_variants[v] && v < TUNE_MAX_VARIANTS; v++, nv++) {
        /* another workload or another routine: not comparable */
        if (tune_variants[v]->variable_sizes || tune_variants[v]->solve || tune_variants[v]->native ||
            tune_variants[v]->own_round || tune_variants[v]->lu != lu)
            continue;
        cJSON_ArrayForEach(e, chosen)
        {
            if (str(e, "precision")[0] != precision || strcmp(str(e, "variant"), tune_variants[v]->name))
                continue;
            int n = (int)num(e, "n", -1), k = 0;
            seen[v] = 1;
            while (k < nsizes && sizes[k] != n) k++;
            if (k == nsizes && nsizes < 256) sizes[nsizes++] = n;
        }
    }
    int variants = 0;
    for (int v = 0; v < nv; v++) variants += seen[v];
    if (variants < 2) return; /* nothing was compared */
    for (int i = 1; i < nsizes; i++)
        for (int k = i; k > 0 && sizes[k - 1] > sizes[k]; k--) {
            int t = sizes[k];
            sizes[k] = sizes[k - 1];
            sizes[k - 1] = t;
        }
    printf("\n## %c %s crossovers: each variant's chosen time (ms) per size; the fastest is what the\n"
           "## dispatcher runs there\n%6s", precision, lu ? "getrf" : "potrf", "n");
    for (int v = 0; v < nv; v++)
        if (seen[v]) printf(" %12s", tune_variants[v]->name);
    printf("  %s\n", "fastest");
    const char *prev = NULL;
    char changes[1024] = "";
    size_t used = 0;
    int prev_n = 0;
    for (int s = 0; s < nsizes; s++) {
        double best = INFINITY;
        const char *winner = NULL;
        printf("%6d", sizes[s]);
        for (int v = 0; v < nv; v++) {
            if (!seen[v]) continue;
            double ms = -1;
            cJSON_ArrayForEach(e, chosen)
            {
                if (str(e, "precision")[0] == precision && !strcmp(str(e, "variant"), tune_variants[v]->name) &&
                    (int)num(e, "n", -1) == sizes[s])
                    ms = num(e, "ms", -1);
            }
            if (ms < 0) printf(" %12s", "-");
            else printf(" %12.4f", ms);
            if (ms >= 0 && ms < best) {
                best = ms;
                winner = tune_variants[v]->name;
            }
        }
        printf("  %s\n", winner ? winner : "-");
        if (winner && prev && strcmp(winner, prev) && used < sizeof changes) {
            int w = snprintf(changes + used, sizeof changes - used, "%s%s -> %s between n = %d and %d",
                             used ? "; " : "", prev, winner, prev_n, sizes[s]);
            if (w > 0) used += (size_t)w;
        }
        if (winner) {
            prev = winner;
            prev_n = sizes[s];
        }
    }
    printf("crossovers (%c %s): %s\n", precision, lu ? "getrf" : "potrf",
           used ? changes : "none: one variant wins at every size");
}

int tune_report(const char *path, const char *against)
{
    char why[600];
    cJSON *root = tune_json_load(path, why, sizeof why), *other = NULL;
    if (!root || (against && !(other = tune_json_load(against, why, sizeof why))) ||
        tune_records_check(root, path, why, sizeof why) || (other && tune_records_check(other, against, why, sizeof why))) {
        fprintf(stderr, "bchol tune --report: %s\n", why);
        cJSON_Delete(root);
        cJSON_Delete(other);
        return 1;
    }
    const cJSON *tuner = cJSON_GetObjectItemCaseSensitive(root, "tuner");
    printf("# tuning file %s: bchol %s, created %s, updated %s\n", path, str(root, "bchol_version"),
           str(root, "created"), str(root, "updated"));
    printf("# sweep: seed %.0f, fraction %g, uplo %s, %s (%.0f of %.0f configurations)\n",
           num(tuner, "seed", 0), num(tuner, "fraction", 1), str(tuner, "uplo"),
           *str(tuner, "status") ? str(tuner, "status") : "unknown", num(tuner, "done", 0),
           num(tuner, "total", 0));
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(root, "devices"), *s;
    int shown = 0;
    cJSON_ArrayForEach(s, devices)
    {
        const cJSON *tried = cJSON_GetObjectItemCaseSensitive(s, "tried");
        if (!cJSON_IsArray(tried)) {
            printf("\n# section %s/%s/%s (family %s): %d chosen entries%s%s\n", str(s, "vendor"),
                   str(s, "architecture"), str(s, "name"), str(s, "family"),
                   cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(s, "chosen")),
                   *str(s, "derived_from") ? ", derived from " : "", str(s, "derived_from"));
            continue;
        }
        printf("\n# device %s/%s/%s (family %s), %s, driver %s\n", str(s, "vendor"), str(s, "architecture"),
               str(s, "name"), str(s, "family"), str(s, "raw_name"), str(s, "driver"));
        const cJSON *tuned = NULL, *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(other, "devices")) if (same_identity(t, s)) tuned = t;
        if (other && !tuned) printf("(%s has no section for this device)\n", against);
        for (const char *p = "sd"; *p; p++)
        {
            for (int v = 0; tune_variants[v]; v++) {
                /* the solve once per nrhs it was measured with, in increasing order */
                int nrhs[64], count = 0;
                const cJSON *r;
                cJSON_ArrayForEach(r, tried)
                {
                    if (!tune_variants[v]->solve || str(r, "precision")[0] != *p ||
                        strcmp(str(r, "variant"), tune_variants[v]->name))
                        continue;
                    int k = tune_record_nrhs(r), i = 0;
                    while (i < count && nrhs[i] != k) i++;
                    if (i == count && count < 64) nrhs[count++] = k;
                }
                if (!tune_variants[v]->solve) nrhs[count++] = 0;
                for (int i = 1; i < count; i++)
                    for (int k = i; k > 0 && nrhs[k - 1] > nrhs[k]; k--) {
                        int t = nrhs[k];
                        nrhs[k] = nrhs[k - 1];
                        nrhs[k - 1] = t;
                    }
                for (int i = 0; i < count; i++)
                    report_group(tried, cJSON_GetObjectItemCaseSensitive(s, "pruned"), *p, tune_variants[v], nrhs[i],
                                 tuned, against);
            }
            report_crossovers(s, *p, 0);
            report_crossovers(s, *p, 1);
        }
        shown++;
    }
    if (!shown) printf("\n(no measured configurations in this file)\n");
    cJSON_Delete(root);
    cJSON_Delete(other);
    return 0;
}
