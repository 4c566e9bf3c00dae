/*
 * Tuning files through the public API on a device: a file that cannot be used gives one
 * warning and the backend defaults (and the routines still work); a good file's entries
 * reach bchol_potrf_params and the factorization, through the vendor -> architecture ->
 * name chain and the nearest measured size below; BCHOL_TUNING_DIR and the shipped folder
 * are read; bchol_potrf_prepare checks its arguments and fits the work-group; the solve's
 * entries reach bchol_potrs_params, potrs, posv and the vbatched solve; BCHOL_DEFAULTS=generic
 * gives the generic backend's defaults, and a bad value one warning.
 * One case per run: test_tuning <case> (the scratch folder is made under /tmp).
 */
#include "bchol.h"
#include "bchol_util.h"
#include "cl_shim.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_check.h"

static char dir[64];

static int warnings;
static char last_warning[2048];
static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_warning(const char *message, void *user)
{
    pthread_mutex_lock(&warn_lock);
    warnings++;
    snprintf(last_warning, sizeof last_warning, "%s", message);
    pthread_mutex_unlock(&warn_lock);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        printf("FAILED: cannot write %s\n", path);
        exit(1);
    }
}

static bchol_context *new_context(void)
{
    bchol_context *ctx;
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        printf("FAILED: no context: %s\n", bchol_last_error(NULL));
        exit(1);
    }
    bchol_set_message_handler(ctx, on_warning, NULL);
    return ctx;
}

static bchol_device_info device(void)
{
    bchol_context *ctx = new_context();
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    bchol_context_destroy(ctx);
    return d;
}

/* What the dispatcher picks with no tuning file. */
static bchol_params defaults(char precision, int n)
{
    const char *keep = getenv("BCHOL_TUNING_FILE");
    char saved[1024] = "";
    if (keep) snprintf(saved, sizeof saved, "%s", keep);
    setenv("BCHOL_TUNING_FILE", "off", 1);
    bchol_context *ctx = new_context();
    bchol_params p;
    bchol_potrf_params(ctx, precision, n, &p, NULL);
    bchol_context_destroy(ctx);
    if (keep) setenv("BCHOL_TUNING_FILE", saved, 1);
    else unsetenv("BCHOL_TUNING_FILE");
    return p;
}

static int same(const bchol_params *a, const bchol_params *b)
{
    return a->variant == b->variant && a->ib == b->ib && a->tbc == b->tbc && a->rpt == b->rpt &&
           a->shape == b->shape;
}

static const char *arch_of(const bchol_device_info *d)
{
    return *d->architecture ? d->architecture : "default";
}

/* A section for the given identity with one entry per (precision, n, ib, tbc, rpt, shape). */
static void section(char *out, size_t size, const char *family, const char *vendor, const char *arch,
                    const char *name, const char *entries)
{
    snprintf(out, size,
             "{\"family\": \"%s\", \"vendor\": \"%s\", \"architecture\": \"%s\", \"name\": \"%s\", "
             "\"chosen\": [%s], \"tried\": []}",
             family, vendor, arch, name, entries);
}

static void entry(char *out, size_t size, char precision, int n, int ib, int tbc, int rpt,
                  const char *shape)
{
    size_t len = strlen(out);
    snprintf(out + len, size - len,
             "%s{\"precision\": \"%c\", \"variant\": \"fused\", \"n\": %d, \"params\": {\"ib\": %d, "
             "\"tbc\": %d, \"rpt\": %d, \"shape\": \"%s\"}, \"ms\": 1.0, \"default_ms\": 1.5}",
             len ? ", " : "", precision, n, ib, tbc, rpt, shape);
    /* a slower interleaved entry at the same size: the table compared the variants, so its
     * fastest (the fused entry) decides the variant */
    len = strlen(out);
    snprintf(out + len, size - len,
             ", {\"precision\": \"%c\", \"variant\": \"interleaved\", \"n\": %d, \"params\": {\"inb\": 4, "
             "\"looking\": \"left\", \"unroll\": \"tiles\", \"chunking\": \"chunked\", \"chunk\": 64, "
             "\"math\": \"ieee\"}, \"ms\": 9.0, \"default_ms\": 9.0}",
             precision, n);
}

static void file_of(char *out, size_t size, const char *sections)
{
    snprintf(out, size,
             "{\"format\": \"bchol-tuning\", \"format_version\": 1, \"bchol_version\": \"test\", "
             "\"devices\": [%s]}\n",
             sections);
}

/* Factors a small batch through the dispatcher (and params, if not NULL) and checks it. */
static void factor(bchol_context *ctx, const bchol_params *params, int n, int batch)
{
    float *a = malloc(sizeof(float) * (size_t)n * n * batch), *a0 = malloc(sizeof(float) * (size_t)n * n * batch);
    int *info = malloc(sizeof(int) * (size_t)batch);
    util_rng rng;
    util_rng_seed(&rng, 5);
    for (int b = 0; b < batch; b++) util_spd(a + (size_t)b * n * n, 0, 'L', n, n, &rng);
    memcpy(a0, a, sizeof(float) * (size_t)n * n * batch);
    cl_int err;
    cl_mem dA = clCreateBuffer(bchol_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               sizeof(float) * (size_t)n * n * batch, a, &err);
    cl_mem dI = clCreateBuffer(bchol_context_cl_context(ctx), CL_MEM_READ_WRITE, sizeof(int) * (size_t)batch,
                               NULL, &err);
    bchol_status st = params ? bchol_spotrf_batched_ex(ctx, params, 'L', n, dA, 0, n, (int64_t)n * n, batch, dI, NULL)
                             : bchol_spotrf_batched(ctx, 'L', n, dA, 0, n, (int64_t)n * n, batch, dI, NULL);
    CHECK(st == BCHOL_SUCCESS, "spotrf n = %d: %s: %s", n, bchol_status_string(st), bchol_last_error(ctx));
    clEnqueueReadBuffer(bchol_context_queue(ctx), dA, CL_TRUE, 0, sizeof(float) * (size_t)n * n * batch, a, 0,
                        NULL, NULL);
    clEnqueueReadBuffer(bchol_context_queue(ctx), dI, CL_TRUE, 0, sizeof(int) * (size_t)batch, info, 0, NULL,
                        NULL);
    double worst = 0;
    for (int b = 0; b < batch && !st; b++) {
        CHECK(info[b] == 0, "matrix %d: info %d", b, info[b]);
        double e = util_backward_error(a0 + (size_t)b * n * n, a + (size_t)b * n * n, 0, 'L', n, n);
        if (!(e <= worst)) worst = e;
    }
    CHECK(!st && worst <= 30, "n = %d: backward error %g", n, worst);
    printf("factor n = %d batch %d: backward error %.3g\n", n, batch, worst);
    clReleaseMemObject(dA);
    clReleaseMemObject(dI);
    free(a);
    free(a0);
    free(info);
}

/* ---- files that cannot be used ---------------------------------------------------------- */

static void *ask(void *arg)
{
    bchol_params p;
    bchol_potrf_params((bchol_context *)arg, 's', 12, &p, NULL);
    return NULL;
}

/* text with fields added to its first fixed-shape fused entry, after its params. */
static void with_between(char *out, size_t size, const char *text, const char *fields)
{
    const char *params_end = "\"shape\": \"fixed\"}";
    const char *at = strstr(text, params_end) + strlen(params_end);
    snprintf(out, size, "%.*s, %s%s", (int)(at - text), text, fields, at);
}

static void bad_file(const char *kind, const char *text, const char *needle)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s.json", dir, kind);
    if (text) write_file(path, text);
    setenv("BCHOL_TUNING_FILE", path, 1);
    const bchol_device_info d = device();
    warnings = 0;
    bchol_context *ctx = new_context();
    /* several threads at the first use: still one warning */
    pthread_t th[4];
    for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, ask, ctx);
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    const int sizes[] = {1, 8, 33, 100};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 1 + d.fp64; k++) {
            const char prec = k ? 'd' : 's';
            bchol_params p, want = defaults(prec, sizes[i]);
            const char *source = NULL;
            bchol_status st = bchol_potrf_params(ctx, prec, sizes[i], &p, &source);
            CHECK(st == BCHOL_SUCCESS && same(&p, &want), "%s: %c n = %d: not the defaults", kind, prec, sizes[i]);
            CHECK(source && strstr(source, "defaults") && strstr(source, path),
                  "%s: source \"%s\" does not say why the defaults apply", kind, source ? source : "(null)");
            if (i == 0 && k == 0) printf("source: %s\n", source);
        }
    if (!strcmp(kind, "malformed")) factor(ctx, NULL, 12, 5);
    CHECK(warnings == 1, "%s: %d warnings, wanted one", kind, warnings);
    CHECK(strstr(last_warning, path) && strstr(last_warning, needle) && strstr(last_warning, "defaults"),
          "%s: warning \"%s\" lacks the path, \"%s\" or \"defaults\"", kind, last_warning, needle);
    CHECK(!strcmp(bchol_last_warning(ctx), last_warning), "%s: bchol_last_warning differs", kind);
    printf("warning: %s\n", last_warning);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    if (text) remove(path);
}

static void case_bad(const char *kind)
{
    const bchol_device_info d = device();
    char entries[2048] = "", sec[4096], good[8192];
    entry(entries, sizeof entries, 's', 8, 4, 1, 2, "fixed");
    section(sec, sizeof sec, d.family, d.vendor, arch_of(&d), d.name, entries);
    file_of(good, sizeof good, sec);
    if (!strcmp(kind, "malformed")) {
        char *text = strdup(good);
        strstr(text, "\"chosen\": [")[8] = '='; /* "chosen"= [ */
        bad_file(kind, text, "not valid JSON near byte");
        free(text);
    } else if (!strcmp(kind, "truncated")) {
        good[strlen(good) * 2 / 3] = 0;
        bad_file(kind, good, "the text ends early");
    } else if (!strcmp(kind, "missing")) {
        char s2[4096], text[8192];
        section(s2, sizeof s2, d.family, "", arch_of(&d), d.name, entries);
        file_of(text, sizeof text, s2);
        bad_file(kind, text, "devices[0].vendor");
    } else if (!strcmp(kind, "types")) {
        /* "ib": 4, "tbc" becomes "ib": {},"tbc" (same length) */
        memcpy(strstr(good, "\"ib\": 4, "), "\"ib\": {},", 9);
        bad_file(kind, good, "params.ib: expected an integer");
    } else if (!strcmp(kind, "interleaved")) {
        /* the interleaved entry's "chunk": 64 becomes "chunk": "64" */
        char text[8192];
        snprintf(text, sizeof text, "%s", good);
        char *at = strstr(text, "\"chunk\": 64");
        memmove(at + 12, at + 10, strlen(at + 10) + 1);
        memcpy(at + 9, "\"64\"", 4);
        bad_file(kind, text, "params.chunk: expected an integer in 1..1024, found a string");
    } else if (!strcmp(kind, "separate")) {
        /* a separate entry with an unknown GEMM */
        char more[4096], s2[8192], text[16384];
        snprintf(more, sizeof more,
                 "%s, {\"precision\": \"s\", \"variant\": \"separate\", \"n\": 8, \"params\": {\"nb\": 8, "
                 "\"pb\": 4, \"gemm\": \"cublas\", \"tile\": 16, \"gb\": 64}, \"ms\": 20.0}",
                 entries);
        section(s2, sizeof s2, d.family, d.vendor, arch_of(&d), d.name, more);
        file_of(text, sizeof text, s2);
        bad_file(kind, text, "params.gemm: expected \"own\" or \"clblast\", found another string");
    } else if (!strcmp(kind, "between")) {
        /* "between" parameters without "between_to" */
        char text[8192];
        with_between(text, sizeof text, good,
                     "\"between\": {\"ib\": 8, \"tbc\": 1, \"rpt\": 1, \"shape\": \"shrink\"}");
        bad_file(kind, text, "chosen[0].between_to: missing");
        /* and a range that does not lie above the entry's size */
        with_between(text, sizeof text, good,
                     "\"between\": {\"ib\": 8, \"tbc\": 1, \"rpt\": 1, \"shape\": \"shrink\"}, "
                     "\"between_to\": 8");
        bad_file(kind, text, "chosen[0].between_to: expected an integer in 9..");
        with_between(text, sizeof text, good,
                     "\"between\": {\"ib\": 99, \"tbc\": 1, \"rpt\": 1, \"shape\": \"shrink\"}, "
                     "\"between_to\": 15");
        bad_file(kind, text, "chosen[0].between.ib: expected an integer in 1..32");
    } else if (!strcmp(kind, "getrs")) {
        /* the LU solve's entries are checked as the solve's: nrhs required, fields in range */
        char more[4096], s2[8192], text[16384];
        snprintf(more, sizeof more,
                 "%s, {\"precision\": \"s\", \"variant\": \"getrs\", \"n\": 8, \"params\": {\"nt\": 1, "
                 "\"rpt\": 1, \"tbc\": 1}}",
                 entries);
        section(s2, sizeof s2, d.family, d.vendor, arch_of(&d), d.name, more);
        file_of(text, sizeof text, s2);
        bad_file(kind, text, "chosen[2].nrhs: expected an integer in 1..");
        snprintf(more, sizeof more,
                 "%s, {\"precision\": \"s\", \"variant\": \"getrs\", \"n\": 8, \"nrhs\": 1, \"params\": "
                 "{\"nt\": 1, \"rpt\": 65, \"tbc\": 1}}",
                 entries);
        section(s2, sizeof s2, d.family, d.vendor, arch_of(&d), d.name, more);
        file_of(text, sizeof text, s2);
        bad_file(kind, text, "chosen[2].params.rpt: expected an integer in 1..64");
    } else if (!strcmp(kind, "solve_workitem")) {
        /* the workitem solve's entries are checked as the solve's: nrhs required, nt in
         * 1..32, vw one of OpenCL's vector widths */
        static const struct {
            const char *fields, *needle;
        } bad[] = {
            {"\"n\": 8, \"params\": {\"nt\": 1, \"vw\": 8}", "chosen[2].nrhs: expected an integer in 1.."},
            {"\"n\": 8, \"nrhs\": 1, \"params\": {\"nt\": 33, \"vw\": 8}",
             "chosen[2].params.nt: expected an integer in 1..32"},
            {"\"n\": 8, \"nrhs\": 1, \"params\": {\"nt\": 0, \"vw\": 8}",
             "chosen[2].params.nt: expected an integer in 1..32"},
            {"\"n\": 8, \"nrhs\": 1, \"params\": {\"nt\": 1, \"vw\": 32}",
             "chosen[2].params.vw: expected an integer in 1..16"},
            {"\"n\": 8, \"nrhs\": 1, \"params\": {\"nt\": 1, \"vw\": 3}",
             "chosen[2].params.vw: expected 1, 2, 4, 8 or 16, found 3"},
            {"\"n\": 8, \"nrhs\": 1, \"params\": {\"nt\": 1}", "chosen[2].params.vw: expected an integer"},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            char more[4096], s2[8192], text[16384];
            /* the workitem LU solve's entries take the same fields */
            for (int lu = 0; lu < 2; lu++) {
                snprintf(more, sizeof more, "%s, {\"precision\": \"s\", \"variant\": \"%s\", %s}", entries,
                         lu ? "getrs-workitem" : "solve-workitem", bad[i].fields);
                section(s2, sizeof s2, d.family, d.vendor, arch_of(&d), d.name, more);
                file_of(text, sizeof text, s2);
                bad_file(kind, text, bad[i].needle);
            }
        }
    } else if (!strcmp(kind, "getri")) {
        /* getri's entries: a path of the three (never auto), nb for the blocked path alone */
        static const struct {
            const char *params, *needle;
        } bad[] = {
            {"{\"path\": \"auto\"}", "chosen[2].params.path: expected \"solve\", \"fused\" or \"blocked\""},
            {"{\"path\": \"blocked\"}", "chosen[2].params.nb: expected 1..64 for path \"blocked\", found 0"},
            {"{\"path\": \"blocked\", \"nb\": 65}", "chosen[2].params.nb: expected an integer in 0..64"},
            {"{\"path\": \"solve\", \"nb\": 8}", "chosen[2].params.nb: expected 0 (or none) for path \"solve\""},
            {"{\"nb\": 8}", "chosen[2].params.path: expected"},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            char more[4096], s2[8192], text[16384];
            snprintf(more, sizeof more,
                     "%s, {\"precision\": \"s\", \"variant\": \"getri\", \"n\": 8, \"params\": %s}",
                     entries, bad[i].params);
            section(s2, sizeof s2, d.family, d.vendor, arch_of(&d), d.name, more);
            file_of(text, sizeof text, s2);
            bad_file(kind, text, bad[i].needle);
        }
    } else if (!strcmp(kind, "foreign")) {
        char s2[4096], text[8192];
        section(s2, sizeof s2, "acme", "Acme", "X9", "Acme Accelerator", entries);
        file_of(text, sizeof text, s2);
        bad_file(kind, text, "has nothing for this device");
    } else if (!strcmp(kind, "empty")) {
        bad_file(kind, "", "the file is empty");
    } else if (!strcmp(kind, "unreadable")) {
        bad_file(kind, NULL, "cannot be opened");
    } else if (!strcmp(kind, "newer")) {
        char *at = strstr(good, "\"format_version\": 1");
        at[strlen("\"format_version\": ")] = '7';
        bad_file(kind, good, "newer");
    } else {
        printf("FAILED: no bad kind \"%s\"\n", kind);
        failures++;
    }
}

static void case_off(void)
{
    setenv("BCHOL_TUNING_FILE", "off", 1);
    bchol_context *ctx = new_context();
    bchol_params p;
    const char *source;
    bchol_potrf_params(ctx, 's', 8, &p, &source);
    CHECK(warnings == 0, "%d warnings with BCHOL_TUNING_FILE=off", warnings);
    CHECK(strstr(source, "BCHOL_TUNING_FILE=off") && strstr(source, "defaults"), "source \"%s\"", source);
    bchol_context_destroy(ctx);
}

/* ---- files that are used ------------------------------------------------------------- */

static void expect_params(bchol_context *ctx, char precision, int n, int ib, int tbc, int rpt, int shape,
                          const char *needle)
{
    bchol_params p;
    const char *source;
    bchol_potrf_params(ctx, precision, n, &p, &source);
    CHECK(p.variant == BCHOL_VARIANT_FUSED && p.ib == ib && p.tbc == tbc && p.rpt == rpt && p.shape == shape,
          "%c n = %d: ib %d tbc %d rpt %d shape %d, wanted %d %d %d %d (%s)", precision, n, p.ib, p.tbc,
          p.rpt, p.shape, ib, tbc, rpt, shape, source);
    CHECK(strstr(source, needle) != NULL, "%c n = %d: source \"%s\" lacks \"%s\"", precision, n, source, needle);
    printf("%c n = %3d: %s\n", precision, n, source);
}

/* Sections: this exact device (single precision), its architecture's default (double
 * precision), another vendor's device. */
static void good_file(char *text, size_t size, const bchol_device_info *d)
{
    char e0[2048] = "", e1[2048] = "", e2[2048] = "", s0[4096], s1[4096], s2[4096], all[12800];
    entry(e0, sizeof e0, 's', 4, 4, 1, 2, "shrink");
    entry(e0, sizeof e0, 's', 16, 8, 2, 4, "fixed");
    entry(e1, sizeof e1, 'd', 8, 16, 1, 1, "fixed");
    entry(e1, sizeof e1, 's', 8, 32, 1, 1, "fixed"); /* never reached: the exact section has s */
    entry(e2, sizeof e2, 's', 1, 2, 2, 2, "fixed");
    section(s2, sizeof s2, d->family, "Acme", "X9", "Acme Accelerator", e2);
    section(s1, sizeof s1, d->family, d->vendor, arch_of(d), "default", e1);
    section(s0, sizeof s0, d->family, d->vendor, arch_of(d), d->name, e0);
    snprintf(all, sizeof all, "%s, %s, %s", s2, s1, s0);
    file_of(text, size, all);
}

static void case_file(void)
{
    const bchol_device_info d = device();
    char path[128], text[16384];
    snprintf(path, sizeof path, "%s/good.json", dir);
    good_file(text, sizeof text, &d);
    write_file(path, text);
    setenv("BCHOL_TUNING_FILE", path, 1);
    bchol_context *ctx = new_context();
    expect_params(ctx, 's', 4, 4, 1, 2, BCHOL_SHAPE_SHRINK, "devices[2]");
    expect_params(ctx, 's', 4, 4, 1, 2, BCHOL_SHAPE_SHRINK, "measured at this size");
    expect_params(ctx, 's', 2, 4, 1, 2, BCHOL_SHAPE_SHRINK, "smallest measured size");
    expect_params(ctx, 's', 10, 4, 1, 2, BCHOL_SHAPE_SHRINK, "nearest measured size below n = 10");
    expect_params(ctx, 's', 15, 4, 1, 2, BCHOL_SHAPE_SHRINK, path);
    expect_params(ctx, 's', 16, 8, 2, 4, BCHOL_SHAPE_FIXED, "entry for n = 16");
    /* beyond the measured sizes the backend picks the variant; the fused parameters
     * still come from the nearest entry below */
    {
        bchol_params want = {.variant = BCHOL_VARIANT_FUSED}, eff;
        bchol_status st = bchol_potrf_prepare(ctx, &want, 's', 'L', 40, &eff);
        CHECK(!st && eff.ib == 8 && eff.tbc == 2 && eff.rpt == 4 && eff.shape == BCHOL_SHAPE_FIXED,
              "fused at n = 40: %s, ib %d tbc %d rpt %d shape %d", bchol_status_string(st), eff.ib,
              eff.tbc, eff.rpt, eff.shape);
        const char *source;
        bchol_potrf_params(ctx, 's', 40, &eff, &source);
        CHECK(strstr(source, "backend") != NULL, "s n = 40: source \"%s\" lacks \"backend\"", source);
    }
    if (d.fp64) {
        expect_params(ctx, 'd', 8, 16, 1, 1, BCHOL_SHAPE_FIXED, "devices[1]");
        expect_params(ctx, 'd', 3, 16, 1, 1, BCHOL_SHAPE_FIXED, "/default");
    }
    /* the factorization runs with the table's choice, and explicit fields win over it */
    factor(ctx, NULL, 10, 9);
    factor(ctx, NULL, 23, 6);
    bchol_params part = {.variant = BCHOL_VARIANT_AUTO, .tbc = 3}, eff;
    bchol_status st = bchol_potrf_prepare(ctx, &part, 's', 'L', 10, &eff);
    CHECK(!st && eff.ib == 4 && eff.tbc == 3 && eff.rpt == 2 && eff.shape == BCHOL_SHAPE_SHRINK,
          "prepare with tbc = 3 at n = 10: %s, ib %d tbc %d rpt %d shape %d", bchol_status_string(st),
          eff.ib, eff.tbc, eff.rpt, eff.shape);
    factor(ctx, &part, 10, 7);
    CHECK(warnings == 0, "%d warnings (%s) from a good file", warnings, last_warning);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
}

/* dir/name: a tuning file whose one section, for this device, holds entries (a JSON list's
 * items); its path in path. */
static void entries_file(const bchol_device_info *d, const char *entries, const char *name, char *path,
                         size_t size)
{
    char sec[8192], text[16384];
    section(sec, sizeof sec, d->family, d->vendor, arch_of(d), d->name, entries);
    file_of(text, sizeof text, sec);
    snprintf(path, size, "%s/%s", dir, name);
    write_file(path, text);
}

/* A file for this device with one float fused entry at n = 1 (and a slower interleaved
 * one), made BCHOL_TUNING_FILE; its path in path. */
static void one_entry_file(const bchol_device_info *d, const char *name, int ib, int tbc, const char *shape,
                           char *path, size_t size)
{
    char entries[2048] = "";
    entry(entries, sizeof entries, 's', 1, ib, tbc, 1, shape);
    entries_file(d, entries, name, path, size);
    setenv("BCHOL_TUNING_FILE", path, 1);
}

/* An entry's parameters for the sizes between its n and the next measured one ("between",
 * up to "between_to", here not all of them): its own at n, those between up to
 * between_to, its own again above, the next entry's at the next size. */
static void case_between(void)
{
    const bchol_device_info d = device();
    char entries[4096] = "", path[128];
    entry(entries, sizeof entries, 's', 16, 16, 4, 1, "fixed");
    entry(entries, sizeof entries, 's', 32, 16, 2, 2, "shrink");
    char text[8192];
    with_between(text, sizeof text, entries,
                 "\"between\": {\"ib\": 8, \"tbc\": 2, \"rpt\": 1, \"shape\": \"shrink\"}, "
                 "\"between_to\": 24");
    entries_file(&d, text, "between.json", path, sizeof path);
    setenv("BCHOL_TUNING_FILE", path, 1);
    bchol_context *ctx = new_context();
    expect_params(ctx, 's', 16, 16, 4, 1, BCHOL_SHAPE_FIXED, "measured at this size");
    expect_params(ctx, 's', 17, 8, 2, 1, BCHOL_SHAPE_SHRINK, "for n = 17..24, between it and the next measured");
    expect_params(ctx, 's', 24, 8, 2, 1, BCHOL_SHAPE_SHRINK, "for n = 17..24, between it and the next measured");
    expect_params(ctx, 's', 25, 16, 4, 1, BCHOL_SHAPE_FIXED, "the nearest measured size below n = 25");
    expect_params(ctx, 's', 31, 16, 4, 1, BCHOL_SHAPE_FIXED, "the nearest measured size below n = 31");
    expect_params(ctx, 's', 32, 16, 2, 2, BCHOL_SHAPE_SHRINK, "measured at this size");
    factor(ctx, NULL, 24, 5); /* the dispatcher's choice runs and factors */
    CHECK(warnings == 0, "%d warnings", warnings);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
}

/* A tuned entry that does not fit local memory at a larger n gives way to the defaults. */
static void case_local_memory(void)
{
    const bchol_device_info d = device();
    /* what a kernel may ask for: the device's local memory less its driver's reserve (the
     * limit the library and the tuner's pruning both use) */
    const uint64_t reserve = strcmp(d.family, "pocl") ? 1024 : 0;
    CHECK(d.local_mem_usable + reserve == d.local_mem, "%s: local_mem %llu, usable %llu",
          d.family, (unsigned long long)d.local_mem, (unsigned long long)d.local_mem_usable);
    char path[128];
    one_entry_file(&d, "big.json", 32, 64, "fixed", path, sizeof path);
    bchol_context *ctx = new_context();
    const int n = (int)(d.local_mem_usable / (64 * 32 * 4)) + 1; /* 64 matrices of n x 32 floats overflow */
    bchol_params p, want = defaults('s', n);
    const char *source;
    bchol_potrf_params(ctx, 's', n, &p, &source);
    CHECK(same(&p, &want), "n = %d: ib %d tbc %d, not the defaults", n, p.ib, p.tbc);
    /* only where the backend runs the fused kernel at n does its entry play a part (PoCL
     * runs the workitem variant up to n = 512) */
    CHECK(want.variant != BCHOL_VARIANT_FUSED || (strstr(source, "local memory") && strstr(source, "defaults")),
          "source \"%s\"", source);
    printf("n = %d: %s\n", n, source);
    /* where even ib = 32 rows of 64 matrices do not fit, no size takes the entry */
    if (64ull * 32 * 32 * 4 > d.local_mem_usable) {
        want = defaults('s', 1);
        bchol_potrf_params(ctx, 's', 1, &p, &source);
        CHECK(same(&p, &want) && strstr(source, "local memory"), "n = 1: ib %d tbc %d (%s)", p.ib, p.tbc, source);
    }
    CHECK(warnings == 0, "%d warnings", warnings);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
}

/* The caller's own ib with the table's tbc: an entry of narrow panels and many matrices per
 * group that fits where it was measured, asked for with panels of 32 where its tbc would
 * not fit local memory, runs with fewer matrices per group (it failed as unsupported). */
static void case_caller_ib(void)
{
    const bchol_device_info d = device();
    char path[128];
    one_entry_file(&d, "narrow.json", 4, 64, "shrink", path, sizeof path);
    bchol_context *ctx = new_context();
    const int n = (int)(d.local_mem_usable / (64 * 32 * 4)) + 1; /* 64 panels of n x 32 overflow */
    bchol_params p = {0}, got = {0};
    bchol_potrf_params(ctx, 's', n, &got, NULL);
    /* the fused fields come from the entry whichever variant the backend runs at n (PoCL:
     * workitem up to n = 512) */
    CHECK((got.variant == BCHOL_VARIANT_FUSED || got.variant == defaults('s', n).variant) &&
              got.ib == 4 && got.tbc == 64,
          "n = %d: the entry gives variant %d ib %d tbc %d", n, (int)got.variant, got.ib, got.tbc);
    p.variant = BCHOL_VARIANT_FUSED;
    p.ib = 32;
    factor(ctx, &p, n, 5);
    CHECK(warnings == 0, "%d warnings", warnings);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
}

/* Without BCHOL_TUNING_FILE, the *.json files of BCHOL_TUNING_DIR in name order; a bad one
 * is skipped with one warning. */
static void case_dir(void)
{
    const bchol_device_info d = device();
    char path[3][160], text[16384];
    snprintf(path[0], sizeof path[0], "%s/a-bad.json", dir);
    snprintf(path[1], sizeof path[1], "%s/b-good.json", dir);
    snprintf(path[2], sizeof path[2], "%s/c-notes.txt", dir);
    write_file(path[0], "{ \"format\": ");
    good_file(text, sizeof text, &d);
    write_file(path[1], text);
    write_file(path[2], "not a tuning file");
    unsetenv("BCHOL_TUNING_FILE");
    setenv("BCHOL_TUNING_DIR", dir, 1);
    bchol_context *ctx = new_context();
    expect_params(ctx, 's', 16, 8, 2, 4, BCHOL_SHAPE_FIXED, path[1]);
    CHECK(warnings == 1 && strstr(last_warning, path[0]) && strstr(last_warning, "truncated"),
          "%d warnings, last \"%s\"", warnings, last_warning);
    printf("warning: %s\n", last_warning);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_DIR");
    for (int i = 0; i < 3; i++) remove(path[i]);
}

/* The shipped files: all of them must load without a warning; on PoCL one applies. */
static void case_shipped(void)
{
    unsetenv("BCHOL_TUNING_FILE");
    unsetenv("BCHOL_TUNING_DIR");
    const bchol_device_info d = device();
    bchol_context *ctx = new_context();
    bchol_params p;
    const char *source;
    /* n = 128: above the sizes PoCL runs through the interleaved layout (the largest the
     * shipped PoCL file measured) */
    bchol_potrf_params(ctx, 's', 128, &p, &source);
    printf("shipped: %s\n", source);
    CHECK(warnings == 0, "a shipped tuning file gives a warning: %s", last_warning);
    CHECK(strstr(source, "tuning") != NULL, "source \"%s\" names no tuning folder", source);
    if (!strcmp(d.family, "pocl"))
        CHECK(!strncmp(source, "tuning file ", 12) && strstr(source, "family pocl"),
              "PoCL: the shipped file is not used: %s", source);
    factor(ctx, NULL, 128, 2);
    bchol_context_destroy(ctx);
}

/* ---- bchol_potrf_prepare ---------------------------------------------------------- */

static void case_prepare(void)
{
    setenv("BCHOL_TUNING_FILE", "off", 1);
    bchol_context *ctx = new_context();
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    bchol_params eff, bad = {.variant = BCHOL_VARIANT_FUSED, .ib = 40};
    struct {
        const char *what;
        bchol_status got, want;
        const char *needle;
    } calls[] = {
        {"ctx NULL", bchol_potrf_prepare(NULL, NULL, 's', 'L', 8, &eff), BCHOL_ERR_CONTEXT, "argument 1"},
        {"ib 40", bchol_potrf_prepare(ctx, &bad, 's', 'L', 8, &eff), BCHOL_ERR_ARGUMENT, "argument 2 (params->ib = 40)"},
        {"precision x", bchol_potrf_prepare(ctx, NULL, 'x', 'L', 8, &eff), BCHOL_ERR_ARGUMENT, "argument 3"},
        {"uplo Q", bchol_potrf_prepare(ctx, NULL, 's', 'Q', 8, &eff), BCHOL_ERR_UPLO, "argument 4"},
        {"n -1", bchol_potrf_prepare(ctx, NULL, 's', 'L', -1, &eff), BCHOL_ERR_N, "argument 5"},
        {"effective NULL", bchol_potrf_prepare(ctx, NULL, 's', 'L', 8, NULL), BCHOL_ERR_ARGUMENT, "argument 6"},
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        /* the message is this thread's last: re-run the call right before reading it */
        CHECK(calls[i].got == calls[i].want, "%s: %s", calls[i].what, bchol_status_string(calls[i].got));
    }
    CHECK(bchol_potrf_prepare(ctx, NULL, 's', 'L', -1, &eff) == BCHOL_ERR_N &&
              strstr(bchol_last_error(ctx), "argument 5 (n = -1)"),
          "n = -1: %s", bchol_last_error(ctx));
    CHECK(bchol_potrf_prepare(ctx, NULL, 's', 'Q', 8, &eff) == BCHOL_ERR_UPLO &&
              strstr(bchol_last_error(ctx), "argument 4"),
          "uplo: %s", bchol_last_error(ctx));

    /* the defaults are what the dispatcher picks */
    bchol_params want;
    bchol_potrf_params(ctx, 's', 24, &want, NULL);
    CHECK(bchol_potrf_prepare(ctx, NULL, 's', 'U', 24, &eff) == BCHOL_SUCCESS && same(&eff, &want),
          "defaults at n = 24: %s", bchol_last_error(ctx));
    /* more work-items than a group takes: the library fits tbc (CL_KERNEL_WORK_GROUP_SIZE) */
    int n = (int)(d.max_work_group / 64) + 4;
    bchol_params big = {.variant = BCHOL_VARIANT_FUSED, .ib = 4, .tbc = 64, .rpt = 1, .shape = BCHOL_SHAPE_FIXED};
    if ((unsigned long long)64 * n * 4 * 4 <= d.local_mem_usable) {
        bchol_status st = bchol_potrf_prepare(ctx, &big, 's', 'L', n, &eff);
        CHECK(st == BCHOL_SUCCESS && eff.tbc < 64 && (size_t)eff.tbc * (size_t)((n + eff.rpt - 1) / eff.rpt) <= d.max_work_group,
              "n = %d with tbc = 64: %s, tbc %d rpt %d (%s)", n, bchol_status_string(st), eff.tbc, eff.rpt,
              bchol_last_error(ctx));
        printf("n = %d, tbc = 64, rpt = 1 runs as tbc = %d, rpt = %d\n", n, eff.tbc, eff.rpt);
        factor(ctx, &big, n, 3);
    }
    /* n beyond local memory */
    bchol_params wide = {.variant = BCHOL_VARIANT_FUSED, .ib = 32, .tbc = 64, .rpt = 1, .shape = BCHOL_SHAPE_FIXED};
    n = (int)(d.local_mem_usable / (64 * 32 * 4)) + 1;
    CHECK(bchol_potrf_prepare(ctx, &wide, 's', 'L', n, &eff) == BCHOL_ERR_UNSUPPORTED_SIZE &&
              strstr(bchol_last_error(ctx), "local memory"),
          "n = %d beyond local memory: %s", n, bchol_last_error(ctx));
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
}

/* ---- the vbatched routines' entries ---------------------------------------------------- */

/* A vbatched entry at n = 8 serves max_n 8..15 (nearest below) and not the strided
 * routines; above the file's sizes too (nearest below), below them the smallest. A
 * variable-size batch factors with its parameters. */
static void case_vbatched(void)
{
    const bchol_device_info d = device();
    char entries[4096] = "", path[128];
    entry(entries, sizeof entries, 's', 8, 4, 1, 2, "fixed");
    size_t len = strlen(entries);
    snprintf(entries + len, sizeof entries - len,
             ", {\"precision\": \"s\", \"variant\": \"vbatched\", \"n\": 8, \"params\": {\"ib\": 8, "
             "\"rpt\": 4, \"shape\": \"fixed\", \"etm\": \"classic\", \"schedule\": \"greedy\"}, "
             "\"ms\": 0.01}, {\"precision\": \"s\", \"variant\": \"vbatched\", \"n\": 20, \"params\": "
             "{\"ib\": 4, \"tbc\": 3, \"rpt\": 2, \"shape\": \"pack\", \"etm\": \"aggressive\", "
             "\"schedule\": \"lazy\", \"order\": \"steps\"}}");
    entries_file(&d, entries, "vbatched.json", path, sizeof path);
    setenv("BCHOL_TUNING_FILE", path, 1);
    warnings = 0;
    bchol_context *ctx = new_context();
    const int sizes[] = {8, 12, 3};
    for (int i = 0; i < 3; i++) {
        bchol_vbatched_params v;
        const char *source;
        bchol_potrf_vbatched_params(ctx, 's', sizes[i], 0, &v, &source);
        printf("max_n = %d: %s\n", sizes[i], source);
        CHECK(v.fused.ib == 8 && v.fused.rpt == 4 && v.fused.shape == BCHOL_SHAPE_FIXED &&
                  v.etm == BCHOL_ETM_CLASSIC && v.schedule == BCHOL_SCHEDULE_GREEDY,
              "max_n = %d: ib %d rpt %d tbc %d shape %d etm %d schedule %d", sizes[i], v.fused.ib, v.fused.rpt,
              v.fused.tbc, v.fused.shape, (int)v.etm, (int)v.schedule);
        CHECK(strstr(source, path) && strstr(source, "s vbatched entry for n = 8"), "max_n = %d: source \"%s\"",
              sizes[i], source);
    }
    /* an entry with tbc and order (written since the fused kernel packs matrices); the one
     * at n = 8 has neither, and keeps the backend's */
    {
        bchol_vbatched_params v, d;
        const char *source;
        bchol_potrf_vbatched_params(ctx, 's', 24, 0, &v, &source);
        printf("max_n = 24: %s\n", source);
        CHECK(v.fused.ib == 4 && v.fused.rpt == 2 && v.fused.tbc == 3 && v.fused.shape == BCHOL_SHAPE_PACK &&
                  v.etm == BCHOL_ETM_AGGRESSIVE && v.schedule == BCHOL_SCHEDULE_LAZY &&
                  v.order == BCHOL_ORDER_STEPS && strstr(source, "s vbatched entry for n = 20"),
              "max_n = 24: ib %d rpt %d tbc %d shape %d etm %d schedule %d order %d from \"%s\"",
              v.fused.ib, v.fused.rpt, v.fused.tbc, v.fused.shape, (int)v.etm, (int)v.schedule,
              (int)v.order, source);
        setenv("BCHOL_TUNING_FILE", "off", 1);
        bchol_context *plain = new_context();
        bchol_potrf_vbatched_params(plain, 's', 8, 0, &d, NULL);
        bchol_potrf_vbatched_params(ctx, 's', 8, 0, &v, NULL);
        CHECK(v.fused.tbc == d.fused.tbc && v.order == d.order, "max_n = 8: tbc %d order %d, the backend's %d %d",
              v.fused.tbc, (int)v.order, d.fused.tbc, (int)d.order);
        bchol_context_destroy(plain);
        setenv("BCHOL_TUNING_FILE", path, 1);
    }
    /* the strided routines keep the fused entry (the vbatched one, though faster, is not
     * one of their variants) */
    bchol_params p;
    const char *source;
    bchol_potrf_params(ctx, 's', 8, &p, &source);
    CHECK(p.variant == BCHOL_VARIANT_FUSED && p.ib == 4 && p.rpt == 2 && !strstr(source, "vbatched entry"),
          "strided n = 8: variant %d ib %d rpt %d from \"%s\"", (int)p.variant, p.ib, p.rpt, source);
    /* a variable-size batch (orders 1..8) with the tuned parameters */
    {
        enum { B = 7, N = 8 };
        int n[B], lda[B], info[B];
        int64_t off[B];
        static float a[B * N * N], a0[B * N * N];
        util_rng rng;
        util_rng_seed(&rng, 9);
        for (int b = 0; b < B; b++) {
            n[b] = 1 + (b * 3) % N;
            lda[b] = N;
            off[b] = (int64_t)b * N * N;
            util_spd(a + off[b], 0, 'L', n[b], N, &rng);
        }
        memcpy(a0, a, sizeof a);
        bchol_status st = bchol_spotrf_vbatched_host(ctx, 'L', n, lda, off, a, B, info);
        CHECK(st == BCHOL_SUCCESS, "vbatched: %s: %s", bchol_status_string(st), bchol_last_error(ctx));
        for (int b = 0; b < B && !st; b++) {
            double e = util_backward_error(a0 + off[b], a + off[b], 0, 'L', n[b], N);
            CHECK(info[b] == 0 && e <= 30, "vbatched matrix %d (n = %d): info %d, backward error %g", b, n[b],
                  info[b], e);
        }
    }
    CHECK(warnings == 0, "warning: %s", last_warning);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
}

/* A variable-size batch whose schedule is left to the library runs every step in one
 * launch where the device holds the batch at once (the backend's bound, forced here on any
 * device by BCHOL_VBATCHED_ONE_LAUNCH_PER_CU=4096): the query says so and why, the call
 * launches as an explicit ONE_LAUNCH call does and factors the batch; a caller's schedule
 * is kept; past the bound, for batch 0 (a batch that fills the device) and above the
 * crossover the per-step schedule stays. */
enum { OL_N = 16 };

/* Launches of one spotrf_vbatched_ex call on the first batch matrices (ib 4: four steps). */
static long one_launch_calls(bchol_context *ctx, bchol_schedule schedule, int64_t batch, cl_mem n,
                             cl_mem off, cl_mem A, cl_mem info)
{
    bchol_vbatched_params prm = {{0}, BCHOL_ETM_DEFAULT, schedule, 0, BCHOL_ORDER_DEFAULT};
    prm.fused.ib = 4;
    const long before = shim_launches();
    bchol_status st = bchol_spotrf_vbatched_ex(ctx, &prm, 'L', OL_N, n, n, off, A, batch, info, NULL);
    clFinish(bchol_context_queue(ctx));
    CHECK(st == BCHOL_SUCCESS, "one launch: schedule %d, batch %lld: %s", (int)schedule,
          (long long)batch, bchol_last_error(ctx));
    return shim_launches() - before;
}

static void case_one_launch(void)
{
    bchol_context *ctx = new_context();
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    const int64_t fits = (int64_t)d.compute_units * 4096 / OL_N;
    bchol_vbatched_params full, small, over, high;
    const char *source = NULL;
    bchol_potrf_vbatched_params(ctx, 's', OL_N, 0, &full, NULL);
    bchol_potrf_vbatched_params(ctx, 's', OL_N, fits, &small, &source);
    printf("batch %lld of max_n %d: %s\n", (long long)fits, OL_N, source);
    CHECK(full.schedule != BCHOL_SCHEDULE_ONE_LAUNCH, "batch 0: schedule %d", (int)full.schedule);
    CHECK(small.schedule == BCHOL_SCHEDULE_ONE_LAUNCH && strstr(source, "one launch: batch * max_n"),
          "batch %lld: schedule %d from \"%s\"", (long long)fits, (int)small.schedule, source);
    CHECK(small.fused.ib == full.fused.ib && small.fused.tbc == full.fused.tbc &&
              small.etm == full.etm && small.crossover == full.crossover,
          "batch %lld: more than the schedule changed", (long long)fits);
    bchol_potrf_vbatched_params(ctx, 's', OL_N, fits + 1, &over, NULL);
    CHECK(over.schedule == full.schedule, "batch %lld: schedule %d, wanted %d", (long long)fits + 1,
          (int)over.schedule, (int)full.schedule);
    /* above the crossover (a batch split between the variants) with batch * max_n in bounds */
    bchol_potrf_vbatched_params(ctx, 's', 4096, 1, &high, NULL);
    CHECK(high.crossover >= 4096 || high.schedule != BCHOL_SCHEDULE_ONE_LAUNCH,
          "max_n 4096 above the crossover %d: one launch", high.crossover);

    /* the calls: orders 1..OL_N packed, lda = n */
    const int64_t B = fits + 1;
    int *n = malloc(sizeof(int) * (size_t)B), *info = malloc(sizeof(int) * (size_t)B);
    int64_t *off = malloc(sizeof(int64_t) * (size_t)B);
    util_rng rng;
    util_rng_seed(&rng, 21);
    for (int64_t b = 0; b < B; b++) n[b] = 1 + (int)(b % OL_N);
    const int64_t elems = util_pack(n, n, B, 0, 0, NULL, off);
    float *a = malloc(sizeof(float) * (size_t)elems), *a0 = malloc(sizeof(float) * (size_t)elems);
    for (int64_t b = 0; b < B; b++) util_spd(a + off[b], 0, 'L', n[b], n[b], &rng);
    memcpy(a0, a, sizeof(float) * (size_t)elems);
    cl_context cl = bchol_context_cl_context(ctx);
    const cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    cl_int err;
    cl_mem dn = clCreateBuffer(cl, in, sizeof(int) * (size_t)B, n, &err),
           doff = clCreateBuffer(cl, in, sizeof(int64_t) * (size_t)B, off, &err),
           dA = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               sizeof(float) * (size_t)elems, a, &err),
           dI = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(int) * (size_t)B, NULL, &err);
    CHECK(dn && doff && dA && dI, "one launch: buffers");
    if (dn && doff && dA && dI) {
        const long dflt = one_launch_calls(ctx, BCHOL_SCHEDULE_DEFAULT, fits, dn, doff, dA, dI);
        clEnqueueReadBuffer(bchol_context_queue(ctx), dA, CL_TRUE, 0, sizeof(float) * (size_t)elems,
                            a, 0, NULL, NULL);
        clEnqueueReadBuffer(bchol_context_queue(ctx), dI, CL_TRUE, 0, sizeof(int) * (size_t)fits,
                            info, 0, NULL, NULL);
        int bad = 0;
        for (int64_t b = 0; b < fits; b++) {
            const double e = util_backward_error(a0 + off[b], a + off[b], 0, 'L', n[b], n[b]);
            if (info[b] != 0 || !(e <= 30)) {
                if (!bad++)
                    printf("matrix %lld (n = %d): info %d, backward error %g\n", (long long)b, n[b],
                           info[b], e);
            }
        }
        CHECK(!bad, "one launch: %d of %lld matrices wrong", bad, (long long)fits);
        /* the factors are the input again for the launch counts (their values do not matter) */
        const long one = one_launch_calls(ctx, BCHOL_SCHEDULE_ONE_LAUNCH, fits, dn, doff, dA, dI);
        const long kept = one_launch_calls(ctx, full.schedule, fits, dn, doff, dA, dI);
        const long past = one_launch_calls(ctx, BCHOL_SCHEDULE_DEFAULT, B, dn, doff, dA, dI);
        const long past_steps = one_launch_calls(ctx, full.schedule, B, dn, doff, dA, dI);
        printf("launches: default %ld, one launch %ld, schedule %d %ld; batch %lld: default %ld, "
               "schedule %d %ld\n",
               dflt, one, (int)full.schedule, kept, (long long)B, past, (int)full.schedule,
               past_steps);
        CHECK(dflt == one && kept >= one + 3, "batch %lld: default %ld launches, one launch %ld, "
              "the caller's schedule %ld", (long long)fits, dflt, one, kept);
        CHECK(past == past_steps, "batch %lld: default %ld launches, the per-step schedule %ld",
              (long long)B, past, past_steps);
    }
    if (dn) clReleaseMemObject(dn);
    if (doff) clReleaseMemObject(doff);
    if (dA) clReleaseMemObject(dA);
    if (dI) clReleaseMemObject(dI);
    free(n), free(info), free(off), free(a), free(a0);
    CHECK(warnings == 0, "warning: %s", last_warning);
    bchol_context_destroy(ctx);
}

/* bchol_potrf_prepare builds what the call runs, for every variant: a factorization right
 * after it builds no program (clBuildProgram counted by cl_shim). The separate variant's
 * three kernels; the interleaved variant's conversions and generated kernel, chunked (the
 * chunk built in) and on a batch of several work-groups. */
static void case_prepare_builds(void)
{
    setenv("BCHOL_TUNING_FILE", "off", 1);
    bchol_context *ctx = new_context();
    const bchol_params sep = {.variant = BCHOL_VARIANT_SEPARATE, .nb = 4, .pb = 2, .gemm = BCHOL_GEMM_OWN,
                              .tile = 16};
    const bchol_params ilv = {.variant = BCHOL_VARIANT_INTERLEAVED, .inb = 4, .looking = BCHOL_LOOKING_LEFT,
                              .unroll = BCHOL_UNROLL_TILES, .chunking = BCHOL_CHUNKED, .chunk = 16,
                              .math = BCHOL_MATH_IEEE};
    const struct {
        const char *name;
        const bchol_params *p;
    } cases[] = {{"separate", &sep}, {"interleaved", &ilv}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bchol_params eff;
        const long before = shim_calls(SHIM_BUILD);
        bchol_status st = bchol_potrf_prepare(ctx, cases[i].p, 's', 'L', 9, &eff);
        const long prepared = shim_calls(SHIM_BUILD);
        CHECK(st == BCHOL_SUCCESS && prepared > before, "%s: prepare %s (%s), %ld builds", cases[i].name,
              bchol_status_string(st), bchol_last_error(ctx), prepared - before);
        factor(ctx, &eff, 9, 3 * 16 + 5);
        CHECK(shim_calls(SHIM_BUILD) == prepared, "%s: the factorization after prepare built %ld programs",
              cases[i].name, shim_calls(SHIM_BUILD) - prepared);
        printf("%s: prepare built %ld programs, the call after it %ld\n", cases[i].name, prepared - before,
               shim_calls(SHIM_BUILD) - prepared);
    }
    bchol_context_destroy(ctx);
}

/* ---- the solve's entries ---------------------------------------------------------------- */

/* What the solve runs with no tuning file. */
static bchol_solve_params solve_defaults(char precision, int n, int nrhs)
{
    setenv("BCHOL_TUNING_FILE", "off", 1);
    bchol_context *ctx = new_context();
    bchol_solve_params p;
    bchol_potrs_params(ctx, precision, n, nrhs, &p, NULL);
    bchol_context_destroy(ctx);
    return p;
}

static void expect_solve(bchol_context *ctx, char precision, int n, int nrhs, bchol_solve_params want,
                         const char *needle)
{
    bchol_solve_params p;
    const char *source;
    bchol_status st = bchol_potrs_params(ctx, precision, n, nrhs, &p, &source);
    CHECK(st == BCHOL_SUCCESS && p.variant == BCHOL_SOLVE_SUBST && p.nt == want.nt && p.rpt == want.rpt &&
              p.tbc == want.tbc,
          "%c n = %d nrhs = %d: nt %d rpt %d tbc %d, wanted %d %d %d (%s)", precision, n, nrhs, p.nt, p.rpt, p.tbc,
          want.nt, want.rpt, want.tbc, source);
    CHECK(strstr(source, needle) != NULL, "%c n = %d nrhs = %d: source \"%s\" lacks \"%s\"", precision, n, nrhs,
          source, needle);
    printf("%c n = %3d nrhs = %2d: %s\n", precision, n, nrhs, source);
}

/* clBuildProgram calls (cl_shim) since the last call of this */
static long new_builds(void)
{
    static long last;
    long now = shim_calls(SHIM_BUILD), d = now - last;
    last = now;
    return d;
}

/*
 * A file with single-precision solve entries for this device: n = 4 at nrhs 2 and 16, n = 16
 * at nrhs 1 with a work-group of 16 * 64 (too large beyond n = max_work_group / 64). The
 * dispatcher's choice (bchol_potrs_params) and its source per (n, nrhs); then that potrs,
 * posv and the vbatched solve run the entry: a call without params first, then the entry's
 * parameters explicitly, which must build nothing new (a call with the defaults does).
 */
static void case_solve(void)
{
    const bchol_device_info d = device();
    const bchol_solve_params e2 = {BCHOL_SOLVE_SUBST, 2, 1, 3}, e16 = {BCHOL_SOLVE_SUBST, 4, 2, 2},
                             e1 = {BCHOL_SOLVE_SUBST, 1, 1, 64};
    const int big = (int)(d.max_work_group / 64) + 1 > 17 ? (int)(d.max_work_group / 64) + 1 : 17;
    char entries[2048], path[128];
    snprintf(entries, sizeof entries,
             "{\"precision\": \"s\", \"variant\": \"solve\", \"n\": 4, \"nrhs\": 2, \"params\": {\"nt\": 2, "
             "\"rpt\": 1, \"tbc\": 3}, \"ms\": 0.5, \"default_ms\": 0.75}, "
             "{\"precision\": \"s\", \"variant\": \"solve\", \"n\": 4, \"nrhs\": 16, \"params\": {\"nt\": 4, "
             "\"rpt\": 2, \"tbc\": 2}}, "
             "{\"precision\": \"s\", \"variant\": \"solve\", \"n\": 16, \"nrhs\": 1, \"params\": {\"nt\": 1, "
             "\"rpt\": 1, \"tbc\": 64}}");
    entries_file(&d, entries, "solve.json", path, sizeof path);
    const bchol_solve_params dflt_big = solve_defaults('s', big, 3), dflt = solve_defaults('s', 4, 2);
    setenv("BCHOL_TUNING_FILE", path, 1);
    warnings = 0;
    bchol_context *ctx = new_context();
    char here[512];
    snprintf(here, sizeof here, "tuning file %s, devices[0]", path);
    expect_solve(ctx, 's', 4, 2, e2, "s solve entry for n = 4, nrhs = 2, measured at this size, measured at this nrhs");
    expect_solve(ctx, 's', 4, 2, e2, "tuned 0.5 ms vs 0.75 ms with the defaults");
    expect_solve(ctx, 's', 6, 16, e16, "s solve entry for n = 4, nrhs = 16, the nearest measured size below n = 6");
    expect_solve(ctx, 's', 5, 5, e2, "the closest measured nrhs to 5"); /* 5/2 < 16/5 */
    expect_solve(ctx, 's', 5, 6, e16, "s solve entry for n = 4, nrhs = 16");
    expect_solve(ctx, 's', 2, 1, e2, "the smallest measured size (n = 2 is below it)");
    expect_solve(ctx, 's', 16, 3, e1, here);
    expect_solve(ctx, 's', big - 1, 3, e1, here);
    /* the n = 16 entry's group of ceil(n/1) * 64 work-items does not fit the device: defaults */
    expect_solve(ctx, 's', big, 3, dflt_big, "defaults (the tuned s solve entry for n = 16, nrhs = 1 in");
    expect_solve(ctx, 's', big, 3, dflt_big, "work-items per group");
    if (d.fp64) expect_solve(ctx, 'd', 4, 2, solve_defaults('d', 4, 2), "have no d solve entry");
    CHECK(!(dflt.nt == e2.nt && dflt.rpt == e2.rpt && dflt.tbc == e2.tbc),
          "test setup: the n = 4, nrhs = 2 entry is the defaults");

    /* posv, then potrs, on host arrays without params: n = 4, nrhs = 2 */
    enum { B = 7, N = 4, K = 2 };
    static float a[B * N * N], a0[B * N * N], b[B * N * K], b0[B * N * K];
    int info[B];
    util_rng rng;
    util_rng_seed(&rng, 21);
    for (int k = 0; k < B; k++) util_spd(a + k * N * N, 0, 'L', N, N, &rng);
    util_fill_uniform(b, 0, N, B * K, N, &rng);
    memcpy(a0, a, sizeof a);
    memcpy(b0, b, sizeof b);
    bchol_status st = bchol_sposv_batched_host(ctx, 'L', N, K, a, N, N * N, b, N, N * K, B, info);
    CHECK(st == BCHOL_SUCCESS, "posv: %s: %s", bchol_status_string(st), bchol_last_error(ctx));
    double worst = 0;
    for (int k = 0; k < B && !st; k++) {
        double r = util_solve_residual(a0 + k * N * N, 0, 'L', N, N, K, b + k * N * K, N, b0 + k * N * K, N);
        CHECK(info[k] == 0, "posv matrix %d: info %d", k, info[k]);
        if (!(r <= worst)) worst = r;
    }
    CHECK(worst <= 30, "posv: residual %g", worst);
    new_builds();
    bchol_solve_params eff;
    st = bchol_potrs_prepare(ctx, &e2, 's', 'L', N, K, &eff);
    CHECK(st == BCHOL_SUCCESS && eff.nt == e2.nt && eff.rpt == e2.rpt && eff.tbc == e2.tbc,
          "prepare of the entry: %s, nt %d rpt %d tbc %d", bchol_status_string(st), eff.nt, eff.rpt, eff.tbc);
    long builds = new_builds();
    CHECK(builds == 0, "posv did not run the entry: preparing it built %ld programs", builds);
    memcpy(b, b0, sizeof b);
    st = bchol_spotrs_batched_host(ctx, 'L', N, K, a, N, N * N, b, N, N * K, B);
    builds = new_builds();
    CHECK(st == BCHOL_SUCCESS && builds == 0, "potrs: %s, %ld programs built (the entry's was ready)",
          bchol_status_string(st), builds);
    for (int k = 0; k < B && !st; k++) {
        double r = util_solve_residual(a0 + k * N * N, 0, 'L', N, N, K, b + k * N * K, N, b0 + k * N * K, N);
        CHECK(r <= 30, "potrs system %d: residual %g", k, r);
    }
    /* the count can fail: the defaults' kernel is another program */
    st = bchol_potrs_prepare(ctx, &dflt, 's', 'L', N, K, &eff);
    builds = new_builds();
    CHECK(st == BCHOL_SUCCESS && builds > 0, "preparing the defaults built %ld programs", builds);
    printf("posv, potrs: the entry's kernel; the defaults' another (%ld builds)\n", builds);

    /* the vbatched solve, largest n 4 and nrhs 16 (the n = 4, nrhs = 16 entry): host form
     * without params, then the device form with the entry's */
    {
        enum { VB = 3, NMAX = 4, KMAX = 16 };
        const int vn[VB] = {4, 3, 4}, vk[VB] = {16, 5, 1}, vlda[VB] = {NMAX, NMAX, NMAX}, vldb[VB] = {NMAX, NMAX, NMAX};
        const int64_t offa[VB] = {0, NMAX * NMAX, 2 * NMAX * NMAX}, offb[VB] = {0, NMAX * KMAX, 2 * NMAX * KMAX};
        static float va[VB * NMAX * NMAX], va0[VB * NMAX * NMAX], vb[VB * NMAX * KMAX], vb0[VB * NMAX * KMAX];
        int vinfo[VB];
        for (int k = 0; k < VB; k++) {
            util_spd(va0 + offa[k], 0, 'L', vn[k], NMAX, &rng);
            memcpy(va + offa[k], va0 + offa[k], sizeof(float) * NMAX * NMAX);
            util_ref_factor(va + offa[k], 0, 'L', vn[k], NMAX);
            util_fill_uniform(vb0 + offb[k], 0, vn[k], vk[k], NMAX, &rng);
        }
        memcpy(vb, vb0, sizeof vb);
        st = bchol_spotrs_vbatched_host(ctx, 'L', vn, vk, vlda, vldb, offa, va, offb, vb, VB, vinfo);
        CHECK(st == BCHOL_SUCCESS, "potrs_vbatched_host: %s: %s", bchol_status_string(st), bchol_last_error(ctx));
        for (int k = 0; k < VB && !st; k++) {
            double r = util_solve_residual(va0 + offa[k], 0, 'L', vn[k], NMAX, vk[k], vb + offb[k], NMAX,
                                           vb0 + offb[k], NMAX);
            CHECK(vinfo[k] == 0 && r <= 30, "vbatched system %d: info %d, residual %g", k, vinfo[k], r);
        }
        new_builds();
        cl_context cl = bchol_context_cl_context(ctx);
        const cl_mem_flags f = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
        cl_int err;
        cl_mem dn = clCreateBuffer(cl, f, sizeof vn, (void *)vn, &err), dk = clCreateBuffer(cl, f, sizeof vk, (void *)vk, &err),
               dlda = clCreateBuffer(cl, f, sizeof vlda, (void *)vlda, &err),
               dldb = clCreateBuffer(cl, f, sizeof vldb, (void *)vldb, &err),
               doa = clCreateBuffer(cl, f, sizeof offa, (void *)offa, &err),
               dob = clCreateBuffer(cl, f, sizeof offb, (void *)offb, &err),
               dA = clCreateBuffer(cl, f, sizeof va, va, &err), dB = clCreateBuffer(cl, f, sizeof vb0, vb0, &err),
               dI = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof vinfo, NULL, &err);
        cl_event ev = NULL;
        st = bchol_spotrs_vbatched_ex(ctx, &e16, 'L', NMAX, KMAX, dn, dk, dlda, dldb, doa, dA, dob, dB, VB, dI, &ev);
        if (ev) {
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
        }
        builds = new_builds();
        CHECK(st == BCHOL_SUCCESS && builds == 0,
              "vbatched: the host form did not run the n = 4, nrhs = 16 entry (%s, %ld programs built for it)",
              bchol_status_string(st), builds);
        printf("vbatched: the entry's kernel (%ld builds for the explicit call)\n", builds);
        cl_mem all[] = {dn, dk, dlda, dldb, doa, dob, dA, dB, dI};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            if (all[i]) clReleaseMemObject(all[i]);
    }
    CHECK(warnings == 0, "warning: %s", last_warning);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
}

/* bchol_potrs_params: the variant, nt, rpt and tbc, and a needle of the source. */
static void expect_solve_variant(bchol_context *ctx, char precision, int n, int nrhs, bchol_solve_params want,
                                 const char *needle)
{
    bchol_solve_params p;
    const char *source = "";
    bchol_status st = bchol_potrs_params(ctx, precision, n, nrhs, &p, &source);
    const int sub = want.variant == BCHOL_SOLVE_SUBST;
    CHECK(st == BCHOL_SUCCESS && p.variant == want.variant && p.nt == want.nt &&
              (!sub || (p.rpt == want.rpt && p.tbc == want.tbc)),
          "%c n = %d nrhs = %d: variant %d nt %d rpt %d tbc %d, wanted %d %d %d %d (%s)", precision, n, nrhs,
          p.variant, p.nt, p.rpt, p.tbc, want.variant, want.nt, want.rpt, want.tbc, source);
    CHECK(strstr(source, needle) != NULL, "%c n = %d nrhs = %d: source \"%s\" lacks \"%s\"", precision, n, nrhs,
          source, needle);
    printf("%c n = %3d nrhs = %2d: %s\n", precision, n, nrhs, source);
}

/* potrs and posv on host arrays (n, nrhs, float, lower) without params: the residuals. */
static void solve_runs(bchol_context *ctx, int n, int nrhs, const char *what)
{
    enum { B = 9 };
    float *a = malloc(sizeof(float) * B * n * n), *a0 = malloc(sizeof(float) * B * n * n),
          *b = malloc(sizeof(float) * B * n * nrhs), *b0 = malloc(sizeof(float) * B * n * nrhs);
    int info[B];
    util_rng rng;
    util_rng_seed(&rng, 33);
    for (int k = 0; k < B; k++) util_spd(a + k * n * n, 0, 'L', n, n, &rng);
    util_fill_uniform(b, 0, n, B * nrhs, n, &rng);
    memcpy(a0, a, sizeof(float) * B * n * n);
    memcpy(b0, b, sizeof(float) * B * n * nrhs);
    bchol_status st = bchol_sposv_batched_host(ctx, 'L', n, nrhs, a, n, n * n, b, n, n * nrhs, B, info);
    CHECK(st == BCHOL_SUCCESS, "%s: posv: %s: %s", what, bchol_status_string(st), bchol_last_error(ctx));
    for (int k = 0; k < B && !st; k++) {
        double r = util_solve_residual(a0 + k * n * n, 0, 'L', n, n, nrhs, b + k * n * nrhs, n, b0 + k * n * nrhs, n);
        CHECK(info[k] == 0 && r <= 30, "%s: posv system %d: info %d, residual %g", what, k, info[k], r);
    }
    memcpy(b, b0, sizeof(float) * B * n * nrhs);
    st = bchol_spotrs_batched_host(ctx, 'L', n, nrhs, a, n, n * n, b, n, n * nrhs, B);
    CHECK(st == BCHOL_SUCCESS, "%s: potrs: %s: %s", what, bchol_status_string(st), bchol_last_error(ctx));
    for (int k = 0; k < B && !st; k++) {
        double r = util_solve_residual(a0 + k * n * n, 0, 'L', n, n, nrhs, b + k * n * nrhs, n, b0 + k * n * nrhs, n);
        CHECK(r <= 30, "%s: potrs system %d: residual %g", what, k, r);
    }
    free(a);
    free(a0);
    free(b);
    free(b0);
}

/* Programs that preparing params builds (with BCHOL_SOLVE_WORKITEM_VW = vw unless 0): none
 * when a call just ran that kernel. */
static long prepare_builds(bchol_context *ctx, bchol_solve_params params, int vw, int n, int nrhs)
{
    char text[16];
    snprintf(text, sizeof text, "%d", vw);
    if (vw) setenv("BCHOL_SOLVE_WORKITEM_VW", text, 1);
    new_builds();
    bchol_solve_params eff;
    bchol_status st = bchol_potrs_prepare(ctx, &params, 's', 'L', n, nrhs, &eff);
    CHECK(st == BCHOL_SUCCESS, "prepare: %s", bchol_status_string(st));
    unsetenv("BCHOL_SOLVE_WORKITEM_VW");
    return new_builds();
}

/*
 * Solve and solve-workitem entries compete (the faster at the nearest n and closest nrhs
 * decides which solve runs): at n = 4 the workitem entry (nt 2, vw 4) is faster, at n = 16
 * the solve entry; potrs and posv run the winner (its kernel built by the call: preparing
 * it again builds nothing, while another vw or shape does) and are right. A forced
 * variant takes its own kind's entry; a section with one kind only keeps the backend's
 * variant; the vbatched solve never takes solve-workitem entries.
 */
static void case_solve_workitem(void)
{
    const bchol_device_info d = device();
    const bchol_solve_params wi4 = {BCHOL_SOLVE_WORKITEM, 2, 0, 0}, sub4 = {BCHOL_SOLVE_SUBST, 2, 1, 3},
                             sub16 = {BCHOL_SOLVE_SUBST, 1, 1, 2}, wi16 = {BCHOL_SOLVE_WORKITEM, 1, 0, 0};
    char entries[2048], path[128];
    snprintf(entries, sizeof entries,
             "{\"precision\": \"s\", \"variant\": \"solve-workitem\", \"n\": 4, \"nrhs\": 2, \"params\": {\"nt\": 2, "
             "\"vw\": 4}, \"ms\": 0.2, \"default_ms\": 0.25}, "
             "{\"precision\": \"s\", \"variant\": \"solve\", \"n\": 4, \"nrhs\": 2, \"params\": {\"nt\": 2, "
             "\"rpt\": 1, \"tbc\": 3}, \"ms\": 0.5, \"default_ms\": 0.75}, "
             "{\"precision\": \"s\", \"variant\": \"solve\", \"n\": 16, \"nrhs\": 2, \"params\": {\"nt\": 1, "
             "\"rpt\": 1, \"tbc\": 2}, \"ms\": 0.1}, "
             "{\"precision\": \"s\", \"variant\": \"solve-workitem\", \"n\": 16, \"nrhs\": 2, \"params\": {\"nt\": 1, "
             "\"vw\": 16}, \"ms\": 0.3}");
    entries_file(&d, entries, "solve_workitem.json", path, sizeof path);
    const bchol_solve_params dflt = solve_defaults('d', 4, 2);
    setenv("BCHOL_TUNING_FILE", path, 1);
    unsetenv("BCHOL_SOLVE_VARIANT");
    warnings = 0;
    bchol_context *ctx = new_context();
    expect_solve_variant(ctx, 's', 4, 2, wi4, "tuning table: the workitem solve, nt = 2, vw = 4: tuning file");
    expect_solve_variant(ctx, 's', 4, 2, wi4, "s solve-workitem entry for n = 4, nrhs = 2, measured at this size");
    expect_solve_variant(ctx, 's', 4, 2, wi4, "faster than the solve entry there");
    expect_solve_variant(ctx, 's', 8, 3, wi4, "the nearest measured size below n = 8, the closest measured nrhs to 3");
    expect_solve_variant(ctx, 's', 16, 2, sub16, "tuning table: the substitution solve: tuning file");
    expect_solve_variant(ctx, 's', 16, 2, sub16, "s solve entry for n = 16, nrhs = 2");
    expect_solve_variant(ctx, 's', 40, 1, sub16, "faster than the solve-workitem entry there");
    if (d.fp64) expect_solve_variant(ctx, 'd', 4, 2, dflt, "have no d solve");
    /* forced: the variant's own kind's entry */
    setenv("BCHOL_SOLVE_VARIANT", "workitem", 1);
    expect_solve_variant(ctx, 's', 16, 2, wi16,
                         "BCHOL_SOLVE_VARIANT: the workitem solve, nt = 1, vw = 16: tuning file");
    setenv("BCHOL_SOLVE_VARIANT", "subst", 1);
    expect_solve_variant(ctx, 's', 4, 2, sub4, "s solve entry for n = 4, nrhs = 2");
    unsetenv("BCHOL_SOLVE_VARIANT");

    /* the workitem entry runs at n = 4, nrhs = 2: its kernel (nt 2, vw 4) is ready */
    solve_runs(ctx, 4, 2, "n = 4 (workitem entry)");
    long builds = prepare_builds(ctx, wi4, 0, 4, 2);
    CHECK(builds == 0, "n = 4: potrs did not run the workitem entry's kernel (preparing it built %ld)", builds);
    builds = prepare_builds(ctx, wi4, 8, 4, 2); /* the count can fail: vw 8 is another program */
    CHECK(builds > 0, "n = 4: the workitem kernel with vw 8 built %ld programs", builds);
    /* the solve entry runs at n = 16, nrhs = 2 */
    solve_runs(ctx, 16, 2, "n = 16 (solve entry)");
    builds = prepare_builds(ctx, sub16, 0, 16, 2);
    CHECK(builds == 0, "n = 16: potrs did not run the solve entry's kernel (preparing it built %ld)", builds);
    builds = prepare_builds(ctx, wi16, 0, 16, 2);
    CHECK(builds > 0, "n = 16: the workitem entry's kernel was built (%ld): the workitem solve ran", builds);
    printf("potrs, posv: the faster entry's kernel at n = 4 (workitem) and 16 (subst)\n");
    CHECK(warnings == 0, "warning: %s", last_warning);
    bchol_context_destroy(ctx);

    /* one kind only: the backend's variant, shaped by its own kind's entry */
    snprintf(entries, sizeof entries,
             "{\"precision\": \"s\", \"variant\": \"solve\", \"n\": 4, \"nrhs\": 2, \"params\": {\"nt\": 2, "
             "\"rpt\": 1, \"tbc\": 3}, \"ms\": 0.5}");
    entries_file(&d, entries, "solve_only.json", path, sizeof path);
    setenv("BCHOL_TUNING_FILE", "off", 1);
    ctx = new_context();
    bchol_solve_params backend;
    bchol_potrs_params(ctx, 's', 4, 2, &backend, NULL);
    bchol_context_destroy(ctx);
    setenv("BCHOL_TUNING_FILE", path, 1);
    ctx = new_context();
    expect_solve_variant(ctx, 's', 4, 2, backend.variant == BCHOL_SOLVE_SUBST ? sub4 : backend,
                         backend.variant == BCHOL_SOLVE_SUBST ? "s solve entry for n = 4" : "no s solve-workitem entry");
    bchol_context_destroy(ctx);
    snprintf(entries, sizeof entries,
             "{\"precision\": \"s\", \"variant\": \"solve-workitem\", \"n\": 4, \"nrhs\": 2, \"params\": {\"nt\": 2, "
             "\"vw\": 4}, \"ms\": 0.2}");
    entries_file(&d, entries, "workitem_only.json", path, sizeof path);
    setenv("BCHOL_TUNING_FILE", path, 1);
    ctx = new_context();
    expect_solve_variant(ctx, 's', 4, 2, backend.variant == BCHOL_SOLVE_WORKITEM ? wi4 : backend,
                         backend.variant == BCHOL_SOLVE_WORKITEM ? "s solve-workitem entry for n = 4"
                                                                 : "no s solve entry");
    /* the vbatched solve (which takes solve entries only) runs right beside the entry */
    if (backend.variant == BCHOL_SOLVE_WORKITEM) {
        enum { VB = 2 };
        const int vn[VB] = {4, 3}, vk[VB] = {2, 1}, vlda[VB] = {4, 4}, vldb[VB] = {4, 4};
        const int64_t offa[VB] = {0, 16}, offb[VB] = {0, 8};
        float va[32], vb[16], va0[32], vb0[16];
        int vinfo[VB];
        util_rng rng;
        util_rng_seed(&rng, 5);
        memset(va, 0, sizeof va);
        memset(vb0, 0, sizeof vb0);
        for (int k = 0; k < VB; k++) {
            util_spd(va0 + offa[k], 0, 'L', vn[k], 4, &rng);
            memcpy(va + offa[k], va0 + offa[k], sizeof(float) * 16);
            util_ref_factor(va + offa[k], 0, 'L', vn[k], 4);
            util_fill_uniform(vb0 + offb[k], 0, vn[k], vk[k], 4, &rng);
        }
        memcpy(vb, vb0, sizeof vb);
        bchol_status st = bchol_spotrs_vbatched_host(ctx, 'L', vn, vk, vlda, vldb, offa, va, offb, vb, VB, vinfo);
        CHECK(st == BCHOL_SUCCESS, "potrs_vbatched_host: %s", bchol_status_string(st));
        for (int k = 0; k < VB && !st; k++) {
            double r = util_solve_residual(va0 + offa[k], 0, 'L', vn[k], 4, vk[k], vb + offb[k], 4, vb0 + offb[k], 4);
            CHECK(vinfo[k] == 0 && r <= 30, "vbatched system %d: info %d, residual %g", k, vinfo[k], r);
        }
    }
    bchol_context_destroy(ctx);
    CHECK(warnings == 0, "warning: %s", last_warning);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
    snprintf(path, sizeof path, "%s/solve_only.json", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/solve_workitem.json", dir);
    remove(path);
}

static bchol_solve_params getrs_defaults(char precision, int n, int nrhs)
{
    setenv("BCHOL_TUNING_FILE", "off", 1);
    bchol_context *ctx = new_context();
    bchol_solve_params p = {0};
    bchol_getrs_params(ctx, precision, 'N', n, nrhs, &p, NULL);
    bchol_context_destroy(ctx);
    return p;
}

/* bchol_getrs_params (the shape fitted, as the call runs it) and its source. */
static void expect_getrs(bchol_context *ctx, char precision, char trans, int n, int nrhs,
                         const bchol_solve_params *want, const char *needle)
{
    bchol_solve_params p = {0};
    const char *source = "";
    bchol_status st = bchol_getrs_params(ctx, precision, trans, n, nrhs, &p, &source);
    CHECK(st == BCHOL_SUCCESS && (!want || (p.nt == want->nt && p.rpt == want->rpt && p.tbc == want->tbc)),
          "getrs %c %c n = %d nrhs = %d: %s, nt %d rpt %d tbc %d, wanted %d %d %d (%s)", precision, trans, n, nrhs,
          bchol_status_string(st), p.nt, p.rpt, p.tbc, want ? want->nt : 0, want ? want->rpt : 0,
          want ? want->tbc : 0, source);
    CHECK(strstr(source, needle) != NULL, "getrs %c n = %d nrhs = %d: source \"%s\" lacks \"%s\"", precision, n,
          nrhs, source, needle);
    printf("getrs %c %c n = %3d nrhs = %2d: %s\n", precision, trans, n, nrhs, source);
}

/*
 * A file with float getrs entries for this device (n = 4 at nrhs 2 and 16; n = 16 at nrhs 1
 * with a group of ceil(n/1) * 64 work-items, too large from n = max_work_group / 64 + 1) and
 * a solve entry of another shape at n = 4, nrhs 2, which the LU solve must not take (nor
 * potrs the getrs entry). bchol_getrs_params per (n, nrhs, trans); gesv runs the entry: its
 * kernel is built by then, so the query builds nothing (the defaults' shape builds).
 */
/* sgesv_batched_host on 7 random 4-by-4 systems with 2 right-hand sides (rng seed):
 * checks every info 0 and every residual within LAPACK's threshold. */
static void gesv_host_4x2(bchol_context *ctx, unsigned seed)
{
    enum { B = 7, N = 4, K = 2 };
    static float a[B * N * N], a0[B * N * N], b[B * N * K], b0[B * N * K];
    int info[B], ipiv[B * N];
    util_rng rng;
    util_rng_seed(&rng, seed);
    util_fill_uniform(a, 0, N, B * N, N, &rng);
    util_fill_uniform(b, 0, N, B * K, N, &rng);
    memcpy(a0, a, sizeof a);
    memcpy(b0, b, sizeof b);
    const bchol_status st = bchol_sgesv_batched_host(ctx, N, K, a, N, N * N, ipiv, N, b, N, N * K, B, info);
    CHECK(st == BCHOL_SUCCESS, "gesv: %s: %s", bchol_status_string(st), bchol_last_error(ctx));
    for (int k = 0; k < B && !st; k++) {
        const double r = util_lu_solve_residual(a0 + k * N * N, 0, 'N', N, N, K, b + k * N * K, N, b0 + k * N * K, N);
        CHECK(info[k] == 0 && r <= 30, "gesv system %d: info %d, residual %g", k, info[k], r);
    }
}

/* The vbatched gesv (host form) of 7 systems, n 8 (or 7) and nrhs 3 (or 1): right. */
static void gesv_vbatched_8x3(bchol_context *ctx, unsigned seed)
{
    enum { B = 7, N = 8, K = 3 };
    static float a[B * N * N], a0[B * N * N], b[B * N * K], b0[B * N * K];
    int info[B], ipiv[B * N], n[B], nrhs[B], ld[B];
    int64_t oa[B], op[B], ob[B];
    util_rng rng;
    util_rng_seed(&rng, seed);
    util_fill_uniform(a, 0, N, B * N, N, &rng);
    util_fill_uniform(b, 0, N, B * K, N, &rng);
    memcpy(a0, a, sizeof a);
    memcpy(b0, b, sizeof b);
    for (int k = 0; k < B; k++) {
        n[k] = k % 3 ? N : N - 1;
        nrhs[k] = k % 2 ? K : 1;
        ld[k] = N;
        oa[k] = (int64_t)k * N * N;
        op[k] = (int64_t)k * N;
        ob[k] = (int64_t)k * N * K;
    }
    const bchol_status st =
        bchol_sgesv_vbatched_host(ctx, n, nrhs, ld, ld, oa, a, op, ipiv, ob, b, B, info);
    CHECK(st == BCHOL_SUCCESS, "gesv_vbatched: %s: %s", bchol_status_string(st), bchol_last_error(ctx));
    for (int k = 0; k < B && !st; k++) {
        const double r = util_lu_solve_residual(a0 + k * N * N, 0, 'N', n[k], N, nrhs[k], b + k * N * K, N,
                                                b0 + k * N * K, N);
        CHECK(info[k] == 0 && r <= 30, "gesv_vbatched system %d: info %d, residual %g", k, info[k], r);
    }
}

/*
 * getrs-workitem entries shape the workitem LU solve (BCHOL_LU_SOLVE_VARIANT=workitem, the
 * backend's on PoCL): nt and vw at the nearest n and closest nrhs, BCHOL_LU_SOLVE_WORKITEM_VW
 * over the entry's vw, BCHOL_LU_SOLVE_SHAPE's nt over both; gesv right on the entry's kernel,
 * and the vbatched gesv on the entry at its largest n and nrhs.
 */
static void case_getrs_workitem(void)
{
    const bchol_device_info d = device();
    char entries[1024], path[128];
    snprintf(entries, sizeof entries,
             "{\"precision\": \"s\", \"variant\": \"getrs-workitem\", \"n\": 4, \"nrhs\": 2, \"params\": "
             "{\"nt\": 2, \"vw\": 4}, \"ms\": 0.5, \"default_ms\": 0.75}, "
             "{\"precision\": \"s\", \"variant\": \"getrs-workitem\", \"n\": 16, \"nrhs\": 1, \"params\": "
             "{\"nt\": 1, \"vw\": 16}}, "
             "{\"precision\": \"s\", \"variant\": \"getrs-workitem\", \"n\": 8, \"nrhs\": 3, \"params\": "
             "{\"nt\": 3, \"vw\": 2}}");
    entries_file(&d, entries, "getrs_workitem.json", path, sizeof path);
    setenv("BCHOL_TUNING_FILE", path, 1);
    setenv("BCHOL_LU_SOLVE_VARIANT", "workitem", 1);
    unsetenv("BCHOL_LU_SOLVE_WORKITEM_VW");
    unsetenv("BCHOL_LU_SOLVE_SHAPE");
    bchol_context *ctx = new_context();
    static const struct {
        int n, nrhs, nt;
        const char *needle, *fitted; /* the entry named, and what runs (the plan's nt, vw) */
    } want[] = {
        {4, 2, 2, "s getrs-workitem entry for n = 4, nrhs = 2 (this n, this nrhs), vw = 4", "-> nt=2 vw=4"},
        {6, 3, 2, "s getrs-workitem entry for n = 4, nrhs = 2 (the nearest n below, the closest nrhs)",
         "-> nt=2 vw=4"},
        {20, 1, 1, "s getrs-workitem entry for n = 16, nrhs = 1 (the nearest n below, this nrhs), vw = 16",
         "-> nt=1 vw=16"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        bchol_solve_params p = {0};
        const char *src = "";
        CHECK(!bchol_getrs_params(ctx, 's', 'N', want[i].n, want[i].nrhs, &p, &src) &&
                  p.variant == BCHOL_SOLVE_WORKITEM && p.nt == want[i].nt && strstr(src, want[i].needle) &&
                  strstr(src, want[i].fitted),
              "getrs s n = %d nrhs = %d: variant %d nt %d (%s), wanted workitem nt %d, \"%s\" and \"%s\"",
              want[i].n, want[i].nrhs, (int)p.variant, p.nt, src, want[i].nt, want[i].needle, want[i].fitted);
        printf("getrs s N n = %2d nrhs = %d: %s\n", want[i].n, want[i].nrhs, src);
    }
    if (d.fp64) {
        bchol_solve_params p = {0};
        const char *src = "";
        CHECK(!bchol_getrs_params(ctx, 'd', 'N', 4, 2, &p, &src) && p.variant == BCHOL_SOLVE_WORKITEM &&
                  strstr(src, "the workitem solve, nt =") && !strstr(src, "entry"),
              "getrs d n = 4: %s, wanted the defaults (no d entry)", src);
    }
    /* the variable names a width over the entry's; the shape's nt over both */
    setenv("BCHOL_LU_SOLVE_WORKITEM_VW", "8", 1);
    bchol_solve_params p = {0};
    const char *src = "";
    CHECK(!bchol_getrs_params(ctx, 's', 'N', 4, 2, &p, &src) && p.nt == 2 &&
              strstr(src, "vw = 8 (BCHOL_LU_SOLVE_WORKITEM_VW)") && strstr(src, "-> nt=2 vw=8"),
          "getrs s n = 4 with BCHOL_LU_SOLVE_WORKITEM_VW=8: nt %d (%s)", p.nt, src);
    unsetenv("BCHOL_LU_SOLVE_WORKITEM_VW");
    setenv("BCHOL_LU_SOLVE_SHAPE", "1,1,1", 1);
    CHECK(!bchol_getrs_params(ctx, 's', 'N', 4, 2, &p, &src) && p.variant == BCHOL_SOLVE_WORKITEM && p.nt == 1 &&
              strstr(src, "BCHOL_LU_SOLVE_SHAPE"),
          "getrs s n = 4 with BCHOL_LU_SOLVE_SHAPE=1,1,1: variant %d nt %d (%s)", (int)p.variant, p.nt, src);
    unsetenv("BCHOL_LU_SOLVE_SHAPE");
    /* gesv (host form) at n = 4, nrhs = 2 on the entry's kernel: right */
    gesv_host_4x2(ctx, 29);
    new_builds();
    CHECK(!bchol_getrs_params(ctx, 's', 'N', 4, 2, &p, NULL), "getrs_params after gesv");
    const long builds = new_builds();
    CHECK(builds == 0, "gesv did not run the entry: asking for it built %ld programs", builds);
    /* the vbatched gesv at largest n 8, nrhs 3 runs that entry's kernel (nt 3, vw 2), built
     * by no call above: the same call with vw 2 named builds nothing more, vw 16 its solve */
    new_builds();
    gesv_vbatched_8x3(ctx, 30);
    const long first = new_builds();
    setenv("BCHOL_LU_SOLVE_WORKITEM_VW", "2", 1);
    gesv_vbatched_8x3(ctx, 31);
    const long same = new_builds();
    setenv("BCHOL_LU_SOLVE_WORKITEM_VW", "16", 1);
    gesv_vbatched_8x3(ctx, 32);
    const long other = new_builds();
    unsetenv("BCHOL_LU_SOLVE_WORKITEM_VW");
    CHECK(first > 0 && same == 0 && other > 0,
          "gesv_vbatched did not run the entry's nt 3, vw 2: %ld builds first, %ld naming vw 2, %ld naming vw 16",
          first, same, other);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_LU_SOLVE_VARIANT");
    unlink(path);
}

static void case_getrs(void)
{
    const bchol_device_info d = device();
    const bchol_solve_params e2 = {BCHOL_SOLVE_SUBST, 2, 1, 3}, e16 = {BCHOL_SOLVE_SUBST, 4, 2, 2},
                             solve = {BCHOL_SOLVE_SUBST, 1, 4, 1};
    const int big = (int)(d.max_work_group / 64) + 1 > 17 ? (int)(d.max_work_group / 64) + 1 : 17;
    char entries[2048], path[128];
    snprintf(entries, sizeof entries,
             "{\"precision\": \"s\", \"variant\": \"getrs\", \"n\": 4, \"nrhs\": 2, \"params\": {\"nt\": 2, "
             "\"rpt\": 1, \"tbc\": 3}, \"ms\": 0.5, \"default_ms\": 0.75}, "
             "{\"precision\": \"s\", \"variant\": \"getrs\", \"n\": 4, \"nrhs\": 16, \"params\": {\"nt\": 4, "
             "\"rpt\": 2, \"tbc\": 2}}, "
             "{\"precision\": \"s\", \"variant\": \"getrs\", \"n\": 16, \"nrhs\": 1, \"params\": {\"nt\": 1, "
             "\"rpt\": 1, \"tbc\": 64}}, "
             "{\"precision\": \"s\", \"variant\": \"solve\", \"n\": 4, \"nrhs\": 2, \"params\": {\"nt\": 1, "
             "\"rpt\": 4, \"tbc\": 1}}");
    entries_file(&d, entries, "getrs.json", path, sizeof path);
    const bchol_solve_params dflt_big = getrs_defaults('s', big, 3), dflt = getrs_defaults('s', 4, 2);
    CHECK(!(dflt.nt == e2.nt && dflt.rpt == e2.rpt && dflt.tbc == e2.tbc),
          "test setup: the n = 4, nrhs = 2 entry is the defaults");
    setenv("BCHOL_TUNING_FILE", path, 1);
    warnings = 0;
    bchol_context *ctx = new_context();
    char here[512];
    snprintf(here, sizeof here, "tuning file %s, devices[0]", path);
    expect_getrs(ctx, 's', 'N', 4, 2, &e2, "s getrs entry for n = 4, nrhs = 2 (this n, this nrhs)");
    expect_getrs(ctx, 's', 'T', 4, 2, &e2, "s getrs entry for n = 4, nrhs = 2"); /* one entry for both */
    expect_getrs(ctx, 's', 'N', 6, 16, &e16, "s getrs entry for n = 4, nrhs = 16 (the nearest n below, this nrhs)");
    expect_getrs(ctx, 's', 'N', 5, 5, &e2, "nrhs = 2 (the nearest n below, the closest nrhs)"); /* 5/2 < 16/5 */
    expect_getrs(ctx, 's', 'N', 5, 6, &e16, "s getrs entry for n = 4, nrhs = 16");
    const bchol_solve_params e2_one = {BCHOL_SOLVE_SUBST, 1, 1, 3}; /* nt narrowed to nrhs 1 */
    expect_getrs(ctx, 's', 'N', 2, 1, &e2_one, "(the smallest measured n, the closest nrhs)");
    expect_getrs(ctx, 's', 'N', 16, 3, NULL, "s getrs entry for n = 16, nrhs = 1");
    expect_getrs(ctx, 's', 'N', big, 3, &dflt_big, "defaults (the s getrs entry for n = 16, nrhs = 1 in");
    expect_getrs(ctx, 's', 'N', big, 3, &dflt_big, "work-items a group");
    if (d.fp64) expect_getrs(ctx, 'd', 'N', 4, 2, NULL, "have no d getrs entry");
    /* the Cholesky solve keeps its own entry (the substitution solve: BCHOL_SOLVE_VARIANT=subst) */
    bchol_solve_params ps;
    const char *src = "";
    CHECK(!bchol_potrs_params(ctx, 's', 4, 2, &ps, &src) && ps.nt == solve.nt && ps.rpt == solve.rpt &&
              ps.tbc == solve.tbc && strstr(src, "s solve entry"),
          "potrs at n = 4, nrhs = 2: nt %d rpt %d tbc %d (%s), wanted the solve entry", ps.nt, ps.rpt, ps.tbc, src);
    /* BCHOL_LU_SOLVE_SHAPE before the entry */
    setenv("BCHOL_LU_SOLVE_SHAPE", "1,1,1", 1);
    const bchol_solve_params one = {BCHOL_SOLVE_SUBST, 1, 1, 1};
    expect_getrs(ctx, 's', 'N', 4, 2, &one, "BCHOL_LU_SOLVE_SHAPE");
    unsetenv("BCHOL_LU_SOLVE_SHAPE");
    /* The variant (the cases above run under BCHOL_LU_SOLVE_VARIANT=subst): getrs entries
     * time the substitution kernel alone, so where the backend runs the workitem solve
     * (PoCL) it still runs, and elsewhere the entry's shape. */
    unsetenv("BCHOL_LU_SOLVE_VARIANT");
    /* the backend's solve variant: what potrs runs with no table and no BCHOL_SOLVE_VARIANT */
    bchol_solve_params backend = {0};
    setenv("BCHOL_TUNING_FILE", "off", 1);
    unsetenv("BCHOL_SOLVE_VARIANT");
    bchol_context *plain = new_context();
    bchol_potrs_params(plain, 's', 4, 2, &backend, NULL);
    bchol_context_destroy(plain);
    setenv("BCHOL_SOLVE_VARIANT", "subst", 1);
    setenv("BCHOL_TUNING_FILE", path, 1);
    if (backend.variant == BCHOL_SOLVE_WORKITEM) {
        bchol_solve_params w = {0};
        const char *wsrc = "";
        CHECK(!bchol_getrs_params(ctx, 's', 'N', 4, 2, &w, &wsrc) && w.variant == BCHOL_SOLVE_WORKITEM &&
                  strstr(wsrc, "the backend's variant: the workitem solve"),
              "getrs at n = 4, nrhs = 2 without BCHOL_LU_SOLVE_VARIANT: variant %d (%s), wanted the backend's "
              "workitem solve",
              (int)w.variant, wsrc);
        printf("getrs s N n =   4 nrhs =  2: %s\n", wsrc);
    } else {
        expect_getrs(ctx, 's', 'N', 4, 2, &e2, "s getrs entry for n = 4, nrhs = 2");
    }
    setenv("BCHOL_LU_SOLVE_VARIANT", "subst", 1);

    /* gesv (host form) at n = 4, nrhs = 2: right, and on the entry's kernel */
    enum { N = 4, K = 2 };
    gesv_host_4x2(ctx, 23);
    new_builds();
    bchol_solve_params eff;
    bchol_status st = bchol_getrs_params(ctx, 's', 'N', N, K, &eff, NULL);
    long builds = new_builds();
    CHECK(st == BCHOL_SUCCESS && builds == 0, "gesv did not run the entry: asking for it built %ld programs", builds);
    char text[64];
    snprintf(text, sizeof text, "%d,%d,%d", dflt.nt, dflt.rpt, dflt.tbc);
    setenv("BCHOL_LU_SOLVE_SHAPE", text, 1);
    st = bchol_getrs_params(ctx, 's', 'N', N, K, &eff, NULL);
    unsetenv("BCHOL_LU_SOLVE_SHAPE");
    builds = new_builds();
    CHECK(st == BCHOL_SUCCESS && builds > 0, "the defaults' shape built %ld programs (the count can fail)", builds);
    printf("gesv: the entry's kernel; the defaults' another (%ld builds)\n", builds);
    /* the query's checks */
    CHECK(bchol_getrs_params(ctx, 's', 'C', 4, 2, &eff, NULL) == BCHOL_ERR_TRANS &&
              bchol_getrs_params(ctx, 'x', 'N', 4, 2, &eff, NULL) == BCHOL_ERR_ARGUMENT &&
              bchol_getrs_params(ctx, 's', 'N', -1, 2, &eff, NULL) == BCHOL_ERR_N &&
              bchol_getrs_params(ctx, 's', 'N', 4, -1, &eff, NULL) == BCHOL_ERR_NRHS &&
              bchol_getrs_params(ctx, 's', 'N', 4, 2, NULL, NULL) == BCHOL_ERR_ARGUMENT &&
              bchol_getrs_params(NULL, 's', 'N', 4, 2, &eff, NULL) == BCHOL_ERR_CONTEXT,
          "bchol_getrs_params accepts a bad argument");
    CHECK(warnings == 0, "warning: %s", last_warning);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
}

/* Between two measured sizes whose fastest variants are fused and separate, AUTO follows the
 * backend's crossover where it lies between them (the table says only that they cross). */
static void case_crossover(void)
{
    const bchol_device_info d = device();
    /* the backend's float crossover: the largest n its defaults keep off the separate
     * variant (bisected; separate from there on, for the backends' fused/separate rule) */
    int c = 1, above = 1 << 13;
    while (above - c > 1) {
        const int mid = c + (above - c) / 2;
        if (defaults('s', mid).variant == BCHOL_VARIANT_SEPARATE) above = mid;
        else c = mid;
    }
    printf("the backend's float crossover: n = %d\n", c);
    const int lo = c / 2, hi = 2 * c;
    char entries[4096] = "", path[128];
    const char *sep = "\"params\": {\"nb\": 32, \"pb\": 8, \"gemm\": \"own\", \"tile\": 32, \"gb\": 128}";
    const char *fus = "\"params\": {\"ib\": 8, \"tbc\": 1, \"rpt\": 1, \"shape\": \"shrink\"}";
    snprintf(entries, sizeof entries,
             "{\"precision\": \"s\", \"variant\": \"fused\", \"n\": %d, %s, \"ms\": 1.0, \"default_ms\": 1.0}, "
             "{\"precision\": \"s\", \"variant\": \"separate\", \"n\": %d, %s, \"ms\": 2.0, \"default_ms\": 2.0}, "
             "{\"precision\": \"s\", \"variant\": \"fused\", \"n\": %d, %s, \"ms\": 2.0, \"default_ms\": 2.0}, "
             "{\"precision\": \"s\", \"variant\": \"separate\", \"n\": %d, %s, \"ms\": 1.0, \"default_ms\": 1.0}",
             lo, fus, lo, sep, hi, fus, hi, sep);
    entries_file(&d, entries, "crossover.json", path, sizeof path);
    setenv("BCHOL_TUNING_FILE", path, 1);
    bchol_context *ctx = new_context();
    const struct {
        int n;
        bchol_variant want;
        const char *why;
    } cases[] = {{lo, BCHOL_VARIANT_FUSED, "the fastest in the tuning table at n"},
                 {c, BCHOL_VARIANT_FUSED, "lies between them"},
                 {c + 1, BCHOL_VARIANT_SEPARATE, "lies between them"},
                 {hi, BCHOL_VARIANT_SEPARATE, "the fastest in the tuning table at n"}};
    for (int i = 0; i < 4; i++) {
        bchol_params p;
        const char *source;
        bchol_potrf_params(ctx, 's', cases[i].n, &p, &source);
        CHECK(p.variant == cases[i].want && strstr(source, cases[i].why),
              "n = %d: variant %d, wanted %d (%s)", cases[i].n, p.variant, cases[i].want, source);
    }
    CHECK(warnings == 0, "%d warnings (%s)", warnings, last_warning);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
}

/* ---- the interleaved routines on data already interleaved ---------------------------- */

/* interleaved-native entries serve bchol_potrf_interleaved_params and the native routines,
 * never AUTO nor bchol_potrf_params; the "interleaved" entries (timed on strided batches)
 * never serve the native routines. */
static void case_native(void)
{
    const bchol_device_info d = device();
    const bchol_params dflt_s = defaults('s', 8), dflt_d = defaults('d', 8);
    char entries[4096] = "", path[128];
    entry(entries, sizeof entries, 's', 8, 8, 1, 1, "shrink"); /* fused 1 ms, interleaved 9 ms */
    size_t len = strlen(entries);
    /* faster than every strided entry: it must not make AUTO pick the interleaved variant */
    snprintf(entries + len, sizeof entries - len,
             ", {\"precision\": \"s\", \"variant\": \"interleaved-native\", \"n\": 8, \"params\": "
             "{\"inb\": 2, \"looking\": \"right\", \"unroll\": \"tiles\", \"chunking\": \"simple\", "
             "\"chunk\": 16, \"math\": \"ieee\"}, \"ms\": 0.001, \"default_ms\": 0.002}");
    entries_file(&d, entries, "native.json", path, sizeof path);
    setenv("BCHOL_TUNING_FILE", path, 1);
    bchol_context *ctx = new_context();
    bchol_params p;
    const char *source;

    bchol_potrf_params(ctx, 's', 8, &p, &source);
    CHECK(p.variant == BCHOL_VARIANT_FUSED, "AUTO at n = 8 runs variant %d (%s)", p.variant, source);
    CHECK(p.inb == 4 && p.looking == BCHOL_LOOKING_LEFT && p.chunking == BCHOL_CHUNKED && p.chunk == 64,
          "bchol_potrf_params's interleaved fields are not the interleaved entry's: inb %d looking "
          "%d chunking %d chunk %d",
          p.inb, p.looking, p.chunking, p.chunk);

    bchol_status st = bchol_potrf_interleaved_params(ctx, 's', 8, &p, &source);
    CHECK(!st && p.variant == BCHOL_VARIANT_INTERLEAVED && p.inb == 2 &&
              p.looking == BCHOL_LOOKING_RIGHT && p.unroll == BCHOL_UNROLL_TILES &&
              p.chunking == BCHOL_SIMPLE && p.chunk == 16 && p.ib == dflt_s.ib,
          "s n = 8: variant %d inb %d looking %d unroll %d chunking %d chunk %d ib %d (%s)",
          p.variant, p.inb, p.looking, p.unroll, p.chunking, p.chunk, p.ib, source);
    CHECK(strstr(source, "s interleaved-native entry for n = 8") != NULL, "source \"%s\"", source);
    printf("s n = 8: %s\n", source);
    /* above the entry: its layout, and with loops over tiles its tile size and unrolling
     * too (as for AUTO) */
    bchol_potrf_interleaved_params(ctx, 's', 12, &p, &source);
    CHECK(p.inb == 2 && p.unroll == BCHOL_UNROLL_TILES && p.looking == BCHOL_LOOKING_RIGHT &&
              p.chunk == 16 && strstr(source, "nearest measured size below"),
          "s n = 12: inb %d unroll %d looking %d chunk %d (%s)", p.inb, p.unroll, p.looking,
          p.chunk, source);
    /* no double entry of either kind: the defaults' interleaved fields */
    bchol_potrf_interleaved_params(ctx, 'd', 8, &p, &source);
    CHECK(p.inb == dflt_d.inb && p.looking == dflt_d.looking && p.unroll == dflt_d.unroll &&
              p.chunking == dflt_d.chunking && p.chunk == dflt_d.chunk &&
              strstr(source, "no d interleaved-native entry"),
          "d n = 8: inb %d looking %d chunk %d, wanted the defaults' %d %d %d (%s)", p.inb,
          p.looking, p.chunk, dflt_d.inb, dflt_d.looking, dflt_d.chunk, source);

    /* the native routine runs the entry's work-group (chunk 16; the interleaved entry's is
     * 64 and the defaults' another) */
    const int n = 8, batch = 16;
    float *host = calloc((size_t)n * n * batch, sizeof *host);
    for (int b = 0; b < batch; b++)
        for (int i = 0; i < n; i++) host[(size_t)(i + i * n) * batch + b] = 1.0f;
    cl_int err;
    cl_mem a = clCreateBuffer(bchol_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              (size_t)n * n * batch * sizeof *host, host, &err);
    cl_mem info = clCreateBuffer(bchol_context_cl_context(ctx), CL_MEM_READ_WRITE,
                                 batch * sizeof(int), NULL, &err);
    st = bchol_spotrf_interleaved(ctx, 'L', n, a, batch, batch, info, NULL);
    clFinish(bchol_context_queue(ctx));
    CHECK(!st && shim_last_local() == 16, "bchol_spotrf_interleaved: status %d, work-groups of %zu "
          "work-items, wanted the interleaved-native entry's 16", (int)st, shim_last_local());
    st = bchol_sposv_interleaved(ctx, 'L', n, 0, a, NULL, batch, batch, info, NULL);
    clFinish(bchol_context_queue(ctx));
    CHECK(!st && shim_last_local() == 16, "bchol_sposv_interleaved (nrhs 0): status %d, "
          "work-groups of %zu work-items, wanted 16", (int)st, shim_last_local());
    clReleaseMemObject(a);
    clReleaseMemObject(info);
    free(host);

    /* the query's argument checks */
    CHECK(bchol_potrf_interleaved_params(NULL, 's', 8, &p, NULL) == BCHOL_ERR_CONTEXT, "ctx NULL");
    CHECK(bchol_potrf_interleaved_params(ctx, 'x', 8, &p, NULL) == BCHOL_ERR_ARGUMENT &&
              strstr(bchol_last_error(ctx), "argument 2"),
          "precision 'x': %s", bchol_last_error(ctx));
    CHECK(bchol_potrf_interleaved_params(ctx, 's', -1, &p, NULL) == BCHOL_ERR_N &&
              strstr(bchol_last_error(ctx), "argument 3"),
          "n = -1: %s", bchol_last_error(ctx));
    CHECK(bchol_potrf_interleaved_params(ctx, 's', 8, NULL, NULL) == BCHOL_ERR_ARGUMENT &&
              strstr(bchol_last_error(ctx), "argument 4"),
          "params NULL: %s", bchol_last_error(ctx));
    CHECK(warnings == 0, "%d warnings (%s)", warnings, last_warning);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    remove(path);
}

/* ---- BCHOL_DEFAULTS ------------------------------------------------------------------- */

/* The largest n that bchol_potrf_params on ctx keeps off the separate variant (bisected, as
 * in case_crossover). */
static int float_crossover(bchol_context *ctx)
{
    int c = 1, above = 1 << 13;
    while (above - c > 1) {
        const int mid = c + (above - c) / 2;
        bchol_params p;
        bchol_potrf_params(ctx, 's', mid, &p, NULL);
        if (p.variant == BCHOL_VARIANT_SEPARATE) above = mid;
        else c = mid;
    }
    return c;
}

/* With BCHOL_DEFAULTS=generic and BCHOL_TUNING_FILE=off (set by CTest), both constructors
 * give the generic backend's defaults (generic.c: fused ib 8, tbc 4 up to n = 16, rpt 1,
 * shrink; float crossovers at 768; solve tbc 32 / n) and the source says why; the device
 * keeps its identity, and its own defaults, which differ here, come back without the knob. */
static void case_defaults_generic(void)
{
    bchol_context *ctx = new_context();
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    bchol_params p;
    const char *source;
    bchol_potrf_params(ctx, 's', 8, &p, &source);
    CHECK(p.variant == BCHOL_VARIANT_FUSED && p.ib == 8 && p.tbc == 4 && p.rpt == 1 &&
              p.shape == BCHOL_SHAPE_SHRINK,
          "s n = 8: variant %d ib %d tbc %d rpt %d shape %d, wanted generic's fused 8 4 1 shrink",
          p.variant, p.ib, p.tbc, p.rpt, p.shape);
    CHECK(strstr(source, "generic defaults (BCHOL_DEFAULTS=generic; BCHOL_TUNING_FILE=off)") &&
              strstr(source, "the generic crossover (BCHOL_DEFAULTS=generic) at n = 768"),
          "source \"%s\"", source);
    printf("s n = 8: %s\n", source);
    const int c = float_crossover(ctx);
    CHECK(c == 768, "float crossover at n = %d, wanted generic's 768", c);

    bchol_solve_params sp;
    bchol_potrs_params(ctx, 's', 8, 1, &sp, &source);
    CHECK(sp.nt == 1 && sp.rpt == 1 && sp.tbc == 4,
          "solve s n = 8: nt %d rpt %d tbc %d, wanted 1 1 4", sp.nt, sp.rpt, sp.tbc);
    CHECK(strstr(source, "generic defaults (BCHOL_DEFAULTS=generic; ") != NULL,
          "solve source \"%s\"", source);

    bchol_vbatched_params vp;
    bchol_potrf_vbatched_params(ctx, 's', 1000, 0, &vp, &source);
    CHECK(vp.crossover == 768 && vp.order == BCHOL_ORDER_STEPS,
          "vbatched s max_n = 1000: crossover %d order %d, wanted generic's 768, steps",
          vp.crossover, vp.order);
    CHECK(strstr(source, "generic vbatched defaults (BCHOL_DEFAULTS=generic)") != NULL,
          "vbatched source \"%s\"", source);

    /* the caller's-queue constructor reads the knob too */
    bchol_context *q;
    CHECK(!bchol_context_create_from_queue(bchol_context_queue(ctx), &q), "from queue: %s",
          bchol_last_error(NULL));
    if (q) {
        bchol_set_message_handler(q, on_warning, NULL);
        bchol_params qp;
        bchol_potrf_params(q, 's', 8, &qp, NULL);
        CHECK(same(&qp, &p) && float_crossover(q) == 768, "from queue: not the generic defaults");
        bchol_context_destroy(q);
    }

    unsetenv("BCHOL_DEFAULTS");
    bchol_context *own = new_context();
    bchol_device_info od;
    bchol_context_device_info(own, &od);
    CHECK(!strcmp(d.family, od.family) && !strcmp(d.name, od.name) &&
              !strcmp(d.architecture, od.architecture),
          "identity %s/%s/%s with the knob, %s/%s/%s without", d.family, d.architecture, d.name,
          od.family, od.architecture, od.name);
    bchol_params op;
    bchol_potrf_params(own, 's', 8, &op, &source);
    CHECK(!strstr(source, "BCHOL_DEFAULTS"), "source without the knob \"%s\"", source);
    printf("the %s backend's own: s n = 8: %s\n", od.family, source);
    const int oc = float_crossover(own);
    printf("the %s backend's own float crossover: n = %d\n", od.family, oc);
    /* on a device bchol does not know, the knob changes nothing */
    if (strcmp(od.family, "generic"))
        CHECK(oc != c || !same(&op, &p),
              "the %s backend's defaults equal generic's here: the case cannot tell whether the "
              "knob works", od.family);
    CHECK(warnings == 0, "%d warnings (%s)", warnings, last_warning);
    bchol_context_destroy(own);
    bchol_context_destroy(ctx);
}

/* BCHOL_DEFAULTS=bogus (set by CTest, with BCHOL_TUNING_FILE=off): one warning naming the
 * variable and the accepted values, at the first call that needs parameters (so a handler
 * set after creation gets it), and the device's own defaults, as with "device" or unset. */
static void case_defaults_bad(void)
{
    bchol_context *ctx = new_context();
    bchol_params p;
    const char *source;
    bchol_potrf_params(ctx, 's', 8, &p, &source);
    char bad_source[1024];
    snprintf(bad_source, sizeof bad_source, "%s", source);
    bchol_solve_params sp;
    bchol_potrs_params(ctx, 's', 8, 1, &sp, NULL);
    const int c = float_crossover(ctx);
    CHECK(warnings == 1 && strstr(last_warning, "BCHOL_DEFAULTS=bogus") &&
              strstr(last_warning, "device") && strstr(last_warning, "generic"),
          "%d warnings, last \"%s\"", warnings, last_warning);
    CHECK(!strcmp(bchol_last_warning(ctx), last_warning), "bchol_last_warning differs");
    printf("warning: %s\n", last_warning);
    CHECK(!strstr(bad_source, "BCHOL_DEFAULTS"), "source \"%s\"", bad_source);

    static const char *const good[] = {"device", "", NULL}; /* NULL: unset */
    for (int i = 0; i < 3; i++) {
        const char *label = good[i] ? good[i] : "(unset)";
        if (good[i]) setenv("BCHOL_DEFAULTS", good[i], 1);
        else unsetenv("BCHOL_DEFAULTS");
        bchol_context *own = new_context();
        bchol_params op;
        bchol_potrf_params(own, 's', 8, &op, &source);
        CHECK(same(&op, &p) && !strcmp(source, bad_source), "BCHOL_DEFAULTS \"%s\": s n = 8 from \"%s\"",
              label, source);
        CHECK(float_crossover(own) == c, "BCHOL_DEFAULTS \"%s\": another float crossover", label);
        bchol_context_destroy(own);
    }
    CHECK(warnings == 1, "%d warnings (%s)", warnings, last_warning);
    bchol_context_destroy(ctx);
}

/*
 * getrf's entries: a file for this device whose float entry at n = 64 forces the blocked
 * variant with nb = 8 (the fastest there) and whose double entry is a fused kernel too big
 * for local memory. bchol_getrf_config_for names the entry (n = 64, above it, m != n) or
 * says why the defaults apply; BCHOL_GETRF still overrides. The factorization then runs
 * the entry: as many launches as BCHOL_GETRF=blocked,nb=8 gives (nb = 16 gives fewer), with
 * LAPACK's xGET01 ratio, exact info (a zero column) and the padding below each matrix
 * untouched; the double call runs the defaults and is right too.
 */
static long getrf_run(bchol_context *ctx, char precision, int n, int batch, const char *env)
{
    const int lda = n + 3, dbl = precision == 'd', zero_col = n / 3;
    const size_t es = dbl ? 8 : 4, per = (size_t)lda * n;
    char *a = malloc(per * batch * es), *f = malloc(per * batch * es);
    int *ipiv = malloc(sizeof(int) * (size_t)n * batch), *info = malloc(sizeof(int) * (size_t)batch);
    util_rng rng;
    util_rng_seed(&rng, 64);
    for (int b = 0; b < batch; b++) util_fill_uniform(a + per * b * es, dbl, lda, n, lda, &rng);
    /* matrix 1 singular: column zero_col zero (info zero_col + 1) */
    for (int i = 0; i < n; i++) memset(a + (per + (size_t)zero_col * lda + i) * es, 0, es);
    cl_context cl = bchol_context_cl_context(ctx);
    cl_command_queue q = bchol_context_queue(ctx);
    cl_int err;
    cl_mem A = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, per * batch * es, a, &err);
    cl_mem P = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(int) * (size_t)n * batch, NULL, &err);
    cl_mem I = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(int) * (size_t)batch, NULL, &err);
    if (env) setenv("BCHOL_GETRF", env, 1);
    const long before = shim_launches();
    bchol_status st = dbl ? bchol_dgetrf_batched(ctx, n, n, A, 0, lda, (int64_t)per, P, 0, n, batch, I, NULL)
                          : bchol_sgetrf_batched(ctx, n, n, A, 0, lda, (int64_t)per, P, 0, n, batch, I, NULL);
    const long launches = shim_launches() - before;
    if (env) unsetenv("BCHOL_GETRF");
    CHECK(st == BCHOL_SUCCESS, "%cgetrf n = %d: %s", precision, n, bchol_last_error(ctx));
    clEnqueueReadBuffer(q, A, CL_TRUE, 0, per * batch * es, f, 0, NULL, NULL);
    clEnqueueReadBuffer(q, P, CL_TRUE, 0, sizeof(int) * (size_t)n * batch, ipiv, 0, NULL, NULL);
    clEnqueueReadBuffer(q, I, CL_TRUE, 0, sizeof(int) * (size_t)batch, info, 0, NULL, NULL);
    for (int b = 0; b < batch && !st; b++) {
        const int want = b == 1 ? zero_col + 1 : 0;
        CHECK(info[b] == want, "%cgetrf n = %d: info[%d] = %d, wanted %d", precision, n, b, info[b], want);
        if (!want) {
            const double r = util_lu_residual(a + per * b * es, f + per * b * es, ipiv + (size_t)n * b, dbl, n, lda);
            CHECK(r <= 30, "%cgetrf n = %d: matrix %d has residual %.3g", precision, n, b, r);
        }
        for (int j = 0; j < n; j++) /* the padding rows n..lda-1 of every column */
            CHECK(!memcmp(a + (per * b + (size_t)j * lda + n) * es, f + (per * b + (size_t)j * lda + n) * es,
                          (size_t)(lda - n) * es),
                  "%cgetrf n = %d: matrix %d column %d: padding changed", precision, n, b, j);
    }
    clReleaseMemObject(A);
    clReleaseMemObject(P);
    clReleaseMemObject(I);
    free(a);
    free(f);
    free(ipiv);
    free(info);
    return launches;
}

static void case_getrf(void)
{
    const bchol_device_info d = device();
    char entries[2048], sec[4096], text[8192], path[128];
    snprintf(entries, sizeof entries,
             "{\"precision\": \"s\", \"variant\": \"getrf-blocked\", \"n\": 64, \"params\": {\"nb\": 8, "
             "\"gemm\": \"own\"}, \"ms\": 1.0, \"default_ms\": 2.0}, "
             "{\"precision\": \"s\", \"variant\": \"getrf-blocked\", \"n\": 256, \"params\": {\"nb\": 32, "
             "\"gemm\": \"own\", \"ib\": 16}, \"ms\": 1.0}, "
             "{\"precision\": \"s\", \"variant\": \"getrf-workitem\", \"n\": 64, \"params\": {\"tbc\": 4}, "
             "\"ms\": 5.0}, "
             "{\"precision\": \"d\", \"variant\": \"getrf-fused\", \"n\": 64, \"params\": {\"lx\": 64, "
             "\"tbc\": 64}, \"ms\": 1.0}, "
             "{\"precision\": \"s\", \"variant\": \"getrf-regs\", \"n\": 8, \"params\": {\"tbc\": 2}, "
             "\"ms\": 0.1}, "
             "{\"precision\": \"d\", \"variant\": \"getrf-regs\", \"n\": %zu, \"params\": {\"tbc\": 1}, "
             "\"ms\": 0.1}",
             d.max_work_group + 1); /* regs: a work-item per column, so one column too many */
    section(sec, sizeof sec, d.family, d.vendor, arch_of(&d), d.name, entries);
    file_of(text, sizeof text, sec);
    snprintf(path, sizeof path, "%s/getrf.json", dir);
    write_file(path, text);
    setenv("BCHOL_TUNING_FILE", path, 1);
    unsetenv("BCHOL_GETRF");
    bchol_context *ctx = new_context();
    bchol_getrf_config c;
    const char *src = NULL;
    CHECK(!bchol_getrf_config_for(ctx, 's', 64, 64, &c, &src), "config_for: %s", bchol_last_error(ctx));
    CHECK(c.variant == BCHOL_GETRF_BLOCKED && c.nb == 8 && c.gemm == BCHOL_GEMM_OWN,
          "s 64: variant %d nb %d gemm %d, wanted the blocked entry's", c.variant, c.nb, c.gemm);
    CHECK(src && strstr(src, path) && strstr(src, "s getrf-blocked entry for n = 64, measured at this size") &&
              strstr(src, "-> blocked nb=8 gemm=own"),
          "s 64: source \"%s\"", src ? src : "(null)");
    printf("s 64:    %s\n", src);
    CHECK(c.ib == 0, "s 64: ib %d from an entry without one, wanted 0", c.ib);
    /* an entry's inner panels (ib, optional in the file) reach the configuration */
    CHECK(!bchol_getrf_config_for(ctx, 's', 300, 300, &c, &src) && c.variant == BCHOL_GETRF_BLOCKED &&
              c.nb == 32 && c.ib == 16 && strstr(src, "-> blocked nb=32 gemm=own ib=16"),
          "s 300: variant %d nb %d ib %d, source \"%s\"", c.variant, c.nb, c.ib, src);
    CHECK(!bchol_getrf_config_for(ctx, 's', 100, 30, &c, &src) && c.variant == BCHOL_GETRF_BLOCKED && c.nb == 8 &&
              strstr(src, "nearest measured size below max(m, n) = 100"),
          "s 100x30: variant %d nb %d, source \"%s\"", c.variant, c.nb, src);
    CHECK(!bchol_getrf_config_for(ctx, 'd', 64, 64, &c, &src) && strstr(src, "backend") &&
              strstr(src, "needs more local memory"),
          "d 64: source \"%s\"", src);
    printf("d 64:    %s\n", src);
    /* a regs entry runs regs with its tbc; where regs cannot run the size, the defaults */
    CHECK(!bchol_getrf_config_for(ctx, 's', 8, 8, &c, &src) && c.variant == BCHOL_GETRF_REGS && c.tbc == 2 &&
              strstr(src, "s getrf-regs entry for n = 8, measured at this size") && strstr(src, "-> regs tbc=2"),
          "s 8: variant %d tbc %d, source \"%s\"", c.variant, c.tbc, src);
    printf("s 8:     %s\n", src);
    const int past = (int)d.max_work_group + 1;
    CHECK(!bchol_getrf_config_for(ctx, 'd', past, past, &c, &src) && c.variant != BCHOL_GETRF_REGS &&
              strstr(src, "backend") && strstr(src, "its regs kernel cannot run"),
          "d %d: variant %d, source \"%s\"", past, c.variant, src);
    printf("d %d: %s\n", past, src);
    setenv("BCHOL_GETRF", "workitem,tbc=2", 1);
    CHECK(!bchol_getrf_config_for(ctx, 's', 64, 64, &c, &src) && c.variant == BCHOL_GETRF_WORKITEM && c.tbc == 2 &&
              strstr(src, "BCHOL_GETRF"),
          "BCHOL_GETRF: variant %d tbc %d, source \"%s\"", c.variant, c.tbc, src);
    unsetenv("BCHOL_GETRF");
    CHECK(bchol_getrf_config_for(ctx, 'x', 4, 4, &c, NULL) == BCHOL_ERR_ARGUMENT, "precision x accepted");
    CHECK(bchol_getrf_config_for(ctx, 's', -1, 4, &c, NULL) == BCHOL_ERR_M, "m = -1 accepted");
    CHECK(bchol_getrf_config_for(ctx, 's', 4, -1, &c, NULL) == BCHOL_ERR_N, "n = -1 accepted");
    CHECK(bchol_getrf_config_for(ctx, 's', 4, 4, NULL, NULL) == BCHOL_ERR_ARGUMENT, "config NULL accepted");
    /* the entry runs: the launches of blocked nb = 8, not nb = 16's */
    const long tuned = getrf_run(ctx, 's', 64, 6, NULL), nb8 = getrf_run(ctx, 's', 64, 6, "blocked,nb=8,gemm=own"),
               nb16 = getrf_run(ctx, 's', 64, 6, "blocked,nb=16,gemm=own");
    CHECK(tuned == nb8 && nb8 != nb16, "s 64: %ld launches with the entry, %ld with nb = 8, %ld with nb = 16", tuned,
          nb8, nb16);
    printf("launches: entry %ld, blocked nb=8 %ld, nb=16 %ld\n", tuned, nb8, nb16);
    /* the regs entry runs (PoCL runs regs slowly but right): groups of its 2 matrices of 8
     * rows, not the driver's default (at least 32: Rusticl's limit, or about 128) */
    getrf_run(ctx, 's', 8, 6, NULL);
    const size_t regs_local = shim_last_local();
    getrf_run(ctx, 's', 8, 6, "regs");
    const size_t default_local = shim_last_local();
    CHECK(regs_local == 16 && default_local != regs_local, "s 8: %zu work-items a group with the entry, %zu with regs' default",
          regs_local, default_local);
    printf("s 8 groups: entry %zu work-items, regs default %zu\n", regs_local, default_local);
    bchol_device_info di;
    bchol_context_device_info(ctx, &di);
    if (di.fp64) getrf_run(ctx, 'd', 64, 6, NULL); /* the defaults, the entry not fitting */
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    unlink(path);
}

/* getri of a batch of 4 (lda n + 2, ldc n + 1, matrix 1 singular) after getrf, with
 * BCHOL_GETRI = env where given; checks info, the inverses' residuals and that C's padding
 * is untouched; returns getri's launches. */
static long getri_run(bchol_context *ctx, char precision, int n, const char *env)
{
    const int batch = 4, lda = n + 2, ldc = n + 1, dbl = precision == 'd';
    const size_t es = dbl ? 8 : 4, per = (size_t)lda * n, per_c = (size_t)ldc * n;
    char *a = malloc(per * batch * es), *c = malloc(per_c * batch * es);
    int *info = malloc(sizeof(int) * batch);
    util_rng rng;
    util_rng_seed(&rng, 65);
    for (int b = 0; b < batch; b++) util_fill_uniform(a + per * b * es, dbl, lda, n, lda, &rng);
    memset(a + (per + (size_t)(n / 2) * lda) * es, 0, (size_t)n * es); /* column n/2: info n/2 + 1 */
    memset(c, 0x5a, per_c * batch * es);
    cl_context cl = bchol_context_cl_context(ctx);
    cl_command_queue q = bchol_context_queue(ctx);
    cl_int err;
    cl_mem A = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, per * batch * es, a, &err);
    cl_mem C = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, per_c * batch * es, c, &err);
    cl_mem P = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(int) * (size_t)n * batch, NULL, &err);
    cl_mem I = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(int) * (size_t)batch, NULL, &err);
    bchol_status st = dbl ? bchol_dgetrf_batched(ctx, n, n, A, 0, lda, (int64_t)per, P, 0, n, batch, I, NULL)
                          : bchol_sgetrf_batched(ctx, n, n, A, 0, lda, (int64_t)per, P, 0, n, batch, I, NULL);
    CHECK(st == BCHOL_SUCCESS, "%cgetrf n = %d: %s", precision, n, bchol_last_error(ctx));
    if (env) setenv("BCHOL_GETRI", env, 1);
    const long before = shim_launches();
    st = dbl ? bchol_dgetri_batched(ctx, n, A, 0, lda, (int64_t)per, P, 0, n, C, 0, ldc, (int64_t)per_c, batch, I,
                                    NULL)
             : bchol_sgetri_batched(ctx, n, A, 0, lda, (int64_t)per, P, 0, n, C, 0, ldc, (int64_t)per_c, batch, I,
                                    NULL);
    const long launches = shim_launches() - before;
    if (env) unsetenv("BCHOL_GETRI");
    CHECK(st == BCHOL_SUCCESS, "%cgetri n = %d: %s", precision, n, bchol_last_error(ctx));
    char *out = malloc(per_c * batch * es);
    clEnqueueReadBuffer(q, C, CL_TRUE, 0, per_c * batch * es, out, 0, NULL, NULL);
    clEnqueueReadBuffer(q, I, CL_TRUE, 0, sizeof(int) * (size_t)batch, info, 0, NULL, NULL);
    for (int b = 0; b < batch && !st; b++) {
        const int want = b == 1 ? n / 2 + 1 : 0;
        CHECK(info[b] == want, "%cgetri n = %d: info[%d] = %d, wanted %d", precision, n, b, info[b], want);
        if (!want) {
            const double r = util_inv_residual(a + per * b * es, out + per_c * b * es, dbl, n, lda, ldc);
            CHECK(r <= 30, "%cgetri n = %d: matrix %d has residual %.3g", precision, n, b, r);
        }
        for (int j = 0; j < n; j++) /* the padding row of every column of C */
            CHECK(!memcmp(c + (per_c * b + (size_t)j * ldc + n) * es, out + (per_c * b + (size_t)j * ldc + n) * es,
                          es),
                  "%cgetri n = %d: matrix %d column %d: padding changed", precision, n, b, j);
    }
    clReleaseMemObject(A);
    clReleaseMemObject(C);
    clReleaseMemObject(P);
    clReleaseMemObject(I);
    free(a);
    free(c);
    free(out);
    free(info);
    return launches;
}

/*
 * getri entries choose its path: bchol_getri_config_for names the entry at the nearest
 * measured n at or below (the smallest below it), or why the defaults apply (no entry of the
 * precision; a fused entry past the fused kernel's n = 64); BCHOL_GETRI overrides; getri
 * runs the entry's path (blocked nb = 4 by its launches) and is right.
 */
static void case_getri(void)
{
    const bchol_device_info d = device();
    char entries[2048], sec[4096], text[8192], path[128];
    snprintf(entries, sizeof entries,
             "{\"precision\": \"s\", \"variant\": \"getri\", \"n\": 8, \"params\": {\"path\": \"blocked\", "
             "\"nb\": 4}, \"ms\": 1.0, \"default_ms\": 2.0}, "
             "{\"precision\": \"s\", \"variant\": \"getri\", \"n\": 16, \"params\": {\"path\": \"fused\", "
             "\"nb\": 0}}, "
             "{\"precision\": \"s\", \"variant\": \"getri\", \"n\": 48, \"params\": {\"path\": \"solve\"}}, "
             "{\"precision\": \"s\", \"variant\": \"getri\", \"n\": 128, \"params\": {\"path\": \"blocked\", "
             "\"nb\": 16}}, "
             "{\"precision\": \"d\", \"variant\": \"getri\", \"n\": 40, \"params\": {\"path\": \"fused\"}}");
    section(sec, sizeof sec, d.family, d.vendor, arch_of(&d), d.name, entries);
    file_of(text, sizeof text, sec);
    snprintf(path, sizeof path, "%s/getri.json", dir);
    write_file(path, text);
    setenv("BCHOL_TUNING_FILE", path, 1);
    unsetenv("BCHOL_GETRI");
    bchol_context *ctx = new_context();
    static const struct {
        char p;
        int n;
        bchol_getri_path path;
        int nb;
        const char *needle, *runs;
    } want[] = {
        {'s', 8, BCHOL_GETRI_BLOCKED, 4, "s getri entry for n = 8, measured at this size; tuned 1 ms vs 2 ms",
         "-> blocked nb=4"},
        {'s', 4, BCHOL_GETRI_BLOCKED, 4, "s getri entry for n = 8, the smallest measured size (n = 4 is below it)",
         "-> blocked nb=4"},
        {'s', 20, BCHOL_GETRI_FUSED, 0, "s getri entry for n = 16, the nearest measured size below n = 20",
         "-> fused"},
        {'s', 60, BCHOL_GETRI_SOLVE, 0, "s getri entry for n = 48, the nearest", "-> solve"},
        {'s', 200, BCHOL_GETRI_BLOCKED, 16, "s getri entry for n = 128, the nearest", "-> blocked nb=16"},
        {'d', 30, BCHOL_GETRI_FUSED, 0, "d getri entry for n = 40, the smallest measured size (n = 30 is below it)",
         "-> fused"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        bchol_getri_config c = {0};
        const char *src = "";
        CHECK(!bchol_getri_config_for(ctx, want[i].p, want[i].n, &c, &src) && c.path == want[i].path &&
                  c.nb == want[i].nb && strstr(src, path) && strstr(src, want[i].needle) && strstr(src, want[i].runs),
              "%c %d: path %d nb %d (%s), wanted path %d nb %d, \"%s\" and \"%s\"", want[i].p, want[i].n, c.path,
              c.nb, src, want[i].path, want[i].nb, want[i].needle, want[i].runs);
        printf("%c %3d: %s\n", want[i].p, want[i].n, src);
    }
    bchol_getri_config c = {0};
    const char *src = "";
    /* the d fused entry at 40 serves every larger n, which its kernel takes to 64 */
    CHECK(!bchol_getri_config_for(ctx, 'd', 65, &c, &src) && c.path != BCHOL_GETRI_FUSED && strstr(src, "backend") &&
              strstr(src, "names the fused kernel, which takes n <= 64"),
          "d 65: path %d, source \"%s\"", c.path, src);
    printf("d  65: %s\n", src);
    setenv("BCHOL_GETRI", "blocked,nb=2", 1);
    CHECK(!bchol_getri_config_for(ctx, 's', 30, &c, &src) && c.path == BCHOL_GETRI_BLOCKED && c.nb == 2 &&
              strstr(src, "BCHOL_GETRI"),
          "BCHOL_GETRI: path %d nb %d, source \"%s\"", c.path, c.nb, src);
    setenv("BCHOL_GETRI", "fused", 1);
    CHECK(bchol_getri_config_for(ctx, 's', 65, &c, &src) == BCHOL_ERR_ARGUMENT, "fused forced at n = 65 accepted");
    unsetenv("BCHOL_GETRI");
    CHECK(bchol_getri_config_for(ctx, 'x', 4, &c, NULL) == BCHOL_ERR_ARGUMENT, "precision x accepted");
    CHECK(bchol_getri_config_for(ctx, 's', 0, &c, NULL) == BCHOL_ERR_N, "n = 0 accepted");
    CHECK(bchol_getri_config_for(ctx, 's', 4, NULL, NULL) == BCHOL_ERR_ARGUMENT, "config NULL accepted");
    CHECK(bchol_getri_config_for(NULL, 's', 4, &c, NULL) != BCHOL_SUCCESS, "ctx NULL accepted");
    /* the entry runs: blocked nb = 4's launches at n = 8, not the solve's or nb = 2's */
    const long tuned = getri_run(ctx, 's', 8, NULL), nb4 = getri_run(ctx, 's', 8, "blocked,nb=4"),
               nb2 = getri_run(ctx, 's', 8, "blocked,nb=2"), solve = getri_run(ctx, 's', 8, "solve");
    CHECK(tuned == nb4 && nb4 != nb2 && nb4 != solve,
          "s 8: %ld launches with the entry, %ld with blocked nb = 4, %ld with nb = 2, %ld with the solve", tuned, nb4,
          nb2, solve);
    printf("launches: entry %ld, blocked nb=4 %ld, nb=2 %ld, solve %ld\n", tuned, nb4, nb2, solve);
    getri_run(ctx, 's', 20, NULL); /* the fused entry (n <= 32: within any device's groups) */
    getri_run(ctx, 's', 60, NULL); /* the solve entry */
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_TUNING_FILE");
    unlink(path);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_tuning bad KIND | off | file | between | local_memory | caller_ib | dir "
                        "| shipped | prepare | prepare_builds | vbatched | solve | solve_workitem | getrs | crossover | "
                        "defaults_generic | defaults_bad\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "/tmp/bchol-test-tuning-XXXXXX");
    if (!mkdtemp(dir)) {
        printf("FAILED: mkdtemp\n");
        return 1;
    }
    const char *c = argv[1];
    int known = 1;
    if (!strcmp(c, "bad") && argc == 3) case_bad(argv[2]);
    else if (!strcmp(c, "off")) case_off();
    else if (!strcmp(c, "file")) case_file();
    else if (!strcmp(c, "local_memory")) case_local_memory();
    else if (!strcmp(c, "between")) case_between();
    else if (!strcmp(c, "caller_ib")) case_caller_ib();
    else if (!strcmp(c, "dir")) case_dir();
    else if (!strcmp(c, "shipped")) case_shipped();
    else if (!strcmp(c, "prepare")) case_prepare();
    else if (!strcmp(c, "prepare_builds")) case_prepare_builds();
    else if (!strcmp(c, "vbatched")) case_vbatched();
    else if (!strcmp(c, "one_launch")) case_one_launch();
    else if (!strcmp(c, "solve")) case_solve();
    else if (!strcmp(c, "getrf")) case_getrf();
    else if (!strcmp(c, "getrs")) case_getrs();
    else if (!strcmp(c, "getrs_workitem")) case_getrs_workitem();
    else if (!strcmp(c, "getri")) case_getri();
    else if (!strcmp(c, "solve_workitem")) case_solve_workitem();
    else if (!strcmp(c, "crossover")) case_crossover();
    else if (!strcmp(c, "native")) case_native();
    else if (!strcmp(c, "defaults_generic")) case_defaults_generic();
    else if (!strcmp(c, "defaults_bad")) case_defaults_bad();
    else known = 0;
    rmdir(dir);
    if (!known) {
        fprintf(stderr, "test_tuning: no case \"%s\"\n", c);
        return 2;
    }
    printf("%s: %s\n", c, failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
