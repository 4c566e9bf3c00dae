/*
 * Tester for the interleaved routines: one case per run, chosen by options; exit code 0 on
 * pass.
 *
 *   --mode factor|info  bchol_{s,d}potrf_interleaved_ex on an interleaved batch: the worst
 *                       backward error, the exact info (info mode: non-SPD, NaN and Inf
 *                       matrices among good ones), and every element outside the stored
 *                       triangles of the batch -- the other triangle, the padding lanes of
 *                       the last chunk, the tail of the buffer -- bit for bit unchanged.
 *   --mode copy         bchol_{s,d}interleave then _deinterleave of a strided batch with
 *                       padding (lda, stride, offset): both copies exact, and nothing of
 *                       either destination written outside the copied part (--copy L|U|A).
 *   --mode args         argument checks of the four new routine families.
 *   --mode subnormal    as factor, on diagonal SPD matrices with one positive subnormal
 *                       pivot each (at b % n): LAPACK's info is 0, with fast math too.
 *
 *   test_interleaved --precision s|d --uplo L|U --n N [--batch B] [--chunk C (0: simple,
 *       chunk = batch)] [--tight 0|1 (buffer of the minimal span instead of whole chunks)]
 *       [--nb NB] [--looking left|right|top] [--unroll tiles|full] [--wg W] [--math ieee|fast]
 *       [--mode factor|info|copy|args] [--copy L|U|A] [--seed X] [--split G (at most G
 *       work-groups per launch)]
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"
#include "params_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0
#define TAIL 37 /* poisoned elements after the batch */

typedef struct {
    char precision, uplo, copy, mode[16];
    int n, tight;
    long long batch, chunk;
    unsigned long long seed;
    bchol_params prm;
} options;

static void usage(void)
{
    fprintf(stderr, "usage: test_interleaved --precision s|d --uplo L|U --n N [--batch B] [--chunk C] "
                    "[--tight 0|1] [--nb NB] [--looking left|right|top] [--unroll tiles|full] [--wg W] "
                    "[--math ieee|fast] [--mode factor|info|subnormal|copy|args] [--copy L|U|A] [--seed X] "
                    "[--split G]\n");
    exit(2);
}

static options parse(int argc, char **argv)
{
    options o = {.precision = 's', .uplo = 'L', .copy = 'A', .mode = "factor", .n = 8, .batch = 50,
                 .chunk = 16, .seed = 1, .prm = {.variant = BCHOL_VARIANT_INTERLEAVED}};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (!strcmp(k, "--precision")) o.precision = v[0];
        else if (!strcmp(k, "--uplo")) o.uplo = v[0];
        else if (!strcmp(k, "--n")) o.n = atoi(v);
        else if (!strcmp(k, "--batch")) o.batch = atoll(v);
        else if (!strcmp(k, "--chunk")) o.chunk = atoll(v);
        else if (!strcmp(k, "--tight")) o.tight = atoi(v);
        else if (!strcmp(k, "--nb")) o.prm.inb = atoi(v);
        else if (!strcmp(k, "--looking")) o.prm.looking = util_param_value("looking", v);
        else if (!strcmp(k, "--unroll")) o.prm.unroll = util_param_value("unroll", v);
        else if (!strcmp(k, "--wg")) o.prm.chunk = atoi(v);
        else if (!strcmp(k, "--math")) o.prm.math = util_param_value("math", v);
        else if (!strcmp(k, "--mode")) snprintf(o.mode, sizeof o.mode, "%s", v);
        else if (!strcmp(k, "--copy")) o.copy = v[0];
        else if (!strcmp(k, "--seed")) o.seed = strtoull(v, NULL, 10);
        else if (!strcmp(k, "--split")) setenv("BCHOL_MAX_GROUPS_PER_LAUNCH", v, 1);
        else usage();
    }
    if ((o.precision != 's' && o.precision != 'd') || (o.uplo != 'L' && o.uplo != 'U') ||
        o.prm.looking < 0 || o.prm.unroll < 0 || o.prm.math < 0 || o.n < 0 || o.batch < 0)
        usage();
    if (o.chunk == 0) o.chunk = o.batch > 0 ? o.batch : 1; /* the simple layout */
    return o;
}

static bchol_context *ctx;
static cl_context cl;
static cl_command_queue queue;

static cl_mem upload(const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes ? bytes : 1,
                              (void *)host, &err);
    if (!m) {
        fprintf(stderr, "FAILED: clCreateBuffer of %zu bytes: %d\n", bytes, err);
        exit(1);
    }
    return m;
}

static void download(cl_mem m, void *host, size_t bytes)
{
    if (bytes) clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
}

/* Waits for and releases the event a successful call must return. */
static int finish(bchol_status st, cl_event ev, int work)
{
    if (st) {
        fprintf(stderr, "FAILED: %s: %s\n", bchol_status_string(st), bchol_last_error(ctx));
        return 1;
    }
    if (work && !ev) {
        fprintf(stderr, "FAILED: no event returned\n");
        return 1;
    }
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    return 0;
}

/* Position of element (i, j) of matrix b in the interleaved layout. */
static size_t ilv(const options *o, long long b, int i, int j)
{
    const size_t nn = (size_t)o->n * o->n;
    return ((size_t)(b / o->chunk) * nn + (size_t)i + (size_t)j * o->n) * (size_t)o->chunk +
           (size_t)(b % o->chunk);
}

/* Elements of the interleaved buffer: whole chunks plus a poisoned tail, or (tight) just
 * the span the API requires. */
static size_t ilv_elements(const options *o)
{
    if (o->batch == 0 || o->n == 0) return TAIL;
    const size_t nn = (size_t)o->n * o->n, nchunks = (size_t)((o->batch - 1) / o->chunk) + 1;
    if (o->tight) return (nchunks * nn - 1) * (size_t)o->chunk + (size_t)((o->batch - 1) % o->chunk) + 1;
    return nchunks * nn * (size_t)o->chunk + TAIL;
}

/* Which (matrix, i, j) an interleaved position holds; 0 if padding or tail. */
static int ilv_decode(const options *o, size_t x, long long *b, int *i, int *j)
{
    const size_t nn = (size_t)o->n * o->n, per_chunk = nn * (size_t)o->chunk;
    const size_t c = x / per_chunk, r = x % per_chunk, e = r / (size_t)o->chunk;
    *b = (long long)(c * (size_t)o->chunk + r % (size_t)o->chunk);
    *i = (int)(e % (size_t)o->n);
    *j = (int)(e / (size_t)o->n);
    return *b < o->batch;
}

/* Mode of run_factor: random SPD, broken ones among them, or subnormal pivots. */
enum { GOOD_ONLY, BROKEN, SUBNORMAL };

/* A diagonal matrix (stored triangle, other one left as it is): 1, 2, ..., n on the
 * diagonal, except a positive subnormal at (k, k). */
static void subnormal_diagonal(void *m, int dbl, char uplo, int n, int k)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (util_in_triangle(uplo, i, j))
                util_set(m, util_idx(i, j, n), dbl,
                         i != j ? 0.0 : i == k ? (dbl ? 0x1p-1060 : 0x1p-140) : 1.0 + i);
}

static int run_factor(const options *o, int info_mode)
{
    const int dbl = o->precision == 'd', n = o->n;
    const size_t es = dbl ? 8 : 4, total = ilv_elements(o), nn = (size_t)n * n;
    void *a = malloc(total * es), *a0 = malloc(total * es), *m = malloc((nn + 1) * es),
         *f = malloc((nn + 1) * es);
    int *info = malloc((size_t)(o->batch + 4) * sizeof *info);
    int *expect = calloc((size_t)o->batch + 1, sizeof *expect);
    util_poison(a, dbl, total);
    util_rng rng;
    util_rng_seed(&rng, o->seed);
    for (long long b = 0; b < o->batch && n > 0; b++) {
        /* a column-major matrix with poisoned other triangle, scattered into the layout */
        util_poison(m, dbl, nn);
        const int kind = info_mode == BROKEN ? (int)(b % UTIL_KINDS) : UTIL_GOOD;
        if (info_mode == SUBNORMAL) {
            subnormal_diagonal(m, dbl, o->uplo, n, (int)(b % n));
            expect[b] = util_ref_info(m, dbl, o->uplo, n, n); /* 0: the pivot is positive */
        } else if ((expect[b] = util_spd_case(m, dbl, o->uplo, n, n, &rng, kind, b)) < 0) {
            fprintf(stderr, "FAILED: test setup: matrix %lld of kind %d is not broken\n", b, kind);
            return 1;
        }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (util_in_triangle(o->uplo, i, j))
                    memcpy((char *)a + ilv(o, b, i, j) * es, (char *)m + util_idx(i, j, n) * es, es);
    }
    /* The padding lanes of the last chunk hold an SPD matrix too: NaN poison would come out
     * of the arithmetic with its bits unchanged and hide a store there. */
    const long long lanes = n ? (long long)(((o->batch - 1) / o->chunk + 1) * o->chunk) : 0;
    for (long long b = o->batch; b < lanes && o->batch > 0; b++) {
        util_spd(m, dbl, o->uplo, n, n, &rng);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (util_in_triangle(o->uplo, i, j) && ilv(o, b, i, j) < total)
                    memcpy((char *)a + ilv(o, b, i, j) * es, (char *)m + util_idx(i, j, n) * es, es);
    }
    memcpy(a0, a, total * es);
    for (long long b = 0; b < o->batch + 4; b++) info[b] = -12345;

    cl_mem dA = upload(a, total * es), dI = upload(info, (size_t)(o->batch + 4) * sizeof(int));
    cl_event ev = NULL;
    bchol_status st =
        dbl ? bchol_dpotrf_interleaved_ex(ctx, &o->prm, o->uplo, n, dA, o->batch, o->chunk, dI, &ev)
            : bchol_spotrf_interleaved_ex(ctx, &o->prm, o->uplo, n, dA, o->batch, o->chunk, dI, &ev);
    if (finish(st, ev, o->batch > 0)) return 1;
    download(dA, a, total * es);
    download(dI, info, (size_t)(o->batch + 4) * sizeof(int));
    clReleaseMemObject(dA);
    clReleaseMemObject(dI);

    long long touched = 0, bad_info = 0;
    for (size_t x = 0; x < total && n > 0; x++) {
        long long b;
        int i, j;
        const int inside = ilv_decode(o, x, &b, &i, &j) && util_in_triangle(o->uplo, i, j);
        if (!inside && memcmp((char *)a + x * es, (char *)a0 + x * es, es) && touched++ < 5)
            fprintf(stderr, "element %zu (matrix %lld, %d, %d) outside the triangles changed\n", x, b, i, j);
    }
    double worst = 0;
    for (long long b = 0; b < o->batch; b++) {
        if (info[b] != expect[b]) {
            if (bad_info++ < 5) fprintf(stderr, "matrix %lld: info %d, expected %d\n", b, info[b], expect[b]);
            continue;
        }
        if (expect[b] || n == 0) continue;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (util_in_triangle(o->uplo, i, j)) {
                    memcpy((char *)m + util_idx(i, j, n) * es, (char *)a0 + ilv(o, b, i, j) * es, es);
                    memcpy((char *)f + util_idx(i, j, n) * es, (char *)a + ilv(o, b, i, j) * es, es);
                }
        const double e = util_backward_error(m, f, dbl, o->uplo, n, n);
        if (!(e <= worst)) worst = e;
    }
    for (int b = 0; b < 4; b++)
        if (info[o->batch + b] != -12345) bad_info++;
    const int failed = touched > 0 || bad_info > 0 || !(worst <= THRESHOLD);
    printf("potrf_interleaved %c %c n=%d batch=%lld chunk=%lld%s nb=%d %s %s wg=%d %s mode=%s: backward "
           "error %.3g, %lld wrong info, %lld elements touched outside: %s\n",
           o->precision, o->uplo, n, o->batch, o->chunk, o->tight ? " (tight)" : "", o->prm.inb,
           o->prm.looking ? util_param_name("looking", o->prm.looking) : "default-looking",
           o->prm.unroll ? util_param_name("unroll", o->prm.unroll) : "default-unroll",
           o->prm.chunk, o->prm.math ? util_param_name("math", o->prm.math) : "ieee", o->mode, worst,
           bad_info, touched,
           failed ? "FAILED" : "ok");
    free(a);
    free(a0);
    free(m);
    free(f);
    free(info);
    free(expect);
    return failed;
}

static int in_copy(char copy, int i, int j) { return copy == 'A' || util_in_triangle(copy, i, j); }

static int run_copy(const options *o)
{
    const int dbl = o->precision == 'd', n = o->n;
    const int lda = (n > 1 ? n : 1) + 3;
    const long long stride = (long long)lda * n + 5, offset = 7;
    const size_t es = dbl ? 8 : 4, ilen = ilv_elements(o);
    const size_t slen = (size_t)(offset + o->batch * stride) + TAIL;
    void *a = malloc(slen * es), *b0 = malloc(ilen * es), *b = malloc(ilen * es),
         *c0 = malloc(slen * es), *c = malloc(slen * es);
    util_rng rng;
    util_rng_seed(&rng, o->seed);
    for (size_t x = 0; x < slen; x++) util_set(a, x, dbl, util_rng_uniform(&rng));
    util_poison(b0, dbl, ilen);
    util_poison(c0, dbl, slen);
    cl_mem dA = upload(a, slen * es), dB = upload(b0, ilen * es), dC = upload(c0, slen * es);
    cl_event ev = NULL;
    bchol_status st = dbl ? bchol_dinterleave(ctx, o->copy, n, dA, offset, lda, stride, o->batch, dB, o->chunk, &ev)
                          : bchol_sinterleave(ctx, o->copy, n, dA, offset, lda, stride, o->batch, dB, o->chunk, &ev);
    if (finish(st, ev, o->batch > 0 && n > 0)) return 1;
    ev = NULL;
    st = dbl ? bchol_ddeinterleave(ctx, o->copy, n, dB, o->batch, o->chunk, dC, offset, lda, stride, &ev)
             : bchol_sdeinterleave(ctx, o->copy, n, dB, o->batch, o->chunk, dC, offset, lda, stride, &ev);
    if (finish(st, ev, o->batch > 0 && n > 0)) return 1;
    download(dB, b, ilen * es);
    download(dC, c, slen * es);

    long long wrong_b = 0, wrong_c = 0;
    for (size_t x = 0; x < ilen && n > 0; x++) {
        long long m;
        int i, j;
        const int inside = ilv_decode(o, x, &m, &i, &j) && in_copy(o->copy, i, j);
        const void *want = inside ? (char *)a + (size_t)(offset + m * stride + i + (long long)j * lda) * es
                                  : (char *)b0 + x * es;
        if (memcmp((char *)b + x * es, want, es) && wrong_b++ < 5)
            fprintf(stderr, "interleaved element %zu (matrix %lld, %d, %d%s) is wrong\n", x, m, i, j,
                    inside ? "" : ", outside");
    }
    for (size_t x = 0; x < slen; x++) {
        int inside = 0;
        if (x >= (size_t)offset && x < (size_t)(offset + o->batch * stride)) {
            const size_t r = (x - (size_t)offset) % (size_t)stride;
            const int i = (int)(r % (size_t)lda), j = (int)(r / (size_t)lda);
            inside = i < n && j < n && in_copy(o->copy, i, j);
        }
        const void *want = inside ? (char *)a + x * es : (char *)c0 + x * es;
        if (memcmp((char *)c + x * es, want, es) && wrong_c++ < 5)
            fprintf(stderr, "strided element %zu%s is wrong after the round trip\n", x, inside ? "" : " (outside)");
    }
    const int failed = wrong_b > 0 || wrong_c > 0;
    printf("interleave %c copy=%c n=%d batch=%lld chunk=%lld%s: %lld wrong interleaved, %lld wrong after "
           "the round trip: %s\n",
           o->precision, o->copy, n, o->batch, o->chunk, o->tight ? " (tight)" : "", wrong_b, wrong_c,
           failed ? "FAILED" : "ok");
    clReleaseMemObject(dA);
    clReleaseMemObject(dB);
    clReleaseMemObject(dC);
    free(a);
    free(b0);
    free(b);
    free(c0);
    free(c);
    return failed;
}

/* ---- argument checks ---------------------------------------------------------------- */

static int arg_failures;

static void expect_status(const char *what, bchol_status got, bchol_status want, const char *needle,
                          cl_event ev)
{
    const char *msg = bchol_last_error(NULL);
    /* a failed call must hand back no event; a successful one must set *event */
    const int ev_ok = got == BCHOL_SUCCESS ? ev != (cl_event)1 : ev == NULL;
    const int ok = got == want && (!needle || strstr(msg, needle)) && ev_ok;
    printf("%-48s %-36s %s\n", what, bchol_status_string(got), ok ? "ok" : "FAILED");
    if (!ok) {
        printf("    wanted %d (%s), got %d; message: %s\n", want, bchol_status_string(want), got, msg);
        arg_failures++;
    }
    if (ev && ev != (cl_event)1) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
}

static int run_args(void)
{
    enum { N = 4, B = 10, C = 4 };
    /* 3 chunks of 4 matrices: the span stops at matrix 9 of the last chunk */
    const size_t span = (3 * N * N - 1) * C + (B - 1) % C + 1;
    cl_mem A = clCreateBuffer(cl, CL_MEM_READ_WRITE, span * sizeof(float), NULL, NULL);
    cl_mem S = clCreateBuffer(cl, CL_MEM_READ_WRITE, N * N * B * 8, NULL, NULL);
    cl_mem I = clCreateBuffer(cl, CL_MEM_READ_WRITE, B * sizeof(int), NULL, NULL);
    float *id = calloc(span, sizeof *id);
    for (int b = 0; b < B; b++)
        for (int i = 0; i < N; i++) id[((b / C) * N * N + i + i * N) * C + b % C] = 1;
    clEnqueueWriteBuffer(queue, A, CL_TRUE, 0, span * sizeof *id, id, 0, NULL, NULL);
    free(id);
    cl_event ev;
    bchol_status got;
    /* the call first, then its event: argument evaluation order is unspecified */
#define POTRF(what, want, needle, ...)                                                              \
    ev = (cl_event)1;                                                                                \
    got = bchol_spotrf_interleaved(ctx, __VA_ARGS__, &ev);                                           \
    expect_status(what, got, want, needle, ev)
    POTRF("potrf: valid call (minimal span)", BCHOL_SUCCESS, NULL, 'L', N, A, B, C, I);
    POTRF("potrf: uplo = 'A'", BCHOL_ERR_UPLO, "argument 2", 'A', N, A, B, C, I);
    POTRF("potrf: n = -1", BCHOL_ERR_N, "argument 3 (n = -1)", 'L', -1, A, B, C, I);
    POTRF("potrf: batch = -1", BCHOL_ERR_BATCH, "argument 5", 'L', N, A, -1, C, I);
    POTRF("potrf: chunk = 0", BCHOL_ERR_CHUNK, "argument 6 (chunk = 0)", 'L', N, A, B, 0, I);
    POTRF("potrf: A = NULL", BCHOL_ERR_A, "argument 4 (A) is NULL", 'L', N, NULL, B, C, I);
    POTRF("potrf: A too small (batch + 1)", BCHOL_ERR_A_SIZE, "argument 4", 'L', N, A, B + 3, C, I);
    POTRF("potrf: A too small (chunk 7)", BCHOL_ERR_A_SIZE, "argument 4", 'L', N, A, B, 7, I);
    POTRF("potrf: info = NULL", BCHOL_ERR_INFO, "argument 7", 'L', N, A, B, C, NULL);
    POTRF("potrf: info too small", BCHOL_ERR_INFO_SIZE, "argument 7", 'L', 1, A, B + 1, C, I);
    POTRF("potrf: info for batch = 2^62 at n = 0", BCHOL_ERR_INFO_SIZE, "argument 7", 'L', 0, A,
          1LL << 62, C, I);
    POTRF("potrf: span overflows", BCHOL_ERR_A_SIZE, "2^63", 'L', N, A, B, 1LL << 60, I);
    POTRF("potrf: batch = 0 with NULL buffers", BCHOL_SUCCESS, NULL, 'L', N, NULL, 0, C, NULL);
    expect_status("potrf: ctx = NULL", bchol_spotrf_interleaved(NULL, 'L', N, A, B, C, I, NULL),
                  BCHOL_ERR_CONTEXT, "argument 1", NULL);
#undef POTRF

    bchol_params p = {.variant = BCHOL_VARIANT_FUSED};
#define POTRF_EX(what, want, needle, ...)                                                          \
    expect_status(what, bchol_spotrf_interleaved_ex(ctx, &p, __VA_ARGS__, NULL), want, needle, NULL)
    POTRF_EX("potrf_ex: variant = fused", BCHOL_ERR_ARGUMENT, "params->variant", 'L', N, A, B, C, I);
    p = (bchol_params){.inb = 65};
    POTRF_EX("potrf_ex: inb = 65", BCHOL_ERR_ARGUMENT, "params->inb = 65", 'L', N, A, B, C, I);
    p = (bchol_params){.looking = 4};
    POTRF_EX("potrf_ex: looking = 4", BCHOL_ERR_ARGUMENT, "params->looking", 'L', N, A, B, C, I);
    p = (bchol_params){.unroll = 3};
    POTRF_EX("potrf_ex: unroll = 3", BCHOL_ERR_ARGUMENT, "params->unroll", 'L', N, A, B, C, I);
    p = (bchol_params){.chunk = 1025};
    POTRF_EX("potrf_ex: chunk = 1025", BCHOL_ERR_ARGUMENT, "params->chunk", 'L', N, A, B, C, I);
    p = (bchol_params){.math = 3};
    POTRF_EX("potrf_ex: math = 3", BCHOL_ERR_ARGUMENT, "params->math", 'L', N, A, B, C, I);
    p = (bchol_params){.unroll = BCHOL_UNROLL_FULL};
    POTRF_EX("potrf_ex: full unroll at n = 65", BCHOL_ERR_ARGUMENT, "n <= 64", 'L', 65, A, 0, C, I);
    p = (bchol_params){0};
    POTRF_EX("potrf_ex: uplo names argument 3", BCHOL_ERR_UPLO, "argument 3", 'X', N, A, B, C, I);
#undef POTRF_EX
    bchol_params q = {.variant = BCHOL_VARIANT_INTERLEAVED, .chunking = 4};
    expect_status("potrf_batched_ex: chunking = 4",
                  bchol_spotrf_batched_ex(ctx, &q, 'L', N, S, 0, N, N * N, B, I, NULL), BCHOL_ERR_ARGUMENT,
                  "params->chunking", NULL);

#define COPY(what, want, needle, call)                                                            \
    ev = (cl_event)1;                                                                                \
    got = call;                                                                                      \
    expect_status(what, got, want, needle, ev)
    COPY("interleave: valid call", BCHOL_SUCCESS, NULL,
         bchol_sinterleave(ctx, 'A', N, S, 0, N, N * N, B, A, C, &ev));
    COPY("interleave: uplo = 'X'", BCHOL_ERR_UPLO, "'L', 'U' or 'A'",
         bchol_sinterleave(ctx, 'X', N, S, 0, N, N * N, B, A, C, &ev));
    COPY("interleave: offset = -1", BCHOL_ERR_OFFSET_A, "argument 5",
         bchol_sinterleave(ctx, 'L', N, S, -1, N, N * N, B, A, C, &ev));
    COPY("interleave: lda = n - 1", BCHOL_ERR_LDA, "argument 6",
         bchol_sinterleave(ctx, 'L', N, S, 0, N - 1, N * N, B, A, C, &ev));
    COPY("interleave: stride < lda*n", BCHOL_ERR_STRIDE_A, "argument 7",
         bchol_sinterleave(ctx, 'L', N, S, 0, N, N * N - 1, B, A, C, &ev));
    COPY("interleave: batch = -1", BCHOL_ERR_BATCH, "argument 8",
         bchol_sinterleave(ctx, 'L', N, S, 0, N, N * N, -1, A, C, &ev));
    COPY("interleave: chunk = 0", BCHOL_ERR_CHUNK, "argument 10",
         bchol_sinterleave(ctx, 'L', N, S, 0, N, N * N, B, A, 0, &ev));
    COPY("interleave: A too small", BCHOL_ERR_A_SIZE, "argument 4",
         bchol_sinterleave(ctx, 'L', N, S, 1, N, N * N, 2 * B, A, C, &ev));
    COPY("interleave: B = NULL", BCHOL_ERR_B, "argument 9 (B) is NULL",
         bchol_sinterleave(ctx, 'L', N, S, 0, N, N * N, B, NULL, C, &ev));
    COPY("interleave: B too small", BCHOL_ERR_B_SIZE, "argument 9",
         bchol_dinterleave(ctx, 'L', N, S, 0, N, N * N, B, A, 2 * C, &ev));
    COPY("deinterleave: valid call", BCHOL_SUCCESS, NULL,
         bchol_sdeinterleave(ctx, 'L', N, A, B, C, S, 0, N, N * N, &ev));
    COPY("deinterleave: batch = -1", BCHOL_ERR_BATCH, "argument 5",
         bchol_sdeinterleave(ctx, 'L', N, A, -1, C, S, 0, N, N * N, &ev));
    COPY("deinterleave: chunk = 0", BCHOL_ERR_CHUNK, "argument 6",
         bchol_sdeinterleave(ctx, 'L', N, A, B, 0, S, 0, N, N * N, &ev));
    COPY("deinterleave: B = NULL", BCHOL_ERR_B, "argument 4 (B) is NULL",
         bchol_sdeinterleave(ctx, 'L', N, NULL, B, C, S, 0, N, N * N, &ev));
    COPY("deinterleave: A = NULL", BCHOL_ERR_A, "argument 7 (A) is NULL",
         bchol_sdeinterleave(ctx, 'L', N, A, B, C, NULL, 0, N, N * N, &ev));
    COPY("deinterleave: offset = -1", BCHOL_ERR_OFFSET_A, "argument 8",
         bchol_sdeinterleave(ctx, 'L', N, A, B, C, S, -1, N, N * N, &ev));
    COPY("deinterleave: n = 0 quick return", BCHOL_SUCCESS, NULL,
         bchol_sdeinterleave(ctx, 'L', 0, NULL, B, C, NULL, 0, 1, 0, &ev));
#undef COPY
    clFinish(queue);
    clReleaseMemObject(A);
    clReleaseMemObject(S);
    clReleaseMemObject(I);
    return arg_failures > 0;
}

int main(int argc, char **argv)
{
    options o = parse(argc, argv);
    if (test_skip_precision(o.precision)) return TEST_SKIP;
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "FAILED: no context: %s: %s\n", bchol_status_string(st), bchol_last_error(NULL));
        return 1;
    }
    cl = bchol_context_cl_context(ctx);
    queue = bchol_context_queue(ctx);
    int failed = 1; /* usage() exits; clang cannot see it */
    if (!strcmp(o.mode, "factor") || !strcmp(o.mode, "info") || !strcmp(o.mode, "subnormal"))
        failed = run_factor(&o, !strcmp(o.mode, "info")        ? BROKEN
                                : !strcmp(o.mode, "subnormal") ? SUBNORMAL
                                                               : GOOD_ONLY);
    else if (!strcmp(o.mode, "copy"))
        failed = run_copy(&o);
    else if (!strcmp(o.mode, "args"))
        failed = run_args();
    else
        usage();
    bchol_context_destroy(ctx);
    return failed ? 1 : 0;
}
