/*
 * Tester for the LU solvers: bchol_{s,d}getrs_batched ('N', 'T'), bchol_{s,d}getri_batched,
 * bchol_{s,d}gesv_batched and its host form. One case per run, chosen by options; exit
 * code 0 on pass. LAPACK's ratios, worst over the batch, must stay <= 30:
 *   solve (xGET02):  max_j ||b_j - op(A) x_j||_1 / (||op(A)||_1 ||x_j||_1 eps)
 *   inverse (xGET03): ||I - A inv(A)||_1 / (n ||A||_1 ||inv(A)||_1 eps)
 * and nothing else may change: getrs and getri write nothing in A and ipiv, gesv only the
 * n-by-n blocks of A and the first n pivots of each matrix; B (C) only its n-by-nrhs
 * blocks, and not at all for a matrix with info > 0. Everything around the blocks is
 * poisoned (NaN patterns, odd pivots) and compared bit for bit. info must be exact:
 * LAPACKE_?getrf's (gesv), the first zero or non-finite U(k,k) of the factors (getri).
 *
 *   test_lu_solve --mode getrs|getri|gesv|host-gesv --precision s|d [--trans N|T]
 *                 --n N [--nrhs K] [--batch B] [--kind random|illcond|singular]
 *                 [--lda-pad P] [--ldb-pad P] [--piv-pad P] [--stride-pad S]
 *                 [--offset-a O] [--offset-b O] [--offset-p O] [--seed X]
 *   test_lu_solve --mode args-getrs|args-getri|args-gesv|args-host
 *   (args-host also refuses the host form a device allocation: out of memory, nothing
 *   changed)
 *
 * getrs and getri get factors from LAPACKE_?getrf on the host, so they do not depend on
 * bchol's getrf. For getri the B options describe C. --kind singular: matrix b with
 * b % 4 == 1 has a zero column (U(k,k) = 0 exactly, in LAPACK's getrf as in any partial
 * pivoting); for getri, b % 4 == 3 gets a NaN (b % 8 == 3) or an infinity on U's diagonal
 * after the factorization. illcond: singular values from 1 down to 1e-5 (float) or 1e-12
 * (double), by LAPACKE_?lagge. BCHOL_LU_SOLVE_SHAPE="nt,rpt,tbc" picks the kernel's shape,
 * BCHOL_LU_SOLVE_VARIANT=subst|workitem the kernel. getrs with --kind singular solves the
 * singular matrices too (LAPACK's getrs does not check U): their X must match, element by
 * element in kind (NaN, +Inf, -Inf or finite), what the substitution kernel gives, run
 * again in the same process under BCHOL_LU_SOLVE_VARIANT=subst.
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"
#include "cl_shim.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0
#define PIV_POISON(e) ((int)(0x5eed0000u + (unsigned)(e)))

typedef struct {
    char precision, trans, mode[16], kind[16];
    int n, nrhs, lda_pad, ldb_pad, piv_pad, stride_pad;
    long long batch, offset_a, offset_b, offset_p;
    unsigned long long seed;
} options;

static void usage(void)
{
    fprintf(stderr, "usage: test_lu_solve --mode getrs|getri|gesv|host-gesv|args-getrs|args-getri|"
                    "args-gesv|args-host --precision s|d [--trans N|T] --n N [--nrhs K] "
                    "[--batch B] [--kind random|illcond|singular] [--lda-pad P] [--ldb-pad P] "
                    "[--piv-pad P] [--stride-pad S] [--offset-a O] [--offset-b O] "
                    "[--offset-p O] [--seed X]\n");
    exit(2);
}

static options parse(int argc, char **argv)
{
    options o = {'s', 'N', "getrs", "random", 8, 1, 0, 0, 0, 0, 9, 0, 0, 0, 1};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (!strcmp(k, "--mode")) snprintf(o.mode, sizeof o.mode, "%s", v);
        else if (!strcmp(k, "--precision")) o.precision = v[0];
        else if (!strcmp(k, "--trans")) o.trans = v[0];
        else if (!strcmp(k, "--n")) o.n = atoi(v);
        else if (!strcmp(k, "--nrhs")) o.nrhs = atoi(v);
        else if (!strcmp(k, "--batch")) o.batch = atoll(v);
        else if (!strcmp(k, "--kind")) snprintf(o.kind, sizeof o.kind, "%s", v);
        else if (!strcmp(k, "--lda-pad")) o.lda_pad = atoi(v);
        else if (!strcmp(k, "--ldb-pad")) o.ldb_pad = atoi(v);
        else if (!strcmp(k, "--piv-pad")) o.piv_pad = atoi(v);
        else if (!strcmp(k, "--stride-pad")) o.stride_pad = atoi(v);
        else if (!strcmp(k, "--offset-a")) o.offset_a = atoll(v);
        else if (!strcmp(k, "--offset-b")) o.offset_b = atoll(v);
        else if (!strcmp(k, "--offset-p")) o.offset_p = atoll(v);
        else if (!strcmp(k, "--seed")) o.seed = strtoull(v, NULL, 10);
        else usage();
    }
    if ((o.precision != 's' && o.precision != 'd') || (o.trans != 'N' && o.trans != 'T') ||
        o.n < 0 || o.nrhs < 0 || o.batch < 0 ||
        (strcmp(o.kind, "random") && strcmp(o.kind, "illcond") && strcmp(o.kind, "singular")))
        usage();
    return o;
}

/* ---- the numerical cases ------------------------------------------------------------- */

typedef struct {
    int dbl, n, nrhs, lda, ldb, getri, gesv, host;
    long long stride_a, stride_b, stride_p, offset_a, offset_b, offset_p;
    size_t es, total_a, total_b, total_p;
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

/* Runs the routine of the mode; returns its status. */
static bchol_status run(bchol_context *ctx, const options *o, const layout *L, void *a, int *piv,
                        void *bm, int *info)
{
    const int n = o->n, k = o->nrhs;
    const long long batch = o->batch;
    if (L->host)
        return L->dbl ? bchol_dgesv_batched_host(ctx, n, k, a, L->lda, L->stride_a, piv, L->stride_p,
                                                 bm, L->ldb, L->stride_b, batch, info)
                      : bchol_sgesv_batched_host(ctx, n, k, a, L->lda, L->stride_a, piv, L->stride_p,
                                                 bm, L->ldb, L->stride_b, batch, info);
    cl_mem dA = upload(ctx, a, L->total_a * L->es), dB = upload(ctx, bm, L->total_b * L->es);
    cl_mem dP = upload(ctx, piv, L->total_p * sizeof(int));
    cl_mem dI = upload(ctx, info, (size_t)(batch + 4) * sizeof(int));
    cl_event ev = NULL;
    bchol_status st;
    if (L->getri)
        st = L->dbl ? bchol_dgetri_batched(ctx, n, dA, L->offset_a, L->lda, L->stride_a, dP,
                                           L->offset_p, L->stride_p, dB, L->offset_b, L->ldb,
                                           L->stride_b, batch, dI, &ev)
                    : bchol_sgetri_batched(ctx, n, dA, L->offset_a, L->lda, L->stride_a, dP,
                                           L->offset_p, L->stride_p, dB, L->offset_b, L->ldb,
                                           L->stride_b, batch, dI, &ev);
    else if (L->gesv)
        st = L->dbl ? bchol_dgesv_batched(ctx, n, k, dA, L->offset_a, L->lda, L->stride_a, dP,
                                          L->offset_p, L->stride_p, dB, L->offset_b, L->ldb,
                                          L->stride_b, batch, dI, &ev)
                    : bchol_sgesv_batched(ctx, n, k, dA, L->offset_a, L->lda, L->stride_a, dP,
                                          L->offset_p, L->stride_p, dB, L->offset_b, L->ldb,
                                          L->stride_b, batch, dI, &ev);
    else
        st = L->dbl ? bchol_dgetrs_batched(ctx, o->trans, n, k, dA, L->offset_a, L->lda, L->stride_a,
                                           dP, L->offset_p, L->stride_p, dB, L->offset_b, L->ldb,
                                           L->stride_b, batch, &ev)
                    : bchol_sgetrs_batched(ctx, o->trans, n, k, dA, L->offset_a, L->lda, L->stride_a,
                                           dP, L->offset_p, L->stride_p, dB, L->offset_b, L->ldb,
                                           L->stride_b, batch, &ev);
    const int work = batch > 0 && (L->getri || (n > 0 && (k > 0 || L->gesv)));
    if (!st && work && !ev) {
        fprintf(stderr, "FAILED: no event returned\n");
        exit(1);
    }
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    download(ctx, dA, a, L->total_a * L->es);
    download(ctx, dB, bm, L->total_b * L->es);
    download(ctx, dP, piv, L->total_p * sizeof(int));
    download(ctx, dI, info, (size_t)(batch + 4) * sizeof(int));
    return st;
}

/* 1 if element e of a strided batch lies in a rows-by-cols block. */
static int in_block(size_t e, long long offset, long long stride, long long batch, int ld, int rows,
                    int cols)
{
    if (e < (size_t)offset || e >= (size_t)(offset + batch * stride)) return 0;
    size_t r = (e - (size_t)offset) % (size_t)stride;
    return r / (size_t)ld < (size_t)cols && (int)(r % (size_t)ld) < rows;
}

/* 0 finite, 1 NaN, 2 +Inf, 3 -Inf. */
static int value_kind(double x) { return isnan(x) ? 1 : isinf(x) ? (x > 0 ? 2 : 3) : 0; }

/* op(A)(i, j) of the matrix at a. */
static double opa(const void *a, int dbl, char trans, int lda, int i, int j)
{
    return trans == 'T' ? util_get(a, util_idx(j, i, lda), dbl) : util_get(a, util_idx(i, j, lda), dbl);
}

/* xGET02's ratio: max over columns of ||b - op(A) x||_1 / (||op(A)||_1 ||x||_1 eps). */
static double solve_ratio(const void *a, int dbl, char trans, int n, int lda, int nrhs,
                          const void *x, const void *b, int ldb)
{
    double anorm = 0, worst = 0;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++) s += fabs(opa(a, dbl, trans, lda, i, j));
        if (!(s <= anorm)) anorm = s;
    }
    for (int c = 0; c < nrhs; c++) {
        double rn = 0, xn = 0;
        for (int i = 0; i < n; i++) {
            double r = util_get(b, util_idx(i, c, ldb), dbl);
            for (int j = 0; j < n; j++)
                r -= opa(a, dbl, trans, lda, i, j) * util_get(x, util_idx(j, c, ldb), dbl);
            rn += fabs(r);
            xn += fabs(util_get(x, util_idx(i, c, ldb), dbl));
        }
        double q = rn / (anorm * xn * util_eps(dbl));
        if (rn == 0) q = 0;
        if (!(q <= worst)) worst = isnan(q) ? INFINITY : q;
    }
    return worst;
}

/* xGET03's ratio: ||I - A C||_1 / (n ||A||_1 ||C||_1 eps). */
static double inverse_ratio(const void *a, int dbl, int n, int lda, const void *c, int ldc)
{
    double anorm = 0, cnorm = 0, rnorm = 0;
    for (int j = 0; j < n; j++) {
        double sa = 0, sc = 0, sr = 0;
        for (int i = 0; i < n; i++) {
            sa += fabs(util_get(a, util_idx(i, j, lda), dbl));
            sc += fabs(util_get(c, util_idx(i, j, ldc), dbl));
            double r = i == j ? 1.0 : 0.0;
            for (int k = 0; k < n; k++)
                r -= util_get(a, util_idx(i, k, lda), dbl) * util_get(c, util_idx(k, j, ldc), dbl);
            sr += fabs(r);
        }
        if (!(sa <= anorm)) anorm = sa;
        if (!(sc <= cnorm)) cnorm = sc;
        if (!(sr <= rnorm)) rnorm = sr;
    }
    double q = rnorm / (n * anorm * cnorm * util_eps(dbl));
    return isnan(q) ? INFINITY : q;
}

/* Writes the n-by-n matrix b of the case at m (leading dimension lda). */
static void make_matrix(void *m, int dbl, const options *o, int lda, long long b, util_rng *r)
{
    const int n = o->n;
    if (!strcmp(o->kind, "illcond")) {
        double *d = malloc((size_t)n * sizeof *d), *g = malloc((size_t)n * (size_t)n * sizeof *g);
        const double lo = dbl ? 1e-12 : 1e-5;
        for (int i = 0; i < n; i++) d[i] = n > 1 ? pow(lo, (double)i / (n - 1)) : 1.0;
        lapack_int seed[4] = {(int)(b % 4096), (int)(o->seed % 4096), 7, 2 * (int)(b % 2000) + 1};
        if (LAPACKE_dlagge(LAPACK_COL_MAJOR, n, n, n > 0 ? n - 1 : 0, n > 0 ? n - 1 : 0, d, g,
                           n > 1 ? n : 1, seed)) {
            fprintf(stderr, "FAILED: test setup: dlagge\n");
            exit(1);
        }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) util_set(m, util_idx(i, j, lda), dbl, g[i + (size_t)j * n]);
        free(d);
        free(g);
    } else {
        util_fill_uniform(m, dbl, n, n, lda, r);
    }
    if (!strcmp(o->kind, "singular") && b % 4 == 1) {
        const int col = (int)((b * 5 + 2) % n);
        for (int i = 0; i < n; i++) util_set(m, util_idx(i, col, lda), dbl, 0.0);
    }
}

/* LAPACKE_?getrf of the matrix at m, pivots to p; returns info. */
static int ref_getrf(void *m, int dbl, int n, int lda, int *p)
{
    lapack_int ip[n > 0 ? n : 1];
    lapack_int info = dbl ? LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, m, lda, ip)
                          : LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, m, lda, ip);
    for (int i = 0; i < n; i++) p[i] = (int)ip[i];
    return (int)info;
}

/* The first k (1-based) where U(k,k) of the factors at f is zero or not finite, else 0. */
static int diag_info(const void *f, int dbl, int n, int lda)
{
    for (int k = 0; k < n; k++) {
        double d = util_get(f, util_idx(k, k, lda), dbl);
        if (d == 0 || !isfinite(d)) return k + 1;
    }
    return 0;
}

static int numeric_case(const options *o)
{
    layout L;
    L.dbl = o->precision == 'd';
    L.n = o->n;
    L.nrhs = o->nrhs;
    L.getri = !strcmp(o->mode, "getri");
    L.host = !strcmp(o->mode, "host-gesv");
    L.gesv = L.host || !strcmp(o->mode, "gesv");
    const int n = o->n, dbl = L.dbl, cols = L.getri ? n : o->nrhs;
    L.es = dbl ? 8 : 4;
    L.lda = (n > 1 ? n : 1) + o->lda_pad;
    L.ldb = (n > 1 ? n : 1) + o->ldb_pad;
    L.stride_a = (long long)L.lda * n + o->stride_pad;
    L.stride_b = (long long)L.ldb * cols + o->stride_pad;
    L.stride_p = n + o->piv_pad;
    L.offset_a = L.host ? 0 : o->offset_a;
    L.offset_b = L.host ? 0 : o->offset_b;
    L.offset_p = L.host ? 0 : o->offset_p;
    const size_t tail = 37;
    L.total_a = (size_t)(L.offset_a + o->batch * L.stride_a) + tail;
    L.total_b = (size_t)(L.offset_b + o->batch * L.stride_b) + tail;
    L.total_p = (size_t)(L.offset_p + o->batch * L.stride_p) + tail;

    bchol_context *ctx;
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "FAILED: no context: %s: %s\n", bchol_status_string(st), bchol_last_error(NULL));
        return 1;
    }
    /* a0: the matrices; a: what the routine gets (factors for getrs, getri); bm0: B (C)
     * before; p: the pivots. */
    void *a0 = malloc(L.total_a * L.es), *a = malloc(L.total_a * L.es), *a_in = malloc(L.total_a * L.es);
    void *bm0 = malloc(L.total_b * L.es), *bm = malloc(L.total_b * L.es);
    int *p = malloc(L.total_p * sizeof *p), *p_in = malloc(L.total_p * sizeof *p);
    int *info = malloc((size_t)(o->batch + 4) * sizeof *info);
    int *expect = calloc((size_t)o->batch + 1, sizeof *expect);
    util_poison(a0, dbl, L.total_a);
    util_poison(bm0, dbl, L.total_b);
    for (size_t e = 0; e < L.total_p; e++) p[e] = PIV_POISON(e);
    util_rng rng;
    util_rng_seed(&rng, o->seed);
    for (long long b = 0; b < o->batch; b++) {
        if (!L.getri)
            util_fill_uniform((char *)bm0 + (size_t)(L.offset_b + b * L.stride_b) * L.es, dbl, n,
                              o->nrhs, L.ldb, &rng);
        if (n > 0) make_matrix((char *)a0 + (size_t)(L.offset_a + b * L.stride_a) * L.es, dbl, o, L.lda, b, &rng);
    }
    memcpy(a, a0, L.total_a * L.es);
    /* Reference factors: the routine's input (getrs, getri) or the source of the expected
     * info (gesv; then in a scratch copy). */
    void *scratch = malloc(L.total_a * L.es);
    memcpy(scratch, a0, L.total_a * L.es);
    int *pscratch = malloc((size_t)(n > 0 ? n : 1) * sizeof *pscratch);
    long long nonsingular_refs = 0;
    for (long long b = 0; b < o->batch && n > 0; b++) {
        const size_t at = (size_t)(L.offset_a + b * L.stride_a) * L.es;
        void *f = L.gesv ? (char *)scratch + at : (char *)a + at;
        int *pv = L.gesv ? pscratch : p + L.offset_p + b * L.stride_p;
        int ri = ref_getrf(f, dbl, n, L.lda, pv);
        if (L.getri && !strcmp(o->kind, "singular") && b % 4 == 3) {
            const int k = (int)((b * 3 + 1) % n);
            util_set(f, util_idx(k, k, L.lda), dbl, b % 8 == 3 ? NAN : INFINITY);
        }
        expect[b] = L.getri ? diag_info(f, dbl, n, L.lda) : ri;
        if (L.getri && ri && expect[b] != ri) {
            fprintf(stderr, "FAILED: test setup: matrix %lld: getrf info %d, diagonal %d\n", b, ri,
                    expect[b]);
            return 1;
        }
        if (!L.getri && !L.gesv && ri && strcmp(o->kind, "singular")) {
            fprintf(stderr, "FAILED: test setup: matrix %lld is singular (getrs needs factors)\n", b);
            return 1;
        }
        if (!strcmp(o->kind, "singular") && (b % 4 == 1 || (L.getri && b % 4 == 3)) && !expect[b]) {
            fprintf(stderr, "FAILED: test setup: matrix %lld is not singular\n", b);
            return 1;
        }
        nonsingular_refs += expect[b] == 0;
    }
    memcpy(a_in, a, L.total_a * L.es);
    memcpy(p_in, p, L.total_p * sizeof *p);
    memcpy(bm, bm0, L.total_b * L.es);
    for (long long b = 0; b < o->batch + 4; b++) info[b] = -12345;

    st = run(ctx, o, &L, a, p, bm, info);
    if (test_skip_refusal(ctx, st)) {
        bchol_context_destroy(ctx);
        return TEST_SKIP;
    }
    if (st) {
        fprintf(stderr, "FAILED: %s: %s\n", bchol_status_string(st), bchol_last_error(ctx));
        return 1;
    }
    /* getrs on singular factors: the substitution kernel's X, the reference of their kind */
    const int singular_getrs = !L.getri && !L.gesv && !strcmp(o->kind, "singular");
    void *bsub = NULL;
    if (singular_getrs) {
        void *a2 = malloc(L.total_a * L.es);
        int *p2 = malloc(L.total_p * sizeof *p2), *i2 = malloc((size_t)(o->batch + 4) * sizeof *i2);
        bsub = malloc(L.total_b * L.es);
        memcpy(a2, a_in, L.total_a * L.es);
        memcpy(p2, p_in, L.total_p * sizeof *p2);
        memcpy(bsub, bm0, L.total_b * L.es);
        const char *was = getenv("BCHOL_LU_SOLVE_VARIANT");
        char *saved = was ? strdup(was) : NULL;
        setenv("BCHOL_LU_SOLVE_VARIANT", "subst", 1);
        st = run(ctx, o, &L, a2, p2, bsub, i2);
        if (saved) setenv("BCHOL_LU_SOLVE_VARIANT", saved, 1);
        else unsetenv("BCHOL_LU_SOLVE_VARIANT");
        free(saved), free(a2), free(p2), free(i2);
        if (st) {
            fprintf(stderr, "FAILED: the substitution kernel's run: %s: %s\n", bchol_status_string(st),
                    bchol_last_error(ctx));
            return 1;
        }
    }

    long long touched_a = 0, touched_p = 0, touched_b = 0, bad_info = 0, kept_b = 0, failed = 0;
    double worst = 0;
    /* A, ipiv: getrs and getri write nothing; gesv only the blocks and n pivots each. */
    for (size_t e = 0; e < L.total_a; e++) {
        int may = L.gesv && in_block(e, L.offset_a, L.stride_a, o->batch, L.lda, n, n);
        if (!may && memcmp((char *)a + e * L.es, (char *)a_in + e * L.es, L.es))
            if (touched_a++ < 5) fprintf(stderr, "A: element %zu changed\n", e);
    }
    for (size_t e = 0; e < L.total_p; e++) {
        int may = L.gesv && in_block(e, L.offset_p, L.stride_p, o->batch, (int)L.stride_p, n, 1);
        if (!may && p[e] != p_in[e])
            if (touched_p++ < 5) fprintf(stderr, "ipiv: element %zu changed\n", e);
    }
    /* B (C): only the n-by-cols blocks. */
    for (size_t e = 0; e < L.total_b; e++) {
        int may = in_block(e, L.offset_b, L.stride_b, o->batch, L.ldb, n, cols);
        if (!may && memcmp((char *)bm + e * L.es, (char *)bm0 + e * L.es, L.es))
            if (touched_b++ < 5) fprintf(stderr, "B: element %zu outside the blocks changed\n", e);
    }
    const int has_info = L.getri || L.gesv;
    for (long long b = 0; b < o->batch; b++) {
        const size_t at_a = (size_t)(L.offset_a + b * L.stride_a) * L.es;
        const size_t at_b = (size_t)(L.offset_b + b * L.stride_b) * L.es;
        if (has_info && info[b] != expect[b]) {
            if (bad_info++ < 5) fprintf(stderr, "matrix %lld: info %d, expected %d\n", b, info[b], expect[b]);
            continue;
        }
        if (expect[b] != 0 && singular_getrs) {
            failed++;
            for (int c = 0; c < cols; c++)
                for (int i = 0; i < n; i++) {
                    const size_t e = util_idx(i, c, L.ldb);
                    const double x = util_get((char *)bm + at_b, e, dbl), r = util_get((char *)bsub + at_b, e, dbl);
                    if (value_kind(x) != value_kind(r) && kept_b++ < 5)
                        fprintf(stderr, "matrix %lld (singular U): X(%d,%d) = %g, the substitution kernel's %g\n", b, i,
                                c, x, r);
                }
            continue;
        }
        if (expect[b] != 0) {
            failed++;
            for (int c = 0; c < cols; c++)
                if (memcmp((char *)bm + at_b + util_idx(0, c, L.ldb) * L.es,
                           (char *)bm0 + at_b + util_idx(0, c, L.ldb) * L.es, (size_t)n * L.es)) {
                    if (kept_b++ < 5) fprintf(stderr, "matrix %lld (info %d): B changed\n", b, expect[b]);
                    break;
                }
            continue;
        }
        if (n == 0) continue;
        double r = L.getri ? inverse_ratio((char *)a0 + at_a, dbl, n, L.lda, (char *)bm + at_b, L.ldb)
                           : solve_ratio((char *)a0 + at_a, dbl, L.gesv ? 'N' : o->trans, n, L.lda,
                                         o->nrhs, (char *)bm + at_b, (char *)bm0 + at_b, L.ldb);
        if (!(r <= worst)) worst = r;
    }
    if (has_info && !L.host)
        for (int b = 0; b < 4; b++)
            if (info[o->batch + b] != -12345) bad_info++;
    const int failures = touched_a || touched_p || touched_b || bad_info || kept_b || !(worst <= THRESHOLD);
    printf("%s %c%s%c n=%d nrhs=%d batch=%lld kind=%s: ratio %.3g, %lld wrong info, %lld singular "
           "(%lld with B changed), %lld/%lld/%lld elements touched outside in A/ipiv/B: %s\n",
           o->mode, o->precision, L.getri || L.gesv ? "" : " trans=", L.getri || L.gesv ? ' ' : o->trans,
           n, L.getri ? n : o->nrhs, o->batch, o->kind, worst, bad_info, failed, kept_b, touched_a,
           touched_p, touched_b, failures ? "FAILED" : "ok");
    (void)nonsingular_refs;
    free(a0), free(a), free(a_in), free(bm0), free(bm), free(p), free(p_in), free(info);
    free(expect), free(scratch), free(pscratch), free(bsub);
    bchol_context_destroy(ctx);
    return failures ? 1 : 0;
}

/* ---- argument checks ----------------------------------------------------------------- */

static bchol_context *actx;
static int afail;

static void expect_status(const char *what, bchol_status got, cl_event ev, bchol_status want,
                          const char *needle)
{
    const char *msg = bchol_last_error(NULL);
    int ok = got == want && (!needle || strstr(msg, needle)) && (!got || !ev);
    printf("%-40s %-40s %s\n", what, bchol_status_string(got), ok ? "ok" : "FAILED");
    if (!ok) {
        printf("    wanted %d (%s), got %d%s; message: %s\n", want, bchol_status_string(want), got,
               got && ev ? " with an event" : "", msg);
        afail++;
    }
    if (ev && ev != (cl_event)1) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
}

#define AN 5
#define AK 2
#define AB 3
#define ASA (AN * AN)
#define ASB (AN * AK)

static cl_mem mk(size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(bchol_context_cl_context(actx), CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!m) {
        fprintf(stderr, "FAILED: clCreateBuffer: %d\n", err);
        exit(1);
    }
    char zero = 0;
    clEnqueueFillBuffer(bchol_context_queue(actx), m, &zero, 1, 0, bytes, 0, NULL, NULL);
    clFinish(bchol_context_queue(actx));
    return m;
}

static void args_getrs(cl_mem A, cl_mem P, cl_mem B)
{
#define GETRS(what, want, needle, t, n, k, a, oa, lda, sa, p, op, sp, b, ob, ldb, sb, batch)          \
    do {                                                                                          \
        cl_event ev = (cl_event)1;                                                                \
        bchol_status st = bchol_sgetrs_batched(actx, t, n, k, a, oa, lda, sa, p, op, sp, b, ob,   \
                                               ldb, sb, batch, &ev);                              \
        expect_status(what, st, ev, want, needle);                                                \
    } while (0)
    GETRS("trans = 'C'", BCHOL_ERR_TRANS, "argument 2 (trans = 'C')", 'C', AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB);
    GETRS("trans = 0", BCHOL_ERR_TRANS, "argument 2 (trans", 0, AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB);
    GETRS("n = -1", BCHOL_ERR_N, "argument 3 (n = -1)", 'N', -1, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB);
    GETRS("nrhs = -1", BCHOL_ERR_NRHS, "argument 4 (nrhs = -1)", 'N', AN, -1, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB);
    GETRS("A = NULL", BCHOL_ERR_A, "argument 5 (A) is NULL", 'N', AN, AK, NULL, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB);
    GETRS("offset_a = -1", BCHOL_ERR_OFFSET_A, "argument 6 (offset_a", 'N', AN, AK, A, -1, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB);
    GETRS("lda = n - 1", BCHOL_ERR_LDA, "argument 7 (lda = 4)", 'T', AN, AK, A, 0, AN - 1, ASA, P, 0, AN, B, 0, AN, ASB, AB);
    GETRS("n*lda beyond 2^31", BCHOL_ERR_N, "2^31", 'N', 50000, AK, A, 0, 50000, 2500000000LL, P, 0, 50000, B, 0, 50000, 100000, 1);
    GETRS("stride_a < lda*n", BCHOL_ERR_STRIDE_A, "argument 8 (stride_a", 'N', AN, AK, A, 0, AN, ASA - 1, P, 0, AN, B, 0, AN, ASB, AB);
    GETRS("ipiv = NULL", BCHOL_ERR_IPIV, "argument 9 (ipiv) is NULL", 'N', AN, AK, A, 0, AN, ASA, NULL, 0, AN, B, 0, AN, ASB, AB);
    GETRS("offset_p = -1", BCHOL_ERR_OFFSET_P, "argument 10 (offset_p", 'N', AN, AK, A, 0, AN, ASA, P, -1, AN, B, 0, AN, ASB, AB);
    GETRS("stride_p < n", BCHOL_ERR_STRIDE_P, "argument 11 (stride_p = 4)", 'N', AN, AK, A, 0, AN, ASA, P, 0, AN - 1, B, 0, AN, ASB, AB);
    GETRS("B = NULL", BCHOL_ERR_B, "argument 12 (B) is NULL", 'N', AN, AK, A, 0, AN, ASA, P, 0, AN, NULL, 0, AN, ASB, AB);
    GETRS("offset_b = -1", BCHOL_ERR_OFFSET_B, "argument 13 (offset_b", 'N', AN, AK, A, 0, AN, ASA, P, 0, AN, B, -1, AN, ASB, AB);
    GETRS("ldb = n - 1", BCHOL_ERR_LDB, "argument 14 (ldb = 4)", 'N', AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN - 1, ASB, AB);
    GETRS("stride_b < ldb*nrhs", BCHOL_ERR_STRIDE_B, "argument 15 (stride_b", 'N', AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB - 1, AB);
    GETRS("batch = -1", BCHOL_ERR_BATCH, "argument 16 (batch = -1)", 'N', AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, -1);
    GETRS("A too small", BCHOL_ERR_A_SIZE, "argument 5 (A) holds", 'N', AN, AK, A, 1, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB);
    GETRS("ipiv too small", BCHOL_ERR_IPIV_SIZE, "argument 9 (ipiv) holds", 'N', AN, AK, A, 0, AN, ASA, P, 1, AN, B, 0, AN, ASB, AB);
    GETRS("B too small", BCHOL_ERR_B_SIZE, "argument 12 (B) holds", 'N', AN, AK, A, 0, AN, ASA, P, 0, AN, B, 1, AN, ASB, AB);
    GETRS("B overlaps A", BCHOL_ERR_B, "argument 12 (B)", 'N', AN, AK, A, 0, AN, ASA, P, 0, AN, A, 0, AN, ASB, AB);
    {
        cl_event ev = (cl_event)1;
        bchol_status st = bchol_dgetrs_batched(NULL, 'N', AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB, &ev);
        expect_status("ctx = NULL", st, ev, BCHOL_ERR_CONTEXT, "argument 1 (ctx)");
    }
    /* quick returns: nothing is checked past the scalars, nothing enqueued */
    GETRS("n = 0 (buffers unused)", BCHOL_SUCCESS, NULL, 'N', 0, AK, NULL, 0, 1, 0, NULL, 0, 0, NULL, 0, 1, AK, AB);
    GETRS("nrhs = 0", BCHOL_SUCCESS, NULL, 'T', AN, 0, NULL, 0, AN, ASA, NULL, 0, AN, NULL, 0, AN, 0, AB);
    GETRS("batch = 0", BCHOL_SUCCESS, NULL, 'N', AN, AK, NULL, 0, AN, ASA, NULL, 0, AN, NULL, 0, AN, ASB, 0);
#undef GETRS
}

static void args_getri(cl_mem A, cl_mem P, cl_mem C, cl_mem IN)
{
#define GETRI(what, want, needle, n, a, oa, lda, sa, p, op, sp, c, oc, ldc, sc, batch, inf)            \
    do {                                                                                          \
        cl_event ev = (cl_event)1;                                                                \
        bchol_status st = bchol_sgetri_batched(actx, n, a, oa, lda, sa, p, op, sp, c, oc, ldc,    \
                                               sc, batch, inf, &ev);                              \
        expect_status(what, st, ev, want, needle);                                                \
    } while (0)
    GETRI("n = -1", BCHOL_ERR_N, "argument 2 (n = -1)", -1, A, 0, AN, ASA, P, 0, AN, C, 0, AN, ASA, AB, IN);
    GETRI("A = NULL", BCHOL_ERR_A, "argument 3 (A) is NULL", AN, NULL, 0, AN, ASA, P, 0, AN, C, 0, AN, ASA, AB, IN);
    GETRI("offset_a = -1", BCHOL_ERR_OFFSET_A, "argument 4 (offset_a", AN, A, -1, AN, ASA, P, 0, AN, C, 0, AN, ASA, AB, IN);
    GETRI("lda = n - 1", BCHOL_ERR_LDA, "argument 5 (lda = 4)", AN, A, 0, AN - 1, ASA, P, 0, AN, C, 0, AN, ASA, AB, IN);
    GETRI("stride_a < lda*n", BCHOL_ERR_STRIDE_A, "argument 6 (stride_a", AN, A, 0, AN, ASA - 1, P, 0, AN, C, 0, AN, ASA, AB, IN);
    GETRI("ipiv = NULL", BCHOL_ERR_IPIV, "argument 7 (ipiv) is NULL", AN, A, 0, AN, ASA, NULL, 0, AN, C, 0, AN, ASA, AB, IN);
    GETRI("offset_p = -1", BCHOL_ERR_OFFSET_P, "argument 8 (offset_p", AN, A, 0, AN, ASA, P, -1, AN, C, 0, AN, ASA, AB, IN);
    GETRI("stride_p < n", BCHOL_ERR_STRIDE_P, "argument 9 (stride_p", AN, A, 0, AN, ASA, P, 0, AN - 1, C, 0, AN, ASA, AB, IN);
    GETRI("C = NULL", BCHOL_ERR_C, "argument 10 (C) is NULL", AN, A, 0, AN, ASA, P, 0, AN, NULL, 0, AN, ASA, AB, IN);
    GETRI("offset_c = -1", BCHOL_ERR_OFFSET_C, "argument 11 (offset_c", AN, A, 0, AN, ASA, P, 0, AN, C, -1, AN, ASA, AB, IN);
    GETRI("ldc = n - 1", BCHOL_ERR_LDC, "argument 12 (ldc = 4)", AN, A, 0, AN, ASA, P, 0, AN, C, 0, AN - 1, ASA, AB, IN);
    GETRI("stride_c < ldc*n", BCHOL_ERR_STRIDE_C, "argument 13 (stride_c", AN, A, 0, AN, ASA, P, 0, AN, C, 0, AN, ASA - 1, AB, IN);
    GETRI("batch = -1", BCHOL_ERR_BATCH, "argument 14 (batch = -1)", AN, A, 0, AN, ASA, P, 0, AN, C, 0, AN, ASA, -1, IN);
    GETRI("info = NULL", BCHOL_ERR_INFO, "argument 15 (info) is NULL", AN, A, 0, AN, ASA, P, 0, AN, C, 0, AN, ASA, AB, NULL);
    GETRI("info = NULL with n = 0", BCHOL_ERR_INFO, "argument 15 (info) is NULL", 0, NULL, 0, 1, 0, NULL, 0, 0, NULL, 0, 1, 0, AB, NULL);
    GETRI("A too small", BCHOL_ERR_A_SIZE, "argument 3 (A) holds", AN, A, 1, AN, ASA, P, 0, AN, C, 0, AN, ASA, AB, IN);
    GETRI("ipiv too small", BCHOL_ERR_IPIV_SIZE, "argument 7 (ipiv) holds", AN, A, 0, AN, ASA, P, 1, AN, C, 0, AN, ASA, AB, IN);
    GETRI("C too small", BCHOL_ERR_C_SIZE, "argument 10 (C) holds", AN, A, 0, AN, ASA, P, 0, AN, C, 1, AN, ASA, AB, IN);
    cl_mem small = mk((AB - 1) * 4);
    GETRI("info too small", BCHOL_ERR_INFO_SIZE, "argument 15 (info) holds", AN, A, 0, AN, ASA, P, 0, AN, C, 0, AN, ASA, AB, small);
    clReleaseMemObject(small);
    GETRI("C overlaps A", BCHOL_ERR_C, "argument 10 (C)", AN, A, 0, AN, ASA, P, 0, AN, A, 0, AN, ASA, AB, IN);
    GETRI("info overlaps ipiv", BCHOL_ERR_INFO, "argument 15 (info)", AN, A, 0, AN, ASA, P, 0, AN, C, 0, AN, ASA, AB, P);
    GETRI("batch = 0", BCHOL_SUCCESS, NULL, AN, NULL, 0, AN, ASA, NULL, 0, AN, NULL, 0, AN, ASA, 0, NULL);
    /* n = 0 sets info to zero */
    int v[AB] = {7, 7, 7};
    clEnqueueWriteBuffer(bchol_context_queue(actx), IN, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL);
    GETRI("n = 0 (info zeroed)", BCHOL_SUCCESS, NULL, 0, NULL, 0, 1, 0, NULL, 0, 0, NULL, 0, 1, 0, AB, IN);
    clEnqueueReadBuffer(bchol_context_queue(actx), IN, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL);
    int zeroed = !v[0] && !v[1] && !v[2];
    printf("%-40s %-40s %s\n", "n = 0: info = 0", "", zeroed ? "ok" : "FAILED");
    afail += !zeroed;
#undef GETRI
}

static void args_gesv(cl_mem A, cl_mem P, cl_mem B, cl_mem IN)
{
#define GESV(what, want, needle, n, k, a, oa, lda, sa, p, op, sp, b, ob, ldb, sb, batch, inf)         \
    do {                                                                                          \
        cl_event ev = (cl_event)1;                                                                \
        bchol_status st = bchol_sgesv_batched(actx, n, k, a, oa, lda, sa, p, op, sp, b, ob, ldb,  \
                                              sb, batch, inf, &ev);                               \
        expect_status(what, st, ev, want, needle);                                                \
    } while (0)
    GESV("n = -1", BCHOL_ERR_N, "argument 2 (n = -1)", -1, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB, IN);
    GESV("nrhs = -1", BCHOL_ERR_NRHS, "argument 3 (nrhs = -1)", AN, -1, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB, IN);
    GESV("A = NULL", BCHOL_ERR_A, "argument 4 (A) is NULL", AN, AK, NULL, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB, IN);
    GESV("offset_a = -1", BCHOL_ERR_OFFSET_A, "argument 5 (offset_a", AN, AK, A, -1, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB, IN);
    GESV("lda = n - 1", BCHOL_ERR_LDA, "argument 6 (lda = 4)", AN, AK, A, 0, AN - 1, ASA, P, 0, AN, B, 0, AN, ASB, AB, IN);
    GESV("stride_a < lda*n", BCHOL_ERR_STRIDE_A, "argument 7 (stride_a", AN, AK, A, 0, AN, ASA - 1, P, 0, AN, B, 0, AN, ASB, AB, IN);
    GESV("ipiv = NULL", BCHOL_ERR_IPIV, "argument 8 (ipiv) is NULL", AN, AK, A, 0, AN, ASA, NULL, 0, AN, B, 0, AN, ASB, AB, IN);
    GESV("offset_p = -1", BCHOL_ERR_OFFSET_P, "argument 9 (offset_p", AN, AK, A, 0, AN, ASA, P, -1, AN, B, 0, AN, ASB, AB, IN);
    GESV("stride_p < n", BCHOL_ERR_STRIDE_P, "argument 10 (stride_p", AN, AK, A, 0, AN, ASA, P, 0, AN - 1, B, 0, AN, ASB, AB, IN);
    GESV("B = NULL", BCHOL_ERR_B, "argument 11 (B) is NULL", AN, AK, A, 0, AN, ASA, P, 0, AN, NULL, 0, AN, ASB, AB, IN);
    GESV("offset_b = -1", BCHOL_ERR_OFFSET_B, "argument 12 (offset_b", AN, AK, A, 0, AN, ASA, P, 0, AN, B, -1, AN, ASB, AB, IN);
    GESV("ldb = n - 1", BCHOL_ERR_LDB, "argument 13 (ldb = 4)", AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN - 1, ASB, AB, IN);
    GESV("stride_b < ldb*nrhs", BCHOL_ERR_STRIDE_B, "argument 14 (stride_b", AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB - 1, AB, IN);
    GESV("batch = -1", BCHOL_ERR_BATCH, "argument 15 (batch = -1)", AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, -1, IN);
    GESV("info = NULL", BCHOL_ERR_INFO, "argument 16 (info) is NULL", AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB, NULL);
    GESV("A too small", BCHOL_ERR_A_SIZE, "argument 4 (A) holds", AN, AK, A, 1, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB, IN);
    GESV("ipiv too small", BCHOL_ERR_IPIV_SIZE, "argument 8 (ipiv) holds", AN, AK, A, 0, AN, ASA, P, 1, AN, B, 0, AN, ASB, AB, IN);
    GESV("B too small", BCHOL_ERR_B_SIZE, "argument 11 (B) holds", AN, AK, A, 0, AN, ASA, P, 0, AN, B, 1, AN, ASB, AB, IN);
    cl_mem small = mk((AB - 1) * 4);
    GESV("info too small", BCHOL_ERR_INFO_SIZE, "argument 16 (info) holds", AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB, small);
    clReleaseMemObject(small);
    GESV("B overlaps A", BCHOL_ERR_B, "argument 11 (B)", AN, AK, A, 0, AN, ASA, P, 0, AN, A, 0, AN, ASB, AB, IN);
    GESV("info overlaps ipiv", BCHOL_ERR_INFO, "argument 16 (info)", AN, AK, A, 0, AN, ASA, P, 0, AN, B, 0, AN, ASB, AB, P);
    GESV("batch = 0", BCHOL_SUCCESS, NULL, AN, AK, NULL, 0, AN, ASA, NULL, 0, AN, NULL, 0, AN, ASB, 0, NULL);
#undef GESV
}

static void args_host(void)
{
    float a[ASA * AB] = {0}, b[ASB * AB] = {0};
    int p[AN * AB], inf[AB];
#define HOST(what, want, needle, n, k, aa, lda, sa, pp, sp, bb, ldb, sb, batch, ii)                    \
    do {                                                                                          \
        bchol_status st = bchol_sgesv_batched_host(actx, n, k, aa, lda, sa, pp, sp, bb, ldb, sb,  \
                                                   batch, ii);                                    \
        expect_status(what, st, NULL, want, needle);                                              \
    } while (0)
    HOST("n = -1", BCHOL_ERR_N, "argument 2 (n = -1)", -1, AK, a, AN, ASA, p, AN, b, AN, ASB, AB, inf);
    HOST("nrhs = -1", BCHOL_ERR_NRHS, "argument 3 (nrhs = -1)", AN, -1, a, AN, ASA, p, AN, b, AN, ASB, AB, inf);
    HOST("A = NULL", BCHOL_ERR_A, "argument 4 (A) is NULL", AN, AK, NULL, AN, ASA, p, AN, b, AN, ASB, AB, inf);
    HOST("lda = n - 1", BCHOL_ERR_LDA, "argument 5 (lda = 4)", AN, AK, a, AN - 1, ASA, p, AN, b, AN, ASB, AB, inf);
    HOST("stride_a < lda*n", BCHOL_ERR_STRIDE_A, "argument 6 (stride_a", AN, AK, a, AN, ASA - 1, p, AN, b, AN, ASB, AB, inf);
    HOST("ipiv = NULL", BCHOL_ERR_IPIV, "argument 7 (ipiv) is NULL", AN, AK, a, AN, ASA, NULL, AN, b, AN, ASB, AB, inf);
    HOST("stride_p < n", BCHOL_ERR_STRIDE_P, "argument 8 (stride_p", AN, AK, a, AN, ASA, p, AN - 1, b, AN, ASB, AB, inf);
    HOST("B = NULL", BCHOL_ERR_B, "argument 9 (B) is NULL", AN, AK, a, AN, ASA, p, AN, NULL, AN, ASB, AB, inf);
    HOST("ldb = n - 1", BCHOL_ERR_LDB, "argument 10 (ldb = 4)", AN, AK, a, AN, ASA, p, AN, b, AN - 1, ASB, AB, inf);
    HOST("stride_b < ldb*nrhs", BCHOL_ERR_STRIDE_B, "argument 11 (stride_b", AN, AK, a, AN, ASA, p, AN, b, AN, ASB - 1, AB, inf);
    HOST("batch = -1", BCHOL_ERR_BATCH, "argument 12 (batch = -1)", AN, AK, a, AN, ASA, p, AN, b, AN, ASB, -1, inf);
    HOST("info = NULL", BCHOL_ERR_INFO, "argument 13 (info) is NULL", AN, AK, a, AN, ASA, p, AN, b, AN, ASB, AB, NULL);
    HOST("A spans the address space", BCHOL_ERR_STRIDE_A, "argument 6 (stride_a", AN, AK, a, AN, 1LL << 60, p, AN, b, AN, ASB, AB, inf);
    HOST("batch = 0", BCHOL_SUCCESS, NULL, AN, AK, NULL, AN, ASA, NULL, AN, NULL, AN, ASB, 0, NULL);
    inf[0] = inf[1] = inf[2] = 9;
    HOST("n = 0 (info zeroed)", BCHOL_SUCCESS, NULL, 0, AK, NULL, 1, 0, NULL, 0, NULL, 1, AK, AB, inf);
    int zeroed = !inf[0] && !inf[1] && !inf[2];
    printf("%-40s %-40s %s\n", "n = 0: info = 0", "", zeroed ? "ok" : "FAILED");
    afail += !zeroed;
    /* a refused device allocation fails the call (gesv does not halve its pieces, unlike
     * getrf) and leaves every array as it was */
    for (int e = 0; e < ASA * AB; e++) a[e] = (float)(e % 7) + 1;
    for (int e = 0; e < ASB * AB; e++) b[e] = (float)(e % 5) - 2;
    for (int e = 0; e < AN * AB; e++) p[e] = -e;
    inf[0] = inf[1] = inf[2] = 9;
    float a0[ASA * AB], b0[ASB * AB];
    int p0[AN * AB];
    memcpy(a0, a, sizeof a), memcpy(b0, b, sizeof b), memcpy(p0, p, sizeof p);
    shim_fail(SHIM_BUFFER, 1, 1, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    HOST("a device allocation refused", BCHOL_ERR_OUT_OF_MEMORY, "clCreateBuffer", AN, AK, a, AN, ASA, p, AN, b, AN, ASB, AB, inf);
    shim_fail(SHIM_ANY, 0, 0, CL_SUCCESS);
    const int kept = !memcmp(a, a0, sizeof a) && !memcmp(b, b0, sizeof b) &&
                     !memcmp(p, p0, sizeof p) && inf[0] == 9 && inf[1] == 9 && inf[2] == 9;
    printf("%-40s %-40s %s\n", "refused allocation: arrays kept", "", kept ? "ok" : "FAILED");
    afail += !kept;
#undef HOST
}

static int args_case(const char *mode)
{
    bchol_status st = bchol_context_create(NULL, &actx);
    if (st) {
        fprintf(stderr, "FAILED: no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    cl_mem A = mk(ASA * AB * 4), P = mk(AN * AB * 4), B = mk(ASB * AB * 4), C = mk(ASA * AB * 4);
    cl_mem IN = mk(AB * 4);
    if (!strcmp(mode, "args-getrs")) args_getrs(A, P, B);
    else if (!strcmp(mode, "args-getri")) args_getri(A, P, C, IN);
    else if (!strcmp(mode, "args-gesv")) args_gesv(A, P, B, IN);
    else if (!strcmp(mode, "args-host")) args_host();
    else usage();
    clReleaseMemObject(A), clReleaseMemObject(P), clReleaseMemObject(B), clReleaseMemObject(C);
    clReleaseMemObject(IN);
    bchol_context_destroy(actx);
    printf("%s: %s\n", mode, afail ? "FAILED" : "ok");
    return afail ? 1 : 0;
}

int main(int argc, char **argv)
{
    options o = parse(argc, argv);
    if (!strncmp(o.mode, "args-", 5)) return args_case(o.mode);
    if (strcmp(o.mode, "getrs") && strcmp(o.mode, "getri") && strcmp(o.mode, "gesv") &&
        strcmp(o.mode, "host-gesv"))
        usage();
    if (test_skip_precision(o.precision)) return TEST_SKIP;
    return numeric_case(&o);
}
