/*
 * Tuning tables without a device: the parser (host/tuning/tuning_file.c) on good, malformed,
 * truncated, incomplete and mistyped files; the lookup (host/tuning/tuning_lookup.c): the
 * vendor -> architecture -> name chain with "default" at each level, and sizes between
 * measured points; the per-context loading (host/tuning/tuning_load.c) on a stand-in context:
 * one warning per unusable file, nothing kept. Built with AddressSanitizer where the
 * compiler has it, so a leak or a read past the text fails the case.
 * One case per run: test_tuning_table <case>.
 */
#include "chol/chol.h"
#include "tuning/tuning.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_check.h"


/* A valid file: one device section (family pocl) and one of an unknown variant's entries. */
static const char *const good =
    "{ \"format\": \"bchol-tuning\", \"format_version\": 1, \"bchol_version\": \"0.1.0\",\n"
    "  \"devices\": [ { \"family\": \"pocl\", \"vendor\": \"AMD\", \"architecture\": \"haswell\",\n"
    "    \"name\": \"AMD EPYC\", \"driver\": \"3.1\", \"extra\": [1, 2],\n"
    "    \"chosen\": [\n"
    "      {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 16, \"params\": {\"ib\": 8, "
    "\"tbc\": 2, \"rpt\": 4, \"shape\": \"shrink\"}, \"ms\": 1.5, \"default_ms\": 2.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 4, \"params\": {\"ib\": 4, "
    "\"tbc\": 1, \"rpt\": 4, \"shape\": \"fixed\", \"future\": 3}},\n"
    "      {\"precision\": \"d\", \"variant\": \"fused\", \"n\": 8, \"params\": {\"ib\": 16, "
    "\"tbc\": 1, \"rpt\": 2, \"shape\": \"fixed\"}, \"ms\": 0.25},\n"
    "      {\"precision\": \"s\", \"variant\": \"warp-drive\", \"n\": 8, \"params\": {}}\n"
    "    ],\n"
    "    \"tried\": [ {\"anything\": true} ] } ] }\n";

static int parse(bchol_tuning *t, const char *text, char *why, size_t size)
{
    return bchol__tuning_parse(t, text, strlen(text), "test.json", why, size);
}

/* text with the first occurrence of `from` replaced by `to` (caller frees). */
static char *edit(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) {
        printf("FAILED: test setup: \"%s\" not in the text\n", from);
        exit(1);
    }
    size_t len = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(len);
    snprintf(out, len, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

/* The edited file must be rejected with a message containing needle, leaving t empty. */
/* The file base edited (from -> to) must be rejected with a message containing needle,
 * the table left empty. */
static void rejects_in(const char *base, const char *what, const char *from, const char *to, const char *needle)
{
    bchol_tuning t = {0};
    char why[512] = "";
    char *text = edit(base, from, to);
    int rc = parse(&t, text, why, sizeof why);
    CHECK(rc == -1, "%s: accepted", what);
    CHECK(strstr(why, needle) != NULL, "%s: message \"%s\" lacks \"%s\"", what, why, needle);
    CHECK(t.nsections == 0 && t.nfiles == 0, "%s: the table changed", what);
    printf("%-44s %s\n", what, why);
    bchol__tuning_free(&t);
    free(text);
}

static void rejects(const char *what, const char *from, const char *to, const char *needle)
{
    rejects_in(good, what, from, to, needle);
}

static void case_valid(void)
{
    bchol_tuning t = {0};
    char why[512] = "";
    CHECK(parse(&t, good, why, sizeof why) == 0, "good file rejected: %s", why);
    CHECK(t.nsections == 1 && t.nfiles == 1, "%d sections, %d files", t.nsections, t.nfiles);
    if (t.nsections == 1) {
        const bchol_tuning_section *s = &t.sections[0];
        CHECK(!strcmp(s->family, "pocl") && !strcmp(s->vendor, "AMD") &&
                  !strcmp(s->architecture, "haswell") && !strcmp(s->name, "AMD EPYC") &&
                  !strcmp(s->driver, "3.1") && !strcmp(s->file, "test.json"),
              "identity %s/%s/%s/%s", s->family, s->vendor, s->architecture, s->name);
        /* the unknown variant's entry is skipped; the rest sorted by precision, variant, n */
        CHECK(s->nentries == 3, "%d entries", s->nentries);
        if (s->nentries == 3) {
            const bchol_tuning_entry *e = s->entries;
            CHECK(e[0].precision == 'd' && e[0].n == 8 && e[0].params.ib == 16 && e[0].ms == 0.25 &&
                      e[0].default_ms == -1,
                  "entry 0: %c n=%d ib=%d", e[0].precision, e[0].n, e[0].params.ib);
            CHECK(e[1].precision == 's' && e[1].n == 4 && e[1].params.shape == BCHOL_SHAPE_FIXED &&
                      e[1].ms == -1,
                  "entry 1: %c n=%d", e[1].precision, e[1].n);
            CHECK(e[2].n == 16 && e[2].params.variant == BCHOL_VARIANT_FUSED && e[2].params.ib == 8 &&
                      e[2].params.tbc == 2 && e[2].params.rpt == 4 &&
                      e[2].params.shape == BCHOL_SHAPE_SHRINK && e[2].ms == 1.5 && e[2].default_ms == 2.0,
                  "entry 2: n=%d ib=%d tbc=%d rpt=%d shape=%d", e[2].n, e[2].params.ib,
                  e[2].params.tbc, e[2].params.rpt, e[2].params.shape);
        }
    }
    /* a second file adds to the table; a bad third leaves it as it was */
    CHECK(parse(&t, good, why, sizeof why) == 0, "second file: %s", why);
    CHECK(parse(&t, "{\"format\": 1}", why, sizeof why) == -1, "bad third file accepted");
    CHECK(t.nsections == 2 && t.nfiles == 2, "after three files: %d sections, %d files", t.nsections,
          t.nfiles);
    bchol__tuning_free(&t);
    CHECK(t.nsections == 0 && t.sections == NULL, "free left sections");
}

static void case_malformed(void)
{
    const struct {
        const char *text, *needle;
    } bad[] = {
        {"{ \"format\": \"bchol-tuning\", ", "truncated"},
        {"{ \"format\": \"bchol-tuning\" \"x\": 1 }", "not valid JSON near byte"},
        {"this is not JSON", "not valid JSON"},
        {"[1, 2, 3]", "expected a JSON object at the top"},
        {"{\"format\": \"something-else\", \"format_version\": 1, \"devices\": []}", "format"},
        {"{\"format\": \"bchol-tuning\", \"format_version\": 2, \"devices\": []}", "newer"},
        {"{\"format\": \"bchol-tuning\", \"format_version\": 1, \"devices\": {}}", "devices"},
        {"\xff\xfe{}", "not valid JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bchol_tuning t = {0};
        char why[512] = "";
        CHECK(parse(&t, bad[i].text, why, sizeof why) == -1, "text %zu accepted", i);
        CHECK(strstr(why, bad[i].needle) != NULL, "text %zu: \"%s\" lacks \"%s\"", i, why, bad[i].needle);
        CHECK(t.nsections == 0 && t.nfiles == 0, "text %zu changed the table", i);
        printf("malformed %zu: %s\n", i, why);
    }
}

/* Every prefix of a valid file that cuts into its JSON is rejected, without reading past
 * the given length (the copies are not NUL-terminated where the cut is). */
static void case_truncated(void)
{
    const size_t len = strlen(good);
    const size_t last = (size_t)(strrchr(good, '}') - good); /* the closing brace */
    int rejected = 0;
    for (size_t cut = 0; cut <= last; cut++) {
        char *copy = malloc(cut ? cut : 1);
        memcpy(copy, good, cut);
        bchol_tuning t = {0};
        char why[512] = "";
        int rc = bchol__tuning_parse(&t, copy, cut, "cut.json", why, sizeof why);
        CHECK(rc == -1, "prefix of %zu bytes accepted", cut);
        CHECK(rc == 0 || t.nsections == 0, "prefix of %zu bytes changed the table", cut);
        CHECK(cut == 0 ? strstr(why, "empty") != NULL : strstr(why, "ends early (truncated?)") != NULL,
              "prefix of %zu bytes: \"%s\"", cut, why);
        rejected += rc == -1;
        bchol__tuning_free(&t);
        free(copy);
    }
    printf("%d of %zu prefixes rejected (file of %zu bytes)\n", rejected, last + 1, len);
}

static void case_missing(void)
{
    rejects("no format", "\"format\": \"bchol-tuning\",", "", "format: expected");
    rejects("no format_version", "\"format_version\": 1,", "", "format_version");
    rejects("no devices", "\"devices\": [", "\"machines\": [", "devices: expected an array");
    rejects("no vendor", "\"vendor\": \"AMD\",", "", "devices[0].vendor");
    rejects("no architecture", "\"architecture\": \"haswell\",", "", "devices[0].architecture");
    rejects("no name", "\"name\": \"AMD EPYC\",", "", "devices[0].name");
    rejects("no chosen", "\"chosen\"", "\"picked\"", "devices[0].chosen: expected an array");
    rejects("no precision", "{\"precision\": \"s\", \"variant\": \"fused\", \"n\": 16",
            "{\"variant\": \"fused\", \"n\": 16", "devices[0].chosen[0].precision");
    rejects("no variant", "\"variant\": \"fused\", \"n\": 16", "\"n\": 16", "chosen[0].variant");
    rejects("no n", "\"n\": 16, ", "", "devices[0].chosen[0].n");
    rejects("no params", "\"params\": {\"ib\": 8, ", "\"p\": {\"ib\": 8, ", "chosen[0].params: expected an object");
    rejects("no ib", "{\"ib\": 8, \"tbc\": 2", "{\"tbc\": 2", "chosen[0].params.ib");
    rejects("no shape", ", \"shape\": \"shrink\"", "", "chosen[0].params.shape");
}

static void case_types(void)
{
    rejects("format_version a string", "\"format_version\": 1", "\"format_version\": \"1\"", "format_version");
    rejects("format_version 1.5", "\"format_version\": 1", "\"format_version\": 1.5", "format_version");
    rejects("vendor a number", "\"vendor\": \"AMD\"", "\"vendor\": 7", "vendor: expected a non-empty string, found a number");
    rejects("vendor empty", "\"vendor\": \"AMD\"", "\"vendor\": \"\"", "found an empty string");
    rejects("family an array", "\"family\": \"pocl\"", "\"family\": [\"pocl\"]", "family");
    rejects("devices[0] a string", "\"devices\": [ {", "\"devices\": [ \"x\", {", "devices[0]: expected an object");
    rejects("chosen a number", "\"chosen\": [", "\"chosen\": 3, \"old\": [", "chosen: expected an array, found a number");
    rejects("entry a number", "\"chosen\": [", "\"chosen\": [ 5,", "chosen[0]: expected an object");
    rejects("precision x", "\"precision\": \"s\"", "\"precision\": \"x\"", "precision: expected \"s\" or \"d\"");
    rejects("precision a number", "\"precision\": \"s\"", "\"precision\": 115", "precision");
    rejects("variant a number", "\"variant\": \"fused\"", "\"variant\": 1", "variant: expected a string");
    rejects("n a string", "\"n\": 16", "\"n\": \"16\"", "n: expected an integer");
    rejects("n negative", "\"n\": 16", "\"n\": -16", "n: expected an integer");
    rejects("n fractional", "\"n\": 16", "\"n\": 16.5", "n: expected an integer");
    rejects("ib a string", "\"ib\": 8", "\"ib\": \"8\"", "params.ib: expected an integer in 1..32");
    rejects("ib 33", "\"ib\": 8", "\"ib\": 33", "params.ib: expected an integer in 1..32");
    rejects("ib 0", "\"ib\": 8", "\"ib\": 0", "params.ib");
    rejects("tbc 65", "\"tbc\": 2", "\"tbc\": 65", "params.tbc");
    rejects("rpt null", "\"rpt\": 4", "\"rpt\": null", "params.rpt: expected an integer in 1..64, found null");
    rejects("shape unknown", "\"shape\": \"shrink\"", "\"shape\": \"round\"", "params.shape: expected \"fixed\" or \"shrink\"");
    rejects("shape a number", "\"shape\": \"shrink\"", "\"shape\": 2", "params.shape");
    rejects("shape default", "\"shape\": \"shrink\"", "\"shape\": \"default\"", "params.shape");
    rejects("ms negative", "\"ms\": 1.5", "\"ms\": -1.5", "ms: expected a time");
    rejects("ms a string", "\"ms\": 1.5", "\"ms\": \"fast\"", "ms: expected a time");
    rejects("a duplicate entry", "\"n\": 4", "\"n\": 16", "a second s fused entry for n = 16");
}

static void case_empty(void)
{
    bchol_tuning t = {0};
    char why[512] = "";
    CHECK(bchol__tuning_parse(&t, "", 0, "empty.json", why, sizeof why) == -1, "empty text accepted");
    CHECK(strstr(why, "empty") != NULL, "\"%s\"", why);
    CHECK(parse(&t, "   \n", why, sizeof why) == -1, "blank text accepted");
    CHECK(parse(&t, "{}", why, sizeof why) == -1, "{} accepted");
    printf("empty: %s\n", why);
    /* no sections at all is valid but matches nothing */
    CHECK(parse(&t, "{\"format\": \"bchol-tuning\", \"format_version\": 1, \"devices\": []}", why,
                sizeof why) == 0,
          "a file without sections rejected: %s", why);
    bchol_device_info d = {.family = "pocl", .vendor = "AMD", .architecture = "haswell", .name = "AMD EPYC"};
    bchol_tuning_pick pick = bchol__tuning_lookup(&t, &d, 's', BCHOL_VARIANT_AUTO, 8);
    CHECK(!pick.entry && !pick.matched, "a file without sections gave an entry");
    bchol__tuning_free(&t);
}

/* ---- lookup ---------------------------------------------------------------------------- */

/* A section with one s fused entry at n = 8 whose ib tells the sections apart. */
static void section(char *out, size_t size, const char *family, const char *vendor, const char *arch,
                    const char *name, int ib, const char *precision)
{
    char fam[64] = "";
    if (family) snprintf(fam, sizeof fam, "\"family\": \"%s\", ", family);
    snprintf(out, size,
             "{%s\"vendor\": \"%s\", \"architecture\": \"%s\", \"name\": \"%s\", \"chosen\": [ "
             "{\"precision\": \"%s\", \"variant\": \"fused\", \"n\": 8, \"params\": {\"ib\": %d, "
             "\"tbc\": 1, \"rpt\": 1, \"shape\": \"fixed\"}} ]}",
             fam, vendor, arch, name, precision, ib);
}

static int pick_ib(const bchol_tuning *t, const char *family, const char *vendor, const char *arch,
                   const char *name, char precision)
{
    bchol_device_info d = {0};
    snprintf(d.family, sizeof d.family, "%s", family);
    snprintf(d.vendor, sizeof d.vendor, "%s", vendor);
    snprintf(d.architecture, sizeof d.architecture, "%s", arch);
    snprintf(d.name, sizeof d.name, "%s", name);
    bchol_tuning_pick pick = bchol__tuning_lookup(t, &d, precision, BCHOL_VARIANT_AUTO, 8);
    return pick.entry ? pick.entry->params.ib : 0;
}

static void case_chain(void)
{
    /* ib names the section: 1 exact H200, 2 any SM9.0, 3 any NVIDIA, 4 any nvidia-family
     * device, 5 any pocl device, 6 an exact PoCL CPU with only double entries */
    char s[6][400], text[4000];
    section(s[0], sizeof s[0], "nvidia", "NVIDIA", "SM9.0", "NVIDIA H200", 1, "s");
    section(s[1], sizeof s[1], "nvidia", "NVIDIA", "SM9.0", "default", 2, "s");
    section(s[2], sizeof s[2], NULL, "NVIDIA", "default", "default", 3, "s");
    section(s[3], sizeof s[3], "nvidia", "default", "default", "default", 4, "s");
    section(s[4], sizeof s[4], "pocl", "default", "default", "default", 5, "s");
    section(s[5], sizeof s[5], "pocl", "AMD", "haswell", "AMD EPYC", 6, "d");
    /* listed least specific first: the order in the file must not matter */
    snprintf(text, sizeof text,
             "{\"format\": \"bchol-tuning\", \"format_version\": 1, \"devices\": [%s, %s, %s, %s, %s, %s]}",
             s[4], s[3], s[2], s[1], s[5], s[0]);
    bchol_tuning t = {0};
    char why[512] = "";
    CHECK(parse(&t, text, why, sizeof why) == 0, "chain file rejected: %s", why);
    int ib;
    CHECK((ib = pick_ib(&t, "nvidia", "NVIDIA", "SM9.0", "NVIDIA H200", 's')) == 1, "H200 got %d, wanted 1", ib);
    CHECK((ib = pick_ib(&t, "nvidia", "NVIDIA", "SM9.0", "NVIDIA H100 80GB HBM3", 's')) == 2,
          "H100 (same architecture) got %d, wanted 2", ib);
    CHECK((ib = pick_ib(&t, "nvidia", "NVIDIA", "SM8.0", "NVIDIA A100", 's')) == 3, "A100 got %d, wanted 3", ib);
    CHECK((ib = pick_ib(&t, "generic", "NVIDIA", "SM8.0", "NVIDIA A100", 's')) == 3,
          "vendor match without a family got %d, wanted 3", ib);
    CHECK((ib = pick_ib(&t, "nvidia", "Acme", "X1", "Acme GPU", 's')) == 4, "another nvidia-family device got %d, wanted 4", ib);
    CHECK((ib = pick_ib(&t, "pocl", "Intel", "skylake", "Xeon", 's')) == 5, "a PoCL Xeon got %d, wanted 5", ib);
    /* the exact PoCL section has only double entries: single falls through to the default */
    CHECK((ib = pick_ib(&t, "pocl", "AMD", "haswell", "AMD EPYC", 'd')) == 6, "EPYC double got %d, wanted 6", ib);
    CHECK((ib = pick_ib(&t, "pocl", "AMD", "haswell", "AMD EPYC", 's')) == 5, "EPYC single got %d, wanted 5", ib);
    CHECK((ib = pick_ib(&t, "generic", "Acme", "X1", "Acme GPU", 's')) == 0, "a foreign device got %d, wanted none", ib);
    CHECK((ib = pick_ib(&t, "nvidia", "NVIDIA", "SM9.0", "NVIDIA H200", 'd')) == 0, "H200 double got %d, wanted none", ib);
    bchol__tuning_free(&t);
}

static void case_sizes(void)
{
    const char *text =
        "{\"format\": \"bchol-tuning\", \"format_version\": 1, \"devices\": [ {\"vendor\": \"V\", "
        "\"architecture\": \"A\", \"name\": \"N\", \"chosen\": ["
        " {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 32, \"params\": {\"ib\": 3, \"tbc\": 1, \"rpt\": 1, \"shape\": \"fixed\"}},"
        " {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 8, \"params\": {\"ib\": 1, \"tbc\": 1, \"rpt\": 1, \"shape\": \"fixed\"}},"
        " {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 16, \"params\": {\"ib\": 2, \"tbc\": 1, \"rpt\": 1, \"shape\": \"fixed\"}},"
        " {\"precision\": \"d\", \"variant\": \"fused\", \"n\": 100, \"params\": {\"ib\": 9, \"tbc\": 1, \"rpt\": 1, \"shape\": \"fixed\"}}"
        "]} ]}";
    bchol_tuning t = {0};
    char why[512] = "";
    CHECK(parse(&t, text, why, sizeof why) == 0, "sizes file rejected: %s", why);
    bchol_device_info d = {.family = "pocl", .vendor = "V", .architecture = "A", .name = "N"};
    const struct {
        char precision;
        int n, ib, below;
    } want[] = {
        {'s', 1, 1, 1},   {'s', 7, 1, 1},   {'s', 8, 1, 0},    {'s', 9, 1, 0},  {'s', 15, 1, 0},
        {'s', 16, 2, 0},  {'s', 31, 2, 0},  {'s', 32, 3, 0},   {'s', 33, 3, 0}, {'s', 5000, 3, 0},
        {'d', 99, 9, 1},  {'d', 100, 9, 0}, {'d', 101, 9, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        for (int v = 0; v < 2; v++) {
            bchol_variant variant = v ? BCHOL_VARIANT_FUSED : BCHOL_VARIANT_AUTO;
            bchol_tuning_pick p = bchol__tuning_lookup(&t, &d, want[i].precision, variant, want[i].n);
            CHECK(p.entry && p.entry->params.ib == want[i].ib && p.below_smallest == want[i].below &&
                      p.matched == 1 && p.section == &t.sections[0],
                  "%c n = %d (variant %d): entry ib %d below %d, wanted ib %d below %d",
                  want[i].precision, want[i].n, (int)variant, p.entry ? p.entry->params.ib : -1,
                  p.below_smallest, want[i].ib, want[i].below);
        }
    }
    bchol__tuning_free(&t);
}

/* ---- loading on a context ------------------------------------------------------------- */

static int load_warnings;
static char load_warning[1024];

static void on_warning(const char *message, void *user)
{
    load_warnings++;
    snprintf(load_warning, sizeof load_warning, "%s", message);
}

/* What bchol__tuning_for needs of a context: the lock, the identity, the message channel. */
static bchol_context *stand_in(void)
{
    bchol_context *ctx = calloc(1, sizeof *ctx);
    pthread_mutex_init(&ctx->lock, NULL);
    snprintf(ctx->info.family, sizeof ctx->info.family, "pocl");
    snprintf(ctx->info.vendor, sizeof ctx->info.vendor, "AMD");
    snprintf(ctx->info.architecture, sizeof ctx->info.architecture, "haswell");
    snprintf(ctx->info.name, sizeof ctx->info.name, "AMD EPYC");
    ctx->handler = on_warning;
    load_warnings = 0;
    load_warning[0] = 0;
    return ctx;
}

static void write_text(const char *path, const char *text, size_t length)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, length, f) != length || fclose(f)) {
        printf("FAILED: cannot write %s\n", path);
        exit(1);
    }
}

/* Loads with the environment as set; wants a table or not and a number of warnings. */
static void load(const char *what, int want_table, int want_warnings, const char *needle)
{
    bchol_context *ctx = stand_in();
    const bchol_tuning *t = NULL;
    for (int i = 0; i < 3; i++) t = bchol__tuning_for(ctx); /* read once, warned once */
    CHECK((t != NULL) == want_table, "%s: %s table", what, t ? "a" : "no");
    CHECK(load_warnings == want_warnings, "%s: %d warnings, wanted %d (%s)", what, load_warnings,
          want_warnings, load_warning);
    CHECK(!needle || strstr(load_warning, needle) || strstr(ctx->tuning_note, needle),
          "%s: neither the warning \"%s\" nor the note \"%s\" has \"%s\"", what, load_warning,
          ctx->tuning_note, needle);
    if (t) {
        bchol_tuning_pick p = bchol__tuning_lookup(t, &ctx->info, 's', BCHOL_VARIANT_AUTO, 20);
        CHECK(p.entry && p.entry->n == 16, "%s: no entry for s n = 20", what);
    }
    printf("%-24s warning \"%s\" note \"%s\"\n", what, load_warning, ctx->tuning_note);
    bchol__tuning_release(ctx);
    bchol__tuning_release(ctx); /* twice is harmless */
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

static void case_load(void)
{
    char dir[] = "/tmp/bchol-tuning-load-XXXXXX", path[128], other[128], stray[128];
    if (!mkdtemp(dir)) {
        printf("FAILED: mkdtemp\n");
        failures++;
        return;
    }
    snprintf(path, sizeof path, "%s/a.json", dir);
    snprintf(other, sizeof other, "%s/b.json", dir);
    snprintf(stray, sizeof stray, "%s/c.txt", dir);
    unsetenv("BCHOL_TUNING_DIR");

    setenv("BCHOL_TUNING_FILE", path, 1);
    write_text(path, good, strlen(good));
    load("good file", 1, 0, NULL);
    write_text(path, good, strlen(good) / 2);
    load("truncated file", 0, 1, "truncated");
    write_text(path, "", 0);
    load("empty file", 0, 1, "empty");
    char *foreign = edit(good, "\"vendor\": \"AMD\"", "\"vendor\": \"Acme\"");
    write_text(path, foreign, strlen(foreign));
    load("foreign file", 0, 1, "nothing for this device");
    char *mistyped = edit(good, "\"tbc\": 2", "\"tbc\": true");
    write_text(path, mistyped, strlen(mistyped));
    load("mistyped file", 0, 1, "params.tbc");
    remove(path);
    load("missing file", 0, 1, "cannot be opened");
    setenv("BCHOL_TUNING_FILE", dir, 1);
    load("a folder as the file", 0, 1, "cannot be");
    setenv("BCHOL_TUNING_FILE", "off", 1);
    load("off", 0, 0, "BCHOL_TUNING_FILE=off");

    /* the folder: every *.json in name order; a bad one warned about once and skipped */
    unsetenv("BCHOL_TUNING_FILE");
    setenv("BCHOL_TUNING_DIR", dir, 1);
    load("empty folder", 0, 0, "no tuning file in");
    write_text(path, "{ \"format\": ", 13);
    write_text(other, good, strlen(good));
    write_text(stray, "not JSON", 8);
    load("folder with a bad file", 1, 1, "a.json");
    write_text(other, foreign, strlen(foreign));
    load("folder for others", 0, 1, "no tuning file in");
    remove(path);
    load("folder, others only", 0, 0, "no tuning file in");
    remove(other);
    remove(stray);
    rmdir(dir);
    unsetenv("BCHOL_TUNING_DIR");
    free(foreign);
    free(mistyped);
}

/* ---- entries of every variant (and of the vbatched routines) ----------------------------------------------------------- */

/* A file of all three strided variants at n = 32 (the separate one fastest) and 64 (fused),
 * and a vbatched entry at 32, faster than all: it must not take part in AUTO's choice. */
static const char *const variants_file =
    "{ \"format\": \"bchol-tuning\", \"format_version\": 1,\n"
    "  \"devices\": [ { \"vendor\": \"AMD\", \"architecture\": \"haswell\", \"name\": \"AMD EPYC\",\n"
    "    \"chosen\": [\n"
    "      {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 32, \"params\": {\"ib\": 8, \"tbc\": 1, "
    "\"rpt\": 4, \"shape\": \"fixed\"}, \"ms\": 3.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"separate\", \"n\": 32, \"params\": {\"nb\": 16, \"pb\": 8, "
    "\"gemm\": \"own\", \"tile\": 32, \"gb\": 128}, \"ms\": 2.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"interleaved\", \"n\": 32, \"params\": {\"inb\": 6, "
    "\"looking\": \"top\", \"unroll\": \"full\", \"chunking\": \"simple\", \"chunk\": 32, \"math\": \"ieee\"}, "
    "\"ms\": 2.5},\n"
    "      {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 64, \"params\": {\"ib\": 16, \"tbc\": 2, "
    "\"rpt\": 8, \"shape\": \"shrink\"}, \"ms\": 5.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"separate\", \"n\": 64, \"params\": {\"nb\": 32, \"pb\": 4, "
    "\"gemm\": \"clblast\", \"tile\": 64, \"gb\": 256}, \"ms\": 7.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"vbatched\", \"n\": 32, \"params\": {\"ib\": 4, \"rpt\": 2, "
    "\"shape\": \"shrink\", \"etm\": \"classic\", \"schedule\": \"greedy\"}, \"ms\": 0.5}\n"
    "    ] } ] }\n";

/* The edited variants_file must be rejected with a message containing needle. */
static void rejects_variant(const char *what, const char *from, const char *to, const char *needle)
{
    rejects_in(variants_file, what, from, to, needle);
}

static void case_variants(void)
{
    bchol_tuning t = {0};
    char why[512] = "";
    CHECK(parse(&t, variants_file, why, sizeof why) == 0, "the file of three variants rejected: %s", why);
    const bchol_device_info d = {.family = "pocl", .vendor = "AMD", .architecture = "haswell", .name = "AMD EPYC"};
    /* each variant's fields as written */
    bchol_tuning_pick f = bchol__tuning_lookup(&t, &d, 's', BCHOL_VARIANT_FUSED, 40);
    bchol_tuning_pick s = bchol__tuning_lookup(&t, &d, 's', BCHOL_VARIANT_SEPARATE, 100);
    bchol_tuning_pick i = bchol__tuning_lookup(&t, &d, 's', BCHOL_VARIANT_INTERLEAVED, 100);
    CHECK(f.entry && f.entry->n == 32 && f.entry->params.ib == 8 && f.entry->params.shape == BCHOL_SHAPE_FIXED,
          "fused at n = 40: not the n = 32 entry");
    CHECK(s.entry && s.entry->n == 64 && s.entry->params.variant == BCHOL_VARIANT_SEPARATE &&
              s.entry->params.nb == 32 && s.entry->params.pb == 4 && s.entry->params.gemm == BCHOL_GEMM_CLBLAST &&
              s.entry->params.tile == 64 && s.entry->params.gb == 256,
          "separate at n = 100: not the n = 64 entry's fields");
    CHECK(i.entry && i.entry->n == 32 && i.entry->params.variant == BCHOL_VARIANT_INTERLEAVED &&
              i.entry->params.inb == 6 && i.entry->params.looking == BCHOL_LOOKING_TOP &&
              i.entry->params.unroll == BCHOL_UNROLL_FULL && i.entry->params.chunking == BCHOL_SIMPLE &&
              i.entry->params.chunk == 32 && i.entry->params.math == BCHOL_MATH_IEEE,
          "interleaved at n = 100: not the n = 32 entry's fields");
    /* AUTO: the fastest variant at the nearest measured size below (the crossovers) */
    bchol_tuning_pick a32 = bchol__tuning_lookup(&t, &d, 's', BCHOL_VARIANT_AUTO, 40);
    bchol_tuning_pick a64 = bchol__tuning_lookup(&t, &d, 's', BCHOL_VARIANT_AUTO, 64);
    CHECK(a32.entry && a32.entry->variant == BCHOL_VARIANT_SEPARATE, "AUTO at n = 40: not separate (2.0 ms)");
    CHECK(a64.entry && a64.entry->variant == BCHOL_VARIANT_FUSED, "AUTO at n = 64: not fused (5.0 ms)");
    bchol_tuning_pick vb = bchol__tuning_lookup(&t, &d, 's', BCHOL__VARIANT_VBATCHED, 100);
    CHECK(vb.entry && vb.entry->n == 32 && vb.entry->params.variant == BCHOL_VARIANT_FUSED &&
              vb.entry->params.ib == 4 && vb.entry->params.rpt == 2 &&
              vb.entry->params.shape == BCHOL_SHAPE_SHRINK && vb.entry->etm == BCHOL_ETM_CLASSIC &&
              vb.entry->schedule == BCHOL_SCHEDULE_GREEDY,
          "vbatched at n = 100: not the n = 32 entry's fields");
    bchol__tuning_free(&t);

    /* the separate and interleaved fields: missing, mistyped, out of range, unknown labels */
    rejects_variant("separate: no nb", "\"nb\": 16, ", "", "chosen[1].params.nb: expected an integer in 1..64");
    rejects_variant("separate: nb a string", "\"nb\": 16", "\"nb\": \"16\"", "params.nb: expected an integer");
    rejects_variant("separate: nb 0", "\"nb\": 16", "\"nb\": 0", "params.nb");
    rejects_variant("separate: pb 65", "\"pb\": 8", "\"pb\": 65", "params.pb: expected an integer in 1..64");
    rejects_variant("separate: gemm unknown", "\"gemm\": \"own\"", "\"gemm\": \"blas\"",
                    "params.gemm: expected \"own\" or \"clblast\", found another string");
    rejects_variant("separate: gemm a number", "\"gemm\": \"own\"", "\"gemm\": 1", "params.gemm");
    rejects_variant("separate: tile 8", "\"tile\": 32", "\"tile\": 8", "params.tile: expected an integer in 16..128");
    rejects_variant("separate: gb fractional", "\"gb\": 128", "\"gb\": 12.5", "params.gb");
    rejects_variant("interleaved: no looking", "\"looking\": \"top\", ", "", "chosen[2].params.looking");
    rejects_variant("interleaved: inb 65", "\"inb\": 6", "\"inb\": 65", "params.inb: expected an integer in 1..64");
    rejects_variant("interleaved: inb null", "\"inb\": 6", "\"inb\": null", "params.inb");
    rejects_variant("interleaved: looking unknown", "\"looking\": \"top\"", "\"looking\": \"bottom\"",
                    "params.looking: expected \"left\", \"right\" or \"top\"");
    rejects_variant("interleaved: unroll a number", "\"unroll\": \"full\"", "\"unroll\": 2", "params.unroll");
    rejects_variant("interleaved: chunking default", "\"chunking\": \"simple\"", "\"chunking\": \"default\"",
                    "params.chunking");
    rejects_variant("interleaved: chunk 1025", "\"chunk\": 32", "\"chunk\": 1025",
                    "params.chunk: expected an integer in 1..1024");
    rejects_variant("interleaved: chunk a bool", "\"chunk\": 32", "\"chunk\": true", "found a boolean");
    rejects_variant("interleaved: math unknown", "\"math\": \"ieee\"", "\"math\": \"fastest\"", "params.math");
    rejects_variant("vbatched: etm unknown", "\"etm\": \"classic\"", "\"etm\": \"eager\"",
                    "chosen[5].params.etm: expected \"classic\" or \"aggressive\", found another string");
    rejects_variant("vbatched: schedule a number", "\"schedule\": \"greedy\"", "\"schedule\": 1",
                    "chosen[5].params.schedule: expected \"greedy\", \"lazy\" or \"one-launch\", found a number");
    rejects_variant("vbatched: no rpt", "\"rpt\": 2, ", "", "chosen[5].params.rpt");
    rejects_variant("vbatched: ib 33", "\"ib\": 4, \"rpt\": 2", "\"ib\": 33, \"rpt\": 2", "chosen[5].params.ib");
    rejects_variant("interleaved: params a number", "\"params\": {\"inb\": 6,", "\"params\": 6, \"p\": {\"inb\": 6,",
                    "chosen[2].params: expected an object, found a number");
}

/* ---- the solve's entries ------------------------------------------------------------- */

/* Solve entries at n = 8 (nrhs 1 and 16) and 32 (nrhs 1, 4 and 16; their tbc tells them
 * apart), a double one at 16, and a fused entry slower than all of them at 8: the solve's
 * entries are not a factorization variant. */
static const char *const solve_file =
    "{ \"format\": \"bchol-tuning\", \"format_version\": 1,\n"
    "  \"devices\": [ { \"vendor\": \"AMD\", \"architecture\": \"haswell\", \"name\": \"AMD EPYC\",\n"
    "    \"chosen\": [\n"
    "      {\"precision\": \"s\", \"variant\": \"solve\", \"n\": 32, \"nrhs\": 16, \"params\": {\"nt\": 16, "
    "\"rpt\": 2, \"tbc\": 5}, \"ms\": 0.5},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve\", \"n\": 8, \"nrhs\": 1, \"params\": {\"nt\": 1, "
    "\"rpt\": 4, \"tbc\": 1}, \"ms\": 0.1, \"default_ms\": 0.2},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve\", \"n\": 8, \"nrhs\": 16, \"params\": {\"nt\": 8, "
    "\"rpt\": 8, \"tbc\": 2}, \"ms\": 0.3},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve\", \"n\": 32, \"nrhs\": 1, \"params\": {\"nt\": 1, "
    "\"rpt\": 1, \"tbc\": 3}},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve\", \"n\": 32, \"nrhs\": 4, \"params\": {\"nt\": 4, "
    "\"rpt\": 1, \"tbc\": 4}},\n"
    "      {\"precision\": \"d\", \"variant\": \"solve\", \"n\": 16, \"nrhs\": 2, \"params\": {\"nt\": 2, "
    "\"rpt\": 64, \"tbc\": 64}},\n"
    "      {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 8, \"params\": {\"ib\": 8, \"tbc\": 1, "
    "\"rpt\": 4, \"shape\": \"fixed\"}, \"ms\": 9.0}\n"
    "    ] } ] }\n";

static void rejects_solve(const char *what, const char *from, const char *to, const char *needle)
{
    rejects_in(solve_file, what, from, to, needle);
}

static void case_solve(void)
{
    bchol_tuning t = {0};
    char why[512] = "";
    CHECK(parse(&t, solve_file, why, sizeof why) == 0, "the solve file rejected: %s", why);
    const bchol_device_info d = {.family = "pocl", .vendor = "AMD", .architecture = "haswell", .name = "AMD EPYC"};
    /* an entry's fields as written */
    bchol_tuning_pick e = bchol__tuning_lookup_solve(&t, &d, 's', 8, 1);
    CHECK(e.entry && e.entry->variant == BCHOL__VARIANT_SOLVE && e.entry->n == 8 && e.entry->nrhs == 1 &&
              e.entry->solve.variant == BCHOL_SOLVE_SUBST && e.entry->solve.nt == 1 && e.entry->solve.rpt == 4 &&
              e.entry->solve.tbc == 1 && e.entry->ms == 0.1 && e.entry->default_ms == 0.2,
          "s n = 8 nrhs = 1: not the entry's fields");
    /* n: the nearest measured at or below (the smallest below all); nrhs: the closest
     * measured at that n by ratio, the larger on a tie (tbc names the entry) */
    const struct {
        int n, nrhs, tbc, below;
    } want[] = {
        {8, 1, 1, 0},   {8, 3, 1, 0},   {8, 4, 2, 0},   {8, 16, 2, 0},  {8, 1000, 2, 0}, {31, 2, 1, 0},
        {1, 1, 1, 1},   {7, 5, 2, 1},   {32, 1, 3, 0},  {32, 2, 4, 0},  {32, 3, 4, 0},   {32, 7, 4, 0},
        {32, 8, 5, 0},  {32, 16, 5, 0}, {500, 1, 3, 0}, {500, 64, 5, 0}, {40, 0, 3, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        bchol_tuning_pick p = bchol__tuning_lookup_solve(&t, &d, 's', want[i].n, want[i].nrhs);
        CHECK(p.entry && p.entry->solve.tbc == want[i].tbc && p.below_smallest == want[i].below &&
                  p.section == &t.sections[0],
              "s n = %d nrhs = %d: entry tbc %d below %d, wanted tbc %d below %d", want[i].n, want[i].nrhs,
              p.entry ? p.entry->solve.tbc : -1, p.below_smallest, want[i].tbc, want[i].below);
    }
    bchol_tuning_pick dd = bchol__tuning_lookup_solve(&t, &d, 'd', 100, 16);
    CHECK(dd.entry && dd.entry->precision == 'd' && dd.entry->solve.rpt == 64 && dd.entry->solve.tbc == 64,
          "d n = 100 nrhs = 16: not the double entry");
    /* the factorization's lookups never return a solve entry, though faster */
    bchol_tuning_pick a = bchol__tuning_lookup(&t, &d, 's', BCHOL_VARIANT_AUTO, 8);
    CHECK(a.entry && a.entry->variant == BCHOL_VARIANT_FUSED, "AUTO at n = 8: not the fused entry");
    CHECK(!bchol__tuning_lookup(&t, &d, 'd', BCHOL_VARIANT_AUTO, 16).entry, "AUTO d: a solve entry");
    CHECK(!bchol__tuning_lookup_solve(&t, &(bchol_device_info){.vendor = "Acme", .architecture = "x", .name = "y"},
                                      's', 8, 1).entry,
          "another device got a solve entry");
    bchol__tuning_free(&t);

    rejects_solve("solve: no nrhs", "\"nrhs\": 16, \"params\": {\"nt\": 16", "\"params\": {\"nt\": 16",
                  "chosen[0].nrhs: expected an integer in 1..1048576, found nothing (missing)");
    rejects_solve("solve: nrhs 0", "\"nrhs\": 16, \"params\": {\"nt\": 16", "\"nrhs\": 0, \"params\": {\"nt\": 16",
                  "chosen[0].nrhs: expected an integer in 1..1048576, found a number outside that range");
    rejects_solve("solve: nrhs a string", "\"nrhs\": 16, \"params\": {\"nt\": 16",
                  "\"nrhs\": \"16\", \"params\": {\"nt\": 16", "chosen[0].nrhs: expected an integer");
    rejects_solve("solve: nrhs fractional", "\"nrhs\": 16, \"params\": {\"nt\": 16",
                  "\"nrhs\": 1.5, \"params\": {\"nt\": 16", "chosen[0].nrhs");
    rejects_solve("solve: no nt", "{\"nt\": 16, ", "{", "chosen[0].params.nt: expected an integer in 1..32");
    rejects_solve("solve: nt 33", "\"nt\": 16", "\"nt\": 33", "chosen[0].params.nt: expected an integer in 1..32");
    rejects_solve("solve: rpt 0", "\"rpt\": 2, \"tbc\": 5", "\"rpt\": 0, \"tbc\": 5",
                  "chosen[0].params.rpt: expected an integer in 1..64");
    rejects_solve("solve: tbc 65", "\"tbc\": 5", "\"tbc\": 65", "chosen[0].params.tbc: expected an integer in 1..64");
    rejects_solve("solve: tbc a string", "\"tbc\": 5", "\"tbc\": \"5\"", "chosen[0].params.tbc");
    rejects_solve("solve: a duplicate (n, nrhs)", "\"n\": 32, \"nrhs\": 4", "\"n\": 32, \"nrhs\": 16",
                  "chosen[4]: a second s solve entry for n = 32, nrhs = 16");
}

/* The workitem solve's entries ("solve-workitem": nt, vw) beside the solve's: each kind
 * alone by the solve's rule, and the two competing (BCHOL__VARIANT_SOLVE_ANY): the nearest
 * n at or below over both kinds, the closest nrhs there over both, then the faster
 * (unknown times last, the solve entry on a tie). */
static const char *const solve_workitem_file =
    "{ \"format\": \"bchol-tuning\", \"format_version\": 1,\n"
    "  \"devices\": [ { \"family\": \"pocl\", \"vendor\": \"AMD\", \"architecture\": \"haswell\",\n"
    "    \"name\": \"AMD EPYC\", \"chosen\": [\n"
    "      {\"precision\": \"s\", \"variant\": \"solve\", \"n\": 8, \"nrhs\": 1, \"params\": {\"nt\": 1, "
    "\"rpt\": 4, \"tbc\": 1}, \"ms\": 0.3},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve-workitem\", \"n\": 8, \"nrhs\": 1, \"params\": {\"nt\": 1, "
    "\"vw\": 8}, \"ms\": 0.1, \"default_ms\": 0.15},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve\", \"n\": 8, \"nrhs\": 16, \"params\": {\"nt\": 8, "
    "\"rpt\": 4, \"tbc\": 2}, \"ms\": 0.2},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve-workitem\", \"n\": 8, \"nrhs\": 16, \"params\": {\"nt\": 8, "
    "\"vw\": 4}, \"ms\": 0.4},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve-workitem\", \"n\": 8, \"nrhs\": 4, \"params\": {\"nt\": 4, "
    "\"vw\": 16}},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve\", \"n\": 32, \"nrhs\": 2, \"params\": {\"nt\": 2, "
    "\"rpt\": 2, \"tbc\": 4}, \"ms\": 1.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve-workitem\", \"n\": 32, \"nrhs\": 2, \"params\": {\"nt\": 2, "
    "\"vw\": 2}},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve-workitem\", \"n\": 64, \"nrhs\": 1, \"params\": {\"nt\": 1, "
    "\"vw\": 16}, \"ms\": 5.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve\", \"n\": 128, \"nrhs\": 1, \"params\": {\"nt\": 1, "
    "\"rpt\": 1, \"tbc\": 8}, \"ms\": 2.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"solve-workitem\", \"n\": 128, \"nrhs\": 1, \"params\": {\"nt\": 1, "
    "\"vw\": 1}, \"ms\": 2.0},\n"
    "      {\"precision\": \"d\", \"variant\": \"solve-workitem\", \"n\": 16, \"nrhs\": 4, \"params\": {\"nt\": 4, "
    "\"vw\": 8}, \"ms\": 1.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 8, \"params\": {\"ib\": 8, \"tbc\": 1, "
    "\"rpt\": 4, \"shape\": \"fixed\"}, \"ms\": 9.0}\n"
    "    ] } ] }\n";

static void rejects_solve_workitem(const char *what, const char *from, const char *to, const char *needle)
{
    rejects_in(solve_workitem_file, what, from, to, needle);
}

static void case_solve_workitem(void)
{
    bchol_tuning t = {0};
    char why[512] = "";
    CHECK(parse(&t, solve_workitem_file, why, sizeof why) == 0, "the solve-workitem file rejected: %s", why);
    if (t.nsections != 1) return;
    const bchol_device_info d = {.family = "pocl", .vendor = "AMD", .architecture = "haswell", .name = "AMD EPYC"};
    /* an entry's fields as written */
    bchol_tuning_pick e = bchol__tuning_lookup_rhs(&t, &d, 's', BCHOL__VARIANT_SOLVE_WORKITEM, 8, 1);
    CHECK(e.entry && e.entry->variant == BCHOL__VARIANT_SOLVE_WORKITEM && e.entry->n == 8 && e.entry->nrhs == 1 &&
              e.entry->solve.variant == BCHOL_SOLVE_WORKITEM && e.entry->solve.nt == 1 && e.entry->vw == 8 &&
              e.entry->solve.rpt == 0 && e.entry->solve.tbc == 0 && e.entry->ms == 0.1 && e.entry->default_ms == 0.15,
          "s n = 8 nrhs = 1: not the solve-workitem entry's fields");
    CHECK(!strcmp(bchol__variant_name(BCHOL__VARIANT_SOLVE_WORKITEM), "solve-workitem"), "the kind's name");
    /* w: 1 for a solve-workitem entry (nt, vw), 0 for a solve entry (nt, tbc) */
    const struct {
        char p;
        bchol_variant ask;
        int n, nrhs, w, nt, vw_or_tbc, below;
    } want[] = {
        /* competing: the faster at the chosen n and nrhs */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 8, 1, 1, 1, 8, 0},     /* workitem 0.1 < solve 0.3 */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 8, 16, 0, 8, 2, 0},    /* solve 0.2 < workitem 0.4 */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 8, 100, 0, 8, 2, 0},   /* the closest nrhs, 16 */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 8, 3, 1, 4, 16, 0},    /* nrhs 4, measured by workitem only */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 8, 2, 1, 4, 16, 0},    /* 2/1 = 4/2: the larger, 4 */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 20, 1, 1, 1, 8, 0},    /* the nearest n below, 8 */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 4, 1, 1, 1, 8, 1},     /* below all: the smallest n */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 32, 2, 0, 2, 4, 0},    /* the workitem entry has no time */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 40, 16, 0, 2, 4, 0},
        {'s', BCHOL__VARIANT_SOLVE_ANY, 64, 1, 1, 1, 16, 0},   /* n = 64 measured by workitem only */
        {'s', BCHOL__VARIANT_SOLVE_ANY, 100, 8, 1, 1, 16, 0},
        {'s', BCHOL__VARIANT_SOLVE_ANY, 128, 1, 0, 1, 8, 0},   /* equal times: the solve entry */
        {'d', BCHOL__VARIANT_SOLVE_ANY, 16, 4, 1, 4, 8, 0},
        {'d', BCHOL__VARIANT_SOLVE_ANY, 5, 1, 1, 4, 8, 1},
        /* one kind alone: its own nearest n and closest nrhs, whatever the other's times */
        {'s', BCHOL__VARIANT_SOLVE, 8, 1, 0, 1, 1, 0},
        {'s', BCHOL__VARIANT_SOLVE, 8, 3, 0, 1, 1, 0},         /* solve's nrhs 1 (3) before 16 (5.3) */
        {'s', BCHOL__VARIANT_SOLVE, 64, 1, 0, 2, 4, 0},        /* solve's nearest n below, 32 */
        {'s', BCHOL__VARIANT_SOLVE_WORKITEM, 8, 16, 1, 8, 4, 0},
        {'s', BCHOL__VARIANT_SOLVE_WORKITEM, 40, 16, 1, 2, 2, 0},
        {'s', BCHOL__VARIANT_SOLVE_WORKITEM, 128, 1, 1, 1, 1, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        bchol_tuning_pick p = bchol__tuning_lookup_rhs(&t, &d, want[i].p, want[i].ask, want[i].n, want[i].nrhs);
        const bchol_tuning_entry *x = p.entry;
        const int w = x && x->variant == BCHOL__VARIANT_SOLVE_WORKITEM;
        CHECK(x && x->precision == want[i].p && w == want[i].w && x->solve.nt == want[i].nt &&
                  (w ? x->vw : x->solve.tbc) == want[i].vw_or_tbc && p.below_smallest == want[i].below &&
                  p.section == &t.sections[0],
              "%c %s n = %d nrhs = %d: %s nt %d %s %d below %d, wanted %s nt %d %d below %d", want[i].p,
              want[i].ask == BCHOL__VARIANT_SOLVE_ANY ? "both kinds" : bchol__variant_name(want[i].ask), want[i].n,
              want[i].nrhs, x ? bchol__variant_name(x->variant) : "none", x ? x->solve.nt : -1, w ? "vw" : "tbc",
              x ? (w ? x->vw : x->solve.tbc) : -1, p.below_smallest, want[i].w ? "solve-workitem" : "solve",
              want[i].nt, want[i].vw_or_tbc, want[i].below);
    }
    /* the solve's own lookup (potrs forced to the substitution solve, the vbatched solve)
     * never returns a solve-workitem entry, nor the factorization's or the LU solve's */
    bchol_tuning_pick s = bchol__tuning_lookup_solve(&t, &d, 's', 64, 1);
    CHECK(s.entry && s.entry->variant == BCHOL__VARIANT_SOLVE && s.entry->n == 32, "lookup_solve s 64: not solve's n = 32");
    CHECK(!bchol__tuning_lookup_solve(&t, &d, 'd', 16, 4).entry, "lookup_solve d: a solve-workitem entry");
    CHECK(!bchol__tuning_lookup_getrs(&t, &d, 's', 8, 1).entry, "lookup_getrs: a solve-workitem entry");
    bchol_tuning_pick a = bchol__tuning_lookup(&t, &d, 's', BCHOL_VARIANT_AUTO, 64);
    CHECK(a.entry && a.entry->variant == BCHOL_VARIANT_FUSED, "AUTO s 64: not the fused entry");
    CHECK(!bchol__tuning_lookup(&t, &d, 'd', BCHOL_VARIANT_AUTO, 16).entry, "AUTO d: a solve-workitem entry");
    CHECK(bchol__tuning_section_has(&t.sections[0], 'd', BCHOL__VARIANT_SOLVE_WORKITEM) &&
              !bchol__tuning_section_has(&t.sections[0], 'd', BCHOL__VARIANT_SOLVE) &&
              bchol__tuning_section_has(&t.sections[0], 's', BCHOL__VARIANT_SOLVE),
          "bchol__tuning_section_has");
    CHECK(!bchol__tuning_lookup_rhs(&t, &(bchol_device_info){.vendor = "Acme", .architecture = "x", .name = "y"}, 's',
                                    BCHOL__VARIANT_SOLVE_ANY, 8, 1)
               .entry,
          "another device got a solve-workitem entry");
    bchol__tuning_free(&t);

    /* a bad entry rejects the file, as the solve's do */
    const char *first = "\"variant\": \"solve-workitem\", \"n\": 8, \"nrhs\": 1, \"params\": {\"nt\": 1, \"vw\": 8}";
    rejects_solve_workitem("solve-workitem: no nrhs", first,
                           "\"variant\": \"solve-workitem\", \"n\": 8, \"params\": {\"nt\": 1, \"vw\": 8}",
                           "chosen[1].nrhs: expected an integer in 1..1048576, found nothing (missing)");
    rejects_solve_workitem("solve-workitem: nt 0", "{\"nt\": 1, \"vw\": 8}", "{\"nt\": 0, \"vw\": 8}",
                           "chosen[1].params.nt: expected an integer in 1..32");
    rejects_solve_workitem("solve-workitem: nt 33", "{\"nt\": 1, \"vw\": 8}", "{\"nt\": 33, \"vw\": 8}",
                           "chosen[1].params.nt: expected an integer in 1..32");
    rejects_solve_workitem("solve-workitem: no vw", "{\"nt\": 1, \"vw\": 8}", "{\"nt\": 1}",
                           "chosen[1].params.vw: expected an integer in 1..16, found nothing (missing)");
    rejects_solve_workitem("solve-workitem: vw 0", "{\"nt\": 1, \"vw\": 8}", "{\"nt\": 1, \"vw\": 0}",
                           "chosen[1].params.vw: expected an integer in 1..16");
    rejects_solve_workitem("solve-workitem: vw 32", "{\"nt\": 1, \"vw\": 8}", "{\"nt\": 1, \"vw\": 32}",
                           "chosen[1].params.vw: expected an integer in 1..16");
    rejects_solve_workitem("solve-workitem: vw 6", "{\"nt\": 1, \"vw\": 8}", "{\"nt\": 1, \"vw\": 6}",
                           "chosen[1].params.vw: expected 1, 2, 4, 8 or 16, found 6");
    rejects_solve_workitem("solve-workitem: vw a string", "{\"nt\": 1, \"vw\": 8}", "{\"nt\": 1, \"vw\": \"8\"}",
                           "chosen[1].params.vw: expected an integer");
    rejects_solve_workitem("solve-workitem: a duplicate (n, nrhs)", "\"nrhs\": 4, \"params\": {\"nt\": 4, \"vw\": 16}",
                           "\"nrhs\": 16, \"params\": {\"nt\": 4, \"vw\": 16}",
                           "chosen[4]: a second s solve-workitem entry for n = 8, nrhs = 16");
}

/* getrf's entries: one per variant ("getrf-fused", "getrf-blocked", "getrf-workitem",
 * "getrf-regs", whose tbc 0 names the driver's group) and size, a variant of a newer bchol
 * ("getrf-tiled") skipped; the fastest variant measured at
 * the nearest size at or below n is picked, apart from the Cholesky lookups. */
static const char *const getrf_file =
    "{ \"format\": \"bchol-tuning\", \"format_version\": 1,\n"
    "  \"devices\": [ { \"family\": \"pocl\", \"vendor\": \"AMD\", \"architecture\": \"haswell\",\n"
    "    \"name\": \"AMD EPYC\", \"chosen\": [\n"
    "      {\"precision\": \"s\", \"variant\": \"getrf-blocked\", \"n\": 64, \"params\": {\"nb\": 8, "
    "\"gemm\": \"own\"}, \"ms\": 1.0, \"default_ms\": 3.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"getrf-fused\", \"n\": 64, \"params\": {\"lx\": 16, \"tbc\": 4}, "
    "\"ms\": 2.0},\n"
    "      {\"precision\": \"s\", \"variant\": \"getrf-workitem\", \"n\": 64, \"params\": {\"tbc\": 8}, \"ms\": 1.5},\n"
    "      {\"precision\": \"s\", \"variant\": \"getrf-tiled\", \"n\": 64, \"params\": {\"rows\": 4}, \"ms\": 0.1},\n"
    "      {\"precision\": \"s\", \"variant\": \"getrf-regs\", \"n\": 64, \"params\": {\"tbc\": 0}, \"ms\": 4.0},\n"
    "      {\"precision\": \"d\", \"variant\": \"getrf-regs\", \"n\": 8, \"params\": {\"tbc\": 16}, \"ms\": 0.2},\n"
    "      {\"precision\": \"s\", \"variant\": \"getrf-fused\", \"n\": 16, \"params\": {\"lx\": 4, \"tbc\": 2}, "
    "\"ms\": 0.5},\n"
    "      {\"precision\": \"s\", \"variant\": \"getrf-workitem\", \"n\": 16, \"params\": {\"tbc\": 16}, \"ms\": 0.7},\n"
    "      {\"precision\": \"d\", \"variant\": \"getrf-workitem\", \"n\": 32, \"params\": {\"tbc\": 4, \"nb\": 16}},\n"
    "      {\"precision\": \"s\", \"variant\": \"fused\", \"n\": 16, \"params\": {\"ib\": 8, \"tbc\": 1, "
    "\"rpt\": 4, \"shape\": \"fixed\"}, \"ms\": 0.01}\n"
    "    ] } ] }\n";

static void rejects_getrf(const char *what, const char *from, const char *to, const char *needle)
{
    rejects_in(getrf_file, what, from, to, needle);
}

static void case_getrf(void)
{
    bchol_tuning t = {0};
    char why[512] = "";
    CHECK(parse(&t, getrf_file, why, sizeof why) == 0, "the getrf file rejected: %s", why);
    CHECK(t.nsections == 1 && t.sections[0].nentries == 9, "%d entries kept, wanted 9 (getrf-tiled skipped)",
          t.nsections ? t.sections[0].nentries : -1);
    const bchol_device_info d = {.family = "pocl", .vendor = "AMD", .architecture = "haswell", .name = "AMD EPYC"};
    /* the fastest at the nearest measured size at or below n; the smallest below all */
    const struct {
        char p;
        int n;
        bchol_getrf_variant v;
        int lx, tbc, nb, gemm, below;
    } want[] = {
        {'s', 64, BCHOL_GETRF_BLOCKED, 0, 0, 8, BCHOL_GEMM_OWN, 0},
        {'s', 1000, BCHOL_GETRF_BLOCKED, 0, 0, 8, BCHOL_GEMM_OWN, 0},
        {'s', 63, BCHOL_GETRF_FUSED, 4, 2, 0, 0, 0},
        {'s', 16, BCHOL_GETRF_FUSED, 4, 2, 0, 0, 0},
        {'s', 3, BCHOL_GETRF_FUSED, 4, 2, 0, 0, 1},
        {'d', 100, BCHOL_GETRF_WORKITEM, 0, 4, 16, 0, 0}, /* its panel width; s 16's none: 0 */
        {'d', 8, BCHOL_GETRF_REGS, 0, 16, 0, 0, 0},
        {'d', 31, BCHOL_GETRF_REGS, 0, 16, 0, 0, 0},
        {'d', 5, BCHOL_GETRF_REGS, 0, 16, 0, 0, 1},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        bchol_tuning_pick p = bchol__tuning_lookup(&t, &d, want[i].p, BCHOL__VARIANT_GETRF, want[i].n);
        const bchol_tuning_entry *e = p.entry;
        CHECK(e && e->getrf.variant == want[i].v && e->getrf.lx == want[i].lx && e->getrf.tbc == want[i].tbc &&
                  e->getrf.nb == want[i].nb && e->getrf.gemm == want[i].gemm && p.below_smallest == want[i].below,
              "%c n = %d: entry %s lx %d tbc %d nb %d gemm %d below %d", want[i].p, want[i].n,
              e ? bchol__variant_name(e->variant) : "none", e ? e->getrf.lx : -1, e ? e->getrf.tbc : -1,
              e ? e->getrf.nb : -1, e ? e->getrf.gemm : -1, p.below_smallest);
    }
    bchol_tuning_pick b = bchol__tuning_lookup(&t, &d, 's', BCHOL__VARIANT_GETRF, 64);
    CHECK(b.entry && b.entry->ms == 1.0 && b.entry->default_ms == 3.0, "s 64: not the blocked entry's times");
    /* Cholesky's lookups never see getrf's entries, nor getrf's Cholesky's */
    bchol_tuning_pick a = bchol__tuning_lookup(&t, &d, 's', BCHOL_VARIANT_AUTO, 64);
    CHECK(a.entry && a.entry->variant == BCHOL_VARIANT_FUSED && a.entry->params.ib == 8,
          "AUTO s 64: not the Cholesky fused entry");
    CHECK(!bchol__tuning_lookup(&t, &d, 'd', BCHOL_VARIANT_AUTO, 64).entry, "AUTO d: a getrf entry");
    CHECK(!bchol__tuning_lookup(&t, &(bchol_device_info){.vendor = "Acme", .architecture = "x", .name = "y"}, 's',
                                BCHOL__VARIANT_GETRF, 64)
               .entry,
          "another device got a getrf entry");
    bchol__tuning_free(&t);
    /* a file without getrf entries (every older one): no getrf entry, the defaults */
    CHECK(parse(&t, good, why, sizeof why) == 0, "the good file rejected: %s", why);
    CHECK(!bchol__tuning_lookup(&t, &d, 's', BCHOL__VARIANT_GETRF, 16).entry, "an old file gave a getrf entry");
    bchol__tuning_free(&t);

    rejects_getrf("getrf: lx 0", "\"lx\": 16", "\"lx\": 0", "chosen[1].params.lx: expected an integer in 1..1024");
    rejects_getrf("getrf: lx 1025", "\"lx\": 16", "\"lx\": 1025", "chosen[1].params.lx: expected an integer in 1..1024");
    rejects_getrf("getrf: no tbc", "\"lx\": 16, \"tbc\": 4", "\"lx\": 16",
                  "chosen[1].params.tbc: expected an integer in 1..64, found nothing (missing)");
    rejects_getrf("getrf: nb 65", "\"nb\": 8", "\"nb\": 65", "chosen[0].params.nb: expected an integer in 1..64");
    rejects_getrf("getrf: nb a string", "\"nb\": 8", "\"nb\": \"8\"", "chosen[0].params.nb: expected an integer");
    rejects_getrf("getrf: gemm unknown", "\"gemm\": \"own\"", "\"gemm\": \"cublas\"",
                  "chosen[0].params.gemm: expected \"own\" or \"clblast\", found another string");
    rejects_getrf("getrf: workitem nb 0", "\"tbc\": 4, \"nb\": 16", "\"tbc\": 4, \"nb\": 0",
                  "chosen[8].params.nb: expected an integer in 1..64");
    rejects_getrf("getrf: workitem tbc 0", "\"tbc\": 8", "\"tbc\": 0",
                  "chosen[2].params.tbc: expected an integer in 1..64");
    rejects_getrf("getrf: regs tbc -1", "\"tbc\": 16}, \"ms\": 0.2", "\"tbc\": -1}, \"ms\": 0.2",
                  "chosen[5].params.tbc: expected an integer in 0..64");
    rejects_getrf("getrf: regs tbc 65", "\"tbc\": 16}, \"ms\": 0.2", "\"tbc\": 65}, \"ms\": 0.2",
                  "chosen[5].params.tbc: expected an integer in 0..64");
    rejects_getrf("getrf: regs tbc 2.5", "\"tbc\": 16}, \"ms\": 0.2", "\"tbc\": 2.5}, \"ms\": 0.2",
                  "chosen[5].params.tbc: expected an integer in 0..64");
    rejects_getrf("getrf: regs tbc a string", "\"tbc\": 16}, \"ms\": 0.2", "\"tbc\": \"16\"}, \"ms\": 0.2",
                  "chosen[5].params.tbc: expected an integer in 0..64, found a string");
    rejects_getrf("getrf: regs no tbc", "\"tbc\": 16}, \"ms\": 0.2", "\"rows\": 16}, \"ms\": 0.2",
                  "chosen[5].params.tbc: expected an integer in 0..64, found nothing (missing)");
    rejects_getrf("getrf: no params", "\"params\": {\"tbc\": 8}, ", "",
                  "chosen[2].params: expected an object, found nothing (missing)");
    rejects_getrf("getrf: a duplicate", "\"variant\": \"getrf-fused\", \"n\": 16", "\"variant\": \"getrf-fused\", \"n\": 64",
                  "chosen[6]: a second s getrf-fused entry for n = 64");
    rejects_getrf("getrf: between", "\"params\": {\"tbc\": 8}, ", "\"params\": {\"tbc\": 8}, \"between\": {\"tbc\": 4}, \"between_to\": 70, ",
                  "chosen[2].between: only fused and separate entries have one");
}

/* The bound for one launch of a small variable-size batch (host/core/core.h): at and past
 * it, with the product batch * max_n too large for 64 bits, and where it does not apply. */
static void case_one_launch(void)
{
    /* 132 compute units * 1536 = 202752 = 3168 * 64 */
    CHECK(bchol__vbatched_fits_one_launch(132, 1536, 64, 384, 3168), "3168 x 64 fits");
    CHECK(!bchol__vbatched_fits_one_launch(132, 1536, 64, 384, 3169), "3169 x 64 does not fit");
    CHECK(bchol__vbatched_fits_one_launch(132, 1536, 1, 384, 202752), "202752 x 1 fits");
    CHECK(!bchol__vbatched_fits_one_launch(132, 1536, 46340, 46340, (int64_t)1 << 59),
          "2^59 x 46340 (past 2^64) does not fit");
    CHECK(!bchol__vbatched_fits_one_launch(132, 1536, 400, 384, 10), "above the largest order");
    CHECK(!bchol__vbatched_fits_one_launch(132, 0, 8, 384, 1), "per_cu 0: never");
    CHECK(!bchol__vbatched_fits_one_launch(132, 1536, 8, 384, 0), "batch 0: a batch that fills the device");
    CHECK(!bchol__vbatched_fits_one_launch(132, 1536, 0, 384, 5), "max_n 0: nothing to launch");
}

/* ---- many entries, many files ------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* A growing text (the test's large files). */
typedef struct {
    char *text;
    size_t length, cap;
} buffer;

static void put(buffer *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int w = vsnprintf(b->text + b->length, b->cap - b->length, fmt, ap);
        va_end(ap);
        if (w >= 0 && (size_t)w < b->cap - b->length) {
            b->length += (size_t)w;
            return;
        }
        b->cap = b->cap ? 2 * b->cap : 1 << 20;
        b->text = realloc(b->text, b->cap);
        if (!b->text) {
            printf("FAILED: test setup: out of memory\n");
            exit(1);
        }
    }
}

/* The entries every file of the "many" case holds, for the stand-in's device: the small
 * reference. fused and separate s at 100 and 200 (the separate one faster at 100 only), an
 * interleaved one at 150, solve d at 10 with nrhs 1 and 16. */
static void reference_entries(buffer *b)
{
    put(b, "{\"precision\": \"s\", \"variant\": \"fused\", \"n\": 200, \"params\": {\"ib\": 7, \"tbc\": 1, \"rpt\": 3, "
           "\"shape\": \"fixed\"}, \"ms\": 2.0},\n"
           "{\"precision\": \"s\", \"variant\": \"separate\", \"n\": 100, \"params\": {\"nb\": 9, \"pb\": 3, \"gemm\": "
           "\"own\", \"tile\": 32, \"gb\": 1}, \"ms\": 0.5},\n"
           "{\"precision\": \"s\", \"variant\": \"fused\", \"n\": 100, \"params\": {\"ib\": 5, \"tbc\": 2, \"rpt\": 1, "
           "\"shape\": \"fixed\"}, \"ms\": 1.0},\n"
           "{\"precision\": \"s\", \"variant\": \"separate\", \"n\": 200, \"params\": {\"nb\": 11, \"pb\": 5, \"gemm\": "
           "\"own\", \"tile\": 16, \"gb\": 1}, \"ms\": 3.0},\n"
           "{\"precision\": \"s\", \"variant\": \"interleaved\", \"n\": 150, \"params\": {\"inb\": 6, \"looking\": "
           "\"left\", \"unroll\": \"tiles\", \"chunking\": \"chunked\", \"chunk\": 32, \"math\": \"ieee\"}},\n"
           "{\"precision\": \"d\", \"variant\": \"solve\", \"n\": 10, \"nrhs\": 16, \"params\": {\"nt\": 8, \"rpt\": 2, "
           "\"tbc\": 3}},\n"
           "{\"precision\": \"d\", \"variant\": \"solve\", \"n\": 10, \"nrhs\": 1, \"params\": {\"nt\": 1, \"rpt\": 4, "
           "\"tbc\": 2}}");
}

static const char *const file_head = "{\"format\": \"bchol-tuning\", \"format_version\": 1, \"devices\": [\n";

/* The small reference file: only the reference entries. */
static buffer small_file(void)
{
    buffer b = {0};
    put(&b, "%s{\"family\": \"pocl\", \"vendor\": \"AMD\", \"architecture\": \"haswell\", \"name\": \"AMD EPYC\", "
            "\"chosen\": [\n", file_head);
    reference_entries(&b);
    put(&b, "]}]}\n");
    return b;
}

/* The large file: the reference entries among `count` others of the same section, written
 * from the largest size down (so the loader sorts them) and at sizes that change none of
 * the reference's picks: fused, separate and interleaved in single precision at every
 * n >= 1000 (slower than the reference's at 200 would be, were they at the same size), solve
 * entries in double at n >= 1000 with nrhs 1..8, and fused entries in double everywhere.
 * dup: one more entry repeating the first fused s one's key, at the end. */
static buffer large_file(int count, int dup)
{
    buffer b = {0};
    put(&b, "%s{\"family\": \"pocl\", \"vendor\": \"AMD\", \"architecture\": \"haswell\", \"name\": \"AMD EPYC\", "
            "\"chosen\": [\n", file_head);
    for (int i = count - 1; i >= 0; i--) {
        const int kind = i % 5, n = 1000 + i / 5;
        switch (kind) {
        case 0:
            put(&b, "{\"precision\": \"s\", \"variant\": \"fused\", \"n\": %d, \"params\": {\"ib\": %d, \"tbc\": 1, "
                    "\"rpt\": %d, \"shape\": \"fixed\"}, \"ms\": %g},\n", n, 1 + n % 32, 1 + n % 64, 5.0 + n % 7);
            break;
        case 1:
            put(&b, "{\"precision\": \"s\", \"variant\": \"separate\", \"n\": %d, \"params\": {\"nb\": %d, \"pb\": 1, "
                    "\"gemm\": \"own\", \"tile\": 16, \"gb\": 1}, \"ms\": %g},\n", n, 1 + n % 64, 5.0 + n % 5);
            break;
        case 2:
            put(&b, "{\"precision\": \"s\", \"variant\": \"interleaved\", \"n\": %d, \"params\": {\"inb\": %d, "
                    "\"looking\": \"top\", \"unroll\": \"full\", \"chunking\": \"simple\", \"chunk\": 64, "
                    "\"math\": \"ieee\"}, \"ms\": %g},\n", n, 1 + n % 64, 5.0 + n % 3);
            break;
        case 3:
            put(&b, "{\"precision\": \"d\", \"variant\": \"solve\", \"n\": %d, \"nrhs\": %d, \"params\": {\"nt\": %d, "
                    "\"rpt\": 1, \"tbc\": 1}},\n", 1000 + i / 40, 1 + i / 5 % 8, 1 + i % 32);
            break;
        default:
            put(&b, "{\"precision\": \"d\", \"variant\": \"fused\", \"n\": %d, \"params\": {\"ib\": %d, \"tbc\": 1, "
                    "\"rpt\": 1, \"shape\": \"fixed\"}},\n", i / 5, 1 + i % 32);
        }
    }
    reference_entries(&b);
    if (dup)
        put(&b, ",\n{\"precision\": \"s\", \"variant\": \"fused\", \"n\": 100, \"params\": {\"ib\": 1, \"tbc\": 1, "
                "\"rpt\": 1, \"shape\": \"fixed\"}}");
    put(&b, "]}]}\n");
    return b;
}

/* What the table picks for the reference entries' requests, as one line per request (each
 * pick's variant, n, nrhs and the parameter that names it). */
static void picks(const bchol_tuning *t, const bchol_device_info *d, char *out, size_t size)
{
    static const struct {
        char precision;
        bchol_variant variant;
        int n, nrhs;
    } ask[] = {
        {'s', BCHOL_VARIANT_AUTO, 100, 0},  {'s', BCHOL_VARIANT_AUTO, 120, 0},      {'s', BCHOL_VARIANT_AUTO, 199, 0},
        {'s', BCHOL_VARIANT_AUTO, 200, 0},  {'s', BCHOL_VARIANT_AUTO, 999, 0},      {'s', BCHOL_VARIANT_AUTO, 50, 0},
        {'s', BCHOL_VARIANT_FUSED, 150, 0}, {'s', BCHOL_VARIANT_SEPARATE, 150, 0}, {'s', BCHOL_VARIANT_INTERLEAVED, 160, 0},
        {'s', BCHOL_VARIANT_INTERLEAVED, 149, 0}, {'d', BCHOL__VARIANT_SOLVE, 10, 1}, {'d', BCHOL__VARIANT_SOLVE, 10, 3},
        {'d', BCHOL__VARIANT_SOLVE, 10, 4}, {'d', BCHOL__VARIANT_SOLVE, 500, 100}, {'d', BCHOL__VARIANT_SOLVE, 2, 0},
    };
    size_t used = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof ask / sizeof ask[0] && used < size; i++) {
        bchol_tuning_pick p = ask[i].variant == BCHOL__VARIANT_SOLVE
                                  ? bchol__tuning_lookup_solve(t, d, ask[i].precision, ask[i].n, ask[i].nrhs)
                                  : bchol__tuning_lookup(t, d, ask[i].precision, ask[i].variant, ask[i].n);
        const bchol_tuning_entry *e = p.entry;
        int w = e ? snprintf(out + used, size - used, "%c %d n=%d: %s n=%d nrhs=%d ib=%d nb=%d inb=%d tbc=%d below=%d\n",
                             ask[i].precision, (int)ask[i].variant, ask[i].n, bchol__variant_name(e->variant), e->n,
                             e->nrhs, e->params.ib, e->params.nb, e->params.inb, e->solve.tbc, p.below_smallest)
                  : snprintf(out + used, size - used, "%c %d n=%d: none\n", ask[i].precision, (int)ask[i].variant,
                             ask[i].n);
        if (w > 0) used += (size_t)w;
    }
}

/* The loader on a large file: well within a bound that the pairwise duplicate check (some
 * 5*10^9 comparisons here) could not meet, picking what the small reference file picks;
 * a repeated key at its end still rejects it, naming that entry. */
static void case_many(void)
{
    const int count = 100000;
    char dir[] = "/tmp/bchol-tuning-many-XXXXXX", path[128], want[4096], got[4096];
    if (!mkdtemp(dir)) {
        printf("FAILED: mkdtemp\n");
        failures++;
        return;
    }
    snprintf(path, sizeof path, "%s/large.json", dir);
    unsetenv("BCHOL_TUNING_DIR");
    setenv("BCHOL_TUNING_FILE", path, 1);
    const bchol_device_info d = {.family = "pocl", .vendor = "AMD", .architecture = "haswell", .name = "AMD EPYC"};

    buffer small = small_file();
    bchol_tuning ref = {0};
    char why[512] = "";
    CHECK(parse(&ref, small.text, why, sizeof why) == 0, "the small file rejected: %s", why);
    picks(&ref, &d, want, sizeof want);
    printf("reference picks:\n%s", want);

    buffer large = large_file(count, 0);
    write_text(path, large.text, large.length);
    bchol_context *ctx = stand_in();
    const double t0 = now_s();
    const bchol_tuning *t = bchol__tuning_for(ctx);
    const double seconds = now_s() - t0;
    printf("%d entries (%.1f MB): loaded in %.2f s\n", count + 7, large.length / 1e6, seconds);
    CHECK(seconds < 20, "loading %d entries took %.1f s (the bound: 20 s)", count, seconds);
    CHECK(t && t->nsections == 1 && t->sections[0].nentries == count + 7 && load_warnings == 0,
          "the large file: %d entries, %d warnings (%s)", t && t->nsections ? t->sections[0].nentries : -1,
          load_warnings, load_warning);
    if (t) {
        picks(t, &d, got, sizeof got);
        CHECK(!strcmp(got, want), "the large file picks\n%sthe small one\n%s", got, want);
        /* sorted, each key once, each entry knowing its place in the file */
        const bchol_tuning_section *s = &t->sections[0];
        int sorted = 1;
        for (int i = 1; i < s->nentries; i++) {
            const bchol_tuning_entry *a = &s->entries[i - 1], *b = &s->entries[i];
            sorted &= a->precision < b->precision ||
                      (a->precision == b->precision &&
                       (a->variant < b->variant ||
                        (a->variant == b->variant && (a->n < b->n || (a->n == b->n && a->nrhs < b->nrhs)))));
        }
        CHECK(sorted, "the entries are not sorted by precision, variant, n, nrhs with each key once");
    }
    bchol__tuning_release(ctx);
    free(large.text);

    large = large_file(count, 1);
    bchol_tuning dup = {0};
    CHECK(parse(&dup, large.text, why, sizeof why) == -1, "a repeated key accepted");
    char needle[128];
    snprintf(needle, sizeof needle, "devices[0].chosen[%d]: a second s fused entry for n = 100", count + 7);
    CHECK(strstr(why, needle) != NULL, "the repeated key: \"%s\" lacks \"%s\"", why, needle);
    printf("%s\n", why);
    /* the first fault in file order: a repeat before a mistyped entry */
    char *bad = edit(large.text, "\"n\": 100, \"params\": {\"ib\": 1,", "\"n\": true, \"params\": {\"ib\": 1,");
    CHECK(parse(&dup, bad, why, sizeof why) == -1 && strstr(why, ".n: expected an integer"),
          "a mistyped last entry: %s", why);
    free(bad);
    bad = edit(small.text, "\"n\": 200, \"params\": {\"nb\"", "\"n\": 100, \"params\": {\"nb\"");
    char *worse = edit(bad, "\"precision\": \"d\", \"variant\": \"solve\", \"n\": 10, \"nrhs\": 1,",
                       "\"precision\": \"x\", \"variant\": \"solve\", \"n\": 10, \"nrhs\": 1,");
    CHECK(parse(&dup, worse, why, sizeof why) == -1 && strstr(why, "chosen[3]: a second s separate entry for n = 100"),
          "a repeat before a bad precision: %s", why);
    free(bad);
    free(worse);
    bchol__tuning_free(&dup);
    bchol__tuning_free(&ref);
    free(large.text);
    free(small.text);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
    remove(path);
    rmdir(dir);
    unsetenv("BCHOL_TUNING_FILE");
}

/* The folder: a BCHOL_TUNING_DIR that is no folder warns; a folder of more files than the
 * loader once listed (256) is read whole, in name order. */
static void case_folder(void)
{
    char dir[] = "/tmp/bchol-tuning-folder-XXXXXX", path[160];
    if (!mkdtemp(dir)) {
        printf("FAILED: mkdtemp\n");
        failures++;
        return;
    }
    unsetenv("BCHOL_TUNING_FILE");
    snprintf(path, sizeof path, "%s/missing", dir);
    setenv("BCHOL_TUNING_DIR", path, 1);
    load("a missing folder", 0, 1, "cannot be read as a folder");
    CHECK(strstr(load_warning, "BCHOL_TUNING_DIR=") && strstr(load_warning, "shipped"),
          "the warning names neither the variable nor the shipped files: %s", load_warning);
    snprintf(path, sizeof path, "%s/plain.json", dir);
    write_text(path, good, strlen(good));
    setenv("BCHOL_TUNING_DIR", path, 1);
    load("a file as the folder", 0, 1, "cannot be read as a folder");
    remove(path);

    /* every file read, whatever order the folder lists them in */
    const int files = 400;
    for (int i = 0; i < files; i++) {
        snprintf(path, sizeof path, "%s/f%03d.json", dir, i);
        write_text(path, good, strlen(good));
    }
    setenv("BCHOL_TUNING_DIR", dir, 1);
    bchol_context *ctx = stand_in();
    const bchol_tuning *t = bchol__tuning_for(ctx);
    CHECK(t && t->nfiles == files && t->nsections == files && load_warnings == 0,
          "a folder of %d files: %d read, %d warnings (%s)", files, t ? t->nfiles : 0, load_warnings, load_warning);
    CHECK(t && t->nsections == files && !strcmp(t->sections[files - 1].file + strlen(dir), "/f399.json"),
          "the last section is not f399's");
    printf("a folder of %d files: %d read\n", files, t ? t->nfiles : 0);
    bchol__tuning_release(ctx);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
    for (int i = 0; i < files; i++) {
        snprintf(path, sizeof path, "%s/f%03d.json", dir, i);
        remove(path);
    }
    rmdir(dir);
    unsetenv("BCHOL_TUNING_DIR");
}

/* Allocation failures (the test links with --wrap for malloc, calloc, realloc and strdup):
 * the k-th allocation of a load fails, for every k until a load makes no k-th one. A load
 * that ends without every section must have warned. */
static long alloc_calls, alloc_fail_at = -1;
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
static int alloc_fails(void) { return alloc_fail_at >= 0 && alloc_calls++ == alloc_fail_at; }
void *__wrap_malloc(size_t size) { return alloc_fails() ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { return alloc_fails() ? NULL : __real_calloc(count, size); }
void *__wrap_realloc(void *p, size_t size) { return alloc_fails() ? NULL : __real_realloc(p, size); }
char *__wrap_strdup(const char *s) { return alloc_fails() ? NULL : __real_strdup(s); }

static void case_memory(void)
{
    char dir[] = "/tmp/bchol-tuning-memory-XXXXXX", a[128], b[128];
    if (!mkdtemp(dir)) {
        printf("FAILED: mkdtemp\n");
        failures++;
        return;
    }
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    write_text(a, good, strlen(good));
    write_text(b, good, strlen(good));
    unsetenv("BCHOL_TUNING_FILE");
    setenv("BCHOL_TUNING_DIR", dir, 1);
    int tried = 0, warned = 0;
    for (long k = 0;; k++) {
        bchol_context *ctx = stand_in();
        alloc_calls = 0;
        alloc_fail_at = k;
        const bchol_tuning *t = bchol__tuning_for(ctx);
        const int hit = alloc_calls > k;
        alloc_fail_at = -1;
        const int whole = t && t->nsections == 2;
        CHECK(whole || load_warnings > 0, "allocation %ld failed: %d of 2 sections and no warning (note: %s)", k,
              t ? t->nsections : 0, ctx->tuning_note);
        if (hit) tried++;
        warned += load_warnings > 0;
        bchol__tuning_release(ctx);
        pthread_mutex_destroy(&ctx->lock);
        free(ctx);
        if (!hit) break;
    }
    printf("%d allocations failed in turn, %d warnings\n", tried, warned);
    CHECK(tried >= 5, "only %d allocations seen", tried);
    remove(a);
    remove(b);
    rmdir(dir);
    unsetenv("BCHOL_TUNING_DIR");
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    {"valid", case_valid},     {"malformed", case_malformed}, {"truncated", case_truncated},
    {"missing", case_missing}, {"types", case_types},         {"empty", case_empty},
    {"chain", case_chain},     {"sizes", case_sizes},         {"load", case_load},
    {"variants", case_variants}, {"solve", case_solve},   {"solve_workitem", case_solve_workitem}, {"one_launch", case_one_launch}, {"getrf", case_getrf},
    {"many", case_many},       {"folder", case_folder},       {"memory", case_memory},
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_tuning_table <case>\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            printf("%s: %s\n", argv[1], failures ? "FAILED" : "ok");
            return failures ? 1 : 0;
        }
    fprintf(stderr, "test_tuning_table: no case \"%s\"\n", argv[1]);
    return 2;
}
