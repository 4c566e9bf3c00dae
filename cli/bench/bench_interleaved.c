/*
 * bchol bench --variant interleaved: times the interleaved factorization over sweeps of
 * its parameters (tile size, looking, unrolling, chunking, chunk size, fast math), the
 * seed's Figures 15-19 (Kurzak, Gates et al.). For each n and configuration it reports
 *   factor   bchol_{s,d}potrf_interleaved_ex on data already interleaved: ms, Gflop/s
 *            (n^3/3 per matrix) and effective bandwidth (the stored triangle read and
 *            written once: n(n+1) elements per matrix, over the time);
 *   in, out  the conversions bchol_{s,d}interleave and _deinterleave on their own;
 *   strided  bchol_{s,d}potrf_batched_ex with the interleaved variant: the library's
 *            convert-factor-convert path on a strided batch, everything included;
 *   first_s  wall time of the first factorization call (generation and build unless
 *            the driver's cache has the program).
 * --compare fused and --compare lapack add rows for the fused kernel and the OpenMP
 * LAPACKE loop on the same strided matrices. Times are medians of device time (OpenCL
 * profiling events) after warm-up runs.
 */
#include "bench_interleaved.h"

#include "bchol.h"
#include "bchol_util.h"
#include "cpu_peer.h"
#include "cpu_topology.h"
#include "options.h"
#include "params_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define MAX_LIST 64
#define SAMPLE 16 /* matrices whose backward error is checked */

typedef struct {
    int v[MAX_LIST], count;
} list;

typedef struct {
    const char *device;
    char precision, uplo;
    int sizes[256], nsizes;
    long long batch;
    int reps, warmup, fused, lapack;
    list nb, looking, unroll, chunking, chunk, math;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bchol bench --variant interleaved [options]\n"
            "  --n LIST              sizes in [1, 46340]: a,b,c | a:b (doubling) | a:b:step, at\n"
            "                        most 256 (default 4:64)\n"
            "  --batch B             matrices per run, 1 to 2^40, capped to what the device holds\n"
            "                        (default 16384)\n"
            "  --precision s|d  --uplo L|U  --device SPEC\n"
            "  --reps R              timed runs, 1 to 10000 (default 10)\n"
            "  --warmup W            untimed runs first, 0 to 10000 (default 2)\n"
            "  sweeps (comma lists; default: the dispatcher's choice for each n):\n"
            "  --nb LIST             tile sizes (values above n are skipped)\n"
            "  --looking LIST        left,right,top\n"
            "  --unroll LIST         tiles,full\n"
            "  --chunking LIST       chunked,simple,staged (staged: the strided path only)\n"
            "  --chunk LIST          chunk sizes = work-group sizes\n"
            "  --math LIST           ieee,fast\n"
            "  --figure F            the seed's sweep of one field, the others at their defaults:\n"
            "                        13 math, 15 nb (1,2,4,8,16), 16 looking, 17 chunking,\n"
            "                        18 chunk (32..512), 19 unroll\n"
            "  --compare fused|lapack   add the fused kernel or the OpenMP LAPACKE loop (repeatable)\n");
}

/* A comma list of names of field (or of numbers in [1, 2^20] when field is NULL); every
 * item non-empty. */
static int parse_list(const char *field, const char *text, list *l)
{
    const char *why;
    if (!field) {
        l->count = opt_parse_list(text, 1, 1 << 20, l->v, MAX_LIST, &why);
        return l->count > 0 ? 0 : -1;
    }
    l->count = 0;
    for (const char *t = text;;) {
        char word[64];
        const size_t len = strcspn(t, ",");
        if (len == 0 || len >= sizeof word || l->count == MAX_LIST) return -1;
        memcpy(word, t, len);
        word[len] = 0;
        int v = util_param_value(field, word);
        if (v < 0) return -1;
        l->v[l->count++] = v;
        if (!t[len]) return 0;
        t += len + 1;
    }
}

/* The sweeps of Kurzak, Gates et al., Figures 13 and 15-19. */
static int figure(int f, options *o)
{
    switch (f) {
    case 13: return parse_list("math", "ieee,fast", &o->math);
    case 15: return parse_list(NULL, "1,2,4,8,16", &o->nb);
    case 16: return parse_list("looking", "left,right,top", &o->looking);
    case 17: return parse_list("chunking", "chunked,simple", &o->chunking);
    case 18: return parse_list(NULL, "32,64,128,256,512", &o->chunk);
    case 19: return parse_list("unroll", "tiles,full", &o->unroll);
    }
    return -1;
}

static int parse(int argc, char **argv, options *o)
{
    static const char *const variants[] = {"interleaved", NULL};
    static const char *const flags[] = {"--explain", NULL}; /* known, to be refused by name */
    int figure_no = 0;
    memset(o, 0, sizeof *o);
    o->precision = 's';
    o->uplo = 'L';
    o->reps = 10;
    o->warmup = 2;
    o->batch = 16384;
    o->nsizes = util_parse_sizes("4:64", o->sizes, 256);
    opt_reader r;
    int more, bad = 0;
    opt_begin(&r, "bench --variant interleaved", argc, argv, flags);
    while (!bad && (more = opt_next(&r)) > 0) {
        const char *k = r.key, *v = r.value;
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(k, "--variant")) bad = opt_word(&r, variants) < 0;
        else if (!strcmp(k, "--n")) bad = opt_sizes(&r, 1, OPT_MAX_N, o->sizes, 256, &o->nsizes);
        else if (!strcmp(k, "--batch")) bad = opt_llong(&r, 1, OPT_MAX_BATCH, &o->batch);
        else if (!strcmp(k, "--precision")) bad = opt_char(&r, "sd", &o->precision);
        else if (!strcmp(k, "--uplo")) bad = opt_char(&r, "LU", &o->uplo);
        else if (!strcmp(k, "--device")) o->device = v;
        else if (!strcmp(k, "--reps")) bad = opt_int(&r, 1, OPT_MAX_REPS, &o->reps);
        else if (!strcmp(k, "--warmup")) bad = opt_int(&r, 0, OPT_MAX_REPS, &o->warmup);
        else if (!strcmp(k, "--nb") || !strcmp(k, "--chunk")) {
            if (parse_list(NULL, v, !strcmp(k, "--nb") ? &o->nb : &o->chunk))
                bad = opt_bad(&r, "not a list of sizes in [1, 2^20] (a,b,c | a:b | a:b:step)");
        } else if (!strcmp(k, "--looking") || !strcmp(k, "--unroll") ||
                   !strcmp(k, "--chunking") || !strcmp(k, "--math")) {
            list *l = k[2] == 'l' ? &o->looking : k[2] == 'u' ? &o->unroll
                      : k[2] == 'm' ? &o->math : &o->chunking;
            if (parse_list(k + 2, v, l)) bad = opt_bad(&r, "not a comma list of %s values", k + 2);
        } else if (!strcmp(k, "--figure")) {
            if (opt_int(&r, 13, 19, &figure_no)) bad = 1;
            else if (figure(figure_no, o)) bad = opt_bad(&r, "takes 13, 15, 16, 17, 18 or 19");
        } else if (!strcmp(k, "--compare")) {
            static const char *const peers[] = {"fused", "lapack", NULL};
            const int w = opt_word(&r, peers);
            bad = w < 0;
            if (w == 0) o->fused = 1;
            if (w == 1) o->lapack = 1;
        } else if (!strcmp(k, "--explain")) {
            bad = opt_bad(&r, "not available with --variant interleaved (its parameters are its "
                              "sweeps' or the dispatcher's)");
        } else bad = opt_bad(&r, "unknown option (bchol bench --variant interleaved --help)");
    }
    return bad || more < 0 ? -1 : 0;
}

static double wall_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One n: the strided matrices on the host and device, and buffers for the runs. */
typedef struct {
    bchol_context *ctx;
    const options *o;
    int n, dbl;
    long long batch;
    size_t es, per;
    void *a, *f; /* original and factored strided matrices (host) */
    int *info;
    cl_mem d0, dA, dB, dI; /* original, working strided, interleaved, info */
    double *times;
} bench_n;

static double gflops(const bench_n *b, double ms)
{
    return (double)b->batch * ((double)b->n * b->n * b->n / 3.0) / (ms * 1e6);
}

static void reset_strided(bench_n *b)
{
    cl_command_queue q = bchol_context_queue(b->ctx);
    clEnqueueCopyBuffer(q, b->d0, b->dA, 0, 0, (size_t)b->batch * b->per, 0, NULL, NULL);
    clFinish(q);
}

/* Worst backward error over a sample of dA against the originals, and all info zero. */
static int check(bench_n *b, double *error)
{
    cl_command_queue q = bchol_context_queue(b->ctx);
    clEnqueueReadBuffer(q, b->dA, CL_TRUE, 0, (size_t)b->batch * b->per, b->f, 0, NULL, NULL);
    clEnqueueReadBuffer(q, b->dI, CL_TRUE, 0, (size_t)b->batch * sizeof(int), b->info, 0, NULL, NULL);
    int ok = 1;
    for (long long m = 0; m < b->batch; m++)
        if (b->info[m]) ok = 0;
    *error = 0;
    for (int s = 0; s < SAMPLE && s < b->batch; s++) {
        long long m = b->batch <= SAMPLE ? s : (long long)s * (b->batch - 1) / (SAMPLE - 1);
        double e = util_backward_error((char *)b->a + (size_t)m * b->per, (char *)b->f + (size_t)m * b->per,
                                       b->dbl, b->o->uplo, b->n, b->n);
        if (e > *error) *error = e;
    }
    return ok && *error <= 30.0;
}

typedef enum { STEP_IN, STEP_FACTOR, STEP_OUT, STEP_STRIDED, STEP_FUSED } step;

static bchol_status run_step(bench_n *b, step s, const bchol_params *prm, int64_t chunk)
{
    const char u = b->o->uplo;
    const int n = b->n, d = b->dbl;
    const int64_t nn = (int64_t)n * n, bt = b->batch;
    switch (s) {
    case STEP_IN:
        return d ? bchol_dinterleave(b->ctx, u, n, b->dA, 0, n, nn, bt, b->dB, chunk, NULL)
                 : bchol_sinterleave(b->ctx, u, n, b->dA, 0, n, nn, bt, b->dB, chunk, NULL);
    case STEP_FACTOR:
        return d ? bchol_dpotrf_interleaved_ex(b->ctx, prm, u, n, b->dB, bt, chunk, b->dI, NULL)
                 : bchol_spotrf_interleaved_ex(b->ctx, prm, u, n, b->dB, bt, chunk, b->dI, NULL);
    case STEP_OUT:
        return d ? bchol_ddeinterleave(b->ctx, u, n, b->dB, bt, chunk, b->dA, 0, n, nn, NULL)
                 : bchol_sdeinterleave(b->ctx, u, n, b->dB, bt, chunk, b->dA, 0, n, nn, NULL);
    case STEP_STRIDED:
    case STEP_FUSED:
        return d ? bchol_dpotrf_batched_ex(b->ctx, prm, u, n, b->dA, 0, n, nn, bt, b->dI, NULL)
                 : bchol_spotrf_batched_ex(b->ctx, prm, u, n, b->dA, 0, n, nn, bt, b->dI, NULL);
    }
    return BCHOL_ERR_ARGUMENT;
}

/* Median device time of one step over the timed runs; the strided input is reset before
 * each run of a step that changes it. *first_s: wall time of the first call. */
static bchol_status time_step(bench_n *b, step s, const bchol_params *prm, int64_t chunk, double *ms,
                              double *first_s)
{
    const options *o = b->o;
    bchol_status st = BCHOL_SUCCESS;
    for (int r = 0; r < o->warmup + o->reps && !st; r++) {
        if (s == STEP_IN || s == STEP_STRIDED || s == STEP_FUSED) reset_strided(b);
        if (s == STEP_FACTOR || s == STEP_OUT) {
            /* the factorization runs on freshly interleaved data */
            if (s == STEP_FACTOR) reset_strided(b);
            if (s == STEP_FACTOR && (st = run_step(b, STEP_IN, prm, chunk))) break;
        }
        clFinish(bchol_context_queue(b->ctx));
        double t0 = wall_s();
        if ((st = run_step(b, s, prm, chunk))) break;
        double t;
        if ((st = bchol_last_call_ms(b->ctx, &t))) break;
        if (r == 0 && first_s) *first_s = wall_s() - t0;
        if (r >= o->warmup) b->times[r - o->warmup] = t;
    }
    if (!st) *ms = util_median(b->times, o->reps);
    return st;
}

static void print_header(void)
{
    printf("%4s %7s %-11s %3s %-5s %-5s %-7s %5s %-4s %8s %9s %8s %7s %8s %8s %10s %8s %9s %s\n", "n",
           "batch", "what", "nb", "look", "unrol", "layout", "chunk", "math", "first_s", "ms", "Gflop/s",
           "GB/s", "in_ms", "out_ms", "strided_ms", "str_Gf", "error", "check");
}

/* One interleaved configuration: factor, conversions, and the strided path. */
static int bench_config(bench_n *b, const bchol_params *prm)
{
    const options *o = b->o;
    const int simple = prm->chunking == BCHOL_SIMPLE;
    const int64_t chunk = simple ? b->batch : prm->chunk;
    double f_ms = 0, in_ms = 0, out_ms = 0, s_ms = 0, first = 0, e1 = 0, e2 = 0;
    bchol_status st;
    int ok = 0;
    /* in, then factor (each run on freshly interleaved data), then out (which writes the
     * factors of the last run back for the check) */
    if (!(st = time_step(b, STEP_IN, prm, chunk, &in_ms, NULL)) &&
        !(st = time_step(b, STEP_FACTOR, prm, chunk, &f_ms, &first)) &&
        !(st = time_step(b, STEP_OUT, prm, chunk, &out_ms, NULL))) {
        /* the last STEP_OUT wrote the factors of the last factorization back */
        ok = check(b, &e1);
        bchol_params via = *prm;
        via.variant = BCHOL_VARIANT_INTERLEAVED;
        if (!(st = time_step(b, STEP_STRIDED, &via, 0, &s_ms, NULL))) ok &= check(b, &e2);
    }
    printf("%4d %7lld %-11s %3d %-5s %-5s %-7s %5d %-4s ", b->n, b->batch, "interleaved",
           prm->inb < b->n ? prm->inb : b->n, util_param_name("looking", prm->looking),
           util_param_name("unroll", prm->unroll), util_param_name("chunking", prm->chunking), prm->chunk,
           util_param_name("math", prm->math));
    if (st) {
        printf("FAILED: %s: %s\n", bchol_status_string(st), bchol_last_error(b->ctx));
        return 1;
    }
    const double bytes = (double)b->batch * b->n * (b->n + 1) * (double)b->es;
    printf("%8.2f %9.4f %8.2f %7.1f %8.4f %8.4f %10.4f %8.2f %9.3g %s\n", first, f_ms, gflops(b, f_ms),
           bytes / (f_ms * 1e6), in_ms, out_ms, s_ms, gflops(b, s_ms), e1 > e2 ? e1 : e2,
           ok ? "ok" : "FAILED");
    fflush(stdout);
    (void)o;
    return !ok;
}

static int bench_peer(bench_n *b, int lapack)
{
    const options *o = b->o;
    double ms = 0, err = 0;
    int ok;
    if (lapack) {
        for (int r = 0; r < o->warmup + o->reps; r++) {
            memcpy(b->f, b->a, (size_t)b->batch * b->per);
            double t = cpu_peer_potrf(b->dbl, o->uplo, b->n, b->f, b->n, (int64_t)b->n * b->n, b->batch, b->info);
            if (r >= o->warmup) b->times[r - o->warmup] = t;
        }
        ms = util_median(b->times, o->reps);
        ok = 1;
        for (long long m = 0; m < b->batch; m++)
            if (b->info[m]) ok = 0;
    } else {
        bchol_params prm = {.variant = BCHOL_VARIANT_FUSED};
        bchol_status st = time_step(b, STEP_FUSED, &prm, 0, &ms, NULL);
        if (st) {
            printf("%4d %7lld %-11s FAILED: %s: %s\n", b->n, b->batch, "fused", bchol_status_string(st),
                   bchol_last_error(b->ctx));
            return 1;
        }
        ok = check(b, &err);
    }
    const double bytes = (double)b->batch * b->n * (b->n + 1) * (double)b->es;
    printf("%4d %7lld %-11s %3s %-5s %-5s %-7s %5s %-4s %8s %9.4f %8.2f %7.1f %8s %8s %10s %8s %9.3g %s\n",
           b->n, b->batch, lapack ? "lapack" : "fused", "-", "-", "-", "strided", "-", "-", "-", ms,
           gflops(b, ms), bytes / (ms * 1e6), "-", "-", "-", "-", err, ok ? "ok" : "FAILED");
    fflush(stdout);
    return !ok;
}

/* The values of one swept field: the list given, or the default alone. */
static list values(const list *given, int def)
{
    if (given->count) return *given;
    list l = {{def}, 1};
    return l;
}

static int bench_size(bchol_context *ctx, const options *o, int n)
{
    bench_n b = {ctx, o, n, o->precision == 'd', o->batch, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    b.es = b.dbl ? 8 : 4;
    b.per = (size_t)n * n * b.es;
    bchol_device_info dev;
    bchol_context_device_info(ctx, &dev);
    /* Three copies of the batch live on the device. */
    /* divided, not multiplied: the products wrapped for large --batch */
    if ((uint64_t)b.batch > dev.max_alloc / 2 / b.per) b.batch = (long long)(dev.max_alloc / 2 / b.per);
    if ((uint64_t)b.batch > dev.global_mem / 6 / b.per) b.batch = (long long)(dev.global_mem / 6 / b.per);
    if (b.batch < 1) {
        fprintf(stderr, "bchol bench: n = %d: one matrix exceeds what the device holds\n", n);
        return 1;
    }
    const size_t bytes = (size_t)b.batch * b.per;
    /* the interleaved buffer holds whole chunks */
    size_t ibytes = bytes + (size_t)1024 * b.per;
    b.a = malloc(bytes);
    b.f = malloc(bytes);
    b.info = malloc((size_t)b.batch * sizeof(int));
    b.times = malloc((size_t)o->reps * sizeof(double));
    cl_int err;
    cl_context cl = bchol_context_cl_context(ctx);
    if (b.a && b.f && b.info && b.times) {
        util_rng rng;
        util_rng_seed(&rng, (uint64_t)n);
        for (long long m = 0; m < b.batch; m++) util_spd_fast((char *)b.a + (size_t)m * b.per, b.dbl, n, n, &rng);
        b.d0 = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b.a, &err);
        b.dA = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        b.dB = clCreateBuffer(cl, CL_MEM_READ_WRITE, ibytes, NULL, &err);
        b.dI = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)b.batch * sizeof(int), NULL, &err);
    }
    int failed = 0;
    if (!b.d0 || !b.dA || !b.dB || !b.dI) {
        fprintf(stderr, "bchol bench: no memory for n = %d\n", n);
        failed = 1;
    } else {
        bchol_params def;
        bchol_potrf_interleaved_params(ctx, o->precision, n, &def, NULL);
        list nbs = values(&o->nb, def.inb), lks = values(&o->looking, def.looking),
             urs = values(&o->unroll, def.unroll), chs = values(&o->chunking, def.chunking),
             cks = values(&o->chunk, def.chunk), mts = values(&o->math, def.math);
        int done_full_nb = 0; /* nb >= n is one tile of order n: run it once */
        for (int i = 0; i < nbs.count; i++) {
            if (nbs.v[i] >= n && done_full_nb++) continue;
            for (int l = 0; l < lks.count; l++)
                for (int u = 0; u < urs.count; u++)
                    for (int c = 0; c < chs.count; c++)
                        for (int k = 0; k < cks.count; k++)
                            for (int m = 0; m < mts.count; m++) {
                                if (urs.v[u] == BCHOL_UNROLL_FULL && n > 64) continue;
                                bchol_params p = {.variant = BCHOL_VARIANT_INTERLEAVED,
                                                  .inb = nbs.v[i] < n ? nbs.v[i] : n,
                                                  .looking = lks.v[l],
                                                  .unroll = urs.v[u],
                                                  .chunking = chs.v[c],
                                                  .chunk = cks.v[k],
                                                  .math = mts.v[m]};
                                failed |= bench_config(&b, &p);
                            }
        }
        if (o->fused) failed |= bench_peer(&b, 0);
        if (o->lapack) failed |= bench_peer(&b, 1);
    }
    if (b.d0) clReleaseMemObject(b.d0);
    if (b.dA) clReleaseMemObject(b.dA);
    if (b.dB) clReleaseMemObject(b.dB);
    if (b.dI) clReleaseMemObject(b.dI);
    free(b.a);
    free(b.f);
    free(b.info);
    free(b.times);
    return failed;
}

int bench_interleaved(int argc, char **argv)
{
    options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed) return parsed > 0 ? 0 : 2;
    if (o.lapack && !cpu_peer_available()) {
        fprintf(stderr, "bchol bench: built without LAPACKE/OpenMP; --compare lapack is unavailable\n");
        return 2;
    }
    bchol_context *ctx;
    bchol_status st = bchol_context_create(o.device, &ctx);
    if (st) {
        fprintf(stderr, "bchol bench: %s: %s\n", bchol_status_string(st), bchol_last_error(NULL));
        return 1;
    }
    bchol_context_set_timing(ctx, 1);
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    printf("# device %d:%d %s (%s, %s %s, driver %s), %s\n", d.platform_index, d.device_index, d.raw_name,
           d.family, d.vendor, *d.architecture ? d.architecture : "-", d.driver, date);
    printf("# %cpotrf interleaved uplo=%c, median of %d runs after %d warm-up, device time from OpenCL "
           "profiling events; GB/s counts the stored triangle read and written once\n",
           o.precision, o.uplo, o.reps, o.warmup);
    if (o.lapack)
        printf("# peer: LAPACKE %cpotrf per matrix, OpenMP dynamic loop, %d threads one per core (%s)\n",
               o.precision, cpu_peer_threads(), cpu_topology_describe());
    print_header();
    int failed = 0;
    for (int i = 0; i < o.nsizes; i++)
        if (o.sizes[i] > 0) failed |= bench_size(ctx, &o, o.sizes[i]);
    bchol_context_destroy(ctx);
    return failed;
}
