/*
 * bchol bench: times bchol_{s,d}potrf_batched over a list of sizes and prints one aligned
 * row per n: batch, median device time over the timed runs (OpenCL profiling events,
 * first command's start to last command's end, after warm-up runs), Gflop/s counting
 * n^3/3 per matrix, the worst backward error over a sample of the batch, and ok/FAILED.
 * With --compare lapack, the same matrices also go through the CPU peer. With --variant
 * fused,separate[,auto] each size runs each variant and a summary says where they cross.
 * --routine getrf|getrs|gesv|getri times the LU routines instead (bench_lu.c).
 */
#include "bchol.h"
#include "bench_lu.h"
#include "bench_solve.h"
#include "bchol_util.h"
#include "bench_interleaved.h"
#include "bench_variants.h"
#include "commands.h"
#include "cpu_peer.h"
#include "cpu_topology.h"
#include "options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 256
#define SAMPLE 16 /* matrices whose backward error is checked */

typedef struct {
    const char *device;
    char precision, uplo;
    int sizes[MAX_SIZES], nsizes;
    long long batch;
    int reps, warmup, compare;
    bchol_params prm;
    bchol_variant variants[BENCH_MAX_VARIANTS];
    int nvariants, variant_given;
    int explain; /* --explain: say which tuning entry (or defaults) chose the parameters */
} bench_options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bchol bench [options]\n"
            "  --n LIST          sizes in [1, 46340]: a,b,c | a:b (doubling) | a:b:step, at most 256\n"
            "                    (default 4:512)\n"
            "  --batch B         matrices per run, 1 to 2^40, capped to what the device holds\n"
            "                    (default 16384 for n <= 64, 3000 up to 256, 1000 above)\n"
            "  --precision s|d   (default s)\n"
            "  --uplo L|U        (default L)\n"
            "  --routine R       potrf (default, these options) or an LU routine: getrf, getrs,\n"
            "                    gesv, getri (bchol bench --routine getrf --help)\n"
            "  --device SPEC     nvidia, pocl, gpu, cpu or P:D (default: BCHOL_DEVICE, else first GPU, else CPU)\n"
            "  --reps R          timed runs per size, 1 to 10000; the median is reported (default 10)\n"
            "  --warmup W        untimed runs first, 0 to 10000 (default 2)\n"
            "  --compare lapack  also run one LAPACKE potrf per matrix in an OpenMP loop\n"
            "  --ib IB --tbc T --rpt R --shape fixed|shrink   fused-kernel parameters: without\n"
            "                    --variant they select fused; with a list, they apply to its fused\n"
            "                    runs (an error if the list has no fused)\n"
            "  --solve           time potrs and posv instead (bchol bench --solve --help)\n"
            "  --vbatched        variable sizes instead (bchol bench --vbatched --help)\n"
            "  --variant LIST    auto, fused, separate, interleaved, workitem, or a list (fused,separate) to\n"
            "                    compare (default auto; a list runs interleaved on strided data)\n"
            "  --nb NB --pb PB --gemm own|clblast --tile T --gb GB   separate-variant parameters:\n"
            "                    the same rule with separate\n"
            "  --wnb NB --wvec V --wmr M --wgroup G   workitem-variant parameters (with --variant\n"
            "                    workitem: block width, vector width 1/2/4/8/16, register tile 1/2,\n"
            "                    matrices per work-group)\n"
            "  --explain         print, per size, which tuning file and entry chose the parameters\n"
            "                    (or why the backend defaults apply)\n"
            "  --variant interleaved  the interleaved variant and its sweeps (--variant interleaved --help)\n");
}

static int parse(int argc, char **argv, bench_options *o)
{
    static const char *const flags[] = {"--explain", NULL};
    static const char *const shapes[] = {"fixed", "shrink", NULL};
    memset(o, 0, sizeof *o);
    o->precision = 's';
    o->uplo = 'L';
    o->reps = 10;
    o->warmup = 2;
    o->nsizes = util_parse_sizes("4:512", o->sizes, MAX_SIZES);
    o->nvariants = 1;
    o->variants[0] = BCHOL_VARIANT_AUTO;
    opt_reader r;
    int more, bad = 0, w;
    opt_begin(&r, "bench", argc, argv, flags);
    while (!bad && (more = opt_next(&r)) > 0) {
        const char *k = r.key, *v = r.value;
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(k, "--explain")) o->explain = 1;
        else if (!strcmp(k, "--n")) bad = opt_sizes(&r, 1, OPT_MAX_N, o->sizes, MAX_SIZES, &o->nsizes);
        else if (!strcmp(k, "--batch")) bad = opt_llong(&r, 1, OPT_MAX_BATCH, &o->batch);
        else if (!strcmp(k, "--precision")) bad = opt_char(&r, "sd", &o->precision);
        else if (!strcmp(k, "--uplo")) bad = opt_char(&r, "LU", &o->uplo);
        else if (!strcmp(k, "--routine")) {
            /* the LU names went to bench_lu before this parser: potrf is the one left */
            static const char *const routines[] = {"potrf", "getrf", "getrs", "gesv", "getri", NULL};
            bad = opt_word(&r, routines) < 0;
        } else if (!strcmp(k, "--device")) o->device = v;
        else if (!strcmp(k, "--reps")) bad = opt_int(&r, 1, OPT_MAX_REPS, &o->reps);
        else if (!strcmp(k, "--warmup")) bad = opt_int(&r, 0, OPT_MAX_REPS, &o->warmup);
        else if (!strcmp(k, "--compare")) {
            static const char *const peers[] = {"lapack", NULL};
            bad = opt_word(&r, peers) < 0;
            o->compare = 1;
        } else if (!strcmp(k, "--ib")) bad = opt_int(&r, 1, 32, &o->prm.ib);
        else if (!strcmp(k, "--tbc")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->prm.tbc);
        else if (!strcmp(k, "--rpt")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->prm.rpt);
        else if (!strcmp(k, "--shape")) {
            bad = (w = opt_word(&r, shapes)) < 0;
            o->prm.shape = w == 0 ? BCHOL_SHAPE_FIXED : BCHOL_SHAPE_SHRINK;
        } else if (!strcmp(k, "--variant")) {
            if ((o->nvariants = bench_parse_variants(v, o->variants)) < 0)
                bad = opt_bad(&r, "takes fused, separate, interleaved, workitem, auto or a list of them");
            o->variant_given = 1;
        } else if (!strcmp(k, "--nb")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->prm.nb);
        else if (!strcmp(k, "--pb")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->prm.pb);
        else if (!strcmp(k, "--gemm")) {
            if ((o->prm.gemm = bench_parse_gemm(v)) < 0) bad = opt_bad(&r, "takes own or clblast");
        } else if (!strcmp(k, "--tile")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->prm.tile);
        else if (!strcmp(k, "--gb")) bad = opt_int(&r, 1, 1 << 24, &o->prm.gb);
        else if (!strcmp(k, "--wnb")) bad = opt_int(&r, 1, 32, &o->prm.wnb);
        else if (!strcmp(k, "--wvec")) bad = opt_int(&r, 1, 16, &o->prm.wvec);
        else if (!strcmp(k, "--wmr")) bad = opt_int(&r, 1, 2, &o->prm.wmr);
        else if (!strcmp(k, "--wgroup")) bad = opt_int(&r, 1, 256, &o->prm.wgroup);
        else bad = opt_bad(&r, "unknown option (bchol bench --help)");
    }
    if (bad || more < 0) return -1;
    /* A variant's own parameters select that variant: silently running auto (which may
     * dispatch elsewhere) would time something the user did not ask for. */
    const int fused = o->prm.ib || o->prm.tbc || o->prm.rpt || o->prm.shape;
    const int separate = o->prm.nb || o->prm.pb || o->prm.gemm || o->prm.tile || o->prm.gb;
    if (fused && separate) {
        fprintf(stderr, "bchol bench: fused parameters (--ib --tbc --rpt --shape) and separate ones "
                        "(--nb --pb --gemm --tile --gb) exclude each other\n");
        return -1;
    }
    if (fused || separate) {
        const bchol_variant want = fused ? BCHOL_VARIANT_FUSED : BCHOL_VARIANT_SEPARATE;
        int listed = 0;
        for (int i = 0; i < o->nvariants; i++) listed |= o->variants[i] == want;
        if (!o->variant_given) {
            o->nvariants = 1;
            o->variants[0] = want;
        } else if (!listed) {
            fprintf(stderr, "bchol bench: %s are %s-variant parameters; --variant lists no %s\n",
                    fused ? "--ib --tbc --rpt --shape" : "--nb --pb --gemm --tile --gb",
                    bench_variant_name(want), bench_variant_name(want));
            return -1;
        }
    }
    return 0;
}

static bchol_status run_potrf(bchol_context *ctx, const bench_options *o, int n, cl_mem A,
                              long long batch, cl_mem info)
{
    if (o->precision == 'd')
        return bchol_dpotrf_batched_ex(ctx, &o->prm, o->uplo, n, A, 0, n, (int64_t)n * n, batch, info, NULL);
    return bchol_spotrf_batched_ex(ctx, &o->prm, o->uplo, n, A, 0, n, (int64_t)n * n, batch, info, NULL);
}

typedef struct {
    long long batch;
    double ms, gflops, error, peer_ms, peer_gflops;
    int ok, peer_ok;
    char params[64];
    char source[1024]; /* where the parameters came from (--explain) */
} bench_row;

static int bench_one(bchol_context *ctx, const bench_options *o, int n, bench_row *row)
{
    const int dbl = o->precision == 'd';
    const size_t es = dbl ? 8 : 4, per = (size_t)n * (size_t)n * es;
    bchol_device_info dev;
    bchol_context_device_info(ctx, &dev);
    long long batch = util_fit_batch(o->batch ? o->batch : util_bench_batch(n), per, dev.max_alloc, dev.global_mem);
    if (batch < 1) batch = 1;
    row->batch = batch;

    bchol_params used;
    const char *source = "";
    bchol_potrf_params(ctx, o->precision, n, &used, &source);
    snprintf(row->source, sizeof row->source, "%s%s", source,
             o->prm.ib > 0 || o->prm.tbc > 0 || o->prm.rpt > 0 || o->prm.shape > 0
                 ? "; parameters given on the command line override it"
                 : "");
    if (o->prm.ib > 0) used.ib = o->prm.ib;
    if (o->prm.tbc > 0) used.tbc = o->prm.tbc;
    if (o->prm.rpt > 0) used.rpt = o->prm.rpt;
    if (o->prm.shape > 0) used.shape = o->prm.shape;
    if (o->prm.variant > 0) used.variant = o->prm.variant;
    if (o->prm.nb > 0) used.nb = o->prm.nb;
    if (o->prm.pb > 0) used.pb = o->prm.pb;
    if (o->prm.gemm > 0) used.gemm = o->prm.gemm;
    if (o->prm.tile > 0) used.tile = o->prm.tile;
    if (o->prm.gb > 0) used.gb = o->prm.gb;
    if (o->prm.wnb > 0) used.wnb = o->prm.wnb;
    if (o->prm.wvec > 0) used.wvec = o->prm.wvec;
    if (o->prm.wmr > 0) used.wmr = o->prm.wmr;
    if (o->prm.wgroup > 0) used.wgroup = o->prm.wgroup;
    bench_params_text(&used, row->params, sizeof row->params);

    if (per > dev.max_alloc) {
        fprintf(stderr, "bchol bench: n = %d: one matrix exceeds the device's largest allocation "
                        "(%llu bytes)\n", n, (unsigned long long)dev.max_alloc);
        return -1;
    }
    size_t bytes = (size_t)batch * per;
    void *a = malloc(bytes), *f = malloc(bytes);
    int *info = malloc((size_t)batch * sizeof *info);
    if (!a || !f || !info) {
        fprintf(stderr, "bchol bench: out of host memory for n = %d\n", n);
        free(a);
        free(f);
        free(info);
        return -1;
    }
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)n);
    for (long long b = 0; b < batch; b++) util_spd_fast((char *)a + (size_t)b * per, dbl, n, n, &rng);

    cl_int err = CL_SUCCESS;
    cl_context cl = bchol_context_cl_context(ctx);
    cl_command_queue q = bchol_context_queue(ctx);
    cl_mem d0 = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
    cl_mem dA = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem dI = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)batch * sizeof(int), NULL, &err);
    double *times = malloc((size_t)o->reps * sizeof *times);
    if (!d0 || !dA || !dI || !times) {
        if (!times) fprintf(stderr, "bchol bench: out of host memory for n = %d\n", n);
        else fprintf(stderr, "bchol bench: device buffers for n = %d: OpenCL error %d\n", n, err);
        cl_mem made[] = {d0, dA, dI};
        for (int i = 0; i < 3; i++)
            if (made[i]) clReleaseMemObject(made[i]);
        free(times);
        free(a);
        free(f);
        free(info);
        return -1;
    }
    bchol_status st = BCHOL_SUCCESS;
    bchol_context_set_timing(ctx, 1);
    for (int r = 0; r < o->warmup + o->reps && !st; r++) {
        clEnqueueCopyBuffer(q, d0, dA, 0, 0, bytes, 0, NULL, NULL);
        clFinish(q);
        if ((st = run_potrf(ctx, o, n, dA, batch, dI))) break;
        double ms;
        if ((st = bchol_last_call_ms(ctx, &ms))) break;
        if (r >= o->warmup) times[r - o->warmup] = ms;
    }
    if (st) {
        fprintf(stderr, "bchol bench: n = %d: %s: %s\n", n, bchol_status_string(st), bchol_last_error(ctx));
        row->ok = 0;
    } else {
        row->ms = util_median(times, o->reps);
        row->gflops = batch * ((double)n * n * n / 3.0) / (row->ms * 1e6);
        clEnqueueReadBuffer(q, dA, CL_TRUE, 0, bytes, f, 0, NULL, NULL);
        clEnqueueReadBuffer(q, dI, CL_TRUE, 0, (size_t)batch * sizeof(int), info, 0, NULL, NULL);
        row->ok = 1;
        for (long long b = 0; b < batch; b++)
            if (info[b]) row->ok = 0;
        row->error = 0;
        for (int s = 0; s < SAMPLE && s < batch; s++) {
            long long b = batch <= SAMPLE ? s : (long long)s * (batch - 1) / (SAMPLE - 1);
            double e = util_backward_error((char *)a + (size_t)b * per, (char *)f + (size_t)b * per,
                                           dbl, o->uplo, n, n);
            if (e > row->error) row->error = e;
        }
        if (!(row->error <= 30.0)) row->ok = 0;
    }
    if (o->compare && !st) {
        for (int r = 0; r < o->warmup + o->reps; r++) {
            memcpy(f, a, bytes);
            double ms = cpu_peer_potrf(dbl, o->uplo, n, f, n, (int64_t)n * n, batch, info);
            if (r >= o->warmup) times[r - o->warmup] = ms;
        }
        row->peer_ms = util_median(times, o->reps);
        row->peer_gflops = batch * ((double)n * n * n / 3.0) / (row->peer_ms * 1e6);
        row->peer_ok = 1;
        for (long long b = 0; b < batch; b++)
            if (info[b]) row->peer_ok = 0;
    }
    free(times);
    clReleaseMemObject(d0);
    clReleaseMemObject(dA);
    clReleaseMemObject(dI);
    free(a);
    free(f);
    free(info);
    return st ? -1 : 0;
}

int cmd_bench(int argc, char **argv)
{
    /* bench --routine getrf|getrs|gesv|getri: the LU routines (bench_lu.c) */
    if (bench_lu_requested(argc, argv)) {
        for (int i = 1; i < argc; i++) /* --routine getrf --vbatched (bench_lu_vbatched.c) */
            if (!strcmp(argv[i], "--vbatched")) return bench_lu_vbatched(argc, argv);
        return bench_lu(argc, argv);
    }
    /* bench --solve: potrs and posv (bench_solve.c) */
    if (bench_solve_requested(argc, argv)) {
        for (int i = 1; i < argc; i++) /* --solve --vbatched (bench_solve_vbatched.c) */
            if (!strcmp(argv[i], "--vbatched")) return bench_solve_vbatched(argc, argv);
        return bench_solve(argc, argv);
    }
    /* variable-size batches have their own options and table */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--vbatched")) return bench_vbatched(argc, argv);
    /* --variant interleaved has its own sweeps and columns (cli/bench/bench_interleaved.c). */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--variant") && !strcmp(argv[i + 1], "interleaved"))
            return bench_interleaved(argc, argv);
    bench_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed) return parsed > 0 ? 0 : 2;
    if (o.compare && !cpu_peer_available()) {
        fprintf(stderr, "bchol bench: built without LAPACKE/OpenMP; --compare lapack is unavailable\n");
        return 2;
    }
    bchol_context *ctx;
    bchol_status st = bchol_context_create(o.device, &ctx);
    if (st) {
        fprintf(stderr, "bchol bench: %s: %s\n", bchol_status_string(st), bchol_last_error(NULL));
        return 1;
    }
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    printf("# device %d:%d %s (%s, %s %s, driver %s), %s\n", d.platform_index, d.device_index, d.raw_name,
           d.family, d.vendor, *d.architecture ? d.architecture : "-", d.driver, date);
    printf("# %cpotrf_batched uplo=%c, median of %d runs after %d warm-up, device time from "
           "OpenCL profiling events\n",
           o.precision, o.uplo, o.reps, o.warmup);
    if (o.compare)
        printf("# peer: LAPACKE %cpotrf per matrix, OpenMP dynamic loop, %d threads one per core (%s)\n",
               o.precision, cpu_peer_threads(), cpu_topology_describe());
    printf("%6s %8s %10s %10s %9s %-6s  %-8s %-32s", "n", "batch", "ms", "Gflop/s", "error", "check", "variant",
           "params");
    if (o.compare) printf(" %10s %10s %8s", "lapack_ms", "lapack_Gf", "speedup");
    printf("\n");
    int failed = 0;
    static bench_crossover cross;
    for (int i = 0; i < o.nsizes * o.nvariants; i++) {
        bench_row row = {0};
        int n = o.sizes[i / o.nvariants];
        bench_options ov = o;
        ov.prm.variant = o.variants[i % o.nvariants];
        /* a variant's parameters apply to its own runs only (auto runs as the dispatcher says) */
        if (ov.prm.variant != BCHOL_VARIANT_FUSED) ov.prm.ib = ov.prm.tbc = ov.prm.rpt = ov.prm.shape = 0;
        if (ov.prm.variant != BCHOL_VARIANT_SEPARATE)
            ov.prm.nb = ov.prm.pb = ov.prm.gemm = ov.prm.tile = ov.prm.gb = 0;
        bchol_params chosen;
        bchol_potrf_params(ctx, o.precision, n, &chosen, NULL);
        if (bench_one(ctx, &ov, n, &row)) {
            printf("%6d %8lld %10s %10s %9s %-6s  %-8s\n", n, row.batch, "-", "-", "-", "FAILED",
                   bench_variant_name(ov.prm.variant));
            failed = 1;
            continue;
        }
        bench_crossover_add(&cross, n, ov.prm.variant, row.gflops, chosen.variant);
        printf("%6d %8lld %10.4f %10.2f %9.3g %-6s  %-8s %-32s", n, row.batch, row.ms, row.gflops, row.error,
               row.ok ? "ok" : "FAILED", bench_variant_name(ov.prm.variant), row.params);
        if (o.compare)
            printf(" %10.4f %10.2f %7.2fx%s", row.peer_ms, row.peer_gflops, row.peer_ms / row.ms,
                   row.peer_ok ? "" : " (peer info != 0)");
        printf("\n");
        if (o.explain) printf("#   n = %d: %s\n", n, row.source);
        fflush(stdout);
        failed |= !row.ok;
    }
    if (o.nvariants > 1) bench_crossover_print(&cross);
    bchol_context_destroy(ctx);
    return failed;
}
