/* Tuning files: JSON text -> bchol_tuning (cJSON does the parsing). The layout:
 *
 *   { "format": "bchol-tuning", "format_version": 1, ...,
 *     "devices": [ { "family": "pocl" (optional), "vendor": "AMD", "architecture": "haswell",
 *                    "name": "AMD EPYC", "driver": "3.1+debian" (optional),
 *                    "chosen": [ { "precision": "s", "variant": "fused", "n": 16, "n_to": 31,
 *                                  "params": { "ib": 8, "tbc": 1, "rpt": 4, "shape": "fixed" },
 *                                  "ms": 1.2, "default_ms": 2.3 },
 *                                { "precision": "s", "variant": "solve", "n": 16, "nrhs": 1,
 *                                  "params": { "nt": 1, "rpt": 4, "tbc": 2 } }, ... ],
 *                    "tried": [ ... every configuration measured; not read here ... ] } ] }
 *
 * An entry serves the sizes from its n up to the next entry's ("n_to", written for the
 * reader, is not needed here). A fused or separate entry may name other parameters for
 * the sizes strictly between its n and the next measured one: "between": { ... },
 * "between_to": at most next - 1, the entry's own parameters serving the sizes above it
 * (the tuner's pick from the two ends' times, cli/tune/tune_file.c).
 * Solve entries, and the LU solve's "getrs" entries (the same nt, rpt, tbc), also name
 * the nrhs they were measured at (required; one entry per precision, n and nrhs); so do
 * the workitem solve's "solve-workitem" entries (nt 1..32, vw 1, 2, 4, 8 or 16).
 * getrf's entries are one variant each ("getrf-fused": lx, tbc;
 * "getrf-blocked": nb, gemm; "getrf-workitem": tbc and optionally nb, the panel width of
 * its blocked getf2; "getrf-regs": tbc, 0 naming the
 * driver's default group, which the tuner measures as the untuned configuration), n being
 * max(m, n). getri's entries ("getri": path "solve", "fused" or "blocked", and nb, 1..64
 * for the blocked path, else 0 or missing) one per precision and n.
 * Each variant's parameters are listed in `variants` below: adding a variant to the
 * tuning files is adding its row there. */
#include "tuning/tuning.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *key;
    size_t offset; /* of the int field in bchol_tuning_entry */
    int min, max;
    const char *const *labels; /* NULL: an integer; else value i is written labels[i] */
    int optional;              /* 1: may be missing (files written before it was tuned): 0 */
} param_def;

#define P(field) offsetof(bchol_tuning_entry, params.field)

static const char *const shape_labels[] = {"default", "fixed", "shrink", "pack", NULL};

static const param_def fused_params[] = {
    {"ib", P(ib), 1, 32, NULL, 0},
    {"tbc", P(tbc), 1, 64, NULL, 0},
    {"rpt", P(rpt), 1, 64, NULL, 0},
    {"shape", P(shape), BCHOL_SHAPE_FIXED, BCHOL_SHAPE_SHRINK, shape_labels, 0},
};

static const char *const gemm_labels[] = {"default", "own", "clblast", NULL};

static const param_def separate_params[] = {
    {"nb", P(nb), 1, 64, NULL, 0},
    {"pb", P(pb), 1, 64, NULL, 0},
    {"gemm", P(gemm), BCHOL_GEMM_OWN, BCHOL_GEMM_CLBLAST, gemm_labels, 0},
    {"tile", P(tile), 16, 128, NULL, 0},
    {"gb", P(gb), 1, 1 << 24, NULL, 0},
};

static const char *const looking_labels[] = {"default", "left", "right", "top", NULL};
static const char *const unroll_labels[] = {"default", "tiles", "full", NULL};
static const char *const chunking_labels[] = {"default", "chunked", "simple", "staged", NULL};
static const char *const math_labels[] = {"default", "ieee", "fast", NULL};

static const param_def interleaved_params[] = {
    {"inb", P(inb), 1, 64, NULL, 0},
    {"looking", P(looking), BCHOL_LOOKING_LEFT, BCHOL_LOOKING_TOP, looking_labels, 0},
    {"unroll", P(unroll), BCHOL_UNROLL_TILES, BCHOL_UNROLL_FULL, unroll_labels, 0},
    {"chunking", P(chunking), BCHOL_CHUNKED, BCHOL_STAGED, chunking_labels, 0},
    {"chunk", P(chunk), 1, 1024, NULL, 0},
    {"math", P(math), BCHOL_MATH_IEEE, BCHOL_MATH_FAST, math_labels, 0},
};

static const param_def workitem_params[] = {
    {"wnb", P(wnb), 1, 32, NULL, 0},
    {"wvec", P(wvec), 1, 16, NULL, 0},
    {"wmr", P(wmr), 1, 2, NULL, 0},
    {"wgroup", P(wgroup), 1, 256, NULL, 0},
};

static const char *const etm_labels[] = {"default", "classic", "aggressive", NULL};
static const char *const schedule_labels[] = {"default", "greedy", "lazy", "one-launch", NULL};
static const char *const order_labels[] = {"default", "index", "steps", NULL};

static const param_def vbatched_params[] = {
    {"ib", P(ib), 1, 32, NULL, 0},
    {"tbc", P(tbc), 1, 64, NULL, 1},
    {"rpt", P(rpt), 1, 64, NULL, 0},
    {"shape", P(shape), BCHOL_SHAPE_FIXED, BCHOL_SHAPE_PACK, shape_labels, 0},
    {"etm", offsetof(bchol_tuning_entry, etm), BCHOL_ETM_CLASSIC, BCHOL_ETM_AGGRESSIVE, etm_labels, 0},
    {"schedule", offsetof(bchol_tuning_entry, schedule), BCHOL_SCHEDULE_GREEDY, BCHOL_SCHEDULE_ONE_LAUNCH,
     schedule_labels, 0},
    {"order", offsetof(bchol_tuning_entry, order), BCHOL_ORDER_INDEX, BCHOL_ORDER_STEPS, order_labels, 1},
};

#define S(field) offsetof(bchol_tuning_entry, solve.field)

static const param_def solve_params[] = {
    {"nt", S(nt), 1, 32, NULL, 0},
    {"rpt", S(rpt), 1, 64, NULL, 0},
    {"tbc", S(tbc), 1, 64, NULL, 0},
};

/* the workitem solve: right-hand sides per pass (its NR, 1..32) and vector width (VW) */
static const param_def solve_workitem_params[] = {
    {"nt", S(nt), 1, 32, NULL, 0},
    {"vw", offsetof(bchol_tuning_entry, vw), 1, 16, NULL, 0}, /* and a power of two */
};

#define G(field) offsetof(bchol_tuning_entry, getrf.field)

static const param_def getrf_fused_params[] = {
    {"lx", G(lx), 1, 1024, NULL, 0},
    {"tbc", G(tbc), 1, 64, NULL, 0},
};

static const param_def getrf_blocked_params[] = {
    {"nb", G(nb), 1, 64, NULL, 0},
    {"gemm", G(gemm), BCHOL_GEMM_OWN, BCHOL_GEMM_CLBLAST, gemm_labels, 0},
    {"ib", G(ib), 0, 64, NULL, 1},
};

static const param_def getrf_workitem_params[] = {
    {"tbc", G(tbc), 1, 64, NULL, 0},
    {"nb", G(nb), 1, 64, NULL, 1}, /* its panel width; files before it have none */
};

static const param_def getrf_regs_params[] = {
    {"tbc", G(tbc), 0, 64, NULL, 0},
};

#define R(field) offsetof(bchol_tuning_entry, getri.field)

/* labels[i] is bchol_getri_path i; an entry never names auto */
static const char *const getri_path_labels[] = {"auto", "solve", "fused", "blocked", NULL};

static const param_def getri_params[] = {
    {"path", R(path), BCHOL_GETRI_SOLVE, BCHOL_GETRI_BLOCKED, getri_path_labels, 0},
    {"nb", R(nb), 0, 64, NULL, 1},
};

/* getrf: the bchol_getrf_variant of a getrf row (0 for the others) */
static const struct {
    const char *name;
    bchol_variant variant;
    const param_def *params;
    int nparams;
    bchol_getrf_variant getrf;
} variants[] = {
    {"fused", BCHOL_VARIANT_FUSED, fused_params, sizeof fused_params / sizeof fused_params[0], BCHOL_GETRF_AUTO},
    {"separate", BCHOL_VARIANT_SEPARATE, separate_params,
     sizeof separate_params / sizeof separate_params[0], BCHOL_GETRF_AUTO},
    {"interleaved", BCHOL_VARIANT_INTERLEAVED, interleaved_params,
     sizeof interleaved_params / sizeof interleaved_params[0], BCHOL_GETRF_AUTO},
    {"workitem", BCHOL_VARIANT_WORKITEM, workitem_params,
     sizeof workitem_params / sizeof workitem_params[0], BCHOL_GETRF_AUTO},
    {"interleaved-native", BCHOL__VARIANT_ILV_NATIVE, interleaved_params,
     sizeof interleaved_params / sizeof interleaved_params[0], BCHOL_GETRF_AUTO},
    {"vbatched", BCHOL__VARIANT_VBATCHED, vbatched_params,
     sizeof vbatched_params / sizeof vbatched_params[0], BCHOL_GETRF_AUTO},
    {"solve", BCHOL__VARIANT_SOLVE, solve_params, sizeof solve_params / sizeof solve_params[0], BCHOL_GETRF_AUTO},
    /* the LU solve's kernel takes the same three fields and ranges */
    {"getrs", BCHOL__VARIANT_GETRS, solve_params, sizeof solve_params / sizeof solve_params[0], BCHOL_GETRF_AUTO},
    {"solve-workitem", BCHOL__VARIANT_SOLVE_WORKITEM, solve_workitem_params,
     sizeof solve_workitem_params / sizeof solve_workitem_params[0], BCHOL_GETRF_AUTO},
    {"getrs-workitem", BCHOL__VARIANT_GETRS_WORKITEM, solve_workitem_params,
     sizeof solve_workitem_params / sizeof solve_workitem_params[0], BCHOL_GETRF_AUTO},
    {"getrf-fused", BCHOL__VARIANT_GETRF_FUSED, getrf_fused_params,
     sizeof getrf_fused_params / sizeof getrf_fused_params[0], BCHOL_GETRF_FUSED},
    {"getrf-blocked", BCHOL__VARIANT_GETRF_BLOCKED, getrf_blocked_params,
     sizeof getrf_blocked_params / sizeof getrf_blocked_params[0], BCHOL_GETRF_BLOCKED},
    {"getrf-workitem", BCHOL__VARIANT_GETRF_WORKITEM, getrf_workitem_params,
     sizeof getrf_workitem_params / sizeof getrf_workitem_params[0], BCHOL_GETRF_WORKITEM},
    {"getrf-regs", BCHOL__VARIANT_GETRF_REGS, getrf_regs_params,
     sizeof getrf_regs_params / sizeof getrf_regs_params[0], BCHOL_GETRF_REGS},
    {"getri", BCHOL__VARIANT_GETRI, getri_params, sizeof getri_params / sizeof getri_params[0],
     BCHOL_GETRF_AUTO},
};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])

const char *bchol__variant_name(bchol_variant variant)
{
    for (int i = 0; i < NVARIANTS; i++)
        if (variants[i].variant == variant) return variants[i].name;
    return NULL;
}

/* Formats the reason a file is rejected; always returns -1. */
static int reject(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *type_name(const cJSON *v)
{
    if (!v) return "nothing (missing)";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsObject(v)) return "an object";
    return "an invalid value";
}

/* An integral JSON number within [min, max]. */
static int get_int(const cJSON *v, int min, int max, int *out)
{
    if (!cJSON_IsNumber(v)) return -1;
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d) || d < min || d > max) return -1;
    *out = (int)d;
    return 0;
}

/* A string member copied into out; missing, of another type, empty or too long fails. */
static int get_string(const cJSON *obj, const char *key, char *out, size_t size, int optional,
                      const char *path, char *why, size_t why_size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v && optional) {
        out[0] = 0;
        return 0;
    }
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return reject(why, why_size, "%s.%s: expected a non-empty string, found %s", path, key,
                      v && cJSON_IsString(v) ? "an empty string" : type_name(v));
    if (strlen(v->valuestring) >= size)
        return reject(why, why_size, "%s.%s: longer than %zu characters", path, key, size - 1);
    memcpy(out, v->valuestring, strlen(v->valuestring) + 1);
    return 0;
}

static int get_time(const cJSON *obj, const char *key, double *out, const char *path, char *why,
                    size_t why_size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = -1;
    if (!v) return 0;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
        return reject(why, why_size, "%s.%s: expected a time in ms (a number >= 0), found %s", path,
                      key, cJSON_IsNumber(v) ? "a negative or non-finite number" : type_name(v));
    *out = v->valuedouble;
    return 0;
}

/* The workitem solves' entries (nt, vw): potrs' and the LU solve's. */
static int is_workitem_solve(bchol_variant v)
{
    return v == BCHOL__VARIANT_SOLVE_WORKITEM || v == BCHOL__VARIANT_GETRS_WORKITEM;
}

static int parse_params(const cJSON *obj, const char *key, int vi, bchol_tuning_entry *e, const char *path,
                        char *why, size_t why_size)
{
    if (!cJSON_IsObject(obj))
        return reject(why, why_size, "%s.%s: expected an object, found %s", path, key, type_name(obj));
    memset(&e->params, 0, sizeof e->params);
    memset(&e->solve, 0, sizeof e->solve);
    memset(&e->getrf, 0, sizeof e->getrf);
    memset(&e->getri, 0, sizeof e->getri);
    e->getrf.variant = variants[vi].getrf;
    e->etm = e->schedule = e->order = e->vw = 0;
    if (bchol__variant_has_nrhs(variants[vi].variant))
        e->solve.variant = is_workitem_solve(variants[vi].variant) ? BCHOL_SOLVE_WORKITEM : BCHOL_SOLVE_SUBST;
    /* vbatched entries hold the fused kernel's fields, interleaved-native ones the
     * interleaved variant's */
    e->params.variant = variants[vi].variant == BCHOL__VARIANT_VBATCHED     ? BCHOL_VARIANT_FUSED
                        : variants[vi].variant == BCHOL__VARIANT_ILV_NATIVE ? BCHOL_VARIANT_INTERLEAVED
                                                                            : variants[vi].variant;
    for (int i = 0; i < variants[vi].nparams; i++) {
        const param_def *d = &variants[vi].params[i];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, d->key);
        int value = 0, ok = 0;
        if (!v && d->optional) continue;
        if (d->labels && cJSON_IsString(v)) {
            for (int k = d->min; k <= d->max; k++)
                if (!strcmp(v->valuestring, d->labels[k])) {
                    value = k;
                    ok = 1;
                }
        } else if (!d->labels) {
            ok = get_int(v, d->min, d->max, &value) == 0;
        }
        if (!ok) {
            if (d->labels) {
                /* every accepted label: "left", "right" or "top" */
                char list[160] = "";
                size_t used = 0;
                for (int k = d->min; k <= d->max && used < sizeof list; k++) {
                    int w = snprintf(list + used, sizeof list - used, "%s\"%s\"",
                                     k == d->min ? "" : k == d->max ? " or " : ", ", d->labels[k]);
                    if (w > 0) used += (size_t)w;
                }
                return reject(why, why_size, "%s.%s.%s: expected %s, found %s", path, key, d->key,
                              list, cJSON_IsString(v) ? "another string" : type_name(v));
            }
            return reject(why, why_size, "%s.%s.%s: expected an integer in %d..%d, found %s",
                          path, key, d->key, d->min, d->max,
                          cJSON_IsNumber(v) ? "a number outside that range" : type_name(v));
        }
        *(int *)((char *)e + d->offset) = value;
    }
    /* the workitem solve's vector types: 1, 2, 4, 8, 16 (common/vector.cl) */
    if (is_workitem_solve(variants[vi].variant) && (e->vw & (e->vw - 1)))
        return reject(why, why_size, "%s.%s.vw: expected 1, 2, 4, 8 or 16, found %d", path, key, e->vw);
    /* getri: nb is the blocked path's alone */
    if (variants[vi].variant == BCHOL__VARIANT_GETRI &&
        (e->getri.path == BCHOL_GETRI_BLOCKED) != (e->getri.nb > 0))
        return reject(why, why_size, "%s.%s.nb: expected %s for path \"%s\", found %d", path, key,
                      e->getri.path == BCHOL_GETRI_BLOCKED ? "1..64" : "0 (or none)",
                      getri_path_labels[e->getri.path], e->getri.nb);
    return 0;
}

/* The optional "between" parameters and "between_to" of a fused or separate entry. */
static int parse_between(const cJSON *e, int vi, bchol_tuning_entry *t, const char *path, char *why,
                         size_t why_size)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "between"),
                *to = cJSON_GetObjectItemCaseSensitive(e, "between_to");
    t->between_to = 0;
    if (!b && !to) return 0;
    if (variants[vi].variant != BCHOL_VARIANT_FUSED && variants[vi].variant != BCHOL_VARIANT_SEPARATE)
        return reject(why, why_size, "%s.between: only fused and separate entries have one", path);
    if (!b || !to)
        return reject(why, why_size, "%s.%s: missing (\"between\" and \"between_to\" come together)", path,
                      b ? "between_to" : "between");
    if (get_int(to, t->n + 1, 1 << 20, &t->between_to))
        return reject(why, why_size, "%s.between_to: expected an integer in %d..%d, found %s", path, t->n + 1,
                      1 << 20, cJSON_IsNumber(to) ? "a number outside that range" : type_name(to));
    bchol_tuning_entry tmp = *t;
    if (parse_params(b, "between", vi, &tmp, path, why, why_size)) return -1;
    t->between = tmp.params;
    return 0;
}

/* The key a section holds once: precision, variant, n, nrhs. */
static int cmp_key(const bchol_tuning_entry *a, const bchol_tuning_entry *b)
{
    if (a->precision != b->precision) return a->precision - b->precision;
    if (a->variant != b->variant) return (int)a->variant - (int)b->variant;
    if (a->n != b->n) return (a->n > b->n) - (a->n < b->n);
    return (a->nrhs > b->nrhs) - (a->nrhs < b->nrhs);
}

/* By key, then by position in the file (so that a repeated key's first entry comes first). */
static int cmp_entry(const void *pa, const void *pb)
{
    const bchol_tuning_entry *a = pa, *b = pb;
    const int c = cmp_key(a, b);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Sorts the section's entries and rejects a key held twice, naming the first entry in file
 * order whose key an earlier one has: sorting makes that O(n log n) where comparing each
 * entry with every earlier one took 270 s for 300,000 entries. Returns 0, or -1 with why. */
static int sort_unique(bchol_tuning_section *s, const char *path, char *why, size_t why_size)
{
    qsort(s->entries, (size_t)s->nentries, sizeof *s->entries, cmp_entry);
    int at = -1;
    for (int i = 1; i < s->nentries; i++)
        if (!cmp_key(&s->entries[i - 1], &s->entries[i]) && (at < 0 || s->entries[i].index < s->entries[at].index))
            at = i;
    if (at < 0) return 0;
    const bchol_tuning_entry *t = &s->entries[at];
    char rhs[32] = "";
    if (t->nrhs) snprintf(rhs, sizeof rhs, ", nrhs = %d", t->nrhs);
    return reject(why, why_size, "%s.chosen[%d]: a second %c %s entry for n = %d%s", path, t->index, t->precision,
                  bchol__variant_name(t->variant), t->n, rhs);
}

/* An entry of s could not be parsed (why says so): the file is rejected for the first fault
 * in file order, which is a repeated key among the entries before it if there is one. */
static int bad_entry(bchol_tuning_section *s, const char *path, char *why, size_t why_size)
{
    char fault[512];
    snprintf(fault, sizeof fault, "%s", why);
    if (sort_unique(s, path, why, why_size)) return -1;
    snprintf(why, why_size, "%s", fault);
    return -1;
}

/* Fills s from devices[index]; s->entries is allocated (freed by the caller on failure). */
static int parse_section(const cJSON *dev, int index, bchol_tuning_section *s, char *why,
                         size_t why_size)
{
    char path[64], epath[96];
    snprintf(path, sizeof path, "devices[%d]", index);
    if (!cJSON_IsObject(dev))
        return reject(why, why_size, "%s: expected an object, found %s", path, type_name(dev));
    s->index = index;
    if (get_string(dev, "family", s->family, sizeof s->family, 1, path, why, why_size) ||
        get_string(dev, "vendor", s->vendor, sizeof s->vendor, 0, path, why, why_size) ||
        get_string(dev, "architecture", s->architecture, sizeof s->architecture, 0, path, why,
                   why_size) ||
        get_string(dev, "name", s->name, sizeof s->name, 0, path, why, why_size) ||
        get_string(dev, "driver", s->driver, sizeof s->driver, 1, path, why, why_size))
        return -1;
    const cJSON *chosen = cJSON_GetObjectItemCaseSensitive(dev, "chosen");
    if (!cJSON_IsArray(chosen))
        return reject(why, why_size, "%s.chosen: expected an array, found %s", path,
                      type_name(chosen));
    int count = cJSON_GetArraySize(chosen);
    s->entries = calloc(count > 0 ? (size_t)count : 1, sizeof *s->entries);
    if (!s->entries) return reject(why, why_size, "out of memory");
    int k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, chosen)
    {
        snprintf(epath, sizeof epath, "%s.chosen[%d]", path, k);
        if (!cJSON_IsObject(e)) {
            reject(why, why_size, "%s: expected an object, found %s", epath, type_name(e));
            return bad_entry(s, path, why, why_size);
        }
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "precision");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "variant");
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "n");
        if (!cJSON_IsString(p) || (strcmp(p->valuestring, "s") && strcmp(p->valuestring, "d"))) {
            reject(why, why_size, "%s.precision: expected \"s\" or \"d\", found %s", epath,
                   cJSON_IsString(p) ? "another string" : type_name(p));
            return bad_entry(s, path, why, why_size);
        }
        if (!cJSON_IsString(v)) {
            reject(why, why_size, "%s.variant: expected a string, found %s", epath, type_name(v));
            return bad_entry(s, path, why, why_size);
        }
        bchol_tuning_entry *t = &s->entries[s->nentries];
        if (get_int(n, 0, 1 << 20, &t->n)) {
            reject(why, why_size, "%s.n: expected an integer in 0..%d, found %s", epath, 1 << 20,
                   cJSON_IsNumber(n) ? "a number outside that range" : type_name(n));
            return bad_entry(s, path, why, why_size);
        }
        int vi = 0;
        while (vi < NVARIANTS && strcmp(variants[vi].name, v->valuestring)) vi++;
        k++;
        if (vi == NVARIANTS) continue; /* a variant of a newer bchol */
        t->precision = p->valuestring[0];
        t->variant = variants[vi].variant;
        t->nrhs = 0;
        if (bchol__variant_has_nrhs(t->variant)) {
            const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "nrhs");
            if (get_int(r, 1, 1 << 20, &t->nrhs)) {
                reject(why, why_size, "%s.nrhs: expected an integer in 1..%d, found %s", epath, 1 << 20,
                       cJSON_IsNumber(r) ? "a number outside that range" : type_name(r));
                return bad_entry(s, path, why, why_size);
            }
        }
        t->index = k - 1;
        if (parse_params(cJSON_GetObjectItemCaseSensitive(e, "params"), "params", vi, t, epath, why, why_size) ||
            get_time(e, "ms", &t->ms, epath, why, why_size) ||
            get_time(e, "default_ms", &t->default_ms, epath, why, why_size) ||
            parse_between(e, vi, t, epath, why, why_size))
            return bad_entry(s, path, why, why_size);
        s->nentries++;
    }
    return sort_unique(s, path, why, why_size);
}

static int parse_root(const cJSON *root, bchol_tuning_section **out, int *count, char *why,
                      size_t why_size)
{
    if (!cJSON_IsObject(root))
        return reject(why, why_size, "expected a JSON object at the top, found %s", type_name(root));
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(format) || strcmp(format->valuestring, "bchol-tuning"))
        return reject(why, why_size, "format: expected \"bchol-tuning\", found %s",
                      cJSON_IsString(format) ? "another string" : type_name(format));
    int version;
    const cJSON *fv = cJSON_GetObjectItemCaseSensitive(root, "format_version");
    if (get_int(fv, 1, 1000000, &version))
        return reject(why, why_size, "format_version: expected a positive integer, found %s",
                      type_name(fv));
    if (version > BCHOL_TUNING_FORMAT_VERSION)
        return reject(why, why_size, "format_version %d is newer than this bchol reads (%d)",
                      version, BCHOL_TUNING_FORMAT_VERSION);
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(root, "devices");
    if (!cJSON_IsArray(devices))
        return reject(why, why_size, "devices: expected an array, found %s", type_name(devices));
    int nd = cJSON_GetArraySize(devices);
    bchol_tuning_section *s = calloc(nd > 0 ? (size_t)nd : 1, sizeof *s);
    if (!s) return reject(why, why_size, "out of memory");
    int i = 0;
    const cJSON *dev;
    cJSON_ArrayForEach(dev, devices)
    {
        if (parse_section(dev, i, &s[i], why, why_size)) {
            for (int k = 0; k <= i; k++) free(s[k].entries);
            free(s);
            return -1;
        }
        i++;
    }
    *out = s;
    *count = nd;
    return 0;
}

/* 1 if the text ends inside a string or with brackets still open: a cut-off file (cJSON
 * reports where a token began, which says little when the text simply stops). */
static int ends_early(const char *text, size_t length)
{
    long depth = 0;
    int in_string = 0;
    for (size_t i = 0; i < length; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') in_string = 0;
        } else if (c == '"') in_string = 1;
        else if (c == '{' || c == '[') depth++;
        else if (c == '}' || c == ']') depth--;
    }
    return in_string || depth > 0;
}

/* array (capacity *cap items of size bytes) with room for need items, doubled as needed;
 * NULL (array and *cap as they were) when memory runs out. */
static void *grow(void *array, int *cap, int need, size_t size)
{
    if (need < 1) need = 1; /* never NULL for success */
    if (need <= *cap) return array;
    if (need > INT_MAX / 2) return NULL;
    int want = *cap > 0 ? *cap : 4;
    while (want < need) want *= 2;
    void *more = realloc(array, (size_t)want * size);
    if (more) *cap = want;
    return more;
}

int bchol__tuning_parse(bchol_tuning *t, const char *text, size_t length, const char *path,
                        char *why, size_t why_size)
{
    if (length == 0) return reject(why, why_size, "the file is empty");
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, length, &end, 0);
    if (!root) {
        if (ends_early(text, length))
            return reject(why, why_size, "not valid JSON: the text ends early (truncated?)");
        return reject(why, why_size, "not valid JSON near byte %zu",
                      end && end >= text ? (size_t)(end - text) : (size_t)0);
    }
    bchol_tuning_section *s = NULL;
    int count = 0;
    int bad = parse_root(root, &s, &count, why, why_size);
    cJSON_Delete(root);
    if (bad) return -1;

    /* Grow the table only once everything parsed, so that a failure leaves t as it was;
     * by doubling, so that a folder of many files costs linear time. */
    char *file = strdup(path ? path : "");
    char **files = file ? grow(t->files, &t->files_cap, t->nfiles + 1, sizeof *files) : NULL;
    if (files) t->files = files;
    bchol_tuning_section *all =
        files ? grow(t->sections, &t->sections_cap, t->nsections + count, sizeof *all) : NULL;
    if (all) t->sections = all;
    if (!all) {
        free(file);
        for (int k = 0; k < count; k++) free(s[k].entries);
        free(s);
        return reject(why, why_size, "out of memory");
    }
    t->files[t->nfiles++] = file;
    for (int k = 0; k < count; k++) {
        s[k].file = file;
        t->sections[t->nsections++] = s[k];
    }
    free(s);
    return 0;
}

void bchol__tuning_free(bchol_tuning *t)
{
    if (!t) return;
    for (int i = 0; i < t->nsections; i++) free(t->sections[i].entries);
    for (int i = 0; i < t->nfiles; i++) free(t->files[i]);
    free(t->sections);
    free(t->files);
    memset(t, 0, sizeof *t);
}
