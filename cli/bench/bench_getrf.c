/*
 * bchol bench --getrf: times bchol_{s,d}getrf_batched on random square matrices (uniform
 * in [-1, 1)) over a list of sizes and, per size, each variant asked for (the library's
 * BCHOL_GETRF, set by this command: fused, blocked with its nb and GEMM, or auto), and
 * prints one aligned row per (n, variant): batch, median device time (OpenCL profiling
 * events after warm-up runs; each run factors a fresh copy), Gflop/s counting 2n^3/3 per
 * matrix, the worst ||P*A - L*U||_1 / (n ||A||_1 eps) over two matrices of the batch,
 * the count of non-zero info, and ok/FAILED (a refused variant, e.g. fused beyond local
 * memory, prints its message instead).
 */
#include "bench_getrf.h"

#include "bchol.h"
#include "bchol_util.h"
#include "options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 256
#define MAX_VARIANTS 3

typedef struct {
    const char *device;
    char precision;
    int sizes[MAX_SIZES], nsizes;
    long long batch;
    int reps, warmup, nb, gemm; /* gemm: 0 default, 1 own, 2 clblast */
    int lx, tbc;                /* the fused kernel's shape (0: the library's) */
    int variants[MAX_VARIANTS], nvariants; /* indices into variant_names */
} getrf_options;

static const char *const variant_names[] = {"auto", "fused", "blocked", NULL};

static void usage(FILE *f)
{
    fprintf(f, "usage: bchol bench --getrf [options]\n"
               "  --n LIST          sizes in [1, 46340]: a,b,c | a:b (doubling) | a:b:step, at most\n"
               "                    256 (default 32:512)\n"
               "  --batch B         matrices per run, capped to what the device holds (default\n"
               "                    16384 for n <= 64, 3000 up to 256, 1000 above)\n"
               "  --precision s|d   (default s)\n"
               "  --device SPEC     nvidia, pocl, gpu, cpu or P:D\n"
               "  --reps R          timed runs per size; the median is reported (default 10)\n"
               "  --warmup W        untimed runs first (default 2)\n"
               "  --variant LIST    auto, fused, blocked or a list of them (default auto)\n"
               "  --nb NB           the blocked variant's panel width, 1..64 (default: the backend's)\n"
               "  --gemm own|clblast   the blocked variant's trailing update\n"
               "  --lx LX --tbc T   the fused kernel's work-items per matrix (1..1024) and matrices\n"
               "                    per work-group (1..64) (default: the library's)\n");
}

int bench_getrf_requested(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--getrf")) return 1;
    return 0;
}

static int parse(int argc, char **argv, getrf_options *o)
{
    static const char *const flags[] = {"--getrf", NULL};
    static const char *const gemms[] = {"own", "clblast", NULL};
    memset(o, 0, sizeof *o);
    o->precision = 's';
    o->reps = 10;
    o->warmup = 2;
    o->nsizes = util_parse_sizes("32:512", o->sizes, MAX_SIZES);
    o->nvariants = 1;
    opt_reader r;
    int more, bad = 0, w;
    opt_begin(&r, "bench --getrf", argc, argv, flags);
    while (!bad && (more = opt_next(&r)) > 0) {
        const char *k = r.key;
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(k, "--getrf")) continue;
        if (!strcmp(k, "--n")) bad = opt_sizes(&r, 1, OPT_MAX_N, o->sizes, MAX_SIZES, &o->nsizes);
        else if (!strcmp(k, "--batch")) bad = opt_llong(&r, 1, OPT_MAX_BATCH, &o->batch);
        else if (!strcmp(k, "--precision")) bad = opt_char(&r, "sd", &o->precision);
        else if (!strcmp(k, "--device")) o->device = r.value;
        else if (!strcmp(k, "--reps")) bad = opt_int(&r, 1, OPT_MAX_REPS, &o->reps);
        else if (!strcmp(k, "--warmup")) bad = opt_int(&r, 0, OPT_MAX_REPS, &o->warmup);
        else if (!strcmp(k, "--variant"))
            bad = opt_word_list(&r, variant_names, o->variants, MAX_VARIANTS, &o->nvariants);
        else if (!strcmp(k, "--nb")) bad = opt_int(&r, 1, 64, &o->nb);
        else if (!strcmp(k, "--lx")) bad = opt_int(&r, 1, 1024, &o->lx);
        else if (!strcmp(k, "--tbc")) bad = opt_int(&r, 1, 64, &o->tbc);
        else if (!strcmp(k, "--gemm")) {
            bad = (w = opt_word(&r, gemms)) < 0;
            o->gemm = w + 1;
        } else bad = opt_bad(&r, "unknown option (bchol bench --getrf --help)");
    }
    return bad || more < 0 ? -1 : 0;
}

/* ||P*A - L*U||_1 / (n ||A||_1 eps) of matrix a0 (n-by-n, ld n) with its factors f. */
static double residual(const void *a0, const void *f, const int *ipiv, int dbl, int n)
{
    double *pa = malloc((size_t)n * n * sizeof *pa), anorm = 0, rnorm = 0;
    for (size_t e = 0; e < (size_t)n * n; e++) pa[e] = util_get(a0, e, dbl);
    for (int j = 0; j < n; j++) {
        double c = 0;
        for (int i = 0; i < n; i++) c += fabs(pa[i + (size_t)j * n]);
        if (c > anorm) anorm = c;
    }
    for (int i = 0; i < n; i++) {
        const int p = ipiv[i] - 1;
        if (p < 0 || p >= n) {
            free(pa);
            return INFINITY;
        }
        for (int j = 0; j < n && p != i; j++) {
            const double t = pa[i + (size_t)j * n];
            pa[i + (size_t)j * n] = pa[p + (size_t)j * n];
            pa[p + (size_t)j * n] = t;
        }
    }
    double *col = malloc((size_t)n * sizeof *col);
    for (int j = 0; j < n; j++) {
        /* column j of L*U: sum over l <= j of L(:, l) U(l, j) */
        for (int i = 0; i < n; i++) col[i] = 0;
        for (int l = 0; l <= j; l++) {
            const double u = util_get(f, l + (size_t)j * n, dbl);
            col[l] += u;
            for (int i = l + 1; i < n; i++) col[i] += util_get(f, i + (size_t)l * n, dbl) * u;
        }
        double c = 0;
        for (int i = 0; i < n; i++) c += fabs(pa[i + (size_t)j * n] - col[i]);
        if (!(c <= rnorm)) rnorm = c;
    }
    free(col);
    free(pa);
    return anorm > 0 ? rnorm / ((double)n * anorm * util_eps(dbl)) : rnorm;
}

static void set_variant(const getrf_options *o, int v)
{
    char text[64];
    int len;
    if (v == 1) len = snprintf(text, sizeof text, "fused");
    else if (v == 0) len = snprintf(text, sizeof text, "auto");
    else {
        len = snprintf(text, sizeof text, "blocked");
        if (o->nb) len += snprintf(text + len, sizeof text - (size_t)len, ",nb=%d", o->nb);
        if (o->gemm) len += snprintf(text + len, sizeof text - (size_t)len, ",gemm=%s", o->gemm == 2 ? "clblast" : "own");
    }
    if (o->lx) len += snprintf(text + len, sizeof text - (size_t)len, ",lx=%d", o->lx);
    if (o->tbc) snprintf(text + len, sizeof text - (size_t)len, ",tbc=%d", o->tbc);
    setenv("BCHOL_GETRF", text, 1);
}

static int bench_size(bchol_context *ctx, const getrf_options *o, int n, int v)
{
    const int dbl = o->precision == 'd';
    const size_t es = dbl ? 8 : 4, per = (size_t)n * n * es;
    bchol_device_info dev;
    bchol_context_device_info(ctx, &dev);
    long long batch = o->batch ? o->batch : util_bench_batch(n);
    if ((uint64_t)batch > dev.max_alloc / per) batch = (long long)(dev.max_alloc / per);
    if ((uint64_t)batch > dev.global_mem / 4 / per) batch = (long long)(dev.global_mem / 4 / per);
    if (batch < 1) batch = 1;
    const size_t bytes = per * (size_t)batch;
    void *h = malloc(bytes), *f = malloc(2 * per);
    int *piv = malloc((size_t)n * 2 * sizeof *piv), *info = malloc((size_t)batch * sizeof *info);
    util_rng rng;
    util_rng_seed(&rng, 7 + (uint64_t)n);
    util_fill_uniform(h, dbl, n, (int)(batch * n), n, &rng);
    cl_context cl = bchol_context_cl_context(ctx);
    cl_command_queue q = bchol_context_queue(ctx);
    cl_int err;
    cl_mem a0 = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
    cl_mem a = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem p = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)n * batch * sizeof(int), NULL, &err);
    cl_mem in = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)batch * sizeof(int), NULL, &err);
    double *times = malloc((size_t)o->reps * sizeof *times);
    bchol_status st = (!a0 || !a || !p || !in) ? BCHOL_ERR_OPENCL : BCHOL_SUCCESS;
    set_variant(o, o->variants[v]);
    for (int r = 0; r < o->warmup + o->reps && !st; r++) {
        clEnqueueCopyBuffer(q, a0, a, 0, 0, bytes, 0, NULL, NULL);
        clFinish(q);
        st = dbl ? bchol_dgetrf_batched(ctx, n, n, a, 0, n, (int64_t)n * n, p, 0, n, batch, in, NULL)
                 : bchol_sgetrf_batched(ctx, n, n, a, 0, n, (int64_t)n * n, p, 0, n, batch, in, NULL);
        double ms = 0;
        if (!st) st = bchol_last_call_ms(ctx, &ms);
        if (!st && r >= o->warmup) times[r - o->warmup] = ms;
    }
    if (st) {
        printf("%6d %-8s %8lld  %s\n", n, variant_names[o->variants[v]], batch, bchol_last_error(ctx));
    } else {
        const double ms = util_median(times, o->reps);
        /* the first and the last matrix */
        clEnqueueReadBuffer(q, a, CL_TRUE, 0, per, f, 0, NULL, NULL);
        clEnqueueReadBuffer(q, a, CL_TRUE, per * (size_t)(batch - 1), per, (char *)f + per, 0, NULL, NULL);
        clEnqueueReadBuffer(q, p, CL_TRUE, 0, (size_t)n * sizeof(int), piv, 0, NULL, NULL);
        clEnqueueReadBuffer(q, p, CL_TRUE, (size_t)n * (batch - 1) * sizeof(int), (size_t)n * sizeof(int),
                            piv + n, 0, NULL, NULL);
        clEnqueueReadBuffer(q, in, CL_TRUE, 0, (size_t)batch * sizeof(int), info, 0, NULL, NULL);
        double worst = residual(h, f, piv, dbl, n);
        const double r2 = residual((char *)h + per * (size_t)(batch - 1), (char *)f + per, piv + n, dbl, n);
        if (!(r2 <= worst)) worst = r2;
        long long bad = 0;
        for (long long b = 0; b < batch; b++) bad += info[b] != 0;
        const double gflops = 2.0 / 3.0 * n * (double)n * n * (double)batch / (ms * 1e6);
        printf("%6d %-8s %8lld %11.3f %9.1f %9.3g %6lld  %s\n", n, variant_names[o->variants[v]], batch, ms,
               gflops, worst, bad, worst <= 30 && bad == 0 ? "ok" : "FAILED");
    }
    fflush(stdout);
    unsetenv("BCHOL_GETRF");
    free(times);
    free(h);
    free(f);
    free(piv);
    free(info);
    if (a0) clReleaseMemObject(a0);
    if (a) clReleaseMemObject(a);
    if (p) clReleaseMemObject(p);
    if (in) clReleaseMemObject(in);
    return st ? 1 : 0;
}

int bench_getrf(int argc, char **argv)
{
    getrf_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed) return parsed > 0 ? 0 : 2;
    bchol_context *ctx;
    bchol_status st = bchol_context_create(o.device, &ctx);
    if (st) {
        fprintf(stderr, "bchol bench --getrf: %s\n", bchol_last_error(NULL));
        return 1;
    }
    bchol_context_set_timing(ctx, 1);
    bchol_device_info dev;
    bchol_context_device_info(ctx, &dev);
    printf("# %cgetrf_batched on %s, median of %d runs after %d warm-up; nb %d (0: the "
           "backend's), gemm %s, fused lx %d tbc %d (0: the library's)\n",
           o.precision, dev.name, o.reps, o.warmup, o.nb, o.gemm == 2 ? "clblast" : o.gemm == 1 ? "own" : "default",
           o.lx, o.tbc);
    printf("%6s %-8s %8s %11s %9s %9s %6s  %s\n", "n", "variant", "batch", "ms", "Gflop/s", "resid",
           "info", "check");
    int failed = 0;
    for (int i = 0; i < o.nsizes; i++)
        for (int v = 0; v < o.nvariants; v++) failed |= bench_size(ctx, &o, o.sizes[i], v);
    bchol_context_destroy(ctx);
    return failed;
}
