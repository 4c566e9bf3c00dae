/*
 * bchol bench --solve: times bchol_{s,d}posv_batched (factor and solve in one call) and
 * bchol_{s,d}potrs_batched (solve with the factors) over a list of sizes, nrhs
 * right-hand sides per matrix, and prints one aligned row per n: batch, median device
 * times (OpenCL profiling events, first command's start to last command's end, after
 * warm-up runs), Gflop/s, the worst residual ||A*X - B||_F / (||A||_F ||X||_F n eps)
 * over a sample of the batch, and ok/FAILED. With --compare lapack the same systems also
 * go through LAPACKE ?potrs and ?posv per matrix in an OpenMP loop. With --variant
 * interleaved the timed routines are bchol_{s,d}posv_interleaved and _potrs_interleaved on
 * interleaved copies of the same systems; the conversions (A and B in, X out) are timed
 * apart, in column conv_ms. With --explain, a line per size says which tuning file and
 * entry (or the backend's defaults) chose the solve's parameters.
 */
#include "bench_solve.h"

#include "bchol.h"
#include "bchol_util.h"
#include "options.h"
#include "cpu_peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 256
#define SAMPLE 16 /* systems whose residual is checked */

typedef struct {
    const char *device;
    char precision, uplo;
    int sizes[MAX_SIZES], nsizes, nrhs;
    long long batch;
    int reps, warmup, compare;
    bchol_solve_params prm;
    int interleaved;       /* --variant interleaved */
    int explain;           /* --explain: where the solve's parameters came from */
    long long chunk;       /* its chunk size (0: the simple layout, one chunk) */
} solve_options;

static void usage(FILE *f)
{
    fprintf(f, "usage: bchol bench --solve [options]\n"
               "  --nrhs K          right-hand sides per matrix, 1 to 4096 (default 1)\n"
               "  --n LIST          sizes in [1, 46340]: a,b,c | a:b (doubling) | a:b:step, at most\n"
               "                    256 (default 4:512)\n"
               "  --batch B         systems per run, 1 to 2^40, capped to what the device holds\n"
               "                    (default 16384 for n <= 64, 3000 up to 256, 1000 above)\n"
               "  --precision s|d   (default s)\n"
               "  --uplo L|U        (default L)\n"
               "  --device SPEC     nvidia, pocl, gpu, cpu or P:D (default: BCHOL_DEVICE, else "
               "first GPU, else CPU)\n"
               "  --reps R          timed runs per size, 1 to 10000; the median is reported (default 10)\n"
               "  --warmup W        untimed runs first, 0 to 10000 (default 2)\n"
               "  --compare lapack  also run LAPACKE potrs and posv per matrix in an OpenMP loop\n"
               "  --nt T --rpt R --tbc C   substitution-kernel parameters of potrs (posv uses the "
               "defaults)\n"
               "  --variant strided|interleaved   layout of the timed routines (default strided;\n"
               "                    interleaved: conversions timed apart; --nt and --tbc apply)\n"
               "  --chunk C         chunk size of the interleaved layout (default: one chunk)\n"
               "  --explain         print, per size, which tuning file and entry chose the solve's\n"
               "                    parameters (nrhs and n select the entry)\n");
}

int bench_solve_requested(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--solve")) return 1;
    return 0;
}

static int parse(int argc, char **argv, solve_options *o)
{
    static const char *const flags[] = {"--solve", "--explain", NULL};
    static const char *const peers[] = {"lapack", NULL};
    static const char *const variants[] = {"strided", "interleaved", NULL};
    memset(o, 0, sizeof *o);
    o->precision = 's';
    o->uplo = 'L';
    o->nrhs = 1;
    o->reps = 10;
    o->warmup = 2;
    o->nsizes = util_parse_sizes("4:512", o->sizes, MAX_SIZES);
    opt_reader r;
    int more, bad = 0, w;
    opt_begin(&r, "bench --solve", argc, argv, flags);
    while (!bad && (more = opt_next(&r)) > 0) {
        const char *k = r.key;
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(k, "--solve")) continue;
        if (!strcmp(k, "--explain")) o->explain = 1;
        else if (!strcmp(k, "--n")) bad = opt_sizes(&r, 1, OPT_MAX_N, o->sizes, MAX_SIZES, &o->nsizes);
        else if (!strcmp(k, "--nrhs")) bad = opt_int(&r, 1, OPT_MAX_NRHS, &o->nrhs);
        else if (!strcmp(k, "--batch")) bad = opt_llong(&r, 1, OPT_MAX_BATCH, &o->batch);
        else if (!strcmp(k, "--precision")) bad = opt_char(&r, "sd", &o->precision);
        else if (!strcmp(k, "--uplo")) bad = opt_char(&r, "LU", &o->uplo);
        else if (!strcmp(k, "--device")) o->device = r.value;
        else if (!strcmp(k, "--reps")) bad = opt_int(&r, 1, OPT_MAX_REPS, &o->reps);
        else if (!strcmp(k, "--warmup")) bad = opt_int(&r, 0, OPT_MAX_REPS, &o->warmup);
        else if (!strcmp(k, "--compare")) {
            bad = opt_word(&r, peers) < 0;
            o->compare = 1;
        } else if (!strcmp(k, "--nt")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->prm.nt);
        else if (!strcmp(k, "--rpt")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->prm.rpt);
        else if (!strcmp(k, "--tbc")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->prm.tbc);
        else if (!strcmp(k, "--variant")) {
            bad = (w = opt_word(&r, variants)) < 0;
            o->interleaved = w == 1;
        } else if (!strcmp(k, "--chunk")) bad = opt_llong(&r, 0, OPT_MAX_BATCH, &o->chunk);
        else bad = opt_bad(&r, "unknown option (bchol bench --solve --help)");
    }
    return bad || more < 0 ? -1 : 0;
}

typedef struct {
    long long batch;
    double potrs_ms, posv_ms, residual, peer_potrs_ms, peer_posv_ms, conv_ms;
    int ok, peer_ok;
    char params[48];
    char source[1024]; /* where the parameters came from (--explain) */
} solve_row;

/* Worst residual over a sample of the batch; x holds the solutions. */
static double sample_residual(const solve_options *o, int n, const void *a, const void *b0,
                              const void *x, long long batch)
{
    const int dbl = o->precision == 'd';
    const size_t es = dbl ? 8 : 4, per_a = (size_t)n * n * es, per_b = (size_t)n * o->nrhs * es;
    double worst = 0;
    for (int s = 0; s < SAMPLE && s < batch; s++) {
        long long b = batch <= SAMPLE ? s : (long long)s * (batch - 1) / (SAMPLE - 1);
        double r =
            util_solve_residual((const char *)a + b * per_a, dbl, o->uplo, n, n, o->nrhs,
                                (const char *)x + b * per_b, n, (const char *)b0 + b * per_b, n);
        if (!(r <= worst)) worst = r;
    }
    return worst;
}

static bchol_status run_posv(bchol_context *ctx, const solve_options *o, int n, cl_mem A, cl_mem B,
                             long long batch, cl_mem info)
{
    const int k = o->nrhs;
    if (o->interleaved) {
        const int64_t ch = o->chunk > 0 ? o->chunk : batch;
        return o->precision == 'd'
                   ? bchol_dposv_interleaved(ctx, o->uplo, n, k, A, B, batch, ch, info, NULL)
                   : bchol_sposv_interleaved(ctx, o->uplo, n, k, A, B, batch, ch, info, NULL);
    }
    if (o->precision == 'd')
        return bchol_dposv_batched(ctx, o->uplo, n, k, A, 0, n, (int64_t)n * n, B, 0, n,
                                   (int64_t)n * k, batch, info, NULL);
    return bchol_sposv_batched(ctx, o->uplo, n, k, A, 0, n, (int64_t)n * n, B, 0, n, (int64_t)n * k,
                               batch, info, NULL);
}

static bchol_status run_potrs(bchol_context *ctx, const solve_options *o, int n, cl_mem A, cl_mem B,
                              long long batch)
{
    const int k = o->nrhs;
    if (o->interleaved) {
        const int64_t ch = o->chunk > 0 ? o->chunk : batch;
        return o->precision == 'd'
                   ? bchol_dpotrs_interleaved_ex(ctx, &o->prm, o->uplo, n, k, A, B, batch, ch, NULL)
                   : bchol_spotrs_interleaved_ex(ctx, &o->prm, o->uplo, n, k, A, B, batch, ch, NULL);
    }
    if (o->precision == 'd')
        return bchol_dpotrs_batched_ex(ctx, &o->prm, o->uplo, n, k, A, 0, n, (int64_t)n * n, B, 0,
                                       n, (int64_t)n * k, batch, NULL);
    return bchol_spotrs_batched_ex(ctx, &o->prm, o->uplo, n, k, A, 0, n, (int64_t)n * n, B, 0, n,
                                   (int64_t)n * k, batch, NULL);
}

/* Median device time of reps runs of posv (which = 0) or potrs (1); before each run B
 * (and for posv A) is restored from the originals, untimed. */
static bchol_status time_runs(bchol_context *ctx, const solve_options *o, int n, int which,
                              cl_mem a0, cl_mem a, size_t bytes_a, cl_mem b0, cl_mem b,
                              size_t bytes_b, long long batch, cl_mem info, double *ms_out)
{
    cl_command_queue q = bchol_context_queue(ctx);
    double *times = malloc((size_t)o->reps * sizeof *times);
    bchol_status st = BCHOL_SUCCESS;
    for (int r = 0; r < o->warmup + o->reps && !st; r++) {
        if (which == 0) clEnqueueCopyBuffer(q, a0, a, 0, 0, bytes_a, 0, NULL, NULL);
        clEnqueueCopyBuffer(q, b0, b, 0, 0, bytes_b, 0, NULL, NULL);
        clFinish(q);
        st =
            which == 0 ? run_posv(ctx, o, n, a, b, batch, info) : run_potrs(ctx, o, n, a, b, batch);
        double ms = 0;
        if (!st) st = bchol_last_call_ms(ctx, &ms);
        if (r >= o->warmup) times[r - o->warmup] = ms;
    }
    if (!st) *ms_out = util_median(times, o->reps);
    free(times);
    return st;
}

/* Strided <-> interleaved copies for --variant interleaved: A's stored triangle and B in
 * (to = 1), or X out (to = 0); with timing, the device time of the copies. */
static bchol_status convert(bchol_context *ctx, const solve_options *o, int n, int to, cl_mem sA,
                            cl_mem iA, cl_mem sB, cl_mem iB, long long batch, double *ms)
{
    const int k = o->nrhs, d = o->precision == 'd';
    const int64_t ch = o->chunk > 0 ? o->chunk : batch, sa = (int64_t)n * n, sb = (int64_t)n * k;
    bchol_status st = BCHOL_SUCCESS;
    double t = 0, total = 0;
    if (to) {
        st = d ? bchol_dinterleave(ctx, o->uplo, n, sA, 0, n, sa, batch, iA, ch, NULL)
               : bchol_sinterleave(ctx, o->uplo, n, sA, 0, n, sa, batch, iA, ch, NULL);
        if (!st && !(st = bchol_last_call_ms(ctx, &t))) total += t;
        if (!st)
            st = d ? bchol_dinterleave_rhs(ctx, n, k, sB, 0, n, sb, batch, iB, ch, NULL)
                   : bchol_sinterleave_rhs(ctx, n, k, sB, 0, n, sb, batch, iB, ch, NULL);
    } else {
        st = d ? bchol_ddeinterleave_rhs(ctx, n, k, iB, batch, ch, sB, 0, n, sb, NULL)
               : bchol_sdeinterleave_rhs(ctx, n, k, iB, batch, ch, sB, 0, n, sb, NULL);
    }
    if (!st && !(st = bchol_last_call_ms(ctx, &t))) total += t;
    if (ms) *ms = total;
    return st;
}

static int bench_one(bchol_context *ctx, const solve_options *o, int n, solve_row *row)
{
    const int dbl = o->precision == 'd', k = o->nrhs;
    const size_t es = dbl ? 8 : 4, per_a = (size_t)n * n * es, per_b = (size_t)n * k * es;
    bchol_device_info dev;
    bchol_context_device_info(ctx, &dev);
    long long batch = o->batch ? o->batch : util_bench_batch(n);
    /* Two copies of A and of B live on the device: each within one allocation, all
     * within half the memory. */
    if (per_a > dev.max_alloc || per_b > dev.max_alloc) {
        fprintf(stderr,
                "bchol bench --solve: n = %d, nrhs = %d: one matrix exceeds the device's largest "
                "allocation (%llu bytes)\n",
                n, k, (unsigned long long)dev.max_alloc);
        return -1;
    }
    /* divided, not multiplied: the products wrapped for large --batch */
    if ((uint64_t)batch > dev.max_alloc / per_a) batch = (long long)(dev.max_alloc / per_a);
    if ((uint64_t)batch > dev.max_alloc / per_b) batch = (long long)(dev.max_alloc / per_b);
    if ((uint64_t)batch > dev.global_mem / 4 / (per_a + per_b))
        batch = (long long)(dev.global_mem / 4 / (per_a + per_b));
    if (batch < 1) batch = 1;
    row->batch = batch;

    bchol_solve_params used;
    const char *source = "";
    bchol_potrs_params(ctx, o->precision, n, k, &used, &source);
    if (o->interleaved)
        snprintf(row->source, sizeof row->source,
                 "the interleaved solve's built-in choice of nt, work-group and register block (tuning files have no "
                 "entries for it)");
    else
        snprintf(row->source, sizeof row->source, "%s%s", source,
                 o->prm.nt > 0 || o->prm.rpt > 0 || o->prm.tbc > 0
                     ? "; parameters given on the command line override it for potrs (posv keeps it)"
                     : "");
    if (o->prm.nt > 0) used.nt = o->prm.nt;
    if (o->prm.rpt > 0) used.rpt = o->prm.rpt;
    if (o->prm.tbc > 0) used.tbc = o->prm.tbc;
    if (o->interleaved)
        snprintf(row->params, sizeof row->params, "ilv chunk %lld", o->chunk > 0 ? o->chunk : batch);
    else if (used.variant == BCHOL_SOLVE_WORKITEM)
        snprintf(row->params, sizeof row->params, "workitem nt%d", used.nt);
    else
        snprintf(row->params, sizeof row->params, "nt%d rpt%d tbc%d", used.nt, used.rpt, used.tbc);

    const size_t bytes_a = (size_t)batch * per_a, bytes_b = (size_t)batch * per_b;
    void *a = malloc(bytes_a), *f = malloc(bytes_a), *b0 = malloc(bytes_b), *x = malloc(bytes_b);
    int *info = malloc((size_t)batch * sizeof *info);
    if (!a || !f || !b0 || !x || !info) {
        fprintf(stderr, "bchol bench --solve: out of host memory for n = %d\n", n);
        free(a);
        free(f);
        free(b0);
        free(x);
        free(info);
        return -1;
    }
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)n);
    for (long long b = 0; b < batch; b++) {
        util_spd_fast((char *)a + (size_t)b * per_a, dbl, n, n, &rng);
        util_fill_uniform((char *)b0 + (size_t)b * per_b, dbl, n, k, n, &rng);
    }

    cl_int err = CL_SUCCESS;
    cl_context cl = bchol_context_cl_context(ctx);
    cl_command_queue q = bchol_context_queue(ctx);
    cl_mem dA0 = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes_a, a, &err);
    cl_mem dA = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes_a, NULL, &err);
    cl_mem dB0 = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes_b, b0, &err);
    cl_mem dB = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes_b, NULL, &err);
    cl_mem dI = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)batch * sizeof(int), NULL, &err);
    /* a failure to set up is reported here and skips the runs; everything made is released */
    bchol_status st = BCHOL_SUCCESS;
    int setup_failed = 0;
    if (!dA0 || !dA || !dB0 || !dB || !dI) {
        fprintf(stderr, "bchol bench --solve: device buffers for n = %d: OpenCL error %d\n", n,
                err);
        setup_failed = 1;
        st = BCHOL_ERR_OUT_OF_MEMORY;
    }
    bchol_context_set_timing(ctx, 1);
    /* The timed buffers: the strided ones, or interleaved copies (whole chunks). */
    cl_mem tA0 = dA0, tA = dA, tB0 = dB0, tB = dB;
    size_t tbytes_a = bytes_a, tbytes_b = bytes_b;
    if (o->interleaved && !st) {
        const long long ch = o->chunk > 0 ? o->chunk : batch, lanes = (batch + ch - 1) / ch * ch;
        tbytes_a = (size_t)lanes * per_a;
        tbytes_b = (size_t)lanes * per_b;
        tA0 = clCreateBuffer(cl, CL_MEM_READ_WRITE, tbytes_a, NULL, &err);
        tA = clCreateBuffer(cl, CL_MEM_READ_WRITE, tbytes_a, NULL, &err);
        tB0 = clCreateBuffer(cl, CL_MEM_READ_WRITE, tbytes_b, NULL, &err);
        tB = clCreateBuffer(cl, CL_MEM_READ_WRITE, tbytes_b, NULL, &err);
        if (!tA0 || !tA || !tB0 || !tB) {
            fprintf(stderr, "bchol bench --solve: interleaved buffers for n = %d: OpenCL error %d\n",
                    n, err);
            setup_failed = 1;
            st = BCHOL_ERR_OUT_OF_MEMORY;
        }
        /* Conversion cost: the median over the runs of (A, B in) + (X out). */
        double *times = malloc((size_t)o->reps * sizeof *times), in_ms, out_ms;
        if (!times && !st) {
            fprintf(stderr, "bchol bench --solve: out of host memory for n = %d\n", n);
            setup_failed = 1;
            st = BCHOL_ERR_OUT_OF_MEMORY;
        }
        for (int r = 0; r < o->warmup + o->reps && !st; r++) {
            st = convert(ctx, o, n, 1, dA0, tA0, dB0, tB0, batch, &in_ms);
            if (!st) st = convert(ctx, o, n, 0, NULL, NULL, dB, tB0, batch, &out_ms);
            if (r >= o->warmup) times[r - o->warmup] = in_ms + out_ms;
        }
        if (!st) row->conv_ms = util_median(times, o->reps);
        free(times);
    }
    /* posv leaves the factors in tA for potrs. */
    if (!st)
        st = time_runs(ctx, o, n, 0, tA0, tA, tbytes_a, tB0, tB, tbytes_b, batch, dI,
                       &row->posv_ms);
    if (!st && o->interleaved) st = convert(ctx, o, n, 0, NULL, NULL, dB, tB, batch, NULL);
    row->ok = !st;
    if (!st) {
        clEnqueueReadBuffer(q, dB, CL_TRUE, 0, bytes_b, x, 0, NULL, NULL);
        clEnqueueReadBuffer(q, dI, CL_TRUE, 0, (size_t)batch * sizeof(int), info, 0, NULL, NULL);
        for (long long b = 0; b < batch; b++)
            if (info[b]) row->ok = 0;
        row->residual = sample_residual(o, n, a, b0, x, batch);
        st = time_runs(ctx, o, n, 1, tA0, tA, tbytes_a, tB0, tB, tbytes_b, batch, dI,
                       &row->potrs_ms);
        if (!st && o->interleaved) st = convert(ctx, o, n, 0, NULL, NULL, dB, tB, batch, NULL);
        /* the factors back in strided form for the CPU peer */
        if (!st && o->interleaved && o->compare)
            st = o->precision == 'd'
                     ? bchol_ddeinterleave(ctx, o->uplo, n, tA, batch,
                                           o->chunk > 0 ? o->chunk : batch, dA, 0, n,
                                           (int64_t)n * n, NULL)
                     : bchol_sdeinterleave(ctx, o->uplo, n, tA, batch,
                                           o->chunk > 0 ? o->chunk : batch, dA, 0, n,
                                           (int64_t)n * n, NULL);
    }
    if (!st) {
        clEnqueueReadBuffer(q, dB, CL_TRUE, 0, bytes_b, x, 0, NULL, NULL);
        double r = sample_residual(o, n, a, b0, x, batch);
        if (!(r <= row->residual)) row->residual = r;
        if (!(row->residual <= 30.0)) row->ok = 0;
    } else {
        if (!setup_failed)
            fprintf(stderr, "bchol bench --solve: n = %d: %s: %s\n", n, bchol_status_string(st),
                    bchol_last_error(ctx));
        row->ok = 0;
    }
    if (o->compare && !st) {
        double *times = malloc((size_t)o->reps * sizeof *times);
        clEnqueueReadBuffer(q, dA, CL_TRUE, 0, bytes_a, f, 0, NULL, NULL); /* the factors */
        for (int r = 0; r < o->warmup + o->reps; r++) {
            memcpy(x, b0, bytes_b);
            double ms = cpu_peer_potrs(dbl, o->uplo, n, k, f, n, (int64_t)n * n, x, n,
                                       (int64_t)n * k, batch);
            if (r >= o->warmup) times[r - o->warmup] = ms;
        }
        row->peer_potrs_ms = util_median(times, o->reps);
        row->peer_ok = sample_residual(o, n, a, b0, x, batch) <= 30.0;
        for (int r = 0; r < o->warmup + o->reps; r++) {
            memcpy(f, a, bytes_a);
            memcpy(x, b0, bytes_b);
            double ms = cpu_peer_posv(dbl, o->uplo, n, k, f, n, (int64_t)n * n, x, n,
                                      (int64_t)n * k, batch, info);
            if (r >= o->warmup) times[r - o->warmup] = ms;
        }
        row->peer_posv_ms = util_median(times, o->reps);
        for (long long b = 0; b < batch; b++)
            if (info[b]) row->peer_ok = 0;
        free(times);
    }
    cl_mem made[] = {o->interleaved ? tA0 : NULL, o->interleaved ? tA : NULL,
                     o->interleaved ? tB0 : NULL, o->interleaved ? tB : NULL, dA0, dA, dB0, dB,
                     dI};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        if (made[i]) clReleaseMemObject(made[i]);
    free(a);
    free(f);
    free(b0);
    free(x);
    free(info);
    return st ? -1 : 0;
}

int bench_solve(int argc, char **argv)
{
    solve_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed) return parsed > 0 ? 0 : 2;
    if (o.compare && !cpu_peer_available()) {
        fprintf(stderr,
                "bchol bench: built without LAPACKE/OpenMP; --compare lapack is unavailable\n");
        return 2;
    }
    bchol_context *ctx;
    bchol_status st = bchol_context_create(o.device, &ctx);
    if (st) {
        fprintf(stderr, "bchol bench --solve: %s: %s\n", bchol_status_string(st),
                bchol_last_error(NULL));
        return 1;
    }
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    printf("# device %d:%d %s (%s, %s %s, driver %s), %s\n", d.platform_index, d.device_index,
           d.raw_name, d.family, d.vendor, *d.architecture ? d.architecture : "-", d.driver, date);
    const char *form = o.interleaved ? "interleaved" : "batched";
    printf("# %cposv_%s and %cpotrs_%s uplo=%c nrhs=%d, median of %d runs after %d "
           "warm-up, device time from OpenCL profiling events\n",
           o.precision, form, o.precision, form, o.uplo, o.nrhs, o.reps, o.warmup);
    if (o.interleaved)
        printf("# conv_ms: interleave A (stored triangle) and B, deinterleave X; not in the "
               "routines' times\n");
    printf("# Gflop/s count 2n^2*nrhs per system for potrs and n^3/3 + 2n^2*nrhs for posv\n");
    if (o.compare)
        printf("# peer: LAPACKE %cpotrs / %cposv per matrix, OpenMP dynamic loop, %d threads\n",
               o.precision, o.precision, cpu_peer_threads());
    printf("%6s %8s %5s %10s %9s %10s %9s %9s %-6s  %-18s", "n", "batch", "nrhs", "potrs_ms",
           "potrs_Gf", "posv_ms", "posv_Gf", "residual", "check", "potrs params");
    if (o.interleaved) printf(" %9s", "conv_ms");
    if (o.compare) printf(" %11s %10s %8s %8s", "lapack_potrs", "lapack_posv", "potrs_x", "posv_x");
    printf("\n");
    int failed = 0;
    for (int i = 0; i < o.nsizes; i++) {
        solve_row row = {0};
        const int n = o.sizes[i];
        if (n < 1 || bench_one(ctx, &o, n, &row)) {
            printf("%6d %8lld %5d %10s %9s %10s %9s %9s %-6s\n", n, row.batch, o.nrhs, "-", "-",
                   "-", "-", "-", "FAILED");
            failed = 1;
            continue;
        }
        const double solve_flops = 2.0 * n * n * o.nrhs, factor_flops = (double)n * n * n / 3.0;
        printf("%6d %8lld %5d %10.4f %9.2f %10.4f %9.2f %9.3g %-6s  %-18s", n, row.batch, o.nrhs,
               row.potrs_ms, row.batch * solve_flops / (row.potrs_ms * 1e6), row.posv_ms,
               row.batch * (solve_flops + factor_flops) / (row.posv_ms * 1e6), row.residual,
               row.ok ? "ok" : "FAILED", row.params);
        if (o.interleaved) printf(" %9.4f", row.conv_ms);
        if (o.compare)
            printf(" %11.4f %10.4f %7.2fx %7.2fx%s", row.peer_potrs_ms, row.peer_posv_ms,
                   row.peer_potrs_ms / row.potrs_ms, row.peer_posv_ms / row.posv_ms,
                   row.peer_ok ? "" : " (peer check failed)");
        printf("\n");
        if (o.explain) printf("#   n = %d: %s\n", n, row.source);
        fflush(stdout);
        failed |= !row.ok;
    }
    bchol_context_destroy(ctx);
    return failed;
}
