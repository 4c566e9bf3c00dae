/* The variable-size benchmarks' shared pieces (bench_vb.h): one bound and one draw, so the
 * three commands size and draw their batches alike. */
#include "bench_vb.h"

#include <stdio.h>

int bench_vb_fits(bchol_context *ctx, const char *cmd, const char *what, long long batch, int nmax,
                  int cols, size_t es) {
    bchol_device_info dev;
    bchol_context_device_info(ctx, &dev);
    /* the wider of A and B bounds both: max_alloc / x falls as x grows */
    const uint64_t widest = (uint64_t)nmax * (uint64_t)(cols > nmax ? cols : nmax) * es;
    if ((uint64_t)batch <= dev.max_alloc / widest) return 0;
    fprintf(stderr,
            "%s: --batch %lld %s of up to nmax = %d exceed the device's largest "
            "allocation (%llu bytes)\n",
            cmd, batch, what, nmax, (unsigned long long)dev.max_alloc);
    return -1;
}

int bench_vb_orders(util_dist dist, int nmax, long long batch, util_rng *rng, int *n) {
    int max_n = 0;
    for (long long b = 0; b < batch; b++) {
        n[b] = util_random_order(dist, nmax, rng);
        if (n[b] > max_n) max_n = n[b];
    }
    return max_n;
}
