/*
 * bchol bench --routine getrf|getrs|gesv|getri: times one of the batched LU routines over a
 * list of sizes on general random matrices (entries uniform in [-1, 1), right-hand sides
 * the same) and prints one aligned row per n: batch, (nrhs), median device time over the
 * timed runs (OpenCL profiling events, first command's start to last command's end, after
 * warm-up runs), Gflop/s, the worst scaled residual over a sample of the batch (LAPACK's
 * xGET01/02/03 ratios in 1-norms) and ok/FAILED. getrs solves with factors made once,
 * untimed; getri is timed alone and, as the inverse from A (the count of the GPU peer
 * torch.linalg.inv_ex), together with the getrf before it. With --compare lapack the same
 * matrices also go through LAPACKE, one matrix per iteration of an OpenMP loop
 * (cpu_peer.c): ?getrf, ?getrs (on bchol's factors), ?gesv, ?getrf + ?getri.
 */
#include "bench_lu.h"

#include "bchol.h"
#include "bchol_util.h"
#include "cpu_peer.h"
#include "cpu_topology.h"
#include "options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 256
#define SAMPLE 16 /* matrices whose residual is checked */

enum { GETRF, GETRS, GESV, GETRI };
static const char *const routines[] = {"getrf", "getrs", "gesv", "getri", NULL};

typedef struct {
    const char *device;
    int routine;
    char precision, trans;
    int sizes[MAX_SIZES], nsizes, nrhs;
    int nrhs_given, trans_given;
    long long batch;
    int reps, warmup, compare;
    int explain; /* --explain: which tuning entry (or defaults) chose getrf's variant */
    uint64_t seed;
    /* getrf's variant and parameters (BCHOL_GETRF for the run; variant 0: the library's) */
    int variant, nb, gemm, lx, tbc;
    char getrf_env[96];
} lu_options;

static const char *const variants[] = {"auto", "fused", "blocked", "workitem", "regs", NULL};
static const char *const gemms[] = {"own", "clblast", NULL};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bchol bench --routine getrf|getrs|gesv|getri [options]\n"
            "  --routine R       the batched LU routine timed (potrf, bench's default, takes\n"
            "                    bchol bench's other options): getrf (m = n), getrs (on getrf's\n"
            "                    factors, made once), gesv, getri (alone, and getrf + getri)\n"
            "  --n LIST          sizes in [1, 46340]: a,b,c | a:b (doubling) | a:b:step, at most\n"
            "                    256 (default 4:512)\n"
            "  --batch B         matrices per run, 1 to 2^40, capped to what the device holds\n"
            "                    (default 16384 for n <= 64, 3000 up to 256, 1000 above)\n"
            "  --precision s|d   (default s)\n"
            "  --nrhs K          right-hand sides per matrix, 1 to 4096, getrs and gesv only\n"
            "                    (default 1)\n"
            "  --trans N|T       getrs only: solve A*X = B or A**T*X = B (default N)\n"
            "  --device SPEC     nvidia, pocl, gpu, cpu or P:D (default: BCHOL_DEVICE, else "
            "first GPU, else CPU)\n"
            "  --reps R          timed runs per size, 1 to 10000; the median is reported (default 10)\n"
            "  --warmup W        untimed runs first, 0 to 10000 (default 2)\n"
            "  --seed S          of the random matrices (default 1; size n draws from S*1000003 + n)\n"
            "  --compare lapack  also run LAPACKE per matrix in an OpenMP loop: ?getrf, ?getrs on\n"
            "                    bchol's factors, ?gesv, ?getrf + ?getri (against getrf + getri)\n"
            "  --variant V       getrf's variant in every routine: auto (default), fused (the\n"
            "                    matrix in local memory), blocked, workitem (a work-item per\n"
            "                    matrix, for CPUs) or regs (a work-item per row held in\n"
            "                    registers, for small n on GPUs); --tbc: their matrices per\n"
            "                    work-group\n"
            "  --nb NB --gemm own|clblast   the blocked variant's panel width (1..64) and update\n"
            "  --lx LX --tbc T   the fused kernel's work-items per matrix (1..1024) and matrices\n"
            "                    per work-group (1..64); all default to the library's choice\n"
            "  --explain         print, per size, which tuning file and entry chose getrf's\n"
            "                    variant and parameters, or that the backend defaults apply;\n"
            "                    for getrs and gesv also the solve's shape (getrs entry or defaults)\n"
            "A size the device cannot factor (--variant fused: the matrix must fit local memory;\n"
            "regs: a work-item per row must fit one work-group)\n"
            "prints a row \"unsupported\", which alone does not fail the run; getrs and getri then\n"
            "solve with LAPACKE's factors where bchol was built with it (the row says so).\n");
}

int bench_lu_requested(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--routine"))
            for (int k = 0; routines[k]; k++)
                if (!strcmp(argv[i + 1], routines[k])) return 1;
    return 0;
}

static int parse(int argc, char **argv, lu_options *o)
{
    static const char *const peers[] = {"lapack", NULL};
    memset(o, 0, sizeof *o);
    o->routine = GETRF;
    o->precision = 's';
    o->trans = 'N';
    o->nrhs = 1;
    o->reps = 10;
    o->warmup = 2;
    o->seed = 1;
    o->nsizes = util_parse_sizes("4:512", o->sizes, MAX_SIZES);
    opt_reader r;
    int more, bad = 0, w;
    /* bench's other modes' flags, read so that they are refused by name below */
    static const char *const flags[] = {"--solve", "--vbatched", "--explain", NULL};
    opt_begin(&r, "bench --routine", argc, argv, flags);
    while (!bad && (more = opt_next(&r)) > 0) {
        const char *k = r.key;
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(k, "--routine")) {
            bad = (w = opt_word(&r, routines)) < 0;
            o->routine = w;
        } else if (!strcmp(k, "--n")) bad = opt_sizes(&r, 1, OPT_MAX_N, o->sizes, MAX_SIZES, &o->nsizes);
        else if (!strcmp(k, "--batch")) bad = opt_llong(&r, 1, OPT_MAX_BATCH, &o->batch);
        else if (!strcmp(k, "--precision")) bad = opt_char(&r, "sd", &o->precision);
        else if (!strcmp(k, "--nrhs")) {
            bad = opt_int(&r, 1, OPT_MAX_NRHS, &o->nrhs);
            o->nrhs_given = 1;
        } else if (!strcmp(k, "--trans")) {
            bad = opt_char(&r, "NT", &o->trans);
            o->trans_given = 1;
        } else if (!strcmp(k, "--device")) o->device = r.value;
        else if (!strcmp(k, "--reps")) bad = opt_int(&r, 1, OPT_MAX_REPS, &o->reps);
        else if (!strcmp(k, "--warmup")) bad = opt_int(&r, 0, OPT_MAX_REPS, &o->warmup);
        else if (!strcmp(k, "--seed")) bad = opt_u64(&r, &o->seed);
        else if (!strcmp(k, "--compare")) {
            bad = opt_word(&r, peers) < 0;
            o->compare = 1;
        } else if (!strcmp(k, "--variant")) bad = (o->variant = opt_word(&r, variants)) < 0;
        else if (!strcmp(k, "--nb")) bad = opt_int(&r, 1, 64, &o->nb);
        else if (!strcmp(k, "--gemm")) {
            bad = (w = opt_word(&r, gemms)) < 0;
            o->gemm = w + 1;
        } else if (!strcmp(k, "--lx")) bad = opt_int(&r, 1, 1024, &o->lx);
        else if (!strcmp(k, "--tbc")) bad = opt_int(&r, 1, 64, &o->tbc);
        else if (!strcmp(k, "--explain")) o->explain = 1;
        else if (r.value == NULL) /* one of the flags above */
            bad = opt_bad(&r, "does not apply to the LU routines (bchol bench --routine %s --help)",
                          routines[o->routine]);
        else bad = opt_bad(&r, "unknown option (bchol bench --routine %s --help)", routines[o->routine]);
    }
    if (bad || more < 0) return -1;
    /* an option the routine has no use for would be silently ignored: refuse it */
    if (o->nrhs_given && o->routine != GETRS && o->routine != GESV) {
        fprintf(stderr, "bchol bench --routine: --nrhs applies to getrs and gesv, not %s\n",
                routines[o->routine]);
        return -1;
    }
    if (o->trans_given && o->routine != GETRS) {
        fprintf(stderr, "bchol bench --routine: --trans applies to getrs, not %s\n",
                routines[o->routine]);
        return -1;
    }
    if ((o->nb || o->gemm) && o->variant != 2) {
        fprintf(stderr, "bchol bench --routine: --nb and --gemm apply to --variant blocked\n");
        return -1;
    }
    if (o->lx && (o->variant == 3 || o->variant == 4)) {
        fprintf(stderr, "bchol bench --routine: --lx does not apply to --variant %s\n",
                variants[o->variant]);
        return -1;
    }
    /* what the library reads (host/lu/getrf_batched.c, BCHOL_GETRF) */
    if (o->variant || o->lx || o->tbc) {
        char *e = o->getrf_env;
        const size_t size = sizeof o->getrf_env;
        int len = snprintf(e, size, "%s", variants[o->variant]);
        if (o->nb) len += snprintf(e + len, size - (size_t)len, ",nb=%d", o->nb);
        if (o->gemm) len += snprintf(e + len, size - (size_t)len, ",gemm=%s", gemms[o->gemm - 1]);
        if (o->lx) len += snprintf(e + len, size - (size_t)len, ",lx=%d", o->lx);
        if (o->tbc) snprintf(e + len, size - (size_t)len, ",tbc=%d", o->tbc);
    }
    return 0;
}

typedef struct {
    long long batch;
    double ms, inv_ms, residual, peer_ms;
    int ok, unsupported, peer_ok, lapack_factors;
} lu_row;

static bchol_status call_getrf(bchol_context *ctx, int dbl, int n, cl_mem A, cl_mem P,
                               long long batch, cl_mem info)
{
    const int64_t sa = (int64_t)n * n;
    return dbl ? bchol_dgetrf_batched(ctx, n, n, A, 0, n, sa, P, 0, n, batch, info, NULL)
               : bchol_sgetrf_batched(ctx, n, n, A, 0, n, sa, P, 0, n, batch, info, NULL);
}

static bchol_status call_getrs(bchol_context *ctx, int dbl, char trans, int n, int k, cl_mem A,
                               cl_mem P, cl_mem B, long long batch)
{
    const int64_t sa = (int64_t)n * n, sb = (int64_t)n * k;
    return dbl ? bchol_dgetrs_batched(ctx, trans, n, k, A, 0, n, sa, P, 0, n, B, 0, n, sb, batch, NULL)
               : bchol_sgetrs_batched(ctx, trans, n, k, A, 0, n, sa, P, 0, n, B, 0, n, sb, batch, NULL);
}

static bchol_status call_gesv(bchol_context *ctx, int dbl, int n, int k, cl_mem A, cl_mem P,
                              cl_mem B, long long batch, cl_mem info)
{
    const int64_t sa = (int64_t)n * n, sb = (int64_t)n * k;
    return dbl ? bchol_dgesv_batched(ctx, n, k, A, 0, n, sa, P, 0, n, B, 0, n, sb, batch, info, NULL)
               : bchol_sgesv_batched(ctx, n, k, A, 0, n, sa, P, 0, n, B, 0, n, sb, batch, info, NULL);
}

static bchol_status call_getri(bchol_context *ctx, int dbl, int n, cl_mem A, cl_mem P, cl_mem C,
                               long long batch, cl_mem info)
{
    const int64_t sa = (int64_t)n * n;
    return dbl ? bchol_dgetri_batched(ctx, n, A, 0, n, sa, P, 0, n, C, 0, n, sa, batch, info, NULL)
               : bchol_sgetri_batched(ctx, n, A, 0, n, sa, P, 0, n, C, 0, n, sa, batch, info, NULL);
}

/* Index of the s-th matrix of the sample. */
static long long sample_at(int s, long long batch)
{
    return batch <= SAMPLE ? s : (long long)s * (batch - 1) / (SAMPLE - 1);
}

/* Worst residual over the sample: the factors f with pivots ipiv (getrf), the solutions x
 * (getrs, gesv) or the inverses f (getri) of the matrices a (right-hand sides b0). */
static double sample_residual(const lu_options *o, int n, const void *a, const void *f,
                              const int *ipiv, const void *b0, const void *x, long long batch)
{
    const int dbl = o->precision == 'd', k = o->nrhs;
    const size_t es = dbl ? 8 : 4, per_a = (size_t)n * n * es, per_b = (size_t)n * k * es;
    double worst = 0;
    for (int s = 0; s < SAMPLE && s < batch; s++) {
        const long long b = sample_at(s, batch);
        const char *ab = (const char *)a + b * per_a;
        double r;
        if (o->routine == GETRF)
            r = util_lu_residual(ab, (const char *)f + b * per_a, ipiv + b * n, dbl, n, n);
        else if (o->routine == GETRI)
            r = util_inv_residual(ab, (const char *)f + b * per_a, dbl, n, n, n);
        else
            r = util_lu_solve_residual(ab, dbl, o->routine == GETRS ? o->trans : 'N', n, n, k,
                                       (const char *)x + b * per_b, n, (const char *)b0 + b * per_b, n);
        if (!(r <= worst)) worst = r;
    }
    return worst;
}

static int all_zero(const int *info, long long batch)
{
    for (long long b = 0; b < batch; b++)
        if (info[b]) return 0;
    return 1;
}

static int bench_one(bchol_context *ctx, const lu_options *o, int n, lu_row *row)
{
    const int dbl = o->precision == 'd', rt = o->routine;
    const int has_b = rt == GETRS || rt == GESV, k = has_b ? o->nrhs : 0;
    const size_t es = dbl ? 8 : 4, per_a = (size_t)n * n * es, per_b = (size_t)n * k * es;
    const size_t per_p = (size_t)n * sizeof(int);
    bchol_device_info dev;
    bchol_context_device_info(ctx, &dev);
    row->inv_ms = NAN;
    if (per_a > dev.max_alloc || per_b > dev.max_alloc) {
        fprintf(stderr, "bchol bench --routine %s: n = %d: one matrix exceeds the device's largest "
                        "allocation (%llu bytes)\n", routines[rt], n, (unsigned long long)dev.max_alloc);
        return -1;
    }
    /* A and its pristine copy (and getri's C), B and its copy, pivots, info: each buffer
     * within one allocation, all within half the memory. Divided, not multiplied: the
     * products wrap for a large --batch. */
    long long batch = o->batch ? o->batch : util_bench_batch(n);
    const uint64_t per = (rt == GETRI ? 3 : 2) * (uint64_t)per_a + 2 * (uint64_t)per_b + per_p + sizeof(int);
    const uint64_t big = per_a > per_b ? per_a : per_b;
    if ((uint64_t)batch > dev.max_alloc / big) batch = (long long)(dev.max_alloc / big);
    if ((uint64_t)batch > dev.max_alloc / per_p) batch = (long long)(dev.max_alloc / per_p);
    if ((uint64_t)batch > dev.global_mem / 2 / per) batch = (long long)(dev.global_mem / 2 / per);
    if (batch < 1) batch = 1;
    row->batch = batch;

    const size_t bytes_a = (size_t)batch * per_a, bytes_b = (size_t)batch * per_b;
    const size_t bytes_p = (size_t)batch * per_p, bytes_i = (size_t)batch * sizeof(int);
    void *a = malloc(bytes_a), *f = malloc(bytes_a), *b0 = malloc(bytes_b + 1), *x = malloc(bytes_b + 1);
    int *ipiv = malloc(bytes_p), *info = malloc(bytes_i);
    double *times = malloc((size_t)o->reps * sizeof *times), *times2 = malloc((size_t)o->reps * sizeof *times2);
    if (!a || !f || !b0 || !x || !ipiv || !info || !times || !times2) {
        fprintf(stderr, "bchol bench --routine %s: out of host memory for n = %d\n", routines[rt], n);
        free(a), free(f), free(b0), free(x), free(ipiv), free(info), free(times), free(times2);
        return -1;
    }
    util_rng rng;
    util_rng_seed(&rng, o->seed * 1000003u + (uint64_t)n);
    for (long long b = 0; b < batch; b++) util_fill_uniform((char *)a + b * per_a, dbl, n, n, n, &rng);
    for (long long b = 0; has_b && b < batch; b++)
        util_fill_uniform((char *)b0 + b * per_b, dbl, n, k, n, &rng);

    cl_int err = CL_SUCCESS;
    cl_context cl = bchol_context_cl_context(ctx);
    cl_command_queue q = bchol_context_queue(ctx);
    cl_mem dA0 = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes_a, a, &err);
    cl_mem dA = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes_a, NULL, &err);
    cl_mem dP = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes_p, NULL, &err);
    cl_mem dI = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes_i, NULL, &err);
    cl_mem dB0 = has_b ? clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes_b, b0, &err) : NULL;
    cl_mem dB = has_b ? clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes_b, NULL, &err) : NULL;
    cl_mem dC = rt == GETRI ? clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes_a, NULL, &err) : NULL;
    bchol_status st = BCHOL_SUCCESS;
    int setup_failed = 0;
    if (!dA0 || !dA || !dP || !dI || (has_b && (!dB0 || !dB)) || (rt == GETRI && !dC)) {
        fprintf(stderr, "bchol bench --routine %s: device buffers for n = %d: OpenCL error %d\n",
                routines[rt], n, err);
        setup_failed = 1;
        st = BCHOL_ERR_OUT_OF_MEMORY;
    }
    bchol_context_set_timing(ctx, 1);

    /* getrs and getri: the factors once, untimed. Where bchol's getrf cannot take n, LAPACKE's
     * factors (the same format) let the solve be timed still. */
    if (!st && (rt == GETRS || rt == GETRI)) {
        clEnqueueCopyBuffer(q, dA0, dA, 0, 0, bytes_a, 0, NULL, NULL);
        st = call_getrf(ctx, dbl, n, dA, dP, batch, dI);
        if (st == BCHOL_ERR_UNSUPPORTED_SIZE && cpu_peer_available()) {
            memcpy(f, a, bytes_a);
            cpu_peer_getrf(dbl, n, f, n, (int64_t)n * n, ipiv, n, batch, info);
            clEnqueueWriteBuffer(q, dA, CL_TRUE, 0, bytes_a, f, 0, NULL, NULL);
            clEnqueueWriteBuffer(q, dP, CL_TRUE, 0, bytes_p, ipiv, 0, NULL, NULL);
            clEnqueueWriteBuffer(q, dI, CL_TRUE, 0, bytes_i, info, 0, NULL, NULL);
            row->lapack_factors = 1;
            st = BCHOL_SUCCESS;
        }
        clFinish(q);
    }
    for (int r = 0; r < o->warmup + o->reps && !st; r++) {
        double ms = 0, ms_getrf = 0;
        if (rt == GETRF || rt == GESV || (rt == GETRI && !row->lapack_factors))
            clEnqueueCopyBuffer(q, dA0, dA, 0, 0, bytes_a, 0, NULL, NULL);
        if (has_b) clEnqueueCopyBuffer(q, dB0, dB, 0, 0, bytes_b, 0, NULL, NULL);
        clFinish(q);
        switch (rt) {
        case GETRF: st = call_getrf(ctx, dbl, n, dA, dP, batch, dI); break;
        case GETRS: st = call_getrs(ctx, dbl, o->trans, n, k, dA, dP, dB, batch); break;
        case GESV: st = call_gesv(ctx, dbl, n, k, dA, dP, dB, batch, dI); break;
        default:
            if (!row->lapack_factors) {
                st = call_getrf(ctx, dbl, n, dA, dP, batch, dI);
                if (!st) st = bchol_last_call_ms(ctx, &ms_getrf);
            }
            if (!st) st = call_getri(ctx, dbl, n, dA, dP, dC, batch, dI);
        }
        if (!st) st = bchol_last_call_ms(ctx, &ms);
        if (r >= o->warmup) {
            times[r - o->warmup] = ms;
            times2[r - o->warmup] = ms_getrf + ms;
        }
    }
    if (st) {
        if (st == BCHOL_ERR_UNSUPPORTED_SIZE) row->unsupported = 1;
        if (!setup_failed)
            fprintf(stderr, "bchol bench --routine %s: n = %d: %s: %s\n", routines[rt], n,
                    bchol_status_string(st), bchol_last_error(ctx));
    } else {
        row->ms = util_median(times, o->reps);
        if (rt == GETRI && !row->lapack_factors) row->inv_ms = util_median(times2, o->reps);
        clEnqueueReadBuffer(q, rt == GETRI ? dC : dA, CL_TRUE, 0, bytes_a, f, 0, NULL, NULL);
        clEnqueueReadBuffer(q, dP, CL_TRUE, 0, bytes_p, ipiv, 0, NULL, NULL);
        clEnqueueReadBuffer(q, dI, CL_TRUE, 0, bytes_i, info, 0, NULL, NULL);
        if (has_b) clEnqueueReadBuffer(q, dB, CL_TRUE, 0, bytes_b, x, 0, NULL, NULL);
        row->residual = sample_residual(o, n, a, f, ipiv, b0, x, batch);
        row->ok = all_zero(info, batch) && row->residual <= 30.0;
    }
    if (o->compare && !st) {
        const int64_t sa = (int64_t)n * n, sb = (int64_t)n * k;
        if (rt == GETRS) clEnqueueReadBuffer(q, dA, CL_TRUE, 0, bytes_a, f, 0, NULL, NULL); /* factors */
        int peer_info_ok = 1;
        for (int r = 0; r < o->warmup + o->reps; r++) {
            double ms;
            if (rt != GETRS) memcpy(f, a, bytes_a);
            if (has_b) memcpy(x, b0, bytes_b);
            switch (rt) {
            case GETRF: ms = cpu_peer_getrf(dbl, n, f, n, sa, ipiv, n, batch, info); break;
            case GETRS: ms = cpu_peer_getrs(dbl, o->trans, n, k, f, n, sa, ipiv, n, x, n, sb, batch); break;
            case GESV: ms = cpu_peer_gesv(dbl, n, k, f, n, sa, ipiv, n, x, n, sb, batch, info); break;
            default: ms = cpu_peer_getrf_getri(dbl, n, f, n, sa, ipiv, n, batch, info);
            }
            if (rt != GETRS) peer_info_ok &= all_zero(info, batch);
            if (r >= o->warmup) times[r - o->warmup] = ms;
        }
        row->peer_ms = util_median(times, o->reps);
        row->peer_ok = peer_info_ok && sample_residual(o, n, a, f, ipiv, b0, x, batch) <= 30.0;
    }
    cl_mem made[] = {dA0, dA, dP, dI, dB0, dB, dC};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        if (made[i]) clReleaseMemObject(made[i]);
    free(a), free(f), free(b0), free(x), free(ipiv), free(info), free(times), free(times2);
    return st ? -1 : 0;
}

/* Flops per matrix of the timed routine (getri: alone) and of the inverse from A. */
static double flops(const lu_options *o, int n)
{
    const double n3 = (double)n * n * n, n2k = 2.0 * n * n * o->nrhs;
    switch (o->routine) {
    case GETRF: return 2.0 * n3 / 3.0;
    case GETRS: return n2k;
    case GESV: return 2.0 * n3 / 3.0 + n2k;
    default: return 4.0 * n3 / 3.0;
    }
}

int bench_lu(int argc, char **argv)
{
    lu_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed) return parsed > 0 ? 0 : 2;
    const int rt = o.routine, has_b = rt == GETRS || rt == GESV;
    const char *name = routines[rt];
    if (o.compare && !cpu_peer_available()) {
        fprintf(stderr, "bchol bench: built without LAPACKE/OpenMP; --compare lapack is unavailable\n");
        return 2;
    }
    bchol_context *ctx;
    if (*o.getrf_env) setenv("BCHOL_GETRF", o.getrf_env, 1);
    bchol_status st = bchol_context_create(o.device, &ctx);
    if (st) {
        fprintf(stderr, "bchol bench --routine %s: %s: %s\n", name, bchol_status_string(st),
                bchol_last_error(NULL));
        return 1;
    }
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    const char p = o.precision;
    printf("# device %d:%d %s (%s, %s %s, driver %s), %s\n", d.platform_index, d.device_index,
           d.raw_name, d.family, d.vendor, *d.architecture ? d.architecture : "-", d.driver, date);
    switch (rt) {
    case GETRF: printf("# %cgetrf_batched (m = n)", p); break;
    case GETRS: printf("# %cgetrs_batched trans=%c nrhs=%d on getrf's factors (made once, untimed)", p, o.trans, o.nrhs); break;
    case GESV: printf("# %cgesv_batched nrhs=%d (getrf and getrs in one call)", p, o.nrhs); break;
    default: printf("# %cgetri_batched (ms) and %cgetrf_batched + %cgetri_batched (inv_ms)", p, p, p);
    }
    printf(", median of %d runs after %d warm-up, device time from OpenCL profiling events; getrf "
           "%s\n", o.reps, o.warmup, *o.getrf_env ? o.getrf_env : "as the library chooses");
    printf("# A%s uniform in [-1, 1), seed %llu; ", has_b ? " and B" : "", (unsigned long long)o.seed);
    switch (rt) {
    case GETRF: printf("Gflop/s count 2n^3/3 per matrix; residual ||P*A - L*U||_1 / (n ||A||_1 eps)"); break;
    case GETRS:
        printf("Gflop/s count 2n^2*nrhs; residual ||B - op(A)*X||_1 / (||op(A)||_1 ||X||_1 eps)");
        break;
    case GESV: printf("Gflop/s count 2n^3/3 + 2n^2*nrhs; residual ||B - A*X||_1 / (||A||_1 ||X||_1 eps)"); break;
    default:
        printf("Gflop/s count 4n^3/3 (getri alone) and 2n^3 (inv_Gf: the inverse from A, torch.linalg.inv_ex's "
               "count); residual ||I - A*C||_1 / (n ||A||_1 ||C||_1 eps)");
    }
    printf(", worst of a sample of %d; ok: <= 30 and every info 0\n", SAMPLE);
    if (o.compare) {
        if (rt == GETRI)
            printf("# peer: LAPACKE %cgetrf + %cgetri per matrix (against inv_ms)", p, p);
        else
            printf("# peer: LAPACKE %c%s per matrix%s", p, name, rt == GETRS ? " on bchol's factors" : "");
        printf(", OpenMP dynamic loop, %d threads one per core (%s)\n", cpu_peer_threads(),
               cpu_topology_describe());
    }
    printf("%6s %8s", "n", "batch");
    if (has_b) printf(" %5s", "nrhs");
    printf(" %10s %10s", "ms", "Gflop/s");
    if (rt == GETRI) printf(" %10s %10s", "inv_ms", "inv_Gf");
    printf(" %9s %-11s", "residual", "check");
    if (o.compare)
        printf(rt == GETRI ? " %13s %12s %11s" : " %10s %10s %8s", rt == GETRI ? "lapack_inv_ms" : "lapack_ms",
               rt == GETRI ? "lapack_inv_Gf" : "lapack_Gf", rt == GETRI ? "inv_speedup" : "speedup");
    printf("\n");
    int failed = 0;
    for (int i = 0; i < o.nsizes; i++) {
        lu_row row = {0};
        const int n = o.sizes[i];
        if (o.explain) {
            /* what getrf's dispatcher takes for this size (BCHOL_GETRF from --variant too) */
            bchol_getrf_config c;
            const char *source = "";
            if (bchol_getrf_config_for(ctx, p, n, n, &c, &source))
                printf("#   n = %d: %s\n", n, bchol_last_error(ctx));
            else
                printf("#   n = %d: getrf: %s\n", n, source);
            /* and the solve's substitution shape (the getrs entry or the defaults) */
            bchol_solve_params sp;
            if (rt == GETRS || rt == GESV) {
                if (bchol_getrs_params(ctx, p, rt == GETRS ? o.trans : 'N', n, o.nrhs, &sp, &source))
                    printf("#   n = %d: %s\n", n, bchol_last_error(ctx));
                else
                    printf("#   n = %d: getrs: %s\n", n, source);
            }
            /* and getri's path (the getri entry or the defaults) */
            bchol_getri_config gc;
            if (rt == GETRI && n > 0) {
                if (bchol_getri_config_for(ctx, p, n, &gc, &source))
                    printf("#   n = %d: %s\n", n, bchol_last_error(ctx));
                else
                    printf("#   n = %d: getri: %s\n", n, source);
            }
        }
        const int bad = bench_one(ctx, &o, n, &row);
        printf("%6d %8lld", n, row.batch);
        if (has_b) printf(" %5d", o.nrhs);
        if (bad) {
            printf(" %10s %10s", "-", "-");
            if (rt == GETRI) printf(" %10s %10s", "-", "-");
            printf(" %9s %-11s\n", "-", row.unsupported ? "unsupported" : "FAILED");
            failed |= !row.unsupported;
            fflush(stdout);
            continue;
        }
        printf(" %10.4f %10.2f", row.ms, row.batch * flops(&o, n) / (row.ms * 1e6));
        const double inv_flops = 2.0 * n * n * n;
        if (rt == GETRI && isnan(row.inv_ms)) printf(" %10s %10s", "-", "-");
        else if (rt == GETRI) printf(" %10.4f %10.2f", row.inv_ms, row.batch * inv_flops / (row.inv_ms * 1e6));
        printf(" %9.3g %-11s", row.residual, row.ok ? "ok" : "FAILED");
        if (o.compare) {
            const double peer_flops = rt == GETRI ? inv_flops : flops(&o, n);
            const double ours = rt == GETRI ? row.inv_ms : row.ms;
            printf(rt == GETRI ? " %13.4f %12.2f" : " %10.4f %10.2f", row.peer_ms,
                   row.batch * peer_flops / (row.peer_ms * 1e6));
            if (isnan(ours)) printf(rt == GETRI ? " %11s" : " %8s", "-");
            else printf(rt == GETRI ? " %10.2fx" : " %7.2fx", row.peer_ms / ours);
            if (!row.peer_ok) printf(" (peer check failed)");
        }
        if (row.lapack_factors)
            printf(" (factors from LAPACKE: bchol's getrf does not take n = %d here)", n);
        printf("\n");
        fflush(stdout);
        failed |= !row.ok;
    }
    bchol_context_destroy(ctx);
    return failed;
}
