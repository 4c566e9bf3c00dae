/*
 * Tester for bchol_{s,d}potrs_batched and bchol_{s,d}posv_batched: one case per run,
 * chosen by options; exit code 0 on pass. Checks the worst residual
 * ||A*X - B||_F / (||A||_F ||X||_F n eps) over the batch (<= 30), for posv also the
 * factor's backward error and the exact info, and that nothing else changed: potrs
 * writes nothing in A, posv only the stored triangles, both only the n-by-nrhs blocks of
 * B; a matrix whose factorization failed keeps its B bit for bit. Everything around the
 * blocks is poisoned with NaN patterns and compared bit for bit.
 *
 *   test_potrs --precision s|d --uplo L|U --n N --nrhs K [--batch B]
 *              [--mode potrs|posv|info|host-potrs|host-posv] [--nt T] [--rpt R] [--tbc C]
 *              [--lda-pad P] [--ldb-pad P] [--stride-pad S] [--offset-a O] [--offset-b O]
 *              [--seed X] [--variant auto|subst|workitem]
 *
 * potrs gets factors computed on the host in double, so its test does not depend on
 * potrf; posv and info factor on the device. info mixes non-SPD, NaN and Inf matrices
 * among good ones. --nt/--rpt/--tbc pick the solve kernel's shape (potrs modes only; given
 * without --variant they run the substitution kernel). --variant picks the solve variant:
 * potrs through bchol_solve_params, posv (no parameters) through BCHOL_SOLVE_VARIANT.
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0

typedef struct {
    char precision, uplo, mode[16];
    int n, nrhs, nt, rpt, tbc, lda_pad, ldb_pad, stride_pad, variant;
    long long batch, offset_a, offset_b;
    unsigned long long seed;
} options;

static void usage(void)
{
    fprintf(stderr, "usage: test_potrs --precision s|d --uplo L|U --n N --nrhs K [--batch B] "
                    "[--mode potrs|posv|info|host-potrs|host-posv] [--nt T] [--rpt R] [--tbc C] "
                    "[--lda-pad P] [--ldb-pad P] [--stride-pad S] [--offset-a O] [--offset-b O] "
                    "[--seed X] [--variant auto|subst|workitem]\n");
    exit(2);
}

static options parse(int argc, char **argv)
{
    options o = {'s', 'L', "potrs", 8, 1, 0, 0, 0, 0, 0, 0, -1, 20, 0, 0, 1};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (!strcmp(k, "--precision")) o.precision = v[0];
        else if (!strcmp(k, "--uplo")) o.uplo = v[0];
        else if (!strcmp(k, "--n")) o.n = atoi(v);
        else if (!strcmp(k, "--nrhs")) o.nrhs = atoi(v);
        else if (!strcmp(k, "--batch")) o.batch = atoll(v);
        else if (!strcmp(k, "--mode")) snprintf(o.mode, sizeof o.mode, "%s", v);
        else if (!strcmp(k, "--nt")) o.nt = atoi(v);
        else if (!strcmp(k, "--rpt")) o.rpt = atoi(v);
        else if (!strcmp(k, "--tbc")) o.tbc = atoi(v);
        else if (!strcmp(k, "--lda-pad")) o.lda_pad = atoi(v);
        else if (!strcmp(k, "--ldb-pad")) o.ldb_pad = atoi(v);
        else if (!strcmp(k, "--stride-pad")) o.stride_pad = atoi(v);
        else if (!strcmp(k, "--offset-a")) o.offset_a = atoll(v);
        else if (!strcmp(k, "--offset-b")) o.offset_b = atoll(v);
        else if (!strcmp(k, "--seed")) o.seed = strtoull(v, NULL, 10);
        else if (!strcmp(k, "--variant")) {
            if (!strcmp(v, "auto")) o.variant = BCHOL_SOLVE_AUTO;
            else if (!strcmp(v, "subst")) o.variant = BCHOL_SOLVE_SUBST;
            else if (!strcmp(v, "workitem")) o.variant = BCHOL_SOLVE_WORKITEM;
            else usage();
            /* posv and the host forms take no parameters: the dispatcher's override */
            if (o.variant != BCHOL_SOLVE_AUTO) setenv("BCHOL_SOLVE_VARIANT", v, 1);
        }
        else usage();
    }
    if ((o.precision != 's' && o.precision != 'd') || (o.uplo != 'L' && o.uplo != 'U') || o.n < 0 ||
        o.nrhs < 0 || o.batch < 0)
        usage();
    if (strcmp(o.mode, "potrs") && strcmp(o.mode, "posv") && strcmp(o.mode, "info") &&
        strcmp(o.mode, "host-potrs") && strcmp(o.mode, "host-posv"))
        usage();
    if (o.variant < 0) o.variant = o.nt > 0 || o.rpt > 0 || o.tbc > 0 ? BCHOL_SOLVE_SUBST : BCHOL_SOLVE_AUTO;
    return o;
}

/* Which broken input matrix b gets in --mode info. */
enum { GOOD, NOT_SPD, NAN_DIAG, NAN_OFFDIAG, INF_DIAG, GOOD2, KINDS };

typedef struct {
    int dbl, n, nrhs, lda, ldb;
    long long stride_a, stride_b, offset_a, offset_b;
    size_t es, total_a, total_b;
} layout;

static cl_mem upload(bchol_context *ctx, const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(bchol_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              bytes, (void *)host, &err);
    if (!m) {
        fprintf(stderr, "FAILED: clCreateBuffer: %d\n", err);
        exit(1);
    }
    return m;
}

static void download(bchol_context *ctx, cl_mem m, void *host, size_t bytes)
{
    clEnqueueReadBuffer(bchol_context_queue(ctx), m, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    clReleaseMemObject(m);
}

/* Runs the routine of the mode on a (A), bm (B) and info; returns its status. */
static bchol_status run(bchol_context *ctx, const options *o, const layout *L, void *a, void *bm,
                        int *info)
{
    const int host = !strncmp(o->mode, "host-", 5);
    const int posv = strcmp(o->mode, "potrs") && strcmp(o->mode, "host-potrs");
    const char u = o->uplo;
    const int n = o->n, k = o->nrhs;
    if (host) {
        if (L->dbl)
            return posv ? bchol_dposv_batched_host(ctx, u, n, k, a, L->lda, L->stride_a, bm, L->ldb,
                                                   L->stride_b, o->batch, info)
                        : bchol_dpotrs_batched_host(ctx, u, n, k, a, L->lda, L->stride_a, bm, L->ldb,
                                                    L->stride_b, o->batch);
        return posv ? bchol_sposv_batched_host(ctx, u, n, k, a, L->lda, L->stride_a, bm, L->ldb,
                                               L->stride_b, o->batch, info)
                    : bchol_spotrs_batched_host(ctx, u, n, k, a, L->lda, L->stride_a, bm, L->ldb,
                                                L->stride_b, o->batch);
    }
    cl_mem dA = upload(ctx, a, L->total_a * L->es), dB = upload(ctx, bm, L->total_b * L->es);
    cl_mem dI = upload(ctx, info, (size_t)(o->batch + 4) * sizeof(int));
    bchol_solve_params prm = {(bchol_solve_variant)o->variant, o->nt, o->rpt, o->tbc};
    cl_event ev = NULL;
    bchol_status st;
    if (L->dbl)
        st = posv ? bchol_dposv_batched(ctx, u, n, k, dA, L->offset_a, L->lda, L->stride_a, dB,
                                        L->offset_b, L->ldb, L->stride_b, o->batch, dI, &ev)
                  : bchol_dpotrs_batched_ex(ctx, &prm, u, n, k, dA, L->offset_a, L->lda, L->stride_a,
                                            dB, L->offset_b, L->ldb, L->stride_b, o->batch, &ev);
    else
        st = posv ? bchol_sposv_batched(ctx, u, n, k, dA, L->offset_a, L->lda, L->stride_a, dB,
                                        L->offset_b, L->ldb, L->stride_b, o->batch, dI, &ev)
                  : bchol_spotrs_batched_ex(ctx, &prm, u, n, k, dA, L->offset_a, L->lda, L->stride_a,
                                            dB, L->offset_b, L->ldb, L->stride_b, o->batch, &ev);
    if (!st && o->batch > 0 && n > 0 && (k > 0 || posv) && !ev) {
        fprintf(stderr, "FAILED: no event returned\n");
        exit(1);
    }
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    download(ctx, dA, a, L->total_a * L->es);
    download(ctx, dB, bm, L->total_b * L->es);
    download(ctx, dI, info, (size_t)(o->batch + 4) * sizeof(int));
    return st;
}

/* 1 if element e of a strided batch lies in a rows-by-cols block (in the triangle uplo
 * if tri). */
static int in_block(size_t e, long long offset, long long stride, long long batch, int ld, int rows,
                    int cols, char tri)
{
    if (e < (size_t)offset || e >= (size_t)(offset + batch * stride)) return 0;
    size_t r = (e - (size_t)offset) % (size_t)stride;
    int i = (int)(r % (size_t)ld), j = (int)(r / (size_t)ld);
    return r / (size_t)ld < (size_t)cols && i < rows && (!tri || util_in_triangle(tri, i, j));
}

int main(int argc, char **argv)
{
    options o = parse(argc, argv);
    if (test_skip_precision(o.precision)) return TEST_SKIP;
    const int host = !strncmp(o.mode, "host-", 5);
    const int factors_here = !strcmp(o.mode, "potrs") || !strcmp(o.mode, "host-potrs");
    const int info_mode = !strcmp(o.mode, "info");
    layout L;
    L.dbl = o.precision == 'd';
    L.n = o.n;
    L.nrhs = o.nrhs;
    L.es = L.dbl ? 8 : 4;
    L.lda = (o.n > 1 ? o.n : 1) + o.lda_pad;
    L.ldb = (o.n > 1 ? o.n : 1) + o.ldb_pad;
    L.stride_a = (long long)L.lda * o.n + o.stride_pad;
    L.stride_b = (long long)L.ldb * o.nrhs + o.stride_pad;
    L.offset_a = host ? 0 : o.offset_a;
    L.offset_b = host ? 0 : o.offset_b;
    const size_t tail = 37;
    L.total_a = (size_t)(L.offset_a + o.batch * L.stride_a) + tail;
    L.total_b = (size_t)(L.offset_b + o.batch * L.stride_b) + tail;
    const int n = o.n, dbl = L.dbl;

    bchol_context *ctx;
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "FAILED: no context: %s: %s\n", bchol_status_string(st), bchol_last_error(NULL));
        return 1;
    }
    /* a0: the SPD matrices; a: what the routine gets (factors for potrs); bm0: B before. */
    void *a0 = malloc(L.total_a * L.es), *a = malloc(L.total_a * L.es), *a_in = malloc(L.total_a * L.es);
    void *bm0 = malloc(L.total_b * L.es), *bm = malloc(L.total_b * L.es);
    int *info = malloc((size_t)(o.batch + 4) * sizeof *info);
    int *expect = calloc((size_t)o.batch + 1, sizeof *expect);
    util_poison(a0, dbl, L.total_a);
    util_poison(bm0, dbl, L.total_b);
    util_rng rng;
    util_rng_seed(&rng, o.seed);
    for (long long b = 0; b < o.batch; b++) {
        char *m = (char *)a0 + (size_t)(L.offset_a + b * L.stride_a) * L.es;
        util_fill_uniform((char *)bm0 + (size_t)(L.offset_b + b * L.stride_b) * L.es, dbl, n, o.nrhs,
                          L.ldb, &rng);
        if (n == 0) continue;
        util_spd(m, dbl, o.uplo, n, L.lda, &rng);
        int kind = info_mode ? (int)(b % KINDS) : GOOD;
        int col = (int)((b * 7 + 3) % n), row = col + (n - col) / 2; /* row >= col */
        int i = o.uplo == 'L' ? row : col, j = o.uplo == 'L' ? col : row;
        if (kind == NOT_SPD) util_break_at(m, dbl, o.uplo, n, L.lda, col);
        if (kind == NAN_DIAG) util_set(m, util_idx(col, col, L.lda), dbl, NAN);
        if (kind == NAN_OFFDIAG) util_set(m, util_idx(i, j, L.lda), dbl, NAN);
        if (kind == INF_DIAG) util_set(m, util_idx(col, col, L.lda), dbl, INFINITY);
        expect[b] = util_ref_info(m, dbl, o.uplo, n, L.lda);
        if (kind != GOOD && kind != GOOD2 && expect[b] == 0) {
            fprintf(stderr, "FAILED: test setup: matrix %lld of kind %d is not broken\n", b, kind);
            return 1;
        }
    }
    memcpy(a, a0, L.total_a * L.es);
    if (factors_here)
        for (long long b = 0; b < o.batch; b++)
            if (n > 0 && util_ref_factor((char *)a + (size_t)(L.offset_a + b * L.stride_a) * L.es, dbl,
                                         o.uplo, n, L.lda)) {
                fprintf(stderr, "FAILED: test setup: matrix %lld is not SPD\n", b);
                return 1;
            }
    memcpy(a_in, a, L.total_a * L.es);
    memcpy(bm, bm0, L.total_b * L.es);
    for (long long b = 0; b < o.batch + 4; b++) info[b] = -12345;

    st = run(ctx, &o, &L, a, bm, info);
    if (test_skip_refusal(ctx, st)) {
        bchol_context_destroy(ctx);
        return TEST_SKIP;
    }
    if (st) {
        fprintf(stderr, "FAILED: %s: %s\n", bchol_status_string(st), bchol_last_error(ctx));
        return 1;
    }

    long long touched_a = 0, touched_b = 0, bad_info = 0, kept_b = 0, failed_count = 0;
    double worst_res = 0, worst_fact = 0;
    /* A: potrs writes nothing; posv only the stored triangles. */
    for (size_t e = 0; e < L.total_a; e++) {
        int may = !factors_here &&
                  in_block(e, L.offset_a, L.stride_a, o.batch, L.lda, n, n, o.uplo);
        if (!may && memcmp((char *)a + e * L.es, (char *)a_in + e * L.es, L.es))
            if (touched_a++ < 5) fprintf(stderr, "A: element %zu changed\n", e);
    }
    /* B: only the n-by-nrhs blocks. */
    for (size_t e = 0; e < L.total_b; e++) {
        int may = in_block(e, L.offset_b, L.stride_b, o.batch, L.ldb, n, o.nrhs, 0);
        if (!may && memcmp((char *)bm + e * L.es, (char *)bm0 + e * L.es, L.es))
            if (touched_b++ < 5) fprintf(stderr, "B: element %zu outside the blocks changed\n", e);
    }
    for (long long b = 0; b < o.batch; b++) {
        const size_t at_a = (size_t)(L.offset_a + b * L.stride_a) * L.es;
        const size_t at_b = (size_t)(L.offset_b + b * L.stride_b) * L.es;
        if (!factors_here && info[b] != expect[b]) {
            if (bad_info++ < 5) fprintf(stderr, "matrix %lld: info %d, expected %d\n", b, info[b], expect[b]);
            continue;
        }
        if (expect[b] != 0) {
            /* a failed matrix keeps its right-hand sides bit for bit */
            failed_count++;
            for (int c = 0; c < o.nrhs; c++)
                if (memcmp((char *)bm + at_b + util_idx(0, c, L.ldb) * L.es,
                           (char *)bm0 + at_b + util_idx(0, c, L.ldb) * L.es, (size_t)n * L.es)) {
                    if (kept_b++ < 5) fprintf(stderr, "matrix %lld (info %d): B changed\n", b, expect[b]);
                    break;
                }
            continue;
        }
        if (n == 0) continue;
        if (!factors_here) {
            double f = util_backward_error((char *)a0 + at_a, (char *)a + at_a, dbl, o.uplo, n, L.lda);
            if (!(f <= worst_fact)) worst_fact = f;
        }
        double r = util_solve_residual((char *)a0 + at_a, dbl, o.uplo, n, L.lda, o.nrhs,
                                       (char *)bm + at_b, L.ldb, (char *)bm0 + at_b, L.ldb);
        if (!(r <= worst_res)) worst_res = r;
    }
    if (!factors_here)
        for (int b = 0; b < 4; b++)
            if (info[o.batch + b] != -12345) bad_info++;
    const int failures = touched_a || touched_b || bad_info || kept_b || !(worst_res <= THRESHOLD) ||
                         !(worst_fact <= THRESHOLD);
    printf("%s %c %c n=%d nrhs=%d batch=%lld variant=%d nt=%d rpt=%d tbc=%d: residual %.3g, factor error %.3g, "
           "%lld wrong info, %lld failed matrices (%lld with B changed), %lld/%lld elements "
           "touched outside in A/B: %s\n",
           o.mode, o.precision, o.uplo, n, o.nrhs, o.batch, o.variant, o.nt, o.rpt, o.tbc, worst_res, worst_fact,
           bad_info, failed_count, kept_b, touched_a, touched_b, failures ? "FAILED" : "ok");
    free(a0);
    free(a);
    free(a_in);
    free(bm0);
    free(bm);
    free(info);
    free(expect);
    bchol_context_destroy(ctx);
    return failures ? 1 : 0;
}
