/*
 * Tester for bchol_{s,d}potrs_vbatched and bchol_{s,d}posv_vbatched (plain, _ex and host
 * forms): one case per run, chosen by options; exit code 0 on pass.
 *
 *   test_potrs_vbatched --precision s|d --uplo L|U --nmax N [--batch B]
 *       [--mode potrs|posv|info|bad] [--form ex|plain|host] [--lda-pad P] [--ldb-pad P]
 *       [--gap G] [--nt T] [--rpt R] [--tbc C] [--seed X]
 *   test_potrs_vbatched --mode args
 *
 * Matrix b has order n[b] in [0, nmax] (0, 1 and nmax always occur) and nrhs[b] cycling
 * over {1, 3, 16, 100, 0, 2}, with lda/ldb padded (more for odd b) and G poisoned elements
 * between consecutive matrices and blocks. Checks the worst residual ||A*X - B||_F /
 * (||A||_F ||X||_F n eps) <= 30, the exact info, and bit for bit that nothing else
 * changed: potrs writes nothing in A, posv only the stored triangles of the matrices it
 * factors, both only the blocks of the solved matrices in B (a failed or rejected matrix
 * keeps its B). info mixes non-SPD, NaN and Inf matrices among good ones (posv); bad puts
 * an invalid entry of each kind among good ones. potrs gets factors made on the host.
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"
#include "cl_shim.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0

typedef struct {
    char precision, uplo, mode[16], form[8];
    int nmax, lda_pad, ldb_pad, gap, nt, rpt, tbc;
    long long batch;
    unsigned long long seed;
} options;

static void usage(void) {
    fprintf(stderr, "usage: test_potrs_vbatched --precision s|d --uplo L|U --nmax N [--batch B] "
                    "[--mode potrs|posv|info|bad|args] [--form ex|plain|host] [--lda-pad P] "
                    "[--ldb-pad P] [--gap G] [--nt T] [--rpt R] [--tbc C] [--seed X]\n");
    exit(2);
}

static options parse(int argc, char **argv) {
    options o = {'s', 'L', "potrs", "ex", 16, 0, 0, 3, 0, 0, 0, 24, 1};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (!strcmp(k, "--precision"))
            o.precision = v[0];
        else if (!strcmp(k, "--uplo"))
            o.uplo = v[0];
        else if (!strcmp(k, "--nmax"))
            o.nmax = atoi(v);
        else if (!strcmp(k, "--batch"))
            o.batch = atoll(v);
        else if (!strcmp(k, "--mode"))
            snprintf(o.mode, sizeof o.mode, "%s", v);
        else if (!strcmp(k, "--form"))
            snprintf(o.form, sizeof o.form, "%s", v);
        else if (!strcmp(k, "--lda-pad"))
            o.lda_pad = atoi(v);
        else if (!strcmp(k, "--ldb-pad"))
            o.ldb_pad = atoi(v);
        else if (!strcmp(k, "--gap"))
            o.gap = atoi(v);
        else if (!strcmp(k, "--nt"))
            o.nt = atoi(v);
        else if (!strcmp(k, "--rpt"))
            o.rpt = atoi(v);
        else if (!strcmp(k, "--tbc"))
            o.tbc = atoi(v);
        else if (!strcmp(k, "--seed"))
            o.seed = strtoull(v, NULL, 10);
        else
            usage();
    }
    if ((o.precision != 's' && o.precision != 'd') || (o.uplo != 'L' && o.uplo != 'U') ||
        o.nmax < 2 || o.batch < 12 || o.gap < 0)
        usage();
    return o;
}

/* ---- argument checks ------------------------------------------------------------------ */
static int failures;

static void expect(const char *what, bchol_status got, bchol_status want, const char *needle) {
    const char *msg = bchol_last_error(NULL);
    int ok = got == want && (!needle || strstr(msg, needle));
    printf("%-48s %-32s %s\n", what, bchol_status_string(got), ok ? "ok" : "FAILED");
    if (!ok) {
        printf("    wanted %d (%s), got %d; message: %s\n", want, bchol_status_string(want), got,
               msg);
        failures++;
    }
}

static cl_mem buffer(bchol_context *ctx, size_t bytes, const void *host) {
    cl_int err;
    cl_mem m = clCreateBuffer(bchol_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              (void *)host, &err);
    if (!m) {
        fprintf(stderr, "FAILED: clCreateBuffer: %d\n", err);
        exit(1);
    }
    return m;
}

static int run_args(void) {
    bchol_context *ctx;
    if (bchol_context_create(NULL, &ctx)) {
        fprintf(stderr, "FAILED: no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    const int nn[2] = {3, 2}, kk[2] = {1, 2}, ld[2] = {3, 2};
    const int64_t off[2] = {0, 9};
    cl_mem n = buffer(ctx, sizeof nn, nn), k = buffer(ctx, sizeof kk, kk);
    cl_mem lda = buffer(ctx, sizeof ld, ld), ldb = buffer(ctx, sizeof ld, ld);
    cl_mem oa = buffer(ctx, sizeof off, off), ob = buffer(ctx, sizeof off, off);
    cl_mem A = buffer(ctx, 64 * sizeof(float), NULL), B = buffer(ctx, 64 * sizeof(float), NULL);
    cl_mem info = buffer(ctx, 2 * sizeof(int), NULL), small = buffer(ctx, 4, NULL);
    cl_event ev = NULL;
    bchol_solve_params bad_nt = {BCHOL_SOLVE_AUTO, 33, 0, 0};
#define PLAIN(f, ...) f(ctx, __VA_ARGS__, &ev)
    expect("potrs: ctx NULL",
           bchol_spotrs_vbatched(NULL, 'L', n, k, lda, ldb, oa, A, ob, B, 2, info, &ev),
           BCHOL_ERR_CONTEXT, "argument 1");
    expect("potrs: uplo", PLAIN(bchol_spotrs_vbatched, 'X', n, k, lda, ldb, oa, A, ob, B, 2, info),
           BCHOL_ERR_UPLO, "argument 2");
    expect("potrs: n NULL",
           PLAIN(bchol_spotrs_vbatched, 'L', NULL, k, lda, ldb, oa, A, ob, B, 2, info),
           BCHOL_ERR_N_ARRAY, "argument 3 (n)");
    expect("potrs: nrhs too small",
           PLAIN(bchol_spotrs_vbatched, 'L', n, small, lda, ldb, oa, A, ob, B, 2, info),
           BCHOL_ERR_NRHS_ARRAY, "argument 4 (nrhs)");
    expect("potrs: lda NULL",
           PLAIN(bchol_spotrs_vbatched, 'L', n, k, NULL, ldb, oa, A, ob, B, 2, info),
           BCHOL_ERR_LDA_ARRAY, "argument 5 (lda)");
    expect("potrs: ldb NULL",
           PLAIN(bchol_dpotrs_vbatched, 'L', n, k, lda, NULL, oa, A, ob, B, 2, info),
           BCHOL_ERR_LDB_ARRAY, "argument 6 (ldb)");
    expect("potrs: offsets_a too small",
           PLAIN(bchol_spotrs_vbatched, 'L', n, k, lda, ldb, small, A, ob, B, 2, info),
           BCHOL_ERR_OFFSETS_A, "argument 7 (offsets_a)");
    expect("potrs: A NULL",
           PLAIN(bchol_spotrs_vbatched, 'L', n, k, lda, ldb, oa, NULL, ob, B, 2, info), BCHOL_ERR_A,
           "argument 8 (A)");
    expect("potrs: offsets_b NULL",
           PLAIN(bchol_spotrs_vbatched, 'L', n, k, lda, ldb, oa, A, NULL, B, 2, info),
           BCHOL_ERR_OFFSETS_B, "argument 9 (offsets_b)");
    expect("potrs: B NULL",
           PLAIN(bchol_spotrs_vbatched, 'L', n, k, lda, ldb, oa, A, ob, NULL, 2, info), BCHOL_ERR_B,
           "argument 10 (B)");
    expect("potrs: batch < 0",
           PLAIN(bchol_spotrs_vbatched, 'L', n, k, lda, ldb, oa, A, ob, B, -1, info),
           BCHOL_ERR_BATCH, "argument 11 (batch = -1)");
    expect("potrs: info too small",
           PLAIN(bchol_spotrs_vbatched, 'L', n, k, lda, ldb, oa, A, ob, B, 2, small),
           BCHOL_ERR_INFO_SIZE, "argument 12 (info)");
    expect("posv: info NULL",
           PLAIN(bchol_dposv_vbatched, 'U', n, k, lda, ldb, oa, A, ob, B, 2, NULL), BCHOL_ERR_INFO,
           "argument 12 (info)");
    expect("potrs_ex: params",
           bchol_spotrs_vbatched_ex(ctx, &bad_nt, 'L', 3, 2, n, k, lda, ldb, oa, A, ob, B, 2, info,
                                    &ev),
           BCHOL_ERR_ARGUMENT, "argument 2");
    expect(
        "potrs_ex: uplo",
        bchol_spotrs_vbatched_ex(ctx, NULL, 'x', 3, 2, n, k, lda, ldb, oa, A, ob, B, 2, info, &ev),
        BCHOL_ERR_UPLO, "argument 3");
    expect(
        "potrs_ex: max_n < 0",
        bchol_spotrs_vbatched_ex(ctx, NULL, 'L', -1, 2, n, k, lda, ldb, oa, A, ob, B, 2, info, &ev),
        BCHOL_ERR_MAX_N, "argument 4 (max_n = -1)");
    expect(
        "posv_ex: max_nrhs < 0",
        bchol_sposv_vbatched_ex(ctx, NULL, 'L', 3, -2, n, k, lda, ldb, oa, A, ob, B, 2, info, &ev),
        BCHOL_ERR_NRHS, "argument 5 (max_nrhs = -2)");
    expect("posv_ex: n NULL",
           bchol_sposv_vbatched_ex(ctx, NULL, 'L', 3, 2, NULL, k, lda, ldb, oa, A, ob, B, 2, info,
                                   &ev),
           BCHOL_ERR_N_ARRAY, "argument 6 (n)");
    expect("posv_ex: B NULL",
           bchol_dposv_vbatched_ex(ctx, NULL, 'L', 3, 2, n, k, lda, ldb, oa, A, ob, NULL, 2, info,
                                   &ev),
           BCHOL_ERR_B, "argument 13 (B)");
    expect(
        "posv_ex: batch < 0",
        bchol_dposv_vbatched_ex(ctx, NULL, 'L', 3, 2, n, k, lda, ldb, oa, A, ob, B, -3, info, &ev),
        BCHOL_ERR_BATCH, "argument 14 (batch = -3)");
    expect(
        "posv_ex: info small",
        bchol_sposv_vbatched_ex(ctx, NULL, 'L', 3, 2, n, k, lda, ldb, oa, A, ob, B, 2, small, &ev),
        BCHOL_ERR_INFO_SIZE, "argument 15 (info)");
    expect("posv_ex: max_n beyond the device",
           bchol_dposv_vbatched_ex(ctx, NULL, 'L', 1000000, 2, n, k, lda, ldb, oa, A, ob, B, 2,
                                   info, &ev),
           BCHOL_ERR_UNSUPPORTED_SIZE, "1000000");
    if (ev) {
        printf("FAILED: an event came back from a failed call\n");
        failures++;
    }
    /* Bounds at INT_MAX: the work-group fitting once overflowed rounding them up (UBSan,
     * found by fuzz_args2); a loose max_nrhs is a valid bound. */
    expect("potrs_ex: max_n = INT_MAX",
           bchol_spotrs_vbatched_ex(ctx, NULL, 'L', INT_MAX, 2, n, k, lda, ldb, oa, A, ob, B, 2,
                                    info, &ev),
           BCHOL_ERR_UNSUPPORTED_SIZE, "2147483647");
    double items = shim_work_items();
    expect("potrs_ex: max_nrhs = INT_MAX",
           bchol_dpotrs_vbatched_ex(ctx, NULL, 'U', 3, INT_MAX, n, k, lda, ldb, oa, A, ob, B, 2,
                                    info, &ev),
           BCHOL_SUCCESS, NULL);
    if (ev) clReleaseEvent(ev);
    ev = NULL;
    /* ... and sizes no launch beyond what B holds (32 doubles): it once ran ~2^31 / nt idle
     * units per matrix, minutes on PoCL (fuzz_args2's timeout). */
    items = shim_work_items() - items;
    if (items > 65536) {
        printf("FAILED: potrs_ex with max_nrhs = INT_MAX launched %.0f work-items\n", items);
        failures++;
    }
    /* The nrhs of an order-0 matrix (well formed whatever it is) sizes nothing: the plain
     * form launches as without it, the host form within its B. */
    {
        const int nz[2] = {0, 2}, kbig[2] = {INT_MAX, 2}, ksmall[2] = {0, 2};
        cl_mem n0 = buffer(ctx, sizeof nz, nz), kb = buffer(ctx, sizeof kbig, kbig);
        cl_mem ks = buffer(ctx, sizeof ksmall, ksmall);
        double w[2];
        for (int big = 0; big < 2; big++) {
            w[big] = shim_work_items();
            expect(big ? "potrs: n = 0 with nrhs = INT_MAX" : "potrs: n = 0 with nrhs = 0",
                   PLAIN(bchol_dpotrs_vbatched, 'L', n0, big ? kb : ks, lda, ldb, oa, A, ob, B, 2,
                         info),
                   BCHOL_SUCCESS, NULL);
            if (ev) clWaitForEvents(1, &ev), clReleaseEvent(ev);
            ev = NULL;
            w[big] = shim_work_items() - w[big];
        }
        if (w[1] != w[0]) {
            printf("FAILED: an order-0 matrix with nrhs = INT_MAX: %.0f work-items, %.0f "
                   "without\n", w[1], w[0]);
            failures++;
        }
        double ha[16], hb[16];
        int hi[2];
        const int64_t ho[2] = {0, 9};
        for (int i = 0; i < 16; i++)
            ha[i] = 1, hb[i] = 1;
        items = shim_work_items();
        expect("potrs_host: n = 0 with nrhs = INT_MAX",
               bchol_dpotrs_vbatched_host(ctx, 'U', nz, kbig, ld, ld, ho, ha, ho, hb, 2, hi),
               BCHOL_SUCCESS, NULL);
        items = shim_work_items() - items;
        if (items > 65536) {
            printf("FAILED: potrs_host with an order-0 nrhs = INT_MAX launched %.0f work-items\n",
                   items);
            failures++;
        }
        clReleaseMemObject(n0), clReleaseMemObject(kb), clReleaseMemObject(ks);
    }
    expect(
        "potrs: batch = 0 returns at once",
        PLAIN(bchol_spotrs_vbatched, 'L', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL),
        BCHOL_SUCCESS, NULL);
    /* Only empty systems: the checks run (info = 0), nothing else; an event comes back. */
    const int zeros[2] = {0, 0}, bad_info[2] = {7, 7};
    cl_mem z = buffer(ctx, sizeof zeros, zeros);
    clEnqueueWriteBuffer(bchol_context_queue(ctx), info, CL_TRUE, 0, sizeof bad_info, bad_info, 0,
                         NULL, NULL);
    for (int posv = 0; posv < 2; posv++) {
        ev = NULL;
        bchol_status st =
            posv ? PLAIN(bchol_dposv_vbatched, 'U', z, z, lda, ldb, oa, A, ob, B, 2, info)
                 : PLAIN(bchol_spotrs_vbatched, 'L', n, z, lda, ldb, oa, A, ob, B, 2, info);
        int got[2] = {-1, -1};
        clEnqueueReadBuffer(bchol_context_queue(ctx), info, CL_TRUE, 0, sizeof got, got, 0, NULL,
                            NULL);
        expect(posv ? "posv: every n = 0" : "potrs: every nrhs = 0", st, BCHOL_SUCCESS, NULL);
        if (!ev || got[0] != 0 || got[1] != 0) {
            printf("FAILED: event %p, info %d %d (want an event and 0 0)\n", (void *)ev, got[0],
                   got[1]);
            failures++;
        }
        if (ev) clReleaseEvent(ev);
    }
    clReleaseMemObject(z);
    float fa[16] = {0}, fb[16] = {0};
    int hinfo[2];
    const int64_t hoff[2] = {0, 9};
    expect("potrs_host: nrhs NULL",
           bchol_spotrs_vbatched_host(ctx, 'L', nn, NULL, ld, ld, hoff, fa, hoff, fb, 2, hinfo),
           BCHOL_ERR_NRHS_ARRAY, "argument 4 (nrhs)");
    expect("posv_host: offsets_b NULL",
           bchol_sposv_vbatched_host(ctx, 'L', nn, kk, ld, ld, hoff, fa, NULL, fb, 2, hinfo),
           BCHOL_ERR_OFFSETS_B, "argument 9 (offsets_b)");
    expect("posv_host: B NULL",
           bchol_sposv_vbatched_host(ctx, 'L', nn, kk, ld, ld, hoff, fa, hoff, NULL, 2, hinfo),
           BCHOL_ERR_B, "argument 10 (B)");
    expect("posv_host: batch < 0",
           bchol_sposv_vbatched_host(ctx, 'L', nn, kk, ld, ld, hoff, fa, hoff, fb, -1, hinfo),
           BCHOL_ERR_BATCH, "argument 11 (batch = -1)");
    expect("potrs_host: info NULL",
           bchol_spotrs_vbatched_host(ctx, 'L', nn, kk, ld, ld, hoff, fa, hoff, fb, 2, NULL),
           BCHOL_ERR_INFO, "argument 12 (info)");
    cl_mem all[] = {n, k, lda, ldb, oa, ob, A, B, info, small};
    for (int i = 0; i < 10; i++)
        clReleaseMemObject(all[i]);
    bchol_context_destroy(ctx);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}

/* ---- solves ------------------------------------------------------------------------- */
static const int nrhs_cycle[] = {1, 3, 16, 100, 0, 2};

/* Invalid entries of --mode bad, at fixed positions among good ones. */
enum {
    BAD_N,
    BAD_LDA,
    BAD_OFFSET_A,
    BAD_NRHS,
    BAD_LDB,
    BAD_OFFSET_B,
    ABOVE_NRHS,
    ABOVE_N,
    OVERLAP_B,
    BAD_KINDS
};
static const int bad_code[BAD_KINDS] = {
    BCHOL_INFO_BAD_N,          BCHOL_INFO_BAD_LDA,     BCHOL_INFO_BAD_OFFSET,
    BCHOL_INFO_BAD_NRHS,       BCHOL_INFO_BAD_LDB,     BCHOL_INFO_BAD_OFFSET_B,
    BCHOL_INFO_ABOVE_MAX_NRHS, BCHOL_INFO_ABOVE_MAX_N, BCHOL_INFO_OVERLAP_B};

int main(int argc, char **argv) {
    /* the argument checks are mostly of the double routines */
    if (argc == 3 && !strcmp(argv[1], "--mode") && !strcmp(argv[2], "args"))
        return test_skip_precision('d') ? TEST_SKIP : run_args();
    options o = parse(argc, argv);
    if (test_skip_precision(o.precision)) return TEST_SKIP;
    const int dbl = o.precision == 'd', posv = strcmp(o.mode, "potrs") != 0;
    const int ex = !strcmp(o.form, "ex"), host = !strcmp(o.form, "host");
    const int info_mode = !strcmp(o.mode, "info"), bad_mode = !strcmp(o.mode, "bad");
    const size_t es = dbl ? 8 : 4;
    const long long batch = o.batch;
    int *n = malloc(batch * sizeof *n), *k = malloc(batch * sizeof *k);
    int *lda = malloc(batch * sizeof *lda), *ldb = malloc(batch * sizeof *ldb);
    int64_t *oa = malloc(batch * sizeof *oa), *ob = malloc(batch * sizeof *ob);
    int *info = malloc(batch * sizeof *info), *expect_info = calloc(batch, sizeof *expect_info);
    util_rng rng;
    util_rng_seed(&rng, o.seed);
    size_t ta = (size_t)o.gap, tb = (size_t)o.gap;
    for (long long b = 0; b < batch; b++) {
        n[b] = b == 2       ? o.nmax
               : b % 7 == 0 ? 0
               : b % 7 == 1 ? 1
                            : (int)(util_rng_next(&rng) % (uint64_t)(o.nmax + 1));
        if (bad_mode && b % 7 == 3 && n[b] < 2) n[b] = 2; /* room for the bad entries */
        k[b] = nrhs_cycle[b % 6];
        lda[b] = (n[b] > 1 ? n[b] : 1) + o.lda_pad + (int)(b & 1);
        ldb[b] = (n[b] > 1 ? n[b] : 1) + o.ldb_pad + (int)(b & 1);
        oa[b] = (int64_t)ta;
        ob[b] = (int64_t)tb;
        ta += (size_t)lda[b] * n[b] + o.gap;
        tb += (size_t)ldb[b] * k[b] + o.gap;
    }
    /* a0: SPD inputs; a: what the routine gets (factors for potrs); bm0: B before. */
    void *a0 = malloc(ta * es), *a = malloc(ta * es), *a_in = malloc(ta * es);
    void *bm0 = malloc(tb * es), *bm = malloc(tb * es);
    util_poison(a0, dbl, ta);
    util_poison(bm0, dbl, tb);
    for (long long b = 0; b < batch; b++) {
        util_fill_uniform((char *)bm0 + ob[b] * es, dbl, n[b], k[b], ldb[b], &rng);
        if (n[b] == 0) continue;
        /* info: every broken kind, and as many good matrices again as solved ones */
        int kind = info_mode ? (int)(b % (2 * UTIL_KINDS)) : UTIL_GOOD;
        if (kind >= UTIL_KINDS) kind = UTIL_GOOD;
        expect_info[b] =
            util_spd_case((char *)a0 + oa[b] * es, dbl, o.uplo, n[b], lda[b], &rng, kind, b);
        if (expect_info[b] < 0) {
            fprintf(stderr, "FAILED: test setup: matrix %lld of kind %d is not broken\n", b, kind);
            return 1;
        }
    }
    memcpy(a, a0, ta * es);
    if (!posv)
        for (long long b = 0; b < batch; b++)
            if (n[b] > 0 && util_ref_factor((char *)a + oa[b] * es, dbl, o.uplo, n[b], lda[b])) {
                fprintf(stderr, "FAILED: test setup: matrix %lld is not SPD\n", b);
                return 1;
            }
    int max_n = 0, max_nrhs = 0;
    for (long long b = 0; b < batch; b++) {
        max_n = n[b] > max_n ? n[b] : max_n;
        max_nrhs = k[b] > max_nrhs ? k[b] : max_nrhs;
    }
    if (bad_mode) {
        /* matrix 7*i+3 gets bad kind i (n >= 2 there, so lda = n-1 is invalid) */
        for (int i = 0; i < BAD_KINDS; i++) {
            long long b = 7LL * i + 3;
            if (b >= batch) break;
            if (i == ABOVE_N && !ex) continue; /* plain/host bound nothing */
            if (i == ABOVE_NRHS && !ex) continue;
            switch (i) {
            case BAD_N:
                n[b] = -1;
                break;
            case BAD_LDA:
                lda[b] = n[b] - 1;
                break;
            case BAD_OFFSET_A:
                oa[b] = host ? -4 : (int64_t)ta;
                break;
            case BAD_NRHS:
                k[b] = -2;
                break;
            case BAD_LDB:
                ldb[b] = n[b] - 1;
                break;
            case BAD_OFFSET_B:
                ob[b] = host ? -1 : (int64_t)tb - 1;
                k[b] = k[b] ? k[b] : 1;
                break;
            case ABOVE_NRHS:
                k[b] = max_nrhs + 1;
                break;
            case ABOVE_N:
                n[b] = max_n + 1;
                lda[b] = n[b];
                break;
            case OVERLAP_B: {
                /* B_b starts where the nearest earlier non-empty block does: both are
                 * rejected (the blocks between are empty, so nothing else is) */
                long long p = b - 1;
                while (p >= 0 && (n[p] == 0 || k[p] == 0))
                    p--;
                if (p < 0 || expect_info[p] != 0 || k[b] == 0) {
                    fprintf(stderr, "FAILED: test setup: no block for matrix %lld to overlap\n", b);
                    return 1;
                }
                ob[b] = ob[p];
                expect_info[p] = BCHOL_INFO_OVERLAP_B;
                break;
            }
            }
            expect_info[b] = bad_code[i];
        }
    }
    memcpy(a_in, a, ta * es);
    memcpy(bm, bm0, tb * es);
    for (long long b = 0; b < batch; b++)
        info[b] = -12345;

    bchol_context *ctx;
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "FAILED: no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    bchol_solve_params prm = {BCHOL_SOLVE_AUTO, o.nt, o.rpt, o.tbc};
    const char u = o.uplo;
    if (host) {
        if (dbl)
            st = posv
                     ? bchol_dposv_vbatched_host(ctx, u, n, k, lda, ldb, oa, a, ob, bm, batch, info)
                     : bchol_dpotrs_vbatched_host(ctx, u, n, k, lda, ldb, oa, a, ob, bm, batch,
                                                  info);
        else
            st = posv
                     ? bchol_sposv_vbatched_host(ctx, u, n, k, lda, ldb, oa, a, ob, bm, batch, info)
                     : bchol_spotrs_vbatched_host(ctx, u, n, k, lda, ldb, oa, a, ob, bm, batch,
                                                  info);
    } else {
        cl_mem dn = buffer(ctx, batch * sizeof(int), n), dk = buffer(ctx, batch * sizeof(int), k);
        cl_mem dlda = buffer(ctx, batch * sizeof(int), lda),
               dldb = buffer(ctx, batch * sizeof(int), ldb);
        cl_mem doa = buffer(ctx, batch * 8, oa), dob = buffer(ctx, batch * 8, ob);
        cl_mem dA = buffer(ctx, ta * es, a), dB = buffer(ctx, tb * es, bm);
        cl_mem dI = buffer(ctx, batch * sizeof(int), info);
        cl_event ev = NULL;
        typedef bchol_status (*plain_fn)(bchol_context *, char, cl_mem, cl_mem, cl_mem, cl_mem,
                                         cl_mem, cl_mem, cl_mem, cl_mem, int64_t, cl_mem,
                                         cl_event *);
        typedef bchol_status (*ex_fn)(bchol_context *, const bchol_solve_params *, char, int, int,
                                      cl_mem, cl_mem, cl_mem, cl_mem, cl_mem, cl_mem, cl_mem,
                                      cl_mem, int64_t, cl_mem, cl_event *);
        plain_fn pf = dbl ? (posv ? bchol_dposv_vbatched : bchol_dpotrs_vbatched)
                          : (posv ? bchol_sposv_vbatched : bchol_spotrs_vbatched);
        ex_fn ef = dbl ? (posv ? bchol_dposv_vbatched_ex : bchol_dpotrs_vbatched_ex)
                       : (posv ? bchol_sposv_vbatched_ex : bchol_spotrs_vbatched_ex);
        st = ex ? ef(ctx, &prm, u, max_n, max_nrhs, dn, dk, dlda, dldb, doa, dA, dob, dB, batch, dI,
                     &ev)
                : pf(ctx, u, dn, dk, dlda, dldb, doa, dA, dob, dB, batch, dI, &ev);
        if (!st && !ev) {
            fprintf(stderr, "FAILED: no event returned\n");
            return 1;
        }
        if (ev) {
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
        }
        cl_command_queue q = bchol_context_queue(ctx);
        clEnqueueReadBuffer(q, dA, CL_TRUE, 0, ta * es, a, 0, NULL, NULL);
        clEnqueueReadBuffer(q, dB, CL_TRUE, 0, tb * es, bm, 0, NULL, NULL);
        clEnqueueReadBuffer(q, dI, CL_TRUE, 0, batch * sizeof(int), info, 0, NULL, NULL);
        cl_mem all[] = {dn, dk, dlda, dldb, doa, dob, dA, dB, dI};
        for (int i = 0; i < 9; i++)
            clReleaseMemObject(all[i]);
    }
    if (st) {
        fprintf(stderr, "FAILED: %s: %s\n", bchol_status_string(st), bchol_last_error(ctx));
        return 1;
    }

    /* Which elements may change: A in the stored triangles of the matrices posv factors
     * (info >= 0, n > 0), B in the blocks of the solved matrices (info == 0). */
    char *may_a = calloc(ta, 1), *may_b = calloc(tb, 1);
    for (long long b = 0; b < batch; b++) {
        if (expect_info[b] < 0) continue;
        for (int j = 0; j < n[b]; j++)
            for (int i = 0; i < n[b]; i++)
                if (posv && util_in_triangle(u, i, j)) may_a[oa[b] + util_idx(i, j, lda[b])] = 1;
        if (expect_info[b] == 0)
            for (int j = 0; j < k[b]; j++)
                for (int i = 0; i < n[b]; i++)
                    may_b[ob[b] + util_idx(i, j, ldb[b])] = 1;
    }
    long long touched_a = 0, touched_b = 0, bad_info = 0;
    for (size_t e = 0; e < ta; e++)
        if (!may_a[e] && memcmp((char *)a + e * es, (char *)a_in + e * es, es))
            if (touched_a++ < 5) fprintf(stderr, "A: element %zu changed\n", e);
    for (size_t e = 0; e < tb; e++)
        if (!may_b[e] && memcmp((char *)bm + e * es, (char *)bm0 + e * es, es))
            if (touched_b++ < 5) fprintf(stderr, "B: element %zu changed\n", e);
    double worst = 0;
    long long solved = 0;
    for (long long b = 0; b < batch; b++) {
        if (info[b] != expect_info[b]) {
            if (bad_info++ < 5)
                fprintf(stderr, "matrix %lld (n %d nrhs %d): info %d, expected %d\n", b, n[b], k[b],
                        info[b], expect_info[b]);
            continue;
        }
        if (expect_info[b] != 0 || n[b] == 0 || k[b] == 0) continue;
        double r =
            util_solve_residual((char *)a0 + oa[b] * es, dbl, u, n[b], lda[b], k[b],
                                (char *)bm + ob[b] * es, ldb[b], (char *)bm0 + ob[b] * es, ldb[b]);
        if (!(r <= worst)) worst = r;
        solved++;
    }
    const int fail = touched_a || touched_b || bad_info || !(worst <= THRESHOLD) || solved == 0;
    printf("%s/%s %c %c nmax=%d batch=%lld: %lld solved, residual %.3g, %lld wrong info, "
           "%lld/%lld elements touched outside in A/B: %s\n",
           o.mode, o.form, o.precision, u, o.nmax, batch, solved, worst, bad_info, touched_a,
           touched_b, fail ? "FAILED" : "ok");
    bchol_context_destroy(ctx);
    free(may_a), free(may_b), free(a0), free(a), free(a_in), free(bm0), free(bm);
    free(n), free(k), free(lda), free(ldb), free(oa), free(ob), free(info), free(expect_info);
    return fail;
}
