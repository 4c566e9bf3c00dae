/*
 * Tester for bchol_{s,d}potrf_vbatched[_ex|_host]: one case per run, chosen by options;
 * exit code 0 on pass. Matrices of random orders are packed into one buffer with random
 * per-matrix lda and gaps; everything outside the stored triangles of the matrices that
 * may change (gaps, padding rows, other triangles, rejected matrices, the tail) is
 * poisoned with NaN patterns and compared bit for bit. Checks the worst backward error
 * and the exact info of every matrix.
 *
 *   test_potrf_vbatched --precision s|d --uplo L|U --nmax N [--batch B]
 *       [--dist uniform|gaussian|mix] [--lda-pad P] [--gap G] [--etm classic|aggressive]
 *       [--schedule greedy|lazy|one-launch] [--ib IB] [--tbc T] [--rpt R] [--shape fixed|shrink|pack]
 *       [--order index|steps|index,steps] [--versions 4|6] [--seed X]
 *       [--mode factor|info|bad|versions|args] [--form ex|plain|host] [--pair I]...
 *       [--variant auto|fused|separate|workitem] [--crossover C] [--nb NB] [--pb PB] [--tile T]
 *       [--wnb NB] [--wvec V] [--wmr M]
 *       [--tell-max-n M]
 *
 * Modes: factor (good matrices), info (non-SPD, NaN and Inf matrices among good ones), bad
 * (invalid entries in the arrays get their BCHOL_INFO_* code, the rest is factored),
 * versions (the four ETM/scheduling versions give the same factors; --versions 6 adds
 * one launch for all steps with either ETM), args (argument
 * checks). Forms: ex (bchol_?potrf_vbatched_ex with max_n = nmax), plain (the device
 * finds max n), host (host arrays). --pair I (bad mode) also makes matrices I-1 and I
 * overlap, e.g. across a block boundary of the device checks. --variant and --crossover
 * pick the variant (auto: fused up to the crossover, separate above it, in one call);
 * --nb --pb --tile are the separate variant's parameters, --wnb --wvec --wmr the workitem
 * kernel's. --tell-max-n M (factor mode):
 * the _ex form is told the loose bound M instead of nmax (the launches must stop at the
 * largest order that fits, not step up to M).
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0
#define TAIL 37

typedef struct {
    char precision, uplo, mode[16], form[8];
    int nmax, lda_pad, gap, ib, tbc, rpt, shape, etm, schedule, nversions;
    int orders[2], norders; /* --order; versions mode runs each version with each */
    int variant, crossover, nb, pb, tile, tell_max_n, wnb, wvec, wmr;
    util_dist dist;
    long long batch, pair[4];
    int pairs;
    unsigned long long seed;
} options;

static void usage(void)
{
    fprintf(stderr,
            "usage: test_potrf_vbatched --precision s|d --uplo L|U --nmax N [--batch B] "
            "[--dist uniform|gaussian|mix] [--lda-pad P] [--gap G] [--etm classic|aggressive] "
            "[--schedule greedy|lazy|one-launch] [--ib IB] [--tbc T] [--rpt R] [--shape fixed|shrink|pack] "
            "[--order index|steps|index,steps] [--versions 4|6] [--seed X] "
            "[--mode factor|info|bad|versions|args] [--form ex|plain|host] [--pair I]... "
            "[--variant auto|fused|separate|workitem] [--crossover C] [--nb NB] [--pb PB] [--tile T] "
            "[--wnb NB] [--wvec V] [--wmr M] "
            "[--tell-max-n M]\n");
    exit(2);
}

static options parse(int argc, char **argv)
{
    options o = {.precision = 's', .uplo = 'L', .mode = "factor", .form = "ex", .nmax = 16,
                 .dist = UTIL_DIST_UNIFORM, .batch = 30, .seed = 1, .norders = 1, .nversions = 4};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (!strcmp(k, "--precision")) o.precision = v[0];
        else if (!strcmp(k, "--uplo")) o.uplo = v[0];
        else if (!strcmp(k, "--nmax")) o.nmax = atoi(v);
        else if (!strcmp(k, "--batch")) o.batch = atoll(v);
        else if (!strcmp(k, "--dist")) {
            int d = util_parse_dist(v);
            if (d < 0) usage();
            o.dist = (util_dist)d;
        } else if (!strcmp(k, "--lda-pad")) o.lda_pad = atoi(v);
        else if (!strcmp(k, "--gap")) o.gap = atoi(v);
        else if (!strcmp(k, "--versions")) o.nversions = atoi(v) == 6 ? 6 : 4;
        else if (!strcmp(k, "--etm"))
            o.etm = !strcmp(v, "classic") ? BCHOL_ETM_CLASSIC : BCHOL_ETM_AGGRESSIVE;
        else if (!strcmp(k, "--schedule"))
            o.schedule = !strcmp(v, "greedy")       ? BCHOL_SCHEDULE_GREEDY
                         : !strcmp(v, "one-launch") ? BCHOL_SCHEDULE_ONE_LAUNCH
                                                    : BCHOL_SCHEDULE_LAZY;
        else if (!strcmp(k, "--ib")) o.ib = atoi(v);
        else if (!strcmp(k, "--tbc")) o.tbc = atoi(v);
        else if (!strcmp(k, "--order")) {
            o.norders = 0;
            if (!strncmp(v, "index", 5)) o.orders[o.norders++] = BCHOL_ORDER_INDEX;
            if (strstr(v, "steps")) o.orders[o.norders++] = BCHOL_ORDER_STEPS;
            if (!o.norders) usage();
        }
        else if (!strcmp(k, "--rpt")) o.rpt = atoi(v);
        else if (!strcmp(k, "--shape"))
            o.shape = !strcmp(v, "fixed")    ? BCHOL_SHAPE_FIXED
                      : !strcmp(v, "shrink") ? BCHOL_SHAPE_SHRINK
                                             : BCHOL_SHAPE_PACK;
        else if (!strcmp(k, "--mode")) snprintf(o.mode, sizeof o.mode, "%s", v);
        else if (!strcmp(k, "--form")) snprintf(o.form, sizeof o.form, "%s", v);
        else if (!strcmp(k, "--seed")) o.seed = strtoull(v, NULL, 10);
        else if (!strcmp(k, "--pair") && o.pairs < 4) o.pair[o.pairs++] = atoll(v);
        else if (!strcmp(k, "--variant"))
            o.variant = !strcmp(v, "fused")      ? BCHOL_VARIANT_FUSED
                        : !strcmp(v, "separate") ? BCHOL_VARIANT_SEPARATE
                        : !strcmp(v, "workitem") ? BCHOL_VARIANT_WORKITEM
                                                 : BCHOL_VARIANT_AUTO;
        else if (!strcmp(k, "--crossover")) o.crossover = atoi(v);
        else if (!strcmp(k, "--nb")) o.nb = atoi(v);
        else if (!strcmp(k, "--pb")) o.pb = atoi(v);
        else if (!strcmp(k, "--tile")) o.tile = atoi(v);
        else if (!strcmp(k, "--wnb")) o.wnb = atoi(v);
        else if (!strcmp(k, "--wvec")) o.wvec = atoi(v);
        else if (!strcmp(k, "--wmr")) o.wmr = atoi(v);
        else if (!strcmp(k, "--tell-max-n")) o.tell_max_n = atoi(v);
        else usage();
    }
    for (int k = 0; k < o.pairs; k++)
        if (o.pair[k] < 1 || o.pair[k] >= o.batch) usage();
    if ((o.precision != 's' && o.precision != 'd') || (o.uplo != 'L' && o.uplo != 'U') ||
        o.nmax < 0 || o.batch < 0 ||
        (strcmp(o.form, "ex") && strcmp(o.form, "plain") && strcmp(o.form, "host")))
        usage();
    return o;
}

/* A NaN whose payload depends on the position, so a misplaced write is caught too. */
static void poison(void *buf, int dbl, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ULL;
        if (dbl) {
            uint64_t bits = 0x7ff8000000000000ULL | (h >> 14);
            memcpy((double *)buf + i, &bits, 8);
        } else {
            uint32_t bits = 0x7fc00000U | (uint32_t)(h >> 42);
            memcpy((float *)buf + i, &bits, 4);
        }
    }
}

/* ---- the batch ----------------------------------------------------------------------- */

typedef struct {
    int dbl;
    size_t es;
    long long batch;
    int *n, *lda, *expect; /* expect: the info each matrix must get */
    int64_t *off;
    int max_n;             /* what the _ex form is told */
    size_t total;          /* elements of A (matrices, gaps and a tail) */
    void *a0;              /* the input */
} batch_t;

/* Which broken input matrix b gets in --mode info. */
/* NEG_DIAG: every diagonal element -1, so that the first pivot fails and every later one
 * would too, had the factorization of that matrix gone on (info must stay 1) */
enum { GOOD, NOT_SPD, NAN_DIAG, NAN_OFFDIAG, INF_DIAG, INF_OFFDIAG, NEG_DIAG, KINDS };

/* Invalid entries planted in --mode bad, each at its own spot of the batch. */
enum {
    BAD_N, BAD_LDA, BAD_LDA_N0, BAD_LDA_INDEX, BAD_OFF_NEG, BAD_OFF_PAST, BAD_OFF_CROSS, ABOVE_MAX,
    OVERLAP_PAIR, OUT_OF_ORDER, EMPTY_FAR, BAD_KINDS
};

static long long spot(int kind, long long batch) { return (kind + 1) * batch / (BAD_KINDS + 1); }

static void make_batch(const options *o, batch_t *t)
{
    const int info_mode = !strcmp(o->mode, "info"), bad_mode = !strcmp(o->mode, "bad");
    util_rng rng;
    util_rng_seed(&rng, o->seed);
    t->dbl = o->precision == 'd';
    t->es = t->dbl ? 8 : 4;
    t->batch = o->batch;
    t->n = calloc((size_t)o->batch + 1, sizeof *t->n);
    t->lda = calloc((size_t)o->batch + 1, sizeof *t->lda);
    t->expect = calloc((size_t)o->batch + 1, sizeof *t->expect);
    t->off = calloc((size_t)o->batch + 1, sizeof *t->off);
    t->max_n = o->tell_max_n > 0 ? o->tell_max_n : o->nmax;
    for (long long b = 0; b < o->batch; b++) {
        t->n[b] = util_random_order(o->dist, o->nmax, &rng);
        t->lda[b] = (t->n[b] > 1 ? t->n[b] : 1) +
                    (o->lda_pad ? (int)(util_rng_next(&rng) % (o->lda_pad + 1)) : 0);
    }
    if (bad_mode) {
        if (o->batch < 4 * (BAD_KINDS + 1) || o->nmax < 2) {
            fprintf(stderr, "test setup: --mode bad needs batch >= %d and nmax >= 2\n",
                    4 * (BAD_KINDS + 1));
            exit(2);
        }
        /* sizes the planted entries need, before packing */
        long long s;
        for (int k = 0; k < BAD_KINDS; k++) /* room for lda < n and for crossing the end */
            if (t->n[spot(k, o->batch)] < 2)
                t->n[spot(k, o->batch)] = 2, t->lda[spot(k, o->batch)] = 2;
        t->n[spot(BAD_N, o->batch)] = -3;
        s = spot(BAD_LDA_N0, o->batch);
        t->n[s] = 0, t->lda[s] = 0;
        s = spot(ABOVE_MAX, o->batch);
        t->n[s] = t->lda[s] = o->nmax + 1;
        s = spot(OVERLAP_PAIR, o->batch);
        t->n[s - 1] = t->n[s] = o->nmax;
        t->lda[s - 1] = t->lda[s] = o->nmax;
        s = spot(OUT_OF_ORDER, o->batch);
        t->n[s + 1] = t->n[s] = 2;
        t->lda[s + 1] = t->lda[s] = 3;
        t->n[spot(EMPTY_FAR, o->batch)] = 0;
        s = spot(BAD_LDA_INDEX, o->batch); /* n = 3 with lda = 2^30 passes 2^31-1 */
        t->n[s] = t->lda[s] = 3;
        for (int k = 0; k < o->pairs; k++)
            for (long long b = o->pair[k] - 1; b <= o->pair[k]; b++) t->n[b] = t->lda[b] = 2;
    }
    const int64_t end = util_pack(t->n, t->lda, o->batch, 11, o->gap, o->gap ? &rng : NULL, t->off);
    t->total = (size_t)end + TAIL;

    t->a0 = malloc(t->total * t->es);
    poison(t->a0, t->dbl, t->total);
    for (long long b = 0; b < o->batch; b++) {
        const int n = t->n[b], lda = t->lda[b];
        if (n <= 0) continue;
        char *m = (char *)t->a0 + (size_t)t->off[b] * t->es;
        util_spd(m, t->dbl, o->uplo, n, lda, &rng);
        int kind = info_mode ? (int)(b % KINDS) : GOOD;
        int col = (int)((b * 7 + 3) % n), row = col + (n - col) / 2;
        int i = o->uplo == 'L' ? row : col, j = o->uplo == 'L' ? col : row;
        if (kind == NOT_SPD) util_break_at(m, t->dbl, o->uplo, n, lda, col);
        if (kind == NAN_DIAG) util_set(m, util_idx(col, col, lda), t->dbl, NAN);
        if (kind == NAN_OFFDIAG) util_set(m, util_idx(i, j, lda), t->dbl, NAN);
        if (kind == INF_DIAG) util_set(m, util_idx(col, col, lda), t->dbl, INFINITY);
        if (kind == INF_OFFDIAG) util_set(m, util_idx(i, j, lda), t->dbl, INFINITY);
        for (int d = 0; kind == NEG_DIAG && d < n; d++) util_set(m, util_idx(d, d, lda), t->dbl, -1.0);
        t->expect[b] = util_ref_info(m, t->dbl, o->uplo, n, lda);
        if ((kind == NOT_SPD || kind == NAN_DIAG || kind == INF_DIAG || kind == NEG_DIAG) && t->expect[b] == 0) {
            fprintf(stderr, "FAILED: test setup: matrix %lld of kind %d is not broken\n", b, kind);
            exit(1);
        }
    }
    if (bad_mode) {
        /* entries changed after packing: their memory stays where it was, untouched */
        long long s;
        t->expect[spot(BAD_N, o->batch)] = BCHOL_INFO_BAD_N;
        s = spot(BAD_LDA, o->batch);
        t->lda[s] = t->n[s] - 1, t->expect[s] = BCHOL_INFO_BAD_LDA;
        t->expect[spot(BAD_LDA_N0, o->batch)] = BCHOL_INFO_BAD_LDA;
        s = spot(BAD_LDA_INDEX, o->batch);
        t->lda[s] = 1 << 30, t->expect[s] = BCHOL_INFO_BAD_LDA; /* (n-1)*lda + n > 2^31-1 */
        s = spot(BAD_OFF_NEG, o->batch);
        t->off[s] = -5, t->expect[s] = BCHOL_INFO_BAD_OFFSET;
        if (strcmp(o->form, "host")) { /* host arrays: A is as large as the matrices say */
            s = spot(BAD_OFF_PAST, o->batch);
            t->off[s] = (int64_t)t->total + 100, t->expect[s] = BCHOL_INFO_BAD_OFFSET;
            s = spot(BAD_OFF_CROSS, o->batch);
            t->off[s] = (int64_t)t->total - 2, t->expect[s] = BCHOL_INFO_BAD_OFFSET;
        }
        /* only the _ex form is told a max_n; the others factor that matrix */
        if (!strcmp(o->form, "ex")) t->expect[spot(ABOVE_MAX, o->batch)] = BCHOL_INFO_ABOVE_MAX_N;
        s = spot(OVERLAP_PAIR, o->batch); /* matrix s starts inside matrix s-1 */
        t->off[s] = t->off[s - 1] + 1;
        t->expect[s - 1] = t->expect[s] = BCHOL_INFO_OVERLAP;
        s = spot(OUT_OF_ORDER, o->batch); /* disjoint, but not in index order: rejected too */
        int64_t keep = t->off[s];
        t->off[s] = t->off[s + 1], t->off[s + 1] = keep;
        t->expect[s] = t->expect[s + 1] = BCHOL_INFO_OVERLAP;
        for (int k = 0; k < o->pairs; k++) {
            s = o->pair[k];
            t->off[s] = t->off[s - 1] + 1;
            t->expect[s - 1] = t->expect[s] = BCHOL_INFO_OVERLAP;
        }
        s = spot(EMPTY_FAR, o->batch); /* n = 0 has no footprint: any offset >= 0 is fine */
        t->off[s] = (int64_t)t->total * 4, t->expect[s] = 0;
    }
}

static void free_batch(batch_t *t)
{
    free(t->n);
    free(t->lda);
    free(t->expect);
    free(t->off);
    free(t->a0);
}

/* ---- one run on the device ----------------------------------------------------------- */

static cl_mem buffer(bchol_context *ctx, size_t bytes, void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(bchol_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
                              bytes ? bytes : 1, host, &err);
    if (!m) {
        fprintf(stderr, "FAILED: clCreateBuffer(%zu): %d\n", bytes, err);
        exit(1);
    }
    return m;
}

/* Factors a copy of the batch into a (total elements) and info (batch + 4 ints; the 4
 * beyond must stay as they were). how: "ex", "plain" or "host". */
static bchol_status run(bchol_context *ctx, const options *o, const batch_t *t, const char *how,
                        const bchol_vbatched_params *prm, void *a, int *info)
{
    const int dbl = t->dbl;
    const long long batch = t->batch;
    bchol_status st;
    memcpy(a, t->a0, t->total * t->es);
    for (long long b = 0; b < batch + 4; b++) info[b] = -12345;
    if (!strcmp(how, "host")) {
        return dbl ? bchol_dpotrf_vbatched_host(ctx, o->uplo, t->n, t->lda, t->off, a, batch, info)
                   : bchol_spotrf_vbatched_host(ctx, o->uplo, t->n, t->lda, t->off, a, batch, info);
    }
    cl_mem dA = buffer(ctx, t->total * t->es, a), dn = buffer(ctx, (size_t)batch * 4, t->n),
           dl = buffer(ctx, (size_t)batch * 4, t->lda),
           doff = buffer(ctx, (size_t)batch * 8, t->off),
           dI = buffer(ctx, (size_t)(batch + 4) * 4, info);
    cl_event ev = NULL;
    if (!strcmp(how, "plain"))
        st = dbl ? bchol_dpotrf_vbatched(ctx, o->uplo, dn, dl, doff, dA, batch, dI, &ev)
                 : bchol_spotrf_vbatched(ctx, o->uplo, dn, dl, doff, dA, batch, dI, &ev);
    else
        st = dbl ? bchol_dpotrf_vbatched_ex(ctx, prm, o->uplo, t->max_n, dn, dl, doff, dA, batch,
                                            dI, &ev)
                 : bchol_spotrf_vbatched_ex(ctx, prm, o->uplo, t->max_n, dn, dl, doff, dA, batch,
                                            dI, &ev);
    if (!st && batch > 0 && !ev) {
        fprintf(stderr, "FAILED: no event returned\n");
        exit(1);
    }
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    cl_command_queue q = bchol_context_queue(ctx);
    clEnqueueReadBuffer(q, dA, CL_TRUE, 0, t->total * t->es, a, 0, NULL, NULL);
    clEnqueueReadBuffer(q, dI, CL_TRUE, 0, (size_t)(batch + 4) * 4, info, 0, NULL, NULL);
    cl_mem all[] = {dA, dn, dl, doff, dI};
    for (int i = 0; i < 5; i++) clReleaseMemObject(all[i]);
    return st;
}

/* Matrices that may change: in the input layout, with info >= 0 expected. */
static int may_change(const batch_t *t, long long b) { return t->expect[b] >= 0 && t->n[b] > 0; }

/* Checks one result: exact info, backward error, nothing touched outside. */
static int check(const options *o, const batch_t *t, const void *a, const int *info,
                 const char *label)
{
    const size_t es = t->es;
    unsigned char *inside = calloc(t->total, 1);
    for (long long b = 0; b < t->batch; b++) {
        if (!may_change(t, b)) continue;
        for (int j = 0; j < t->n[b]; j++)
            for (int i = 0; i < t->n[b]; i++)
                if (util_in_triangle(o->uplo, i, j))
                    inside[(size_t)t->off[b] + util_idx(i, j, t->lda[b])] = 1;
    }
    long long touched = 0, bad_info = 0;
    for (size_t e = 0; e < t->total; e++)
        if (!inside[e] && memcmp((const char *)a + e * es, (const char *)t->a0 + e * es, es))
            if (touched++ < 5)
                fprintf(stderr, "%s: element %zu outside the factored triangles changed\n", label,
                        e);
    double worst = 0;
    for (long long b = 0; b < t->batch; b++) {
        if (info[b] != t->expect[b]) {
            if (bad_info++ < 5)
                fprintf(stderr,
                        "%s: matrix %lld (n = %d, lda = %d, offset = %lld): info %d, expected %d\n",
                        label, b, t->n[b], t->lda[b], (long long)t->off[b], info[b], t->expect[b]);
            continue;
        }
        if (t->expect[b] == 0 && t->n[b] > 0) {
            size_t at = (size_t)t->off[b] * es;
            double err = util_backward_error((const char *)t->a0 + at, (const char *)a + at, t->dbl,
                                             o->uplo, t->n[b], t->lda[b]);
            if (err > worst) worst = err;
        }
    }
    for (int b = 0; b < 4; b++)
        if (info[t->batch + b] != -12345) bad_info++;
    free(inside);
    int failed = touched > 0 || bad_info > 0 || !(worst <= THRESHOLD);
    printf("vbatched %c %c nmax=%d batch=%lld dist=%s %s: backward error %.3g, %lld wrong info, "
           "%lld elements touched outside: %s\n",
           o->precision, o->uplo, o->nmax, t->batch, util_dist_name(o->dist), label, worst,
           bad_info, touched, failed ? "FAILED" : "ok");
    return failed;
}

/* Largest difference between two results over the factored matrices, relative to the
 * largest element of each factor. */
static double factor_difference(const batch_t *t, char uplo, const void *x, const void *y)
{
    double worst = 0;
    for (long long b = 0; b < t->batch; b++) {
        if (t->expect[b] != 0 || t->n[b] <= 0) continue;
        double scale = 0, diff = 0;
        for (int j = 0; j < t->n[b]; j++)
            for (int i = 0; i < t->n[b]; i++) {
                if (!util_in_triangle(uplo, i, j)) continue;
                size_t e = (size_t)t->off[b] + util_idx(i, j, t->lda[b]);
                double u = util_get(x, e, t->dbl), v = util_get(y, e, t->dbl);
                scale = fmax(scale, fabs(u));
                diff = fmax(diff, fabs(u - v));
            }
        if (scale > 0 && diff / scale > worst) worst = diff / scale;
    }
    return worst;
}

static const char *version_name(const bchol_vbatched_params *p)
{
    static char s[48];
    snprintf(s, sizeof s, "%s-%s",
             p->schedule == BCHOL_SCHEDULE_GREEDY       ? "greedy"
             : p->schedule == BCHOL_SCHEDULE_ONE_LAUNCH ? "one-launch"
                                                        : "lazy",
             p->etm == BCHOL_ETM_CLASSIC ? "classic" : "aggressive");
    return s;
}

static int run_and_check(bchol_context *ctx, const options *o, const batch_t *t, const char *how,
                         const bchol_vbatched_params *prm, void *a, int *info, const char *label)
{
    bchol_status st = run(ctx, o, t, how, prm, a, info);
    if (st) {
        fprintf(stderr, "FAILED: %s: %s: %s\n", label, bchol_status_string(st),
                bchol_last_error(ctx));
        return 1;
    }
    return check(o, t, a, info, label);
}

/* ---- argument checks ----------------------------------------------------------------- */

static int failures;

static void expect_status(const char *what, bchol_status got, bchol_status want, const char *needle)
{
    const char *msg = bchol_last_error(NULL);
    int ok = got == want && (!needle || strstr(msg, needle));
    printf("%-48s %-36s %s\n", what, bchol_status_string(got), ok ? "ok" : "FAILED");
    if (!ok) {
        printf("    wanted %d (%s), got %d; message: %s\n", want, bchol_status_string(want), got,
               msg);
        failures++;
    }
}

typedef struct {
    cl_mem n, lda, off, A, info;
} vargs;

/* One call with the given arguments: plain form if prm is NULL and max_n < 0. */
static void vcall(bchol_context *ctx, const char *what, char prec, const bchol_vbatched_params *prm,
                  char uplo, int max_n, vargs v, long long batch, bchol_status want,
                  const char *needle)
{
    cl_event ev = (cl_event)1; /* must come back NULL on failure */
    bchol_status st;
    if (!prm && max_n < 0)
        st = prec == 'd'
                 ? bchol_dpotrf_vbatched(ctx, uplo, v.n, v.lda, v.off, v.A, batch, v.info, &ev)
                 : bchol_spotrf_vbatched(ctx, uplo, v.n, v.lda, v.off, v.A, batch, v.info, &ev);
    else
        st = prec == 'd' ? bchol_dpotrf_vbatched_ex(ctx, prm, uplo, max_n, v.n, v.lda, v.off, v.A,
                                                    batch, v.info, &ev)
                         : bchol_spotrf_vbatched_ex(ctx, prm, uplo, max_n, v.n, v.lda, v.off, v.A,
                                                    batch, v.info, &ev);
    if (st && ev) {
        printf("%-48s returned an event on failure: FAILED\n", what);
        failures++;
    }
    if (ev && ev != (cl_event)1) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    expect_status(what, st, want, needle);
}

static int mode_args(bchol_context *ctx)
{
    enum { B = 4, NM = 5 };
    int n[B] = {5, 3, 0, 5}, lda[B] = {5, 4, 1, 6};
    int64_t off[B] = {0, 25, 37, 40};
    float a[70] = {0};
    for (int b = 0; b < B; b++)
        for (int i = 0; i < n[b]; i++) a[off[b] + i + (int64_t)i * lda[b]] = 1; /* identities */
    vargs v = {buffer(ctx, sizeof n, n), buffer(ctx, sizeof lda, lda), buffer(ctx, sizeof off, off),
               buffer(ctx, sizeof a, a), buffer(ctx, B * 4, NULL)};
    cl_mem small4 = buffer(ctx, B * 4 - 1, NULL), small8 = buffer(ctx, B * 8 - 1, NULL);
    vargs w;

    vcall(ctx, "valid plain call", 's', NULL, 'L', -1, v, B, BCHOL_SUCCESS, NULL);
    vcall(ctx, "valid _ex call", 's', NULL, 'L', NM, v, B, BCHOL_SUCCESS, NULL);
    vcall(ctx, "uplo = 'X'", 's', NULL, 'X', -1, v, B, BCHOL_ERR_UPLO, "argument 2 (uplo");
    vcall(ctx, "_ex uplo = 'X' is argument 3", 's', NULL, 'X', NM, v, B, BCHOL_ERR_UPLO,
          "argument 3 (uplo");
    bchol_vbatched_params p = {{0}, BCHOL_ETM_DEFAULT, BCHOL_SCHEDULE_DEFAULT, 0, BCHOL_ORDER_DEFAULT};
    vcall(ctx, "_ex max_n = -1", 's', &p, 'L', -1, v, B, BCHOL_ERR_MAX_N,
          "argument 4 (max_n = -1)");
    vcall(ctx, "batch = -1", 's', NULL, 'L', -1, v, -1, BCHOL_ERR_BATCH, "argument 7 (batch");
    w = v, w.n = NULL;
    vcall(ctx, "n = NULL", 's', NULL, 'L', -1, w, B, BCHOL_ERR_N_ARRAY, "argument 3 (n) is NULL");
    w = v, w.n = small4;
    vcall(ctx, "n array too small", 's', NULL, 'L', -1, w, B, BCHOL_ERR_N_ARRAY,
          "(n) holds 15 bytes");
    w = v, w.lda = NULL;
    vcall(ctx, "_ex lda = NULL is argument 6", 's', NULL, 'L', NM, w, B, BCHOL_ERR_LDA_ARRAY,
          "argument 6 (lda)");
    w = v, w.lda = small4;
    vcall(ctx, "lda array too small", 's', NULL, 'L', -1, w, B, BCHOL_ERR_LDA_ARRAY, "lda");
    w = v, w.off = NULL;
    vcall(ctx, "offsets = NULL", 's', NULL, 'L', -1, w, B, BCHOL_ERR_OFFSETS_A,
          "argument 5 (offsets)");
    w = v, w.off = small8;
    vcall(ctx, "offsets too small (int64 each)", 's', NULL, 'L', -1, w, B, BCHOL_ERR_OFFSETS_A,
          "offsets");
    w = v, w.A = NULL;
    vcall(ctx, "A = NULL", 's', NULL, 'L', -1, w, B, BCHOL_ERR_A, "argument 6 (A) is NULL");
    w = v, w.info = NULL;
    vcall(ctx, "info = NULL", 's', NULL, 'L', -1, w, B, BCHOL_ERR_INFO,
          "argument 8 (info) is NULL");
    w = v, w.info = small4;
    vcall(ctx, "info too small", 's', NULL, 'L', -1, w, B, BCHOL_ERR_INFO_SIZE, "info");
    vargs none = {NULL, NULL, NULL, NULL, NULL};
    vcall(ctx, "batch = 0 with NULL buffers", 's', NULL, 'L', -1, none, 0, BCHOL_SUCCESS, NULL);
    p.fused.tbc = 65;
    vcall(ctx, "params->fused.tbc = 65", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT,
          "(params->fused.tbc = 65) must be at most 64");
    p.fused.tbc = 0, p.fused.shape = BCHOL_SHAPE_PACK + 1;
    vcall(ctx, "params->fused.shape = PACK + 1", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT,
          "is not a shape");
    p.fused.shape = 0, p.fused.ib = 33;
    vcall(ctx, "params->fused.ib = 33", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "ib");
    p.fused.ib = 0, p.etm = (bchol_etm)7;
    vcall(ctx, "params->etm = 7", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "etm");
    p.etm = BCHOL_ETM_DEFAULT, p.schedule = (bchol_schedule)9;
    vcall(ctx, "params->schedule = 9", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "schedule");
    p.schedule = BCHOL_SCHEDULE_DEFAULT, p.order = (bchol_order)3;
    vcall(ctx, "params->order = 3", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "is not an order");
    p.order = BCHOL_ORDER_DEFAULT, p.fused.variant = (bchol_variant)77;
    vcall(ctx, "params->fused.variant = 77", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "variant");
    p.fused.variant = BCHOL_VARIANT_INTERLEAVED;
    vcall(ctx, "params->fused.variant = INTERLEAVED", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT,
          "fixed sizes only");
    p.fused.variant = BCHOL_VARIANT_SEPARATE;
    vcall(ctx, "params->fused.variant = SEPARATE", 's', &p, 'L', NM, v, B, BCHOL_SUCCESS, NULL);
    p.fused.gemm = BCHOL_GEMM_CLBLAST;
    vcall(ctx, "params->fused.gemm = CLBLAST", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT,
          "no CLBlast path");
    p.fused.gemm = 0, p.fused.nb = 65;
    vcall(ctx, "params->fused.nb = 65", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "(params->fused.nb = 65)");
    p.fused.nb = 0, p.fused.pb = 65;
    vcall(ctx, "params->fused.pb = 65", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "(params->fused.pb = 65)");
    p.fused.pb = 0, p.fused.tile = 48;
    vcall(ctx, "params->fused.tile = 48", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "16, 32, 64 or 128");
    p.fused.tile = 0, p.fused.variant = BCHOL_VARIANT_WORKITEM, p.fused.wvec = 3;
    vcall(ctx, "params->fused.wvec = 3", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "(params->fused.wvec = 3)");
    p.fused.wvec = 0, p.fused.wnb = 33;
    vcall(ctx, "params->fused.wnb = 33", 's', &p, 'L', NM, v, B, BCHOL_ERR_ARGUMENT, "(params->fused.wnb = 33)");
    p.fused.wnb = 0;
    vcall(ctx, "params->fused.variant = WORKITEM", 's', &p, 'L', NM, v, B, BCHOL_SUCCESS, NULL);
    p.fused.variant = BCHOL_VARIANT_AUTO;

    /* A buffer of another OpenCL context */
    cl_device_id dev = bchol_context_device_id(ctx);
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
    w = v, w.n = clCreateBuffer(other, CL_MEM_READ_WRITE, B * 4, NULL, NULL);
    vcall(ctx, "n of another context", 's', NULL, 'L', -1, w, B, BCHOL_ERR_N_ARRAY,
          "another OpenCL context");
    clReleaseMemObject(w.n);
    clReleaseContext(other);

    /* Sizes above the fused kernel's local memory: AUTO and SEPARATE factor them (other
     * cases); the fused variant forced says so before enqueueing, info and A untouched. */
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    bchol_vbatched_params q = {.fused = {.variant = BCHOL_VARIANT_FUSED, .ib = 32, .tbc = 1},
                               .etm = BCHOL_ETM_DEFAULT, .schedule = BCHOL_SCHEDULE_DEFAULT};
    const int huge = (int)(d.local_mem_usable / (32 * 4)) + 1;
    vcall(ctx, "_ex FUSED, max_n beyond local memory", 's', &q, 'L', huge, v, B,
          BCHOL_ERR_UNSUPPORTED_SIZE, "local memory");
    bchol_vbatched_params dp;
    bchol_potrf_vbatched_params(ctx, 's', 4096, 0, &dp, NULL);
    const int big =
        (int)(d.local_mem_usable / (4 * (size_t)dp.fused.ib)) + 1; /* beyond it with the default ib */
    int nbig[B] = {5, big, 0, 5}, ldbig[B] = {5, big, 1, 6}, sentinel[B] = {7, 7, 7, 7}, got[B];
    int64_t offbig[B] = {0, 0, 0, 0};
    w = v;
    w.n = buffer(ctx, sizeof nbig, nbig), w.lda = buffer(ctx, sizeof ldbig, ldbig),
    w.off = buffer(ctx, sizeof offbig, offbig);
    w.A = buffer(ctx, ((size_t)big * big + 64) * 4, NULL);
    cl_command_queue cq = bchol_context_queue(ctx);
    clEnqueueWriteBuffer(cq, w.info, CL_TRUE, 0, sizeof sentinel, sentinel, 0, NULL, NULL);
    dp.fused.variant = BCHOL_VARIANT_FUSED;
    vcall(ctx, "_ex FUSED with default ib, n beyond local memory", 's', &dp, 'L', big, w, B,
          BCHOL_ERR_UNSUPPORTED_SIZE, "FUSED");
    clEnqueueReadBuffer(cq, w.info, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    for (int b = 0; b < B; b++)
        if (got[b] != 7) {
            printf("FUSED beyond local memory: info[%d] = %d changed: FAILED\n", b, got[b]);
            failures++;
        }
    clReleaseMemObject(w.n), clReleaseMemObject(w.lda), clReleaseMemObject(w.off),
        clReleaseMemObject(w.A);

    /* host forms */
    int hinfo[B];
    bchol_status st = bchol_spotrf_vbatched_host(ctx, 'L', NULL, lda, off, a, B, hinfo);
    expect_status("host: n = NULL", st, BCHOL_ERR_N_ARRAY, "argument 3 (n)");
    st = bchol_spotrf_vbatched_host(ctx, 'L', n, lda, NULL, a, B, hinfo);
    expect_status("host: offsets = NULL", st, BCHOL_ERR_OFFSETS_A, "argument 5 (offsets)");
    st = bchol_spotrf_vbatched_host(ctx, 'L', n, lda, off, NULL, B, hinfo);
    expect_status("host: A = NULL", st, BCHOL_ERR_A, "argument 6 (A)");
    st = bchol_spotrf_vbatched_host(ctx, 'L', n, lda, off, a, B, NULL);
    expect_status("host: info = NULL", st, BCHOL_ERR_INFO, "argument 8 (info)");
    st = bchol_spotrf_vbatched_host(ctx, 'Q', n, lda, off, a, B, hinfo);
    expect_status("host: uplo = 'Q'", st, BCHOL_ERR_UPLO, "argument 2");
    int zeros[B] = {0, 0, 0, 0}, ones[B] = {1, 1, 1, 1};
    for (int b = 0; b < B; b++) hinfo[b] = 9;
    st = bchol_spotrf_vbatched_host(ctx, 'L', zeros, ones, off, NULL, B, hinfo);
    expect_status("host: all n = 0 needs no A, sets info 0", st, BCHOL_SUCCESS, NULL);
    for (int b = 0; b < B; b++)
        if (hinfo[b] != 0) failures++;

    bchol_vbatched_params dflt;
    const char *src = NULL;
    st = bchol_potrf_vbatched_params(ctx, 'd', 100, -1, &dflt, &src);
    expect_status("vbatched params, batch = -1", st, BCHOL_ERR_BATCH, "argument 4 (batch = -1)");
    st = bchol_potrf_vbatched_params(ctx, 'd', 100, 0, NULL, &src);
    expect_status("vbatched params, params = NULL", st, BCHOL_ERR_ARGUMENT, "argument 5 (params)");
    st = bchol_potrf_vbatched_params(ctx, 'd', 100, 0, &dflt, &src);
    expect_status("vbatched params", st, BCHOL_SUCCESS, NULL);
    printf("    defaults at max_n = 100: ib %d rpt %d tbc %d %s, nb %d pb %d tile %d, crossover "
           "%d (%s)\n",
           dflt.fused.ib, dflt.fused.rpt, dflt.fused.tbc, version_name(&dflt), dflt.fused.nb,
           dflt.fused.pb, dflt.fused.tile, dflt.crossover, src ? src : "");
    /* a batch within the device's crossover runs fused alone; one that straddles it splits
     * no higher */
    bchol_vbatched_params big_dflt;
    bchol_potrf_vbatched_params(ctx, 'd', 100000, 0, &big_dflt, NULL);
    printf("    crossover at max_n = 100: %d, at max_n = 100000: %d\n", dflt.crossover,
           big_dflt.crossover);
    if (dflt.crossover < 100 || big_dflt.crossover > dflt.crossover || big_dflt.crossover < 0)
        failures++;
    if (dflt.fused.tbc < 1 || dflt.fused.tbc > 64 || dflt.fused.shape < BCHOL_SHAPE_FIXED ||
        dflt.fused.shape > BCHOL_SHAPE_PACK || dflt.order < BCHOL_ORDER_INDEX ||
        dflt.order > BCHOL_ORDER_STEPS || dflt.fused.variant != BCHOL_VARIANT_AUTO || dflt.crossover < 1 ||
        dflt.fused.nb < 1 || dflt.fused.gemm != BCHOL_GEMM_OWN)
        failures++;

    /* double on a context that acts as if without fp64 */
    setenv("BCHOL_DEVICE_NO_FP64", "1", 1);
    bchol_context *c2;
    if (bchol_context_create(NULL, &c2) == BCHOL_SUCCESS) {
        vargs u = {buffer(c2, sizeof n, n), buffer(c2, sizeof lda, lda),
                   buffer(c2, sizeof off, off), buffer(c2, sizeof a * 2, NULL),
                   buffer(c2, B * 4, NULL)};
        vcall(c2, "double without fp64", 'd', NULL, 'L', -1, u, B, BCHOL_ERR_NO_FP64,
              "double precision");
        clReleaseMemObject(u.n), clReleaseMemObject(u.lda), clReleaseMemObject(u.off);
        clReleaseMemObject(u.A), clReleaseMemObject(u.info);
        bchol_context_destroy(c2);
    } else {
        failures++;
    }
    unsetenv("BCHOL_DEVICE_NO_FP64");

    vcall(NULL, "ctx = NULL", 's', NULL, 'L', -1, v, B, BCHOL_ERR_CONTEXT, "ctx");
    clFinish(bchol_context_queue(ctx));
    clReleaseMemObject(small4), clReleaseMemObject(small8);
    clReleaseMemObject(v.n), clReleaseMemObject(v.lda), clReleaseMemObject(v.off);
    clReleaseMemObject(v.A), clReleaseMemObject(v.info);
    return failures;
}

int main(int argc, char **argv)
{
    options o = parse(argc, argv);
    if (test_skip_precision(o.precision)) return TEST_SKIP;
    bchol_context *ctx;
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "FAILED: no context: %s: %s\n", bchol_status_string(st),
                bchol_last_error(NULL));
        return 1;
    }
    if (!strcmp(o.mode, "args")) {
        int f = mode_args(ctx);
        bchol_context_destroy(ctx);
        printf("%s\n", f ? "FAILED" : "ok");
        return f ? 1 : 0;
    }

    batch_t t;
    make_batch(&o, &t);
    void *a = malloc(t.total * t.es);
    int *info = malloc((size_t)(t.batch + 4) * sizeof *info);
    bchol_vbatched_params prm = {
        .fused = {.variant = (bchol_variant)o.variant, .ib = o.ib, .tbc = o.tbc, .rpt = o.rpt,
                  .shape = o.shape,
                  .nb = o.nb, .pb = o.pb, .tile = o.tile, .wnb = o.wnb, .wvec = o.wvec,
                  .wmr = o.wmr},
        .etm = (bchol_etm)o.etm,
        .schedule = (bchol_schedule)o.schedule,
        .crossover = o.crossover,
        .order = (bchol_order)o.orders[0]};
    int failed = 0;
    if (!strcmp(o.mode, "versions")) {
        /* every version on the same input; each must pass, and agree with the first */
        static const int versions[6][2] = {{BCHOL_SCHEDULE_GREEDY, BCHOL_ETM_CLASSIC},
                                           {BCHOL_SCHEDULE_GREEDY, BCHOL_ETM_AGGRESSIVE},
                                           {BCHOL_SCHEDULE_LAZY, BCHOL_ETM_CLASSIC},
                                           {BCHOL_SCHEDULE_LAZY, BCHOL_ETM_AGGRESSIVE},
                                           {BCHOL_SCHEDULE_ONE_LAUNCH, BCHOL_ETM_CLASSIC},
                                           {BCHOL_SCHEDULE_ONE_LAUNCH, BCHOL_ETM_AGGRESSIVE}};
        void *first = malloc(t.total * t.es);
        for (int v = 0; v < o.nversions * o.norders; v++) {
            prm.schedule = (bchol_schedule)versions[v % o.nversions][0];
            prm.etm = (bchol_etm)versions[v % o.nversions][1];
            prm.order = (bchol_order)o.orders[v / o.nversions];
            char label[64];
            snprintf(label, sizeof label, "%s%s", version_name(&prm),
                     prm.order == BCHOL_ORDER_STEPS ? " by steps" : "");
            failed |= run_and_check(ctx, &o, &t, "ex", &prm, a, info, label);
            if (v == 0) {
                memcpy(first, a, t.total * t.es);
                continue;
            }
            double diff = factor_difference(&t, o.uplo, first, a);
            int same = diff <= 8 * util_eps(t.dbl);
            printf("    %s vs the first: largest factor difference %.3g (relative): %s\n",
                   label, diff, same ? "ok" : "FAILED");
            failed |= !same;
        }
        free(first);
    } else if (!strcmp(o.mode, "factor") || !strcmp(o.mode, "info") || !strcmp(o.mode, "bad")) {
        char label[64];
        snprintf(label, sizeof label, "%s %s", o.mode, o.form);
        failed = run_and_check(ctx, &o, &t, o.form, &prm, a, info, label);
    } else {
        usage();
    }
    free(a);
    free(info);
    free_batch(&t);
    bchol_context_destroy(ctx);
    return failed ? 1 : 0;
}
