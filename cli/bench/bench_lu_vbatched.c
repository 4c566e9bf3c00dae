/*
 * bchol bench --routine getrf --vbatched: times bchol_{s,d}getrf_vbatched_ex on batches of
 * random square orders in [1, nmax] (general matrices, entries uniform in [-1, 1)), one row
 * per nmax: device time (OpenCL profiling, median after warm-up; it includes the
 * device-side argument checks), Gflop/s counted on the real orders (sum of 2n^3/3), the
 * worst LU residual (LAPACK's xGET01) over a sample, and ok/FAILED. --fused-max and --nb
 * set bchol_lu_params' split and panel width, so that rows with the fused kernel, the
 * blocked path and splits between them can be compared on one device.
 */
#include "bchol.h"
#include "bchol_util.h"
#include "options.h"
#include "commands.h"
#include "bench_vb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 64
#define SAMPLE 16 /* matrices whose residual is checked */

typedef struct {
    const char *device;
    char precision;
    util_dist dist;
    int nmax[MAX_SIZES], count, reps, warmup, fused_max, nb;
    long long batch;
    unsigned long long seed;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bchol bench --routine getrf --vbatched [options]\n"
            "  --dist uniform|gaussian  orders in [1, nmax] (default uniform)\n"
            "  --nmax LIST       largest orders in [1, 46340]: a,b,c | a:b (doubling) | a:b:step\n"
            "                    (default 16:256)\n"
            "  --batch B         matrices per run, 1 to 2^40; batch nmax-by-nmax matrices must\n"
            "                    fit one device allocation (default 3000)\n"
            "  --fused-max F     bchol_lu_params.fused_max: 0 the library's split (default), k\n"
            "                    the fused kernel only up to k, -1 the blocked path for all\n"
            "  --nb NB           the blocked path's panel width, 1 to 64 (default: the backend's)\n"
            "  --precision s|d  --device SPEC  --seed X\n"
            "  --reps R --warmup W   timed runs (1 to 10000, default 10) and untimed ones first\n"
            "                    (0 to 10000, default 2)\n");
}

static int parse(int argc, char **argv, options *o)
{
    static const char *const flags[] = {"--vbatched", NULL};
    static const char *const dists[] = {"uniform", "gaussian", NULL};
    static const char *const routines[] = {"getrf", NULL};
    memset(o, 0, sizeof *o);
    o->precision = 's';
    o->batch = 3000;
    o->reps = 10;
    o->warmup = 2;
    o->seed = 1;
    o->count = util_parse_sizes("16:256", o->nmax, MAX_SIZES);
    opt_reader r;
    int more, bad = 0, w;
    opt_begin(&r, "bench --routine getrf --vbatched", argc, argv, flags);
    while (!bad && (more = opt_next(&r)) > 0) {
        const char *k = r.key;
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(k, "--vbatched")) continue;
        if (!strcmp(k, "--routine")) bad = opt_word(&r, routines) < 0;
        else if (!strcmp(k, "--nmax")) bad = opt_sizes(&r, 1, OPT_MAX_N, o->nmax, MAX_SIZES, &o->count);
        else if (!strcmp(k, "--dist")) {
            bad = (w = opt_word(&r, dists)) < 0;
            o->dist = w == 1 ? UTIL_DIST_GAUSSIAN : UTIL_DIST_UNIFORM;
        } else if (!strcmp(k, "--batch")) bad = opt_llong(&r, 1, OPT_MAX_BATCH, &o->batch);
        else if (!strcmp(k, "--fused-max")) bad = opt_int(&r, -1, OPT_MAX_N, &o->fused_max);
        else if (!strcmp(k, "--nb")) bad = opt_int(&r, 1, 64, &o->nb);
        else if (!strcmp(k, "--precision")) bad = opt_char(&r, "sd", &o->precision);
        else if (!strcmp(k, "--device")) o->device = r.value;
        else if (!strcmp(k, "--reps")) bad = opt_int(&r, 1, OPT_MAX_REPS, &o->reps);
        else if (!strcmp(k, "--warmup")) bad = opt_int(&r, 0, OPT_MAX_REPS, &o->warmup);
        else if (!strcmp(k, "--seed")) {
            uint64_t seed = 0;
            bad = opt_u64(&r, &seed);
            o->seed = seed;
        } else bad = opt_bad(&r, "unknown option (bchol bench --routine getrf --vbatched --help)");
    }
    if (bad || more < 0) return -1;
    return 0;
}

typedef struct {
    cl_mem n, ld, oa, op, A, A0, P, info;
    size_t bytes_a;
} device_batch;

/* Median device time of getrf_vbatched_ex; A is restored before each run. */
static bchol_status time_getrf(bchol_context *ctx, const options *o, int max_n,
                               const device_batch *d, double *ms)
{
    cl_command_queue q = bchol_context_queue(ctx);
    const bchol_lu_params prm = {0, 0, o->nb, o->fused_max};
    double t[64];
    const int reps = o->reps < 64 ? o->reps : 64;
    bchol_status st = BCHOL_SUCCESS;
    for (int r = 0; r < o->warmup + reps && !st; r++) {
        clEnqueueCopyBuffer(q, d->A0, d->A, 0, 0, d->bytes_a, 0, NULL, NULL);
        cl_event ev = NULL;
        st = (o->precision == 'd' ? bchol_dgetrf_vbatched_ex : bchol_sgetrf_vbatched_ex)(
            ctx, &prm, max_n, max_n, d->n, d->n, d->ld, d->oa, d->A, d->op, d->P, o->batch,
            d->info, &ev);
        if (ev) clReleaseEvent(ev);
        double v = 0;
        if (!st && !(st = bchol_last_call_ms(ctx, &v)) && r >= o->warmup) t[r - o->warmup] = v;
    }
    if (!st) *ms = util_median(t, reps);
    return st;
}

static int run_size(bchol_context *ctx, const options *o, int nmax)
{
    const int dbl = o->precision == 'd';
    const size_t es = dbl ? 8 : 4;
    const long long batch = o->batch;
    if (bench_vb_fits(ctx, "bchol bench --routine getrf --vbatched", "matrices", batch, nmax,
                      nmax, es))
        return -1;
    util_rng rng;
    util_rng_seed(&rng, o->seed + (unsigned long long)nmax);
    int *n = malloc(batch * sizeof *n), *info = malloc(batch * sizeof *info);
    int64_t *oa = malloc(batch * sizeof *oa), *op = malloc(batch * sizeof *op);
    int64_t ta = 0, tp = 0;
    double flops = 0;
    const int max_n = bench_vb_orders(o->dist, nmax, batch, &rng, n);
    for (long long b = 0; b < batch; b++) {
        oa[b] = ta;
        op[b] = tp;
        ta += (int64_t)n[b] * n[b];
        tp += n[b];
        flops += 2.0 * n[b] * n[b] * n[b] / 3;
    }
    void *a = malloc((size_t)ta * es), *f = malloc((size_t)ta * es);
    int *piv = malloc((size_t)tp * sizeof *piv);
    for (long long b = 0; b < batch; b++)
        util_fill_uniform((char *)a + oa[b] * es, dbl, n[b], n[b], n[b], &rng);
    cl_context cl = bchol_context_cl_context(ctx);
    cl_int err = 0, e;
    device_batch d = {0};
    d.bytes_a = (size_t)ta * es;
#define BUF(field, bytes, host)                                                                \
    d.field = clCreateBuffer(cl, CL_MEM_READ_WRITE | ((host) ? CL_MEM_COPY_HOST_PTR : 0),      \
                             bytes, host, &e);                                                 \
    err |= e
    BUF(n, batch * sizeof(int), n);
    BUF(ld, batch * sizeof(int), n); /* lda = n */
    BUF(info, batch * sizeof(int), NULL);
    BUF(oa, batch * sizeof(int64_t), oa);
    BUF(op, batch * sizeof(int64_t), op);
    BUF(A, d.bytes_a, a);
    BUF(A0, d.bytes_a, a);
    BUF(P, (size_t)tp * sizeof(int), NULL);
#undef BUF
    int fail = err != 0;
    double ms = -1, worst = 0;
    bchol_status st = err ? BCHOL_ERR_OPENCL : time_getrf(ctx, o, max_n, &d, &ms);
    if (!st) {
        cl_command_queue q = bchol_context_queue(ctx);
        clEnqueueReadBuffer(q, d.A, CL_TRUE, 0, d.bytes_a, f, 0, NULL, NULL);
        clEnqueueReadBuffer(q, d.P, CL_TRUE, 0, (size_t)tp * sizeof(int), piv, 0, NULL, NULL);
        clEnqueueReadBuffer(q, d.info, CL_TRUE, 0, batch * sizeof(int), info, 0, NULL, NULL);
        /* the sample: the largest matrix and evenly spaced others */
        long long big = 0;
        for (long long b = 0; b < batch; b++)
            if (n[b] > n[big]) big = b;
        for (long long i = 0; i <= SAMPLE && i < batch; i++) {
            long long b = i == SAMPLE ? big : i * (batch / SAMPLE > 0 ? batch / SAMPLE : 1) % batch;
            if (info[b] != 0) fail = 1;
            double r = util_lu_residual((char *)a + oa[b] * es, (char *)f + oa[b] * es,
                                        piv + op[b], dbl, n[b], n[b]);
            if (!(r <= worst)) worst = r;
        }
    } else {
        fprintf(stderr, "bchol bench: nmax = %d: %s\n", nmax, bchol_last_error(ctx));
        fail = 1;
    }
    fail |= !(worst <= 30);
    printf("%6d %8lld %6d %9d %4d %11.3f %9.2f %9.3g  %s\n", nmax, batch, max_n, o->fused_max,
           o->nb, ms, flops / ms * 1e-6, worst, fail ? "FAILED" : "ok");
    cl_mem all[] = {d.n, d.ld, d.info, d.oa, d.op, d.A, d.A0, d.P};
    for (int i = 0; i < 8; i++)
        if (all[i]) clReleaseMemObject(all[i]);
    free(n), free(info), free(oa), free(op), free(a), free(f), free(piv);
    return fail;
}

int bench_lu_vbatched(int argc, char **argv)
{
    options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed) return parsed > 0 ? 0 : 2;
    bchol_context *ctx;
    if (bchol_context_create(o.device, &ctx)) {
        fprintf(stderr, "bchol bench: %s\n", bchol_last_error(NULL));
        return 1;
    }
    bchol_context_set_timing(ctx, 1);
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    printf("# device %d:%d %s (%s, driver %s)\n", d.platform_index, d.device_index, d.raw_name,
           d.platform, d.driver);
    printf("# %cgetrf_vbatched_ex, square orders %s in [1, nmax], median of %d runs after %d "
           "warm-up; Gflop/s on the real orders (2n^3/3); fused_max 0: the library's split, "
           "-1: all blocked; nb 0: the backend's\n",
           o.precision, util_dist_name(o.dist), o.reps, o.warmup);
    printf("# %4s %8s %6s %9s %4s %11s %9s %9s  %s\n", "nmax", "batch", "max_n", "fused_max",
           "nb", "ms", "Gflop/s", "residual", "check");
    int fail = 0;
    for (int i = 0; i < o.count; i++) fail |= run_size(ctx, &o, o.nmax[i]);
    bchol_context_destroy(ctx);
    return fail;
}
