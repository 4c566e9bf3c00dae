/* Helpers for variable-size batches: random orders and packed layouts. */
#include "bchol_util.h"

#include <math.h>
#include <string.h>

int util_parse_dist(const char *text)
{
    if (!strcmp(text, "uniform")) return UTIL_DIST_UNIFORM;
    if (!strcmp(text, "gaussian")) return UTIL_DIST_GAUSSIAN;
    if (!strcmp(text, "mix")) return UTIL_DIST_MIX;
    return -1;
}

const char *util_dist_name(util_dist dist)
{
    return dist == UTIL_DIST_GAUSSIAN ? "gaussian" : dist == UTIL_DIST_MIX ? "mix" : "uniform";
}

/* uniform in (0, 1] */
static double unit(util_rng *r) { return 1.0 - (util_rng_uniform(r) + 1.0) / 2.0; }

int util_random_order(util_dist dist, int nmax, util_rng *r)
{
    if (nmax <= 0) return 0;
    if (dist == UTIL_DIST_MIX) {
        uint64_t k = util_rng_next(r) % 4;
        if (k < 2) return (int)k < nmax ? (int)k : nmax;
    }
    if (dist == UTIL_DIST_GAUSSIAN) {
        /* Box-Muller */
        double z = sqrt(-2.0 * log(unit(r))) * cos(6.283185307179586 * unit(r));
        long v = lround(nmax / 2.0 + z * nmax / 6.0);
        return v < 1 ? 1 : v > nmax ? nmax : (int)v;
    }
    return 1 + (int)(util_rng_next(r) % (uint64_t)nmax);
}

int64_t util_pack(const int *n, const int *lda, int64_t batch, int64_t first, int max_gap,
                  util_rng *r, int64_t *offsets)
{
    int64_t at = first;
    for (int64_t b = 0; b < batch; b++) {
        offsets[b] = at;
        at += (int64_t)lda[b] * (n[b] > 0 ? n[b] : 0);
        at += r && max_gap > 0 ? (int64_t)(util_rng_next(r) % (uint64_t)(max_gap + 1)) : max_gap;
    }
    return at;
}
