/*
 * bchol tune: measures every configuration of every variant's search space (or a seeded
 * random fraction) at each size and precision (and, for the solve, each number of
 * right-hand sides) on one device, and writes the tuning file
 * the dispatcher reads. Each candidate is built, run once and checked against reference
 * results (a warm-up: PoCL also compiles its work-group specializations then), then timed
 * with OpenCL profiling events; the median of the timed runs counts (or the fastest,
 * --statistic min). After a size's sweep its finalists (each variant's fastest few and
 * the defaults) are timed again in interleaved rounds, and that round decides the chosen
 * entry. The untuned library's configuration (the backend defaults) is always measured.
 * The file is saved as the run goes (every few seconds: save_now, SAVE_EVERY_S), so a
 * killed or budget-limited run continues with --resume. Builds may run in child processes
 * (tune_prebuild.c): ahead of the timing (--jobs), and under a time limit (--build-timeout)
 * past which a configuration is recorded as failed, so that one slow compilation cannot
 * stall the sweep.
 */
#include "bchol_util.h"
#include "commands.h"
#include "options.h"
#include "tune.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXIT_INCOMPLETE 3

typedef struct {
    const char *device, *output, *report, *against, *rechoose;
    int resume, quiet, jobs, dry_run, probes_only;
    /* with --resume, what is not given here comes from the file */
    tune_space space;
    tune_timing timing;
    long long batch; /* 0: tune_default_batch */
    char also_default[16];
    double max_minutes;
    double build_timeout; /* seconds; 0: none; < 0: the device's default */
    long long max_configs;
    int probe_between; /* k of tune_plan_probes; 0: no probes */
    int probe_every_to; /* every_to of tune_plan_probes; 0: midpoints only */
    int has_seed;
    struct {
        int sizes, precisions, variants, uplo, batch, reps, warmup, fraction, sets, also_default,
            statistic, nrhs, probe_between, probe_every_to, full_to, probe_full_to;
    } given;
} tune_options;

static volatile sig_atomic_t stop_requested;
static void on_signal(int sig) { stop_requested = sig; }

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bchol tune [options]          tune a device, writing a tuning file\n"
            "       bchol tune --report FILE [--against TUNED]\n"
            "                                     summarize a tuning file; with --against, how close\n"
            "                                     TUNED's picks for FILE's sizes come to FILE's best\n"
            "       bchol tune --rechoose FILE    choose FILE's entries again from its measurements\n"
            "                                     (after a change of how entries are chosen)\n"
            "  --device SPEC       nvidia, pocl, gpu, cpu or P:D (default: BCHOL_DEVICE, else first GPU)\n"
            "  --output FILE       the tuning file (default bchol-tuning.json); one tuner at a time\n"
            "                      (FILE.lock beside it, naming its pid, while it runs)\n"
            "  --resume            continue FILE: measured configurations are skipped, options not\n"
            "                      given take the values recorded in it (also fine if FILE is missing)\n"
            "  --n LIST            sizes in [1, 46340]: a,b,c | a:b (doubling) | a:b:step (default: GPUs\n"
            "                      4,8,12,16,24,32,48,64,96,128,192,256,384,512; CPUs 4,8,16,32,64,128)\n"
            "  --precision s|d|sd  (default sd, s on devices without fp64)\n"
            "  --variants LIST     variants to sweep, comma-separated (default: every one at the\n"
            "                      sizes it applies to: fused within local memory, interleaved\n"
            "                      n <= 64 (on strided batches, conversions included: the\n"
            "                      crossover), interleaved-native n <= 64 (the factorization of\n"
            "                      data already interleaved: the interleaved routines' own\n"
            "                      entries), separate n >= 32; vbatched, timed on orders uniform\n"
            "                      in [1, n], where fused fits; solve, the substitution solve\n"
            "                      of potrs/posv, at each --nrhs; workitem, one work-item per\n"
            "                      matrix, on CPUs; solve-workitem, the workitem solve's nt and\n"
            "                      vw at each --nrhs, on CPUs, competing with solve where both\n"
            "                      are measured: the faster decides which solve potrs/posv run.\n"
            "                      On CPUs the default is workitem, interleaved and\n"
            "                      solve-workitem, what the library runs there on its own: the\n"
            "                      others only where named); getrf-fused, getrf-blocked,\n"
            "                      getrf-workitem and getrf-regs (getrf names the four) only where\n"
            "                      named: LU's variants, timed and checked as getrf_batched,\n"
            "                      competing with each other only (workitem on CPUs only, regs on\n"
            "                      GPUs only, n <= 128); getrs, the LU solve's substitution shape\n"
            "                      (getrs, gesv, getri's solve path), only where named: timed as\n"
            "                      getrs_batched on getrf's factors at each --nrhs, its own entries;\n"
            "                      getrs-workitem, the workitem LU solve's nt and vw (PoCL's getrs),\n"
            "                      likewise only where named; getri, getri_batched's path (solve,\n"
            "                      fused up to n = 64, blocked) and the blocked path's nb, only where\n"
            "                      named: timed on getrf's factors, its own entries\n"
            "  --nrhs LIST         right-hand sides per matrix the solve is timed with, a,b,c, each 1 to 4096\n"
            "                      (default 1,16; getrs too); entries record theirs\n"
            "  --uplo L|U          (default L)\n"
            "  --batch B           matrices per run, 1 to 2^40 (default or 0: bench's, 16384 up to n = 64,\n"
            "                      3000 up to 256, 1000 above)\n"
            "  --reps R            timed runs per configuration, 1 to 10000 (default 5)\n"
            "  --statistic S       which of them counts: median (default) or min (the fastest run,\n"
            "                      steadier on a machine shared with other work)\n"
            "  --warmup W          untimed runs first, the first one verified, 1 to 10000 (default 1)\n"
            "  --fraction F        measure a seeded random fraction F of each size's configurations\n"
            "                      (default 1: exhaustive); the defaults are always measured\n"
            "  --seed S            seed of --fraction (default: from the clock; recorded in the file)\n"
            "  --set NAME=LIST     candidate values of a parameter instead of the built-in ones,\n"
            "                      e.g. --set ib=8,16 --set shape=fixed (repeatable); integers from\n"
            "                      1, and 0 where it is a value of its own (getri's nb: no panels,\n"
            "                      getrf-blocked's ib: no inner panels), which other variants'\n"
            "                      parameters of that name leave out\n"
            "  --probe-between K   once the grid is measured, also measure each size halfway between\n"
            "                      two neighbouring ones (fused, separate, interleaved), with the K\n"
            "                      fastest configurations at each end, K more measured at both (the\n"
            "                      best worse ratio to the two ends' best first) and the defaults;\n"
            "                      that size then has entries of its own (default 0: none)\n"
            "  --probe-every-to N  with --probe-between: once the midpoints are measured, probe\n"
            "                      every other size between two neighbouring ones up to N too,\n"
            "                      between its nearest measured sizes, with fewer configurations\n"
            "                      (fused: the 2 fastest at each and 2 more; interleaved and\n"
            "                      separate: the fastest; a variant over 1.5x the fastest one's\n"
            "                      time at both: none) and no defaults (default 0: none)\n"
            "  --full-to VARIANT=N every configuration of VARIANT at the sizes up to N, whatever\n"
            "                      --fraction (the probes above take their candidates from them)\n"
            "  --probe-full-to N   with --full-to VARIANT=..: every configuration of VARIANT at the\n"
            "                      probed sizes up to N too, in place of the probes' candidates\n"
            "                      (default 0: none)\n"
            "  --probes-only       measure only those probes, planned from every record already in\n"
            "                      the file at the sizes --n (with --resume, for a file tuned\n"
            "                      without them)\n"
            "  --max-minutes M     start no configuration after M minutes (continue with --resume)\n"
            "  --max-configs K     stop after K new configurations (continue with --resume)\n"
            "  --build-timeout S   a configuration whose kernels take longer than S seconds to build\n"
            "                      is recorded as failed (\"build too slow\") and never retried;\n"
            "                      0: no limit (default: 60 on GPUs, 0 on CPUs). Builds with a\n"
            "                      limit run in child processes of this command\n"
            "  --jobs J            build up to J-1 configurations ahead in child processes while\n"
            "                      one is timed (default: 1 on CPUs, where builds would slow the\n"
            "                      timing and PoCL's cache takes one writer; 8 on GPUs)\n"
            "  --also-default L    also write the choices as the default of the device's\n"
            "                      architecture, vendor or family (L), for devices without a file\n"
            "  --quiet             one line per size instead of one per configuration\n"
            "  --dry-run           print the configurations the sweep would measure, measure none\n"
            "Exit status: 0 done, 3 stopped early (budget or signal: run again with --resume), 2 a bad\n"
            "option or an output that another tuner holds or that cannot be written, 1 a file that\n"
            "cannot be used (its settings and records are checked as the options are).\n");
}

static int parse_set(const char *text, tune_value_set *s)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || (size_t)(eq - text) >= sizeof s->name) return -1;
    memcpy(s->name, text, (size_t)(eq - text));
    s->name[eq - text] = 0;
    s->count = 0;
    /* zero: 0 is some variant's value of it (zero_params); plain: some variant's is an
     * integer (else only labels name its values) */
    int known = 0, zero = 0, plain = 0;
    for (int i = 0; tune_variants[i]; i++)
        for (int k = 0; k < tune_variants[i]->nparams; k++)
            if (!strcmp(tune_variants[i]->param_names[k], s->name)) {
                known = 1;
                zero |= (int)(tune_variants[i]->zero_params >> k & 1u);
                plain |= !tune_variants[i]->labels[k];
            }
    if (!known) return -1;
    const char *p = eq + 1;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char word[32];
        if (!len || len >= sizeof word || s->count == TUNE_MAX_VALUES) return -1;
        memcpy(word, p, len);
        word[len] = 0;
        /* a label of some variant's parameter, else an integer */
        int value = -1;
        for (int i = 0; tune_variants[i] && value < 0; i++)
            for (int k = 0; k < tune_variants[i]->nparams && value < 0; k++)
                if (!strcmp(tune_variants[i]->param_names[k], s->name) && tune_variants[i]->labels[k])
                    for (int l = 0; tune_variants[i]->labels[k][l]; l++)
                        if (!strcmp(tune_variants[i]->labels[k][l], word)) value = l;
        if (value < 0) {
            long long v;
            if (!plain || tune_text_int(word, zero ? 0 : 1, TUNE_MAX_N, &v)) return -1;
            value = (int)v;
        }
        s->values[s->count++] = value;
        p = end ? end + 1 : p + len;
        if (end && !*p) return -1; /* a trailing comma */
    }
    return s->count ? 0 : -1;
}

/* A size option's value, 0 to 2^20: 0, or -1 (out untouched) when it is not one. */
static int size_arg(const char *v, int *out)
{
    long long n;
    if (tune_text_int(v, 0, TUNE_MAX_N, &n)) return -1;
    *out = (int)n;
    return 0;
}

/* A list of sizes (--n, --nrhs): util_parse_sizes' forms, each in 1..TUNE_MAX_N. */
static int sizes_arg(const char *v, int *out, int *count)
{
    int got = util_parse_sizes(v, out, TUNE_MAX_SIZES);
    if (got <= 0) return -1;
    for (int i = 0; i < got; i++)
        if (out[i] < 1 || out[i] > TUNE_MAX_N) return -1;
    *count = got;
    return 0;
}

/* Whether every comma-separated name of list is a variant's. */
static int variants_arg(const char *list)
{
    char copy[128];
    if (!*list || strlen(list) >= sizeof copy) return -1;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save))
        if (!tune_variant_named(name) && strcmp(name, "getrf")) return -1; /* "getrf": its variants */
    return list[strlen(list) - 1] == ',' || list[0] == ',' || strstr(list, ",,") ? -1 : 0;
}

/*
 * One option's value, checked and stored: the command line's options and a resumed file's
 * "tuner" settings (settings_from_file) go through this one function, so that neither takes
 * what the other refuses. Returns 1 if option is not one of these, 0 when stored, or -1
 * with why (what the option takes).
 */
static int set_option(tune_options *o, const char *k, const char *v, char *why, size_t size)
{
    long long x;
    double d;
#define BAD(...) return snprintf(why, size, __VA_ARGS__), -1
    if (!strcmp(k, "--device")) o->device = v;
    else if (!strcmp(k, "--output")) o->output = v;
    else if (!strcmp(k, "--report")) o->report = v;
    else if (!strcmp(k, "--against")) o->against = v;
    else if (!strcmp(k, "--rechoose")) o->rechoose = v;
    else if (!strcmp(k, "--n")) {
        if (sizes_arg(v, o->space.sizes, &o->space.nsizes))
            BAD("--n takes a list of sizes in 1..%d (N,N,... or A:B or A:B:STEP), not \"%s\"", TUNE_MAX_N, v);
        o->given.sizes = 1;
    } else if (!strcmp(k, "--precision")) {
        if (strcmp(v, "s") && strcmp(v, "d") && strcmp(v, "sd") && strcmp(v, "ds"))
            BAD("--precision takes s, d or sd, not \"%s\"", v);
        snprintf(o->space.precisions, sizeof o->space.precisions, "%s", v);
        o->given.precisions = 1;
    } else if (!strcmp(k, "--variants")) {
        if (variants_arg(v)) BAD("--variants takes variants' names separated by commas, not \"%s\"", v);
        snprintf(o->space.variants, sizeof o->space.variants, "%s", v);
        o->given.variants = 1;
    } else if (!strcmp(k, "--nrhs")) {
        if (sizes_arg(v, o->space.nrhs, &o->space.nnrhs))
            BAD("--nrhs takes a list of counts in 1..%d, not \"%s\"", TUNE_MAX_N, v);
        o->given.nrhs = 1;
    } else if (!strcmp(k, "--uplo")) {
        if (strcmp(v, "L") && strcmp(v, "U")) BAD("--uplo takes L or U, not \"%s\"", v);
        o->timing.uplo = v[0];
        o->given.uplo = 1;
    } else if (!strcmp(k, "--batch")) {
        if (tune_text_int(v, 0, TUNE_MAX_BATCH, &x))
            BAD("--batch takes an integer in 0..%d (0: the tuner's own), not \"%s\"", TUNE_MAX_BATCH, v);
        o->batch = x;
        o->given.batch = 1;
    } else if (!strcmp(k, "--reps") || !strcmp(k, "--warmup")) {
        if (tune_text_int(v, 1, TUNE_MAX_REPS, &x)) BAD("%s takes an integer in 1..%d, not \"%s\"", k, TUNE_MAX_REPS, v);
        if (k[2] == 'r') o->timing.reps = (int)x, o->given.reps = 1;
        else o->timing.warmup = (int)x, o->given.warmup = 1;
    } else if (!strcmp(k, "--statistic")) {
        if (strcmp(v, "median") && strcmp(v, "min")) BAD("--statistic takes median or min, not \"%s\"", v);
        o->timing.use_min = !strcmp(v, "min");
        o->given.statistic = 1;
    } else if (!strcmp(k, "--fraction")) {
        if (tune_text_real(v, &d) || !(d > 0 && d <= 1)) BAD("--fraction takes a number in (0, 1], not \"%s\"", v);
        o->space.fraction = d;
        o->given.fraction = 1;
    } else if (!strcmp(k, "--seed")) {
        errno = 0;
        char *end;
        const unsigned long long seed = strtoull(v, &end, 10);
        if (*v < '0' || *v > '9' || *end || errno == ERANGE) BAD("--seed takes an integer >= 0, not \"%s\"", v);
        o->space.seed = seed;
        o->has_seed = 1;
    } else if (!strcmp(k, "--set")) {
        if (o->space.nsets == TUNE_MAX_SETS || parse_set(v, &o->space.sets[o->space.nsets]))
            BAD("bad --set \"%s\" (NAME=V1,V2,...: a parameter's name, at most %d values, each one of "
                "its labels or an integer in 1..%d, or 0 for getri's nb and getrf-blocked's ib; at most "
                "%d of them)", v, TUNE_MAX_VALUES, TUNE_MAX_N, TUNE_MAX_SETS);
        o->space.nsets++;
        o->given.sets = 1;
    } else if (!strcmp(k, "--max-minutes")) {
        if (tune_text_real(v, &d) || d < 0) BAD("--max-minutes takes minutes >= 0, not \"%s\"", v);
        o->max_minutes = d;
    } else if (!strcmp(k, "--max-configs")) {
        if (tune_text_int(v, 0, 1LL << 40, &x)) BAD("--max-configs takes an integer >= 0, not \"%s\"", v);
        o->max_configs = x;
    } else if (!strcmp(k, "--probe-between")) {
        if (tune_text_int(v, 0, 64, &x)) BAD("--probe-between takes 0 to 64 configurations per end, not \"%s\"", v);
        o->probe_between = (int)x;
        o->given.probe_between = 1;
    } else if (!strcmp(k, "--probe-every-to")) {
        if (size_arg(v, &o->probe_every_to))
            BAD("--probe-every-to takes a size N in 0..%d (0: midpoints only), not \"%s\"", TUNE_MAX_N, v);
        o->given.probe_every_to = 1;
    } else if (!strcmp(k, "--full-to")) {
        const char *eq = strchr(v, '=');
        const size_t len = eq ? (size_t)(eq - v) : 0;
        char name[sizeof o->space.full_variant] = "";
        if (len && len < sizeof name) memcpy(name, v, len), name[len] = 0;
        if (!eq || !tune_variant_named(name) || tune_text_int(eq + 1, 1, TUNE_MAX_N, &x))
            BAD("bad --full-to \"%s\" (VARIANT=N, a variant's name and a size in 1..%d)", v, TUNE_MAX_N);
        snprintf(o->space.full_variant, sizeof o->space.full_variant, "%s", name);
        o->space.full_to = (int)x;
        o->given.full_to = 1;
    } else if (!strcmp(k, "--probe-full-to")) {
        if (size_arg(v, &o->space.probe_full_to)) BAD("bad --probe-full-to \"%s\" (a size in 0..%d)", v, TUNE_MAX_N);
        o->given.probe_full_to = 1;
    } else if (!strcmp(k, "--jobs")) {
        if (tune_text_int(v, 0, 1024, &x)) BAD("--jobs takes an integer in 0..1024, not \"%s\"", v);
        o->jobs = (int)x;
    } else if (!strcmp(k, "--build-timeout")) {
        if (tune_text_real(v, &d) || d < 0) BAD("--build-timeout takes seconds >= 0, not \"%s\"", v);
        o->build_timeout = d;
    } else if (!strcmp(k, "--also-default")) {
        if (strcmp(v, "architecture") && strcmp(v, "vendor") && strcmp(v, "family"))
            BAD("--also-default takes architecture, vendor or family, not \"%s\"", v);
        snprintf(o->also_default, sizeof o->also_default, "%s", v);
        o->given.also_default = 1;
    } else {
        return 1;
    }
#undef BAD
    return 0;
}

/* What the options ask together (after the command line, and again with a file's settings). */
static int combination(const tune_options *o, char *why, size_t size)
{
    if (o->probe_every_to && !o->probe_between)
        snprintf(why, size, "--probe-every-to needs --probe-between K (K >= 1)");
    else if (o->space.probe_full_to && (!o->probe_between || (!o->space.full_variant[0] && !o->resume)))
        snprintf(why, size, "--probe-full-to needs --probe-between K (K >= 1) and --full-to VARIANT=N");
    else if (o->probes_only && !o->probe_between)
        snprintf(why, size, "--probes-only needs --probe-between K (K >= 1)");
    else return 0;
    return -1;
}

static int parse(int argc, char **argv, tune_options *o)
{
    memset(o, 0, sizeof *o);
    o->output = "bchol-tuning.json";
    o->timing.uplo = 'L';
    o->timing.reps = 5;
    o->timing.warmup = 1;
    o->space.fraction = 1;
    o->build_timeout = -1;
    char why[400];
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i];
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(k, "--resume")) {
            o->resume = 1;
            continue;
        }
        if (!strcmp(k, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        if (!strcmp(k, "--dry-run")) {
            o->dry_run = 1;
            continue;
        }
        if (!strcmp(k, "--probes-only")) {
            o->probes_only = 1;
            continue;
        }
        const char *v = i + 1 < argc ? argv[++i] : NULL;
        if (!v) {
            fprintf(stderr, "bchol tune: %s needs a value\n", k);
            return -1;
        }
        const int rc = set_option(o, k, v, why, sizeof why);
        if (rc) {
            if (rc > 0) fprintf(stderr, "bchol tune: unknown option %s\n", k);
            else fprintf(stderr, "bchol tune: %s\n", why);
            return -1;
        }
    }
    if (combination(o, why, sizeof why)) {
        fprintf(stderr, "bchol tune: %s\n", why);
        return -1;
    }
    return 0;
}

/* ---- settings recorded in the file ("tuner") ---------------------------------------- */

static cJSON *settings_json(const tune_options *o)
{
    cJSON *t = cJSON_CreateObject();
    cJSON *sizes = cJSON_AddArrayToObject(t, "sizes");
    for (int i = 0; i < o->space.nsizes; i++) cJSON_AddItemToArray(sizes, cJSON_CreateNumber(o->space.sizes[i]));
    cJSON_AddStringToObject(t, "precisions", o->space.precisions);
    cJSON_AddStringToObject(t, "variants", o->space.variants);
    cJSON *nrhs = cJSON_AddArrayToObject(t, "nrhs");
    for (int i = 0; i < o->space.nnrhs; i++) cJSON_AddItemToArray(nrhs, cJSON_CreateNumber(o->space.nrhs[i]));
    char uplo[2] = {o->timing.uplo, 0};
    cJSON_AddStringToObject(t, "uplo", uplo);
    cJSON_AddNumberToObject(t, "batch", (double)o->batch);
    cJSON_AddNumberToObject(t, "reps", o->timing.reps);
    cJSON_AddNumberToObject(t, "warmup", o->timing.warmup);
    cJSON_AddStringToObject(t, "statistic", o->timing.use_min ? "min" : "median");
    cJSON_AddNumberToObject(t, "fraction", o->space.fraction);
    cJSON_AddNumberToObject(t, "seed", (double)o->space.seed);
    cJSON *sets = cJSON_AddObjectToObject(t, "set");
    for (int i = 0; i < o->space.nsets; i++) {
        cJSON *list = cJSON_AddArrayToObject(sets, o->space.sets[i].name);
        for (int k = 0; k < o->space.sets[i].count; k++)
            cJSON_AddItemToArray(list, cJSON_CreateNumber(o->space.sets[i].values[k]));
    }
    if (*o->also_default) cJSON_AddStringToObject(t, "also_default", o->also_default);
    if (o->probe_between) cJSON_AddNumberToObject(t, "probe_between", o->probe_between);
    if (o->probe_every_to) cJSON_AddNumberToObject(t, "probe_every_to", o->probe_every_to);
    if (o->space.full_variant[0]) {
        cJSON *full = cJSON_AddObjectToObject(t, "full_to");
        cJSON_AddNumberToObject(full, o->space.full_variant, o->space.full_to);
    }
    if (o->space.probe_full_to) cJSON_AddNumberToObject(t, "probe_full_to", o->space.probe_full_to);
    return t;
}

/* A file's value as an option's text: a string as it is, a number as the command line would
 * write it; for a list (list = 1: sizes, nrhs, a --set's values), an array of numbers joined
 * by commas ("4,8,16"), labels where the parameter of --set NAME has them (the file stores
 * their index). -1 for anything else. */
static int setting_text(const cJSON *v, int list, const char *set_name, char *out, size_t size)
{
    if (!list && (cJSON_IsString(v) || cJSON_IsNumber(v))) {
        tune_json_text(v, out, size);
        return 0;
    }
    if (!cJSON_IsArray(v) || !v->child) return -1;
    size_t used = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v)
    {
        char word[64];
        if (!cJSON_IsNumber(e)) return -1;
        tune_json_text(e, word, sizeof word);
        long long index;
        for (int i = 0; set_name && tune_variants[i]; i++)
            for (int k = 0; k < tune_variants[i]->nparams; k++) {
                const char *const *labels = tune_variants[i]->labels[k];
                if (strcmp(tune_variants[i]->param_names[k], set_name) || !labels) continue;
                int count = 0;
                while (labels[count]) count++;
                if (!tune_json_int(e, 0, count - 1, &index)) snprintf(word, sizeof word, "%s", labels[index]);
            }
        const int w = snprintf(out + used, size - used, "%s%s", used ? "," : "", word);
        if (w < 0 || (size_t)w >= size - used) return -1;
        used += (size_t)w;
    }
    return 0;
}

/* Options not given on the command line take the values recorded by an earlier run, checked
 * as the command line checks them (set_option). 0, or -1 with why naming the field. */
static int settings_from_file(tune_options *o, const cJSON *t, char *why, size_t size)
{
    /* the file's keys and the options they stand for */
    static const struct {
        const char *key, *option;
    } map[] = {
        {"sizes", "--n"},           {"precisions", "--precision"}, {"variants", "--variants"},
        {"nrhs", "--nrhs"},         {"uplo", "--uplo"},            {"batch", "--batch"},
        {"reps", "--reps"},         {"warmup", "--warmup"},        {"statistic", "--statistic"},
        {"fraction", "--fraction"}, {"seed", "--seed"},            {"also_default", "--also-default"},
        {"probe_between", "--probe-between"}, {"probe_every_to", "--probe-every-to"},
        {"probe_full_to", "--probe-full-to"},
    };
    const int given[] = {o->given.sizes,     o->given.precisions,     o->given.variants,      o->given.nrhs,
                         o->given.uplo,      o->given.batch,          o->given.reps,          o->given.warmup,
                         o->given.statistic, o->given.fraction,       o->has_seed,            o->given.also_default,
                         o->given.probe_between, o->given.probe_every_to, o->given.probe_full_to};
    char text[1024], fault[400];
    if (!t) return 0;
    if (!cJSON_IsObject(t)) return snprintf(why, size, "tuner: expected an object"), -1;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(t, map[i].key);
        if (!x || given[i]) continue;
        const int list = !strcmp(map[i].key, "sizes") || !strcmp(map[i].key, "nrhs");
        if (setting_text(x, list, NULL, text, sizeof text)) {
            tune_json_text(x, text, sizeof text);
            snprintf(why, size, "tuner.%s = %.100s: expected %s", map[i].key, text,
                     list ? "a list of numbers" : "a string or a number");
            return -1;
        }
        if (set_option(o, map[i].option, text, fault, sizeof fault)) {
            snprintf(why, size, "tuner.%s = %.100s: %.300s", map[i].key, text, fault);
            return -1;
        }
    }
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(t, "set"), *list;
    if (x && !o->given.sets) {
        if (!cJSON_IsObject(x)) return snprintf(why, size, "tuner.set: expected an object of lists"), -1;
        o->space.nsets = 0;
        cJSON_ArrayForEach(list, x)
        {
            char value[1024];
            const int n = snprintf(text, sizeof text, "%s=", list->string);
            if (n < 0 || (size_t)n >= sizeof text || setting_text(list, 1, list->string, value, sizeof value) ||
                snprintf(text + n, sizeof text - (size_t)n, "%s", value) >= (int)(sizeof text - (size_t)n) ||
                set_option(o, "--set", text, fault, sizeof fault)) {
                tune_json_text(list, value, sizeof value);
                snprintf(why, size, "tuner.set.%.64s = %.100s: %.300s", list->string, value,
                         cJSON_IsArray(list) ? fault : "expected a list of values");
                return -1;
            }
        }
    }
    if ((x = cJSON_GetObjectItemCaseSensitive(t, "full_to")) && !o->given.full_to) {
        char n[64];
        if (!cJSON_IsObject(x) || !x->child || x->child->next || !cJSON_IsNumber(x->child))
            return snprintf(why, size, "tuner.full_to: expected one VARIANT: N"), -1;
        tune_json_text(x->child, n, sizeof n);
        snprintf(text, sizeof text, "%.64s=%s", x->child->string, n);
        if (set_option(o, "--full-to", text, fault, sizeof fault))
            return snprintf(why, size, "tuner.full_to = %.100s: %.300s", text, fault), -1;
    }
    if (combination(o, fault, sizeof fault)) return snprintf(why, size, "tuner: %s", fault), -1;
    return 0;
}

static void settings_defaults(tune_options *o, const bchol_device_info *dev)
{
    if (!o->space.nsizes) {
        const char *grid = dev->type & CL_DEVICE_TYPE_GPU
                               ? "4,8,12,16,24,32,48,64,96,128,192,256,384,512"
                               : "4,8,16,32,64,128";
        o->space.nsizes = util_parse_sizes(grid, o->space.sizes, TUNE_MAX_SIZES);
    }
    if (!o->space.nnrhs) o->space.nnrhs = util_parse_sizes("1,16", o->space.nrhs, TUNE_MAX_SIZES);
    if (!*o->space.precisions) snprintf(o->space.precisions, sizeof o->space.precisions, "%s", dev->fp64 ? "sd" : "s");
    if (!*o->space.variants) {
        o->space.variants[0] = 0;
        /* getrf's variants only where named: they time another routine; on CPUs only
         * what the library runs there on its own, the workitem solve only there (tune.h,
         * gpu_default and cpu_default) */
        const int gpu = (dev->type & CL_DEVICE_TYPE_GPU) != 0;
        for (int i = 0; tune_variants[i]; i++) {
            if (tune_variants[i]->lu) continue;
            if ((tune_variants[i]->gpu_default && !gpu) || (tune_variants[i]->cpu_default && gpu)) continue;
            if (*o->space.variants) strcat(o->space.variants, ",");
            strcat(o->space.variants, tune_variants[i]->name);
        }
    }
    if (!o->has_seed) {
        o->space.seed = (unsigned long long)time(NULL);
        o->has_seed = 1;
    }
    if (!o->jobs) o->jobs = dev->type & CL_DEVICE_TYPE_GPU ? 8 : 1;
    /* NVIDIA's compiler takes minutes for some generated kernels; PoCL builds in seconds */
    if (o->build_timeout < 0) o->build_timeout = dev->type & CL_DEVICE_TYPE_GPU ? 60 : 0;
}

/* ---- the sweep ------------------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void hms(double s, char *out, size_t size)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(out, size, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else snprintf(out, size, "%ldm%02lds", t / 60, t % 60);
}

static double record_ms(const cJSON *r)
{
    const cJSON *ms = r ? cJSON_GetObjectItemCaseSensitive(r, "ms") : NULL;
    return cJSON_IsNumber(ms) ? ms->valuedouble : -1;
}

/* Best and default times measured so far for a precision, variant, size and nrhs. */
static void best_so_far(const tune_file *f, const tune_item *it, double *best, double *deflt)
{
    *best = *deflt = -1;
    int confirmed = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, f->tried)
    {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "precision");
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "variant");
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "n");
        if (!cJSON_IsString(p) || p->valuestring[0] != it->precision || !cJSON_IsString(v) ||
            strcmp(v->valuestring, it->v->name) || !cJSON_IsNumber(n) || n->valueint != it->n ||
            tune_record_nrhs(r) != it->nrhs)
            continue;
        double ms = record_ms(r);
        if (ms < 0 || cJSON_GetObjectItemCaseSensitive(r, "failed")) continue;
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "confirm_ms");
        if (cJSON_IsNumber(c)) {
            if (!confirmed) *best = *deflt = -1; /* the confirmation round decides */
            confirmed = 1;
            ms = c->valuedouble;
        } else if (confirmed) {
            continue;
        }
        if (*best < 0 || ms < *best) *best = ms;
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "default"))) *deflt = ms;
    }
}

/* "fused", "solve nrhs=16" */
static void item_name(const tune_item *it, char *out, size_t size)
{
    if (it->nrhs) snprintf(out, size, "%s nrhs=%d", it->v->name, it->nrhs);
    else snprintf(out, size, "%s", it->v->name);
}

static int in_group(const cJSON *r, char precision, int n)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "precision");
    const cJSON *rn = cJSON_GetObjectItemCaseSensitive(r, "n");
    return cJSON_IsString(p) && p->valuestring[0] == precision && cJSON_IsNumber(rn) && rn->valueint == n;
}

/* The confirmation round a record of a size takes part in: 0 for the strided
 * factorizations (their variants compete there), VBATCHED_ROUND for the vbatched routines',
 * nrhs for the solve's (each nrhs its own round), LU_ROUND for getrf's variants,
 * own_round_of for each variant with own_round (getrs, getrs-workitem: their entries shape
 * different kernels and choose nothing; getri: another routine). vbatched, the solve,
 * getrf and those compete with nothing else: a round of their own means that adding or
 * resuming them at a size re-times no other round's finalists (with vbatched in round 0,
 * its sweep re-picked 9 of the H200's 78 strided entries by the noise of their
 * confirmation round). */
#define VBATCHED_ROUND (-1)
#define LU_ROUND (-2)
/* The variants with own_round: a round per variant and nrhs (0 for getri, nrhs <= 4096),
 * apart from getrf's, the solve's and each other's: OWN_ROUNDS * (1 + the variant's index
 * in tune_variants) - nrhs. */
#define OWN_ROUNDS (-10000)

static int own_round_of(const tune_variant *v, int nrhs)
{
    int k = 0;
    while (tune_variants[k] && tune_variants[k] != v) k++;
    return OWN_ROUNDS * (1 + k) - nrhs;
}

/* The variant whose own round this is (round <= OWN_ROUNDS). */
static const tune_variant *variant_of_round(int round)
{
    return tune_variants[round / OWN_ROUNDS - 1];
}

static int variant_round(const tune_variant *v, int nrhs)
{
    if (v && v->own_round) return own_round_of(v, nrhs);
    return v && v->variable_sizes ? VBATCHED_ROUND : v && v->lu ? LU_ROUND : nrhs;
}

static int round_of(const cJSON *r)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "variant");
    return variant_round(cJSON_IsString(v) ? tune_variant_named(v->valuestring) : NULL, tune_record_nrhs(r));
}

static int item_round(const tune_item *it) { return variant_round(it->v, it->nrhs); }

static int in_round(const cJSON *r, char precision, int n, int round)
{
    return in_group(r, precision, n) && round_of(r) == round;
}

static int ok_record(const cJSON *r)
{
    return record_ms(r) >= 0 && !cJSON_GetObjectItemCaseSensitive(r, "failed");
}

/* The finalists of a size's round: each variant's TUNE_CONFIRM_BEST fastest configurations
 * of the current space by the sweep's time, and the defaults. */
static int finalists(const tune_file *f, char precision, int n, int round, cJSON **out)
{
    int count = 0, i = -1;
    cJSON *r;
    cJSON_ArrayForEach(r, f->tried)
    {
        i++;
        if (!in_round(r, precision, n, round) || !ok_record(r) || !tune_file_in_space(f, i)) continue;
        int is_default = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "default"));
        const cJSON *variant = cJSON_GetObjectItemCaseSensitive(r, "variant"), *x;
        int faster = 0, k = -1;
        cJSON_ArrayForEach(x, f->tried)
        {
            const cJSON *xv = cJSON_GetObjectItemCaseSensitive(x, "variant");
            k++;
            faster += in_round(x, precision, n, round) && ok_record(x) && tune_file_in_space(f, k) &&
                      cJSON_IsString(xv) && cJSON_IsString(variant) &&
                      !strcmp(xv->valuestring, variant->valuestring) && record_ms(x) < record_ms(r);
        }
        if ((is_default || faster < TUNE_CONFIRM_BEST) && count < TUNE_CONFIRM_MAX) out[count++] = r;
    }
    return count;
}

/* A round whose finalists are not exactly the records timed in its confirmation round
 * (none yet, or the space or the measurements changed since). */
static int needs_confirmation(const tune_file *f, char precision, int n, int round)
{
    cJSON *final[TUNE_CONFIRM_MAX], *r;
    int count = finalists(f, precision, n, round, final), confirmed = 0;
    cJSON_ArrayForEach(r, f->tried)
    {
        if (!in_round(r, precision, n, round) || !cJSON_GetObjectItemCaseSensitive(r, "confirm_ms")) continue;
        int is_final = 0;
        for (int i = 0; i < count; i++) is_final |= final[i] == r;
        if (!is_final) return 1;
        confirmed++;
    }
    return confirmed != count;
}

/* The rounds of a size: those of its records and of the plan's items items[which[...]];
 * returns the count. */
static int rounds_of(const tune_file *f, char precision, int n, const tune_item *items, const int *which,
                     int count, int *out, int max)
{
    int k = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, f->tried)
    {
        if (!in_group(r, precision, n)) continue;
        int i = 0, round = round_of(r);
        while (i < k && out[i] != round) i++;
        if (i == k && k < max) out[k++] = round;
    }
    for (int j = 0; j < count; j++) {
        int i = 0, round = item_round(&items[which[j]]);
        while (i < k && out[i] != round) i++;
        if (i == k && k < max) out[k++] = round;
    }
    return k;
}

#define MAX_ROUNDS 64

/* Whether any round of the size needs its confirmation round. */
static int size_needs_confirmation(const tune_file *f, char precision, int n)
{
    int rounds[MAX_ROUNDS], count = rounds_of(f, precision, n, NULL, NULL, 0, rounds, MAX_ROUNDS);
    for (int i = 0; i < count; i++)
        if (needs_confirmation(f, precision, n, rounds[i])) return 1;
    return 0;
}

/* The confirmation rounds of a size (tune_confirm) over their finalists: each round in which
 * this run measured something (items[todo[0..ntodo-1]]), or whose finalists changed. */
static int confirm_size(const tune_options *o, tune_file *f, bchol_context *ctx, const tune_target *t,
                        tune_workload *w, const tune_item *items, const int *todo, int ntodo)
{
    int rounds[MAX_ROUNDS], nrounds = rounds_of(f, t->precision, t->n, items, todo, ntodo, rounds, MAX_ROUNDS);
    char why[600];
    for (int k = 0; k < nrounds; k++) {
        int measured = 0;
        for (int j = 0; j < ntodo; j++) measured |= item_round(&items[todo[j]]) == rounds[k];
        if (!measured && !needs_confirmation(f, t->precision, t->n, rounds[k])) continue;
        cJSON *final[TUNE_CONFIRM_MAX], *r;
        cJSON_ArrayForEach(r, f->tried)
        {
            if (in_round(r, t->precision, t->n, rounds[k])) cJSON_DeleteItemFromObjectCaseSensitive(r, "confirm_ms");
        }
        int count = finalists(f, t->precision, t->n, rounds[k], final);
        if (count && tune_confirm(&o->timing, ctx, t, w, final, count, why, sizeof why)) {
            char label[64] = ""; /* which round, but for the strided one */
            if (rounds[k] == VBATCHED_ROUND) snprintf(label, sizeof label, " (vbatched)");
            else if (rounds[k] == LU_ROUND) snprintf(label, sizeof label, " (getrf)");
            else if (rounds[k] <= OWN_ROUNDS)
                snprintf(label, sizeof label, " (%s)", variant_of_round(rounds[k])->name);
            else if (rounds[k]) snprintf(label, sizeof label, " (solve)");
            fprintf(stderr, "bchol tune: %c n = %d%s: the confirmation round failed (%s); the sweep's "
                            "times decide\n", t->precision, t->n, label, why);
            for (int i = 0; i < count; i++) cJSON_DeleteItemFromObjectCaseSensitive(final[i], "confirm_ms");
        }
    }
    return 0; /* the caller saves */
}

/* Saving rewrites the whole file and chooses its entries again: on a file of 5000
 * records that took longer than timing a configuration (0.2-0.3 s of the tuner's own
 * time each), and the dense probes (--probe-every-to) end a size every few seconds. So the
 * sweep saves at most every SAVE_EVERY_S seconds (a size's end included) and when it
 * stops; a killed run loses at most those seconds' records, and --resume measures them
 * again. A testing aid's pause (BCHOL_TUNE_PAUSE_MS) saves every one. */
#define SAVE_EVERY_S 10.0

/* Where the sweep's time went, for its last line. */
typedef struct {
    double builds, timing, saving, batches;
} sweep_clock;

static int save_now(const tune_options *o, tune_file *f, sweep_clock *clock, double *last_save)
{
    char why[600];
    const double t0 = now_s();
    tune_file_update_chosen(f, *o->also_default ? o->also_default : NULL);
    if (tune_file_save(f, why, sizeof why)) {
        fprintf(stderr, "bchol tune: saving failed: %s\n", why);
        return -1;
    }
    *last_save = now_s();
    clock->saving += *last_save - t0;
    return 0;
}

/* What the sweeps of one command share: the budget (--max-minutes, --max-configs) and
 * where the time went. The probes between the grid's sizes are a second sweep, planned
 * when the first one is complete (probes_follow). */
typedef struct {
    double start;
    int new_done;
    sweep_clock clock;
    int probes_follow;
    int from; /* the plan's first item to sweep: the probes' sweep skips the grid's groups */
} sweep_run;

static int sweep(const tune_options *o, tune_file *f, bchol_context *base,
                 const bchol_device_info *dev, tune_plan *p, sweep_run *run)
{
    int total = p->count, done = 0, stopped = 0;
    for (int i = 0; i < p->count; i++) done += tune_file_find(f, p->items[i].key) != NULL;
    fprintf(stderr, "bchol tune: %d configurations, %d already measured in %s; %d to go\n", total,
            done, f->path, total - done);
    const double start = run->start;
    char why[600];
    /* testing aid: a pause after each saved configuration, so that a test can kill the
     * run between two of them */
    const char *pause_env = getenv("BCHOL_TUNE_PAUSE_MS");
    const long pause_ms = pause_env ? atol(pause_env) : 0;
    double last_save = now_s(), t0;
    /* the configurations to measure, in the plan's order; the builds start at once */
    int *all = malloc((size_t)(p->count + 1) * sizeof *all), nall = 0, first = 0;
    for (int i = run->from; i < p->count; i++)
        if (!tune_file_find(f, p->items[i].key)) all[nall++] = i;
    const tune_build_options bo = {o->jobs, o->build_timeout, o->device, &stop_requested};
    tune_prebuild_start(&bo, o->timing.uplo, p->items, all, nall);
    for (int g = run->from; g < p->count && !stopped;) {
        /* one group: a precision and a size (every variant), one workload and context */
        int end = g;
        while (end < p->count && p->items[end].precision == p->items[g].precision &&
               p->items[end].n == p->items[g].n)
            end++;
        /* its share of the list: all[first + k] for k < ntodo */
        int *todo = all + first, ntodo = 0, max_nrhs = 0;
        while (first + ntodo < nall && all[first + ntodo] < end) ntodo++;
        first += ntodo;
        /* the solve's right-hand sides: for the plan's and for the records' to confirm */
        for (int i = g; i < end; i++)
            if (p->items[i].nrhs > max_nrhs) max_nrhs = p->items[i].nrhs;
        const cJSON *rec;
        cJSON_ArrayForEach(rec, f->tried)
        {
            if (in_group(rec, p->items[g].precision, p->items[g].n) && tune_record_nrhs(rec) > max_nrhs)
                max_nrhs = tune_record_nrhs(rec);
        }
        tune_target t = {*dev, p->items[g].precision, p->items[g].n, {0}, 0, 0};
        bchol_potrf_params(base, t.precision, t.n, &t.defaults, NULL);
        if (ntodo || size_needs_confirmation(f, t.precision, t.n)) {
            bchol_context *ctx;
            tune_workload w;
            long long batch = o->batch ? o->batch : tune_default_batch(dev, t.precision, t.n);
            if (bchol_context_create_from_queue(bchol_context_queue(base), &ctx)) {
                fprintf(stderr, "bchol tune: %s\n", bchol_last_error(NULL));
                tune_prebuild_stop();
                free(all);
                return -1;
            }
            t0 = now_s();
            const int no_batch = tune_workload_init(&w, ctx, t.precision, o->timing.uplo, t.n, batch, max_nrhs, why, sizeof why);
            run->clock.batches += now_s() - t0;
            if (no_batch) {
                fprintf(stderr, "bchol tune: %c n = %d: %s; skipped\n", t.precision, t.n, why);
                tune_workload_free(&w);
                bchol_context_destroy(ctx);
                g = end;
                continue;
            }
            for (int k = 0; k < ntodo; k++) {
                const tune_item *it = &p->items[todo[k]];
                double elapsed = now_s() - start;
                double per = run->new_done ? elapsed / run->new_done : 0;
                if (stop_requested || (o->max_configs && run->new_done >= o->max_configs) ||
                    (o->max_minutes > 0 && elapsed + per > o->max_minutes * 60)) {
                    stopped = 1;
                    break;
                }
                double build_s;
                t0 = now_s();
                const int built = tune_prebuild_wait((int)(todo - all) + k, why, sizeof why, &build_s);
                run->clock.builds += now_s() - t0;
                if (built == -2) {
                    stopped = 1;
                    break;
                }
                cJSON *r;
                if (built == 1) {
                    r = tune_record_failed(&w, it, why, build_s);
                } else {
                    t0 = now_s();
                    r = tune_measure(&o->timing, ctx, &t, &w, it);
                    run->clock.timing += now_s() - t0;
                    if (built == 0) cJSON_AddNumberToObject(r, "build_seconds", build_s);
                }
                double ms = record_ms(r);
                const cJSON *failed = cJSON_GetObjectItemCaseSensitive(r, "failed");
                char failed_text[600] = "";
                if (cJSON_IsString(failed)) snprintf(failed_text, sizeof failed_text, "%s", failed->valuestring);
                if (tune_file_add(f, r)) {
                    fprintf(stderr, "bchol tune: out of memory\n");
                    stopped = -1;
                    break;
                }
                if ((pause_ms > 0 || now_s() - last_save >= SAVE_EVERY_S) &&
                    save_now(o, f, &run->clock, &last_save)) {
                    stopped = -1;
                    break;
                }
                done++;
                run->new_done++;
                if (pause_ms > 0) {
                    struct timespec pause = {pause_ms / 1000, (pause_ms % 1000) * 1000000L};
                    nanosleep(&pause, NULL);
                }
                if (!o->quiet) {
                    double best, deflt;
                    char cfg[200], el[32], eta[32], res[64], bs[32] = "-", ds[32] = "-";
                    best_so_far(f, it, &best, &deflt);
                    if (best >= 0) snprintf(bs, sizeof bs, "%.4f", best);
                    if (deflt >= 0) snprintf(ds, sizeof ds, "%.4f", deflt);
                    tune_format_config(it->v, it->cfg, cfg, sizeof cfg);
                    elapsed = now_s() - start;
                    hms(elapsed, el, sizeof el);
                    hms(elapsed / run->new_done * (total - done), eta, sizeof eta);
                    if (*failed_text) snprintf(res, sizeof res, "failed");
                    else snprintf(res, sizeof res, "%10.4f ms", ms);
                    char name[64];
                    item_name(it, name, sizeof name);
                    fprintf(stderr, "[%5d/%5d] %c n=%-4d %s %-34s%s %s  best %s  default %s  elapsed %s ETA %s\n",
                            done, total, it->precision, it->n, name, cfg,
                            it->is_default ? "*" : " ", res, bs, ds, el, eta);
                    if (*failed_text) fprintf(stderr, "              %s\n", failed_text);
                }
            }
            t0 = now_s();
            if (!stopped && confirm_size(o, f, ctx, &t, &w, p->items, todo, ntodo)) stopped = -1;
            run->clock.timing += now_s() - t0;
            if (stopped >= 0 && (pause_ms > 0 || now_s() - last_save >= SAVE_EVERY_S) &&
                save_now(o, f, &run->clock, &last_save))
                stopped = -1;
            tune_workload_free(&w);
            bchol_context_destroy(ctx);
        }
        /* the size's summary */
        for (int i = g; i < end && !stopped; i++) {
            if (i > g && p->items[i].v == p->items[i - 1].v && p->items[i].nrhs == p->items[i - 1].nrhs) continue;
            double best, deflt;
            char name[64];
            item_name(&p->items[i], name, sizeof name);
            best_so_far(f, &p->items[i], &best, &deflt);
            char el[32], eta[32], bs[32] = "-", ds[32] = "-", sp[32] = "-";
            double elapsed = now_s() - start;
            hms(elapsed, el, sizeof el);
            hms(run->new_done ? elapsed / run->new_done * (total - done) : 0, eta, sizeof eta);
            if (best >= 0) snprintf(bs, sizeof bs, "%.4f", best);
            if (deflt >= 0) snprintf(ds, sizeof ds, "%.4f", deflt);
            if (best > 0 && deflt > 0) snprintf(sp, sizeof sp, "%.2fx", deflt / best);
            fprintf(stderr, "bchol tune: %c n=%-4d %s: best %s ms, defaults %s ms (%s)  [%d/%d, elapsed %s, ETA %s]\n",
                    p->items[i].precision, p->items[i].n, name, bs, ds, sp, done, total, el, eta);
        }
        g = end;
    }
    tune_prebuild_stop();
    free(all);
    cJSON *tuner = cJSON_GetObjectItemCaseSensitive(f->root, "tuner");
    cJSON_DeleteItemFromObjectCaseSensitive(tuner, "status");
    cJSON_DeleteItemFromObjectCaseSensitive(tuner, "done");
    cJSON_DeleteItemFromObjectCaseSensitive(tuner, "total");
    cJSON_AddStringToObject(tuner, "status", done == total ? "complete" : "incomplete");
    cJSON_AddNumberToObject(tuner, "done", done);
    cJSON_AddNumberToObject(tuner, "total", total);
    if (save_now(o, f, &run->clock, &last_save)) return -1;
    if (run->new_done && (stopped || done < total || !run->probes_follow)) {
        char el[32];
        hms(now_s() - start, el, sizeof el);
        fprintf(stderr, "bchol tune: %d configurations in %s: waiting for builds %.0f s, timing and "
                        "checking %.0f s, saving %.0f s, making batches %.0f s\n",
                run->new_done, el, run->clock.builds, run->clock.timing, run->clock.saving, run->clock.batches);
    }
    if (stopped < 0) return -1;
    if (done < total) {
        fprintf(stderr, "bchol tune: stopped after %d new configurations (%d/%d done); continue with "
                        "--resume --output %s\n", run->new_done, done, total, f->path);
        return EXIT_INCOMPLETE;
    }
    else fprintf(stderr, "bchol tune: complete (%d configurations) in %s\n", total, f->path);
    return 0;
}

/* The configurations of the current space, for tune_file_restrict: sizes (of a precision
 * and variant) that the plan sweeps compete with the plan's configurations only; others
 * keep every record. */
typedef struct {
    const char **keys, **groups;
    int count;
} space_index;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "s fused 16 {...}" -> "s fused 16", "s solve 16 nrhs=1 {...}" -> "s solve 16 nrhs=1" */
static void group_of(const char *key, char *out, size_t size)
{
    const char *params = strstr(key, " {");
    size_t len = params ? (size_t)(params - key) : strlen(key);
    if (len >= size) len = size - 1;
    memcpy(out, key, len);
    out[len] = 0;
}

static int in_space(const char *key, void *user)
{
    const space_index *x = user;
    char group[128];
    const char *g = group;
    group_of(key, group, sizeof group);
    if (!bsearch(&g, x->groups, (size_t)x->count, sizeof *x->groups, cmp_str)) return 1;
    return bsearch(&key, x->keys, (size_t)x->count, sizeof *x->keys, cmp_str) != NULL;
}

static int restrict_to_plan(tune_file *f, const tune_plan *p)
{
    space_index x = {malloc((size_t)(p->count + 1) * sizeof(char *)),
                     malloc((size_t)(p->count + 1) * sizeof(char *)), p->count};
    char (*groups)[128] = malloc((size_t)(p->count + 1) * sizeof *groups);
    if (!x.keys || !x.groups || !groups) {
        free(x.keys);
        free(x.groups);
        free(groups);
        return -1;
    }
    for (int i = 0; i < p->count; i++) {
        x.keys[i] = p->items[i].key;
        group_of(p->items[i].key, groups[i], sizeof groups[i]);
        x.groups[i] = groups[i];
    }
    qsort(x.keys, (size_t)x.count, sizeof *x.keys, cmp_str);
    qsort(x.groups, (size_t)x.count, sizeof *x.groups, cmp_str);
    tune_file_restrict(f, in_space, &x);
    free(x.keys);
    free(x.groups);
    free(groups);
    return 0;
}

/* One stage of the probes, appended to p and swept: the midpoints (dense = 0), then, with
 * --probe-every-to, the other sizes between (dense = 1). With --probes-only every record
 * stays a candidate at the probed sizes too: restricting those to the probes' plan would
 * drop, say, an exhaustive sweep at a midpoint from the choice there. */
static int sweep_probes(const tune_options *o, tune_file *f, bchol_context *base, const bchol_device_info *dev,
                        tune_plan *p, sweep_run *run, int dense)
{
    run->from = p->count;
    const int added = dense ? tune_plan_probes_every(p, &o->space, f, base, dev, o->probe_every_to)
                            : tune_plan_probes(p, &o->space, f, base, dev, o->probe_between);
    if (added < 0 || (!o->probes_only && restrict_to_plan(f, p))) {
        fprintf(stderr, "bchol tune: out of memory\n");
        return -1;
    }
    run->probes_follow = !dense && o->probe_every_to > 0;
    return sweep(o, f, base, dev, p, run);
}

/* --dry-run: the plan on stdout, one configuration per line, then the pruned counts. */
static int dry_run(tune_options *o, bchol_context *base, const bchol_device_info *dev)
{
    settings_defaults(o, dev);
    tune_plan p = {0};
    cJSON *pruned = cJSON_CreateArray();
    if (tune_plan_make(&p, &o->space, base, dev, pruned)) return 1;
    for (int i = 0; i < p.count; i++)
        printf("%s%s\n", p.items[i].key, p.items[i].is_default ? " default" : "");
    int count = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, pruned) count += cJSON_GetObjectItemCaseSensitive(r, "count")->valueint;
    printf("# %d configurations to measure (seed %llu, fraction %g); %d pruned:\n", p.count, o->space.seed,
           o->space.fraction, count);
    if (o->probe_between)
        printf("# then the sizes halfway between: up to %d configurations per variant each, chosen from the "
               "grid's times%s\n", 3 * o->probe_between + 1,
               o->probe_every_to ? "; then every other size between up to --probe-every-to" : "");
    cJSON_ArrayForEach(r, pruned)
    {
        printf("#   %s %s n=%d: %d for %s (e.g. %s)\n",
               cJSON_GetObjectItemCaseSensitive(r, "precision")->valuestring,
               cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring,
               cJSON_GetObjectItemCaseSensitive(r, "n")->valueint,
               cJSON_GetObjectItemCaseSensitive(r, "count")->valueint,
               cJSON_GetObjectItemCaseSensitive(r, "reason")->valuestring,
               cJSON_GetObjectItemCaseSensitive(r, "example")->valuestring);
    }
    cJSON_Delete(pruned);
    tune_plan_free(&p);
    return 0;
}

int cmd_tune(int argc, char **argv)
{
    /* the hidden mode of the build processes (tune_prebuild.c) */
    if (argc > 1 && !strcmp(argv[1], "--build-server")) return tune_build_server(argc - 1, argv + 1);
    tune_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed) return parsed > 0 ? 0 : 2;
    if (o.report) return tune_report(o.report, o.against);
    int held;
    char why[600];
    if (o.rechoose) {
        /* it rewrites the file: not under a tuner's feet */
        if (tune_output_lock(o.rechoose, &held, why, sizeof why)) {
            fprintf(stderr, "bchol tune --rechoose: %s\n", why);
            return held ? 2 : 1;
        }
        const int bad = tune_file_rechoose(o.rechoose, why, sizeof why);
        tune_output_unlock();
        if (bad) {
            fprintf(stderr, "bchol tune --rechoose: %s\n", why);
            return 1;
        }
        return 0;
    }
    /* One tuner per output, and one that can save it: both known before any device work
     * (a second tuner's saves replaced the first one's records; an unwritable output was
     * found at the first save, 10 s in). The lock is held to the end of the process. */
    if (!o.dry_run &&
        (tune_output_lock(o.output, &held, why, sizeof why) ||
         tune_output_writable(o.output, why, sizeof why))) {
        fprintf(stderr, "bchol tune: %s\n", why);
        return 2;
    }

    /* the untuned library's choice is the backend's: no tuning file while tuning */
    setenv("BCHOL_TUNING_FILE", "off", 1);
    bchol_context *base;
    bchol_status st = bchol_context_create(o.device, &base);
    if (st) {
        fprintf(stderr, "bchol tune: %s: %s\n", bchol_status_string(st), bchol_last_error(NULL));
        return 1;
    }
    bchol_device_info dev;
    bchol_context_device_info(base, &dev);
    if (o.dry_run) {
        int rc = dry_run(&o, base, &dev);
        bchol_context_destroy(base);
        return rc;
    }
    tune_file f;
    if (tune_file_open(&f, o.output, o.resume, &dev, why, sizeof why)) {
        fprintf(stderr, "bchol tune: %s\n", why);
        bchol_context_destroy(base);
        return 1;
    }
    /* a resumed file's settings pass the command line's checks (a file's reps: -1 crashed) */
    if (settings_from_file(&o, cJSON_GetObjectItemCaseSensitive(f.root, "tuner"), why, sizeof why)) {
        fprintf(stderr, "bchol tune: %s: %s\n", o.output, why);
        tune_file_close(&f);
        bchol_context_destroy(base);
        return 1;
    }
    settings_defaults(&o, &dev);
    cJSON *tuner = settings_json(&o);
    cJSON_ReplaceItemInObjectCaseSensitive(f.root, "tuner", tuner);

    fprintf(stderr, "bchol tune: device %s (%s/%s/%s, driver %s); seed %llu, fraction %g\n", dev.raw_name,
            dev.vendor, *dev.architecture ? dev.architecture : "-", dev.name, dev.driver, o.space.seed,
            o.space.fraction);
    tune_plan p = {0};
    cJSON *pruned = cJSON_GetObjectItemCaseSensitive(f.section, "pruned");
    if (!pruned) pruned = cJSON_AddArrayToObject(f.section, "pruned");
    /* --probes-only: no grid sweep, and so every record competes (see sweep_probes) */
    if ((!o.probes_only && tune_plan_make(&p, &o.space, base, &dev, pruned)) || restrict_to_plan(&f, &p)) {
        fprintf(stderr, "bchol tune: out of memory\n");
        return 1;
    }
    tune_file_update_chosen(&f, *o.also_default ? o.also_default : NULL);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    sweep_run run = {now_s(), 0, {0, 0, 0, 0}, o.probe_between > 0, 0};
    int rc = o.probes_only ? 0 : sweep(&o, &f, base, &dev, &p, &run);
    if (rc == 0 && o.probe_between > 0) {
        if (!o.probes_only) fprintf(stderr, "bchol tune: the grid is measured; now the sizes halfway between\n");
        rc = sweep_probes(&o, &f, base, &dev, &p, &run, 0);
    }
    /* the dense probes, planned from the midpoints' times */
    if (rc == 0 && o.probe_between > 0 && o.probe_every_to > 0) {
        fprintf(stderr, "bchol tune: the midpoints are measured; now every other size between up to %d\n",
                o.probe_every_to);
        rc = sweep_probes(&o, &f, base, &dev, &p, &run, 1);
    }
    tune_plan_free(&p);
    tune_file_close(&f);
    bchol_context_destroy(base);
    return rc < 0 ? 1 : rc;
}
