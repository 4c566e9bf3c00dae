/*
 * A tiny `bchol tune` run on the default device, end to end: two sizes and a handful of
 * configurations; stopped by its budget, killed with SIGKILL in the middle, resumed to the
 * end without measuring anything twice; its file read back (every configuration once,
 * each size's finalists re-timed in a confirmation round and the fastest of them chosen
 * (or one within 3% of it that does better at the next size),
 * the earlier measurements kept), used by
 * the dispatcher (bchol_potrf_params and a factorization), summarized by --report (and
 * --against itself: every pick the best, or within 3% of it where it does better at the
 * next size) and explained by bench --explain; --fraction
 * draws the same configurations for the same seed; a narrower space on resume leaves the
 * other records out of the choice. The "rechoose" case needs no device: the choice among
 * near-best configurations by the next size, through bchol tune --rechoose on a file
 * written here. The "shared" case: one build per program, not per configuration, and one
 * build process for many builds.
 *
 *   test_tune_run <path of the bchol command> [variants | build | solve | rechoose | shared |
 *                 native | vbatched_round | probes | probe_ties | probe_every | output | input |
 *                 getrf | derived | getrs | solve_workitem | getrs_workitem | getri]
 */
#include "bchol.h"
#include "bchol_util.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_check.h"

static const char *bchol;
static char dir[64], file[128];

/* The sweep: n = 4 and 6, ib 4 or 8, rpt 1 or 2 (plus the defaults where they differ). */
#define SWEEP "--n", "4,6", "--precision", "s", "--variants", "fused", "--set", "ib=4,8", "--set", \
              "tbc=1", "--set", "rpt=1,2", "--set", "shape=fixed", "--reps", "2", "--seed", "11", "--quiet"

/* The multi-variant sweep: n = 4 and 6, fused (one configuration) and interleaved (tiles of
 * 2, tile loops), each with its backend defaults where they differ; small batches. */
#define SWEEP_VARIANTS "--n", "4,6", "--precision", "s", "--variants", "fused,interleaved", "--set", \
                       "ib=4", "--set", "tbc=1", "--set", "rpt=2", "--set", "shape=fixed", "--set", \
                       "inb=2", "--set", "looking=left", "--set", "unroll=tiles", "--set",             \
                       "chunking=chunked", "--set", "chunk=32", "--batch", "512", "--reps", "2", "--seed", "12", \
                       "--quiet"

/* Runs bchol with args; stdout into out (if not NULL). Returns the exit status. */
static pid_t start(char *const *args, const char *out)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        util_icd_env_restore(); /* PoCL dropped the other ICDs from it (bchol_util.h) */
        if (out && !freopen(out, "w", stdout)) _exit(127);
        execv(bchol, args);
        _exit(127);
    }
    return pid;
}

static int finish(pid_t pid)
{
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#define RUN(out, ...) finish(start((char *const[]){(char *)bchol, __VA_ARGS__, NULL}, out))

static cJSON *load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    return cJSON_Parse(text);
}

static cJSON *section(cJSON *root)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "devices"), 0);
}

static cJSON *tried(cJSON *root)
{
    return cJSON_GetObjectItemCaseSensitive(section(root), "tried");
}

static int count_tried(void)
{
    cJSON *root = load(file);
    int n = root ? cJSON_GetArraySize(tried(root)) : -1;
    cJSON_Delete(root);
    return n;
}

static char *key_of(const cJSON *r)
{
    static char key[512];
    char *params = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(r, "params"));
    snprintf(key, sizeof key, "%s %d %s", cJSON_GetObjectItemCaseSensitive(r, "precision")->valuestring,
             cJSON_GetObjectItemCaseSensitive(r, "n")->valueint, params);
    free(params);
    return key;
}

static double ms_of(const cJSON *r)
{
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(r, "ms");
    return cJSON_IsNumber(ms) ? ms->valuedouble : -1;
}

static int file_contains(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    static char text[1 << 20]; /* a default plan's listing: about 100 KB at two sizes */
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[len] = 0;
    return strstr(text, needle) != NULL;
}

/* The configurations of a --dry-run listing (its lines not starting with '#'). */
static char *plan_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    char *out = calloc(1, 1 << 16), line[1024];
    size_t used = 0;
    while (f && fgets(line, sizeof line, f))
        if (line[0] != '#' && used + strlen(line) < (1 << 16) - 1) {
            strcpy(out + used, line);
            used += strlen(line);
        }
    if (f) fclose(f);
    return out;
}

/* The worst pick's ratio in a --report --against output ("the worst pick is 1.012x"), or -1. */
static double report_worst_pick(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    double worst = -1;
    while (f && fgets(line, sizeof line, f)) {
        const char *at = strstr(line, "the worst pick is ");
        if (at) worst = strtod(at + strlen("the worst pick is "), NULL);
    }
    if (f) fclose(f);
    return worst;
}

static int param_int(const cJSON *params, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(params, key);
    return cJSON_IsNumber(v) ? v->valueint : -1;
}

static int param_label(const cJSON *params, const char *key, const char *const *labels)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(params, key);
    for (int i = 0; cJSON_IsString(v) && labels[i]; i++)
        if (!strcmp(v->valuestring, labels[i])) return i;
    return -1;
}

/* Whether p holds the tuned fields of the chosen entry e (of its variant) at order n; above
 * the entry's order a fully unrolled interleaved entry lends its layout only, the tile size
 * and unrolling being the backend's (dflt), and a fused entry its "between" parameters
 * where it has them (n up to "between_to": the tuner writes them where its measurements
 * say so). */
static int has_entry_fields(const bchol_params *p, const cJSON *e, int n, const bchol_params *dflt)
{
    static const char *const shape[] = {"default", "fixed", "shrink", NULL};
    static const char *const looking[] = {"default", "left", "right", "top", NULL};
    static const char *const unroll[] = {"default", "tiles", "full", NULL};
    static const char *const chunking[] = {"default", "chunked", "simple", "staged", NULL};
    static const char *const math[] = {"default", "ieee", "fast", NULL};
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(e, "params");
    const char *v = cJSON_GetObjectItemCaseSensitive(e, "variant")->valuestring;
    const cJSON *between = cJSON_GetObjectItemCaseSensitive(e, "between"),
                *to = cJSON_GetObjectItemCaseSensitive(e, "between_to");
    if (cJSON_IsObject(between) && cJSON_IsNumber(to) && n > cJSON_GetObjectItemCaseSensitive(e, "n")->valueint &&
        n <= to->valueint)
        q = between;
    if (!strcmp(v, "fused"))
        return p->ib == param_int(q, "ib") && p->tbc == param_int(q, "tbc") && p->rpt == param_int(q, "rpt") &&
               p->shape == param_label(q, "shape", shape);
    /* fully unrolled entries lend only their layout above their order */
    const int own = n == cJSON_GetObjectItemCaseSensitive(e, "n")->valueint ||
                    param_label(q, "unroll", unroll) == BCHOL_UNROLL_TILES;
    if (!strcmp(v, "interleaved") || !strcmp(v, "interleaved-native"))
        return p->inb == (own ? param_int(q, "inb") : dflt->inb) &&
               p->looking == param_label(q, "looking", looking) &&
               p->unroll == (own ? param_label(q, "unroll", unroll) : dflt->unroll) &&
               p->chunking == param_label(q, "chunking", chunking) && p->chunk == param_int(q, "chunk") &&
               p->math == param_label(q, "math", math);
    return 0;
}

/* A context that reads the tuning file `tuning` ("off": none); NULL, with a failed check,
 * when none can be made. */
static bchol_context *context_with(const char *tuning)
{
    bchol_context *ctx;
    setenv("BCHOL_TUNING_FILE", tuning, 1);
    if (bchol_context_create(NULL, &ctx)) {
        CHECK(0, "no context");
        return NULL;
    }
    return ctx;
}

/* The two-variant run: stopped after 2 configurations, resumed; then what the dispatcher
 * makes of the file at n = 4, 5 (nearest below: 4) and 6. */
static void multi_variant(void)
{
    int rc = RUN(NULL, "tune", "--output", file, SWEEP_VARIANTS, "--max-configs", "2");
    CHECK(rc == 3 && count_tried() == 2, "budget-limited run: exit %d with %d tried (wanted 3 and 2)", rc,
          count_tried());
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet");
    CHECK(rc == 0, "resume: exit %d", rc);
    cJSON *root = load(file);
    CHECK(root != NULL, "the file is not JSON");
    if (!root) return;
    /* every configuration once, none failed, both variants at both sizes */
    int per[2][2] = {{0, 0}, {0, 0}};
    const cJSON *r, *e;
    cJSON_ArrayForEach(r, tried(root))
    {
        const char *v = cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring;
        int n = cJSON_GetObjectItemCaseSensitive(r, "n")->valueint, copies = 0;
        char key[600];
        snprintf(key, sizeof key, "%s %s", v, key_of(r));
        const cJSON *x;
        cJSON_ArrayForEach(x, tried(root))
        {
            char other[600];
            snprintf(other, sizeof other, "%s %s",
                     cJSON_GetObjectItemCaseSensitive(x, "variant")->valuestring, key_of(x));
            copies += !strcmp(key, other);
        }
        CHECK(copies == 1, "%s measured %d times", key, copies);
        CHECK(!cJSON_GetObjectItemCaseSensitive(r, "failed"), "%s failed: %s", key,
              cJSON_GetObjectItemCaseSensitive(r, "failed")->valuestring);
        per[!strcmp(v, "interleaved")][n == 6]++;
    }
    /* fused: 1 (+ defaults); interleaved: inb 2 (+ defaults) */
    CHECK(per[0][0] >= 1 && per[0][0] <= 2 && per[0][1] >= 1 && per[0][1] <= 2 && per[1][0] >= 1 &&
              per[1][0] <= 2 && per[1][1] >= 1 && per[1][1] <= 2,
          "configurations per variant and size: fused %d, %d; interleaved %d, %d", per[0][0], per[0][1],
          per[1][0], per[1][1]);
    /* one chosen entry per variant and size; the fastest of each size is the winner */
    const cJSON *chosen = cJSON_GetObjectItemCaseSensitive(section(root), "chosen");
    const cJSON *fastest[2] = {NULL, NULL}, *slower[2] = {NULL, NULL};
    CHECK(cJSON_GetArraySize(chosen) == 4, "%d chosen entries, wanted 4 (2 variants x 2 sizes)",
          cJSON_GetArraySize(chosen));
    cJSON_ArrayForEach(e, chosen)
    {
        int i = cJSON_GetObjectItemCaseSensitive(e, "n")->valueint == 6;
        if (!fastest[i] || ms_of(e) < ms_of(fastest[i])) {
            slower[i] = fastest[i];
            fastest[i] = e;
        } else {
            slower[i] = e;
        }
    }
    bchol_params dflt[3];
    bchol_context *ctx = context_with("off");
    if (!ctx) {
        cJSON_Delete(root);
        return;
    }
    for (int k = 0; k < 3; k++) bchol_potrf_params(ctx, 's', 4 + k, &dflt[k], NULL);
    bchol_context_destroy(ctx);
    if (!(ctx = context_with(file))) {
        cJSON_Delete(root);
        return;
    }
    const int sizes[] = {4, 5, 6}, which[] = {0, 0, 1};
    for (int k = 0; k < 3; k++) {
        const cJSON *win = fastest[which[k]], *other = slower[which[k]];
        if (!win || !other) break;
        bchol_params p;
        const char *source;
        bchol_potrf_params(ctx, 's', sizes[k], &p, &source);
        /* equal times (tiny GPU runs): either variant is the fastest */
        if (ms_of(win) == ms_of(other) &&
            !strcmp(cJSON_GetObjectItemCaseSensitive(other, "variant")->valuestring,
                    p.variant == BCHOL_VARIANT_FUSED ? "fused" : "interleaved")) {
            const cJSON *swap = win;
            win = other;
            other = swap;
        }
        const char *wname = cJSON_GetObjectItemCaseSensitive(win, "variant")->valuestring;
        const char *oname = cJSON_GetObjectItemCaseSensitive(other, "variant")->valuestring;
        const bchol_variant wv = !strcmp(wname, "fused") ? BCHOL_VARIANT_FUSED : BCHOL_VARIANT_INTERLEAVED;
        printf("n = %d: %s\n", sizes[k], source);
        char entry[300], by[200], others[300];
        snprintf(entry, sizeof entry, "tuning file %s", file);
        snprintf(by, sizeof by, "variant %s: the fastest in the tuning table at n = %d", wname,
                 which[k] ? 6 : 4);
        snprintf(others, sizeof others, "%s fields from %s (s %s entry for n = %d)", oname, file, oname,
                 which[k] ? 6 : 4);
        CHECK(p.variant == wv && !strncmp(source, entry, strlen(entry)) && strstr(source, by) &&
                  strstr(source, others),
              "n = %d: variant %d, wanted %s (%.4f ms against %s %.4f ms); source \"%s\"", sizes[k],
              (int)p.variant, wname, ms_of(win), oname, ms_of(other), source);
        CHECK(has_entry_fields(&p, win, sizes[k], &dflt[k]) && has_entry_fields(&p, other, sizes[k], &dflt[k]),
              "n = %d: the parameters are not the file's entries of both variants", sizes[k]);
    }
    CHECK(!*bchol_last_warning(ctx), "warning: %s", bchol_last_warning(ctx));
    /* the report finds the two variants and says which wins where */
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    char out[128];
    snprintf(out, sizeof out, "%s/report.txt", dir);
    rc = RUN(out, "tune", "--report", file);
    CHECK(rc == 0 && file_contains(out, "## s potrf crossovers") && file_contains(out, "## s interleaved") &&
              file_contains(out, "crossovers (s potrf): ") && !file_contains(out, "getrf crossovers"),
          "--report of two variants: exit %d or no crossover section", rc);
    cJSON_Delete(root);
    remove(out);
    remove(file);
    rmdir(dir);
}

/* ---- interleaved-native (tune_interleaved.c) ----------------------------------------- */

/* n = 4 and 6, tiles of 2, left or top, chunks of 16 or 32 (plus the defaults where they
 * differ), timed on data already interleaved; small batches. */
#define SWEEP_NATIVE "--n", "4,6", "--precision", "s", "--variants", "interleaved-native", "--set", \
                     "inb=2", "--set", "looking=left,top", "--set", "unroll=tiles", "--set",          \
                     "chunking=chunked", "--set", "chunk=16,32", "--batch", "256", "--reps", "2",      \
                     "--seed", "17", "--quiet"

/* The native entries: one per size, verified runs, served by bchol_potrf_interleaved_params
 * (at n = 5: the entry for 4) and not by bchol_potrf_params nor AUTO. */
static void native_run(void)
{
    int rc = RUN(NULL, "tune", "--output", file, SWEEP_NATIVE);
    CHECK(rc == 0, "bchol tune: exit %d", rc);
    cJSON *root = load(file);
    CHECK(root != NULL, "the file is not JSON");
    if (!root) return;
    int count = 0;
    const cJSON *r, *e;
    cJSON_ArrayForEach(r, tried(root))
    {
        count++;
        CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, "interleaved-native"),
              "a %s record", cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring);
        CHECK(!cJSON_GetObjectItemCaseSensitive(r, "failed"), "%s failed: %s", key_of(r),
              cJSON_GetObjectItemCaseSensitive(r, "failed")->valuestring);
    }
    CHECK(count >= 8, "%d configurations tried, wanted 2 sizes x 4 (plus defaults)", count);
    const cJSON *chosen = cJSON_GetObjectItemCaseSensitive(section(root), "chosen"), *at[2] = {NULL, NULL};
    CHECK(cJSON_GetArraySize(chosen) == 2, "%d chosen entries, wanted 2", cJSON_GetArraySize(chosen));
    cJSON_ArrayForEach(e, chosen) at[cJSON_GetObjectItemCaseSensitive(e, "n")->valueint == 6] = e;
    bchol_params dflt[3], auto_off;
    bchol_context *ctx = context_with("off");
    if (!ctx) {
        cJSON_Delete(root);
        return;
    }
    for (int k = 0; k < 3; k++) bchol_potrf_interleaved_params(ctx, 's', 4 + k, &dflt[k], NULL);
    bchol_potrf_params(ctx, 's', 4, &auto_off, NULL);
    bchol_context_destroy(ctx);
    if (!(ctx = context_with(file))) {
        cJSON_Delete(root);
        return;
    }
    for (int k = 0; k < 3 && at[0] && at[1]; k++) {
        const int n = 4 + k;
        const cJSON *want = at[n == 6];
        bchol_params p;
        const char *source;
        bchol_potrf_interleaved_params(ctx, 's', n, &p, &source);
        char needle[160];
        snprintf(needle, sizeof needle, "s interleaved-native entry for n = %d", n == 6 ? 6 : 4);
        printf("n = %d: %s\n", n, source);
        CHECK(p.variant == BCHOL_VARIANT_INTERLEAVED && has_entry_fields(&p, want, n, &dflt[k]) &&
                  strstr(source, file) && strstr(source, needle),
              "n = %d: not the file's interleaved-native entry (source \"%s\")", n, source);
    }
    /* the strided routines' choice is the untuned one: the native entries never compete */
    bchol_params p;
    const char *source;
    bchol_potrf_params(ctx, 's', 4, &p, &source);
    CHECK(p.variant == auto_off.variant && p.inb == auto_off.inb && p.chunk == auto_off.chunk &&
              p.looking == auto_off.looking,
          "bchol_potrf_params at n = 4 took the native entry (variant %d, inb %d, chunk %d): %s",
          (int)p.variant, p.inb, p.chunk, source);
    CHECK(!*bchol_last_warning(ctx), "warning: %s", bchol_last_warning(ctx));
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    char out[128];
    snprintf(out, sizeof out, "%s/report.txt", dir);
    rc = RUN(out, "tune", "--report", file);
    CHECK(rc == 0 && file_contains(out, "## s interleaved-native") && !file_contains(out, "crossovers"),
          "--report: exit %d, no interleaved-native section or a crossover section", rc);
    cJSON_Delete(root);
    remove(out);
    remove(file);
    rmdir(dir);
}

/* ---- the solve (tune_solve.c) -------------------------------------------------------- */

/* The solve's sweep: n = 4, nrhs 1 and 3, nt 1 or 2 (2 is pruned at nrhs 1), rpt 1 or 4,
 * tbc 1, plus the defaults where they differ; small batches. (The lookup between measured
 * sizes is test_tuning's solve case.) */
#define SWEEP_SOLVE "--n", "4", "--precision", "s", "--variants", "solve", "--nrhs", "1,3", "--set", "nt=1,2", \
                    "--set", "rpt=1,4", "--set", "tbc=1", "--batch", "64", "--reps", "2", "--seed", "15", "--quiet"

static int rec_nrhs(const cJSON *r)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(r, "nrhs");
    return cJSON_IsNumber(k) ? k->valueint : -1;
}

/* Whether the first count records of root's tried list print as text (the records of an
 * earlier run, as they were: a later run timed none of them again). */
static int same_head(cJSON *root, const char *text, int count)
{
    cJSON *head = cJSON_CreateArray();
    for (int i = 0; i < count; i++) cJSON_AddItemToArray(head, cJSON_Duplicate(cJSON_GetArrayItem(tried(root), i), 1));
    char *head_text = cJSON_PrintUnformatted(head);
    const int same = text && head_text && !strcmp(text, head_text);
    free(head_text);
    cJSON_Delete(head);
    return same;
}

/* A tiny solve run added to a file of a fused sweep at the same size, stopped after 3
 * configurations and resumed with build processes (their arguments carry nrhs); every
 * configuration once with its nrhs, one chosen entry per (n, nrhs), the fastest confirmed,
 * in confirmation rounds of their own (the fused records are not timed again); the library
 * reads the file back (bchol_potrs_params at and between the measured points, a potrs with
 * the tuned parameters); --report per nrhs; bench --solve --explain. */
static void solve_run(void)
{
    int rc = RUN(NULL, "tune", "--output", file, "--n", "4", "--precision", "s", "--variants", "fused", "--set",
                 "ib=4", "--set", "tbc=1", "--set", "rpt=2", "--set", "shape=fixed", "--batch", "64", "--reps", "2",
                 "--seed", "15", "--quiet");
    cJSON *fused = load(file);
    char *fused_text = fused ? cJSON_PrintUnformatted(tried(fused)) : NULL;
    const int nfused = fused ? cJSON_GetArraySize(tried(fused)) : 0;
    CHECK(rc == 0 && nfused >= 1, "the fused sweep: exit %d, %d records", rc, nfused);
    cJSON_Delete(fused);
    rc = RUN(NULL, "tune", "--output", file, "--resume", SWEEP_SOLVE, "--max-configs", "3");
    CHECK(rc == 3 && count_tried() == nfused + 3, "budget-limited run: exit %d with %d tried (wanted 3 and %d)", rc,
          count_tried(), nfused + 3);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet", "--jobs", "2", "--build-timeout", "60");
    CHECK(rc == 0, "resume: exit %d", rc);
    cJSON *root = load(file);
    CHECK(root != NULL, "the file is not JSON");
    if (!root) return;
    const cJSON *r, *x, *e;
    int per[2] = {0, 0}, defaults[2] = {0, 0}, built = 0;
    /* the fused records first, as they were: the solve's rounds did not time them again */
    CHECK(same_head(root, fused_text, nfused), "the fused records changed with the solve's runs");
    free(fused_text);
    cJSON_ArrayForEach(r, tried(root))
    {
        if (!strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, "fused")) continue;
        const int k = rec_nrhs(r), n = cJSON_GetObjectItemCaseSensitive(r, "n")->valueint;
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
        char key[600];
        snprintf(key, sizeof key, "nrhs %d %s", k, key_of(r));
        int copies = 0;
        cJSON_ArrayForEach(x, tried(root))
        {
            char other[600];
            snprintf(other, sizeof other, "nrhs %d %s", rec_nrhs(x), key_of(x));
            copies += !strcmp(key, other);
        }
        CHECK(copies == 1, "%s measured %d times", key, copies);
        CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, "solve") && (k == 1 || k == 3) &&
                  n == 4,
              "a record of another variant, n or nrhs: %s", key);
        CHECK(!cJSON_GetObjectItemCaseSensitive(r, "failed"), "%s failed: %s", key,
              cJSON_GetObjectItemCaseSensitive(r, "failed")->valuestring);
        const int is_default = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "default"));
        CHECK(is_default || !(k == 1 && param_int(p, "nt") == 2), "nt = 2 at nrhs = 1 was not pruned: %s", key);
        if (k != 1 && k != 3) continue;
        per[k == 3]++;
        defaults[k == 3] += is_default;
        built += cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "build_seconds"));
    }
    /* nrhs 1: nt 1 x rpt 2; nrhs 3: nt 2 x rpt 2; each plus the defaults where they are not
     * among them */
    bchol_context *ctx = context_with("off");
    if (!ctx) {
        cJSON_Delete(root);
        return;
    }
    for (int k = 0; k < 2; k++) {
        bchol_solve_params d;
        bchol_potrs_params(ctx, 's', 4, k ? 3 : 1, &d, NULL);
        const int in_set = (d.nt == 1 || (k && d.nt == 2)) && (d.rpt == 1 || d.rpt == 4) && d.tbc == 1;
        const int want = 2 * (k + 1) + !in_set;
        CHECK(per[k] == want && defaults[k] == 1, "nrhs %d: %d configurations (%d defaults), wanted %d", k ? 3 : 1,
              per[k], defaults[k], want);
    }
    bchol_context_destroy(ctx);
    CHECK(built >= 1, "no record measured in the resume was built by a build process");
    /* one chosen entry per (n, nrhs): the fastest of its confirmation round; the fused one */
    const cJSON *chosen = cJSON_GetObjectItemCaseSensitive(section(root), "chosen");
    CHECK(cJSON_GetArraySize(chosen) == 3, "%d chosen entries, wanted 3 (fused; solve at nrhs 1 and 3)",
          cJSON_GetArraySize(chosen));
    cJSON_ArrayForEach(e, chosen)
    {
        if (!strcmp(cJSON_GetObjectItemCaseSensitive(e, "variant")->valuestring, "fused")) continue;
        const int k = rec_nrhs(e), n = cJSON_GetObjectItemCaseSensitive(e, "n")->valueint;
        double best = -1;
        cJSON_ArrayForEach(r, tried(root))
        {
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "confirm_ms");
            if (rec_nrhs(r) == k && cJSON_GetObjectItemCaseSensitive(r, "n")->valueint == n && cJSON_IsNumber(c) &&
                (best < 0 || c->valuedouble < best))
                best = c->valuedouble;
        }
        /* the fastest, or within 3% of it and better at the next size (tune_file.c) */
        CHECK((k == 1 || k == 3) && ms_of(e) >= best && ms_of(e) <= best * 1.03 &&
                  cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "confirmed")),
              "n = %d nrhs = %d: chosen %g ms, the fastest confirmed %g ms", n, k, ms_of(e), best);
    }

    /* the library: each (n, nrhs) asked gets the chosen entry of (from_n, from_nrhs) */
    if (!(ctx = context_with(file))) {
        cJSON_Delete(root);
        return;
    }
    const struct {
        int n, nrhs, from_n, from_nrhs;
    } asks[] = {{4, 1, 4, 1}, {4, 3, 4, 3}, {5, 1, 4, 1}, {4, 2, 4, 3}, {3, 1, 4, 1}, {100, 16, 4, 3}};
    for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++) {
        const cJSON *want = NULL;
        cJSON_ArrayForEach(e, chosen) if (rec_nrhs(e) == asks[i].from_nrhs &&
                                          cJSON_GetObjectItemCaseSensitive(e, "n")->valueint == asks[i].from_n) want = e;
        bchol_solve_params p;
        const char *source = "";
        bchol_potrs_params(ctx, 's', asks[i].n, asks[i].nrhs, &p, &source);
        char needle[300];
        snprintf(needle, sizeof needle, "s solve entry for n = %d, nrhs = %d", asks[i].from_n, asks[i].from_nrhs);
        const cJSON *q = want ? cJSON_GetObjectItemCaseSensitive(want, "params") : NULL;
        /* an entry whose work-group does not fit the device at this n gives way to the
         * defaults, saying so (which entry wins at n = 4 depends on the device's timing) */
        bchol_device_info dev;
        bchol_context_device_info(ctx, &dev);
        const long long rpt = q ? param_int(q, "rpt") : 1, group = q ? (asks[i].n + rpt - 1) / rpt * param_int(q, "tbc") : 0;
        if (q && rpt > 0 && group > (long long)dev.max_work_group) {
            CHECK(strstr(source, "defaults") && strstr(source, "work-items per group"),
                  "n = %d nrhs = %d: the entry needs %lld work-items, the device takes %zu; source \"%s\"",
                  asks[i].n, asks[i].nrhs, group, dev.max_work_group, source);
            printf("n = %d nrhs = %d: %s\n", asks[i].n, asks[i].nrhs, source);
            continue;
        }
        CHECK(q && p.nt == param_int(q, "nt") && p.rpt == param_int(q, "rpt") && p.tbc == param_int(q, "tbc") &&
                  strstr(source, file) && strstr(source, needle),
              "n = %d nrhs = %d: nt %d rpt %d tbc %d from \"%s\", wanted the n = %d, nrhs = %d entry", asks[i].n,
              asks[i].nrhs, p.nt, p.rpt, p.tbc, source, asks[i].from_n, asks[i].from_nrhs);
        printf("n = %d nrhs = %d: %s\n", asks[i].n, asks[i].nrhs, source);
    }
    CHECK(!*bchol_last_warning(ctx), "warning: %s", bchol_last_warning(ctx));
    {
        enum { N = 5, K = 3, B = 9 };
        float a[N * N * B], a0[N * N * B], b[N * K * B], b0[N * K * B];
        util_rng rng;
        util_rng_seed(&rng, 4);
        for (int k = 0; k < B; k++) {
            util_spd(a0 + k * N * N, 0, 'L', N, N, &rng);
            memcpy(a + k * N * N, a0 + k * N * N, sizeof(float) * N * N);
            util_ref_factor(a + k * N * N, 0, 'L', N, N); /* factors made here: no potrf build */
        }
        util_fill_uniform(b, 0, N, K * B, N, &rng);
        memcpy(b0, b, sizeof b);
        bchol_status st = bchol_spotrs_batched_host(ctx, 'L', N, K, a, N, N * N, b, N, N * K, B);
        double worst = 0;
        for (int k = 0; k < B && !st; k++) {
            double res = util_solve_residual(a0 + k * N * N, 0, 'L', N, N, K, b + k * N * K, N, b0 + k * N * K, N);
            if (!(res <= worst)) worst = res;
        }
        CHECK(!st && worst <= 30, "potrs with the tuned solve: %s, residual %g", bchol_status_string(st), worst);
    }
    bchol_context_destroy(ctx);

    /* the report, per nrhs; against itself every pick is the best; bench --solve --explain */
    char out[128], needle[300];
    snprintf(out, sizeof out, "%s/report.txt", dir);
    rc = RUN(out, "tune", "--report", file);
    CHECK(rc == 0 && file_contains(out, "## s solve nrhs=1") && file_contains(out, "## s solve nrhs=3") &&
              file_contains(out, "which parameters matter") && !file_contains(out, "crossovers"),
          "--report of the solve: exit %d or its sections missing", rc);
    rc = RUN(out, "tune", "--report", file, "--against", file);
    CHECK(rc == 0 && file_contains(out, "1 of 1 sizes within 5% of the best measured here; the worst pick is 1.000x"),
          "--report --against itself: exit %d or not every pick the best", rc);
    rc = RUN(out, "bench", "--solve", "--n", "6", "--nrhs", "2", "--batch", "16", "--reps", "1", "--warmup", "0",
             "--explain");
    snprintf(needle, sizeof needle, "#   n = 6: tuning file %s, devices[0]", file);
    CHECK(rc == 0 && file_contains(out, needle) &&
              file_contains(out, "s solve entry for n = 4, nrhs = 3, the nearest measured size below n = 6, the closest "
                                 "measured nrhs to 2"),
          "bench --solve --explain: exit %d, no \"%s\"", rc, needle);
    unsetenv("BCHOL_TUNING_FILE");
    cJSON_Delete(root);
    remove(out);
    remove(file);
    rmdir(dir);
}

/* ---- build limits (tune_prebuild.c) ------------------------------------------------- */

/* The sweep of the build tests: n = 4, ib 4, rpt 1 or 2 (plus the defaults). */
#define SWEEP_BUILD "--n", "4", "--precision", "s", "--variants", "fused", "--set", "ib=4", "--set", "tbc=1", \
                    "--set", "rpt=1,2", "--set", "shape=fixed", "--batch", "64", "--reps", "2", "--seed", "13",   \
                    "--quiet"

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Whether a build process of the tuner pid still exists (its command line names pid). */
static int child_alive(pid_t pid)
{
    char want[32];
    int len = snprintf(want, sizeof want, "--build-server%c%ld", 0, (long)pid) + 1;
    DIR *d = opendir("/proc");
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d))) {
        char path[300], text[4096];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        size_t n = fread(text, 1, sizeof text, f);
        fclose(f);
        for (size_t i = 0; i + (size_t)len <= n && !found; i++) found = !memcmp(text + i, want, (size_t)len);
    }
    if (d) closedir(d);
    return found;
}

/* Starts a run whose rpt = 2 build sleeps, waits until its child runs, stops it with sig;
 * checks that no build process outlives it. Returns the run's exit status. */
static int stop_while_building(int sig)
{
    setenv("BCHOL_TUNE_BUILD_DELAY_MS", "20000", 1);
    setenv("BCHOL_TUNE_BUILD_DELAY_MATCH", "rpt=2", 1);
    setenv("BCHOL_TUNE_PAUSE_MS", "1", 1); /* the first record saved at once, not seconds later */
    char out[160];
    snprintf(out, sizeof out, "%s/stopped.json", dir);
    remove(out);
    pid_t pid = start((char *const[]){(char *)bchol, "tune", "--output", out, SWEEP_BUILD, "--build-timeout", "60",
                                      "--jobs", "1", NULL},
                      NULL);
    unsetenv("BCHOL_TUNE_BUILD_DELAY_MS");
    unsetenv("BCHOL_TUNE_BUILD_DELAY_MATCH");
    unsetenv("BCHOL_TUNE_PAUSE_MS");
    /* the rpt = 2 configuration comes second: its child sleeps once the first is saved */
    int seen = 0;
    for (int i = 0; i < 3000 && !seen; i++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
        cJSON *root = load(out);
        seen = root && cJSON_GetArraySize(tried(root)) >= 1 && child_alive(pid);
        cJSON_Delete(root);
    }
    CHECK(seen, "signal %d: the run never got to the slow build", sig);
    /* past the child's start (which checks that its parent still lives) into its sleep */
    struct timespec settle = {0, 500 * 1000 * 1000};
    nanosleep(&settle, NULL);
    const double t0 = seconds_now();
    kill(pid, sig);
    int rc = finish(pid), alive = 1;
    const double ended = seconds_now() - t0;
    for (int i = 0; i < 200 && alive; i++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        alive = child_alive(pid);
        if (alive) nanosleep(&pause, NULL);
    }
    printf("signal %d: the run ended with status %d after %.2f s; build process %s\n", sig, rc, ended,
           alive ? "still running" : "gone");
    CHECK(ended < 10, "signal %d: the run took %.1f s to end: it waited for the build", sig, ended);
    CHECK(!alive, "signal %d: a build process outlived the tuner", sig);
    remove(out);
    return rc;
}

/* bchol tune --build-timeout: a configuration whose build overruns (a build process made to
 * sleep by the testing hook) is recorded as "build too slow" while the others are measured,
 * and a resume does not retry it; a build error is recorded with its reason; a stopped or
 * killed tuner leaves no build process behind. */
static void build_limits(void)
{
    /* 1. the sweep without a limit (built in this process): the caches (PoCL's, bchol's
     * on NVIDIA) then hold every program; again with build processes, whose build times
     * (loads from the caches; a process's start and context are not counted) set the
     * limit below */
    int rc = RUN(NULL, "tune", "--output", file, SWEEP_BUILD, "--build-timeout", "0", "--jobs", "1");
    CHECK(rc == 0, "the sweep without a limit: exit %d", rc);
    remove(file);
    rc = RUN(NULL, "tune", "--output", file, SWEEP_BUILD, "--build-timeout", "60", "--jobs", "1");
    cJSON *root = load(file);
    double warm = 0;
    const cJSON *r, *records = root ? tried(root) : NULL;
    cJSON_ArrayForEach(r, records)
    {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(r, "build_seconds");
        CHECK(cJSON_IsNumber(b), "the sweep with build processes: a record without build_seconds");
        if (cJSON_IsNumber(b) && b->valuedouble > warm) warm = b->valuedouble;
    }
    CHECK(rc == 0 && root, "the sweep with build processes: exit %d", rc);
    cJSON_Delete(root);
    remove(file);
    const int limit = 3 + (int)(3 * warm);
    printf("build processes take up to %.3f s: a limit of %d s\n", warm, limit);

    /* 2. that limit; the rpt = 2 build sleeps 20 s more; two build processes ahead */
    char limit_text[16], delay_text[16], want[64];
    snprintf(limit_text, sizeof limit_text, "%d", limit);
    snprintf(delay_text, sizeof delay_text, "%d", (limit + 20) * 1000);
    snprintf(want, sizeof want, "build too slow (> %d s)", limit);
    setenv("BCHOL_TUNE_BUILD_DELAY_MS", delay_text, 1);
    setenv("BCHOL_TUNE_BUILD_DELAY_MATCH", "rpt=2", 1);
    const double t0 = seconds_now();
    rc = RUN(NULL, "tune", "--output", file, SWEEP_BUILD, "--build-timeout", limit_text, "--jobs", "3");
    const double took = seconds_now() - t0;
    unsetenv("BCHOL_TUNE_BUILD_DELAY_MS");
    unsetenv("BCHOL_TUNE_BUILD_DELAY_MATCH");
    root = load(file);
    CHECK(rc == 0 && root, "the run with a limit: exit %d", rc);
    if (!root) return;
    CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "tuner"), "status")->valuestring,
                  "complete"),
          "the run with a limit is not complete");
    int slow = 0, measured = 0;
    cJSON_ArrayForEach(r, tried(root))
    {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
        const int rpt = cJSON_GetObjectItemCaseSensitive(p, "rpt")->valueint;
        const cJSON *failed = cJSON_GetObjectItemCaseSensitive(r, "failed");
        const double secs = cJSON_GetObjectItemCaseSensitive(r, "seconds")->valuedouble;
        if (rpt == 2) {
            slow++;
            CHECK(cJSON_IsString(failed) && !strcmp(failed->valuestring, want) && secs >= limit &&
                      secs < limit + 10,
                  "rpt = 2: failed \"%s\" after %.3f s, wanted \"%s\" after %d s",
                  cJSON_IsString(failed) ? failed->valuestring : "", secs, want, limit);
        } else {
            measured++;
            CHECK(!failed && ms_of(r) >= 0 && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "build_seconds")),
                  "rpt = %d: failed (%s) or not built by a build process",
                  rpt, cJSON_IsString(failed) ? failed->valuestring : "no time");
        }
    }
    printf("limit %d s: %d too slow, %d measured, in %.1f s\n", limit, slow, measured, took);
    CHECK(slow == 1 && measured >= 1, "%d records too slow (wanted 1), %d measured", slow, measured);
    CHECK(took < limit + 18, "the run took %.1f s: the slow build was waited for, not stopped", took);

    /* 2b. the limit counts a build, not its process's start: a build process slow to be
     * ready (1.8 s) whose builds take 1.8 s each, under a limit of 3 s, builds them all */
    char started_file[200];
    snprintf(started_file, sizeof started_file, "%s/started.json", dir);
    remove(started_file);
    setenv("BCHOL_TUNE_BUILD_START_DELAY_MS", "1800", 1);
    setenv("BCHOL_TUNE_BUILD_DELAY_MS", "1800", 1);
    rc = RUN(NULL, "tune", "--output", started_file, SWEEP_BUILD, "--build-timeout", "3", "--jobs", "2");
    unsetenv("BCHOL_TUNE_BUILD_START_DELAY_MS");
    unsetenv("BCHOL_TUNE_BUILD_DELAY_MS");
    cJSON *started = load(started_file);
    const cJSON *started_records = started ? tried(started) : NULL;
    int built_all = 0, nrec = 0;
    cJSON_ArrayForEach(r, started_records)
    {
        nrec++;
        built_all += !cJSON_GetObjectItemCaseSensitive(r, "failed") && ms_of(r) >= 0;
    }
    CHECK(rc == 0 && nrec >= 2 && built_all == nrec,
          "a build process slow to start: exit %d, %d of %d configurations measured (the start counted in the "
          "limit?)", rc, built_all, nrec);
    cJSON_Delete(started);
    remove(started_file);

    /* 3. a resume retries nothing, even with a larger limit */
    char *before = cJSON_PrintUnformatted(tried(root));
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet", "--build-timeout", "100");
    cJSON *again = load(file);
    char *after = again ? cJSON_PrintUnformatted(tried(again)) : NULL;
    CHECK(rc == 0 && after && !strcmp(before, after), "the resume changed the records (exit %d)", rc);
    free(before);
    free(after);
    cJSON_Delete(again);
    cJSON_Delete(root);
    remove(file);

    /* 4. a build that fails: its reason in the record, the run goes on */
    char kdir[128], path[200];
    snprintf(kdir, sizeof kdir, "%s/kernels", dir);
    mkdir(kdir, 0700);
    snprintf(path, sizeof path, "%s/common", kdir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/chol", kdir);
    mkdir(path, 0700);
    const char *files[] = {"common/common.cl", "chol/potrf_fused.cl"}, *texts[] = {"", "this is not OpenCL C\n"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", kdir, files[i]);
        FILE *f = fopen(path, "w");
        if (f) fputs(texts[i], f), fclose(f);
    }
    setenv("BCHOL_KERNEL_DIR", kdir, 1);
    rc = RUN(NULL, "tune", "--output", file, SWEEP_BUILD, "--build-timeout", "60", "--jobs", "2");
    unsetenv("BCHOL_KERNEL_DIR");
    root = load(file);
    int failed = 0, total = 0;
    records = root ? tried(root) : NULL;
    cJSON_ArrayForEach(r, records)
    {
        const cJSON *why = cJSON_GetObjectItemCaseSensitive(r, "failed");
        total++;
        failed += cJSON_IsString(why) && strstr(why->valuestring, bchol_status_string(BCHOL_ERR_BUILD)) != NULL;
        if (total == 1) printf("a broken kernel: %s\n", cJSON_IsString(why) ? why->valuestring : "(not failed)");
    }
    CHECK(rc == 0 && total >= 2 && failed == total, "a broken kernel: exit %d, %d of %d records with \"%s\"", rc,
          failed, total, bchol_status_string(BCHOL_ERR_BUILD));
    cJSON_Delete(root);
    remove(file);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", kdir, files[i]);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/common", kdir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/chol", kdir);
    rmdir(path);
    rmdir(kdir);

    /* 5. stopped (SIGTERM: exit 3 after killing its build process) or killed (SIGKILL: the
     * build process dies with it) while a build runs */
    rc = stop_while_building(SIGTERM);
    CHECK(rc == 3, "SIGTERM during a build: exit %d, wanted 3", rc);
    rc = stop_while_building(SIGKILL);
    CHECK(rc == 128 + SIGKILL, "SIGKILL during a build: status %d", rc);
    rmdir(dir);
}

/* Builds shared by configurations that differ only in launch parameters: a vbatched sweep
 * over tbc (a launch argument) and the ETM (a build macro) builds each program once
 * (BCHOL_TUNE_BUILD_LOG lists the builds), and every configuration is measured; the
 * builds run in --jobs - 1 build processes, one after another in each. */
static void shared_builds(void)
{
    char log[160];
    snprintf(log, sizeof log, "%s/builds.log", dir);
    remove(log);
    setenv("BCHOL_TUNE_BUILD_LOG", log, 1);
    int rc = RUN(NULL, "tune", "--output", file, "--n", "8", "--precision", "s", "--variants", "vbatched",
                 "--set", "ib=4", "--set", "rpt=1", "--set", "tbc=1,2", "--set", "shape=fixed", "--set",
                 "etm=classic,aggressive", "--set", "schedule=lazy", "--set", "order=index", "--reps", "1",
                 "--build-timeout", "120", "--jobs", "3", "--quiet");
    unsetenv("BCHOL_TUNE_BUILD_LOG");
    CHECK(rc == 0, "the vbatched sweep with build processes: exit %d", rc);
    cJSON *root = load(file);
    CHECK(root != NULL, "no tuning file");
    if (!root) return;
    char keys[32][64];
    int nkeys = 0, records = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, tried(root))
    {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
        const cJSON *failed = cJSON_GetObjectItemCaseSensitive(r, "failed");
        CHECK(!failed && ms_of(r) >= 0 && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "build_seconds")),
              "%s: failed (%s) or not built by a build process", key_of(r),
              cJSON_IsString(failed) ? failed->valuestring : "no time");
        char key[64];
        snprintf(key, sizeof key, "%d %d %s %s", cJSON_GetObjectItemCaseSensitive(p, "ib")->valueint,
                 cJSON_GetObjectItemCaseSensitive(p, "rpt")->valueint,
                 cJSON_GetObjectItemCaseSensitive(p, "etm")->valuestring,
                 cJSON_GetObjectItemCaseSensitive(p, "schedule")->valuestring);
        int k = 0;
        while (k < nkeys && strcmp(keys[k], key)) k++;
        if (k == nkeys && nkeys < 32) snprintf(keys[nkeys++], sizeof keys[0], "%s", key);
        records++;
    }
    cJSON_Delete(root);
    remove(file);
    /* each build's line ends with the process that built it */
    int builds = 0, npids = 0;
    long pids[32];
    char line[600];
    FILE *f = fopen(log, "r");
    while (f && fgets(line, sizeof line, f)) {
        builds++;
        const char *p = strstr(line, " pid=");
        const long pid = p ? atol(p + 5) : -1;
        int k = 0;
        while (k < npids && pids[k] != pid) k++;
        if (k == npids && npids < 32) pids[npids++] = pid;
    }
    if (f) fclose(f);
    printf("%d configurations of %d programs: %d builds in %d build processes\n", records, nkeys, builds, npids);
    CHECK(records > nkeys && builds == nkeys, "%d configurations of %d programs took %d builds, wanted %d",
          records, nkeys, builds, nkeys);
    /* --jobs 3: two build processes, each building one program after another */
    CHECK(npids >= 1 && npids <= 2 && pids[0] > 0, "%d builds ran in %d build processes (wanted at most 2)",
          builds, npids);
}

/* bchol tune --rechoose on a hand-made file: within 3% of a size's best, the configuration
 * best at the next measured size is chosen; one that failed there is not; one beyond 3% is
 * not; after a confirmation round only its finalists compete; the largest size takes its
 * fastest; the derived default section follows. For the sizes between two measured ones,
 * among the configurations within 1.2x of the best at both ends, the one and the range of
 * sizes above the entry's n whose worst time predicted between them (per matrix,
 * log-linear in the order padded to its panel width), the entry's own serving the rest, is
 * nearest the best predicted, where the entry's own does worse (sweep times). */
static void rechoose(void)
{
#define REC(n, ib, ms, extra) "{\"precision\": \"s\", \"variant\": \"fused\", \"n\": " #n ", \"params\": " \
    "{\"ib\": " #ib ", \"tbc\": 1, \"rpt\": 1, \"shape\": \"fixed\"}, \"ms\": " #ms extra "}"
#define RECD(n, ib, ms) "{\"precision\": \"d\", \"variant\": \"fused\", \"n\": " #n ", \"params\": " \
    "{\"ib\": " #ib ", \"tbc\": 1, \"rpt\": 1, \"shape\": \"fixed\"}, \"ms\": " #ms ", \"batch\": 100}"
    const char *text =
        "{\"format\": \"bchol-tuning\", \"format_version\": 1, \"bchol_version\": \"test\", \"devices\": ["
        "{\"family\": \"f\", \"vendor\": \"V\", \"architecture\": \"A\", \"name\": \"D\", \"chosen\": [], "
        "\"tried\": ["
        REC(16, 4, 1.00, "") ", " REC(16, 8, 1.02, "") ", " REC(16, 16, 1.08, "") ", "
        REC(32, 4, 1.0, ", \"failed\": \"too big\"") ", " REC(32, 8, 2.0, "") ", " REC(32, 16, 1.5, "") ", "
        REC(64, 4, 1.00, ", \"confirm_ms\": 1.00") ", " REC(64, 8, 1.01, ", \"confirm_ms\": 1.02") ", "
        REC(64, 16, 1.005, "") ", "
        REC(128, 4, 3.0, "") ", " REC(128, 8, 2.0, "") ", " REC(128, 16, 1.0, "") ", "
        REC(256, 8, 1.05, "") ", " REC(256, 16, 1.00, "") ", " REC(256, 32, 1.04, "") ", "
        REC(512, 8, 1.02, "") ", " REC(512, 16, 1.50, "") ", " REC(512, 32, 1.00, "") ", "
        /* the time growing as n^3: ib 16 the best at both ends, ib 8 5% slower there */
        RECD(32, 16, 1.00) ", " RECD(32, 8, 1.05) ", " RECD(48, 16, 3.375) ", " RECD(48, 8, 3.544) "]}, "
        "{\"family\": \"f\", \"vendor\": \"V\", \"architecture\": \"A\", \"name\": \"default\", "
        "\"derived_from\": \"V/A/D (family f)\", \"chosen\": []}]}\n";
#undef REC
#undef RECD
    FILE *f = fopen(file, "w");
    CHECK(f && fputs(text, f) >= 0 && !fclose(f), "cannot write %s", file);
    int rc = RUN(NULL, "tune", "--rechoose", file);
    CHECK(rc == 0, "bchol tune --rechoose: exit %d", rc);
    cJSON *root = load(file);
    CHECK(root != NULL, "the rechosen file is not JSON");
    if (!root) return;
    /* n -> the ib chosen: 16 takes 8 (4 failed at 32, 16 is 8% slower at 16); 32 its
     * fastest, 16; 64 takes 8 (16 is faster at 128 but no finalist); 128, 256 (32 is 4%
     * slower there) and 512 their fastest; double 32 and 48 their fastest, 16 */
    const char prec[8] = {'s', 's', 's', 's', 's', 's', 'd', 'd'};
    const int sizes[8] = {16, 32, 64, 128, 256, 512, 32, 48}, want[8] = {8, 16, 8, 16, 16, 32, 16, 16};
    /* between: 17-31 take 16 (the entry's own 8 is 1.33x at 32; 16, within 1.08x at both
     * ends, runs one panel of 32 at every size between and is predicted faster there);
     * 33-63 none (8 is 1.33x at 32, so only the entry's own is a candidate); 65-127 take 16
     * (the own 8 is 2x at 128); 129-255 none (the own 16 is the best at both ends, 8 is 2x
     * at 128); 257-511 take 32 (the own 16 is 1.5x at 512; 8 and 32 are within 1.05x, and
     * with times that hardly grow, 32 is predicted faster at every size); double 33-40
     * take 8, although 16 is the best at both ends: 16 pads every size between to 48, 8
     * those up to 40 to 40; 41-47 keep 16, which 8 pads to 48 too (the rule before, the
     * smallest worse ratio at the ends, kept 16 at all of them); 512 and double 48 have no
     * next size */
    const int want_between[8] = {16, 0, 16, 0, 32, 0, 8, 0}, want_to[8] = {31, 0, 127, 0, 511, 0, 40, 0};
    for (int d = 0; d < 2; d++) {
        const cJSON *chosen = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "devices"), d), "chosen");
        CHECK(cJSON_GetArraySize(chosen) == 8, "section %d: %d chosen entries, wanted 8", d, cJSON_GetArraySize(chosen));
        const cJSON *e;
        int seen = 0;
        cJSON_ArrayForEach(e, chosen)
        {
            const int n = cJSON_GetObjectItemCaseSensitive(e, "n")->valueint;
            const char p = cJSON_GetObjectItemCaseSensitive(e, "precision")->valuestring[0];
            const int ib = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "params"), "ib")->valueint;
            const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "between"),
                        *to = cJSON_GetObjectItemCaseSensitive(e, "between_to");
            const int bib = b ? cJSON_GetObjectItemCaseSensitive(b, "ib")->valueint : 0,
                      bto = cJSON_IsNumber(to) ? to->valueint : 0;
            for (int i = 0; i < 8; i++)
                if (sizes[i] == n && prec[i] == p) {
                    seen++;
                    CHECK(ib == want[i], "section %d, %c n = %d: ib %d chosen, wanted %d", d, p, n, ib, want[i]);
                    CHECK(bib == want_between[i] && bto == want_to[i],
                          "section %d, %c n = %d: between ib %d up to %d, wanted %d up to %d (0: none)", d, p, n,
                          bib, bto, want_between[i], want_to[i]);
                }
        }
        CHECK(seen == 8, "section %d: %d of the 8 entries found", d, seen);
    }
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--rechoose", dir);
    CHECK(rc == 1, "bchol tune --rechoose on a folder: exit %d, wanted 1", rc);
    /* Sizes measured next to each other (the dense probes): the entry at 100 serves 100
     * alone, so it keeps its best, ib 8, although ib 16 is within 3% there and best at 101 */
#define REC(n, ib, ms) "{\"precision\": \"s\", \"variant\": \"fused\", \"n\": " #n ", \"params\": " \
    "{\"ib\": " #ib ", \"tbc\": 1, \"rpt\": 1, \"shape\": \"fixed\"}, \"ms\": " #ms "}"
    const char *adjacent =
        "{\"format\": \"bchol-tuning\", \"format_version\": 1, \"bchol_version\": \"test\", \"devices\": ["
        "{\"family\": \"f\", \"vendor\": \"V\", \"architecture\": \"A\", \"name\": \"D\", \"chosen\": [], "
        "\"tried\": [" REC(100, 8, 1.00) ", " REC(100, 16, 1.02) ", " REC(101, 8, 2.0) ", " REC(101, 16, 1.0) "]}]}\n";
#undef REC
    f = fopen(file, "w");
    CHECK(f && fputs(adjacent, f) >= 0 && !fclose(f), "cannot write %s", file);
    rc = RUN(NULL, "tune", "--rechoose", file);
    root = load(file);
    const cJSON *e = NULL, *x;
    if (root)
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
                                                                   root, "devices"), 0), "chosen"))
            if (cJSON_GetObjectItemCaseSensitive(x, "n")->valueint == 100) e = x;
    const int ib100 = e ? cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "params"), "ib")->valueint
                        : 0;
    CHECK(rc == 0 && ib100 == 8, "adjacent sizes 100 and 101: exit %d, ib %d chosen at 100, wanted 8", rc, ib100);
    cJSON_Delete(root);
}

/* A default section derived from two devices (one tuned fused, the other getrf): --rechoose
 * takes each one's entries into it and keeps the other's, both named as its sources; the
 * stale fused entry gives way to the fused device's. */
static void derived(void)
{
    const char *text =
        "{\"format\": \"bchol-tuning\", \"format_version\": 1, \"bchol_version\": \"test\", \"devices\": ["
        "{\"family\": \"f\", \"vendor\": \"V\", \"architecture\": \"A1\", \"name\": \"D\", \"chosen\": [], "
        "\"tried\": [{\"precision\": \"s\", \"variant\": \"fused\", \"n\": 16, \"params\": {\"ib\": 4, \"tbc\": 1, "
        "\"rpt\": 1, \"shape\": \"fixed\"}, \"ms\": 1.0}]}, "
        "{\"family\": \"f\", \"vendor\": \"V\", \"architecture\": \"A2\", \"name\": \"D\", \"chosen\": [], "
        "\"tried\": [{\"precision\": \"s\", \"variant\": \"getrf-workitem\", \"n\": 16, \"params\": {\"tbc\": 4}, "
        "\"ms\": 1.0}]}, "
        "{\"family\": \"f\", \"vendor\": \"V\", \"architecture\": \"default\", \"name\": \"default\", "
        "\"derived_from\": \"V/A2/D (family f)\", \"derived_also\": [\"V/A1/D (family f)\"], \"chosen\": ["
        "{\"precision\": \"s\", \"variant\": \"fused\", \"n\": 16, \"params\": {\"ib\": 8, \"tbc\": 1, \"rpt\": 1, "
        "\"shape\": \"fixed\"}, \"ms\": 9.0}]}]}\n";
    FILE *f = fopen(file, "w");
    CHECK(f && fputs(text, f) >= 0 && !fclose(f), "cannot write %s", file);
    int rc = RUN(NULL, "tune", "--rechoose", file);
    cJSON *root = load(file);
    CHECK(rc == 0 && root, "bchol tune --rechoose: exit %d", rc);
    if (!root) return;
    const cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "devices"), 2), *e;
    int fused_ib = 0, getrf_tbc = 0, count = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(d, "chosen"))
    {
        const char *v = cJSON_GetObjectItemCaseSensitive(e, "variant")->valuestring;
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "params");
        count++;
        if (!strcmp(v, "fused")) fused_ib = cJSON_GetObjectItemCaseSensitive(p, "ib")->valueint;
        if (!strcmp(v, "getrf-workitem")) getrf_tbc = cJSON_GetObjectItemCaseSensitive(p, "tbc")->valueint;
    }
    char *also = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(d, "derived_also"));
    const char *from = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "derived_from"));
    CHECK(count == 2 && fused_ib == 4 && getrf_tbc == 4,
          "derived: %d entries, fused ib %d, getrf-workitem tbc %d (wanted 2, 4, 4)", count, fused_ib, getrf_tbc);
    CHECK(from && also && ((strstr(from, "A1") && strstr(also, "A2")) || (strstr(from, "A2") && strstr(also, "A1"))),
          "derived: from \"%s\", also %s", from ? from : "", also ? also : "none");
    free(also);
    cJSON_Delete(root);
}

/* A vbatched sweep added to a file of a fused sweep at the same size: its confirmation
 * round is its own, so the fused records (confirm_ms included) stay as they were; the
 * vbatched records are confirmed, the ONE_LAUNCH schedule among them. */
static void vbatched_round(void)
{
    int rc = RUN(NULL, "tune", "--output", file, "--n", "8", "--precision", "s", "--variants", "fused", "--set",
                 "ib=4,8", "--set", "tbc=1", "--set", "rpt=2", "--set", "shape=fixed", "--batch", "64", "--reps", "2",
                 "--seed", "16", "--quiet");
    cJSON *fused = load(file);
    char *fused_text = fused ? cJSON_PrintUnformatted(tried(fused)) : NULL;
    const int nfused = fused ? cJSON_GetArraySize(tried(fused)) : 0;
    int confirmed = 0;
    const cJSON *r;
    if (fused) cJSON_ArrayForEach(r, tried(fused)) confirmed += cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "confirm_ms"));
    CHECK(rc == 0 && nfused >= 2 && confirmed >= 2, "the fused sweep: exit %d, %d records, %d confirmed", rc, nfused,
          confirmed);
    cJSON_Delete(fused);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--variants", "vbatched", "--set", "ib=4", "--set", "tbc=1",
             "--set", "rpt=2", "--set", "shape=fixed", "--set", "etm=classic", "--set", "schedule=lazy,one-launch",
             "--set", "order=index", "--quiet");
    cJSON *root = load(file);
    CHECK(rc == 0 && root, "the vbatched sweep: exit %d", rc);
    if (!root) {
        free(fused_text);
        return;
    }
    CHECK(same_head(root, fused_text, nfused),
          "the fused records changed with the vbatched sweep (its confirmation round timed them again)");
    free(fused_text);
    int vb = 0, vb_confirmed = 0, one = 0;
    cJSON_ArrayForEach(r, tried(root))
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, "vbatched")) continue;
        vb++;
        vb_confirmed += cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "confirm_ms"));
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "params"), "schedule");
        one += cJSON_IsString(s) && !strcmp(s->valuestring, "one-launch") && !cJSON_GetObjectItemCaseSensitive(r, "failed");
    }
    CHECK(vb >= 2 && vb_confirmed >= 2 && one == 1, "vbatched: %d records, %d confirmed, %d one-launch (wanted 1)", vb,
          vb_confirmed, one);
    cJSON_Delete(root);
}

/* The sweep time at n of the configuration params in the file root, or -1. */
static double ms_at(cJSON *root, int n, const cJSON *params)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, tried(root))
    {
        if (cJSON_GetObjectItemCaseSensitive(r, "n")->valueint == n && ms_of(r) > 0 &&
            !cJSON_GetObjectItemCaseSensitive(r, "failed") &&
            cJSON_Compare(cJSON_GetObjectItemCaseSensitive(r, "params"), params, 1))
            return ms_of(r);
    }
    return -1;
}

/* The worse of the two ratios of params to the best at 4 and 6 (b4, b6), or -1 unless
 * measured at both. */
static double worse_at_ends(cJSON *root, const cJSON *params, double b4, double b6)
{
    const double m4 = ms_at(root, 4, params), m6 = ms_at(root, 6, params);
    return m4 > 0 && m6 > 0 ? fmax(m4 / b4, m6 / b6) : -1;
}

/* How many configurations measured at n (worse: measured at both ends, by their worse
 * ratio) do strictly better than value. */
static int rank_below(cJSON *root, int n, double value, int worse, double b4, double b6)
{
    int rank = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, tried(root))
    {
        if (cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != n || ms_of(r) <= 0 ||
            cJSON_GetObjectItemCaseSensitive(r, "failed"))
            continue;
        const double x = worse ? worse_at_ends(root, cJSON_GetObjectItemCaseSensitive(r, "params"), b4, b6) : ms_of(r);
        rank += x > 0 && x < value;
    }
    return rank;
}

/* The probes at n = 5 of --probe-between k on the grid 4, 6: each measured, one of them the
 * defaults, the others among the k fastest at 4 or at 6 or, measured at both, among the 3k
 * best by their worse ratio to the ends' best (ties on tiny GPU runs make the tuner's exact
 * choice among equals unknowable here); the fastest at each end among them; at most 3k
 * besides the defaults. Returns how many records n = 5 has. */
static int check_probes(cJSON *root, int k)
{
    double b[2] = {-1, -1};
    const cJSON *r;
    cJSON_ArrayForEach(r, tried(root))
    {
        const int n = cJSON_GetObjectItemCaseSensitive(r, "n")->valueint;
        if ((n == 4 || n == 6) && ms_of(r) > 0 && !cJSON_GetObjectItemCaseSensitive(r, "failed") &&
            (b[n == 6] < 0 || ms_of(r) < b[n == 6]))
            b[n == 6] = ms_of(r);
    }
    CHECK(b[0] > 0 && b[1] > 0, "no measurements at 4 and 6");
    int at5 = 0, defaults = 0, fastest[2] = {0, 0};
    cJSON_ArrayForEach(r, tried(root))
    {
        if (cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != 5) continue;
        at5++;
        CHECK(ms_of(r) > 0, "n = 5, %s: not measured", key_of(r));
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(r, "params");
        const double m4 = ms_at(root, 4, q), m6 = ms_at(root, 6, q), worse = worse_at_ends(root, q, b[0], b[1]);
        fastest[0] |= m4 == b[0];
        fastest[1] |= m6 == b[1];
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "default"))) {
            defaults++;
            continue;
        }
        const int probe = (m4 > 0 && rank_below(root, 4, m4, 0, b[0], b[1]) < k) ||
                          (m6 > 0 && rank_below(root, 6, m6, 0, b[0], b[1]) < k) ||
                          (worse > 0 && rank_below(root, 4, worse, 1, b[0], b[1]) < 3 * k);
        CHECK(probe, "k = %d: n = 5 measured %s, not a probe", k, key_of(r));
    }
    CHECK(defaults == 1 && fastest[0] && fastest[1] && at5 - defaults <= 3 * k,
          "k = %d: n = 5 has %d records, %d of them the defaults; the fastest at 4 %s, at 6 %s", k, at5, defaults,
          fastest[0] ? "among them" : "missing", fastest[1] ? "among them" : "missing");
    return at5;
}

/* --probe-between 1 on the grid 4, 6: once both sizes are measured, n = 5 is measured with
 * the probes only (check_probes); it gets an entry of its own that the dispatcher takes at
 * 5; a resume measures nothing again; --probes-only adds the probes of k = 2 to the file
 * without sweeping its grid. */
static void probes(void)
{
    int rc = RUN(NULL, "tune", "--output", file, "--n", "4,6", "--precision", "s", "--variants", "fused", "--set",
                 "ib=4", "--set", "tbc=1,2", "--set", "rpt=1,2", "--set", "shape=fixed", "--batch", "256", "--reps",
                 "2", "--seed", "17", "--probe-between", "1", "--quiet", "--max-configs", "4");
    const int stopped = count_tried();
    CHECK(rc == 3 && stopped == 4, "stopped in the grid: exit %d, %d records (wanted 3, 4)", rc, stopped);
    /* the grid, then the probes: two sweeps, each with its build processes */
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--jobs", "2", "--quiet");
    cJSON *root = load(file);
    CHECK(rc == 0 && root, "the run with probes: exit %d", rc);
    if (!root) return;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "tuner"), "probe_between");
    CHECK(cJSON_IsNumber(k) && k->valueint == 1, "probe_between is not recorded in the tuner's settings");
    const int at5 = check_probes(root, 1);
    /* n = 5's own entry, which the dispatcher takes there */
    const cJSON *e, *entry5 = NULL;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(section(root), "chosen"))
    {
        if (cJSON_GetObjectItemCaseSensitive(e, "n")->valueint == 5) entry5 = e;
    }
    CHECK(entry5 != NULL, "no chosen entry at n = 5");
    bchol_context *ctx = entry5 ? context_with(file) : NULL;
    if (ctx) {
        bchol_params p5, dflt = {0};
        CHECK(bchol_potrf_params(ctx, 's', 5, &p5, NULL) == BCHOL_SUCCESS && has_entry_fields(&p5, entry5, 5, &dflt),
              "the dispatcher does not take n = 5's entry at 5 (ib %d tbc %d rpt %d)", p5.ib, p5.tbc, p5.rpt);
        bchol_context_destroy(ctx);
    }
    unsetenv("BCHOL_TUNING_FILE");
    const int count = cJSON_GetArraySize(tried(root)), grid = count - at5; /* the probes came last */
    cJSON *head = cJSON_CreateArray();
    for (int i = 0; i < grid; i++) cJSON_AddItemToArray(head, cJSON_Duplicate(cJSON_GetArrayItem(tried(root), i), 1));
    char *before = cJSON_PrintUnformatted(head);
    cJSON_Delete(head);
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet");
    CHECK(rc == 0 && count_tried() == count, "a resume of the complete run: exit %d, %d records, wanted %d", rc,
          count_tried(), count);
    if (count_tried() > count) { /* which: the plan of the probes was not made again the same */
        root = load(file);
        for (int i = count; root && i < cJSON_GetArraySize(tried(root)); i++)
            fprintf(stderr, "  measured again: %s\n", key_of(cJSON_GetArrayItem(tried(root), i)));
        cJSON_Delete(root);
    }
    /* --probes-only with k = 2: no grid sweep (its records stay as they were, confirmation
     * times included); k = 2's probes, which hold k = 1's */
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--probes-only", "--probe-between", "2", "--quiet");
    root = load(file);
    CHECK(rc == 0 && root && same_head(root, before, grid), "--probes-only: exit %d, or the grid's records changed",
          rc);
    if (root) CHECK(check_probes(root, 2) >= at5, "--probes-only --probe-between 2 lost records at 5");
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--probes-only", "--quiet");
    CHECK(rc == 2, "--probes-only without --probe-between: exit %d, wanted 2", rc);
    free(before);
    cJSON_Delete(root);
}

static void save_json(const cJSON *root, const char *path)
{
    char *text = cJSON_Print(root);
    FILE *f = fopen(path, "w");
    CHECK(f && text && fputs(text, f) >= 0 && !fclose(f), "cannot write %s", path);
    free(text);
}

/* The configurations measured at n = 5 in file path, as one string in a canonical order. */
static char *probes_at5(const char *path)
{
    cJSON *root = load(path), *keys = cJSON_CreateArray();
    const cJSON *r;
    if (root)
        cJSON_ArrayForEach(r, tried(root))
        {
            if (cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != 5) continue;
            const char *k = key_of(r);
            int at = 0; /* insertion in order */
            while (at < cJSON_GetArraySize(keys) && strcmp(cJSON_GetArrayItem(keys, at)->valuestring, k) < 0) at++;
            cJSON_InsertItemInArray(keys, at, cJSON_CreateString(k));
        }
    char *text = cJSON_PrintUnformatted(keys);
    cJSON_Delete(keys);
    cJSON_Delete(root);
    return text;
}

/* The probes' plan does not depend on the order of the file's records: on the grid 4, 6
 * with every time at each size made equal, --probes-only --probe-between 1 measures the
 * same configurations at n = 5 on the file and on the file with its records reversed
 * (ties ordered by the records' order made a resume plan other probes than the run). */
static void probe_ties(void)
{
    int rc = RUN(NULL, "tune", "--output", file, "--n", "4,6", "--precision", "s", "--variants", "fused", "--set",
                 "ib=4", "--set", "tbc=1,2", "--set", "rpt=1,2", "--set", "shape=fixed", "--batch", "256", "--reps",
                 "2", "--seed", "17", "--quiet");
    cJSON *root = load(file);
    CHECK(rc == 0 && root, "the grid: exit %d", rc);
    if (!root) return;
    cJSON *r, *list = tried(root);
    cJSON_ArrayForEach(r, list)
    {
        cJSON_ReplaceItemInObjectCaseSensitive(r, "ms", cJSON_CreateNumber(1.0));
        cJSON_DeleteItemFromObjectCaseSensitive(r, "confirm_ms");
    }
    char reversed[4200];
    snprintf(reversed, sizeof reversed, "%s.reversed.json", file);
    save_json(root, file);
    const int count = cJSON_GetArraySize(list);
    for (int i = 0; i < count; i++) cJSON_InsertItemInArray(list, i, cJSON_DetachItemFromArray(list, count - 1));
    save_json(root, reversed);
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--probes-only", "--probe-between", "1", "--quiet");
    int rc2 = RUN(NULL, "tune", "--output", reversed, "--resume", "--probes-only", "--probe-between", "1", "--quiet");
    char *a = probes_at5(file), *b = probes_at5(reversed);
    CHECK(rc == 0 && rc2 == 0 && a && b && strcmp(a, "[]") && !strcmp(a, b),
          "exit %d and %d; probes at 5 %s, with the records reversed %s", rc, rc2, a ? a : "-", b ? b : "-");
    free(a);
    free(b);
    remove(reversed);
}

/* Sets the time of the records of one variant at n (0: every n), confirmation times gone:
 * ms, or by fused configuration 1 + tbc / 10 + rpt / 100 (flip: 0.5 at tbc 8, rpt 2), and 10 for
 * the backend's defaults (ib 8), so that no end offers them. */
static void set_times(cJSON *root, const char *variant, int n, double ms, int flip)
{
    cJSON *r;
    cJSON_ArrayForEach(r, tried(root))
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, variant) ||
            (n && cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != n))
            continue;
        double t = ms;
        if (ms <= 0) {
            const cJSON *prm = cJSON_GetObjectItemCaseSensitive(r, "params");
            const int tbc = cJSON_GetObjectItemCaseSensitive(prm, "tbc")->valueint;
            const int rpt = cJSON_GetObjectItemCaseSensitive(prm, "rpt")->valueint;
            t = 1 + tbc / 10.0 + rpt / 100.0;
            if (flip && tbc == 8 && rpt == 2) t = 0.5;
            if (cJSON_GetObjectItemCaseSensitive(prm, "ib")->valueint != 4) t = 10; /* the defaults: last */
        }
        cJSON_ReplaceItemInObjectCaseSensitive(r, "ms", cJSON_CreateNumber(t));
        cJSON_DeleteItemFromObjectCaseSensitive(r, "confirm_ms");
    }
}

/* The records of path at n: fused ones in *fused (those with tbc 8 and rpt 2 in *odd),
 * interleaved ones in *ilv. */
static void records_at(const char *path, int n, int *fused, int *odd, int *ilv)
{
    cJSON *root = load(path);
    *fused = *odd = *ilv = 0;
    const cJSON *r;
    if (root)
        cJSON_ArrayForEach(r, tried(root))
        {
            if (cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != n) continue;
            const char *v = cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring;
            const cJSON *prm = cJSON_GetObjectItemCaseSensitive(r, "params");
            *fused += !strcmp(v, "fused");
            *odd += !strcmp(v, "fused") && cJSON_GetObjectItemCaseSensitive(prm, "tbc")->valueint == 8 &&
                    cJSON_GetObjectItemCaseSensitive(prm, "rpt")->valueint == 2;
            *ilv += !strcmp(v, "interleaved");
        }
    cJSON_Delete(root);
}

/* --probe-every-to 8 on the grid 4, 8, its midpoint 6 measured too (records of the sweep
 * at 4, 6, 8 with set times; with --probes-only all of them stay candidates at 6, not only
 * the few that the midpoint's plan takes with --probe-between 1): 5 and 7 are probed between their nearest measured sizes
 * (4 and 6, 6 and 8). Fused takes 2 fastest at each and 2 more of its 8 configurations: the
 * one fastest at 6 alone (tbc 8, rpt 2, slowest at 4 and 8) among them. Interleaved takes
 * its fastest, unless its best at both is over 1.5x fused's (twice as slow: none; 1.4x:
 * probed); no defaults. With --probe-every-to 7 the interval does not qualify.
 * --probe-full-to: every fused configuration at the probed sizes up to it. --full-to:
 * every fused configuration up to its size whatever --fraction, the drawn ones above. */
static void probe_every(void)
{
    int rc = RUN(NULL, "tune", "--output", file, "--n", "4,6,8", "--precision", "s", "--variants",
                 "fused,interleaved", "--set", "ib=4", "--set", "tbc=1,2,4,8", "--set", "rpt=1,2", "--set",
                 "shape=fixed", "--set", "inb=2", "--set", "looking=left,right", "--set", "unroll=tiles", "--set",
                 "chunking=chunked", "--set", "chunk=16", "--batch", "256", "--reps", "2", "--seed", "17",
                 "--quiet");
    cJSON *root = load(file);
    CHECK(rc == 0 && root, "the grid: exit %d", rc);
    if (!root) return;
    char slow[4200], near[4200], mid[4200];
    snprintf(slow, sizeof slow, "%s.slow.json", file);
    snprintf(near, sizeof near, "%s.near.json", file);
    snprintf(mid, sizeof mid, "%s.mid.json", file);
    set_times(root, "fused", 0, 0, 0);
    set_times(root, "fused", 6, 0, 1);
    set_times(root, "interleaved", 0, 2.2, 0);
    save_json(root, slow);
    save_json(root, mid);
    set_times(root, "interleaved", 0, 1.5, 0);
    save_json(root, near);
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", slow, "--resume", "--probes-only", "--n", "4,8", "--probe-between", "1",
             "--probe-every-to", "8", "--quiet");
    int rc2 = RUN(NULL, "tune", "--output", near, "--resume", "--probes-only", "--n", "4,8", "--probe-between", "1",
                  "--probe-every-to", "8", "--quiet");
    int rc3 = RUN(NULL, "tune", "--output", mid, "--resume", "--probes-only", "--n", "4,8", "--probe-between", "1",
                  "--probe-every-to", "7", "--quiet");
    CHECK(rc == 0 && rc2 == 0 && rc3 == 0, "--probes-only --probe-every-to: exit %d, %d and %d", rc, rc2, rc3);
    for (int n = 5; n <= 7; n += 2) {
        int fused, odd, ilv, fused2, odd2, ilv2, fused3, odd3, ilv3;
        records_at(slow, n, &fused, &odd, &ilv);
        records_at(near, n, &fused2, &odd2, &ilv2);
        records_at(mid, n, &fused3, &odd3, &ilv3);
        CHECK(fused >= 4 && fused <= 6 && odd == 1 && fused2 == fused,
              "n = %d: %d and %d fused records, %d of tbc 8 rpt 2 (wanted 4 to 6, the same, 1)", n, fused, fused2,
              odd);
        CHECK(ilv == 0, "n = %d, interleaved at 2.2x: %d interleaved records (wanted 0)", n, ilv);
        CHECK(ilv2 >= 1 && ilv2 <= 2, "n = %d, interleaved at 1.5x: %d interleaved records (wanted its fastest "
              "at each end)", n, ilv2);
        CHECK(fused3 + ilv3 == 0, "n = %d, --probe-every-to 7: %d fused and %d interleaved records (wanted none)",
              n, fused3, ilv3);
    }
    root = load(near);
    const cJSON *tn = root ? cJSON_GetObjectItemCaseSensitive(root, "tuner") : NULL;
    const cJSON *pe = cJSON_GetObjectItemCaseSensitive(tn, "probe_every_to");
    CHECK(cJSON_IsNumber(pe) && pe->valueint == 8, "probe_every_to is not recorded in the tuner's settings");
    cJSON_Delete(root);
    /* --probe-full-to 5 with --full-to fused: every fused configuration (8, and the
     * defaults if they are not among them) at 5, the candidates at 7 */
    char full[4200];
    snprintf(full, sizeof full, "%s.full.json", file);
    root = load(slow);
    if (root) save_json(root, full);
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", full, "--resume", "--probes-only", "--n", "4,8", "--probe-between", "1",
             "--probe-every-to", "8", "--full-to", "fused=4", "--probe-full-to", "5", "--quiet");
    int fused5, odd5, ilv5, fused7, odd7, ilv7;
    records_at(full, 5, &fused5, &odd5, &ilv5);
    records_at(full, 7, &fused7, &odd7, &ilv7);
    root = load(full);
    tn = root ? cJSON_GetObjectItemCaseSensitive(root, "tuner") : NULL;
    pe = cJSON_GetObjectItemCaseSensitive(tn, "probe_full_to");
    CHECK(rc == 0 && fused5 >= 8 && fused5 <= 9 && fused7 >= 4 && fused7 <= 6 && cJSON_IsNumber(pe) && pe->valueint == 5,
          "--probe-full-to 5: exit %d, %d fused records at 5 (wanted all 8, and the defaults), %d at 7 (wanted 4 "
          "to 6), probe_full_to %s recorded", rc, fused5, fused7, cJSON_IsNumber(pe) ? "" : "not");
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", full, "--probes-only", "--probe-between", "1", "--probe-full-to", "5");
    CHECK(rc == 2, "--probe-full-to without --full-to: exit %d, wanted 2", rc);
    remove(full);
    rc = RUN(NULL, "tune", "--output", near, "--resume", "--probes-only", "--probe-every-to", "8", "--probe-between",
             "0", "--quiet");
    CHECK(rc == 2, "--probe-every-to without --probe-between: exit %d, wanted 2", rc);
    /* --full-to, in the plan (a dry run measures nothing) */
    char plan[4200];
    snprintf(plan, sizeof plan, "%s.plan.txt", file);
    rc = RUN(plan, "tune", "--dry-run", "--n", "4,8", "--precision", "s", "--variants", "fused", "--set", "ib=4",
             "--set", "tbc=1,2,4,8", "--set", "rpt=1,2", "--set", "shape=fixed,shrink", "--fraction", "0.01",
             "--seed", "17", "--full-to", "fused=4");
    int at[9] = {0};
    FILE *fp = fopen(plan, "r");
    char line[512];
    while (fp && fgets(line, sizeof line, fp)) {
        int n;
        if (sscanf(line, "s fused %d", &n) == 1 && n > 0 && n < 9) at[n]++;
    }
    if (fp) fclose(fp);
    CHECK(rc == 0 && at[4] >= 16 && at[8] >= 1 && at[8] < 16,
          "--full-to fused=4 --fraction 0.01: exit %d, %d configurations at n = 4 (wanted all 16 and the "
          "defaults), %d at 8 (wanted the drawn few and the defaults)", rc, at[4], at[8]);
    rc = RUN(NULL, "tune", "--dry-run", "--n", "4", "--full-to", "fast=4");
    rc2 = RUN(NULL, "tune", "--dry-run", "--n", "4", "--full-to", "fused=");
    CHECK(rc == 2 && rc2 == 2, "--full-to fast=4 and fused=: exit %d and %d, wanted 2", rc, rc2);
    remove(slow);
    remove(near);
    remove(mid);
    remove(plan);
}

/* The cases besides the default one: argv[2], the label of their last line, the code. */
/* ---- the output as a shared place, and what is read from files ----------------------------- */

/* A small sweep: n = 4, fused ib 4, rpt 1 or 2 (and the defaults). */
#define SWEEP_SMALL "--n", "4", "--precision", "s", "--variants", "fused", "--set", "ib=4", "--set", "tbc=1", \
                    "--set", "rpt=1,2", "--set", "shape=fixed", "--reps", "2", "--seed", "11", "--quiet"

/* Runs bchol with args, its stderr into err; the exit status. */
static int run_err(char *const *args, const char *err)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        util_icd_env_restore();
        if (!freopen(err, "w", stderr)) _exit(127);
        execv(bchol, args);
        _exit(127);
    }
    return finish(pid);
}
#define RUN_ERR(err, ...) run_err((char *const[]){(char *)bchol, __VA_ARGS__, NULL}, err)

/* The tuner's output: a second tuner (or --rechoose) on a file being tuned refuses at once,
 * naming the holder, and runs once the holder is gone; the temporary file is no planted
 * link's target, and none is left; an output that cannot be written is refused before the
 * sweep. */
static void output_file(void)
{
    char err[160], victim[160], link_path[200], lock[160];
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    snprintf(lock, sizeof lock, "%s.lock", file);

    /* 1. the first tuner, paused after each configuration so that it stays a while */
    setenv("BCHOL_TUNE_PAUSE_MS", "1500", 1);
    pid_t first = start((char *const[]){(char *)bchol, "tune", "--output", file, SWEEP_SMALL, NULL}, NULL);
    unsetenv("BCHOL_TUNE_PAUSE_MS");
    int seen = 0;
    for (int i = 0; i < 6000 && seen < 1; i++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
        seen = count_tried();
    }
    CHECK(seen >= 1, "the first tuner saved nothing");
    const double t0 = seconds_now();
    int rc = RUN_ERR(err, "tune", "--output", file, "--resume", SWEEP_SMALL);
    const double took = seconds_now() - t0;
    char holder[64];
    snprintf(holder, sizeof holder, "pid %ld", (long)first);
    printf("a second tuner on the same output: exit %d after %.2f s\n", rc, took);
    CHECK(rc == 2, "a second tuner on the same output: exit %d, wanted 2", rc);
    CHECK(file_contains(err, holder) && file_contains(err, "another bchol tune"),
          "the second tuner's message does not name the holder (%s)", holder);
    rc = RUN_ERR(err, "tune", "--rechoose", file);
    CHECK(rc == 2 && file_contains(err, holder), "--rechoose on a file being tuned: exit %d, wanted 2", rc);
    kill(first, SIGKILL);
    finish(first);
    /* the killed tuner's lock file stays (its lock does not: below) */
    struct stat st;
    CHECK(!stat(lock, &st), "no lock file %s", lock);

    /* 2. a link planted where the temporary file once went (OUTPUT.tmp.PID, PID known
     * before the tuner starts: the child waits for the link) */
    FILE *v = fopen(victim, "w");
    CHECK(v && fputs("untouched\n", v) >= 0 && !fclose(v), "cannot write %s", victim);
    int go[2];
    CHECK(!pipe(go), "pipe");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char c;
        close(go[1]);
        if (read(go[0], &c, 1) != 1) _exit(127);
        util_icd_env_restore();
        execv(bchol, (char *const[]){(char *)bchol, "tune", "--output", file, "--resume", "--max-configs", "1",
                                     SWEEP_SMALL, NULL});
        _exit(127);
    }
    close(go[0]);
    snprintf(link_path, sizeof link_path, "%s.tmp.%ld", file, (long)pid);
    CHECK(!symlink(victim, link_path), "cannot plant %s", link_path);
    CHECK(write(go[1], "x", 1) == 1, "cannot start the tuner");
    close(go[1]);
    rc = finish(pid);
    CHECK(rc == 0 || rc == 3, "the run after the kill: exit %d, wanted 0 or 3 (the lock died with its holder)", rc);
    CHECK(file_contains(victim, "untouched") && !file_contains(victim, "bchol-tuning"),
          "the tuner wrote through the link %s into %s", link_path, victim);
    cJSON *root = load(file);
    CHECK(root && cJSON_GetArraySize(tried(root)) >= 2, "the output lost its records");
    cJSON_Delete(root);
    DIR *d = opendir(dir);
    struct dirent *e;
    int left = 0;
    while (d && (e = readdir(d))) left += strstr(e->d_name, "tuning.json.tmp.") && e->d_name[0] == '.';
    if (d) closedir(d);
    CHECK(left == 0, "%d temporary files left in %s", left, dir);
    CHECK(stat(lock, &st) && errno == ENOENT, "a finished tuner left its lock file %s", lock);
    const mode_t mask = umask(0);
    umask(mask);
    CHECK(!stat(file, &st) && (st.st_mode & 0777) == (0666 & ~mask), "the output's mode is %o, wanted %o",
          (unsigned)(st.st_mode & 0777), (unsigned)(0666 & ~mask));
    unlink(link_path);

    /* 3. outputs that cannot be saved: refused at once, before any configuration */
    char nowhere[200];
    snprintf(nowhere, sizeof nowhere, "%s/no-such-folder/out.json", dir);
    const double t1 = seconds_now();
    rc = RUN_ERR(err, "tune", "--output", nowhere, SWEEP_SMALL);
    printf("an output in a missing folder: exit %d after %.2f s\n", rc, seconds_now() - t1);
    CHECK(rc == 2 && file_contains(err, "cannot"), "an output in a missing folder: exit %d, wanted 2", rc);
    CHECK(!file_contains(err, "configurations"), "an output in a missing folder: the sweep started");
    rc = RUN_ERR(err, "tune", "--output", dir, SWEEP_SMALL);
    CHECK(rc == 2 && file_contains(err, "is a folder"), "a folder as the output: exit %d, wanted 2", rc);
    remove(victim);
    remove(err);
    remove(lock);
    remove(file);
}

/* Writes root, with the value at tuner.key (or a record's field) replaced by the JSON text
 * value, to path. */
static void save_edited(const char *path, const char *list, const char *key, const char *value)
{
    cJSON *root = load(file);
    cJSON *obj = list ? cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(section(root), list), 0)
                      : cJSON_GetObjectItemCaseSensitive(root, "tuner");
    cJSON *v = cJSON_Parse(value);
    CHECK(obj && v, "test setup: %s.%s = %s", list ? list : "tuner", key, value);
    if (!obj || !v) {
        cJSON_Delete(v);
        cJSON_Delete(root);
        return;
    }
    if (cJSON_GetObjectItemCaseSensitive(obj, key)) cJSON_ReplaceItemInObjectCaseSensitive(obj, key, v);
    else cJSON_AddItemToObject(obj, key, v);
    save_json(root, path);
    cJSON_Delete(root);
}

/* What the tuner reads from files passes the command line's checks: a resumed file's
 * "tuner" settings (reps: -1 crashed, reps: 0 read past a buffer, a bad precision appended
 * garbage records), and the records --resume, --rechoose and --report compute with (an n of
 * 1e300 or INT_MAX: a double-to-int conversion, a 32 GiB allocation); the command line
 * itself takes integers written as integers only. */
static void input_checks(void)
{
    char edited[160], err[160];
    snprintf(edited, sizeof edited, "%s/edited.json", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    int rc = RUN(NULL, "tune", "--output", file, SWEEP_SMALL, "--max-configs", "1");
    CHECK(rc == 3, "the first configuration: exit %d, wanted 3", rc);

    /* 1. the file's settings, each bad in one way: refused, the field named, nothing run */
    static const struct {
        const char *key, *value;
    } settings[] = {
        {"reps", "-1"},           {"reps", "0"},          {"reps", "1.5"},         {"reps", "1e300"},
        {"warmup", "0"},        {"precisions", "\"x\""}, {"precisions", "\"sdx\""},
        {"precisions", "7"},      {"uplo", "\"Lower\""},  {"batch", "-5"},         {"batch", "1e30"},
        {"fraction", "2"},        {"fraction", "0"},      {"seed", "-1"},          {"seed", "1e300"},
        {"sizes", "[0]"},         {"sizes", "[4, 1e300]"}, {"sizes", "[\"4\"]"},   {"sizes", "{}"},
        {"nrhs", "[0]"},          {"variants", "\"fused,bogus\""}, {"set", "{\"tbc\": [0]}"},
        {"set", "{\"bogus\": [1]}"}, {"set", "{\"ib\": 3}"}, {"set", "[1]"},      {"full_to", "{\"fused\": 0}"},
        {"full_to", "{\"bogus\": 4}"}, {"probe_between", "65"}, {"probe_every_to", "-1"},
        {"also_default", "\"device\""}, {"statistic", "\"mean\""}, {"probe_full_to", "2e6"},
    };
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        save_edited(edited, NULL, settings[i].key, settings[i].value);
        const int before = count_tried();
        rc = RUN_ERR(err, "tune", "--output", edited, "--resume", "--quiet");
        char needle[64];
        snprintf(needle, sizeof needle, "tuner.%s", settings[i].key);
        cJSON *root = load(edited);
        const int after = root ? cJSON_GetArraySize(tried(root)) : -1;
        cJSON_Delete(root);
        printf("tuner.%s = %s: exit %d\n", settings[i].key, settings[i].value, rc);
        CHECK(rc == 1 && file_contains(err, needle), "tuner.%s = %s: exit %d, wanted 1 with a message naming %s",
              settings[i].key, settings[i].value, rc, needle);
        CHECK(after == before, "tuner.%s = %s: the file has %d records, had %d", settings[i].key, settings[i].value,
              after, before);
    }
    /* a value given on the command line is the one checked (and kept) */
    save_edited(edited, NULL, "reps", "-1");
    rc = RUN_ERR(err, "tune", "--output", edited, "--resume", "--quiet", "--reps", "2", "--max-configs", "1");
    CHECK(rc == 0 || rc == 3, "tuner.reps = -1 with --reps 2: exit %d, wanted 0 or 3", rc);
    /* the file as written resumes */
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet", "--max-configs", "1");
    CHECK(rc == 0 || rc == 3, "the file as written: exit %d, wanted 0 or 3", rc);

    /* 2. records: an n no size can be, and other fields --report and --rechoose compute with */
    static const struct {
        const char *list, *key, *value, *needle;
    } records[] = {
        {"tried", "n", "1e300", "tried[0].n"},        {"tried", "n", "2147483647", "tried[0].n"},
        {"tried", "n", "-3", "tried[0].n"},           {"tried", "n", "4.5", "tried[0].n"},
        {"tried", "nrhs", "0", "tried[0].nrhs"},      {"tried", "batch", "0", "tried[0].batch"},
        {"tried", "ms", "\"fast\"", "tried[0].ms"},   {"tried", "precision", "\"q\"", "tried[0].precision"},
        {"chosen", "n", "1e300", "chosen[0].n"},      {"chosen", "between_to", "2", "chosen[0].between_to"},
    };
    for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
        save_edited(edited, records[i].list, records[i].key, records[i].value);
        const double t0 = seconds_now();
        const int rechoose = RUN_ERR(err, "tune", "--rechoose", edited);
        const int rechoose_named = file_contains(err, records[i].needle);
        const int report = RUN_ERR(err, "tune", "--report", edited);
        const int report_named = file_contains(err, records[i].needle);
        const int resume = RUN_ERR(err, "tune", "--output", edited, "--resume", "--quiet");
        const int resume_named = file_contains(err, records[i].needle);
        printf("%s[0].%s = %s: --rechoose exit %d, --report %d, --resume %d (%.2f s)\n", records[i].list,
               records[i].key, records[i].value, rechoose, report, resume, seconds_now() - t0);
        CHECK(rechoose == 1 && rechoose_named && report == 1 && report_named && resume == 1 && resume_named,
              "%s[0].%s = %s: --rechoose exit %d, --report %d, --resume %d, wanted 1 naming %s", records[i].list,
              records[i].key, records[i].value, rechoose, report, resume, records[i].needle);
    }

    /* 3. the command line: integers written as integers, values the option takes */
    static const char *const options[][2] = {
        {"--reps", "abc"},  {"--reps", "1.5"},    {"--reps", "0"},         {"--reps", "99999999999"},
        {"--batch", "12x"}, {"--batch", "-1"},    {"--uplo", "Lower"},     {"--seed", "-1"},
        {"--n", "0"},       {"--n", "4:x"},       {"--variants", "bogus"}, {"--warmup", ""},
        {"--fraction", "nan"}, {"--jobs", "-2"},  {"--set", "ib=4,"},      {"--max-configs", "x"},
    };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        rc = RUN_ERR(err, "tune", "--output", edited, (char *)options[i][0], (char *)options[i][1], "--dry-run");
        CHECK(rc == 2 && file_contains(err, options[i][0]), "%s %s: exit %d, wanted 2 naming the option",
              options[i][0], options[i][1], rc);
    }
    remove(edited);
    remove(err);
    remove(file);
}

/* Whether the device the tests run on is a GPU (the tuner sweeps regs there only). */
static int device_is_gpu(void)
{
    bchol_context *ctx;
    bchol_device_info d;
    if (bchol_context_create(NULL, &ctx)) return 0;
    const int gpu = !bchol_context_device_info(ctx, &d) && (d.type & CL_DEVICE_TYPE_GPU);
    bchol_context_destroy(ctx);
    return gpu;
}

/* getrf's plan (--variants getrf) at n = 8 and 24: only getrf's variants (regs on GPUs
 * only), each record checked and timed, entries for each variant at 24; a resume measures
 * nothing again; the dispatcher and bench --routine getrf|gesv --explain name the fastest
 * entry at 24. */
static void getrf_run(void)
{
    char out[160];
    const int gpu = device_is_gpu();
    snprintf(out, sizeof out, "%s/plan.txt", dir);
    int rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--precision", "s", "--variants", "getrf", "--dry-run");
    CHECK(rc == 0 && file_contains(out, "s getrf-fused 24 ") && file_contains(out, "s getrf-blocked 24 ") &&
              !file_contains(out, "s fused ") && !file_contains(out, "s solve ") &&
              file_contains(out, "s getrf-regs 24 ") == gpu,
          "dry run: exit %d, or its plan is not getrf's alone (regs: on GPUs only; this is %s)", rc,
          gpu ? "a GPU" : "not a GPU");
    /* regs alone: on a CPU an empty plan, not a failure */
    rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--precision", "s", "--variants", "getrf-regs",
             "--dry-run");
    CHECK(rc == 0 && file_contains(out, "# 0 configurations to measure") == !gpu &&
              file_contains(out, "s getrf-regs 24 ") == gpu,
          "dry run of getrf-regs: exit %d, or it plans something on a CPU, nothing on a GPU", rc);
    rc = RUN(NULL, "tune", "--output", file, "--n", "8,24", "--precision", "s", "--variants", "getrf", "--set",
             "lx=4,8", "--set", "tbc=1", "--batch", "64", "--reps", "2", "--seed", "16", "--quiet");
    CHECK(rc == 0, "the getrf sweep: exit %d", rc);
    /* the report compares getrf's variants with each other, under their own heading */
    rc = RUN(out, "tune", "--report", file);
    CHECK(rc == 0 && file_contains(out, "## s getrf crossovers") && file_contains(out, "crossovers (s getrf): ") &&
              !file_contains(out, "potrf crossovers"),
          "--report of the getrf sweep: exit %d, or no getrf crossover section of its own", rc);
    const int ntried = count_tried();
    cJSON *root = load(file);
    CHECK(root && ntried >= 6, "the file: %d records", ntried);
    if (!root) return;
    const cJSON *r;
    int panels = 0; /* workitem records with panels (nb > 1) */
    cJSON_ArrayForEach(r, tried(root))
    {
        const char *v = cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring;
        CHECK(!strncmp(v, "getrf-", 6), "a record of %s", v);
        const cJSON *failed = cJSON_GetObjectItemCaseSensitive(r, "failed");
        CHECK(!failed && ms_of(r) > 0, "%s %s: %s", v, key_of(r), failed ? failed->valuestring : "no time");
        const cJSON *nb = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "params"), "nb");
        panels += !strcmp(v, "getrf-workitem") && cJSON_IsNumber(nb) && nb->valueint > 1;
    }
    CHECK(gpu || panels > 0, "no getrf-workitem record with panels (nb > 1)");
    /* an entry per variant at 24 (regs: on GPUs; --set tbc=1 gives it values on CPUs too);
     * the fastest of them is what getrf runs there */
    const char *variants[] = {"getrf-fused", "getrf-blocked", "getrf-workitem", "getrf-regs"};
    const char *fastest = NULL;
    double best = -1;
    for (int k = 0; k < 4; k++) {
        int found = 0;
        cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(section(root), "chosen"))
        {
            if (strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, variants[k]) ||
                cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != 24)
                continue;
            found = 1;
            if (best < 0 || ms_of(r) < best) {
                best = ms_of(r);
                fastest = variants[k];
            }
        }
        CHECK(found || (k == 3 && !gpu), "no %s entry at n = 24", variants[k]);
    }
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet");
    CHECK(rc == 0 && count_tried() == ntried, "resume: exit %d, %d records (wanted %d)", rc, count_tried(), ntried);
    bchol_context *ctx = context_with(file);
    if (!ctx || !fastest) return;
    bchol_getrf_config c;
    const char *src = NULL;
    char want[96];
    snprintf(want, sizeof want, "s %s entry for n = 24, measured at this size", fastest);
    CHECK(!bchol_getrf_config_for(ctx, 's', 24, 24, &c, &src) && strstr(src, file) && strstr(src, want),
          "config_for at 24: \"%s\", wanted the %s entry", src ? src : "(null)", fastest);
    printf("n = 24: %s\n", src);
    bchol_context_destroy(ctx);
    char *routines[] = {"getrf", "gesv"};
    for (int k = 0; k < 2; k++) {
        rc = RUN(out, "bench", "--routine", routines[k], "--n", "24", "--batch", "32", "--reps", "1", "--warmup", "0",
                 "--explain");
        CHECK(rc == 0 && file_contains(out, "#   n = 24: getrf: tuning file") && file_contains(out, want),
              "bench --routine %s --explain: exit %d, or no line naming the %s entry", routines[k], rc, fastest);
    }
    unsetenv("BCHOL_TUNING_FILE");
}

/* The LU solve's plan (--variants getrs) at n = 8 and 24, nrhs 1: getrs alone (and never in
 * the default plan), each record checked and timed with its nrhs, an entry at 24; a resume
 * measures nothing again; bchol_getrs_params and bench --routine getrs --explain name it
 * (under BCHOL_LU_SOLVE_VARIANT=subst: the entries shape the substitution kernel, which a
 * CPU's backend does not run on its own). */
static void getrs_run(void)
{
    char out[160];
    snprintf(out, sizeof out, "%s/plan.txt", dir);
    setenv("BCHOL_LU_SOLVE_VARIANT", "subst", 1);
    int rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--nrhs", "1", "--precision", "s", "--variants",
                 "getrs", "--dry-run");
    CHECK(rc == 0 && file_contains(out, "s getrs 24 nrhs=1 ") && !file_contains(out, "s solve ") &&
              !file_contains(out, "s fused ") && !file_contains(out, "getrf-"),
          "dry run: exit %d, or its plan is not getrs' alone", rc);
    rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--nrhs", "1", "--precision", "s", "--dry-run");
    /* the default plan: on GPUs every Cholesky variant; on CPUs what the library runs there
     * on its own (the workitem kernel, the interleaved path), the others where named */
    const int gpu = device_is_gpu();
    CHECK(rc == 0 && !file_contains(out, "s getrs ") && file_contains(out, "s interleaved 8 ") &&
              file_contains(out, "s solve 24 nrhs=1 ") == gpu && file_contains(out, "s fused 24 ") == gpu &&
              file_contains(out, "s vbatched 24 ") == gpu && file_contains(out, "s interleaved-native 8 ") == gpu &&
              (gpu || file_contains(out, "s workitem 24 ")),
          "dry run of the default plan: exit %d, or it plans getrs, or not this %s's variants", rc,
          gpu ? "GPU" : "CPU");
    rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--nrhs", "1", "--precision", "s", "--variants",
             "solve,fused", "--dry-run");
    CHECK(rc == 0 && file_contains(out, "s solve 24 nrhs=1 ") && file_contains(out, "s fused 24 "),
          "dry run of solve and fused by name: exit %d, or one is missing", rc);
    rc = RUN(NULL, "tune", "--output", file, "--n", "8,24", "--nrhs", "1", "--precision", "s", "--variants", "getrs",
             "--set", "rpt=2,4", "--set", "tbc=1,2", "--batch", "64", "--reps", "2", "--seed", "16", "--quiet");
    CHECK(rc == 0, "the getrs sweep: exit %d", rc);
    const int ntried = count_tried();
    cJSON *root = load(file);
    CHECK(root && ntried >= 4, "the file: %d records", ntried);
    if (!root) return;
    const cJSON *r;
    cJSON_ArrayForEach(r, tried(root))
    {
        const char *v = cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring;
        CHECK(!strcmp(v, "getrs") && rec_nrhs(r) == 1, "a record of %s, nrhs %d", v, rec_nrhs(r));
        const cJSON *failed = cJSON_GetObjectItemCaseSensitive(r, "failed");
        CHECK(!failed && ms_of(r) > 0, "%s %s: %s", v, key_of(r), failed ? failed->valuestring : "no time");
    }
    int nt = 0, rpt = 0, tbc = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(section(root), "chosen"))
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, "getrs") ||
            cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != 24 || rec_nrhs(r) != 1)
            continue;
        const cJSON *prm = cJSON_GetObjectItemCaseSensitive(r, "params");
        nt = param_int(prm, "nt");
        rpt = param_int(prm, "rpt");
        tbc = param_int(prm, "tbc");
    }
    CHECK(nt > 0, "no getrs entry at n = 24, nrhs = 1");
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet");
    CHECK(rc == 0 && count_tried() == ntried, "resume: exit %d, %d records (wanted %d)", rc, count_tried(), ntried);
    bchol_context *ctx = context_with(file);
    if (!ctx || !nt) return;
    bchol_solve_params p = {0};
    const char *src = NULL;
    const char *want = "s getrs entry for n = 24, nrhs = 1 (this n, this nrhs)";
    CHECK(!bchol_getrs_params(ctx, 's', 'N', 24, 1, &p, &src) && strstr(src, file) && strstr(src, want) &&
              p.nt == nt && p.rpt == rpt && p.tbc == tbc,
          "getrs_params at 24: nt %d rpt %d tbc %d, \"%s\", wanted the entry's %d %d %d", p.nt, p.rpt, p.tbc,
          src ? src : "(null)", nt, rpt, tbc);
    printf("n = 24: %s\n", src);
    bchol_context_destroy(ctx);
    rc = RUN(out, "bench", "--routine", "getrs", "--n", "24", "--batch", "32", "--reps", "1", "--warmup", "0",
             "--explain");
    CHECK(rc == 0 && file_contains(out, "#   n = 24: getrs: tuning file") && file_contains(out, want),
          "bench --routine getrs --explain: exit %d, or no line naming the entry", rc);
    unsetenv("BCHOL_TUNING_FILE");
    unsetenv("BCHOL_LU_SOLVE_VARIANT");
}

/* The workitem LU solve's plan (--variants getrs-workitem: nt, vw) at n = 8 and 24, nrhs
 * 1 and 4: its records alone (never in the default plan), checked and timed with their
 * nrhs, an entry at 24 for each nrhs; a resume measures nothing again; bchol_getrs_params
 * and bench --routine getrs --explain name it (under BCHOL_LU_SOLVE_VARIANT=workitem, the
 * kernel the entries shape; PoCL's own). */
static void getrs_workitem_run(void)
{
    char out[160];
    snprintf(out, sizeof out, "%s/plan.txt", dir);
    int rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--nrhs", "1,4", "--precision", "s", "--variants",
                 "getrs-workitem", "--dry-run");
    CHECK(rc == 0 && file_contains(out, "s getrs-workitem 24 nrhs=4 ") && !file_contains(out, "s getrs 24") &&
              !file_contains(out, "s solve"),
          "dry run: exit %d, or its plan is not getrs-workitem's alone", rc);
    rc = RUN(NULL, "tune", "--output", file, "--n", "8,24", "--nrhs", "1,4", "--precision", "s", "--variants",
             "getrs-workitem", "--set", "vw=4,8", "--batch", "64", "--reps", "2", "--seed", "16", "--quiet");
    CHECK(rc == 0, "the getrs-workitem sweep: exit %d", rc);
    const int ntried = count_tried();
    cJSON *root = load(file);
    CHECK(root && ntried >= 4, "the file: %d records", ntried);
    if (!root) return;
    const cJSON *r;
    cJSON_ArrayForEach(r, tried(root))
    {
        const char *v = cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring;
        CHECK(!strcmp(v, "getrs-workitem") && (rec_nrhs(r) == 1 || rec_nrhs(r) == 4), "a record of %s, nrhs %d", v,
              rec_nrhs(r));
        const cJSON *failed = cJSON_GetObjectItemCaseSensitive(r, "failed");
        CHECK(!failed && ms_of(r) > 0, "%s %s: %s", v, key_of(r), failed ? failed->valuestring : "no time");
    }
    int nt = 0, vw = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(section(root), "chosen"))
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, "getrs-workitem") ||
            cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != 24 || rec_nrhs(r) != 4)
            continue;
        const cJSON *prm = cJSON_GetObjectItemCaseSensitive(r, "params");
        nt = param_int(prm, "nt");
        vw = param_int(prm, "vw");
    }
    CHECK(nt > 0 && (vw == 4 || vw == 8), "no getrs-workitem entry at n = 24, nrhs = 4 (nt %d, vw %d)", nt, vw);
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet");
    CHECK(rc == 0 && count_tried() == ntried, "resume: exit %d, %d records (wanted %d)", rc, count_tried(), ntried);
    setenv("BCHOL_LU_SOLVE_VARIANT", "workitem", 1);
    bchol_context *ctx = context_with(file);
    if (!ctx || !nt) {
        unsetenv("BCHOL_LU_SOLVE_VARIANT");
        return;
    }
    bchol_solve_params p = {0};
    const char *src = NULL;
    const char *want = "s getrs-workitem entry for n = 24, nrhs = 4 (this n, this nrhs)";
    char tail[32];
    snprintf(tail, sizeof tail, "-> nt=%d vw=%d", nt, vw);
    CHECK(!bchol_getrs_params(ctx, 's', 'N', 24, 4, &p, &src) && strstr(src, file) && strstr(src, want) &&
              strstr(src, tail) && p.variant == BCHOL_SOLVE_WORKITEM && p.nt == nt,
          "getrs_params at 24, nrhs 4: variant %d nt %d, \"%s\", wanted the entry's nt %d vw %d", (int)p.variant,
          p.nt, src ? src : "(null)", nt, vw);
    printf("n = 24, nrhs = 4: %s\n", src);
    bchol_context_destroy(ctx);
    rc = RUN(out, "bench", "--routine", "getrs", "--n", "24", "--nrhs", "4", "--batch", "32", "--reps", "1",
             "--warmup", "0", "--explain");
    CHECK(rc == 0 && file_contains(out, "#   n = 24: getrs: BCHOL_LU_SOLVE_VARIANT: the workitem solve; tuning file") &&
              file_contains(out, want),
          "bench --routine getrs --explain: exit %d, or no line naming the entry", rc);
    unsetenv("BCHOL_TUNING_FILE");
    unsetenv("BCHOL_LU_SOLVE_VARIANT");
}

/* Whether the device the tests run on has double precision (the tuner sweeps d there). */
static int device_has_fp64(void)
{
    bchol_context *ctx;
    bchol_device_info d;
    if (bchol_context_create(NULL, &ctx)) return 0;
    const int fp64 = !bchol_context_device_info(ctx, &d) && d.fp64;
    bchol_context_destroy(ctx);
    return fp64;
}

/* getri's plan (--variants getri: path, nb) at n = 8 and 24, s and d where the device has
 * it: getri alone (never in the default plan). Added to a file of a getrf-fused sweep at
 * n = 8: its confirmation round is its own, so getrf's records stay as they were (in
 * getrf's round its sweep would time them again). Every record checked and timed, the
 * solve, fused and blocked paths at each size; one chosen entry per precision and n,
 * variant "getri", a path with an nb that fits it, confirmed; a resume measures nothing
 * again; --report lists getri on its own, in no crossover; bchol_getri_config_for reads
 * the entry at 24. */
static void getri_run(void)
{
    static const char *const paths[] = {"auto", "solve", "fused", "blocked", NULL};
    static const int sizes[] = {8, 24};
    char out[160];
    snprintf(out, sizeof out, "%s/plan.txt", dir);
    const int fp64 = device_has_fp64();
    char *precisions = fp64 ? "sd" : "s";
    int rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--precision", "s", "--variants", "getri",
                 "--dry-run");
    CHECK(rc == 0 && file_contains(out, "s getri 24 {\"path\":\"blocked\",\"nb\":16}") &&
              file_contains(out, "s getri 8 {\"path\":\"fused\",\"nb\":0}") && !file_contains(out, "getrf-") &&
              !file_contains(out, "s getrs ") && !file_contains(out, "s fused "),
          "dry run: exit %d, or its plan is not getri's alone", rc);
    rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--precision", "s", "--dry-run");
    CHECK(rc == 0 && !file_contains(out, " getri "), "dry run of the default plan: exit %d, or it plans getri", rc);
    rc = RUN(NULL, "tune", "--output", file, "--n", "8", "--precision", "s", "--variants", "getrf-fused", "--set",
             "lx=4", "--set", "tbc=1", "--batch", "64", "--reps", "2", "--seed", "16", "--quiet");
    cJSON *getrf = load(file);
    char *getrf_text = getrf ? cJSON_PrintUnformatted(tried(getrf)) : NULL;
    const int ngetrf = getrf ? cJSON_GetArraySize(tried(getrf)) : 0;
    int confirmed = 0;
    const cJSON *r;
    if (getrf) cJSON_ArrayForEach(r, tried(getrf)) confirmed += cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r, "confirm_ms"));
    CHECK(rc == 0 && ngetrf >= 1 && confirmed >= 1, "the getrf-fused sweep: exit %d, %d records, %d confirmed", rc,
          ngetrf, confirmed);
    cJSON_Delete(getrf);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--n", "8,24", "--precision", precisions, "--variants",
             "getri", "--quiet");
    CHECK(rc == 0, "the getri sweep: exit %d", rc);
    const int ntried = count_tried();
    cJSON *root = load(file);
    CHECK(root && ntried >= ngetrf + 7 * (fp64 ? 2 : 1), "the file: %d records", ntried);
    if (!root) {
        free(getrf_text);
        return;
    }
    CHECK(same_head(root, getrf_text, ngetrf),
          "getrf's records changed with the getri sweep (its confirmation round timed them again)");
    free(getrf_text);
    /* records: each path at each precision and size, none failed, nb as its path takes */
    int seen[2][2][4] = {{{0}}};
    cJSON_ArrayForEach(r, tried(root))
    {
        const char *v = cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring;
        if (!strncmp(v, "getrf-", 6)) continue;
        CHECK(!strcmp(v, "getri") && !cJSON_GetObjectItemCaseSensitive(r, "nrhs"), "a record of %s, nrhs %d", v,
              rec_nrhs(r));
        const cJSON *failed = cJSON_GetObjectItemCaseSensitive(r, "failed");
        CHECK(!failed && ms_of(r) > 0, "%s %s: %s", v, key_of(r), failed ? failed->valuestring : "no time");
        const cJSON *prm = cJSON_GetObjectItemCaseSensitive(r, "params");
        const int path = param_label(prm, "path", paths), nb = param_int(prm, "nb");
        const int n = cJSON_GetObjectItemCaseSensitive(r, "n")->valueint;
        const int d = cJSON_GetObjectItemCaseSensitive(r, "precision")->valuestring[0] == 'd';
        CHECK(path >= 1 && (path == 3 ? nb >= 1 && nb <= n && nb <= 64 : nb == 0), "%s: path and nb", key_of(r));
        if (path >= 1 && (n == 8 || n == 24)) seen[d][n == 24][path]++;
    }
    for (int d = 0; d <= fp64; d++)
        for (int s = 0; s < 2; s++)
            for (int path = 1; path <= 3; path++)
                CHECK(seen[d][s][path] >= 1, "no %c getri record of path %s at n = %d", "sd"[d], paths[path],
                      sizes[s]);
    /* entries: one per precision and size, a path and its nb, from the confirmation round */
    int entry_path = 0, entry_nb = -1;
    for (int d = 0; d <= fp64; d++)
        for (int s = 0; s < 2; s++) {
            int count = 0;
            cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(section(root), "chosen"))
            {
                if (strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, "getri") ||
                    cJSON_GetObjectItemCaseSensitive(r, "precision")->valuestring[0] != "sd"[d] ||
                    cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != sizes[s])
                    continue;
                count++;
                const cJSON *prm = cJSON_GetObjectItemCaseSensitive(r, "params");
                const int path = param_label(prm, "path", paths), nb = param_int(prm, "nb");
                CHECK(path >= 1 && (path == 3 ? nb >= 1 && nb <= sizes[s] : nb == 0) &&
                          !cJSON_GetObjectItemCaseSensitive(r, "nrhs") &&
                          cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "confirmed")),
                      "the %c getri entry at n = %d: path %d nb %d, or not confirmed", "sd"[d], sizes[s], path, nb);
                if (!d && s) {
                    entry_path = path;
                    entry_nb = nb;
                }
            }
            CHECK(count == 1, "%d %c getri entries at n = %d (wanted 1)", count, "sd"[d], sizes[s]);
        }
    int getrf_entries = 0;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(section(root), "chosen"))
    {
        getrf_entries += !strcmp(cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring, "getrf-fused");
    }
    CHECK(getrf_entries == 1, "%d getrf-fused entries (wanted 1: n = 8)", getrf_entries);
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet");
    CHECK(rc == 0 && count_tried() == ntried, "resume: exit %d, %d records (wanted %d)", rc, count_tried(), ntried);
    /* the report: getri under its own heading, compared with no getrf variant */
    rc = RUN(out, "tune", "--report", file);
    CHECK(rc == 0 && file_contains(out, "## s getri\n") && file_contains(out, "## s getrf-fused\n") &&
              !file_contains(out, "crossovers"),
          "--report: exit %d, or no getri section, or getri in a crossover", rc);
    bchol_context *ctx = context_with(file);
    if (!ctx || !entry_path) {
        unsetenv("BCHOL_TUNING_FILE");
        if (ctx) bchol_context_destroy(ctx);
        return;
    }
    bchol_getri_config c = {0};
    const char *src = NULL;
    unsetenv("BCHOL_GETRI");
    CHECK(!bchol_getri_config_for(ctx, 's', 24, &c, &src) && src && strstr(src, file) &&
              (int)c.path == entry_path && c.nb == entry_nb,
          "getri_config_for at 24: path %d nb %d, \"%s\", wanted the entry's path %d nb %d", (int)c.path, c.nb,
          src ? src : "(null)", entry_path, entry_nb);
    printf("n = 24: %s\n", src ? src : "(null)");
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
}

/* The workitem solve's plan (solve-workitem: nt, vw) beside the substitution solve's at
 * n = 8 and 24, nrhs 1: in the default plan on CPUs only; records of both kinds, checked
 * and timed with their nrhs, in one confirmation round per nrhs (both kinds' finalists
 * confirmed); an entry of each kind at 24 with its time; a resume measures nothing again;
 * bchol_potrs_params and bench --solve --explain name the faster of the two entries. */
static void solve_workitem_run(void)
{
    char out[160];
    snprintf(out, sizeof out, "%s/plan.txt", dir);
    unsetenv("BCHOL_SOLVE_VARIANT");
    int rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--nrhs", "1", "--precision", "s", "--variants",
                 "solve-workitem", "--dry-run");
    CHECK(rc == 0 && file_contains(out, "s solve-workitem 24 nrhs=1 {\"nt\":1,\"vw\":16}") &&
              file_contains(out, "s solve-workitem 8 nrhs=1 {\"nt\":1,\"vw\":8} default") &&
              !file_contains(out, "s solve 24") && !file_contains(out, "s fused "),
          "dry run: exit %d, or its plan is not solve-workitem's alone", rc);
    rc = RUN(out, "tune", "--output", file, "--n", "8,24", "--nrhs", "1", "--precision", "s", "--dry-run");
    bchol_context *probe = context_with("off");
    bchol_device_info dev = {0};
    if (probe) bchol_context_device_info(probe, &dev);
    bchol_context_destroy(probe);
    const int gpu = (dev.type & CL_DEVICE_TYPE_GPU) != 0;
    /* the substitution solve in the default plan on GPUs, the workitem one on CPUs */
    CHECK(rc == 0 && file_contains(out, "s solve 24 nrhs=1 ") == gpu &&
              file_contains(out, "s solve-workitem 24 nrhs=1 ") == !gpu,
          "dry run of the default plan: exit %d, or solve-workitem %s on a %s", rc, gpu ? "planned" : "not planned",
          gpu ? "GPU" : "CPU");
    rc = RUN(NULL, "tune", "--output", file, "--n", "8,24", "--nrhs", "1", "--precision", "s", "--variants",
             "solve,solve-workitem", "--set", "rpt=1,8", "--set", "tbc=1", "--set", "vw=4,8", "--batch", "64",
             "--reps", "2", "--seed", "17", "--quiet");
    CHECK(rc == 0, "the sweep: exit %d", rc);
    const int ntried = count_tried();
    cJSON *root = load(file);
    CHECK(root && ntried >= 8, "the file: %d records", ntried);
    if (!root) return;
    const cJSON *r;
    int confirmed[2] = {0, 0};
    cJSON_ArrayForEach(r, tried(root))
    {
        const char *v = cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring;
        const int wi = !strcmp(v, "solve-workitem");
        CHECK((wi || !strcmp(v, "solve")) && rec_nrhs(r) == 1, "a record of %s, nrhs %d", v, rec_nrhs(r));
        const cJSON *failed = cJSON_GetObjectItemCaseSensitive(r, "failed");
        CHECK(!failed && ms_of(r) > 0, "%s %s: %s", v, key_of(r), failed ? failed->valuestring : "no time");
        if (cJSON_GetObjectItemCaseSensitive(r, "n")->valueint == 24 && cJSON_GetObjectItemCaseSensitive(r, "confirm_ms"))
            confirmed[wi]++;
    }
    CHECK(confirmed[0] > 0 && confirmed[1] > 0, "n = 24: %d solve and %d solve-workitem records confirmed, wanted both",
          confirmed[0], confirmed[1]);
    int nt = 0, vw = 0, snt = 0, rpt = 0, tbc = 0;
    double wms = -1, sms = -1;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(section(root), "chosen"))
    {
        const char *v = cJSON_GetObjectItemCaseSensitive(r, "variant")->valuestring;
        if (cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != 24 || rec_nrhs(r) != 1) continue;
        const cJSON *prm = cJSON_GetObjectItemCaseSensitive(r, "params"), *ms = cJSON_GetObjectItemCaseSensitive(r, "ms");
        if (!strcmp(v, "solve-workitem")) {
            nt = param_int(prm, "nt");
            vw = param_int(prm, "vw");
            wms = cJSON_IsNumber(ms) ? ms->valuedouble : -1;
        } else if (!strcmp(v, "solve")) {
            snt = param_int(prm, "nt");
            rpt = param_int(prm, "rpt");
            tbc = param_int(prm, "tbc");
            sms = cJSON_IsNumber(ms) ? ms->valuedouble : -1;
        }
    }
    CHECK(nt == 1 && (vw == 4 || vw == 8) && wms > 0, "the solve-workitem entry at n = 24: nt %d vw %d ms %g", nt, vw, wms);
    CHECK(snt == 1 && sms > 0, "the solve entry at n = 24: nt %d ms %g", snt, sms);
    cJSON_Delete(root);
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet");
    CHECK(rc == 0 && count_tried() == ntried, "resume: exit %d, %d records (wanted %d)", rc, count_tried(), ntried);
    bchol_context *ctx = context_with(file);
    if (!ctx || !nt || !snt) return;
    /* the faster entry decides (the solve entry on equal times) */
    const int wi = wms < sms;
    char want[160];
    if (wi)
        snprintf(want, sizeof want, "tuning table: the workitem solve, nt = %d, vw = %d: tuning file", nt, vw);
    else
        snprintf(want, sizeof want, "tuning table: the substitution solve: tuning file");
    const char *entry = wi ? "s solve-workitem entry for n = 24, nrhs = 1, measured at this size"
                           : "s solve entry for n = 24, nrhs = 1, measured at this size";
    bchol_solve_params p = {0};
    const char *src = NULL;
    CHECK(!bchol_potrs_params(ctx, 's', 24, 1, &p, &src) && strstr(src, file) && strstr(src, want) &&
              strstr(src, entry) &&
              (wi ? p.variant == BCHOL_SOLVE_WORKITEM && p.nt == nt
                  : p.variant == BCHOL_SOLVE_SUBST && p.nt == snt && p.rpt == rpt && p.tbc == tbc),
          "potrs_params at 24: variant %d nt %d rpt %d tbc %d, \"%s\", wanted the %s entry (%g ms vs %g)", p.variant,
          p.nt, p.rpt, p.tbc, src ? src : "(null)", wi ? "solve-workitem" : "solve", wi ? wms : sms, wi ? sms : wms);
    printf("n = 24: %s\n", src);
    bchol_context_destroy(ctx);
    rc = RUN(out, "bench", "--solve", "--n", "24", "--nrhs", "1", "--batch", "32", "--reps", "1", "--warmup", "0",
             "--explain");
    char line[256];
    snprintf(line, sizeof line, "#   n = 24: %s", want);
    CHECK(rc == 0 && file_contains(out, line) && file_contains(out, entry),
          "bench --solve --explain: exit %d, or no line \"%s\" naming the entry", rc, line);
    unsetenv("BCHOL_TUNING_FILE");
}

static const struct {
    const char *name, *label;
    void (*run)(void);
} cases[] = {{"variants", "variants", multi_variant},   {"build", "build limits", build_limits},
             {"solve", "solve", solve_run},             {"rechoose", "rechoose", rechoose},
             {"shared", "shared builds", shared_builds}, {"native", "interleaved-native", native_run},
             {"vbatched_round", "vbatched round", vbatched_round}, {"probes", "probes between sizes", probes},
             {"probe_ties", "probes on ties", probe_ties}, {"probe_every", "probes at every size", probe_every},
             {"output", "the output file", output_file}, {"input", "what is read from files", input_checks},
             {"getrf", "getrf", getrf_run}, {"derived", "derived default sections", derived},
             {"getrs", "getrs", getrs_run}, {"solve_workitem", "solve-workitem", solve_workitem_run},
             {"getrs_workitem", "getrs-workitem", getrs_workitem_run}, {"getri", "getri", getri_run}};

/* The scratch folder and whatever a case left in it (plans, reports, files): a case that
 * fails half-way returns early, and no run leaves a folder behind in /tmp. */
static void remove_dir(void)
{
    DIR *d = opendir(dir);
    if (!d) return;
    const struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
    }
    closedir(d);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    util_icd_env_save();
    const int ncases = (int)(sizeof cases / sizeof cases[0]);
    int c = argc == 3 ? 0 : ncases;
    while (c < ncases && strcmp(argv[2], cases[c].name)) c++;
    if (argc < 2 || argc > 3 || (argc == 3 && c == ncases)) {
        fprintf(stderr, "usage: test_tune_run <bchol command> [variants | build | solve | rechoose | shared | "
                        "native | vbatched_round | probes | probe_ties | probe_every | output | input | getrf | derived | "
                        "getrs | solve_workitem | getrs_workitem | getri]\n");
        return 2;
    }
    bchol = argv[1];
    snprintf(dir, sizeof dir, "/tmp/bchol-test-tune-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    atexit(remove_dir);
    snprintf(file, sizeof file, "%s/tuning.json", dir);
    unsetenv("BCHOL_TUNING_FILE");
    if (c < ncases) {
        cases[c].run();
        printf("tune run (%s): %s\n", cases[c].label, failures ? "FAILED" : "ok");
        return failures ? 1 : 0;
    }

    /* 1. a budget of 3 configurations: stops with status 3 and a valid file */
    int rc = RUN(NULL, "tune", "--output", file, SWEEP, "--max-configs", "3");
    CHECK(rc == 3, "budget-limited run: exit %d, wanted 3", rc);
    CHECK(count_tried() == 3, "after the budget: %d tried, wanted 3", count_tried());
    rc = RUN(NULL, "tune", "--output", file, SWEEP);
    CHECK(rc == 1, "a second run without --resume: exit %d, wanted 1 (refused)", rc);

    /* 2. resumed, then killed once it has measured one more */
    setenv("BCHOL_TUNE_PAUSE_MS", "300", 1); /* time to kill it between two configurations */
    pid_t pid = start((char *const[]){(char *)bchol, "tune", "--output", file, "--resume", "--quiet", NULL}, NULL);
    unsetenv("BCHOL_TUNE_PAUSE_MS");
    int seen = 3;
    for (int i = 0; i < 3000 && seen < 4; i++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
        seen = count_tried();
    }
    kill(pid, SIGKILL);
    rc = finish(pid);
    int after_kill = count_tried();
    printf("killed (status %d) with %d configurations in the file\n", rc, after_kill);
    CHECK(rc == 128 + SIGKILL, "the resumed run was not killed (status %d): too fast to interrupt?", rc);
    CHECK(after_kill >= 4 && after_kill < 8, "after the kill: %d tried; the file is not valid JSON, lost records or "
          "the run was not interrupted", after_kill);
    cJSON *before = load(file);
    CHECK(before != NULL, "the killed run left an unreadable file");
    if (!before) return 1;

    /* 3. resumed to the end: status 0, every configuration once, earlier ones untouched */
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet");
    CHECK(rc == 0, "final resume: exit %d", rc);
    cJSON *root = load(file);
    CHECK(root != NULL, "the final file is not JSON");
    if (!root) return 1;
    const cJSON *tuner = cJSON_GetObjectItemCaseSensitive(root, "tuner");
    CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(tuner, "status")->valuestring, "complete"), "status not complete");
    CHECK(cJSON_GetObjectItemCaseSensitive(tuner, "seed")->valuedouble == 11, "the seed is not recorded");
    const cJSON *r, *old;
    int total = 0, defaults[2] = {0, 0};
    cJSON_ArrayForEach(r, tried(root))
    {
        total++;
        char key[512];
        snprintf(key, sizeof key, "%s", key_of(r));
        int copies = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, tried(root)) copies += !strcmp(key, key_of(x));
        CHECK(copies == 1, "%s measured %d times", key, copies);
        CHECK(!cJSON_GetObjectItemCaseSensitive(r, "failed"), "%s failed: %s", key,
              cJSON_GetObjectItemCaseSensitive(r, "failed")->valuestring);
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "default")))
            defaults[cJSON_GetObjectItemCaseSensitive(r, "n")->valueint == 6]++;
    }
    /* 2 ib x 2 rpt per size, plus the backend defaults where they are not among them */
    CHECK(total >= 8 && total <= 10, "%d configurations in the end, wanted 8 to 10", total);
    CHECK(defaults[0] == 1 && defaults[1] == 1, "the defaults were measured %d and %d times", defaults[0], defaults[1]);
    cJSON_ArrayForEach(old, tried(before))
    {
        const cJSON *x, *match = NULL;
        char key[512];
        snprintf(key, sizeof key, "%s", key_of(old));
        cJSON_ArrayForEach(x, tried(root)) if (!strcmp(key, key_of(x))) match = x;
        CHECK(match && ms_of(match) == ms_of(old), "an earlier measurement changed or vanished");
    }

    /* the confirmation round: each size's 3 fastest and its defaults timed again; the
     * chosen entry is the fastest of them in that round */
    const cJSON *chosen = cJSON_GetObjectItemCaseSensitive(section(root), "chosen"), *e;
    CHECK(cJSON_GetArraySize(chosen) == 2, "%d chosen entries, wanted 2", cJSON_GetArraySize(chosen));
    bchol_params want[2] = {{0}};
    cJSON_ArrayForEach(e, chosen)
    {
        int n = cJSON_GetObjectItemCaseSensitive(e, "n")->valueint, finalists = 0, deflt_final = 0;
        double best = -1;
        cJSON_ArrayForEach(r, tried(root))
        {
            if (cJSON_GetObjectItemCaseSensitive(r, "n")->valueint != n) continue;
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(r, "confirm_ms");
            /* a finalist: fewer than 3 records strictly faster in the sweep, or the
             * defaults (bchol tune's rule); ties, common on GPUs where tiny runs take the
             * same microseconds, make every tied record a finalist */
            int faster = 0;
            const cJSON *x;
            cJSON_ArrayForEach(x, tried(root))
            {
                if (x == r || cJSON_GetObjectItemCaseSensitive(x, "n")->valueint != n || ms_of(x) < 0) continue;
                faster += ms_of(x) < ms_of(r);
            }
            int is_default = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "default"));
            CHECK(!c == !(faster < 3 || is_default), "n = %d: %s on a record %d places from the top%s", n,
                  c ? "confirm_ms" : "no confirm_ms", faster, is_default ? " (the defaults)" : "");
            if (!cJSON_IsNumber(c)) continue;
            finalists++;
            deflt_final += is_default;
            if (best < 0 || c->valuedouble < best) best = c->valuedouble;
        }
        CHECK(finalists >= 3 && deflt_final == 1, "n = %d: %d records confirmed (%d defaults)", n, finalists,
              deflt_final);
        /* the fastest, or within 3% of it and better at the next size (tune_file.c) */
        CHECK(ms_of(e) >= best && ms_of(e) <= best * (n == 6 ? 1 : 1.03) &&
                  cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "confirmed")),
              "n = %d: chosen %g ms, the fastest confirmed %g ms", n, ms_of(e), best);
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "params");
        bchol_params *w = &want[n == 6];
        w->variant = BCHOL_VARIANT_FUSED;
        w->ib = cJSON_GetObjectItemCaseSensitive(p, "ib")->valueint;
        w->tbc = cJSON_GetObjectItemCaseSensitive(p, "tbc")->valueint;
        w->rpt = cJSON_GetObjectItemCaseSensitive(p, "rpt")->valueint;
        w->shape = !strcmp(cJSON_GetObjectItemCaseSensitive(p, "shape")->valuestring, "fixed") ? BCHOL_SHAPE_FIXED
                                                                                             : BCHOL_SHAPE_SHRINK;
    }

    /* 4. nothing left: a resume measures nothing and keeps every record */
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet");
    cJSON *again = load(file);
    char *a = cJSON_PrintUnformatted(tried(root)), *b = again ? cJSON_PrintUnformatted(tried(again)) : NULL;
    CHECK(rc == 0 && b && !strcmp(a, b), "a resume of a complete file changed its records (exit %d)", rc);
    free(a);
    free(b);
    cJSON_Delete(again);

    /* 5. the dispatcher takes the file: n = 4, 5 (nearest below: 4), 6, 100 (6) */
    setenv("BCHOL_TUNING_FILE", file, 1);
    bchol_context *ctx;
    if (bchol_context_create(NULL, &ctx)) return 1;
    const int sizes[] = {4, 5, 6, 100}, which[] = {0, 0, 1, 1};
    for (int i = 0; i < 4; i++) {
        bchol_params p;
        const char *source;
        bchol_potrf_params(ctx, 's', sizes[i], &p, &source);
        const bchol_params *w = &want[which[i]];
        /* the fused fields are the file's whichever variant the backend runs at n (PoCL runs
         * small n interleaved, which this fused-only file did not compare) */
        char fused_from[256];
        snprintf(fused_from, sizeof fused_from, "fused fields from %s (s fused entry for n = %d)", file,
                 which[i] ? 6 : 4);
        CHECK(p.ib == w->ib && p.tbc == w->tbc && p.rpt == w->rpt && p.shape == w->shape &&
                  (p.variant == BCHOL_VARIANT_FUSED ? strstr(source, file) != NULL
                                                    : strstr(source, fused_from) != NULL),
              "n = %d: variant %d ib %d tbc %d rpt %d shape %d from \"%s\"", sizes[i], (int)p.variant, p.ib,
              p.tbc, p.rpt, p.shape, source);
        printf("n = %d: %s\n", sizes[i], source);
    }
    CHECK(!*bchol_last_warning(ctx), "warning: %s", bchol_last_warning(ctx));
    {
        const int n = 5, batch = 9;
        float a0[5 * 5 * 9], f[5 * 5 * 9];
        int info[9];
        util_rng rng;
        util_rng_seed(&rng, 3);
        for (int k = 0; k < batch; k++) util_spd(a0 + k * n * n, 0, 'U', n, n, &rng);
        memcpy(f, a0, sizeof f);
        /* the fused variant with the file's parameters (the dispatcher's fields for n) */
        bchol_params tuned;
        bchol_potrf_params(ctx, 's', n, &tuned, NULL);
        tuned.variant = BCHOL_VARIANT_FUSED;
        cl_int err;
        cl_context cl = bchol_context_cl_context(ctx);
        cl_mem dA = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof f, f, &err);
        cl_mem dI = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof info, NULL, &err);
        bchol_status st = dA && dI ? bchol_spotrf_batched_ex(ctx, &tuned, 'U', n, dA, 0, n, n * n, batch, dI, NULL)
                                   : BCHOL_ERR_RESOURCES;
        cl_command_queue q = bchol_context_queue(ctx);
        if (!st) clEnqueueReadBuffer(q, dA, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL);
        if (!st) clEnqueueReadBuffer(q, dI, CL_TRUE, 0, sizeof info, info, 0, NULL, NULL);
        if (dA) clReleaseMemObject(dA);
        if (dI) clReleaseMemObject(dI);
        double worst = 0;
        for (int k = 0; k < batch && !st; k++) {
            double err = util_backward_error(a0 + k * n * n, f + k * n * n, 0, 'U', n, n);
            if (!(err <= worst)) worst = err;
            CHECK(info[k] == 0, "info[%d] = %d", k, info[k]);
        }
        CHECK(!st && worst <= 30, "factorization with the tuned parameters: %s, backward error %g",
              bchol_status_string(st), worst);
    }
    bchol_context_destroy(ctx);

    /* 6. the report and bench --explain */
    char out[128];
    snprintf(out, sizeof out, "%s/report.txt", dir);
    rc = RUN(out, "tune", "--report", file);
    CHECK(rc == 0 && file_contains(out, "geometric mean speedup") && file_contains(out, "which parameters matter"),
          "--report: exit %d or missing sections", rc);
    /* against itself, every pick is the best measured */
    /* against itself: each pick the best, or within 3% of it and better at the next size */
    rc = RUN(out, "tune", "--report", file, "--against", file);
    const double worst_pick = report_worst_pick(out);
    CHECK(rc == 0 && file_contains(out, "2 of 2 sizes within 5% of the best measured here") && worst_pick >= 1 &&
              worst_pick <= 1.03,
          "--report --against itself: exit %d or a pick %.3fx the best", rc, worst_pick);
    rc = RUN(out, "bench", "--n", "6", "--batch", "16", "--reps", "1", "--warmup", "0", "--explain");
    char needle[200];
    /* the file's fused entry for n = 6 explains the run: as the variant's own entry where the
     * backend runs fused (NVIDIA), as the fused fields where it runs interleaved (PoCL) */
    snprintf(needle, sizeof needle, "%s, devices[0]", file);
    if (!file_contains(out, needle))
        snprintf(needle, sizeof needle, "fused fields from %s (s fused entry for n = 6)", file);
    CHECK(rc == 0 && file_contains(out, needle), "bench --explain: exit %d, no \"%s\"", rc, needle);
    unsetenv("BCHOL_TUNING_FILE");

    /* 7. --fraction: a seed draws the same configurations; the plan alone (--dry-run) */
    char plans[3][128];
    char *seeds[3] = {"5", "5", "6"};
    for (int i = 0; i < 3; i++) {
        snprintf(plans[i], sizeof plans[i], "%s/plan%d.txt", dir, i);
        rc = RUN(plans[i], "tune", "--dry-run", "--n", "8,16", "--precision", "s", "--variants", "fused,interleaved",
                 "--fraction", "0.3", "--seed", seeds[i]);
        CHECK(rc == 0, "--dry-run: exit %d", rc);
    }
    char *drawn[3];
    for (int i = 0; i < 3; i++) drawn[i] = plan_lines(plans[i]);
    CHECK(!strcmp(drawn[0], drawn[1]) && strcmp(drawn[0], drawn[2]) && strstr(drawn[0], "s fused 8 "),
          "the same seed drew different configurations, or another seed the same ones");
    for (int i = 0; i < 3; i++) free(drawn[i]);

    /* 8. a narrower space on resume (rpt 1 only): nothing is measured again, the records
     * left out stay but no longer compete, and the confirmation round is redone */
    rc = RUN(NULL, "tune", "--output", file, "--resume", "--quiet", "--set", "ib=4,8", "--set", "tbc=1", "--set",
             "rpt=1", "--set", "shape=fixed");
    cJSON *narrow = load(file);
    if (!narrow) return 1;
    CHECK(rc == 0 && cJSON_GetArraySize(tried(narrow)) == total, "resume with --set rpt=1: exit %d, %d records (wanted %d)",
          rc, cJSON_GetArraySize(tried(narrow)), total);
    cJSON_ArrayForEach(r, tried(narrow))
    {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "params");
        int rpt = cJSON_GetObjectItemCaseSensitive(p, "rpt")->valueint;
        int is_default = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "default"));
        CHECK(rpt == 1 || is_default || !cJSON_GetObjectItemCaseSensitive(r, "confirm_ms"),
              "a configuration outside the space (rpt %d) is in the confirmation round", rpt);
    }
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(section(narrow), "chosen"))
    {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "params");
        int rpt = cJSON_GetObjectItemCaseSensitive(p, "rpt")->valueint, n = cJSON_GetObjectItemCaseSensitive(e, "n")->valueint;
        int ok = rpt == 1;
        cJSON_ArrayForEach(r, tried(narrow)) if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "default")) &&
                                                    cJSON_GetObjectItemCaseSensitive(r, "n")->valueint == n) {
            char *a = cJSON_PrintUnformatted(p), *b = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(r, "params"));
            ok |= !strcmp(a, b);
            free(a);
            free(b);
        }
        CHECK(ok, "n = %d: chosen rpt %d is outside the narrowed space", n, rpt);
    }
    cJSON_Delete(narrow);

    cJSON_Delete(before);
    cJSON_Delete(root);
    printf("tune run: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
