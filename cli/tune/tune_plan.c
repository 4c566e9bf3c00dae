/* The plan of a sweep: every configuration of every selected variant's space at each
 * precision and size (and, for the solve, each nrhs), in sweep order (precision, size,
 * variant, nrhs, then the parameters with the last fastest), after pruning (counted per
 * reason) and the seeded --fraction draw; the backend defaults always belong to it.
 * Once the grid is measured, the probes between its sizes (--probe-between) are planned
 * from its measurements. */
#include "bchol_util.h"
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int variant_selected(const tune_space *o, const char *name)
{
    char list[sizeof o->variants + 2];
    snprintf(list, sizeof list, ",%s,", o->variants);
    /* "getrf" names getrf's variants ("getrf-fused", ...) */
    if (!strncmp(name, "getrf-", 6) && strstr(list, ",getrf,")) return 1;
    char needle[64];
    snprintf(needle, sizeof needle, ",%s,", name);
    return strstr(list, needle) != NULL;
}

/* Uniform in [0, 1) from the seed and the configuration, so that a fraction selects the
 * same configurations whatever the order or resumption. */
static double draw(unsigned long long seed, const char *key)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ seed;
    for (const char *p = key; *p; p++) h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
    util_rng r;
    util_rng_seed(&r, h);
    return (double)(util_rng_next(&r) >> 11) * 0x1p-53;
}

static tune_item *plan_add(tune_plan *p)
{
    if (p->count == p->cap) {
        int cap = p->cap ? 2 * p->cap : 1024;
        tune_item *it = realloc(p->items, (size_t)cap * sizeof *it);
        if (!it) return NULL;
        p->items = it;
        p->cap = cap;
    }
    memset(&p->items[p->count], 0, sizeof p->items[0]);
    return &p->items[p->count++];
}

static void item_key(tune_item *it)
{
    cJSON *params = tune_config_json(it->v, it->cfg);
    tune_key(it->precision, it->v->name, it->n, it->nrhs, params, it->key, sizeof it->key);
    cJSON_Delete(params);
}

/* Appends configuration cfg of v at t's precision and size with nrhs; -1 if out of memory. */
static int plan_append(tune_plan *p, const tune_target *t, const tune_variant *v, int nrhs, const int *cfg,
                       int is_default)
{
    tune_item *slot = plan_add(p);
    if (!slot) return -1;
    *slot = (tune_item){t->precision, t->n, v, nrhs, {0}, is_default, ""};
    memcpy(slot->cfg, cfg, sizeof slot->cfg);
    item_key(slot);
    return 0;
}

typedef struct {
    const char *category;
    int count;
    char example[200];
} prune_count;

/* Whether v is --full-to's variant (its full_to and probe_full_to bound the sizes). */
static int is_full_variant(const tune_space *o, const tune_variant *v)
{
    return o->full_variant[0] && !strcmp(o->full_variant, v->name);
}

/* Appends the configurations of one variant at one size (and nrhs); pruned ones are counted
 * into pruned_list, unless NULL (replacing the file's earlier counts for that size and
 * nrhs). all: every configuration, whatever the fraction. */
static int plan_variant(tune_plan *p, const tune_space *o, const tune_variant *v, bchol_context *ctx,
                        const tune_target *t, cJSON *pruned_list, int all)
{
    int vals[TUNE_MAX_PARAMS][TUNE_MAX_VALUES], nv[TUNE_MAX_PARAMS], idx[TUNE_MAX_PARAMS] = {0};
    for (int i = 0; i < v->nparams; i++) {
        nv[i] = 0;
        int set = 0;
        for (int s = 0; s < o->nsets; s++)
            if (!strcmp(o->sets[s].name, v->param_names[i])) {
                /* only the values this variant's parameter has: a label of its own, an
                 * integer from 1, or 0 where zero_params says so */
                set = 1;
                nv[i] = 0;
                for (int k = 0; k < o->sets[s].count; k++) {
                    const int x = o->sets[s].values[k];
                    int ok = x > 0 || (v->zero_params >> i & 1u);
                    if (v->labels[i]) {
                        int nl = 0;
                        while (v->labels[i][nl]) nl++;
                        ok = x >= 0 && x < nl;
                    }
                    if (ok) vals[i][nv[i]++] = x;
                }
            }
        if (!set) nv[i] = v->values(i, t, vals[i], TUNE_MAX_VALUES);
        if (!nv[i]) return 0;
    }
    int deflt[TUNE_MAX_PARAMS];
    v->defaults(ctx, t, deflt);
    int have_default = 0;
    prune_count pc[8];
    int npc = 0;
    for (;;) {
        int cfg[TUNE_MAX_PARAMS];
        for (int i = 0; i < v->nparams; i++) cfg[i] = vals[i][idx[i]];
        int is_default = !memcmp(cfg, deflt, sizeof(int) * (size_t)v->nparams);
        char why[200];
        const char *category = v->prune(cfg, t, why, sizeof why);
        if (category && !is_default) {
            int k = 0;
            while (k < npc && strcmp(pc[k].category, category)) k++;
            if (k == npc && npc < 8) pc[npc++] = (prune_count){category, 0, ""};
            if (k < npc && !pc[k].count++) snprintf(pc[k].example, sizeof pc[k].example, "%s", why);
        } else {
            tune_item it = {t->precision, t->n, v, t->nrhs, {0}, is_default, ""};
            memcpy(it.cfg, cfg, sizeof cfg);
            item_key(&it);
            const int full = all || (is_full_variant(o, v) && t->n <= o->full_to);
            if (is_default || full || o->fraction >= 1 || draw(o->seed, it.key) < o->fraction) {
                tune_item *slot = plan_add(p);
                if (!slot) return -1;
                *slot = it;
                have_default |= is_default;
            }
        }
        int i = v->nparams - 1; /* next configuration, the last parameter fastest */
        while (i >= 0 && ++idx[i] == nv[i]) idx[i--] = 0;
        if (i < 0) break;
    }
    if (!have_default && plan_append(p, t, v, t->nrhs, deflt, 1)) return -1;
    if (!pruned_list) return 0;
    /* replace the pruned counts recorded for this precision, variant, size and nrhs */
    for (int i = cJSON_GetArraySize(pruned_list) - 1; i >= 0; i--) {
        const cJSON *r = cJSON_GetArrayItem(pruned_list, i);
        const cJSON *rp = cJSON_GetObjectItemCaseSensitive(r, "precision");
        const cJSON *rv = cJSON_GetObjectItemCaseSensitive(r, "variant");
        const cJSON *rn = cJSON_GetObjectItemCaseSensitive(r, "n");
        if (cJSON_IsString(rp) && rp->valuestring[0] == t->precision && cJSON_IsString(rv) &&
            !strcmp(rv->valuestring, v->name) && cJSON_IsNumber(rn) && rn->valueint == t->n &&
            tune_record_nrhs(r) == t->nrhs)
            cJSON_DeleteItemFromArray(pruned_list, i);
    }
    for (int k = 0; k < npc; k++) {
        cJSON *r = cJSON_CreateObject();
        char prec[2] = {t->precision, 0};
        cJSON_AddStringToObject(r, "precision", prec);
        cJSON_AddStringToObject(r, "variant", v->name);
        cJSON_AddNumberToObject(r, "n", t->n);
        if (t->nrhs) cJSON_AddNumberToObject(r, "nrhs", t->nrhs);
        cJSON_AddStringToObject(r, "reason", pc[k].category);
        cJSON_AddNumberToObject(r, "count", pc[k].count);
        cJSON_AddStringToObject(r, "example", pc[k].example);
        cJSON_AddItemToArray(pruned_list, r);
    }
    return 0;
}

int tune_plan_make(tune_plan *p, const tune_space *o, bchol_context *base,
                   const bchol_device_info *dev, cJSON *pruned)
{
    for (const char *pr = o->precisions; *pr; pr++) {
        if (*pr == 'd' && !dev->fp64) {
            fprintf(stderr, "bchol tune: the device has no double precision: d skipped\n");
            continue;
        }
        for (int s = 0; s < o->nsizes; s++)
            for (int v = 0; tune_variants[v]; v++) {
                if (!variant_selected(o, tune_variants[v]->name)) continue;
                tune_target t = {*dev, *pr, o->sizes[s], {0}, 0, 0};
                bchol_potrf_params(base, *pr, o->sizes[s], &t.defaults, NULL);
                bchol_vbatched_params vb;
                if (!bchol_potrf_vbatched_params(base, *pr, o->sizes[s], 0, &vb, NULL)) t.vb_crossover = vb.crossover;
                /* the solve once per nrhs, the factorizations once */
                const int runs = tune_variants[v]->solve ? o->nnrhs : 1;
                for (int k = 0; k < runs; k++) {
                    t.nrhs = tune_variants[v]->solve ? o->nrhs[k] : 0;
                    if (plan_variant(p, o, tune_variants[v], base, &t, pruned, 0)) return -1;
                }
            }
    }
    return 0;
}

/* ---- probes between the grid's sizes ------------------------------------------------ */

typedef struct {
    int cfg[TUNE_MAX_PARAMS];
    double ms;
} probe_rec;

/* By time, equal times by configuration: the order, and so the plan, does not depend on
 * the order of the file's records */
static int cmp_ms(const void *a, const void *b)
{
    const probe_rec *p = a, *q = b;
    if (p->ms != q->ms) return (p->ms > q->ms) - (p->ms < q->ms);
    return memcmp(p->cfg, q->cfg, sizeof p->cfg);
}

/* The measured configurations of a precision, variant and size that may be chosen (sweep
 * medians), fastest first; returns the count (at most max). recs: room for max records. */
static int measured(const tune_file *f, char precision, const tune_variant *v, int n, probe_rec *out,
                    const cJSON **recs, int max)
{
    const int found = tune_file_measured(f, precision, v->name, n, 0, recs, max);
    int count = 0;
    for (int i = 0; i < found; i++) {
        const double ms = cJSON_GetObjectItemCaseSensitive(recs[i], "ms")->valuedouble;
        memset(&out[count], 0, sizeof out[count]);
        if (ms > 0 && !tune_config_from_json(v, cJSON_GetObjectItemCaseSensitive(recs[i], "params"), out[count].cfg))
            out[count++].ms = ms;
    }
    qsort(out, (size_t)count, sizeof *out, cmp_ms);
    return count;
}

static int find_cfg(const probe_rec *list, int count, const int *cfg, int nparams)
{
    for (int i = 0; i < count; i++)
        if (!memcmp(list[i].cfg, cfg, sizeof(int) * (size_t)nparams)) return i;
    return -1;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

#define PROBE_MAX_RECORDS 4096

/* Appends the probes of one variant at t's size, between the measured sizes lo and hi (see
 * tune_plan_probes), with the defaults where with_default. */
static int probe_variant(tune_plan *p, const tune_file *f, const tune_variant *v, bchol_context *base,
                         const tune_target *t, int lo, int hi, int k, int with_default, probe_rec *a,
                         probe_rec *b, probe_rec *both, const cJSON **recs)
{
    const int na = measured(f, t->precision, v, lo, a, recs, PROBE_MAX_RECORDS);
    const int nb = measured(f, t->precision, v, hi, b, recs, PROBE_MAX_RECORDS);
    if (!na || !nb) return 0;
    /* the candidates: the k fastest at each end, then k more measured at both, the
     * smallest worse ratio to the two ends' best first (minimax) */
    probe_rec pick[3 * 64 + 1];
    int npick = 0;
    if (k > 64) k = 64;
    for (int i = 0; i < k && i < na; i++) pick[npick++] = a[i];
    for (int i = 0; i < k && i < nb; i++)
        if (find_cfg(pick, npick, b[i].cfg, v->nparams) < 0) pick[npick++] = b[i];
    int nboth = 0;
    for (int i = 0; i < na; i++) {
        const int j = find_cfg(b, nb, a[i].cfg, v->nparams);
        if (j < 0) continue;
        both[nboth] = a[i];
        both[nboth++].ms = fmax(a[i].ms / a[0].ms, b[j].ms / b[0].ms);
    }
    qsort(both, (size_t)nboth, sizeof *both, cmp_ms);
    for (int i = 0, added = 0; i < nboth && added < k; i++)
        if (find_cfg(pick, npick, both[i].cfg, v->nparams) < 0) {
            pick[npick++] = both[i];
            added++;
        }
    int deflt[TUNE_MAX_PARAMS];
    v->defaults(base, t, deflt);
    int have_default = 0, count = 0;
    for (int i = 0; i < npick; i++) {
        char why[200];
        const int is_default = !memcmp(pick[i].cfg, deflt, sizeof(int) * (size_t)v->nparams);
        if (!is_default && v->prune(pick[i].cfg, t, why, sizeof why)) continue;
        if (plan_append(p, t, v, 0, pick[i].cfg, is_default)) return -1;
        have_default |= is_default;
        count++;
    }
    if (!have_default && with_default) {
        if (plan_append(p, t, v, 0, deflt, 1)) return -1;
        count++;
    }
    return count;
}

/* The fastest sweep time of a variant at one size (-1: none measured). */
static double best_at(const tune_file *f, char precision, const tune_variant *v, int n, probe_rec *a,
                      const cJSON **recs)
{
    return measured(f, precision, v, n, a, recs, PROBE_MAX_RECORDS) ? a[0].ms : -1;
}

/* Each strided variant's best sweep time at lo and hi (-1: none, or not strided), and the
 * fastest of them at each: the dense probes' slack. */
static void end_bests(const tune_space *o, const tune_file *f, char precision, int lo, int hi,
                      double best[][2], double fastest[2], probe_rec *a, const cJSON **recs)
{
    fastest[0] = fastest[1] = -1;
    for (int v = 0; tune_variants[v] && v < TUNE_MAX_VARIANTS; v++) {
        const tune_variant *var = tune_variants[v];
        const int strided =
            !var->variable_sizes && !var->solve && !var->native && !var->lu && variant_selected(o, var->name);
        for (int e = 0; e < 2; e++) {
            best[v][e] = strided ? best_at(f, precision, var, e ? hi : lo, a, recs) : -1;
            if (best[v][e] > 0 && (fastest[e] < 0 || best[v][e] < fastest[e])) fastest[e] = best[v][e];
        }
    }
}

/* Whether a strided variant with these bests at the two ends is within the dense probes'
 * slack of the fastest strided variant at one end at least. */
static int within_slack(const double best[2], const double fastest[2])
{
    return (best[0] > 0 && best[0] <= TUNE_PROBE_EVERY_SLACK * fastest[0]) ||
           (best[1] > 0 && best[1] <= TUNE_PROBE_EVERY_SLACK * fastest[1]);
}

/* The grid's sizes, sorted, each once; returns the count. */
static int grid_sizes(const tune_space *o, int *sizes)
{
    int n = 0;
    memcpy(sizes, o->sizes, sizeof(int) * (size_t)o->nsizes);
    qsort(sizes, (size_t)o->nsizes, sizeof *sizes, cmp_int);
    for (int s = 0; s < o->nsizes; s++)
        if (!n || sizes[s] != sizes[n - 1]) sizes[n++] = sizes[s];
    return n;
}

/* Every configuration of a variant at t's size (--probe-full-to); returns how many, or -1.
 * The pruned counts are not recorded, as for the other probes. */
static int probe_all(tune_plan *p, const tune_space *o, const tune_variant *v, bchol_context *base,
                     const tune_target *t)
{
    const int before = p->count;
    return plan_variant(p, o, v, base, t, NULL, 1) ? -1 : p->count - before;
}

/* Appends the probes at m between the measured sizes lo and hi of every selected variant
 * that factors strided batches: k configurations each and the defaults (a midpoint), or,
 * with best (end_bests of lo and hi), each variant's probe_every_k within the slack and no
 * defaults (the dense probes); --probe-full-to's variant every configuration up to its
 * size. Returns how many, or -1. a: room for 3 * PROBE_MAX_RECORDS, recs for
 * PROBE_MAX_RECORDS. */
static int probe_size(tune_plan *p, const tune_space *o, const tune_file *f, bchol_context *base,
                      const bchol_device_info *dev, char precision, int m, int lo, int hi, int k,
                      double best[][2], const double fastest[2], probe_rec *a, const cJSON **recs)
{
    tune_target t = {*dev, precision, m, {0}, 0, 0};
    bchol_potrf_params(base, precision, m, &t.defaults, NULL);
    int added = 0;
    for (int v = 0; tune_variants[v] && v < TUNE_MAX_VARIANTS; v++) {
        const tune_variant *var = tune_variants[v];
        if (var->variable_sizes || var->solve || var->lu || !variant_selected(o, var->name)) continue;
        const int all = is_full_variant(o, var) && m <= o->probe_full_to;
        if (best && ((!all && !var->probe_every_k) || !within_slack(best[v], fastest))) continue;
        const int c = all ? probe_all(p, o, var, base, &t)
                          : probe_variant(p, f, var, base, &t, lo, hi, best ? var->probe_every_k : k, !best, a,
                                          a + PROBE_MAX_RECORDS, a + 2 * PROBE_MAX_RECORDS, recs);
        if (c < 0) return -1;
        added += c;
    }
    return added;
}

/* Both stages of the probes: every_to == 0, the midpoints; else the other sizes between
 * the grid's up to every_to, each between its nearest measured sizes (lo or the midpoint,
 * the midpoint or hi). */
static int plan_probes(tune_plan *p, const tune_space *o, const tune_file *f, bchol_context *base,
                       const bchol_device_info *dev, int k, int every_to)
{
    int sizes[TUNE_MAX_SIZES], added = 0;
    const int nsizes = grid_sizes(o, sizes);
    probe_rec *a = malloc(3 * PROBE_MAX_RECORDS * sizeof *a);
    const cJSON **recs = malloc(PROBE_MAX_RECORDS * sizeof *recs);
    double best[TUNE_MAX_VARIANTS][2], fastest[2];
    for (const char *pr = o->precisions; a && recs && *pr && added >= 0; pr++) {
        if (*pr == 'd' && !dev->fp64) continue;
        for (int s = 0; s + 1 < nsizes && added >= 0; s++) {
            const int lo = sizes[s], hi = sizes[s + 1], mid = lo + (hi - lo) / 2;
            if (hi - lo < 2 || (every_to && hi > every_to)) continue;
            if (!every_to) {
                const int c = probe_size(p, o, f, base, dev, *pr, mid, lo, hi, k, NULL, NULL, a, recs);
                added = c < 0 ? -1 : added + c;
                continue;
            }
            for (int half = 0; half < 2 && added >= 0; half++) {
                const int from = half ? mid : lo, to = half ? hi : mid;
                end_bests(o, f, *pr, from, to, best, fastest, a, recs);
                for (int m = from + 1; m < to && added >= 0; m++) {
                    const int c = probe_size(p, o, f, base, dev, *pr, m, from, to, 0, best, fastest, a, recs);
                    added = c < 0 ? -1 : added + c;
                }
            }
        }
    }
    if (!a || !recs) added = -1;
    free(a);
    free(recs);
    return added;
}

int tune_plan_probes(tune_plan *p, const tune_space *o, const tune_file *f, bchol_context *base,
                     const bchol_device_info *dev, int k)
{
    return plan_probes(p, o, f, base, dev, k, 0);
}

int tune_plan_probes_every(tune_plan *p, const tune_space *o, const tune_file *f, bchol_context *base,
                           const bchol_device_info *dev, int every_to)
{
    return every_to > 0 ? plan_probes(p, o, f, base, dev, 0, every_to) : 0;
}

void tune_plan_free(tune_plan *p)
{
    free(p->items);
    memset(p, 0, sizeof *p);
}
