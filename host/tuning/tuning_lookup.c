/* Which tuning entry serves a device, precision, variant and size: sections are matched
 * vendor -> architecture -> normalized name, each level exact before "default"; sizes
 * between measured points take the nearest measured size below; a solve entry's nrhs is
 * the closest measured one (by ratio), and the substitution and workitem solves' entries
 * at that n and nrhs compete on time. */
#include "tuning/tuning.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static int level(const char *have, const char *want, int weight)
{
    if (!strcmp(have, want)) return weight;
    return strcmp(have, "default") ? -1 : 0;
}

int bchol__tuning_match(const bchol_tuning_section *s, const bchol_device_info *dev)
{
    if (s->family[0] && strcmp(s->family, dev->family)) return -1;
    /* weights 4 > 2 + 1: an exact vendor outranks any architecture or name below it */
    int v = level(s->vendor, dev->vendor, 4), a = level(s->architecture, dev->architecture, 2),
        n = level(s->name, dev->name, 1);
    if (v < 0 || a < 0 || n < 0) return -1;
    return v + a + n;
}

#define MAX_SERVED BCHOL__VARIANT_GETRF_MAX

/* The variants whose entries serve a request, in the order the entries are sorted (AUTO: the
 * strided variants; vbatched and solve entries were timed on other work; GETRF: getrf's;
 * SOLVE_ANY: the substitution and workitem solves'). */
static int served_variants(bchol_variant variant, bchol_variant out[MAX_SERVED])
{
    if (variant == BCHOL__VARIANT_GETRF) {
        for (int k = 0; k < BCHOL__VARIANT_GETRF_MAX; k++) out[k] = (bchol_variant)(BCHOL__VARIANT_GETRF_FIRST + k);
        return BCHOL__VARIANT_GETRF_MAX;
    }
    if (variant == BCHOL__VARIANT_SOLVE_ANY) { /* the two solves compete */
        out[0] = BCHOL__VARIANT_SOLVE;
        out[1] = BCHOL__VARIANT_SOLVE_WORKITEM;
        return 2;
    }
    if (variant != BCHOL_VARIANT_AUTO) {
        out[0] = variant;
        return 1;
    }
    out[0] = BCHOL_VARIANT_FUSED;
    out[1] = BCHOL_VARIANT_SEPARATE;
    out[2] = BCHOL_VARIANT_INTERLEAVED;
    out[3] = BCHOL_VARIANT_WORKITEM;
    return 4;
}

/* The first entry of [lo, hi) (sorted by precision, variant, n, nrhs) not before the key
 * (precision, variant, n, nrhs): binary search, as a section may hold many entries. */
static int lower_bound(const bchol_tuning_entry *e, int lo, int hi, char precision, bchol_variant variant, int n,
                       int nrhs)
{
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        const bchol_tuning_entry *m = &e[mid];
        const int before = m->precision != precision ? m->precision < precision
                           : m->variant != variant   ? (int)m->variant < (int)variant
                           : m->n != n               ? m->n < n
                                                     : m->nrhs < nrhs;
        if (before) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* How far a measured nrhs is from the asked one, as a ratio (>= 1). */
static double rhs_ratio(int measured, int nrhs)
{
    const double a = measured > 0 ? measured : 1, b = nrhs > 0 ? nrhs : 1;
    return a > b ? a / b : b / a;
}

/* Whether solve entry e is a better match for nrhs than best: the closer nrhs by ratio, the
 * larger one on a tie. */
static int closer_rhs(const bchol_tuning_entry *e, const bchol_tuning_entry *best, int nrhs)
{
    const double re = rhs_ratio(e->nrhs, nrhs), rb = rhs_ratio(best->nrhs, nrhs);
    return re < rb || (re == rb && e->nrhs > best->nrhs);
}

/* The entry of section s for the request, or NULL if s has none for the precision and
 * variant. nrhs matters for solve entries only. */
static const bchol_tuning_entry *pick_in(const bchol_tuning_section *s, char precision,
                                         bchol_variant variant, int n, int nrhs,
                                         int *below_smallest)
{
    const bchol_tuning_entry *e = s->entries;
    bchol_variant vs[MAX_SERVED];
    const int nv = served_variants(variant, vs);
    int lo[MAX_SERVED], hi[MAX_SERVED], have = 0, below = -1, smallest = -1;
    for (int k = 0; k < nv; k++) {
        lo[k] = lower_bound(e, 0, s->nentries, precision, vs[k], INT_MIN, INT_MIN);
        hi[k] = lower_bound(e, lo[k], s->nentries, precision, vs[k], INT_MAX, INT_MAX);
        if (lo[k] == hi[k]) continue;
        have = 1;
        /* the last entry at or below n: before the first one above it */
        const int above = n == INT_MAX ? hi[k] : lower_bound(e, lo[k], hi[k], precision, vs[k], n + 1, INT_MIN);
        if (above > lo[k] && e[above - 1].n > below) below = e[above - 1].n;
        if (smallest < 0 || e[lo[k]].n < smallest) smallest = e[lo[k]].n;
    }
    if (!have) return NULL;
    *below_smallest = below < 0;
    const int at = below >= 0 ? below : smallest;
    /* the entries measured at that size, variant by variant in the sorted order */
    const bchol_tuning_entry *best = NULL;
    int first[MAX_SERVED];
    for (int k = 0; k < nv; k++) {
        first[k] = lower_bound(e, lo[k], hi[k], precision, vs[k], at, INT_MIN);
        if (first[k] == hi[k] || e[first[k]].n != at) {
            first[k] = -1;
            continue;
        }
        if (bchol__variant_has_nrhs(variant)) {
            /* the closest nrhs by ratio is the largest below the asked one or the smallest
             * at or above it (the ratio falls, then rises, along the sorted nrhs); over
             * every kind served */
            const int want = nrhs > 0 ? nrhs : 1;
            const int last = lower_bound(e, first[k], hi[k], precision, vs[k], at + 1, INT_MIN);
            const int up = lower_bound(e, first[k], last, precision, vs[k], at, want);
            if (up > first[k] && (!best || closer_rhs(&e[up - 1], best, nrhs))) best = &e[up - 1];
            if (up < last && (!best || closer_rhs(&e[up], best, nrhs))) best = &e[up];
            continue;
        }
        /* the fastest variant measured at that size (unknown times rank last); one entry
         * per variant and size */
        const bchol_tuning_entry *x = &e[first[k]];
        if (!best || (x->ms >= 0 && (best->ms < 0 || x->ms < best->ms))) best = x;
    }
    if (best && bchol__variant_has_nrhs(variant) && nv > 1) {
        /* the kinds measured at that n and nrhs compete: the fastest (unknown times rank
         * last, the first kind in the sorted order on a tie) */
        const int rhs = best->nrhs;
        best = NULL;
        for (int k = 0; k < nv; k++) {
            if (first[k] < 0) continue;
            const int i = lower_bound(e, first[k], hi[k], precision, vs[k], at, rhs);
            if (i == hi[k] || e[i].n != at || e[i].nrhs != rhs) continue;
            const bchol_tuning_entry *x = &e[i];
            if (!best || (x->ms >= 0 && (best->ms < 0 || x->ms < best->ms))) best = x;
        }
    }
    return best;
}

static bchol_tuning_pick lookup(const bchol_tuning *t, const bchol_device_info *dev, char precision,
                                bchol_variant variant, int n, int nrhs)
{
    bchol_tuning_pick pick = {0};
    int best_score = -1;
    for (int i = 0; t && i < t->nsections; i++) {
        const bchol_tuning_section *s = &t->sections[i];
        int score = bchol__tuning_match(s, dev), below = 0;
        if (score < 0) continue;
        pick.matched++;
        /* the first section wins among equals: files are read in a fixed order */
        if (score <= best_score) continue;
        const bchol_tuning_entry *e = pick_in(s, precision, variant, n, nrhs, &below);
        if (!e) continue;
        best_score = score;
        pick.entry = e;
        pick.section = s;
        pick.below_smallest = below;
    }
    return pick;
}

bchol_tuning_pick bchol__tuning_lookup(const bchol_tuning *t, const bchol_device_info *dev,
                                       char precision, bchol_variant variant, int n)
{
    return lookup(t, dev, precision, variant, n, 0);
}

bchol_tuning_pick bchol__tuning_lookup_solve(const bchol_tuning *t, const bchol_device_info *dev,
                                             char precision, int n, int nrhs)
{
    return lookup(t, dev, precision, BCHOL__VARIANT_SOLVE, n, nrhs);
}

bchol_tuning_pick bchol__tuning_lookup_rhs(const bchol_tuning *t, const bchol_device_info *dev, char precision,
                                           bchol_variant variant, int n, int nrhs)
{
    return lookup(t, dev, precision, variant, n, nrhs);
}

int bchol__tuning_section_has(const bchol_tuning_section *s, char precision, bchol_variant variant)
{
    const int i = lower_bound(s->entries, 0, s->nentries, precision, variant, INT_MIN, INT_MIN);
    return i < s->nentries && s->entries[i].precision == precision && s->entries[i].variant == variant;
}

bchol_tuning_pick bchol__tuning_lookup_getrs(const bchol_tuning *t, const bchol_device_info *dev,
                                             char precision, int n, int nrhs)
{
    return lookup(t, dev, precision, BCHOL__VARIANT_GETRS, n, nrhs);
}

void bchol__tuning_describe(char *out, size_t size, const bchol_tuning_pick *pick,
                            const char *kind, const char *size_name, int n)
{
    const bchol_tuning_entry *e = pick->entry;
    const bchol_tuning_section *s = pick->section;
    char where[96], measured[128] = "";
    if (pick->below_smallest)
        snprintf(where, sizeof where, "the smallest measured size (%s = %d is below it)", size_name, n);
    else if (e->n == n)
        snprintf(where, sizeof where, "measured at this size");
    else
        snprintf(where, sizeof where, "the nearest measured size below %s = %d", size_name, n);
    if (e->ms >= 0 && e->default_ms >= 0)
        snprintf(measured, sizeof measured, "; tuned %.4g ms vs %.4g ms with the defaults", e->ms,
                 e->default_ms);
    snprintf(out, size, "tuning file %s, devices[%d] %s/%s/%s%s%s: %c %s entry for n = %d, %s%s",
             s->file, s->index, s->vendor, s->architecture, s->name, s->family[0] ? " family " : "",
             s->family, e->precision, kind, e->n, where, measured);
}
