/*
 * libFuzzer target: the bytes of a tuning file, through the parser (host/tuning/tuning_file.c)
 * and the loader (host/tuning/tuning_load.c, as BCHOL_TUNING_FILE on a stand-in context), then
 * the lookup (host/tuning/tuning_lookup.c). No device: the tables are pure functions of the text.
 * After each input:
 *   - a rejected text leaves the table as it was (a file parsed before stays whole) and
 *     names its fault; the loader agrees with the parser and warns exactly once;
 *   - an accepted text's entries are sorted by precision, variant, n and nrhs, each key
 *     once, their fields within the ranges the format allows;
 *   - every lookup (each precision, variant and section identity as the device, sizes
 *     around the measured ones, several nrhs) gives what a plain scan of the entries by
 *     the documented rule gives: the best-matching section with an entry, the nearest
 *     measured size at or below n (else the smallest), the fastest variant there (AUTO),
 *     the closest nrhs by ratio with ties to the larger (the solve).
 * A violation aborts, which libFuzzer reports with the input.
 */
#include "core/core.h"
#include "tuning/tuning.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_tuning: " __VA_ARGS__);                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* A file parsed before each input: a rejected input must leave it whole. */
static const char *const before =
    "{\"format\": \"bchol-tuning\", \"format_version\": 1, \"devices\": [{\"vendor\": \"V\", "
    "\"architecture\": \"A\", \"name\": \"N\", \"chosen\": [{\"precision\": \"s\", \"variant\": "
    "\"fused\", \"n\": 8, \"params\": {\"ib\": 4, \"tbc\": 1, \"rpt\": 1, \"shape\": \"fixed\"}}]}]}";

static char path[64];
static int warnings;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(path, sizeof path, "/tmp/bchol-fuzz-tuning-%ld.json", (long)getpid());
    setenv("BCHOL_TUNING_FILE", path, 1);
    return 0;
}

static void on_warning(const char *message, void *user)
{
    (void)message;
    (void)user;
    warnings++;
}

/* ---- the documented rule, by a plain scan ---------------------------------------------- */

static int serves(const bchol_tuning_entry *e, char precision, bchol_variant variant)
{
    return e->precision == precision &&
           (variant == BCHOL_VARIANT_AUTO ? bchol__variant_is_strided(e->variant)
            : variant == BCHOL__VARIANT_SOLVE_ANY
                ? e->variant == BCHOL__VARIANT_SOLVE || e->variant == BCHOL__VARIANT_SOLVE_WORKITEM
                : e->variant == variant);
}

static double ratio(int measured, int nrhs)
{
    const double a = measured > 0 ? measured : 1, b = nrhs > 0 ? nrhs : 1;
    return a > b ? a / b : b / a;
}

static const bchol_tuning_entry *scan_section(const bchol_tuning_section *s, char precision, bchol_variant variant,
                                              int n, int nrhs, int *below_smallest)
{
    int have = 0, below = -1, smallest = -1;
    for (int i = 0; i < s->nentries; i++) {
        const bchol_tuning_entry *e = &s->entries[i];
        if (!serves(e, precision, variant)) continue;
        have = 1;
        if (e->n <= n && e->n > below) below = e->n;
        if (smallest < 0 || e->n < smallest) smallest = e->n;
    }
    if (!have) return NULL;
    *below_smallest = below < 0;
    const int at = below >= 0 ? below : smallest;
    const bchol_tuning_entry *best = NULL;
    for (int i = 0; i < s->nentries; i++) {
        const bchol_tuning_entry *e = &s->entries[i];
        if (!serves(e, precision, variant) || e->n != at) continue;
        if (bchol__variant_has_nrhs(variant)) {
            if (!best || ratio(e->nrhs, nrhs) < ratio(best->nrhs, nrhs) ||
                (ratio(e->nrhs, nrhs) == ratio(best->nrhs, nrhs) && e->nrhs > best->nrhs))
                best = e;
        } else if (!best || (e->ms >= 0 && (best->ms < 0 || e->ms < best->ms))) {
            best = e;
        }
    }
    if (best && variant == BCHOL__VARIANT_SOLVE_ANY) {
        /* the two solves' entries at that n and nrhs: the fastest, the first in the sorted
         * order (solve's) on equal or unknown times */
        const int rhs = best->nrhs;
        best = NULL;
        for (int i = 0; i < s->nentries; i++) {
            const bchol_tuning_entry *e = &s->entries[i];
            if (!serves(e, precision, variant) || e->n != at || e->nrhs != rhs) continue;
            if (!best || (e->ms >= 0 && (best->ms < 0 || e->ms < best->ms))) best = e;
        }
    }
    return best;
}

static bchol_tuning_pick scan(const bchol_tuning *t, const bchol_device_info *dev, char precision,
                              bchol_variant variant, int n, int nrhs)
{
    bchol_tuning_pick pick = {0};
    int best_score = -1;
    for (int i = 0; i < t->nsections; i++) {
        const bchol_tuning_section *s = &t->sections[i];
        int score = bchol__tuning_match(s, dev), below = 0;
        if (score < 0) continue;
        pick.matched++;
        if (score <= best_score) continue;
        const bchol_tuning_entry *e = scan_section(s, precision, variant, n, nrhs, &below);
        if (!e) continue;
        best_score = score;
        pick.entry = e;
        pick.section = s;
        pick.below_smallest = below;
    }
    return pick;
}

/* ---- checks ------------------------------------------------------------------------------ */

static void check_sorted(const bchol_tuning_section *s)
{
    for (int i = 0; i < s->nentries; i++) {
        const bchol_tuning_entry *e = &s->entries[i];
        REQUIRE((e->precision == 's' || e->precision == 'd') && e->n >= 0 && e->n <= 1 << 20 &&
                    bchol__variant_name(e->variant) &&
                    (bchol__variant_has_nrhs(e->variant) ? e->nrhs >= 1 && e->nrhs <= 1 << 20 : e->nrhs == 0),
                "entry %d of a section: precision %c n %d variant %d nrhs %d", i, e->precision, e->n,
                (int)e->variant, e->nrhs);
        REQUIRE(e->between_to == 0 || e->between_to > e->n, "between_to %d at n %d", e->between_to, e->n);
        if (!i) continue;
        const bchol_tuning_entry *a = &s->entries[i - 1];
        const int later = a->precision != e->precision ? a->precision < e->precision
                          : a->variant != e->variant   ? (int)a->variant < (int)e->variant
                          : a->n != e->n               ? a->n < e->n
                                                       : a->nrhs < e->nrhs;
        REQUIRE(later, "entries %d and %d are not in order, or share a key", i - 1, i);
    }
}

static void check_lookups(const bchol_tuning *t)
{
    static const bchol_variant variants[] = {BCHOL_VARIANT_AUTO,     BCHOL_VARIANT_FUSED,
                                             BCHOL_VARIANT_SEPARATE, BCHOL_VARIANT_INTERLEAVED,
                                             BCHOL__VARIANT_VBATCHED, BCHOL__VARIANT_SOLVE,
                                             BCHOL__VARIANT_ILV_NATIVE, BCHOL__VARIANT_GETRS,
                                             BCHOL__VARIANT_SOLVE_WORKITEM, BCHOL__VARIANT_SOLVE_ANY};
    static const int nrhs_list[] = {0, 1, 3, 4, 16, 1 << 20};
    for (int d = 0; d < t->nsections && d < 8; d++) {
        const bchol_tuning_section *s = &t->sections[d];
        bchol_device_info dev = {0};
        snprintf(dev.family, sizeof dev.family, "%s", s->family);
        snprintf(dev.vendor, sizeof dev.vendor, "%s", s->vendor);
        snprintf(dev.architecture, sizeof dev.architecture, "%s", s->architecture);
        snprintf(dev.name, sizeof dev.name, "%s", s->name);
        /* sizes: each measured one and its neighbours (a few), and the extremes */
        int sizes[3 * 16 + 4], ns = 0;
        sizes[ns++] = INT_MIN;
        sizes[ns++] = 0;
        sizes[ns++] = INT_MAX;
        for (int i = 0; i < s->nentries && i < 16; i++) {
            sizes[ns++] = s->entries[i].n - 1;
            sizes[ns++] = s->entries[i].n;
            sizes[ns++] = s->entries[i].n + 1;
        }
        for (int p = 0; p < 2; p++)
            for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
                for (int k = 0; k < ns; k++)
                    for (size_t r = 0; r < (bchol__variant_has_nrhs(variants[v]) ? sizeof nrhs_list / sizeof nrhs_list[0] : 1); r++) {
                        const char precision = p ? 'd' : 's';
                        const int nrhs = bchol__variant_has_nrhs(variants[v]) ? nrhs_list[r] : 0;
                        bchol_tuning_pick got =
                            variants[v] == BCHOL__VARIANT_SOLVE
                                ? bchol__tuning_lookup_solve(t, &dev, precision, sizes[k], nrhs)
                            : variants[v] == BCHOL__VARIANT_GETRS
                                ? bchol__tuning_lookup_getrs(t, &dev, precision, sizes[k], nrhs)
                            : bchol__variant_has_nrhs(variants[v])
                                ? bchol__tuning_lookup_rhs(t, &dev, precision, variants[v], sizes[k], nrhs)
                                : bchol__tuning_lookup(t, &dev, precision, variants[v], sizes[k]);
                        bchol_tuning_pick want = scan(t, &dev, precision, variants[v], sizes[k], nrhs);
                        REQUIRE(got.entry == want.entry && got.section == want.section &&
                                    got.matched == want.matched && got.below_smallest == want.below_smallest,
                                "section %d's device, %c variant %d n %d nrhs %d: lookup gave entry %p (n %d), "
                                "a scan %p (n %d)",
                                d, precision, (int)variants[v], sizes[k], nrhs, (const void *)got.entry,
                                got.entry ? got.entry->n : -1, (const void *)want.entry, want.entry ? want.entry->n : -1);
                    }
    }
}

/* The loader on the same bytes: a table where the parser accepted the text and one of its
 * sections matches the stand-in's device (vendor V, architecture A, name N); otherwise no
 * table and one warning (a rejected file, or "nothing for this device"). */
static void check_load(const uint8_t *data, size_t size, int accepted, int matching)
{
    FILE *f = fopen(path, "wb");
    REQUIRE(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
    bchol_context *ctx = calloc(1, sizeof *ctx);
    REQUIRE(ctx, "out of memory");
    pthread_mutex_init(&ctx->lock, NULL);
    snprintf(ctx->info.family, sizeof ctx->info.family, "pocl");
    snprintf(ctx->info.vendor, sizeof ctx->info.vendor, "V");
    snprintf(ctx->info.architecture, sizeof ctx->info.architecture, "A");
    snprintf(ctx->info.name, sizeof ctx->info.name, "N");
    ctx->handler = on_warning;
    warnings = 0;
    const bchol_tuning *t = bchol__tuning_for(ctx);
    REQUIRE((t != NULL) == (accepted && matching), "the loader %s a table; the parser %s the text (%d matching)",
            t ? "kept" : "kept no", accepted ? "accepted" : "rejected", matching);
    REQUIRE(warnings == !(accepted && matching), "%d warnings for a text the parser %s", warnings,
            accepted ? "accepted" : "rejected");
    REQUIRE(bchol__tuning_for(ctx) == t && warnings == !(accepted && matching), "a second call loaded again");
    bchol__tuning_release(ctx);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
    remove(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bchol_tuning t = {0};
    char why[400];
    REQUIRE(bchol__tuning_parse(&t, before, strlen(before), "before.json", why, sizeof why) == 0, "%s", why);
    why[0] = 0;
    const int bad = bchol__tuning_parse(&t, (const char *)data, size, "input.json", why, sizeof why);
    if (bad) {
        REQUIRE(bad == -1 && why[0], "rejected with %d and no reason", bad);
        REQUIRE(t.nsections == 1 && t.nfiles == 1 && t.sections[0].nentries == 1 &&
                    !strcmp(t.sections[0].file, "before.json"),
                "a rejected text changed the table (%d sections, %d files)", t.nsections, t.nfiles);
    } else {
        REQUIRE(t.nfiles == 2 && !strcmp(t.files[1], "input.json"), "an accepted text added %d files", t.nfiles - 1);
    }
    int matching = 0;
    for (int i = 0; i < t.nsections; i++) {
        check_sorted(&t.sections[i]);
        /* the stand-in device of check_load, in the input's sections only */
        const bchol_device_info dev = {.family = "pocl", .vendor = "V", .architecture = "A", .name = "N"};
        matching += i > 0 && bchol__tuning_match(&t.sections[i], &dev) >= 0;
    }
    check_lookups(&t);
    bchol__tuning_free(&t);
    check_load(data, size, !bad, matching);
    return 0;
}
