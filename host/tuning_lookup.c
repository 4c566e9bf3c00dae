/* Which tuning entry serves a device, precision, variant and size: sections are matched
 * vendor -> architecture -> normalized name, each level exact before "default"; sizes
 * between measured points take the nearest measured size below; a solve entry's nrhs is
 * the closest measured one (by ratio). */
#include "tuning.h"

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

/* AUTO: the strided variants only (vbatched and solve entries were timed on other work) */
static int serves(const bchol_tuning_entry *e, char precision, bchol_variant variant)
{
    return e->precision == precision && (variant == BCHOL_VARIANT_AUTO
                                             ? bchol__variant_is_strided(e->variant)
                                             : e->variant == variant);
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
    /* solve: the closest measured nrhs; else the fastest variant measured at that size
     * (unknown times rank last) */
    const bchol_tuning_entry *best = NULL;
    for (int i = 0; i < s->nentries; i++) {
        const bchol_tuning_entry *e = &s->entries[i];
        if (!serves(e, precision, variant) || e->n != at) continue;
        if (variant == BCHOL__VARIANT_SOLVE) {
            if (!best || closer_rhs(e, best, nrhs)) best = e;
        } else if (!best || (e->ms >= 0 && (best->ms < 0 || e->ms < best->ms))) {
            best = e;
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
