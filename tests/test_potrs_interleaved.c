/*
 * Tester for the interleaved solves bchol_{s,d}potrs_interleaved[_ex],
 * bchol_{s,d}posv_interleaved[_ex] and the right-hand-side conversions
 * bchol_{s,d}[de]interleave_rhs: one case per run, exit code 0 on pass.
 *
 *   test_potrs_interleaved --mode potrs|posv|convert|args|buildfail|faults|host
 *                          --precision s|d --uplo L|U
 *                          --n N --nrhs K [--batch B] [--chunk C] [--nt T] [--wg W]
 *                          [--tight 1] [--ldb-pad P] [--stride-pad S] [--offset O]
 *                          [--max-alloc BYTES]
 *
 * The interleaved buffers are laid out here on the host (independently of the library's
 * conversions) and poisoned around the stored data: padding lanes of a last partial
 * chunk, the other triangle of each factor. potrs gets factors computed on the host in
 * double; posv factors on the device and mixes non-SPD, NaN and Inf matrices among good
 * ones (their B must stay bit for bit, info exact). The worst residual
 * ||A*X - B||_F / (||A||_F ||X||_F n eps) must be <= 30. Everything that must not change
 * is compared bit for bit. --tight 1 allocates only the span bchol.h requires (no
 * padding lanes), else whole chunks. buildfail (--kernels DIR: the source's cl_kernels)
 * makes the solve kernel fail to build: posv must fail before it factors (A, B and info
 * unchanged). faults fails each OpenCL call of posv in turn (cl_shim): a known status
 * and no event, A, B and info unchanged if nothing was launched, and a call that absorbs
 * the fault gives the fault-free result bit for bit. host runs the host-array forms
 * bchol_{s,d}{potrf,posv,potrs}_interleaved_host on arrays of exactly the span bchol.h
 * requires and compares A, B and info bit for bit with the device-buffer routines; with
 * --max-alloc BYTES the host forms run on a context whose device allocations are that
 * small (cl_shim): they must split (more launches), absorb a refused allocation by
 * halving, and after a failed launch leave every matrix as it was or done.
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"
#include "cl_shim.h"

#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0

typedef struct {
    char precision, uplo, mode[16];
    int n, nrhs, nt, wg, tight, ldb_pad, stride_pad;
    long long batch, chunk, offset, max_alloc;
    const char *kernels;
} options;

static void usage(void)
{
    fprintf(stderr, "usage: test_potrs_interleaved --mode potrs|posv|convert|args|buildfail|faults|"
                    "host --precision s|d --uplo L|U --n N --nrhs K [--batch B] [--chunk C] "
                    "[--nt T] [--wg W] [--tight 1] [--ldb-pad P] [--stride-pad S] [--offset O] "
                    "[--max-alloc BYTES]\n");
    exit(2);
}

static options parse(int argc, char **argv)
{
    options o = {'s', 'L', "potrs", 8, 1, 0, 0, 0, 0, 0, 20, 0, 0, 0, NULL};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (!strcmp(k, "--precision")) o.precision = v[0];
        else if (!strcmp(k, "--uplo")) o.uplo = v[0];
        else if (!strcmp(k, "--mode")) snprintf(o.mode, sizeof o.mode, "%s", v);
        else if (!strcmp(k, "--n")) o.n = atoi(v);
        else if (!strcmp(k, "--nrhs")) o.nrhs = atoi(v);
        else if (!strcmp(k, "--batch")) o.batch = atoll(v);
        else if (!strcmp(k, "--chunk")) o.chunk = atoll(v);
        else if (!strcmp(k, "--nt")) o.nt = atoi(v);
        else if (!strcmp(k, "--wg")) o.wg = atoi(v);
        else if (!strcmp(k, "--tight")) o.tight = atoi(v);
        else if (!strcmp(k, "--ldb-pad")) o.ldb_pad = atoi(v);
        else if (!strcmp(k, "--stride-pad")) o.stride_pad = atoi(v);
        else if (!strcmp(k, "--offset")) o.offset = atoll(v);
        else if (!strcmp(k, "--max-alloc")) o.max_alloc = atoll(v);
        else if (!strcmp(k, "--kernels")) o.kernels = v;
        else usage();
    }
    if (o.chunk <= 0) o.chunk = o.batch; /* simple layout */
    return o;
}

static int failures;
#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "FAILED: " __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                               \
            if (++failures > 20) exit(1);                                                      \
        }                                                                                      \
    } while (0)

static bchol_context *ctx;
static int dbl;
static size_t es;

/* Element e of block b in an interleaved batch of per-element blocks. */
static size_t ilv(long long b, size_t e, size_t per, long long chunk)
{
    return ((size_t)(b / chunk) * per + e) * (size_t)chunk + (size_t)(b % chunk);
}

/* Elements of an interleaved batch: whole chunks, or the span bchol.h requires. */
static size_t ilv_elems(size_t per, long long batch, long long chunk, int tight)
{
    const size_t nchunks = (size_t)((batch + chunk - 1) / chunk);
    if (!tight) return nchunks * per * (size_t)chunk;
    return (nchunks * per - 1) * (size_t)chunk + (size_t)((batch - 1) % chunk) + 1;
}

static cl_mem upload_bytes(const void *h, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(bchol_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | (h ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              (void *)h, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "FAILED: clCreateBuffer of %zu bytes: %d\n", bytes, err);
        exit(1);
    }
    return m;
}

static cl_mem upload(const void *h, size_t elems) { return upload_bytes(h, elems * es); }

static void download_bytes(cl_mem m, void *h, size_t bytes)
{
    if (clEnqueueReadBuffer(bchol_context_queue(ctx), m, CL_TRUE, 0, bytes, h, 0, NULL, NULL)) {
        fprintf(stderr, "FAILED: clEnqueueReadBuffer\n");
        exit(1);
    }
}

static void download(cl_mem m, void *h, size_t elems) { download_bytes(m, h, elems * es); }

static int same_bits(const void *a, const void *b, size_t i)
{
    return !memcmp((const char *)a + i * es, (const char *)b + i * es, es);
}

/* potrs and posv on host-made interleaved batches. */
static void run_solve(const options *o, int posv)
{
    const int n = o->n, nrhs = o->nrhs;
    const long long batch = o->batch, chunk = o->chunk;
    const size_t nn = (size_t)n * n, nk = (size_t)n * nrhs;
    const size_t a_el = ilv_elems(nn, batch, chunk, o->tight);
    const size_t b_el = ilv_elems(nk, batch, chunk, o->tight);
    void *orig = malloc(nn * es * (size_t)batch), *rhs = malloc(nk * es * (size_t)batch);
    void *ha = malloc(a_el * es), *hb = malloc(b_el * es);
    void *ra = malloc(a_el * es), *rb = malloc(b_el * es), *x = malloc(nk * es + 1);
    int *expect = calloc((size_t)batch, sizeof *expect), *info = calloc((size_t)batch, sizeof *info);
    if (!orig || !rhs || !ha || !hb || !ra || !rb || !x || !expect || !info) abort();
    util_poison(orig, dbl, nn * (size_t)batch);
    util_poison(ha, dbl, a_el);
    util_poison(hb, dbl, b_el);
    util_rng r;
    util_rng_seed(&r, 1234 + (unsigned)n);
    for (long long b = 0; b < batch; b++) {
        char *m = (char *)orig + (size_t)b * nn * es;
        if (posv) {
            /* about one matrix in three broken, the others good */
            int kind = b % 3 == 1 ? 1 + (int)((b / 3) % (UTIL_KINDS - 1)) : UTIL_GOOD;
            expect[b] = util_spd_case(m, dbl, o->uplo, n, n, &r, kind, b);
            if (expect[b] < 0) {
                fprintf(stderr, "FAILED: test setup: matrix %lld is not broken\n", b);
                exit(1);
            }
        } else {
            util_spd(m, dbl, o->uplo, n, n, &r);
        }
        util_fill_uniform((char *)rhs + (size_t)b * nk * es, dbl, n, nrhs, n, &r);
        /* potrs gets the factor; both get only the stored triangle (the other is poison) */
        void *f = malloc(nn * es);
        memcpy(f, m, nn * es);
        if (!posv && util_ref_factor(f, dbl, o->uplo, n, n)) {
            fprintf(stderr, "FAILED: test setup: matrix %lld is not SPD\n", b);
            exit(1);
        }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (util_in_triangle(o->uplo, i, j))
                    util_set(ha, ilv(b, util_idx(i, j, n), nn, chunk), dbl,
                             util_get(f, util_idx(i, j, n), dbl));
        free(f);
        for (size_t e = 0; e < nk; e++)
            util_set(hb, ilv(b, e, nk, chunk), dbl, util_get((char *)rhs + (size_t)b * nk * es, e, dbl));
    }
    cl_mem A = upload(ha, a_el), B = upload(hb, b_el), I = NULL;
    bchol_status st;
    const int s = o->precision == 's';
    if (posv) {
        for (long long b = 0; b < batch; b++) info[b] = 77;
        I = upload_bytes(info, (size_t)batch * sizeof(int));
        st = s ? bchol_sposv_interleaved(ctx, o->uplo, n, nrhs, A, B, batch, chunk, I, NULL)
               : bchol_dposv_interleaved(ctx, o->uplo, n, nrhs, A, B, batch, chunk, I, NULL);
    } else if (o->nt || o->wg) {
        bchol_solve_params p = {0};
        p.nt = o->nt;
        p.tbc = o->wg;
        st = s ? bchol_spotrs_interleaved_ex(ctx, &p, o->uplo, n, nrhs, A, B, batch, chunk, NULL)
               : bchol_dpotrs_interleaved_ex(ctx, &p, o->uplo, n, nrhs, A, B, batch, chunk, NULL);
    } else {
        st = s ? bchol_spotrs_interleaved(ctx, o->uplo, n, nrhs, A, B, batch, chunk, NULL)
               : bchol_dpotrs_interleaved(ctx, o->uplo, n, nrhs, A, B, batch, chunk, NULL);
    }
    if (st) {
        fprintf(stderr, "FAILED: %s: %s\n", bchol_status_string(st), bchol_last_error(ctx));
        exit(1);
    }
    download(A, ra, a_el);
    download(B, rb, b_el);
    if (posv) download_bytes(I, info, (size_t)batch * sizeof(int));

    /* A: potrs reads only; posv writes only stored triangles of real matrices. */
    char *in_a = calloc(a_el, 1), *in_b = calloc(b_el, 1);
    for (long long b = 0; b < batch; b++) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (util_in_triangle(o->uplo, i, j)) in_a[ilv(b, util_idx(i, j, n), nn, chunk)] = 1;
        for (size_t e = 0; e < nk; e++) in_b[ilv(b, e, nk, chunk)] = 1;
    }
    for (size_t i = 0; i < a_el; i++)
        CHECK((posv && in_a[i]) || same_bits(ha, ra, i), "A element %zu changed", i);
    for (size_t i = 0; i < b_el; i++)
        CHECK(in_b[i] || same_bits(hb, rb, i), "B element %zu outside the blocks changed", i);

    double worst = 0;
    for (long long b = 0; b < batch; b++) {
        if (posv) CHECK(info[b] == expect[b], "info[%lld] = %d, expected %d", b, info[b], expect[b]);
        if (posv && expect[b] != 0) {
            for (size_t e = 0; e < nk; e++)
                CHECK(same_bits(hb, rb, ilv(b, e, nk, chunk)),
                      "B of failed matrix %lld changed at %zu", b, e);
            continue;
        }
        for (size_t e = 0; e < nk; e++) util_set(x, e, dbl, util_get(rb, ilv(b, e, nk, chunk), dbl));
        double res = util_solve_residual((char *)orig + (size_t)b * nn * es, dbl, o->uplo, n, n,
                                         nrhs, x, n, (char *)rhs + (size_t)b * nk * es, n);
        if (!(res <= worst)) worst = res;
    }
    CHECK(worst <= THRESHOLD, "worst residual %.3g > %g", worst, THRESHOLD);
    printf("%s %c%c n=%d nrhs=%d batch=%lld chunk=%lld: worst residual %.3g\n", o->mode,
           o->precision, o->uplo, n, nrhs, batch, chunk, worst);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    if (I) clReleaseMemObject(I);
    free(orig), free(rhs), free(ha), free(hb), free(ra), free(rb), free(x), free(expect);
    free(info), free(in_a), free(in_b);
}

/* Strided -> interleaved -> strided round trip of right-hand sides, exact. */
static void run_convert(const options *o)
{
    const int n = o->n, nrhs = o->nrhs, ldb = n + o->ldb_pad;
    const long long batch = o->batch, chunk = o->chunk;
    const long long stride = (long long)ldb * nrhs + o->stride_pad;
    const size_t nk = (size_t)n * nrhs;
    const size_t s_el = (size_t)(o->offset + (batch - 1) * stride + (long long)(nrhs - 1) * ldb + n);
    const size_t i_el = ilv_elems(nk, batch, chunk, o->tight);
    void *hs = malloc(s_el * es), *hi = malloc(i_el * es), *expect = malloc(i_el * es);
    void *rs = malloc(s_el * es), *ri = malloc(i_el * es), *poison_s = malloc(s_el * es);
    if (!hs || !hi || !expect || !rs || !ri || !poison_s) abort();
    util_poison(hs, dbl, s_el);
    util_poison(poison_s, dbl, s_el);
    util_poison(hi, dbl, i_el);
    memcpy(expect, hi, i_el * es);
    util_rng r;
    util_rng_seed(&r, 99);
    for (long long b = 0; b < batch; b++)
        for (int c = 0; c < nrhs; c++)
            for (int i = 0; i < n; i++) {
                const double v = util_rng_uniform(&r);
                util_set(hs, (size_t)(o->offset + b * stride) + util_idx(i, c, ldb), dbl, v);
                util_set(expect, ilv(b, (size_t)i + (size_t)c * n, nk, chunk), dbl, v);
            }
    cl_mem S = upload(hs, s_el), I = upload(hi, i_el);
    const int s = o->precision == 's';
    bchol_status st =
        s ? bchol_sinterleave_rhs(ctx, n, nrhs, S, o->offset, ldb, stride, batch, I, chunk, NULL)
          : bchol_dinterleave_rhs(ctx, n, nrhs, S, o->offset, ldb, stride, batch, I, chunk, NULL);
    CHECK(!st, "interleave_rhs: %s", bchol_last_error(ctx));
    download(I, ri, i_el);
    CHECK(!memcmp(ri, expect, i_el * es), "interleave_rhs: result differs from the layout");
    /* back into a freshly poisoned strided buffer: blocks as before, gaps untouched */
    cl_mem S2 = upload(poison_s, s_el);
    st = s ? bchol_sdeinterleave_rhs(ctx, n, nrhs, I, batch, chunk, S2, o->offset, ldb, stride, NULL)
           : bchol_ddeinterleave_rhs(ctx, n, nrhs, I, batch, chunk, S2, o->offset, ldb, stride, NULL);
    CHECK(!st, "deinterleave_rhs: %s", bchol_last_error(ctx));
    download(S2, rs, s_el);
    CHECK(!memcmp(rs, hs, s_el * es), "deinterleave_rhs: round trip is not exact");
    printf("convert %c n=%d nrhs=%d batch=%lld chunk=%lld: %s\n", o->precision, n, nrhs,
           batch, chunk, failures ? "FAILED" : "exact");
    clReleaseMemObject(S);
    clReleaseMemObject(S2);
    clReleaseMemObject(I);
    free(hs), free(hi), free(expect), free(rs), free(ri), free(poison_s);
}

/* Bad arguments: the status, and a message naming the argument. */
static void expect_status(bchol_status got, bchol_status want, const char *what, const char *name)
{
    CHECK(got == want, "%s: status %d (%s), expected %d", what, (int)got, bchol_last_error(ctx),
          (int)want);
    if (got == want && name && got != BCHOL_SUCCESS)
        CHECK(strstr(bchol_last_error(ctx), name) != NULL, "%s: message '%s' does not name %s", what,
              bchol_last_error(ctx), name);
}

static void run_args(void)
{
    /* n = 4, nrhs = 2, batch = 5, chunk = 2; A holds SPD-free zeros (statuses only) */
    cl_mem A = upload_bytes(NULL, 6 * 16 * sizeof(double));
    cl_mem B = upload_bytes(NULL, 6 * 8 * sizeof(double));
    cl_mem I = upload_bytes(NULL, 5 * sizeof(int)), small = upload_bytes(NULL, 8);
    cl_event ev = (cl_event)1;
    expect_status(bchol_dpotrs_interleaved(NULL, 'L', 4, 2, A, B, 5, 2, NULL), BCHOL_ERR_CONTEXT,
                  "null context", NULL);
    expect_status(bchol_dpotrs_interleaved(ctx, 'X', 4, 2, A, B, 5, 2, &ev), BCHOL_ERR_UPLO, "uplo",
                  "argument 2");
    CHECK(ev == NULL, "event not cleared on error");
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', -1, 2, A, B, 5, 2, NULL), BCHOL_ERR_N, "n",
                  "argument 3 (n = -1)");
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 4, -1, A, B, 5, 2, NULL), BCHOL_ERR_NRHS,
                  "nrhs", "argument 4 (nrhs = -1)");
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 4, 2, A, B, -1, 2, NULL), BCHOL_ERR_BATCH,
                  "batch", "argument 7");
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 4, 2, A, B, 5, 0, NULL), BCHOL_ERR_CHUNK,
                  "chunk", "argument 8 (chunk = 0)");
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 4, 2, small, B, 5, 2, NULL), BCHOL_ERR_A_SIZE,
                  "small A", "argument 5");
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 4, 2, A, small, 5, 2, NULL), BCHOL_ERR_B_SIZE,
                  "small B", "argument 6");
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 4, 2, NULL, B, 5, 2, NULL), BCHOL_ERR_A,
                  "null A", "argument 5");
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 4, 9, A, B, 5, 2, NULL), BCHOL_ERR_B_SIZE,
                  "nrhs too large for B", "argument 6");
    /* quick returns check no buffers */
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 4, 0, NULL, NULL, 5, 2, &ev), BCHOL_SUCCESS,
                  "nrhs = 0", NULL);
    CHECK(ev == NULL, "quick return gave an event");
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 0, 2, NULL, NULL, 5, 2, NULL), BCHOL_SUCCESS,
                  "n = 0", NULL);
    expect_status(bchol_dpotrs_interleaved(ctx, 'L', 4, 2, NULL, NULL, 0, 2, NULL), BCHOL_SUCCESS,
                  "batch = 0", NULL);
    /* the tight span is enough: 5 matrices in chunks of 2 need (3*16-1)*2+1 elements */
    cl_mem tight = upload_bytes(NULL, 95 * sizeof(double));
    expect_status(bchol_dpotrf_interleaved(ctx, 'L', 4, tight, 5, 2, I, NULL), BCHOL_SUCCESS,
                  "tight A (potrf)", NULL);
    clReleaseMemObject(tight);

    bchol_solve_params p = {0};
    p.nt = 33;
    expect_status(bchol_dpotrs_interleaved_ex(ctx, &p, 'L', 4, 2, A, B, 5, 2, NULL),
                  BCHOL_ERR_ARGUMENT, "params->nt", "argument 2");
    p.nt = 0;
    expect_status(bchol_dpotrs_interleaved_ex(ctx, &p, 'L', 4, -2, A, B, 5, 2, NULL),
                  BCHOL_ERR_NRHS, "ex nrhs", "argument 5 (nrhs = -2)");

    expect_status(bchol_dposv_interleaved(ctx, 'L', 4, 2, A, B, 5, 2, small, NULL),
                  BCHOL_ERR_INFO_SIZE, "small info", "argument 9");
    expect_status(bchol_dposv_interleaved(ctx, 'L', 4, 2, A, B, 5, 2, NULL, NULL), BCHOL_ERR_INFO,
                  "null info", "argument 9");
    expect_status(bchol_dposv_interleaved(ctx, 'L', 4, 2, A, B, 5, -3, I, NULL), BCHOL_ERR_CHUNK,
                  "posv chunk", "argument 8");
    bchol_params fp = {0};
    fp.variant = BCHOL_VARIANT_FUSED;
    expect_status(bchol_dposv_interleaved_ex(ctx, &fp, 'L', 4, 2, A, B, 5, 2, I, NULL),
                  BCHOL_ERR_ARGUMENT, "posv_ex variant", "argument 2");
    fp.variant = 0;
    expect_status(bchol_dposv_interleaved_ex(ctx, &fp, 'L', 4, 2, A, B, 5, 2, small, NULL),
                  BCHOL_ERR_INFO_SIZE, "posv_ex info", "argument 10");
    /* nrhs = 0 in posv still needs A (it factors) */
    expect_status(bchol_dposv_interleaved(ctx, 'L', 4, 0, small, NULL, 5, 2, I, NULL),
                  BCHOL_ERR_A_SIZE, "posv nrhs = 0 small A", "argument 5");

    expect_status(bchol_dinterleave_rhs(ctx, 4, 2, B, 0, 3, 8, 5, A, 2, NULL), BCHOL_ERR_LDB,
                  "interleave_rhs ldb", "argument 6 (ldb = 3)");
    expect_status(bchol_dinterleave_rhs(ctx, 4, 2, B, 0, 4, 7, 5, A, 2, NULL), BCHOL_ERR_STRIDE_B,
                  "interleave_rhs stride", "argument 7");
    expect_status(bchol_dinterleave_rhs(ctx, 4, 2, B, -1, 4, 8, 5, A, 2, NULL), BCHOL_ERR_OFFSET_B,
                  "interleave_rhs offset", "argument 5");
    expect_status(bchol_dinterleave_rhs(ctx, 4, -2, B, 0, 4, 8, 5, A, 2, NULL), BCHOL_ERR_NRHS,
                  "interleave_rhs nrhs", "argument 3");
    expect_status(bchol_dinterleave_rhs(ctx, 4, 2, B, 0, 4, 8, 5, small, 2, NULL), BCHOL_ERR_B_SIZE,
                  "interleave_rhs small Bi", "argument 9");
    expect_status(bchol_ddeinterleave_rhs(ctx, 4, 2, B, 5, 0, A, 0, 4, 8, NULL), BCHOL_ERR_CHUNK,
                  "deinterleave_rhs chunk", "argument 6");
    expect_status(bchol_ddeinterleave_rhs(ctx, 4, 2, B, 5, 2, small, 0, 4, 8, NULL),
                  BCHOL_ERR_B_SIZE, "deinterleave_rhs small B", "argument 7");
    expect_status(bchol_ddeinterleave_rhs(ctx, 4, 2, B, 5, 2, A, 0, 4, 8, NULL), BCHOL_SUCCESS,
                  "deinterleave_rhs good", NULL);
    /* posv quick paths: n = 0 sets info to 0 (B not needed); nrhs = 0 only factors */
    int sentinel[5] = {9, 9, 9, 9, 9}, got[5];
    cl_mem I0 = upload_bytes(sentinel, sizeof sentinel);
    expect_status(bchol_dposv_interleaved(ctx, 'L', 0, 2, NULL, NULL, 5, 2, I0, NULL),
                  BCHOL_SUCCESS, "posv n = 0", NULL);
    download_bytes(I0, got, sizeof got);
    for (int b = 0; b < 5; b++) CHECK(got[b] == 0, "posv n = 0: info[%d] = %d", b, got[b]);
    {
        /* identity matrices (lower triangle), whole chunks: factor only, info 0, B unused */
        double id[6 * 16] = {0};
        for (int b = 0; b < 6; b++)
            for (int i = 0; i < 4; i++) id[ilv(b, (size_t)i * 5, 16, 2)] = 1.0;
        cl_mem Aid = upload_bytes(id, sizeof id);
        clEnqueueWriteBuffer(bchol_context_queue(ctx), I0, CL_TRUE, 0, sizeof sentinel, sentinel,
                             0, NULL, NULL);
        expect_status(bchol_dposv_interleaved(ctx, 'L', 4, 0, Aid, NULL, 5, 2, I0, NULL),
                      BCHOL_SUCCESS, "posv nrhs = 0", NULL);
        download_bytes(I0, got, sizeof got);
        for (int b = 0; b < 5; b++) CHECK(got[b] == 0, "posv nrhs = 0: info[%d] = %d", b, got[b]);
        clReleaseMemObject(Aid);
    }
    clReleaseMemObject(I0);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(I);
    clReleaseMemObject(small);

    /* host-array forms: the device forms' positions, host pointers checked for NULL */
    double ha[6 * 16] = {0}, hb[6 * 8] = {0};
    int hi[5] = {9, 9, 9, 9, 9};
    expect_status(bchol_dpotrf_interleaved_host(NULL, 'L', 4, ha, 5, 2, hi), BCHOL_ERR_CONTEXT,
                  "host potrf null context", NULL);
    expect_status(bchol_dpotrf_interleaved_host(ctx, 'x', 4, ha, 5, 2, hi), BCHOL_ERR_UPLO,
                  "host potrf uplo", "argument 2");
    expect_status(bchol_dpotrf_interleaved_host(ctx, 'L', -4, ha, 5, 2, hi), BCHOL_ERR_N,
                  "host potrf n", "argument 3 (n = -4)");
    expect_status(bchol_dpotrf_interleaved_host(ctx, 'L', 4, NULL, 5, 2, hi), BCHOL_ERR_A,
                  "host potrf A", "argument 4 (A)");
    expect_status(bchol_dpotrf_interleaved_host(ctx, 'L', 4, ha, -5, 2, hi), BCHOL_ERR_BATCH,
                  "host potrf batch", "argument 5 (batch = -5)");
    expect_status(bchol_dpotrf_interleaved_host(ctx, 'L', 4, ha, 5, 0, hi), BCHOL_ERR_CHUNK,
                  "host potrf chunk", "argument 6 (chunk = 0)");
    expect_status(bchol_dpotrf_interleaved_host(ctx, 'L', 4, ha, 5, 2, NULL), BCHOL_ERR_INFO,
                  "host potrf info", "argument 7 (info)");
    expect_status(bchol_spotrs_interleaved_host(ctx, 'U', 4, -1, (float *)ha, (float *)hb, 5, 2),
                  BCHOL_ERR_NRHS, "host potrs nrhs", "argument 4 (nrhs = -1)");
    expect_status(bchol_spotrs_interleaved_host(ctx, 'U', 4, 2, NULL, (float *)hb, 5, 2),
                  BCHOL_ERR_A, "host potrs A", "argument 5 (A)");
    expect_status(bchol_spotrs_interleaved_host(ctx, 'U', 4, 2, (float *)ha, NULL, 5, 2),
                  BCHOL_ERR_B, "host potrs B", "argument 6 (B)");
    expect_status(bchol_spotrs_interleaved_host(ctx, 'U', 4, 2, (float *)ha, (float *)hb, -1, 2),
                  BCHOL_ERR_BATCH, "host potrs batch", "argument 7");
    expect_status(bchol_spotrs_interleaved_host(ctx, 'U', 4, 2, (float *)ha, (float *)hb, 5, -2),
                  BCHOL_ERR_CHUNK, "host potrs chunk", "argument 8 (chunk = -2)");
    expect_status(bchol_dposv_interleaved_host(ctx, 'L', 4, 2, ha, hb, 5, 2, NULL),
                  BCHOL_ERR_INFO, "host posv info", "argument 9 (info)");
    expect_status(bchol_dposv_interleaved_host(ctx, 'L', 4, 2, ha, NULL, 5, 2, hi), BCHOL_ERR_B,
                  "host posv B", "argument 6 (B)");
    expect_status(bchol_dposv_interleaved_host(ctx, 'L', 4, 2, ha, hb, 5, 0, hi), BCHOL_ERR_CHUNK,
                  "host posv chunk", "argument 8");
    /* one chunk beyond the device's largest allocation (the simple layout of a huge chunk);
     * nothing is read, so the arrays need not hold it */
    expect_status(bchol_dpotrf_interleaved_host(ctx, 'L', 4, ha, 5, (int64_t)1 << 40, hi),
                  BCHOL_ERR_OUT_OF_MEMORY, "host potrf huge chunk", "chunk");
    /* quick returns: pointers the call does not use may be NULL; n = 0 sets info */
    expect_status(bchol_dpotrs_interleaved_host(ctx, 'L', 4, 0, NULL, NULL, 5, 2), BCHOL_SUCCESS,
                  "host potrs nrhs = 0", NULL);
    expect_status(bchol_dpotrs_interleaved_host(ctx, 'L', 0, 2, NULL, NULL, 5, 2), BCHOL_SUCCESS,
                  "host potrs n = 0", NULL);
    expect_status(bchol_dposv_interleaved_host(ctx, 'L', 4, 2, NULL, NULL, 0, 2, NULL),
                  BCHOL_SUCCESS, "host posv batch = 0", NULL);
    expect_status(bchol_dposv_interleaved_host(ctx, 'L', 0, 2, NULL, NULL, 5, 2, hi),
                  BCHOL_SUCCESS, "host posv n = 0", NULL);
    for (int b = 0; b < 5; b++) CHECK(hi[b] == 0, "host posv n = 0: info[%d] = %d", b, hi[b]);
    for (int b = 0; b < 5; b++) hi[b] = 9;
    expect_status(bchol_spotrf_interleaved_host(ctx, 'U', 0, NULL, 5, 2, hi), BCHOL_SUCCESS,
                  "host potrf n = 0", NULL);
    for (int b = 0; b < 5; b++) CHECK(hi[b] == 0, "host potrf n = 0: info[%d] = %d", b, hi[b]);
    printf("args: %s\n", failures ? "failed" : "all statuses as documented");
}

/* posv with a solve kernel that does not build: an error, and nothing changed. */
static void run_buildfail(const options *o)
{
    char dir[] = "/tmp/bchol-ilvsolve-XXXXXX", path[512];
    if (!o->kernels || !mkdtemp(dir)) usage();
    char buf[1 << 16];
    snprintf(path, sizeof path, "%s/common/common.cl", o->kernels);
    FILE *in = fopen(path, "r");
    snprintf(path, sizeof path, "%s/common", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/chol", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/common/common.cl", dir);
    FILE *out = fopen(path, "w");
    if (!in || !out) exit(1);
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, got, out);
    fclose(in);
    fclose(out);
    snprintf(path, sizeof path, "%s/chol/potrs_interleaved.cl", dir);
    out = fopen(path, "w");
    fputs("this is not OpenCL C;\n", out);
    fclose(out);
    setenv("BCHOL_KERNEL_DIR", dir, 1);

    const int n = 6, nrhs = 2;
    const long long batch = 5, chunk = 4;
    const size_t a_el = ilv_elems((size_t)n * n, batch, chunk, 0);
    const size_t b_el = ilv_elems((size_t)n * nrhs, batch, chunk, 0);
    void *ha = malloc(a_el * es), *hb = malloc(b_el * es), *ra = malloc(a_el * es),
         *rb = malloc(b_el * es);
    int hi[5] = {7, 7, 7, 7, 7}, ri[5];
    util_poison(ha, dbl, a_el);
    util_poison(hb, dbl, b_el);
    cl_mem A = upload(ha, a_el), B = upload(hb, b_el), I = upload_bytes(hi, sizeof hi);
    bchol_status st = o->precision == 's'
                          ? bchol_sposv_interleaved(ctx, 'L', n, nrhs, A, B, batch, chunk, I, NULL)
                          : bchol_dposv_interleaved(ctx, 'L', n, nrhs, A, B, batch, chunk, I, NULL);
    CHECK(st == BCHOL_ERR_BUILD, "posv with a broken solve kernel: status %d (%s)", (int)st,
          bchol_last_error(ctx));
    download(A, ra, a_el);
    download(B, rb, b_el);
    download_bytes(I, ri, sizeof ri);
    CHECK(!memcmp(ha, ra, a_el * es), "A changed");
    CHECK(!memcmp(hb, rb, b_el * es), "B changed");
    CHECK(!memcmp(hi, ri, sizeof hi), "info changed");
    unsetenv("BCHOL_KERNEL_DIR");
    remove(path);
    snprintf(path, sizeof path, "%s/common/common.cl", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/common", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/chol", dir);
    rmdir(path);
    remove(dir);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(I);
    free(ha), free(hb), free(ra), free(rb);
    printf("buildfail: %s\n", failures ? "FAILED" : "posv failed before factoring");
}

/* One posv on fresh buffers with the fault armed around the call; the buffers' contents
 * afterwards go to ra, rb, ri. */
typedef struct {
    bchol_status st;
    long fired, launched;
    int event_ok;
} outcome;

static outcome posv_with_fault(const options *o, const void *ha, size_t a_el, const void *hb,
                               size_t b_el, const int *hi, long k, void *ra, void *rb, int *ri)
{
    static const cl_int errors[] = {CL_OUT_OF_RESOURCES, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                                    CL_OUT_OF_HOST_MEMORY};
    const size_t ibytes = (size_t)o->batch * sizeof(int);
    cl_mem A = upload(ha, a_el), B = upload(hb, b_el), I = upload_bytes(hi, ibytes);
    outcome r = {0};
    const long launches = shim_launches();
    cl_event ev = (cl_event)&r; /* must be overwritten */
    shim_fail(SHIM_ANY, k, 1, errors[k % 3]);
    r.st = o->precision == 's'
               ? bchol_sposv_interleaved(ctx, o->uplo, o->n, o->nrhs, A, B, o->batch, o->chunk,
                                         I, &ev)
               : bchol_dposv_interleaved(ctx, o->uplo, o->n, o->nrhs, A, B, o->batch, o->chunk,
                                         I, &ev);
    r.fired = shim_faults();
    shim_fail(SHIM_ANY, 0, 0, CL_SUCCESS);
    r.launched = shim_launches() - launches;
    r.event_ok = r.st ? ev == NULL : ev != NULL && ev != (cl_event)&r;
    if (ev && ev != (cl_event)&r) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    clFinish(bchol_context_queue(ctx));
    download(A, ra, a_el);
    download(B, rb, b_el);
    download_bytes(I, ri, ibytes);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(I);
    return r;
}

static void run_faults(const options *o)
{
    const int n = o->n, nrhs = o->nrhs;
    const long long batch = o->batch, chunk = o->chunk;
    const size_t nn = (size_t)n * n, nk = (size_t)n * nrhs;
    const size_t a_el = ilv_elems(nn, batch, chunk, 0), b_el = ilv_elems(nk, batch, chunk, 0);
    const size_t ibytes = (size_t)batch * sizeof(int);
    void *ha = malloc(a_el * es), *hb = malloc(b_el * es), *ea = malloc(a_el * es),
         *eb = malloc(b_el * es), *ra = malloc(a_el * es), *rb = malloc(b_el * es);
    int *hi = malloc(ibytes), *ei = malloc(ibytes), *ri = malloc(ibytes);
    util_rng r;
    util_rng_seed(&r, 5);
    for (size_t i = 0; i < a_el; i++) util_set(ha, i, dbl, 0.5); /* padding lanes: finite */
    void *m = malloc(nn * es);
    for (long long b = 0; b < batch; b++) {
        util_spd(m, dbl, o->uplo, n, n, &r);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (util_in_triangle(o->uplo, i, j))
                    util_set(ha, ilv(b, util_idx(i, j, n), nn, chunk), dbl,
                             util_get(m, util_idx(i, j, n), dbl));
        hi[b] = 99;
    }
    free(m);
    util_fill_uniform(hb, dbl, (int)b_el, 1, (int)b_el, &r);
    outcome out = posv_with_fault(o, ha, a_el, hb, b_el, hi, 0, ea, eb, ei);
    CHECK(!out.st && out.event_ok, "posv without faults: %s", bchol_last_error(ctx));
    long k, statuses = 0, absorbed = 0;
    for (k = 1; k < 1000; k++) {
        out = posv_with_fault(o, ha, a_el, hb, b_el, hi, k, ra, rb, ri);
        if (!out.fired) break;
        CHECK(out.event_ok, "call %ld: event %s", k, out.st ? "set on failure" : "missing");
        if (out.st) {
            statuses++;
            CHECK(out.st < 0 && strcmp(bchol_status_string(out.st), "unknown status"),
                  "call %ld: status %d is not a known error", k, (int)out.st);
            CHECK(*bchol_last_error(ctx), "call %ld: no message", k);
            if (!out.launched)
                CHECK(!memcmp(ra, ha, a_el * es) && !memcmp(rb, hb, b_el * es) &&
                          !memcmp(ri, hi, ibytes),
                      "call %ld: failed before any launch, but the buffers changed", k);
        } else {
            absorbed++;
            CHECK(!memcmp(ra, ea, a_el * es) && !memcmp(rb, eb, b_el * es) &&
                      !memcmp(ri, ei, ibytes),
                      "call %ld: absorbed fault, but the result differs", k);
        }
    }
    CHECK(k > 3, "only %ld OpenCL calls seen", k - 1);
    printf("faults: failed each of posv's %ld OpenCL calls in turn: %ld statuses, %ld absorbed\n",
           k - 1, statuses, absorbed);
    free(ha), free(hb), free(ea), free(eb), free(ra), free(rb), free(hi), free(ei), free(ri);
}

/* ---- host-array forms ------------------------------------------------------------- */

static void *copy_of(const void *p, size_t bytes)
{
    void *q = malloc(bytes ? bytes : 1);
    if (!q) abort();
    memcpy(q, p, bytes);
    return q;
}

/* The device-buffer routine on copies of a (a_el elements, the tight span), b, info,
 * in buffers of whole chunks; the results overwrite a, b, info. what: 0 potrf, 1 potrs,
 * 2 posv. */
static void device_run(const options *o, int what, void *a, size_t a_el, void *b, size_t b_el,
                       int *info)
{
    const int n = o->n, s = o->precision == 's';
    const size_t whole_a = ilv_elems((size_t)n * n, o->batch, o->chunk, 0);
    const size_t whole_b = ilv_elems((size_t)n * o->nrhs, o->batch, o->chunk, 0);
    const size_t ibytes = (size_t)o->batch * sizeof(int);
    cl_mem A = upload(NULL, whole_a), B = upload(NULL, whole_b), I = upload_bytes(info, ibytes);
    cl_command_queue q = bchol_context_queue(ctx);
    clEnqueueWriteBuffer(q, A, CL_TRUE, 0, a_el * es, a, 0, NULL, NULL);
    clEnqueueWriteBuffer(q, B, CL_TRUE, 0, b_el * es, b, 0, NULL, NULL);
    bchol_status st;
    if (what == 0)
        st = s ? bchol_spotrf_interleaved(ctx, o->uplo, n, A, o->batch, o->chunk, I, NULL)
               : bchol_dpotrf_interleaved(ctx, o->uplo, n, A, o->batch, o->chunk, I, NULL);
    else if (what == 1)
        st = s ? bchol_spotrs_interleaved(ctx, o->uplo, n, o->nrhs, A, B, o->batch, o->chunk, NULL)
               : bchol_dpotrs_interleaved(ctx, o->uplo, n, o->nrhs, A, B, o->batch, o->chunk, NULL);
    else
        st = s ? bchol_sposv_interleaved(ctx, o->uplo, n, o->nrhs, A, B, o->batch, o->chunk, I, NULL)
               : bchol_dposv_interleaved(ctx, o->uplo, n, o->nrhs, A, B, o->batch, o->chunk, I, NULL);
    if (st) {
        fprintf(stderr, "FAILED: device routine %d: %s\n", what, bchol_last_error(ctx));
        exit(1);
    }
    download(A, a, a_el);
    download(B, b, b_el);
    download_bytes(I, info, ibytes);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(I);
}

static bchol_status host_run(bchol_context *c, const options *o, int what, void *a, void *b,
                             int *info)
{
    const int n = o->n, k = o->nrhs, s = o->precision == 's';
    if (what == 0)
        return s ? bchol_spotrf_interleaved_host(c, o->uplo, n, a, o->batch, o->chunk, info)
                 : bchol_dpotrf_interleaved_host(c, o->uplo, n, a, o->batch, o->chunk, info);
    if (what == 1)
        return s ? bchol_spotrs_interleaved_host(c, o->uplo, n, k, a, b, o->batch, o->chunk)
                 : bchol_dpotrs_interleaved_host(c, o->uplo, n, k, a, b, o->batch, o->chunk);
    return s ? bchol_sposv_interleaved_host(c, o->uplo, n, k, a, b, o->batch, o->chunk, info)
             : bchol_dposv_interleaved_host(c, o->uplo, n, k, a, b, o->batch, o->chunk, info);
}

/* Whether matrix b's elements in x (blocks of per elements) equal those in y. */
static int block_same(const void *x, const void *y, long long b, size_t per, long long chunk)
{
    for (size_t e = 0; e < per; e++)
        if (!same_bits(x, y, ilv(b, e, per, chunk))) return 0;
    return 1;
}

static void run_host(const options *o)
{
    const int n = o->n, nrhs = o->nrhs;
    const long long batch = o->batch, chunk = o->chunk;
    const size_t nn = (size_t)n * n, nk = (size_t)n * nrhs;
    const size_t a_el = ilv_elems(nn, batch, chunk, 1), b_el = ilv_elems(nk, batch, chunk, 1);
    const size_t ibytes = (size_t)batch * sizeof(int);
    /* inputs: SPD and broken matrices (stored triangle), poison elsewhere (other
     * triangle, padding lanes of the last chunk) */
    void *ha = malloc(a_el * es), *hb = malloc(b_el * es), *m = malloc(nn * es);
    int *hi = malloc(ibytes);
    if (!ha || !hb || !m || !hi) abort();
    util_poison(ha, dbl, a_el);
    util_poison(hb, dbl, b_el);
    util_rng r;
    util_rng_seed(&r, 4321 + (unsigned)n);
    for (long long b = 0; b < batch; b++) {
        const int kind = b % 3 == 1 ? 1 + (int)((b / 3) % (UTIL_KINDS - 1)) : UTIL_GOOD;
        util_spd_case(m, dbl, o->uplo, n, n, &r, kind, b);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (util_in_triangle(o->uplo, i, j))
                    util_set(ha, ilv(b, util_idx(i, j, n), nn, chunk), dbl,
                             util_get(m, util_idx(i, j, n), dbl));
        for (size_t e = 0; e < nk; e++) util_set(hb, ilv(b, e, nk, chunk), dbl, util_rng_uniform(&r));
        hi[b] = 55;
    }
    free(m);

    /* references from the device-buffer routines: posv, potrf, potrs (on posv's factors) */
    void *pa = copy_of(ha, a_el * es), *pb = copy_of(hb, b_el * es);
    int *pi = copy_of(hi, ibytes);
    const long launches = shim_launches();
    device_run(o, 2, pa, a_el, pb, b_el, pi);
    const long device_launches = shim_launches() - launches;
    void *fa = copy_of(ha, a_el * es), *fb = copy_of(hb, b_el * es);
    int *fi = copy_of(hi, ibytes);
    device_run(o, 0, fa, a_el, fb, b_el, fi);
    void *sa = copy_of(pa, a_el * es), *sb = copy_of(hb, b_el * es);
    int *si = copy_of(hi, ibytes);
    device_run(o, 1, sa, a_el, sb, b_el, si);

    bchol_context *hc = ctx;
    if (o->max_alloc) {
        shim_set_max_alloc((cl_ulong)o->max_alloc);
        if (bchol_context_create(NULL, &hc)) {
            fprintf(stderr, "FAILED: no second context: %s\n", bchol_last_error(NULL));
            exit(1);
        }
    }
    static const char *const names[] = {"potrf", "potrs", "posv"};
    const void *want_a[] = {fa, pa, pa}, *want_b[] = {hb, sb, pb};
    const int *want_i[] = {fi, hi, pi};
    long host_launches = 0;
    for (int what = 0; what < 3; what++) {
        /* arrays of exactly the span (no slack: AddressSanitizer sees any overrun) */
        void *a = copy_of(ha, a_el * es), *b = copy_of(hb, b_el * es);
        int *info = copy_of(hi, ibytes);
        if (what == 1) memcpy(a, pa, a_el * es);
        const long before = shim_launches();
        bchol_status st = host_run(hc, o, what, a, what ? b : NULL, what != 1 ? info : NULL);
        if (what == 2) host_launches = shim_launches() - before;
        CHECK(!st, "%s_interleaved_host: %s", names[what], bchol_last_error(hc));
        CHECK(!memcmp(a, want_a[what], a_el * es), "%s_interleaved_host: A differs from the "
              "device routine's", names[what]);
        CHECK(!memcmp(b, want_b[what], b_el * es), "%s_interleaved_host: B differs from the "
              "device routine's", names[what]);
        CHECK(!memcmp(info, want_i[what], ibytes), "%s_interleaved_host: info differs from the "
              "device routine's", names[what]);
        free(a), free(b), free(info);
    }
    int failed_matrices = 0;
    for (long long b = 0; b < batch; b++) failed_matrices += pi[b] != 0;
    CHECK(failed_matrices > 0 && failed_matrices < batch, "test setup: %d of %lld matrices failed",
          failed_matrices, batch);

    if (o->max_alloc) {
        CHECK(host_launches > device_launches,
              "posv_interleaved_host made %ld launches, the device routine %ld: no pieces",
              host_launches, device_launches);
        /* a refused allocation before anything came back: smaller pieces, same result */
        void *a = copy_of(ha, a_el * es), *b = copy_of(hb, b_el * es);
        int *info = copy_of(hi, ibytes);
        shim_fail(SHIM_BUFFER, 1, 1, CL_MEM_OBJECT_ALLOCATION_FAILURE);
        bchol_status st = host_run(hc, o, 2, a, b, info);
        CHECK(shim_faults() == 1, "the allocation fault did not fire");
        shim_fail(SHIM_BUFFER, 0, 0, CL_SUCCESS);
        CHECK(!st && !memcmp(a, pa, a_el * es) && !memcmp(b, pb, b_el * es) &&
                  !memcmp(info, pi, ibytes),
              "posv_interleaved_host with a refused allocation: status %d (%s) or results differ",
              (int)st, bchol_last_error(hc));
        /* a launch failing after the first piece: every matrix as it was or done */
        memcpy(a, ha, a_el * es), memcpy(b, hb, b_el * es), memcpy(info, hi, ibytes);
        shim_fail(SHIM_LAUNCH, device_launches + 1, 1, CL_OUT_OF_RESOURCES);
        st = host_run(hc, o, 2, a, b, info);
        shim_fail(SHIM_LAUNCH, 0, 0, CL_SUCCESS);
        CHECK(st < 0, "posv_interleaved_host with a failed launch returned %d", (int)st);
        long long done = 0, kept = 0;
        for (long long m2 = 0; m2 < batch; m2++) {
            const int was = block_same(a, ha, m2, nn, chunk) && block_same(b, hb, m2, nk, chunk) &&
                            info[m2] == hi[m2];
            const int now = block_same(a, pa, m2, nn, chunk) && block_same(b, pb, m2, nk, chunk) &&
                            info[m2] == pi[m2];
            CHECK(was || now, "failed posv_interleaved_host: matrix %lld neither as it was nor done",
                  m2);
            done += now && !was, kept += was && !now;
        }
        CHECK(done > 0 && kept > 0, "failed posv_interleaved_host: %lld done, %lld as they were "
              "(the failure should fall between pieces)", done, kept);
        for (size_t e = 0; e < a_el; e++) {
            /* padding lanes never change */
            const long long lane = (long long)(e % (size_t)chunk), q = (long long)(e / (size_t)chunk / nn);
            if (q * chunk + lane >= batch) CHECK(same_bits(a, ha, e), "padding lane of A changed");
        }
        free(a), free(b), free(info);
        bchol_context_destroy(hc);
    }
    printf("host %c%c n=%d nrhs=%d batch=%lld chunk=%lld: potrf, potrs, posv equal the device "
           "routines bit for bit (posv launches: %ld host, %ld device)\n",
           o->precision, o->uplo, n, nrhs, batch, chunk, host_launches, device_launches);
    free(ha), free(hb), free(hi), free(pa), free(pb), free(pi), free(fa), free(fb), free(fi);
    free(sa), free(sb), free(si);
}

int main(int argc, char **argv)
{
    options o = parse(argc, argv);
    if (test_skip_precision(o.precision)) return TEST_SKIP;
    /* the argument checks are of the double routines */
    if (!strcmp(o.mode, "args") && test_skip_precision('d')) return TEST_SKIP;
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "FAILED: no context: %s\n", bchol_last_error(ctx));
        return 1;
    }
    dbl = o.precision == 'd';
    es = dbl ? sizeof(double) : sizeof(float);
    if (!strcmp(o.mode, "potrs")) run_solve(&o, 0);
    else if (!strcmp(o.mode, "posv")) run_solve(&o, 1);
    else if (!strcmp(o.mode, "convert")) run_convert(&o);
    else if (!strcmp(o.mode, "args")) run_args();
    else if (!strcmp(o.mode, "buildfail")) run_buildfail(&o);
    else if (!strcmp(o.mode, "faults")) run_faults(&o);
    else if (!strcmp(o.mode, "host")) run_host(&o);
    else usage();
    bchol_context_destroy(ctx);
    return failures ? 1 : 0;
}
