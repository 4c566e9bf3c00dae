/* The tuning file while bchol tune runs: a cJSON document holding, for the device being
 * tuned, every configuration tried ("tried", with its time or why it failed) and the
 * fastest one per precision, variant and size, and nrhs for the solve ("chosen", what the
 * library reads). It is
 * written whole every few seconds of the sweep (temporary file + rename, tune_output.c), so a
 * run killed at any point leaves a valid file that --resume continues. */
#include "tune.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef BCHOL_VERSION
#define BCHOL_VERSION "unknown"
#endif

static void now_iso(char *out, size_t size)
{
    time_t t = time(NULL);
    strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
}

cJSON *tune_json_load(const char *path, char *why, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    long length = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (length = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)length + 1)) && fread(text, 1, (size_t)length, f) != (size_t)length) {
        free(text);
        text = NULL;
    }
    fclose(f);
    if (!text) {
        snprintf(why, size, "%s: cannot be read", path);
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = length ? cJSON_ParseWithLengthOpts(text, (size_t)length, &end, 0) : NULL;
    if (!root)
        snprintf(why, size, "%s: %s", path,
                 !length ? "the file is empty"
                 : end && end - text >= length ? "not valid JSON: the text ends early (truncated?)"
                                               : "not valid JSON");
    free(text);
    return root;
}

void tune_key(char precision, const char *variant, int n, int nrhs, const cJSON *params, char *out,
              size_t size)
{
    char *p = params ? cJSON_PrintUnformatted(params) : NULL;
    if (nrhs > 0) snprintf(out, size, "%c %s %d nrhs=%d %s", precision, variant, n, nrhs, p ? p : "{}");
    else snprintf(out, size, "%c %s %d %s", precision, variant, n, p ? p : "{}");
    free(p);
}

int tune_record_nrhs(const cJSON *r)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(r, "nrhs");
    return cJSON_IsNumber(k) && k->valueint > 0 ? k->valueint : 0;
}

void tune_record_key(const cJSON *r, char *out, size_t size)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "precision");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "variant");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "n");
    tune_key(cJSON_IsString(p) ? p->valuestring[0] : '?', cJSON_IsString(v) ? v->valuestring : "?",
             cJSON_IsNumber(n) ? n->valueint : -1, tune_record_nrhs(r),
             cJSON_GetObjectItemCaseSensitive(r, "params"), out, size);
}

static int remember_key(tune_file *f, const cJSON *record)
{
    char key[512];
    if (f->nkeys == f->cap) {
        int cap = f->cap ? 2 * f->cap : 256;
        char **k = realloc(f->keys, (size_t)cap * sizeof *k);
        if (k) f->keys = k;
        unsigned char *in = k ? realloc(f->in_space, (size_t)cap) : NULL;
        if (!in) return -1;
        f->in_space = in;
        f->cap = cap;
    }
    tune_record_key(record, key, sizeof key);
    if (!(f->keys[f->nkeys] = strdup(key))) return -1;
    f->in_space[f->nkeys++] = 1;
    return 0;
}

cJSON *tune_file_find(const tune_file *f, const char *key)
{
    for (int i = 0; i < f->nkeys; i++)
        if (!strcmp(f->keys[i], key)) return cJSON_GetArrayItem(f->tried, i);
    return NULL;
}

void tune_file_restrict(tune_file *f, int (*in_space)(const char *key, void *user), void *user)
{
    for (int i = 0; i < f->nkeys; i++) f->in_space[i] = in_space(f->keys[i], user) != 0;
}

int tune_file_in_space(const tune_file *f, int i) { return i >= 0 && i < f->nkeys && f->in_space[i]; }

int tune_file_add(tune_file *f, cJSON *record)
{
    if (remember_key(f, record)) {
        cJSON_Delete(record);
        return -1;
    }
    cJSON_AddItemToArray(f->tried, record);
    return 0;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static int same_identity(const cJSON *s, const char *family, const char *vendor, const char *arch,
                         const char *name)
{
    return !strcmp(str(s, "family"), family) && !strcmp(str(s, "vendor"), vendor) &&
           !strcmp(str(s, "architecture"), arch) && !strcmp(str(s, "name"), name);
}

static const char *arch_of(const bchol_device_info *d)
{
    return *d->architecture ? d->architecture : "default";
}

static cJSON *new_section(const bchol_device_info *d)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "family", d->family);
    cJSON_AddStringToObject(s, "vendor", d->vendor);
    cJSON_AddStringToObject(s, "architecture", arch_of(d));
    cJSON_AddStringToObject(s, "name", d->name);
    cJSON_AddStringToObject(s, "driver", d->driver);
    cJSON_AddStringToObject(s, "raw_name", d->raw_name);
    cJSON_AddStringToObject(s, "platform", d->platform_version);
    cJSON_AddArrayToObject(s, "chosen");
    cJSON_AddArrayToObject(s, "pruned");
    cJSON_AddArrayToObject(s, "tried");
    return s;
}

int tune_file_open(tune_file *f, const char *path, int resume, const bchol_device_info *dev,
                   char *why, size_t size)
{
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path);
    int exists = access(path, F_OK) == 0;
    if (exists && !resume) {
        snprintf(why, size, "%s exists: pass --resume to continue it, or remove it", path);
        return -1;
    }
    if (exists) {
        if (!(f->root = tune_json_load(path, why, size))) return -1;
        const cJSON *format = cJSON_GetObjectItemCaseSensitive(f->root, "format");
        const cJSON *version = cJSON_GetObjectItemCaseSensitive(f->root, "format_version");
        cJSON *devices = cJSON_GetObjectItemCaseSensitive(f->root, "devices");
        if (!cJSON_IsString(format) || strcmp(format->valuestring, "bchol-tuning") ||
            !cJSON_IsNumber(version) || version->valueint != BCHOL_TUNING_FILE_VERSION ||
            !cJSON_IsArray(devices)) {
            snprintf(why, size, "%s is not a bchol tuning file of format version %d", path,
                     BCHOL_TUNING_FILE_VERSION);
            tune_file_close(f);
            return -1;
        }
        if (tune_records_check(f->root, path, why, size)) {
            tune_file_close(f);
            return -1;
        }
        cJSON *s;
        cJSON_ArrayForEach(s, devices)
        {
            if (same_identity(s, dev->family, dev->vendor, arch_of(dev), dev->name) &&
                cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(s, "tried")))
                f->section = s;
        }
        if (f->section && strcmp(str(f->section, "driver"), dev->driver))
            fprintf(stderr,
                    "bchol tune: %s was tuned with driver %s, this one is %s; its measurements "
                    "are kept\n",
                    path, str(f->section, "driver"), dev->driver);
    } else {
        char date[32];
        now_iso(date, sizeof date);
        f->root = cJSON_CreateObject();
        cJSON_AddStringToObject(f->root, "format", "bchol-tuning");
        cJSON_AddNumberToObject(f->root, "format_version", BCHOL_TUNING_FILE_VERSION);
        cJSON_AddStringToObject(f->root, "bchol_version", BCHOL_VERSION);
        cJSON_AddStringToObject(f->root, "created", date);
        cJSON_AddStringToObject(f->root, "updated", date);
        cJSON_AddObjectToObject(f->root, "tuner");
        cJSON_AddArrayToObject(f->root, "devices");
    }
    if (!f->section) {
        f->section = new_section(dev);
        cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(f->root, "devices"), f->section);
    }
    f->tried = cJSON_GetObjectItemCaseSensitive(f->section, "tried");
    const cJSON *r;
    cJSON_ArrayForEach(r, f->tried)
    {
        if (remember_key(f, r)) {
            snprintf(why, size, "out of memory");
            tune_file_close(f);
            return -1;
        }
    }
    return 0;
}

void tune_file_close(tune_file *f)
{
    cJSON_Delete(f->root);
    for (int i = 0; i < f->nkeys; i++) free(f->keys[i]);
    free(f->keys);
    free(f->in_space);
    memset(f, 0, sizeof *f);
}

/* ---- chosen entries ---------------------------------------------------------------- */

typedef struct {
    char precision;
    const char *variant;
    int n, nrhs, ok, failed, confirmed;
    const cJSON *best, *deflt;
} group;

static double ms_of(const cJSON *r)
{
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(r, "ms");
    return cJSON_IsNumber(ms) && !cJSON_GetObjectItemCaseSensitive(r, "failed") ? ms->valuedouble : -1;
}

/* The time a record competes with after a confirmation round, or -1 if it was not in it. */
static double confirmed_ms(const cJSON *r)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "confirm_ms");
    return cJSON_IsNumber(c) ? c->valuedouble : -1;
}

static int cmp_group(const void *pa, const void *pb)
{
    const group *a = pa, *b = pb;
    if (a->precision != b->precision) return a->precision - b->precision;
    int v = strcmp(a->variant, b->variant);
    if (v) return v;
    if (a->nrhs != b->nrhs) return (a->nrhs > b->nrhs) - (a->nrhs < b->nrhs);
    return (a->n > b->n) - (a->n < b->n);
}

static void replace(cJSON *obj, const char *key, cJSON *value)
{
    if (cJSON_GetObjectItemCaseSensitive(obj, key))
        cJSON_ReplaceItemInObjectCaseSensitive(obj, key, value);
    else
        cJSON_AddItemToObject(obj, key, value);
}

/* Same precision, variant and nrhs (another size). */
static int same_group(const group *a, const group *b)
{
    return a->precision == b->precision && !strcmp(a->variant, b->variant) && a->nrhs == b->nrhs;
}

/* A group's time of record r: its confirmation round's if the group had one (then only
 * its finalists count), else the sweep's; -1 if r does not compete. */
static double competing_ms(const group *g, const cJSON *r)
{
    return g->confirmed ? confirmed_ms(r) : ms_of(r);
}

static int in_group_of(const group *g, const cJSON *r)
{
    const cJSON *rn = cJSON_GetObjectItemCaseSensitive(r, "n");
    return str(r, "precision")[0] == g->precision && !strcmp(str(r, "variant"), g->variant) &&
           cJSON_IsNumber(rn) && rn->valueint == g->n && tune_record_nrhs(r) == g->nrhs;
}

int tune_file_measured(const tune_file *f, char precision, const char *variant, int n, int nrhs,
                       const cJSON **out, int max)
{
    const group g = {precision, variant, n, nrhs, 0, 0, 0, NULL, NULL};
    int count = 0, index = -1;
    const cJSON *r;
    cJSON_ArrayForEach(r, f->tried)
    {
        if (tune_file_in_space(f, ++index) && count < max && in_group_of(&g, r) && ms_of(r) >= 0) out[count++] = r;
    }
    return count;
}

/* An entry serves the sizes up to the next measured one, so among the configurations
 * within CARRY_TOLERANCE of the best at its size (in noise, or nearly so) the one that
 * does best at the next measured size wins: measured in the H200's sweeps
 * (docs/performance.md, tuning), a size's best alone picked configurations that fail or
 * lose 8-23% a few sizes above (tbc 16 at n = 16 does not fit the built kernel at 24;
 * the fixed shape at 16 cost 1.23x at 24). Relative to the next size's best; a
 * configuration that failed there ranks last, one not measured there is taken as being
 * within the tolerance. */
#define CARRY_TOLERANCE 1.03

/* Time at the next size of the configuration params, over that size's best. */
static double next_score(const tune_file *f, const group *next, const cJSON *params, double next_best)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, f->tried)
    {
        if (in_group_of(next, x) &&
            cJSON_Compare(params, cJSON_GetObjectItemCaseSensitive(x, "params"), 1))
            return ms_of(x) >= 0 ? ms_of(x) / next_best : INFINITY;
    }
    return CARRY_TOLERANCE;
}

static const cJSON *carry_over(const tune_file *f, const group *g, const group *next)
{
    const double best_ms = competing_ms(g, g->best);
    double next_best = -1;
    int index = -1;
    const cJSON *r;
    cJSON_ArrayForEach(r, f->tried)
    {
        index++;
        double ms = tune_file_in_space(f, index) && in_group_of(next, r) ? ms_of(r) : -1;
        if (ms >= 0 && (next_best < 0 || ms < next_best)) next_best = ms;
    }
    if (best_ms <= 0 || next_best <= 0) return g->best;
    const cJSON *pick = g->best;
    double pick_score = next_score(f, next, cJSON_GetObjectItemCaseSensitive(pick, "params"), next_best);
    double pick_ms = best_ms;
    index = -1;
    cJSON_ArrayForEach(r, f->tried)
    {
        index++;
        const double ms = tune_file_in_space(f, index) && in_group_of(g, r) ? competing_ms(g, r) : -1;
        if (r == g->best || ms < 0 || ms > best_ms * CARRY_TOLERANCE) continue;
        const double score = next_score(f, next, cJSON_GetObjectItemCaseSensitive(r, "params"), next_best);
        if (score < pick_score || (score == pick_score && ms < pick_ms)) {
            pick = r;
            pick_score = score;
            pick_ms = ms;
        }
    }
    return pick;
}

/* The sizes strictly between two measured ones, for the fused and separate variants. Each
 * configuration measured at both ends has a time predicted at every size m between them:
 * its time per matrix, log-linear in the log of the order padded to its panel width (fused
 * ib, separate nb) between the two ends. The two ends are multiples of every panel width
 * tried, the sizes between are not, and a wide panel leaves a narrow last one at more of
 * them: on the H200, float 32-48 and 24-32 are best at both ends with ib 16 and n = 40
 * ran 1.14x the best with it, 28 1.10x with ib 8 (docs/results/2026-11-24-h200-probes).
 * A pick serves the sizes from the entry's n + 1 up to a size *to (the dispatcher's
 * "between_to"), the entry's own configuration those above: the pick and *to are those
 * whose worst predicted ratio to the best predicted, over all the sizes between, is
 * smallest (the smallest *to among equals). Where a narrower panel wins, it wins at the
 * sizes just above a multiple of the wide one and loses just below the next: float n = 44
 * and 60 ran 1.11x and 1.19x slower on the H200 when one pick served all of 33-47 and
 * 49-63. Picks only among the configurations within BETWEEN_MAX_RATIO of the best at both
 * ends: where none is, nothing says which one suits the sizes between (the shipped PoCL
 * file's best compromise at 16-32 was 2.36x at one end). Against the H200's exhaustive
 * sweeps at sizes off its grid, the fused picks at float n = 20, 28 and 40 went from
 * 1.107, 1.096 and 1.135 of the best with the rule before (one pick for all the sizes
 * between, the smallest worse ratio at the two ends) to 1.044, 1.000 and 1.030; double 24
 * from 1.000 to 1.026 (docs/performance.md). Only where the entry's own configuration was
 * measured at both ends and scores worse; else NULL. Sweep medians: only a size's
 * finalists have confirmation times. ratio: the pick's worse ratio to the two ends' best. */
#define BETWEEN_MAX_RATIO 1.20

static int panel_of(const cJSON *params)
{
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(params, "ib");
    if (!w) w = cJSON_GetObjectItemCaseSensitive(params, "nb");
    return cJSON_IsNumber(w) ? w->valueint : 0;
}

/* A record's sweep time per matrix (the sizes of a grid may run different batches). */
static double per_matrix(const cJSON *r)
{
    const cJSON *batch = cJSON_GetObjectItemCaseSensitive(r, "batch");
    return ms_of(r) / (cJSON_IsNumber(batch) && batch->valuedouble > 0 ? batch->valuedouble : 1);
}

static double log_padded(int n, int panel)
{
    return log(panel > 0 ? (double)((n + panel - 1) / panel * panel) : n);
}

/* The log of the time per matrix at m (lo < m < hi) of a configuration with these times
 * at lo and hi (see between_pick). */
static double predicted(const double *t, int panel, int lo, int hi, int m)
{
    const double x0 = log_padded(lo, panel), x1 = log_padded(hi, panel);
    const double w = x1 > x0 ? (log_padded(m, panel) - x0) / (x1 - x0) : 0;
    return (1 - w) * log(t[0]) + w * log(t[1]);
}

typedef struct {
    const cJSON *rec; /* at the lower end */
    double t[2];      /* per matrix at the two ends */
    double worse;     /* worse ratio to the ends' best */
    int panel;
} between_cand;

static const cJSON *between_pick(const tune_file *f, const group *g, const group *next, const cJSON *own,
                                 double *ratio, int *to)
{
    const int cap = cJSON_GetArraySize(f->tried) + 1, lo_n = g->n, hi_n = next->n, sizes = hi_n - lo_n - 1;
    const cJSON **lo = malloc(2 * (size_t)cap * sizeof *lo), **hi = lo ? lo + cap : NULL, *pick = NULL;
    between_cand *c = malloc((size_t)cap * sizeof *c);
    /* per size between: the best predicted, then the worst ratio of the own over the sizes
     * above (both logs) */
    double *best = sizes > 0 ? malloc(2 * (size_t)sizes * sizeof *best) : NULL;
    if (!lo || !c || !best) {
        free(lo);
        free(c);
        free(best);
        return NULL;
    }
    double *own_above = best + sizes;
    const int nlo = tune_file_measured(f, g->precision, g->variant, g->n, g->nrhs, lo, cap);
    const int nhi = tune_file_measured(f, next->precision, next->variant, next->n, next->nrhs, hi, cap);
    double best_lo = -1, best_hi = -1;
    for (int i = 0; i < nlo; i++)
        if (best_lo < 0 || ms_of(lo[i]) < best_lo) best_lo = ms_of(lo[i]);
    for (int i = 0; i < nhi; i++)
        if (best_hi < 0 || ms_of(hi[i]) < best_hi) best_hi = ms_of(hi[i]);
    /* the configurations measured at both ends: the candidates, and the entry's own */
    const cJSON *own_params = cJSON_GetObjectItemCaseSensitive(own, "params");
    int nc = 0, own_at = -1;
    for (int l = 0; l < nlo && best_lo > 0 && best_hi > 0; l++) {
        const cJSON *params = cJSON_GetObjectItemCaseSensitive(lo[l], "params");
        for (int i = 0; i < nhi; i++) {
            if (!cJSON_Compare(params, cJSON_GetObjectItemCaseSensitive(hi[i], "params"), 1)) continue;
            const double a = ms_of(lo[l]) / best_lo, b = ms_of(hi[i]) / best_hi, worse = a > b ? a : b;
            const int is_own = cJSON_Compare(params, own_params, 1);
            if (is_own || worse <= BETWEEN_MAX_RATIO) {
                if (is_own) own_at = nc;
                c[nc++] = (between_cand){lo[l], {per_matrix(lo[l]), per_matrix(hi[i])}, worse, panel_of(params)};
            }
            break;
        }
    }
    if (own_at >= 0) {
        for (int m = 0; m < sizes; m++) {
            best[m] = INFINITY;
            for (int k = 0; k < nc; k++)
                best[m] = fmin(best[m], predicted(c[k].t, c[k].panel, lo_n, hi_n, lo_n + 1 + m));
        }
        const between_cand *o = &c[own_at];
        for (int m = sizes - 1; m >= 0; m--) {
            const double r = predicted(o->t, o->panel, lo_n, hi_n, lo_n + 1 + m) - best[m];
            own_above[m] = m + 1 < sizes ? fmax(own_above[m + 1], r) : r;
        }
        double pick_score = own_above[0]; /* no pick: the own everywhere */
        for (int k = 0; k < nc; k++) {
            if (k == own_at || c[k].worse > BETWEEN_MAX_RATIO) continue;
            double below = 0; /* the pick's worst up to lo_n + 1 + m */
            for (int m = 0; m < sizes; m++) {
                below = fmax(below, predicted(c[k].t, c[k].panel, lo_n, hi_n, lo_n + 1 + m) - best[m]);
                const double score = fmax(below, m + 1 < sizes ? own_above[m + 1] : 0);
                if (score < pick_score) {
                    pick = c[k].rec;
                    pick_score = score;
                    *ratio = c[k].worse;
                    *to = lo_n + 1 + m;
                }
            }
        }
    }
    free(lo);
    free(c);
    free(best);
    return pick;
}

/* The group after g[i] (sorted) of the same precision, variant and nrhs that has a best
 * configuration: the next measured size; count if none. */
static int next_measured(const group *g, int count, int i)
{
    int k = i + 1;
    while (k < count && !(g[k].best && same_group(&g[k], &g[i]))) k++;
    return k;
}

static cJSON *chosen_of(const tune_file *f)
{
    int count = 0, cap = cJSON_GetArraySize(f->tried) + 1, index = -1;
    group *g = calloc((size_t)cap, sizeof *g);
    const cJSON *r;
    cJSON_ArrayForEach(r, f->tried)
    {
        const char *p = str(r, "precision"), *v = str(r, "variant");
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "n");
        index++;
        if (!g || !*p || !*v || !cJSON_IsNumber(n) || !tune_file_in_space(f, index)) continue;
        const int nrhs = tune_record_nrhs(r);
        int i = 0;
        while (i < count && !(g[i].precision == p[0] && !strcmp(g[i].variant, v) && g[i].n == n->valueint &&
                              g[i].nrhs == nrhs))
            i++;
        if (i == count) g[count++] = (group){p[0], v, n->valueint, nrhs, 0, 0, 0, NULL, NULL};
        double ms = ms_of(r);
        if (ms < 0) {
            g[i].failed++;
            continue;
        }
        g[i].ok++;
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "default"))) g[i].deflt = r;
        /* once a size went through the confirmation round, only its finalists compete */
        double c = confirmed_ms(r);
        if (c >= 0 && !g[i].confirmed) {
            g[i].confirmed = 1;
            g[i].best = r;
        } else if (c >= 0 ? c < confirmed_ms(g[i].best) : !g[i].confirmed && (!g[i].best || ms < ms_of(g[i].best)))
            g[i].best = r;
    }
    if (g) qsort(g, (size_t)count, sizeof *g, cmp_group);
    for (int i = 0; i < count; i++) {
        const int k = next_measured(g, count, i);
        /* an entry that serves its own size alone (the next one measured too) keeps its best */
        if (g[i].best && k < count && g[k].n > g[i].n + 1) g[i].best = carry_over(f, &g[i], &g[k]);
    }
    cJSON *chosen = cJSON_CreateArray();
    for (int i = 0; i < count; i++) {
        if (!g[i].best) continue; /* every configuration failed: the defaults stay */
        cJSON *e = cJSON_CreateObject();
        char p[2] = {g[i].precision, 0};
        cJSON_AddStringToObject(e, "precision", p);
        cJSON_AddStringToObject(e, "variant", g[i].variant);
        cJSON_AddNumberToObject(e, "n", g[i].n);
        if (g[i].nrhs) cJSON_AddNumberToObject(e, "nrhs", g[i].nrhs);
        /* the sizes it serves: up to the next measured size (none: all above) */
        const int k = next_measured(g, count, i);
        if (k < count) cJSON_AddNumberToObject(e, "n_to", g[k].n - 1);
        cJSON_AddItemToObject(e, "params",
                              cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(g[i].best, "params"), 1));
        /* the sizes between it and the next one, where another configuration does better */
        double worse = 0;
        int to = 0;
        const cJSON *b = k < count && g[k].n > g[i].n + 1 &&
                                 (!strcmp(g[i].variant, "fused") || !strcmp(g[i].variant, "separate"))
                             ? between_pick(f, &g[i], &g[k], g[i].best, &worse, &to)
                             : NULL;
        const cJSON *bp = b ? cJSON_GetObjectItemCaseSensitive(b, "params") : NULL;
        if (bp) {
            cJSON_AddItemToObject(e, "between", cJSON_Duplicate(bp, 1));
            cJSON_AddNumberToObject(e, "between_to", to);
            cJSON_AddNumberToObject(e, "between_ratio", round(worse * 1000) / 1000);
        }
        const int conf = g[i].confirmed;
        cJSON_AddNumberToObject(e, "ms", conf ? confirmed_ms(g[i].best) : ms_of(g[i].best));
        if (g[i].deflt)
            cJSON_AddNumberToObject(e, "default_ms", conf && confirmed_ms(g[i].deflt) >= 0
                                                         ? confirmed_ms(g[i].deflt)
                                                         : ms_of(g[i].deflt));
        if (conf) cJSON_AddTrueToObject(e, "confirmed");
        const cJSON *batch = cJSON_GetObjectItemCaseSensitive(g[i].best, "batch");
        if (cJSON_IsNumber(batch)) cJSON_AddNumberToObject(e, "batch", batch->valuedouble);
        cJSON_AddNumberToObject(e, "ok", g[i].ok);
        cJSON_AddNumberToObject(e, "failed", g[i].failed);
        cJSON_AddItemToArray(chosen, e);
    }
    free(g);
    return chosen;
}

/* What a derived default section records as its source: "NVIDIA/SM9.0/NVIDIA H200 (family
 * nvidia)". */
static void derived_from(const cJSON *section, char *out, size_t size)
{
    snprintf(out, size, "%s/%s/%s (family %s)", str(section, "vendor"), str(section, "architecture"),
             str(section, "name"), str(section, "family"));
}

/* Whether chosen holds an entry of e's precision and variant. */
static int has_group(const cJSON *chosen, const cJSON *e)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, chosen)
    {
        if (!strcmp(str(x, "precision"), str(e, "precision")) && !strcmp(str(x, "variant"), str(e, "variant")))
            return 1;
    }
    return 0;
}

/*
 * A derived default section takes the choices of the device section it is derived from
 * (from), and keeps its entries of every precision and variant that section has none of:
 * so a device that tuned getrf only (a PoCL on another CPU than the one whose Cholesky
 * entries the family default holds) adds its entries without dropping the others. Every
 * earlier source is listed in "derived_also", so that --rechoose merges each of them in.
 */
static void merge_derived(cJSON *derived, const cJSON *chosen, const char *from)
{
    cJSON *merged = cJSON_Duplicate(chosen, 1), *also = cJSON_CreateArray(), *e;
    const cJSON *old = cJSON_GetObjectItemCaseSensitive(derived, "chosen"), *x;
    cJSON_ArrayForEach(e, (cJSON *)old)
    {
        if (!has_group(chosen, e)) cJSON_AddItemToArray(merged, cJSON_Duplicate(e, 1));
    }
    /* the earlier sources: derived_from and derived_also, less from */
    const char *was = str(derived, "derived_from");
    if (*was && strcmp(was, from)) cJSON_AddItemToArray(also, cJSON_CreateString(was));
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(derived, "derived_also"))
    {
        if (cJSON_IsString(x) && strcmp(x->valuestring, from) && strcmp(x->valuestring, was))
            cJSON_AddItemToArray(also, cJSON_CreateString(x->valuestring));
    }
    replace(derived, "derived_from", cJSON_CreateString(from));
    if (cJSON_GetArraySize(also)) replace(derived, "derived_also", also);
    else {
        cJSON_Delete(also);
        cJSON_DeleteItemFromObjectCaseSensitive(derived, "derived_also");
    }
    replace(derived, "chosen", merged);
}

/* Whether section d is derived from the device section named from. */
static int derives_from(const cJSON *d, const char *from)
{
    if (!strcmp(str(d, "derived_from"), from)) return 1;
    const cJSON *x;
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(d, "derived_also"))
    {
        if (cJSON_IsString(x) && !strcmp(x->valuestring, from)) return 1;
    }
    return 0;
}

void tune_file_update_chosen(tune_file *f, const char *also_default)
{
    cJSON *chosen = chosen_of(f);
    replace(f->section, "chosen", chosen);
    if (!also_default) return;
    /* a section for every device of this architecture, vendor or family (with "default"
     * below that level), holding the same choices */
    const char *family = str(f->section, "family"), *vendor = str(f->section, "vendor"),
               *arch = str(f->section, "architecture");
    const int level = !strcmp(also_default, "architecture") ? 1 : !strcmp(also_default, "vendor") ? 2 : 3;
    const char *v = level >= 3 ? "default" : vendor, *a = level >= 2 ? "default" : arch;
    cJSON *devices = cJSON_GetObjectItemCaseSensitive(f->root, "devices"), *s, *derived = NULL;
    cJSON_ArrayForEach(s, devices)
    {
        if (same_identity(s, family, v, a, "default")) derived = s;
    }
    if (!derived) {
        derived = cJSON_CreateObject();
        cJSON_AddStringToObject(derived, "family", family);
        cJSON_AddStringToObject(derived, "vendor", v);
        cJSON_AddStringToObject(derived, "architecture", a);
        cJSON_AddStringToObject(derived, "name", "default");
        cJSON_AddItemToArray(devices, derived);
    }
    char from[400];
    derived_from(f->section, from, sizeof from);
    merge_derived(derived, chosen, from);
}

int tune_file_rechoose(const char *path, char *why, size_t size)
{
    tune_file f;
    memset(&f, 0, sizeof f);
    snprintf(f.path, sizeof f.path, "%s", path);
    if (!(f.root = tune_json_load(path, why, size))) return -1;
    cJSON *devices = cJSON_GetObjectItemCaseSensitive(f.root, "devices"), *s, *d;
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(f.root, "format");
    if (!cJSON_IsString(format) || strcmp(format->valuestring, "bchol-tuning") || !cJSON_IsArray(devices)) {
        snprintf(why, size, "%s is not a bchol tuning file", path);
        cJSON_Delete(f.root);
        return -1;
    }
    if (tune_records_check(f.root, path, why, size)) {
        cJSON_Delete(f.root);
        return -1;
    }
    int bad = 0;
    cJSON_ArrayForEach(s, devices)
    {
        cJSON *tried = cJSON_GetObjectItemCaseSensitive(s, "tried");
        if (!cJSON_IsArray(tried)) continue;
        /* every record competes: the file keeps no plan to restrict them */
        f.section = s;
        f.tried = tried;
        const cJSON *r;
        cJSON_ArrayForEach(r, tried) bad |= remember_key(&f, r);
        if (bad) break;
        cJSON *chosen = chosen_of(&f);
        replace(s, "chosen", chosen);
        /* and the default sections derived from this one */
        char from[400];
        derived_from(s, from, sizeof from);
        cJSON_ArrayForEach(d, devices)
        {
            if (derives_from(d, from)) merge_derived(d, chosen, from);
        }
        for (int i = 0; i < f.nkeys; i++) free(f.keys[i]);
        f.nkeys = 0;
    }
    int st = bad ? (snprintf(why, size, "out of memory"), -1) : tune_file_save(&f, why, size);
    tune_file_close(&f);
    return st;
}

/* ---- writing ------------------------------------------------------------------------ */

static int is_record_list(const char *key)
{
    return !strcmp(key, "chosen") || !strcmp(key, "tried") || !strcmp(key, "pruned");
}

/* Values through cJSON; the layout by hand so that each record of a list is one line. */
static int write_value(FILE *out, const cJSON *v)
{
    char *text = cJSON_PrintUnformatted(v);
    if (!text) return -1;
    fputs(text, out);
    free(text);
    return 0;
}

static int write_section(FILE *out, const cJSON *s)
{
    int bad = 0;
    fputs("    {", out);
    for (const cJSON *c = s->child; c; c = c->next) {
        fprintf(out, "\n      \"%s\": ", c->string);
        if (cJSON_IsArray(c) && is_record_list(c->string) && c->child) {
            fputs("[", out);
            for (const cJSON *r = c->child; r; r = r->next) {
                fputs("\n        ", out);
                bad |= write_value(out, r);
                if (r->next) fputs(",", out);
            }
            fputs("\n      ]", out);
        } else {
            bad |= write_value(out, c);
        }
        if (c->next) fputs(",", out);
    }
    fputs("\n    }", out);
    return bad;
}

int tune_file_save(const tune_file *f, char *why, size_t size)
{
    char tmp[4200], date[32];
    now_iso(date, sizeof date);
    replace(f->root, "updated", cJSON_CreateString(date));
    const int fd = tune_output_temp(f->path, tmp, sizeof tmp);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        snprintf(why, size, "%s: cannot make a temporary file beside it (%s)", f->path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return -1;
    }
    int bad = 0;
    fputs("{", out);
    for (const cJSON *c = f->root->child; c; c = c->next) {
        fprintf(out, "\n  \"%s\": ", c->string);
        if (!strcmp(c->string, "devices") && cJSON_IsArray(c) && c->child) {
            fputs("[\n", out);
            for (const cJSON *s = c->child; s; s = s->next) {
                bad |= write_section(out, s);
                fputs(s->next ? ",\n" : "\n", out);
            }
            fputs("  ]", out);
        } else {
            bad |= write_value(out, c);
        }
        if (c->next) fputs(",", out);
    }
    fputs("\n}\n", out);
    bad |= ferror(out);
    bad |= fclose(out) != 0;
    if (bad || rename(tmp, f->path)) {
        snprintf(why, size, "%s: %s", f->path, bad ? "write failed" : strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
