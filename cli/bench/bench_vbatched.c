/*
 * bchol bench --vbatched: times bchol_{s,d}potrf_vbatched_ex on batches of random orders
 * (uniform or Gaussian in [1, nmax]) and prints one row per nmax and fused-kernel packing
 * (--tbc and --shape lists: matrices per work-group and work-group shape): Gflop/s of the
 * four ETM/scheduling versions and of the fixed-size routine on the same batch padded to
 * nmax with the identity, all counted on the real orders (sum of n^3/3), the default
 * version's speed-up over the padded run and the faster lazy version's over greedy-classic
 * (the trends of Abdelfattah et al. 2016, Figures 4 and 6, and the aims of issue 3);
 * "default" names the library's default version, the one default_ms times; last, the
 * two ETM versions of the ONE_LAUNCH schedule (every step in one launch). With --variant LIST it times the listed variants instead
 * (fused, separate, auto: the batch split at the crossover), each with its default
 * version, and auto against the better of fused and separate. Device time from OpenCL
 * profiling events, median after warm-up; a vbatched time includes its device-side
 * argument checks. --compare lapack adds the CPU peer on the same matrices: one LAPACKE
 * potrf per matrix at its real order, in an OpenMP loop over the physical cores (wall time).
 */
#include "bchol.h"
#include "bchol_util.h"
#include "options.h"
#include "commands.h"
#include "cpu_peer.h"
#include "cpu_topology.h"
#include "bench_vb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 64
#define SAMPLE 16 /* matrices whose backward error is checked */
#define MAX_CONFIGS 8 /* values of --tbc and of --shape */

typedef struct {
    const char *device;
    char precision, uplo;
    util_dist dist;
    int nmax[MAX_SIZES], count;
    long long batch;
    int reps, warmup, pad, compare;
    unsigned long long seed;
    bchol_params fused;
    bchol_variant variants[4]; /* --variant: the variants timed instead of the versions */
    int nvariants, crossover;
    int tbc[MAX_CONFIGS], ntbc;     /* --tbc: 0 is the library's choice */
    int shape[MAX_CONFIGS], nshape; /* --shape: 0 is the library's choice */
    int order[3], norder;           /* --order: 0 is the library's choice */
} vb_options;

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: bchol bench --vbatched [options]\n"
        "  --dist uniform|gaussian  orders in [1, nmax]: uniform, or normal with mean nmax/2\n"
        "                           and deviation nmax/6, clipped (default uniform)\n"
        "  --nmax LIST       largest orders in [1, 46340]: a,b,c | a:b (doubling) | a:b:step,\n"
        "                    at most 256 (default 32:512)\n"
        "  --batch B         matrices per run, 1 to 2^40; batch nmax-by-nmax matrices must fit\n"
        "                    one device allocation (default 3000)\n"
        "  --precision s|d   (default s)\n"
        "  --uplo L|U        (default L)\n"
        "  --device SPEC     nvidia, pocl, gpu, cpu or P:D\n"
        "  --reps R          timed runs, 1 to 10000; the median is reported (default 10)\n"
        "  --warmup W        untimed runs first, 0 to 10000 (default 2)\n"
        "  --no-pad          skip the padded fixed-size run\n"
        "  --seed X          of the random orders (default 1)\n"
        "  --compare lapack  also run one LAPACKE potrf per matrix (real orders) in an OpenMP loop\n"
        "  --ib IB --rpt R   fused-kernel parameters of all versions (default: the library's)\n"
        "  --tbc LIST        matrices per work-group of the fused kernel, e.g. 1,2,4,8 or 1:8;\n"
        "                    0 = the library's choice (default); one row per value\n"
        "  --shape LIST      default,fixed,shrink,pack: work-group shapes of the fused kernel\n"
        "                    (default: the library's); one row per shape and tbc\n"
        "  --order LIST      default,index,steps: which matrices share a work-group (default:\n"
        "                    the library's); one row per order, shape and tbc\n"
        "  --variant LIST    fused,separate,auto,workitem: time these variants instead of the\n"
        "                    four versions; fused is skipped where it cannot hold nmax\n"
        "  --crossover C     auto: largest n of the fused share (default: the device's)\n"
        "  --nb NB --pb PB --tile T               separate-variant parameters\n");
}

static const char *const shape_names[] = {"-", "fixed", "shrink", "pack"};

static const char *variant_name(bchol_variant v)
{
    return v == BCHOL_VARIANT_FUSED      ? "fused"
           : v == BCHOL_VARIANT_SEPARATE ? "separate"
           : v == BCHOL_VARIANT_WORKITEM ? "workitem"
                                         : "auto";
}

static int parse(int argc, char **argv, vb_options *o)
{
    static const char *const flags[] = {"--vbatched", "--no-pad", NULL};
    static const char *const dists[] = {"uniform", "gaussian", NULL};
    static const char *const peers[] = {"lapack", NULL};
    static const char *const variants[] = {"fused", "separate", "auto", "workitem", NULL};
    static const bchol_variant variant_of[] = {BCHOL_VARIANT_FUSED, BCHOL_VARIANT_SEPARATE,
                                               BCHOL_VARIANT_AUTO, BCHOL_VARIANT_WORKITEM};
    static const char *const shapes[] = {"default", "fixed", "shrink", "pack", NULL};
    static const char *const orders[] = {"default", "index", "steps", NULL};
    static const int order_of[] = {0, BCHOL_ORDER_INDEX, BCHOL_ORDER_STEPS};
    memset(o, 0, sizeof *o);
    o->precision = 's';
    o->uplo = 'L';
    o->batch = 3000;
    o->reps = 10;
    o->warmup = 2;
    o->pad = 1;
    o->seed = 1;
    o->count = util_parse_sizes("32:512", o->nmax, MAX_SIZES);
    o->ntbc = o->nshape = o->norder = 1; /* the library's tbc, shape and order */
    opt_reader r;
    int more, bad = 0, w, idx[MAX_CONFIGS];
    opt_begin(&r, "bench --vbatched", argc, argv, flags);
    while (!bad && (more = opt_next(&r)) > 0) {
        const char *k = r.key;
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(k, "--vbatched")) continue;
        if (!strcmp(k, "--no-pad")) o->pad = 0;
        else if (!strcmp(k, "--nmax")) bad = opt_sizes(&r, 1, OPT_MAX_N, o->nmax, MAX_SIZES, &o->count);
        else if (!strcmp(k, "--dist")) {
            bad = (w = opt_word(&r, dists)) < 0;
            o->dist = w == 1 ? UTIL_DIST_GAUSSIAN : UTIL_DIST_UNIFORM;
        } else if (!strcmp(k, "--batch")) bad = opt_llong(&r, 1, OPT_MAX_BATCH, &o->batch);
        else if (!strcmp(k, "--precision")) bad = opt_char(&r, "sd", &o->precision);
        else if (!strcmp(k, "--uplo")) bad = opt_char(&r, "LU", &o->uplo);
        else if (!strcmp(k, "--device")) o->device = r.value;
        else if (!strcmp(k, "--reps")) bad = opt_int(&r, 1, OPT_MAX_REPS, &o->reps);
        else if (!strcmp(k, "--warmup")) bad = opt_int(&r, 0, OPT_MAX_REPS, &o->warmup);
        else if (!strcmp(k, "--seed")) {
            uint64_t seed = 0;
            bad = opt_u64(&r, &seed);
            o->seed = seed;
        }
        else if (!strcmp(k, "--compare")) {
            bad = opt_word(&r, peers) < 0;
            o->compare = 1;
        } else if (!strcmp(k, "--ib")) bad = opt_int(&r, 1, 32, &o->fused.ib);
        else if (!strcmp(k, "--nb")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->fused.nb);
        else if (!strcmp(k, "--pb")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->fused.pb);
        else if (!strcmp(k, "--tile")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->fused.tile);
        else if (!strcmp(k, "--crossover")) bad = opt_int(&r, 0, OPT_MAX_N, &o->crossover);
        else if (!strcmp(k, "--rpt")) bad = opt_int(&r, 1, OPT_MAX_PARAM, &o->fused.rpt);
        else if (!strcmp(k, "--variant")) {
            bad = opt_word_list(&r, variants, idx, 4, &o->nvariants);
            for (int t = 0; !bad && t < o->nvariants; t++) o->variants[t] = variant_of[idx[t]];
        } else if (!strcmp(k, "--shape")) {
            bad = opt_word_list(&r, shapes, idx, MAX_CONFIGS, &o->nshape);
            for (int t = 0; !bad && t < o->nshape; t++) o->shape[t] = idx[t];
        } else if (!strcmp(k, "--order")) {
            bad = opt_word_list(&r, orders, idx, 3, &o->norder);
            for (int t = 0; !bad && t < o->norder; t++) o->order[t] = order_of[idx[t]];
        } else if (!strcmp(k, "--tbc")) {
            bad = opt_sizes(&r, 0, 64, o->tbc, MAX_CONFIGS, &o->ntbc);
        } else bad = opt_bad(&r, "unknown option (bchol bench --vbatched --help)");
    }
    if (bad || more < 0) return -1;
    if (o->nvariants && o->ntbc * o->nshape * o->norder > 1) {
        fprintf(stderr, "bchol bench --vbatched: --variant takes one --tbc, --shape and --order\n");
        return -1;
    }
    return 0;
}

/* The seed's four versions in its order, then one launch for every step (printed after
 * the columns that scripts read by position). */
enum { NVERSIONS = 6 };
static const struct {
    const char *name;
    bchol_schedule schedule;
    bchol_etm etm;
} versions[NVERSIONS] = {{"greedy-cl", BCHOL_SCHEDULE_GREEDY, BCHOL_ETM_CLASSIC},
                         {"greedy-ag", BCHOL_SCHEDULE_GREEDY, BCHOL_ETM_AGGRESSIVE},
                         {"lazy-cl", BCHOL_SCHEDULE_LAZY, BCHOL_ETM_CLASSIC},
                         {"lazy-ag", BCHOL_SCHEDULE_LAZY, BCHOL_ETM_AGGRESSIVE},
                         {"one-cl", BCHOL_SCHEDULE_ONE_LAUNCH, BCHOL_ETM_CLASSIC},
                         {"one-ag", BCHOL_SCHEDULE_ONE_LAUNCH, BCHOL_ETM_AGGRESSIVE}};

typedef struct {
    long long batch;
    int max_n;
    double flops, gflops[NVERSIONS], pad_gflops, default_ms, error, peer_gflops;
    int ok, pad_ok, default_version, peer_ok;
    long long above; /* matrices above the crossover (--variant) */
    int crossover;
    int tbc, shape, order; /* of the fused kernel: the requested values, else the library's */
} vb_row;

/* Median device time of reps runs of fn after warm-up, each on a fresh copy of src. */
typedef bchol_status (*run_fn)(bchol_context *ctx, const void *arg);

static bchol_status time_runs(bchol_context *ctx, const vb_options *o, cl_mem src, cl_mem dst,
                              size_t bytes, run_fn fn, const void *arg, double *ms)
{
    cl_command_queue q = bchol_context_queue(ctx);
    double *t = malloc((size_t)o->reps * sizeof *t);
    bchol_status st = BCHOL_SUCCESS;
    bchol_context_set_timing(ctx, 1);
    for (int r = 0; r < o->warmup + o->reps && !st; r++) {
        clEnqueueCopyBuffer(q, src, dst, 0, 0, bytes, 0, NULL, NULL);
        clFinish(q);
        double v = 0;
        if (!(st = fn(ctx, arg)) && !(st = bchol_last_call_ms(ctx, &v)) && r >= o->warmup)
            t[r - o->warmup] = v;
    }
    if (!st) *ms = util_median(t, o->reps);
    free(t);
    return st;
}

typedef struct {
    const vb_options *o;
    bchol_vbatched_params prm;
    int max_n;
    cl_mem n, lda, off, A, info;
    long long batch;
} vb_call;

static bchol_status run_vbatched(bchol_context *ctx, const void *arg)
{
    const vb_call *c = arg;
    if (c->o->precision == 'd')
        return bchol_dpotrf_vbatched_ex(ctx, &c->prm, c->o->uplo, c->max_n, c->n, c->lda, c->off,
                                        c->A, c->batch, c->info, NULL);
    return bchol_spotrf_vbatched_ex(ctx, &c->prm, c->o->uplo, c->max_n, c->n, c->lda, c->off, c->A,
                                    c->batch, c->info, NULL);
}

typedef struct {
    const vb_options *o;
    int nmax;
    cl_mem A, info;
    long long batch;
} pad_call;

static bchol_status run_padded(bchol_context *ctx, const void *arg)
{
    const pad_call *c = arg;
    const int64_t stride = (int64_t)c->nmax * c->nmax;
    if (c->o->precision == 'd')
        return bchol_dpotrf_batched(ctx, c->o->uplo, c->nmax, c->A, 0, c->nmax, stride, c->batch,
                                    c->info, NULL);
    return bchol_spotrf_batched(ctx, c->o->uplo, c->nmax, c->A, 0, c->nmax, stride, c->batch,
                                c->info, NULL);
}

static cl_mem device_copy(bchol_context *ctx, size_t bytes, const void *host, cl_mem_flags flags)
{
    cl_int err;
    return clCreateBuffer(bchol_context_cl_context(ctx), flags | (host ? CL_MEM_COPY_HOST_PTR : 0),
                          bytes ? bytes : 1, (void *)host, &err);
}

static int all_zero(bchol_context *ctx, cl_mem info, long long batch)
{
    int *h = malloc((size_t)batch * sizeof *h), ok = 1;
    clEnqueueReadBuffer(bchol_context_queue(ctx), info, CL_TRUE, 0, (size_t)batch * sizeof *h, h, 0,
                        NULL, NULL);
    for (long long b = 0; b < batch; b++)
        if (h[b]) ok = 0;
    free(h);
    return ok;
}

/* The padded batch: matrix b in the leading n_b-by-n_b block of nmax-by-nmax, identity
 * below and to the right. Returns 0 when it does not fit the device. */
static int bench_padded(bchol_context *ctx, const vb_options *o, int nmax, const int *n,
                        const int64_t *off, const void *a, vb_row *row)
{
    const int dbl = o->precision == 'd';
    const size_t es = dbl ? 8 : 4, per = (size_t)nmax * nmax * es, bytes = (size_t)o->batch * per;
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    if (bytes > d.max_alloc || 2 * bytes > d.global_mem / 2) return 0;
    char *p = calloc(bytes, 1);
    if (!p) return 0;
    for (long long b = 0; b < o->batch; b++) {
        char *m = p + (size_t)b * per;
        for (int j = 0; j < nmax; j++)
            for (int i = 0; i < nmax; i++) {
                double v = i < n[b] && j < n[b]
                               ? util_get(a, (size_t)off[b] + util_idx(i, j, n[b]), dbl)
                               : i == j;
                util_set(m, util_idx(i, j, nmax), dbl, v);
            }
    }
    cl_mem src = device_copy(ctx, bytes, p, CL_MEM_READ_ONLY),
           dA = device_copy(ctx, bytes, NULL, CL_MEM_READ_WRITE),
           dI = device_copy(ctx, (size_t)o->batch * 4, NULL, CL_MEM_READ_WRITE);
    int done = 0;
    if (src && dA && dI) {
        pad_call c = {o, nmax, dA, dI, o->batch};
        double ms;
        bchol_status st = time_runs(ctx, o, src, dA, bytes, run_padded, &c, &ms);
        if (st) {
            fprintf(stderr, "bchol bench --vbatched: padded nmax = %d: %s: %s\n", nmax,
                    bchol_status_string(st), bchol_last_error(ctx));
        } else {
            row->pad_gflops = row->flops / (ms * 1e6);
            row->pad_ok = all_zero(ctx, dI, o->batch);
            done = 1;
        }
    }
    if (src) clReleaseMemObject(src);
    if (dA) clReleaseMemObject(dA);
    if (dI) clReleaseMemObject(dI);
    free(p);
    return done;
}

/* One batch of orders up to nmax, timed with each packing (o->tbc x o->shape x o->order:
 * rows[k] for tbc o->tbc[k / (nshape * norder)], shape o->shape[k / norder % nshape],
 * order o->order[k % norder]) or, with --variant, each variant (rows[0]); the padded run
 * and the peer once, copied into every row. */
static int bench_nmax(bchol_context *ctx, const vb_options *o, int nmax, vb_row *rows, int nrows)
{
    const int dbl = o->precision == 'd';
    const size_t es = dbl ? 8 : 4;
    const long long batch = o->batch;
    if (bench_vb_fits(ctx, "bchol bench --vbatched", "matrices", batch, nmax, nmax, es))
        return -1;
    int *n = malloc((size_t)batch * sizeof *n);
    int64_t *off = malloc((size_t)batch * sizeof *off);
    if (!n || !off) {
        fprintf(stderr, "bchol bench --vbatched: out of host memory for nmax = %d\n", nmax);
        free(n);
        free(off);
        return -1;
    }
    util_rng rng;
    util_rng_seed(&rng, o->seed * 1000003ULL + (uint64_t)nmax);
    vb_row *row = &rows[0];
    row->batch = batch;
    row->max_n = bench_vb_orders(o->dist, nmax, batch, &rng, n);
    row->flops = 0;
    for (long long b = 0; b < batch; b++) row->flops += util_potrf_flops(n[b]);
    const size_t elems = (size_t)util_pack(n, n, batch, 0, 0, NULL, off), bytes = elems * es;
    void *a = malloc(bytes), *f = malloc(bytes);
    for (long long b = 0; b < batch; b++)
        util_spd_fast((char *)a + (size_t)off[b] * es, dbl, n[b], n[b], &rng);

    cl_mem src = device_copy(ctx, bytes, a, CL_MEM_READ_ONLY),
           dA = device_copy(ctx, bytes, NULL, CL_MEM_READ_WRITE),
           dn = device_copy(ctx, (size_t)batch * 4, n, CL_MEM_READ_ONLY),
           doff = device_copy(ctx, (size_t)batch * 8, off, CL_MEM_READ_ONLY),
           dI = device_copy(ctx, (size_t)batch * 4, NULL, CL_MEM_READ_WRITE);
    int failed = !src || !dA || !dn || !doff || !dI;
    if (failed) fprintf(stderr, "bchol bench --vbatched: device buffers for nmax = %d\n", nmax);

    bchol_vbatched_params dflt;
    bchol_potrf_vbatched_params(ctx, o->precision, row->max_n, batch, &dflt, NULL);
    row->ok = 1;
    row->error = 0;
    if (o->nvariants) {
        row->crossover = o->crossover > 0 ? o->crossover : dflt.crossover;
        for (long long b = 0; b < batch; b++) row->above += n[b] > row->crossover;
    }
    for (int k = 1; k < nrows; k++) rows[k] = *row;
    for (int k = 0; k < nrows && !failed; k++) {
        row = &rows[k];
        const int tbc = o->tbc[k / (o->nshape * o->norder)];
        const int shape = o->shape[k / o->norder % o->nshape], order = o->order[k % o->norder];
        row->tbc = tbc > 0 ? tbc : dflt.fused.tbc;
        row->shape = shape > 0 ? shape : dflt.fused.shape;
        row->order = order > 0 ? order : (int)dflt.order;
        const int runs = o->nvariants ? o->nvariants : NVERSIONS;
        for (int v = 0; v < runs && !failed; v++) {
            /* packed with lda = n: the n array serves as lda too */
            vb_call c = {o,          {o->fused, BCHOL_ETM_DEFAULT, BCHOL_SCHEDULE_DEFAULT, 0,
                                          BCHOL_ORDER_DEFAULT},
                         row->max_n, dn,
                         dn,         doff,
                         dA,         dI,
                         batch};
            c.prm.fused.tbc = tbc;
            c.prm.fused.shape = shape;
            c.prm.order = (bchol_order)order;
            if (o->nvariants) {
                c.prm.fused.variant = o->variants[v];
                c.prm.crossover = o->crossover;
            } else {
                c.prm.etm = versions[v].etm;
                c.prm.schedule = versions[v].schedule;
            }
            double ms;
            bchol_status st = time_runs(ctx, o, src, dA, bytes, run_vbatched, &c, &ms);
            if (st == BCHOL_ERR_UNSUPPORTED_SIZE && o->nvariants) {
                row->gflops[v] = -1; /* the fused kernel cannot hold max_n */
                continue;
            }
            if (st) {
                fprintf(stderr, "bchol bench --vbatched: nmax = %d, tbc %d, %s: %s: %s\n", nmax,
                        row->tbc, o->nvariants ? variant_name(o->variants[v]) : versions[v].name,
                        bchol_status_string(st), bchol_last_error(ctx));
                failed = 1;
                break;
            }
            row->gflops[v] = row->flops / (ms * 1e6);
            if (!o->nvariants && versions[v].schedule == dflt.schedule && versions[v].etm == dflt.etm) {
                row->default_version = v;
                row->default_ms = ms;
            }
            /* every version's result is checked: info, and the backward error of a sample */
            row->ok &= all_zero(ctx, dI, batch);
            clEnqueueReadBuffer(bchol_context_queue(ctx), dA, CL_TRUE, 0, bytes, f, 0, NULL, NULL);
            for (int s = 0; s < SAMPLE && s < batch; s++) {
                long long b = batch <= SAMPLE ? s : (long long)s * (batch - 1) / (SAMPLE - 1);
                size_t at = (size_t)off[b] * es;
                double e =
                    util_backward_error((char *)a + at, (char *)f + at, dbl, o->uplo, n[b], n[b]);
                if (!(e <= row->error)) row->error = e;
            }
        }
        row->ok &= row->error <= 30.0;
    }
    row = &rows[0];
    if (!failed && o->compare) {
        /* the same packed matrices on the host, n serving as lda as above */
        int *info = malloc((size_t)batch * sizeof *info);
        double *t = malloc((size_t)o->reps * sizeof *t);
        if (!info || !t) {
            fprintf(stderr, "bchol bench --vbatched: out of host memory for the peer\n");
            failed = 1;
        }
        for (int r = 0; r < o->warmup + o->reps && !failed; r++) {
            memcpy(f, a, bytes);
            double ms = cpu_peer_potrf_vbatched(dbl, o->uplo, n, n, off, f, batch, info);
            if (r >= o->warmup) t[r - o->warmup] = ms;
        }
        if (!failed) {
            row->peer_gflops = row->flops / (util_median(t, o->reps) * 1e6);
            row->peer_ok = 1;
            for (long long b = 0; b < batch; b++)
                if (info[b]) row->peer_ok = 0;
        }
        free(info);
        free(t);
    }
    row->pad_gflops = -1;
    if (!failed && o->pad && !o->nvariants && !bench_padded(ctx, o, nmax, n, off, a, row)) row->pad_gflops = -1;
    for (int k = 1; k < nrows; k++) {
        rows[k].peer_gflops = row->peer_gflops, rows[k].peer_ok = row->peer_ok;
        rows[k].pad_gflops = row->pad_gflops, rows[k].pad_ok = row->pad_ok;
    }
    cl_mem all[] = {src, dA, dn, doff, dI};
    for (int i = 0; i < 5; i++)
        if (all[i]) clReleaseMemObject(all[i]);
    free(a);
    free(f);
    free(n);
    free(off);
    return failed ? -1 : 0;
}

/* --variant: one column per variant and auto against the better of fused and separate. */
static int print_variants(bchol_context *ctx, const vb_options *o)
{
    printf("# variants with their default versions; auto = fused for n <= crossover, separate "
           "above, in one call; '-' = the fused kernel cannot hold max_n\n");
    printf("%6s %6s %9s %9s %9s", "nmax", "max_n", "batch", "crossover", "above");
    for (int v = 0; v < o->nvariants; v++) printf(" %9s", variant_name(o->variants[v]));
    printf(" %10s %9s %-6s\n", "auto/best", "error", "check");
    int failed = 0;
    for (int i = 0; i < o->count; i++) {
        vb_row row = {0};
        if (bench_nmax(ctx, o, o->nmax[i], &row, 1)) {
            printf("%6d %6s %9lld %9s %9s", o->nmax[i], "-", o->batch, "-", "-");
            for (int v = 0; v < o->nvariants; v++) printf(" %9s", "-");
            printf(" %10s %9s %-6s\n", "-", "-", "FAILED");
            failed = 1;
            continue;
        }
        double best = -1, autog = -1;
        printf("%6d %6d %9lld %9d %9lld", o->nmax[i], row.max_n, row.batch, row.crossover,
               row.above);
        for (int v = 0; v < o->nvariants; v++) {
            const double g = row.gflops[v];
            if (g < 0) printf(" %9s", "-");
            else printf(" %9.2f", g);
            if (o->variants[v] == BCHOL_VARIANT_AUTO) autog = g;
            else if (g > best) best = g;
        }
        char ratio[16] = "-";
        if (autog > 0 && best > 0) snprintf(ratio, sizeof ratio, "%.2fx", autog / best);
        const int ok = row.ok && (row.pad_gflops < 0 || row.pad_ok);
        printf(" %10s %9.3g %-6s\n", ratio, row.error, ok ? "ok" : "FAILED");
        fflush(stdout);
        failed |= !ok;
    }
    bchol_context_destroy(ctx);
    return failed;
}

int bench_vbatched(int argc, char **argv)
{
    vb_options o;
    const int parsed = parse(argc, argv, &o);
    if (parsed) return parsed > 0 ? 0 : 2;
    if (o.compare && o.nvariants) {
        /* the versions table carries the peer; the variants table compares bchol with itself */
        fprintf(stderr, "bchol bench --vbatched: --compare lapack goes without --variant\n");
        return 2;
    }
    if (o.compare && !cpu_peer_available()) {
        fprintf(stderr, "bchol bench --vbatched: built without LAPACKE/OpenMP; --compare lapack is unavailable\n");
        return 2;
    }
    bchol_context *ctx;
    bchol_status st = bchol_context_create(o.device, &ctx);
    if (st) {
        fprintf(stderr, "bchol bench --vbatched: %s: %s\n", bchol_status_string(st),
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
    printf("# %cpotrf_vbatched_ex uplo=%c, orders %s in [1, nmax], batch %lld, median of %d runs "
           "after %d "
           "warm-up; Gflop/s on the real orders (sum n^3/3); padded = %cpotrf_batched at n = nmax "
           "with "
           "identity padding\n",
           o.precision, o.uplo, util_dist_name(o.dist), o.batch, o.reps, o.warmup, o.precision);
    if (o.nvariants) return print_variants(ctx, &o);
    if (o.compare)
        printf("# peer: LAPACKE %cpotrf per matrix at its real order, OpenMP dynamic loop, %d threads one "
               "per core (%s); lapack = its Gflop/s, vb/lapack = the default version's speed-up\n",
               o.precision, cpu_peer_threads(), cpu_topology_describe());
    printf("# tbc, shape, order: the fused kernel's matrices per work-group, work-group shape "
           "and which matrices share a group; vb/pad = the default version over padded; lazy/gc "
           "= the faster lazy version over greedy-cl\n");
    printf("%6s %6s %9s %4s %-6s %-5s %9s %9s %9s %9s %9s %10s %8s %8s %9s %-6s", "nmax", "max_n",
           "batch", "tbc", "shape", "order", versions[0].name, versions[1].name, versions[2].name,
           versions[3].name, "padded", "default_ms", "vb/pad", "lazy/gc", "error", "check");
    printf(" %-9s %9s %9s", "default", versions[4].name, versions[5].name);
    if (o.compare) printf(" %9s %9s", "lapack", "vb/lapack");
    printf("\n");
    int failed = 0;
    const int nrows = o.ntbc * o.nshape * o.norder;
    for (int i = 0; i < o.count; i++) {
        vb_row rows[MAX_CONFIGS * MAX_CONFIGS * 3];
        memset(rows, 0, sizeof rows);
        if (bench_nmax(ctx, &o, o.nmax[i], rows, nrows)) {
            printf("%6d %6s %9lld %4s %-6s %-5s %9s %9s %9s %9s %9s %10s %8s %8s %9s %-6s\n",
                   o.nmax[i], "-", o.batch, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-",
                   "-", "FAILED");
            failed = 1;
            continue;
        }
        for (int k = 0; k < nrows; k++) {
            const vb_row *row = &rows[k];
            char pad[16] = "-", ratio[16] = "-";
            if (row->pad_gflops > 0) {
                snprintf(pad, sizeof pad, "%.2f", row->pad_gflops);
                snprintf(ratio, sizeof ratio, "%.2fx",
                         row->gflops[row->default_version] / row->pad_gflops);
            }
            const double lazy = row->gflops[2] > row->gflops[3] ? row->gflops[2] : row->gflops[3];
            const int ok = row->ok && (row->pad_gflops < 0 || row->pad_ok);
            printf("%6d %6d %9lld %4d %-6s %-5s %9.2f %9.2f %9.2f %9.2f %9s %10.4f %8s %7.2fx %9.3g "
                   "%-6s",
                   o.nmax[i], row->max_n, row->batch, row->tbc, shape_names[row->shape],
                   row->order == BCHOL_ORDER_STEPS ? "steps" : "index",
                   row->gflops[0], row->gflops[1], row->gflops[2], row->gflops[3], pad,
                   row->default_ms, ratio, lazy / row->gflops[0], row->error, ok ? "ok" : "FAILED");
            printf(" %-9s", versions[row->default_version].name); /* the version default_ms timed */
            printf(" %9.2f %9.2f", row->gflops[4], row->gflops[5]);
            if (o.compare)
                printf(" %9.4g %8.2fx%s", row->peer_gflops,
                       row->gflops[row->default_version] / row->peer_gflops,
                       row->peer_ok ? "" : " (peer info != 0)");
            printf("\n");
            failed |= !ok;
        }
        fflush(stdout);
    }
    bchol_context_destroy(ctx);
    return failed;
}
