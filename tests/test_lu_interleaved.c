/*
 * Tester for bchol_{s,d}getrf_interleaved and bchol_{s,d}getrs_interleaved: one case per
 * run, chosen by options; exit code 0 on pass.
 *
 *   test_lu_interleaved --mode factor|solve|args --precision s|d --n N [--batch B]
 *                       [--chunk C (0: chunk = batch)] [--nrhs K] [--trans N|T]
 *                       [--convert 0|1] [--seed X]
 *
 * factor: the batch cycles through random matrices (uniform in [-1, 1)), a zero column c
 *   (LAPACK completes the factorization, info c+1) and a NaN or -infinity at (r, c) (info
 *   c+1: the non-finite value reaches the pivot of column c), c and r varying over the
 *   batch. The matrices are interleaved on the host by bchol.h's formula (with --convert 1
 *   also through bchol_?interleave with uplo 'A', which must give the same buffer bit for
 *   bit, and the result goes back through bchol_?deinterleave 'A'). Checks, per matrix:
 *   info equal to LAPACKE_?getrf's (random, zero column) or c+1 (NaN/Inf); ipiv equal to
 *   LAPACKE's (random, zero column); ||P*A - L*U||_1 / (n*||A||_1*eps) <= 30 (random,
 *   zero column). The buffers are whole chunks plus a tail: the lanes past the batch and
 *   the tail hold poison that must not change (bit for bit), in A and in ipiv.
 * solve: random matrices factored by LAPACKE_?getrf, interleaved with their pivots;
 *   getrs_interleaved(trans) on nrhs random right-hand sides; ||B - op(A)*X||_1 /
 *   (||op(A)||_1*||X||_1*eps) <= 30 per matrix; A, ipiv and B's padding lanes unchanged.
 * args: every bad argument named with its status, n > 32 refused, quick returns,
 *   nothing touched by a refused call.
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"

#include <lapacke.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0
#define POISON_INT (-777)
#define TAIL 29

typedef struct {
    char precision, trans, mode[16];
    int n, nrhs, convert;
    long long batch, chunk;
    unsigned long long seed;
} options;

static void usage(void)
{
    fprintf(stderr, "usage: test_lu_interleaved --mode factor|solve|args --precision s|d --n N "
                    "[--batch B] [--chunk C] [--nrhs K] [--trans N|T] [--convert 0|1] [--seed X]\n");
    exit(2);
}

static options parse(int argc, char **argv)
{
    options o = {.precision = 'd', .trans = 'N', .mode = "factor", .n = 4, .nrhs = 1,
                 .batch = 37, .chunk = 16, .seed = 1};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (!strcmp(k, "--precision")) o.precision = v[0];
        else if (!strcmp(k, "--mode")) snprintf(o.mode, sizeof o.mode, "%s", v);
        else if (!strcmp(k, "--n")) o.n = atoi(v);
        else if (!strcmp(k, "--nrhs")) o.nrhs = atoi(v);
        else if (!strcmp(k, "--trans")) o.trans = v[0];
        else if (!strcmp(k, "--batch")) o.batch = atoll(v);
        else if (!strcmp(k, "--chunk")) o.chunk = atoll(v);
        else if (!strcmp(k, "--convert")) o.convert = atoi(v);
        else if (!strcmp(k, "--seed")) o.seed = strtoull(v, NULL, 10);
        else usage();
    }
    if (o.precision != 's' && o.precision != 'd') usage();
    if (o.chunk <= 0) o.chunk = o.batch > 0 ? o.batch : 1;
    return o;
}

/* ---- the interleaved layout on the host ----------------------------------------------- */

/* Element e (< per) of block b of an interleaved batch with per elements a block. */
static size_t ilv(long long b, size_t e, size_t per, long long chunk)
{
    return ((size_t)(b / chunk) * per + e) * (size_t)chunk + (size_t)(b % chunk);
}

/* Elements of whole chunks of blocks of per elements, plus the tail. */
static size_t ilv_total(size_t per, long long batch, long long chunk)
{
    const size_t nchunks = (size_t)((batch + chunk - 1) / chunk);
    return nchunks * (size_t)chunk * per + TAIL;
}

/* Whether element e of a buffer of whole chunks (plus tail) belongs to a matrix < batch. */
static int ilv_inside(size_t e, size_t per, long long batch, long long chunk, size_t total)
{
    if (e >= total - TAIL) return 0;
    const size_t lane = e % (size_t)chunk, q = e / (size_t)chunk / per;
    return (long long)(q * (size_t)chunk + lane) < batch;
}

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
}

static void wait_event(cl_event ev)
{
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
}

static int check_status(bchol_context *ctx, const char *what, bchol_status st)
{
    if (!st) return 0;
    fprintf(stderr, "FAILED: %s: %s: %s\n", what, bchol_status_string(st), bchol_last_error(ctx));
    return 1;
}

/* ||P*A - L*U||_1 / (n*||A||_1*eps), A and F column-major n-by-n (ld n). */
static double lu_residual(const void *a0, const void *f, int dbl, int n, const int *ipiv)
{
    for (int i = 0; i < n; i++)
        if (ipiv[i] < 1 || ipiv[i] > n) return INFINITY;
    return util_lu_residual(a0, f, ipiv, dbl, n, n);
}

/* ---- factor ---------------------------------------------------------------------------- */

static int factor_case(const options *o, bchol_context *ctx)
{
    const int dbl = o->precision == 'd', n = o->n;
    const size_t es = dbl ? 8 : 4, nn = (size_t)n * n;
    const long long batch = o->batch, chunk = o->chunk;
    const size_t total = ilv_total(nn, batch, chunk), ptotal = ilv_total((size_t)n, batch, chunk);
    /* strided copies: matrix b at b*nn */
    void *s0 = malloc((batch * nn + 1) * es), *ref = malloc((batch * nn + 1) * es);
    int *ref_piv = malloc(((size_t)batch * n + 1) * sizeof(int));
    int *ref_info = calloc((size_t)batch + 1, sizeof(int)), *kind = calloc((size_t)batch + 1, sizeof(int));
    void *a = malloc(total * es), *a0 = malloc(total * es);
    int *p = malloc(ptotal * sizeof(int)), *p0 = malloc(ptotal * sizeof(int));
    int *info = malloc((size_t)(batch + 4) * sizeof(int));
    util_rng rng;
    util_rng_seed(&rng, o->seed);

    for (long long b = 0; b < batch; b++) {
        void *m = (char *)s0 + (size_t)b * nn * es;
        util_fill_uniform(m, dbl, n, n, n, &rng);
        /* kinds: 0 random (4 of 6), 1 zero column, 2 NaN, 3 -infinity */
        const int k = b % 6 == 4 ? 1 : b % 6 == 5 ? ((b / 6) % 2 ? 3 : 2) : 0;
        const int c = (int)((b / 6) % n), r = (int)((b * 7 / 6) % n);
        kind[b] = k;
        if (k == 1)
            for (int i = 0; i < n; i++) util_set(m, util_idx(i, c, n), dbl, 0.0);
        if (k >= 2) util_set(m, util_idx(r, c, n), dbl, k == 2 ? NAN : -INFINITY);
        void *f = (char *)ref + (size_t)b * nn * es;
        memcpy(f, m, nn * es);
        if (k <= 1) {
            const int ri = dbl ? LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, f, n, ref_piv + b * n)
                               : LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, f, n, ref_piv + b * n);
            if (ri < 0 || (k == 1 && ri == 0)) {
                fprintf(stderr, "FAILED: test setup: LAPACKE getrf returned %d (kind %d)\n", ri, k);
                return 1;
            }
            ref_info[b] = ri;
        } else {
            ref_info[b] = c + 1;
        }
    }

    /* the interleaved buffers: poison everywhere (SPD-free garbage: a pattern of finite
     * values, so that a stray computed store would show), then the matrices */
    for (size_t e = 0; e < total; e++) util_set(a, e, dbl, 1000.0 + (double)(e % 977) * 0.5);
    for (size_t e = 0; e < ptotal; e++) p[e] = POISON_INT - (int)(e % 1000);
    for (long long b = 0; b < batch; b++)
        for (size_t e = 0; e < nn; e++)
            memcpy((char *)a + ilv(b, e, nn, chunk) * es, (char *)s0 + ((size_t)b * nn + e) * es, es);
    memcpy(a0, a, total * es);
    memcpy(p0, p, ptotal * sizeof(int));
    for (long long b = 0; b < batch + 4; b++) info[b] = -12345;

    cl_mem dA = upload(ctx, a, total * es), dP = upload(ctx, p, ptotal * sizeof(int));
    cl_mem dI = upload(ctx, info, (size_t)(batch + 4) * sizeof(int));
    cl_mem dS = NULL;
    int failed = 0;
    cl_event ev = NULL;
    bchol_status st;
    if (o->convert && batch > 0 && n > 0) {
        /* the conversion must build the same buffer: start from poison only */
        void *poison = malloc(total * es);
        for (size_t e = 0; e < total; e++) util_set(poison, e, dbl, 1000.0 + (double)(e % 977) * 0.5);
        clEnqueueWriteBuffer(bchol_context_queue(ctx), dA, CL_TRUE, 0, total * es, poison, 0, NULL, NULL);
        free(poison);
        dS = upload(ctx, s0, (size_t)batch * nn * es);
        st = dbl ? bchol_dinterleave(ctx, 'A', n, dS, 0, n, (int64_t)nn, batch, dA, chunk, &ev)
                 : bchol_sinterleave(ctx, 'A', n, dS, 0, n, (int64_t)nn, batch, dA, chunk, &ev);
        if (check_status(ctx, "interleave 'A'", st)) return 1;
        wait_event(ev);
        void *back = malloc(total * es);
        download(ctx, dA, back, total * es);
        if (memcmp(back, a0, total * es)) {
            fprintf(stderr, "FAILED: bchol_?interleave('A') differs from the layout formula\n");
            failed = 1;
        }
        free(back);
    }
    st = dbl ? bchol_dgetrf_interleaved(ctx, n, dA, dP, batch, chunk, dI, &ev)
             : bchol_sgetrf_interleaved(ctx, n, dA, dP, batch, chunk, dI, &ev);
    if (check_status(ctx, "getrf_interleaved", st)) return 1;
    if (batch > 0 && !ev) {
        fprintf(stderr, "FAILED: no event returned\n");
        return 1;
    }
    wait_event(ev);
    download(ctx, dA, a, total * es);
    download(ctx, dP, p, ptotal * sizeof(int));
    download(ctx, dI, info, (size_t)(batch + 4) * sizeof(int));

    void *f = malloc((nn + 1) * es), *fs = NULL;
    if (dS) {
        /* back to the strided copy through the conversion: compared with the buffer */
        st = dbl ? bchol_ddeinterleave(ctx, 'A', n, dA, batch, chunk, dS, 0, n, (int64_t)nn, &ev)
                 : bchol_sdeinterleave(ctx, 'A', n, dA, batch, chunk, dS, 0, n, (int64_t)nn, &ev);
        if (check_status(ctx, "deinterleave 'A'", st)) return 1;
        wait_event(ev);
        fs = malloc((size_t)batch * nn * es);
        download(ctx, dS, fs, (size_t)batch * nn * es);
    }

    long long touched = 0, ptouched = 0, bad_info = 0, bad_piv = 0, bad_back = 0;
    double worst = 0;
    for (size_t e = 0; e < total; e++)
        if (!ilv_inside(e, nn, batch, chunk, total) && memcmp((char *)a + e * es, (char *)a0 + e * es, es))
            if (touched++ < 5) fprintf(stderr, "A element %zu outside the matrices changed\n", e);
    for (size_t e = 0; e < ptotal; e++)
        if (!ilv_inside(e, (size_t)n, batch, chunk, ptotal) && p[e] != p0[e])
            if (ptouched++ < 5) fprintf(stderr, "ipiv element %zu outside the pivots changed\n", e);
    int *piv = malloc(((size_t)n + 1) * sizeof(int));
    for (long long b = 0; b < batch; b++) {
        for (size_t e = 0; e < nn; e++) {
            memcpy((char *)f + e * es, (char *)a + ilv(b, e, nn, chunk) * es, es);
            if (fs && memcmp((char *)fs + ((size_t)b * nn + e) * es, (char *)f + e * es, es)) bad_back++;
        }
        for (int i = 0; i < n; i++) piv[i] = p[ilv(b, (size_t)i, (size_t)n, chunk)];
        if (info[b] != ref_info[b])
            if (bad_info++ < 5)
                fprintf(stderr, "matrix %lld (kind %d): info %d, expected %d\n", b, kind[b], info[b],
                        ref_info[b]);
        if (kind[b] >= 2) continue;
        const double err = lu_residual((char *)s0 + (size_t)b * nn * es, f, dbl, n, piv);
        if (!(err <= worst)) worst = err;
        if (!(err <= THRESHOLD)) fprintf(stderr, "matrix %lld (kind %d): residual %.3g\n", b, kind[b], err);
        int differ = 0;
        for (int i = 0; i < n; i++) differ |= piv[i] != ref_piv[b * n + i];
        if (differ && bad_piv++ < 5) {
            fprintf(stderr, "matrix %lld (kind %d): ipiv differs from LAPACK's:", b, kind[b]);
            for (int i = 0; i < n && i < 12; i++) fprintf(stderr, " %d/%d", piv[i], ref_piv[b * n + i]);
            fprintf(stderr, "\n");
        }
    }
    for (int b = 0; b < 4; b++)
        if (info[batch + b] != -12345) bad_info++;
    if (bad_back) fprintf(stderr, "%lld elements differ after deinterleave('A')\n", bad_back);
    failed |= touched || ptouched || bad_info || bad_piv || bad_back || !(worst <= THRESHOLD);
    printf("getrf_interleaved %c n=%d batch=%lld chunk=%lld%s: residual %.3g, %lld wrong info, "
           "%lld ipiv unlike LAPACK's, %lld+%lld elements touched outside: %s\n",
           o->precision, n, batch, chunk, dS ? " (conversions)" : "", worst, bad_info, bad_piv,
           touched, ptouched, failed ? "FAILED" : "ok");
    clReleaseMemObject(dA);
    clReleaseMemObject(dP);
    clReleaseMemObject(dI);
    if (dS) clReleaseMemObject(dS);
    free(s0), free(ref), free(ref_piv), free(ref_info), free(kind), free(a), free(a0);
    free(p), free(p0), free(info), free(f), free(fs), free(piv);
    return failed;
}

/* ---- solve ----------------------------------------------------------------------------- */

static int solve_case(const options *o, bchol_context *ctx)
{
    const int dbl = o->precision == 'd', n = o->n, nrhs = o->nrhs;
    const size_t es = dbl ? 8 : 4, nn = (size_t)n * n, nb = (size_t)n * nrhs;
    const long long batch = o->batch, chunk = o->chunk;
    const size_t total = ilv_total(nn, batch, chunk), ptotal = ilv_total((size_t)n, batch, chunk);
    const size_t btotal = ilv_total(nb, batch, chunk);
    void *s0 = malloc((batch * nn + 1) * es), *bs = malloc((batch * nb + 1) * es);
    void *a = malloc(total * es), *a0 = malloc(total * es), *x = malloc(btotal * es), *x0 = malloc(btotal * es);
    int *p = malloc(ptotal * sizeof(int)), *p0 = malloc(ptotal * sizeof(int));
    int *piv = malloc(((size_t)n + 1) * sizeof(int));
    void *f = malloc((nn + 1) * es);
    util_rng rng;
    util_rng_seed(&rng, o->seed);
    for (size_t e = 0; e < total; e++) util_set(a, e, dbl, 1000.0 + (double)(e % 977) * 0.5);
    for (size_t e = 0; e < btotal; e++) util_set(x, e, dbl, 2000.0 + (double)(e % 971) * 0.25);
    for (size_t e = 0; e < ptotal; e++) p[e] = POISON_INT - (int)(e % 1000);
    for (long long b = 0; b < batch; b++) {
        void *m = (char *)s0 + (size_t)b * nn * es;
        util_fill_uniform(m, dbl, n, n, n, &rng);
        util_fill_uniform((char *)bs + (size_t)b * nb * es, dbl, n, nrhs, n, &rng);
        memcpy(f, m, nn * es);
        const int ri = dbl ? LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, f, n, piv)
                           : LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, f, n, piv);
        if (ri != 0) {
            fprintf(stderr, "FAILED: test setup: LAPACKE getrf returned %d\n", ri);
            return 1;
        }
        for (size_t e = 0; e < nn; e++) memcpy((char *)a + ilv(b, e, nn, chunk) * es, (char *)f + e * es, es);
        for (int i = 0; i < n; i++) p[ilv(b, (size_t)i, (size_t)n, chunk)] = piv[i];
        for (size_t e = 0; e < nb; e++)
            memcpy((char *)x + ilv(b, e, nb, chunk) * es, (char *)bs + ((size_t)b * nb + e) * es, es);
    }
    memcpy(a0, a, total * es);
    memcpy(x0, x, btotal * es);
    memcpy(p0, p, ptotal * sizeof(int));
    cl_mem dA = upload(ctx, a, total * es), dP = upload(ctx, p, ptotal * sizeof(int));
    cl_mem dB = upload(ctx, x, btotal * es);
    cl_event ev = NULL;
    bchol_status st = dbl ? bchol_dgetrs_interleaved(ctx, o->trans, n, nrhs, dA, dP, dB, batch, chunk, &ev)
                          : bchol_sgetrs_interleaved(ctx, o->trans, n, nrhs, dA, dP, dB, batch, chunk, &ev);
    if (check_status(ctx, "getrs_interleaved", st)) return 1;
    wait_event(ev);
    download(ctx, dA, a, total * es);
    download(ctx, dP, p, ptotal * sizeof(int));
    download(ctx, dB, x, btotal * es);

    long long touched = 0;
    if (memcmp(a, a0, total * es) || memcmp(p, p0, ptotal * sizeof(int))) {
        fprintf(stderr, "A or ipiv changed\n");
        touched++;
    }
    for (size_t e = 0; e < btotal; e++)
        if (!ilv_inside(e, nb, batch, chunk, btotal) && memcmp((char *)x + e * es, (char *)x0 + e * es, es))
            if (touched++ < 5) fprintf(stderr, "B element %zu outside the blocks changed\n", e);
    double worst = 0;
    void *xb = malloc((nb + 1) * es);
    for (long long b = 0; b < batch; b++) {
        for (size_t e = 0; e < nb; e++) memcpy((char *)xb + e * es, (char *)x + ilv(b, e, nb, chunk) * es, es);
        const double err = util_lu_solve_residual((char *)s0 + (size_t)b * nn * es, dbl, o->trans, n, n,
                                                  nrhs, xb, n, (char *)bs + (size_t)b * nb * es, n);
        if (!(err <= worst)) worst = err;
        if (!(err <= THRESHOLD)) fprintf(stderr, "matrix %lld: residual %.3g\n", b, err);
    }
    const int failed = touched || !(worst <= THRESHOLD);
    printf("getrs_interleaved %c trans=%c n=%d nrhs=%d batch=%lld chunk=%lld: residual %.3g, %lld "
           "elements touched outside: %s\n",
           o->precision, o->trans, n, nrhs, batch, chunk, worst, touched, failed ? "FAILED" : "ok");
    clReleaseMemObject(dA);
    clReleaseMemObject(dP);
    clReleaseMemObject(dB);
    free(s0), free(bs), free(a), free(a0), free(x), free(x0), free(p), free(p0), free(piv), free(f), free(xb);
    return failed;
}

/* ---- arguments ------------------------------------------------------------------------- */

static int failures;

static void expect(const char *what, bchol_context *ctx, bchol_status got, bchol_status want,
                   const char *text)
{
    const char *msg = bchol_last_error(ctx);
    if (got != want || (want && text && !strstr(msg, text))) {
        fprintf(stderr, "FAILED: %s: got %s (%s), expected %s with \"%s\"\n", what,
                bchol_status_string(got), msg, bchol_status_string(want), text ? text : "");
        failures++;
    }
}

static int args_case(bchol_context *ctx)
{
    const int dbl = test_no_fp64() ? 0 : 1;
    cl_context cl = bchol_context_cl_context(ctx);
    cl_int err;
    /* n = 4, batch 3, chunk 2: 2 chunks of 16 elements, 32 lanes' worth */
    const int n = 4, batch = 3, chunk = 2, nrhs = 2;
    double buf[2 * 16 * 2 + 8], bbuf[2 * 8 * 2 + 8];
    int pbuf[2 * 4 * 2 + 8], ibuf[3 + 8];
    for (size_t e = 0; e < sizeof buf / sizeof *buf; e++) buf[e] = (double)e;
    for (size_t e = 0; e < sizeof bbuf / sizeof *bbuf; e++) bbuf[e] = (double)e + 0.5;
    for (size_t e = 0; e < sizeof pbuf / sizeof *pbuf; e++) pbuf[e] = -1;
    for (size_t e = 0; e < sizeof ibuf / sizeof *ibuf; e++) ibuf[e] = -2;
    cl_mem dA = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof buf, buf, &err);
    cl_mem dB = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof bbuf, bbuf, &err);
    cl_mem dP = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof pbuf, pbuf, &err);
    cl_mem dI = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof ibuf, ibuf, &err);
    cl_mem tiny = clCreateBuffer(cl, CL_MEM_READ_WRITE, 8, NULL, &err);
    cl_mem ro = clCreateBuffer(cl, CL_MEM_READ_ONLY, sizeof buf, NULL, &err);
    cl_mem wo = clCreateBuffer(cl, CL_MEM_WRITE_ONLY, sizeof buf, NULL, &err);
#define F(...) (dbl ? bchol_dgetrf_interleaved(ctx, __VA_ARGS__) : bchol_sgetrf_interleaved(ctx, __VA_ARGS__))
#define R(...) (dbl ? bchol_dgetrs_interleaved(ctx, __VA_ARGS__) : bchol_sgetrs_interleaved(ctx, __VA_ARGS__))
    expect("getrf ctx", ctx, bchol_dgetrf_interleaved(NULL, n, dA, dP, batch, chunk, dI, NULL),
           BCHOL_ERR_CONTEXT, NULL);
    expect("getrf n", ctx, F(-1, dA, dP, batch, chunk, dI, NULL), BCHOL_ERR_N, "argument 2 (n = -1)");
    expect("getrf batch", ctx, F(n, dA, dP, -1, chunk, dI, NULL), BCHOL_ERR_BATCH, "argument 5 (batch = -1)");
    expect("getrf chunk", ctx, F(n, dA, dP, batch, 0, dI, NULL), BCHOL_ERR_CHUNK, "argument 6 (chunk = 0)");
    expect("getrf A NULL", ctx, F(n, NULL, dP, batch, chunk, dI, NULL), BCHOL_ERR_A, "argument 3 (A)");
    expect("getrf A small", ctx, F(n, tiny, dP, batch, chunk, dI, NULL), BCHOL_ERR_A_SIZE, "argument 3 (A)");
    expect("getrf A read-only", ctx, F(n, ro, dP, batch, chunk, dI, NULL), BCHOL_ERR_A, "argument 3");
    expect("getrf ipiv NULL", ctx, F(n, dA, NULL, batch, chunk, dI, NULL), BCHOL_ERR_IPIV, "argument 4 (ipiv)");
    expect("getrf ipiv small", ctx, F(n, dA, tiny, batch, chunk, dI, NULL), BCHOL_ERR_IPIV_SIZE,
           "argument 4 (ipiv)");
    expect("getrf ipiv = A", ctx, F(n, dA, dA, batch, chunk, dI, NULL), BCHOL_ERR_IPIV, "argument 4");
    expect("getrf info NULL", ctx, F(n, dA, dP, batch, chunk, NULL, NULL), BCHOL_ERR_INFO, "argument 7 (info)");
    expect("getrf info small", ctx, F(n, dA, dP, 3, 1, tiny, NULL), BCHOL_ERR_INFO_SIZE, "argument 7");
    expect("getrf info = ipiv", ctx, F(n, dA, dP, batch, chunk, dP, NULL), BCHOL_ERR_INFO, "argument 7");
    expect("getrf n > 32", ctx, bchol_sgetrf_interleaved(ctx, 33, dA, dP, 1, 1, dI, NULL),
           BCHOL_ERR_A_SIZE, "argument 3");
    cl_mem big = clCreateBuffer(cl, CL_MEM_READ_WRITE, 33 * 33 * 8, NULL, &err);
    cl_mem big2 = clCreateBuffer(cl, CL_MEM_READ_WRITE, 33 * 8, NULL, &err);
    cl_mem bigp = clCreateBuffer(cl, CL_MEM_READ_WRITE, 33 * 4, NULL, &err);
    expect("getrf n = 33", ctx, F(33, big, bigp, 1, 1, dI, NULL), BCHOL_ERR_UNSUPPORTED_SIZE, "n <= 32");
    expect("getrs ctx", ctx, bchol_dgetrs_interleaved(NULL, 'N', n, nrhs, dA, dP, dB, batch, chunk, NULL),
           BCHOL_ERR_CONTEXT, NULL);
    expect("getrs trans", ctx, R('C', n, nrhs, dA, dP, dB, batch, chunk, NULL), BCHOL_ERR_TRANS,
           "argument 2 (trans = 'C')");
    expect("getrs n", ctx, R('N', -1, nrhs, dA, dP, dB, batch, chunk, NULL), BCHOL_ERR_N, "argument 3 (n = -1)");
    expect("getrs nrhs", ctx, R('N', n, -1, dA, dP, dB, batch, chunk, NULL), BCHOL_ERR_NRHS, "argument 4");
    expect("getrs batch", ctx, R('T', n, nrhs, dA, dP, dB, -2, chunk, NULL), BCHOL_ERR_BATCH, "argument 8");
    expect("getrs chunk", ctx, R('T', n, nrhs, dA, dP, dB, batch, -1, NULL), BCHOL_ERR_CHUNK, "argument 9");
    expect("getrs A NULL", ctx, R('N', n, nrhs, NULL, dP, dB, batch, chunk, NULL), BCHOL_ERR_A, "argument 5 (A)");
    expect("getrs A small", ctx, R('N', n, nrhs, tiny, dP, dB, batch, chunk, NULL), BCHOL_ERR_A_SIZE, "argument 5");
    expect("getrs A write-only", ctx, R('N', n, nrhs, wo, dP, dB, batch, chunk, NULL), BCHOL_ERR_A, "argument 5");
    expect("getrs ipiv NULL", ctx, R('N', n, nrhs, dA, NULL, dB, batch, chunk, NULL), BCHOL_ERR_IPIV,
           "argument 6 (ipiv)");
    expect("getrs ipiv small", ctx, R('N', n, nrhs, dA, tiny, dB, batch, chunk, NULL), BCHOL_ERR_IPIV_SIZE,
           "argument 6");
    expect("getrs B NULL", ctx, R('N', n, nrhs, dA, dP, NULL, batch, chunk, NULL), BCHOL_ERR_B, "argument 7 (B)");
    expect("getrs B small", ctx, R('N', n, nrhs, dA, dP, tiny, batch, chunk, NULL), BCHOL_ERR_B_SIZE, "argument 7");
    expect("getrs B = A", ctx, R('N', n, nrhs, dA, dP, dA, batch, chunk, NULL), BCHOL_ERR_B, "argument 7");
    expect("getrs B read-only", ctx, R('N', n, nrhs, dA, dP, ro, batch, chunk, NULL), BCHOL_ERR_B, "argument 7");
    expect("getrs B = A (n = 33)", ctx, R('N', 33, 1, big, bigp, big, 1, 1, NULL), BCHOL_ERR_B, "argument 7");
    expect("getrs n = 33", ctx, R('N', 33, 1, big, bigp, big2, 1, 1, NULL), BCHOL_ERR_UNSUPPORTED_SIZE,
           "n <= 32");
    /* quick returns: batch = 0 and n = 0 need no buffer (getrf's n = 0 sets info) */
    cl_event ev = (cl_event)1;
    expect("getrf batch 0", ctx, F(n, NULL, NULL, 0, chunk, NULL, &ev), BCHOL_SUCCESS, NULL);
    if (ev) fprintf(stderr, "FAILED: batch 0 returned an event\n"), failures++;
    ev = NULL;
    expect("getrf n 0", ctx, F(0, NULL, NULL, batch, chunk, dI, &ev), BCHOL_SUCCESS, NULL);
    wait_event(ev);
    expect("getrs n 0", ctx, R('N', 0, nrhs, NULL, NULL, NULL, batch, chunk, NULL), BCHOL_SUCCESS, NULL);
    expect("getrs nrhs 0", ctx, R('T', n, 0, NULL, NULL, NULL, batch, chunk, NULL), BCHOL_SUCCESS, NULL);
    expect("getrs batch 0", ctx, R('T', n, nrhs, NULL, NULL, NULL, 0, chunk, NULL), BCHOL_SUCCESS, NULL);
    clFinish(bchol_context_queue(ctx));
    double back[sizeof buf / sizeof *buf], bback[sizeof bbuf / sizeof *bbuf];
    int pback[sizeof pbuf / sizeof *pbuf], iback[sizeof ibuf / sizeof *ibuf];
    download(ctx, dA, back, sizeof buf);
    download(ctx, dB, bback, sizeof bbuf);
    download(ctx, dP, pback, sizeof pbuf);
    download(ctx, dI, iback, sizeof ibuf);
    if (memcmp(back, buf, sizeof buf) || memcmp(bback, bbuf, sizeof bbuf) || memcmp(pback, pbuf, sizeof pbuf))
        fprintf(stderr, "FAILED: a refused call or quick return changed A, B or ipiv\n"), failures++;
    for (int b = 0; b < (int)(sizeof ibuf / sizeof *ibuf); b++)
        if (iback[b] != (b < batch ? 0 : -2))
            fprintf(stderr, "FAILED: info[%d] = %d after the quick returns\n", b, iback[b]), failures++;
    clReleaseMemObject(dA), clReleaseMemObject(dB), clReleaseMemObject(dP), clReleaseMemObject(dI);
    clReleaseMemObject(tiny), clReleaseMemObject(ro), clReleaseMemObject(wo);
    if (big) clReleaseMemObject(big);
    if (big2) clReleaseMemObject(big2);
    if (bigp) clReleaseMemObject(bigp);
    printf("lu_interleaved args: %d failures: %s\n", failures, failures ? "FAILED" : "ok");
    return failures != 0;
}

int main(int argc, char **argv)
{
    options o = parse(argc, argv);
    if (strcmp(o.mode, "args") && test_skip_precision(o.precision)) return TEST_SKIP;
    bchol_context *ctx;
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "FAILED: no context: %s: %s\n", bchol_status_string(st), bchol_last_error(NULL));
        return 1;
    }
    int failed;
    if (!strcmp(o.mode, "args")) failed = args_case(ctx);
    else if (!strcmp(o.mode, "factor")) failed = factor_case(&o, ctx);
    else if (!strcmp(o.mode, "solve")) failed = solve_case(&o, ctx);
    else usage(), failed = 1;
    bchol_context_destroy(ctx);
    return failed ? 1 : 0;
}
