/*
 * bchol bench --solve --vbatched: times bchol_{s,d}posv_vbatched_ex (factor and solve) and
 * bchol_{s,d}potrs_vbatched_ex (solve with the factors) on batches of random orders in
 * [1, nmax] with nrhs right-hand sides each, one row per nmax: device time (OpenCL
 * profiling, median after warm-up; it includes the device-side argument checks), Gflop/s
 * counted on the real orders (sum of n^3/3 + 2 n^2 nrhs for posv, 2 n^2 nrhs for potrs),
 * the worst residual ||A*X - B||_F / (||A||_F ||X||_F n eps) over a sample, and ok/FAILED.
 * With --compare lapack the same systems also go through LAPACKE ?posv per matrix in an
 * OpenMP loop (wall time, median after the same warm-up).
 */
#include "bchol.h"
#include "bchol_util.h"
#include "options.h"
#include "commands.h"
#include "cpu_peer.h"
#include "bench_vb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 64
#define SAMPLE 16 /* systems whose residual is checked */

typedef struct {
    const char *device;
    char precision, uplo;
    util_dist dist;
    int nmax[MAX_SIZES], count, nrhs, reps, warmup, compare;
    long long batch;
    unsigned long long seed;
} options;

static void usage(FILE *f) {
    fprintf(
        f,
        "usage: bchol bench --solve --vbatched [options]\n"
        "  --nrhs K          right-hand sides per matrix, 1 to 4096 (default 1)\n"
        "  --dist uniform|gaussian  orders in [1, nmax] (default uniform)\n"
        "  --nmax LIST       largest orders in [1, 46340]: a,b,c | a:b (doubling) | a:b:step\n"
        "                    (default 16:256)\n"
        "  --batch B         systems per run, 1 to 2^40; batch nmax-by-nmax matrices must fit\n"
        "                    one device allocation (default 3000)\n"
        "  --precision s|d  --uplo L|U  --device SPEC  --seed X\n"
        "  --reps R --warmup W   timed runs (1 to 10000, default 10) and untimed ones first\n"
        "                    (0 to 10000, default 2)\n"
        "  --compare lapack  also LAPACKE posv per matrix in an OpenMP loop\n");
}

static int parse(int argc, char **argv, options *o) {
    static const char *const flags[] = {"--solve", "--vbatched", NULL};
    static const char *const dists[] = {"uniform", "gaussian", NULL};
    static const char *const peers[] = {"lapack", NULL};
    memset(o, 0, sizeof *o);
    o->precision = 's';
    o->uplo = 'L';
    o->nrhs = 1;
    o->batch = 3000;
    o->reps = 10;
    o->warmup = 2;
    o->seed = 1;
    o->count = util_parse_sizes("16:256", o->nmax, MAX_SIZES);
    opt_reader r;
    int more, bad = 0, w;
    opt_begin(&r, "bench --solve --vbatched", argc, argv, flags);
    while (!bad && (more = opt_next(&r)) > 0) {
        const char *k = r.key;
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(k, "--solve") || !strcmp(k, "--vbatched")) continue;
        if (!strcmp(k, "--nmax")) bad = opt_sizes(&r, 1, OPT_MAX_N, o->nmax, MAX_SIZES, &o->count);
        else if (!strcmp(k, "--dist")) {
            bad = (w = opt_word(&r, dists)) < 0;
            o->dist = w == 1 ? UTIL_DIST_GAUSSIAN : UTIL_DIST_UNIFORM;
        } else if (!strcmp(k, "--nrhs")) bad = opt_int(&r, 1, OPT_MAX_NRHS, &o->nrhs);
        else if (!strcmp(k, "--batch")) bad = opt_llong(&r, 1, OPT_MAX_BATCH, &o->batch);
        else if (!strcmp(k, "--precision")) bad = opt_char(&r, "sd", &o->precision);
        else if (!strcmp(k, "--uplo")) bad = opt_char(&r, "LU", &o->uplo);
        else if (!strcmp(k, "--device")) o->device = r.value;
        else if (!strcmp(k, "--reps")) bad = opt_int(&r, 1, OPT_MAX_REPS, &o->reps);
        else if (!strcmp(k, "--warmup")) bad = opt_int(&r, 0, OPT_MAX_REPS, &o->warmup);
        else if (!strcmp(k, "--seed")) {
            uint64_t seed = 0;
            bad = opt_u64(&r, &seed);
            o->seed = seed;
        } else if (!strcmp(k, "--compare")) {
            bad = opt_word(&r, peers) < 0;
            o->compare = 1;
        } else bad = opt_bad(&r, "unknown option (bchol bench --solve --vbatched --help)");
    }
    if (bad || more < 0) return -1;
    return 0;
}

typedef struct {
    cl_mem n, nrhs, ld, oa, ob, A, B, A0, B0, info;
    size_t bytes_a, bytes_b;
} device_batch;

/* Median device time of one routine over the runs; A and B are restored before each. */
static bchol_status time_routine(bchol_context *ctx, const options *o, int posv, int max_n,
                                 const device_batch *d, double *ms) {
    cl_command_queue q = bchol_context_queue(ctx);
    double t[64];
    const int reps = o->reps < 64 ? o->reps : 64;
    bchol_status st = BCHOL_SUCCESS;
    for (int r = 0; r < o->warmup + reps && !st; r++) {
        clEnqueueCopyBuffer(q, d->A0, d->A, 0, 0, d->bytes_a, 0, NULL, NULL);
        clEnqueueCopyBuffer(q, d->B0, d->B, 0, 0, d->bytes_b, 0, NULL, NULL);
        cl_event ev = NULL;
        typedef bchol_status (*fn)(bchol_context *, const bchol_solve_params *, char, int, int,
                                   cl_mem, cl_mem, cl_mem, cl_mem, cl_mem, cl_mem, cl_mem, cl_mem,
                                   int64_t, cl_mem, cl_event *);
        fn f = o->precision == 'd' ? (posv ? bchol_dposv_vbatched_ex : bchol_dpotrs_vbatched_ex)
                                   : (posv ? bchol_sposv_vbatched_ex : bchol_spotrs_vbatched_ex);
        st = f(ctx, NULL, o->uplo, max_n, o->nrhs, d->n, d->nrhs, d->ld, d->ld, d->oa, d->A, d->ob,
               d->B, o->batch, d->info, &ev);
        if (ev) clReleaseEvent(ev);
        double v = 0;
        if (!st && !(st = bchol_last_call_ms(ctx, &v)) && r >= o->warmup) t[r - o->warmup] = v;
    }
    if (!st) *ms = util_median(t, reps);
    return st;
}

static int run_size(bchol_context *ctx, const options *o, int nmax) {
    const int dbl = o->precision == 'd', k = o->nrhs;
    const size_t es = dbl ? 8 : 4;
    const long long batch = o->batch;
    /* the matrices (nmax-by-nmax at most) and right-hand sides within one allocation each */
    if (bench_vb_fits(ctx, "bchol bench --solve --vbatched", "systems", batch, nmax, k, es))
        return -1;
    util_rng rng;
    util_rng_seed(&rng, o->seed + (unsigned long long)nmax);
    int *n = malloc(batch * sizeof *n), *nr = malloc(batch * sizeof *nr);
    int *ld = malloc(batch * sizeof *ld), *info = malloc(batch * sizeof *info);
    int64_t *oa = malloc(batch * sizeof *oa), *ob = malloc(batch * sizeof *ob);
    int64_t ta = 0, tb = 0;
    double flops_posv = 0, flops_potrs = 0;
    const int max_n = bench_vb_orders(o->dist, nmax, batch, &rng, n);
    for (long long b = 0; b < batch; b++) {
        nr[b] = k;
        ld[b] = n[b] > 1 ? n[b] : 1;
        oa[b] = ta;
        ob[b] = tb;
        ta += (int64_t)n[b] * n[b];
        tb += (int64_t)n[b] * k;
        flops_potrs += 2.0 * n[b] * n[b] * k;
        flops_posv += (double)n[b] * n[b] * n[b] / 3 + 2.0 * n[b] * n[b] * k;
    }
    void *a = malloc((size_t)ta * es), *bm = malloc((size_t)tb * es);
    void *x = malloc((size_t)tb * es), *fa = malloc((size_t)ta * es);
    for (long long b = 0; b < batch; b++) {
        util_spd_fast((char *)a + oa[b] * es, dbl, n[b], n[b], &rng);
        util_fill_uniform((char *)bm + ob[b] * es, dbl, n[b], k, n[b], &rng);
    }
    cl_context cl = bchol_context_cl_context(ctx);
    cl_int err = 0, e;
    device_batch d = {0};
    d.bytes_a = (size_t)ta * es;
    d.bytes_b = (size_t)tb * es;
#define BUF(field, bytes, host)                                                                    \
    d.field = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &e);       \
    err |= e
    BUF(n, batch * sizeof(int), n);
    BUF(nrhs, batch * sizeof(int), nr);
    BUF(ld, batch * sizeof(int), ld);
    BUF(info, batch * sizeof(int), info);
    BUF(oa, batch * sizeof(int64_t), oa);
    BUF(ob, batch * sizeof(int64_t), ob);
    BUF(A, d.bytes_a, a);
    BUF(B, d.bytes_b, bm);
    BUF(A0, d.bytes_a, a);
    BUF(B0, d.bytes_b, bm);
#undef BUF
    int fail = err != 0;
    double ms_posv = -1, ms_potrs = -1, worst = 0, ms_cpu = -1;
    bchol_status st = err ? BCHOL_ERR_OPENCL : time_routine(ctx, o, 1, max_n, &d, &ms_posv);
    if (!st) {
        /* the last posv left the factors in A and X in B: check X, then solve with the
         * factors (potrs restores B but solves with what posv left in A) */
        cl_command_queue q = bchol_context_queue(ctx);
        clEnqueueReadBuffer(q, d.B, CL_TRUE, 0, d.bytes_b, x, 0, NULL, NULL);
        clEnqueueReadBuffer(q, d.A, CL_TRUE, 0, d.bytes_a, fa, 0, NULL, NULL);
        clEnqueueReadBuffer(q, d.info, CL_TRUE, 0, batch * sizeof(int), info, 0, NULL, NULL);
        for (long long i = 0; i < SAMPLE && i < batch; i++) {
            long long b = i * (batch / SAMPLE > 0 ? batch / SAMPLE : 1) % batch;
            if (info[b] != 0) fail = 1;
            double r =
                util_solve_residual((char *)a + oa[b] * es, dbl, o->uplo, n[b], ld[b], k,
                                    (char *)x + ob[b] * es, ld[b], (char *)bm + ob[b] * es, ld[b]);
            if (!(r <= worst)) worst = r;
        }
        clEnqueueWriteBuffer(q, d.A0, CL_TRUE, 0, d.bytes_a, fa, 0, NULL, NULL);
        st = time_routine(ctx, o, 0, max_n, &d, &ms_potrs);
    }
    if (st) {
        fprintf(stderr, "bchol bench: nmax = %d: %s\n", nmax, bchol_last_error(ctx));
        fail = 1;
    }
    if (!fail && o->compare) {
        /* warm-up and median as on the device (the first runs start the thread pool) */
        double t[64];
        const int reps = o->reps < 64 ? o->reps : 64;
        for (int r = 0; r < o->warmup + reps; r++) {
            memcpy(fa, a, d.bytes_a);
            memcpy(x, bm, d.bytes_b);
            double v = cpu_peer_posv_vbatched(dbl, o->uplo, n, nr, fa, oa, x, ob, batch, info);
            if (r >= o->warmup) t[r - o->warmup] = v;
        }
        ms_cpu = util_median(t, reps);
    }
    fail |= !(worst <= 30);
    printf("%6d %8lld %6d %11.3f %9.2f %11.3f %9.2f", nmax, batch, k, ms_posv,
           flops_posv / ms_posv * 1e-6, ms_potrs, flops_potrs / ms_potrs * 1e-6);
    if (o->compare)
        printf(" %11.3f %9.2f %7.2f", ms_cpu, flops_posv / ms_cpu * 1e-6, ms_cpu / ms_posv);
    printf(" %9.3g  %s\n", worst, fail ? "FAILED" : "ok");
    cl_mem all[] = {d.n, d.nrhs, d.ld, d.info, d.oa, d.ob, d.A, d.B, d.A0, d.B0};
    for (int i = 0; i < 10; i++)
        if (all[i]) clReleaseMemObject(all[i]);
    free(n), free(nr), free(ld), free(info), free(oa), free(ob), free(a), free(bm), free(x);
    free(fa);
    return fail;
}

int bench_solve_vbatched(int argc, char **argv) {
    options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed) return parsed > 0 ? 0 : 2;
    if (o.compare && !cpu_peer_available()) {
        fprintf(stderr, "bchol bench: built without LAPACKE/OpenMP; --compare lapack is "
                        "unavailable\n");
        return 2;
    }
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
    printf("# %cposv_vbatched_ex / %cpotrs_vbatched_ex uplo=%c, orders %s in [1, nmax], nrhs "
           "%d each, median of %d runs after %d warm-up; Gflop/s on the real orders%s\n",
           o.precision, o.precision, o.uplo, util_dist_name(o.dist), o.nrhs, o.reps, o.warmup,
           o.compare ? "; cpu: LAPACKE posv per matrix, OpenMP, wall time" : "");
    printf("# %4s %8s %6s %11s %9s %11s %9s", "nmax", "batch", "nrhs", "posv_ms", "posv_gf",
           "potrs_ms", "potrs_gf");
    if (o.compare) printf(" %11s %9s %7s", "cpu_ms", "cpu_gf", "speedup");
    printf(" %9s  %s\n", "residual", "check");
    int fail = 0;
    for (int i = 0; i < o.count; i++)
        fail |= run_size(ctx, &o, o.nmax[i]);
    bchol_context_destroy(ctx);
    return fail;
}
