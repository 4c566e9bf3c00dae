/*
 * Tester for bchol_{s,d}getrf_vbatched, getrs_vbatched and gesv_vbatched (plain and _ex
 * forms; getrf's and gesv's host forms, where a bad offset is a negative one): one case per
 * run, chosen by options; exit code 0 on pass.
 *
 *   test_lu_vbatched --routine getrf|getrs|gesv --precision s|d --nmax N [--batch B]
 *       [--form ex|plain|host] [--trans N|T] [--singular 0|1] [--bad 0|1] [--lda-pad P]
 *       [--ldb-pad P] [--gap G] [--shape square|tall|wide|mixed (getrf)]
 *       [--lx L --tbc C --nb NB --fused-max F (getrf _ex)] [--nt T --rpt R (solve _ex)]
 *       [--variant subst|workitem (solve _ex: params->variant)]
 *       [--seed X]
 *   test_lu_vbatched --mode args
 *
 * Matrix b has n[b] columns in [0, nmax] (0, 1 and nmax always occur) and m[b] rows: m = n
 * (square; getrs and gesv always), m >= n (tall), m <= n (wide), or each of the three in
 * turn (mixed), with m in [0, nmax]; the rectangular shapes also have matrices with m = 0
 * and n > 0. Random entries in [-1, 1), lda[b] and ldb[b] padded (more for odd b), nrhs[b]
 * cycling over {1, 3, 16, 0, 2, 5}, and G poisoned elements between consecutive matrices,
 * pivot arrays and blocks of B. --singular zeroes two columns (b mod n and the last) of
 * every fifth matrix. --bad plants one invalid entry of each kind the routine checks (n,
 * lda, offsets_a, max_n (ex), an overlap of A, offsets_p, an overlap of the pivots; for
 * getrf also m and max_m (ex); for getrs/gesv also nrhs, ldb, offsets_b, max_nrhs (ex), an
 * overlap of B) among good ones, and past 1024 (2048) matrices an overlap of the pivots (of
 * A) across the check kernels' blocks. Checks, per matrix:
 *   info: the code of the first bad entry (a host model of the documented rules, and the
 *         planted code where one was planted), else LAPACKE_?getrf's info (getrf, gesv)
 *         or 0 (getrs);
 *   getrf/gesv: ||P*A - L*U||_1 / (n*||A||_1*eps) <= 30 (LAPACK's xGET01, m-by-n) and
 *         the min(m, n) pivots equal to LAPACKE_?getrf's;
 *   getrs/gesv: ||op(A)*X - B||_1 / (||A||_1*||X||_1*n*eps) <= 30 (getrs with LAPACKE's
 *         factors), and a singular matrix's B untouched (gesv);
 *   bit for bit, everything outside what the routine may write (the m-by-n blocks and
 *         min(m, n) pivots of the factored matrices, the n-by-nrhs blocks of the solved ones) is
 *         unchanged: padding, gaps, rejected matrices, A and ipiv for getrs.
 * --fused-max F (params->fused_max) sends the matrices above F (-1: all) to the blocked
 * path; orders past the fused kernel's local memory take it by themselves.
 * args: every bad argument by name (status and message), batch = 0, a max_n far beyond
 *   the fused kernel's limit (accepted), no event from a failed call.
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"

#include <lapacke.h>

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0
#define POISON_INT (-777)

typedef struct {
    char routine[8], precision, form[8], trans, shape[8];
    int nmax, singular, bad, lda_pad, ldb_pad, gap, lx, tbc, nt, rpt, nb, fused_max;
    long long batch;
    unsigned long long seed;
    bchol_solve_variant variant; /* the solve _ex's params->variant */
} options;

static void usage(void)
{
    fprintf(stderr, "usage: test_lu_vbatched --routine getrf|getrs|gesv --precision s|d --nmax N "
                    "[--batch B] [--form ex|plain] [--trans N|T] [--singular 0|1] [--bad 0|1] "
                    "[--lda-pad P] [--ldb-pad P] [--gap G] [--shape square|tall|wide|mixed] "
                    "[--lx L] [--tbc C] [--nb NB] [--fused-max F] [--nt T] [--rpt R] "
                    "[--variant subst|workitem] [--seed X] | --mode args\n");
    exit(2);
}

static options parse(int argc, char **argv)
{
    options o = {"getrf", 's', "ex", 'N', "square", 16, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 40, 1, BCHOL_SOLVE_AUTO};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (!strcmp(k, "--routine"))
            snprintf(o.routine, sizeof o.routine, "%s", v);
        else if (!strcmp(k, "--precision"))
            o.precision = v[0];
        else if (!strcmp(k, "--form"))
            snprintf(o.form, sizeof o.form, "%s", v);
        else if (!strcmp(k, "--trans"))
            o.trans = v[0];
        else if (!strcmp(k, "--nmax"))
            o.nmax = atoi(v);
        else if (!strcmp(k, "--batch"))
            o.batch = atoll(v);
        else if (!strcmp(k, "--singular"))
            o.singular = atoi(v);
        else if (!strcmp(k, "--bad"))
            o.bad = atoi(v);
        else if (!strcmp(k, "--lda-pad"))
            o.lda_pad = atoi(v);
        else if (!strcmp(k, "--ldb-pad"))
            o.ldb_pad = atoi(v);
        else if (!strcmp(k, "--gap"))
            o.gap = atoi(v);
        else if (!strcmp(k, "--lx"))
            o.lx = atoi(v);
        else if (!strcmp(k, "--tbc"))
            o.tbc = atoi(v);
        else if (!strcmp(k, "--nt"))
            o.nt = atoi(v);
        else if (!strcmp(k, "--rpt"))
            o.rpt = atoi(v);
        else if (!strcmp(k, "--variant") && (!strcmp(v, "subst") || !strcmp(v, "workitem")))
            o.variant = !strcmp(v, "subst") ? BCHOL_SOLVE_SUBST : BCHOL_SOLVE_WORKITEM;
        else if (!strcmp(k, "--shape"))
            snprintf(o.shape, sizeof o.shape, "%s", v);
        else if (!strcmp(k, "--nb"))
            o.nb = atoi(v);
        else if (!strcmp(k, "--fused-max"))
            o.fused_max = atoi(v);
        else if (!strcmp(k, "--seed"))
            o.seed = strtoull(v, NULL, 10);
        else
            usage();
    }
    if ((o.precision != 's' && o.precision != 'd') || o.nmax < 2 || o.batch < 0 || o.gap < 0 ||
        (strcmp(o.routine, "getrf") && strcmp(o.routine, "getrs") && strcmp(o.routine, "gesv")) ||
        (strcmp(o.form, "ex") && strcmp(o.form, "plain") && strcmp(o.form, "host")) ||
        (!strcmp(o.form, "host") && !strcmp(o.routine, "getrs")) || (o.trans != 'N' && o.trans != 'T') ||
        (o.bad && o.batch < 90) ||
        (strcmp(o.shape, "square") && strcmp(o.shape, "tall") && strcmp(o.shape, "wide") &&
         strcmp(o.shape, "mixed")) ||
        (strcmp(o.shape, "square") && strcmp(o.routine, "getrf")))
        usage();
    return o;
}

static int failures;

/* ---- the host model of the checks (include/bchol.h's rules) ------------------------------ */

/* Footprint [start, end) or end = 0; an entry already rejected has none. */
typedef struct {
    uint64_t start, end;
} span;

/* Matrices with a footprint that starts before the end of an earlier one or ends after the
 * start of a later one get code. */
static void mark_overlaps(const span *s, long long batch, int *codes, int code)
{
    uint64_t before = 0;
    int *hit = calloc((size_t)batch + 1, sizeof *hit);
    for (long long b = 0; b < batch; b++) {
        if (s[b].end == 0) continue;
        if (before > s[b].start) hit[b] = 1;
        if (s[b].end > before) before = s[b].end;
    }
    uint64_t after = UINT64_MAX;
    for (long long b = batch; b-- > 0;) {
        if (s[b].end == 0) continue;
        if (s[b].end > after) hit[b] = 1;
        if (s[b].start < after) after = s[b].start;
    }
    for (long long b = 0; b < batch; b++)
        if (hit[b]) codes[b] = code;
    free(hit);
}

static int in_range(int64_t off, uint64_t len, uint64_t elems)
{
    return off >= 0 && (len == 0 || ((uint64_t)off <= elems && len <= elems - (uint64_t)off));
}

static void model_codes(long long batch, const int *m, const int *n, const int *lda,
                        const int64_t *oa, uint64_t a_elems, int max_m, int max_n,
                        const int64_t *op, uint64_t p_elems,
                        int solve, const int *k, const int *ldb, const int64_t *ob,
                        uint64_t b_elems, int max_nrhs, int *codes)
{
    span *s = calloc((size_t)batch + 1, sizeof *s);
    for (long long b = 0; b < batch; b++) {
        codes[b] = 0;
        const uint64_t len =
            m[b] > 0 && n[b] > 0 ? (uint64_t)(n[b] - 1) * (uint64_t)lda[b] + m[b] : 0;
        if (n[b] < 0) codes[b] = BCHOL_INFO_BAD_N;
        else if (m[b] < 0) codes[b] = BCHOL_INFO_BAD_M;
        else if (lda[b] < (m[b] > 1 ? m[b] : 1) || len > INT_MAX) codes[b] = BCHOL_INFO_BAD_LDA;
        else if (!in_range(oa[b], len, a_elems)) codes[b] = BCHOL_INFO_BAD_OFFSET;
        else if (n[b] > max_n) codes[b] = BCHOL_INFO_ABOVE_MAX_N;
        else if (m[b] > max_m) codes[b] = BCHOL_INFO_ABOVE_MAX_M;
        s[b] = codes[b] == 0 && len ? (span){(uint64_t)oa[b], (uint64_t)oa[b] + len} : (span){0, 0};
    }
    mark_overlaps(s, batch, codes, BCHOL_INFO_OVERLAP);
    for (long long b = 0; b < batch; b++) {
        s[b] = (span){0, 0};
        if (codes[b]) continue;
        const uint64_t kp = (uint64_t)(m[b] < n[b] ? m[b] : n[b]);
        if (!in_range(op[b], kp, p_elems)) codes[b] = BCHOL_INFO_BAD_OFFSET_P;
        else if (kp > 0) s[b] = (span){(uint64_t)op[b], (uint64_t)op[b] + kp};
    }
    mark_overlaps(s, batch, codes, BCHOL_INFO_OVERLAP_P);
    if (solve) {
        for (long long b = 0; b < batch; b++) {
            s[b] = (span){0, 0};
            if (codes[b]) continue;
            const uint64_t len =
                n[b] > 0 && k[b] > 0 ? (uint64_t)(k[b] - 1) * (uint64_t)ldb[b] + n[b] : 0;
            if (k[b] < 0) codes[b] = BCHOL_INFO_BAD_NRHS;
            else if (ldb[b] < (n[b] > 1 ? n[b] : 1)) codes[b] = BCHOL_INFO_BAD_LDB;
            else if (!in_range(ob[b], len, b_elems)) codes[b] = BCHOL_INFO_BAD_OFFSET_B;
            else if (k[b] > max_nrhs) codes[b] = BCHOL_INFO_ABOVE_MAX_NRHS;
            else if (len) s[b] = (span){(uint64_t)ob[b], (uint64_t)ob[b] + len};
        }
        mark_overlaps(s, batch, codes, BCHOL_INFO_OVERLAP_B);
    }
    free(s);
}

/* ---- LAPACK references and ratios ------------------------------------------------------- */

/* LAPACKE_?getrf of the m-by-n matrix at a (ld lda) in place; returns info. */
static int ref_getrf(void *a, int dbl, int m, int n, int lda, int *ipiv)
{
    return dbl ? LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, a, lda, ipiv)
               : LAPACKE_sgetrf(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);
}

/* ||P*A - L*U||_1 / (n*||A||_1*eps) (LAPACK's xGET01), A = a0 m-by-n, factors in f (ld
 * lda): L m-by-k unit lower, U k-by-n upper, k = min(m, n). */
static double lu_residual(const void *a0, const void *f, int dbl, int m, int n, int lda,
                          const int *ipiv)
{
    const int kk = m < n ? m : n;
    double *pa = malloc((size_t)m * n * sizeof *pa), anorm = 0, rnorm = 0;
    for (int j = 0; j < n; j++) {
        double c = 0;
        for (int i = 0; i < m; i++) {
            pa[i + (size_t)j * m] = util_get(a0, util_idx(i, j, lda), dbl);
            c += fabs(pa[i + (size_t)j * m]);
        }
        if (c > anorm) anorm = c;
    }
    for (int i = 0; i < kk; i++) {
        const int p = ipiv[i] - 1;
        if (p < i || p >= m) { /* a pivot row is at or below its step */
            free(pa);
            return INFINITY;
        }
        for (int j = 0; j < n && p != i; j++) {
            const double t = pa[i + (size_t)j * m];
            pa[i + (size_t)j * m] = pa[p + (size_t)j * m];
            pa[p + (size_t)j * m] = t;
        }
    }
    for (int j = 0; j < n; j++) {
        double c = 0;
        for (int i = 0; i < m; i++) {
            double s = 0;
            const int top = (i < j ? i : j) < kk - 1 ? (i < j ? i : j) : kk - 1;
            for (int l = 0; l <= top; l++)
                s += (l == i ? 1.0 : util_get(f, util_idx(i, l, lda), dbl)) *
                     util_get(f, util_idx(l, j, lda), dbl);
            c += fabs(pa[i + (size_t)j * m] - s);
        }
        if (!(c <= rnorm)) rnorm = c;
    }
    free(pa);
    if (anorm == 0) return rnorm == 0 ? 0 : INFINITY;
    return rnorm / ((double)n * anorm * util_eps(dbl));
}

/* ||op(A)*X - B||_1 / (||A||_1*||X||_1*n*eps) over the nrhs columns (worst). */
static double solve_residual(const void *a0, int lda, const void *x, const void *b0, int ldb,
                             int dbl, int trans, int n, int nrhs)
{
    double anorm = 0, worst = 0;
    for (int j = 0; j < n; j++) {
        double c = 0;
        for (int i = 0; i < n; i++) c += fabs(util_get(a0, util_idx(i, j, lda), dbl));
        if (c > anorm) anorm = c;
    }
    for (int c = 0; c < nrhs; c++) {
        double rn = 0, xn = 0;
        for (int i = 0; i < n; i++) {
            double s = -util_get(b0, util_idx(i, c, ldb), dbl);
            for (int l = 0; l < n; l++)
                s += util_get(a0, trans ? util_idx(l, i, lda) : util_idx(i, l, lda), dbl) *
                     util_get(x, util_idx(l, c, ldb), dbl);
            rn += fabs(s);
            xn += fabs(util_get(x, util_idx(i, c, ldb), dbl));
        }
        double r = (anorm == 0 || xn == 0) ? (rn == 0 ? 0 : INFINITY)
                                           : rn / (anorm * xn * n * util_eps(dbl));
        if (!(r <= worst)) worst = r;
    }
    return worst;
}

/* ---- the batch ------------------------------------------------------------------------ */

enum { K_N, K_LDA, K_OFFSET_A, K_ABOVE_N, K_OVERLAP_A, K_OFFSET_P, K_OVERLAP_P, K_NRHS, K_LDB,
       K_OFFSET_B, K_ABOVE_NRHS, K_OVERLAP_B, K_M, K_ABOVE_M, KINDS };
static const int kind_code[KINDS] = {
    BCHOL_INFO_BAD_N,       BCHOL_INFO_BAD_LDA,        BCHOL_INFO_BAD_OFFSET,
    BCHOL_INFO_ABOVE_MAX_N, BCHOL_INFO_OVERLAP,        BCHOL_INFO_BAD_OFFSET_P,
    BCHOL_INFO_OVERLAP_P,   BCHOL_INFO_BAD_NRHS,       BCHOL_INFO_BAD_LDB,
    BCHOL_INFO_BAD_OFFSET_B, BCHOL_INFO_ABOVE_MAX_NRHS, BCHOL_INFO_OVERLAP_B,
    BCHOL_INFO_BAD_M,       BCHOL_INFO_ABOVE_MAX_M};
static const int nrhs_cycle[] = {1, 3, 16, 0, 2, 5};

static cl_mem upload(bchol_context *ctx, size_t bytes, const void *host)
{
    cl_int err;
    cl_mem m = clCreateBuffer(bchol_context_cl_context(ctx),
                              CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
                              bytes ? bytes : 1, (void *)host, &err);
    if (!m) {
        fprintf(stderr, "FAILED: clCreateBuffer: %d\n", err);
        exit(1);
    }
    return m;
}

static void check(int ok, const char *fmt, long long b, double v)
{
    if (ok) return;
    if (failures < 30) {
        printf("FAILED: matrix %lld: ", b);
        printf(fmt, v);
        printf("\n");
    }
    failures++;
}

static int run_case(const options *o)
{
    const int dbl = o->precision == 'd', ex = !strcmp(o->form, "ex");
    const int host = !strcmp(o->form, "host");
    const int factor = strcmp(o->routine, "getrs") != 0, solve = strcmp(o->routine, "getrf") != 0;
    const int trans = o->trans == 'T';
    const size_t es = dbl ? 8 : 4;
    const long long batch = o->batch, nb = batch > 0 ? batch : 1;
    int *n = malloc(nb * sizeof *n), *k = malloc(nb * sizeof *k), *lda = malloc(nb * sizeof *lda);
    int *m = malloc(nb * sizeof *m);
    int *ldb = malloc(nb * sizeof *ldb), *info = malloc(nb * sizeof *info);
    int *codes = malloc(nb * sizeof *codes), *planted = malloc(nb * sizeof *planted);
    int64_t *oa = malloc(nb * sizeof *oa), *op = malloc(nb * sizeof *op), *ob = malloc(nb * sizeof *ob);
    util_rng rng;
    util_rng_seed(&rng, o->seed);
    size_t ta = (size_t)o->gap, tp = (size_t)o->gap, tb = (size_t)o->gap;
    for (long long b = 0; b < batch; b++) {
        n[b] = b == 2 ? o->nmax : b % 7 == 0 ? 0 : b % 7 == 1 ? 1
                                 : (int)(util_rng_next(&rng) % (uint64_t)(o->nmax + 1));
        k[b] = nrhs_cycle[b % 6];
        /* rows: n (square), or another draw on n's side of it (tall: m >= n, wide: m <= n;
         * mixed: square, tall, wide in turn); some rectangular matrices have m = 0 */
        const int shape = !strcmp(o->shape, "tall")   ? 1
                          : !strcmp(o->shape, "wide")  ? 2
                          : !strcmp(o->shape, "mixed") ? (int)(b % 3)
                                                       : 0;
        const int other = (int)(util_rng_next(&rng) % (uint64_t)(o->nmax + 1));
        m[b] = shape == 1 ? (other > n[b] ? other : n[b])
               : shape == 2 ? (other < n[b] ? other : n[b])
                            : n[b];
        if (shape && b % 11 == 5) m[b] = 0, n[b] = n[b] > 0 ? n[b] : 1;
        if (o->bad && (b % 7 == 2 || b % 7 == 3 || b == 1023 || b == 1024 || b == 2047 ||
                       b == 2048)) { /* room for the planted entries */
            if (n[b] < 2) n[b] = 2;
            if (m[b] < 2) m[b] = 2;
            if (k[b] < 1) k[b] = 1;
        }
        lda[b] = (m[b] > 1 ? m[b] : 1) + o->lda_pad + (int)(b & 1);
        ldb[b] = (n[b] > 1 ? n[b] : 1) + o->ldb_pad + (int)(b & 1);
        oa[b] = (int64_t)ta;
        op[b] = (int64_t)tp;
        ob[b] = (int64_t)tb;
        ta += (size_t)lda[b] * n[b] + o->gap;
        tp += (size_t)(m[b] < n[b] ? m[b] : n[b]) + o->gap;
        tb += (size_t)ldb[b] * k[b] + o->gap;
        planted[b] = 0;
    }
    int max_m = 0, max_n = 0, max_nrhs = 0;
    for (long long b = 0; b < batch; b++) {
        if (m[b] > max_m) max_m = m[b];
        if (n[b] > max_n) max_n = n[b];
        if (k[b] > max_nrhs) max_nrhs = k[b];
    }
    /* matrices and right-hand sides, poisoned gaps */
    void *a0 = malloc(ta * es), *a = malloc(ta * es), *bm0 = malloc(tb * es), *bm = malloc(tb * es);
    int *p0 = malloc(tp * sizeof *p0), *p = malloc(tp * sizeof *p);
    util_poison(a0, dbl, ta);
    util_poison(bm0, dbl, tb);
    for (size_t i = 0; i < tp; i++) p0[i] = POISON_INT - (int)(i % 1000);
    for (long long b = 0; b < batch; b++) {
        util_fill_uniform((char *)a0 + oa[b] * es, dbl, m[b], n[b], lda[b], &rng);
        util_fill_uniform((char *)bm0 + ob[b] * es, dbl, n[b], k[b], ldb[b], &rng);
        /* two zero columns: info is the first zero pivot, which a later panel must keep */
        if (o->singular && b % 5 == 4 && n[b] >= 2)
            for (int i = 0; i < m[b]; i++) {
                util_set(a0, (size_t)oa[b] + util_idx(i, (int)(b % n[b]), lda[b]), dbl, 0);
                util_set(a0, (size_t)oa[b] + util_idx(i, n[b] - 1, lda[b]), dbl, 0);
            }
    }
    /* the references: LAPACKE's factors and pivots of every matrix as laid out */
    void *af = malloc(ta * es);
    int *pf = malloc(tp * sizeof *pf), *ref_info = calloc(nb, sizeof *ref_info);
    memcpy(af, a0, ta * es);
    memcpy(pf, p0, tp * sizeof *pf);
    for (long long b = 0; b < batch; b++)
        if (m[b] > 0 && n[b] > 0)
            ref_info[b] = ref_getrf((char *)af + oa[b] * es, dbl, m[b], n[b], lda[b], pf + op[b]);

    /* the bad entries, planted after the references (their matrices are not touched) */
    if (o->bad) {
        /* getrf: the matrix and pivot kinds, then m's; getrs, gesv: every kind but m's */
        for (int slot = 0; slot < K_M; slot++) {
            const int kind = solve ? slot : slot < K_NRHS ? slot : slot < K_NRHS + 2 ? slot + K_M - K_NRHS : KINDS;
            if (kind == KINDS) break;
            if (!ex && (kind == K_ABOVE_N || kind == K_ABOVE_NRHS || kind == K_ABOVE_M)) continue;
            const long long b = 7 * slot + 3;
            switch (kind) {
            case K_N: n[b] = -1; break;
            case K_M: m[b] = -1; break;
            case K_ABOVE_M: m[b] = max_m + 1, lda[b] = max_m + 1; break;
            case K_LDA: lda[b] = m[b] - 1; break;
            case K_OFFSET_A: oa[b] = host ? -3 : (int64_t)ta - 1; break;
            case K_ABOVE_N: n[b] = max_n + 1, lda[b] = solve ? max_n + 1 : lda[b]; break;
            case K_OVERLAP_A: oa[b] = oa[b - 1] + 1; break;
            case K_OFFSET_P: op[b] = -1; break;
            case K_OVERLAP_P: op[b] = op[b - 1]; break;
            case K_NRHS: k[b] = -2; break;
            case K_LDB: ldb[b] = n[b] - 1; break;
            case K_OFFSET_B: ob[b] = host ? -3 : (int64_t)tb - 1; break;
            case K_ABOVE_NRHS: k[b] = max_nrhs + 1; break;
            case K_OVERLAP_B: ob[b] = ob[b - 1]; break;
            }
            planted[b] = kind_code[kind];
            if (kind == K_OVERLAP_A || kind == K_OVERLAP_P || kind == K_OVERLAP_B)
                planted[b - 1] = kind_code[kind];
        }
    }
    /* overlaps across the check kernels' blocks of 1024 matrices (the carries) */
    if (o->bad && batch > 1030) {
        op[1024] = op[1023] + 1;
        planted[1023] = planted[1024] = BCHOL_INFO_OVERLAP_P;
    }
    if (o->bad && batch > 2060) {
        oa[2048] = oa[2047];
        planted[2047] = planted[2048] = BCHOL_INFO_OVERLAP;
    }
    if (solve) memcpy(m, n, (size_t)nb * sizeof *m); /* square: the rows are n */
    model_codes(batch, m, n, lda, oa, ta, ex ? max_m : INT_MAX, ex ? max_n : INT_MAX, op, tp, solve,
                k, ldb, ob, tb, ex ? max_nrhs : INT_MAX, codes);
    for (long long b = 0; b < batch; b++)
        if (planted[b] && codes[b] != planted[b]) {
            printf("FAILED: test setup: matrix %lld planted %d, model %d\n", b, planted[b], codes[b]);
            return 1;
        }

    /* the run */
    bchol_context *ctx;
    if (bchol_context_create(NULL, &ctx)) {
        fprintf(stderr, "FAILED: no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    memcpy(a, factor ? a0 : af, ta * es);
    memcpy(p, factor ? p0 : pf, tp * sizeof *p);
    memcpy(bm, bm0, tb * es);
    const void *a_in = factor ? a0 : af;
    const int *p_in = factor ? p0 : pf;
    for (long long b = 0; b < batch; b++) info[b] = 12345;
    cl_mem dn = upload(ctx, nb * sizeof(int), n), dk = upload(ctx, nb * sizeof(int), k);
    cl_mem dm = upload(ctx, nb * sizeof(int), m);
    cl_mem dlda = upload(ctx, nb * sizeof(int), lda), dldb = upload(ctx, nb * sizeof(int), ldb);
    cl_mem doa = upload(ctx, nb * 8, oa), dop = upload(ctx, nb * 8, op), dob = upload(ctx, nb * 8, ob);
    cl_mem dA = upload(ctx, ta * es, a), dP = upload(ctx, tp * sizeof(int), p);
    cl_mem dB = upload(ctx, tb * es, bm), dI = upload(ctx, nb * sizeof(int), info);
    cl_event ev = NULL;
    bchol_status st;
    const bchol_lu_params lp = {o->lx, o->tbc, o->nb, o->fused_max};
    const bchol_solve_params sp = {o->variant, o->nt, o->rpt, 0};
    const bchol_lu_params *lpp = o->lx || o->tbc || o->nb || o->fused_max ? &lp : NULL;
    const bchol_solve_params *spp = o->nt || o->rpt || o->variant ? &sp : NULL;
    if (host) {
        /* the host forms: the arrays as they are, synchronous */
        st = !strcmp(o->routine, "getrf")
                 ? (dbl ? bchol_dgetrf_vbatched_host(ctx, m, n, lda, oa, a, op, p, batch, info)
                        : bchol_sgetrf_vbatched_host(ctx, m, n, lda, oa, a, op, p, batch, info))
                 : (dbl ? bchol_dgesv_vbatched_host(ctx, n, k, lda, ldb, oa, a, op, p, ob, bm,
                                                    batch, info)
                        : bchol_sgesv_vbatched_host(ctx, n, k, lda, ldb, oa, a, op, p, ob, bm,
                                                    batch, info));
    } else if (!strcmp(o->routine, "getrf"))
        st = ex ? (dbl ? bchol_dgetrf_vbatched_ex : bchol_sgetrf_vbatched_ex)(
                      ctx, lpp, max_m, max_n, dm, dn, dlda, doa, dA, dop, dP, batch, dI, &ev)
                : (dbl ? bchol_dgetrf_vbatched : bchol_sgetrf_vbatched)(ctx, dm, dn, dlda, doa, dA,
                                                                       dop, dP, batch, dI, &ev);
    else if (!strcmp(o->routine, "getrs"))
        st = ex ? (dbl ? bchol_dgetrs_vbatched_ex : bchol_sgetrs_vbatched_ex)(
                      ctx, spp, o->trans, max_n, max_nrhs, dn, dk, dlda, dldb, doa, dA, dop, dP,
                      dob, dB, batch, dI, &ev)
                : (dbl ? bchol_dgetrs_vbatched : bchol_sgetrs_vbatched)(
                      ctx, o->trans, dn, dk, dlda, dldb, doa, dA, dop, dP, dob, dB, batch, dI, &ev);
    else
        st = ex ? (dbl ? bchol_dgesv_vbatched_ex : bchol_sgesv_vbatched_ex)(
                      ctx, spp, max_n, max_nrhs, dn, dk, dlda, dldb, doa, dA, dop, dP, dob, dB,
                      batch, dI, &ev)
                : (dbl ? bchol_dgesv_vbatched : bchol_sgesv_vbatched)(
                      ctx, dn, dk, dlda, dldb, doa, dA, dop, dP, dob, dB, batch, dI, &ev);
    if (st) {
        printf("FAILED: %s returned %s: %s\n", o->routine, bchol_status_string(st),
               bchol_last_error(ctx));
        return 1;
    }
    if (batch > 0 && !ev && !host) {
        printf("FAILED: no event came back\n");
        return 1;
    }
    if (ev) clWaitForEvents(1, &ev), clReleaseEvent(ev);
    cl_command_queue q = bchol_context_queue(ctx);
    if (!host) {
        clEnqueueReadBuffer(q, dA, CL_TRUE, 0, ta * es, a, 0, NULL, NULL);
        clEnqueueReadBuffer(q, dP, CL_TRUE, 0, tp * sizeof(int), p, 0, NULL, NULL);
        clEnqueueReadBuffer(q, dB, CL_TRUE, 0, tb * es, bm, 0, NULL, NULL);
        clEnqueueReadBuffer(q, dI, CL_TRUE, 0, nb * sizeof(int), info, 0, NULL, NULL);
    }

    /* what may change: owned elements (A and pivots of factored matrices, blocks of solved) */
    char *own_a = calloc(ta + 1, 1), *own_p = calloc(tp + 1, 1), *own_b = calloc(tb + 1, 1);
    double worst_lu = 0, worst_x = 0;
    int factored = 0, solved = 0, rejected = 0;
    for (long long b = 0; b < batch; b++) {
        const int want = codes[b] ? codes[b] : (factor && n[b] > 0 && m[b] > 0) ? ref_info[b] : 0;
        if (info[b] != want) {
            check(0, "info %g", b, info[b]);
            printf("    wanted %d (m %d, n %d, lda %d, nrhs %d)\n", want, m[b], n[b], lda[b], k[b]);
            continue;
        }
        if (codes[b]) {
            rejected++;
            continue;
        }
        if (n[b] == 0 || m[b] == 0) continue;
        if (factor) {
            factored++;
            for (int j = 0; j < n[b]; j++)
                for (int i = 0; i < m[b]; i++) own_a[oa[b] + util_idx(i, j, lda[b])] = 1;
            for (int i = 0; i < (m[b] < n[b] ? m[b] : n[b]); i++) {
                own_p[op[b] + i] = 1;
                check(p[op[b] + i] == pf[op[b] + i], "pivot differs from LAPACKE's at %g", b, i);
            }
            const double r = lu_residual((char *)a0 + oa[b] * es, (char *)a + oa[b] * es, dbl,
                                         m[b], n[b], lda[b], p + op[b]);
            check(r <= THRESHOLD, "LU ratio %g", b, r);
            if (r > worst_lu || r != r) worst_lu = r;
        }
        if (solve && k[b] > 0 && info[b] == 0) {
            solved++;
            for (int j = 0; j < k[b]; j++)
                for (int i = 0; i < n[b]; i++) own_b[ob[b] + util_idx(i, j, ldb[b])] = 1;
            const double r = solve_residual((char *)a0 + oa[b] * es, lda[b], (char *)bm + ob[b] * es,
                                            (char *)bm0 + ob[b] * es, ldb[b], dbl,
                                            factor ? 0 : trans, n[b], k[b]);
            check(r <= THRESHOLD, "solve ratio %g", b, r);
            if (r > worst_x || r != r) worst_x = r;
        }
    }
    long long moved = 0;
    for (size_t i = 0; i < ta; i++)
        if (!own_a[i] && memcmp((char *)a + i * es, (const char *)a_in + i * es, es)) moved++;
    for (size_t i = 0; i < tp; i++)
        if (!own_p[i] && p[i] != p_in[i]) moved++;
    for (size_t i = 0; i < tb; i++)
        if (!own_b[i] && memcmp((char *)bm + i * es, (char *)bm0 + i * es, es)) moved++;
    if (moved) {
        printf("FAILED: %lld elements outside what the routine may write changed\n", moved);
        failures++;
    }
    printf("%s %c %s %s nmax %d batch %lld: %d factored, %d solved, %d rejected; worst LU ratio "
           "%.3g, solve ratio %.3g: %s\n",
           o->routine, o->precision, o->form, o->shape, o->nmax, batch, factored, solved, rejected, worst_lu,
           worst_x, failures ? "FAILED" : "ok");
    cl_mem all[] = {dm, dn, dk, dlda, dldb, doa, dop, dob, dA, dP, dB, dI};
    for (int i = 0; i < 12; i++) clReleaseMemObject(all[i]);
    bchol_context_destroy(ctx);
    return failures ? 1 : 0;
}

/* ---- argument checks ------------------------------------------------------------------- */

static void expect(const char *what, bchol_status got, bchol_status want, const char *needle)
{
    const char *msg = bchol_last_error(NULL);
    const int ok = got == want && (!needle || strstr(msg, needle));
    printf("%-46s %-34s %s\n", what, bchol_status_string(got), ok ? "ok" : "FAILED");
    if (!ok) {
        printf("    wanted %d (%s), got %d; message: %s\n", want, bchol_status_string(want), got,
               msg);
        failures++;
    }
}

static int run_args(void)
{
    bchol_context *c;
    if (bchol_context_create(NULL, &c)) {
        fprintf(stderr, "FAILED: no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    const int nn[2] = {3, 2}, kk[2] = {1, 2}, ld[2] = {3, 2};
    const int64_t off[2] = {0, 9}, poff[2] = {0, 3};
    cl_mem n = upload(c, sizeof nn, nn), k = upload(c, sizeof kk, kk);
    cl_mem lda = upload(c, sizeof ld, ld), ldb = upload(c, sizeof ld, ld);
    cl_mem oa = upload(c, sizeof off, off), ob = upload(c, sizeof off, off);
    cl_mem opv = upload(c, sizeof poff, poff), P = upload(c, 8 * sizeof(int), NULL);
    cl_mem A = upload(c, 64 * sizeof(double), NULL), B = upload(c, 64 * sizeof(double), NULL);
    cl_mem info = upload(c, 2 * sizeof(int), NULL), small = upload(c, 4, NULL);
    cl_event ev = NULL;
    const bchol_lu_params big_lx = {65, 0, 0, 0}, big_tbc = {0, 65, 0, 0};
    const bchol_lu_params big_nb = {0, 0, 65, 0}, bad_split = {0, 0, 0, -2};
    const bchol_solve_params bad_nt = {BCHOL_SOLVE_AUTO, 33, 0, 0};
    /* a value that names no solve variant */
    const bchol_solve_params no_variant = {(bchol_solve_variant)7, 0, 0, 0};

    /* getrf_vbatched(ctx 1, m 2, n 3, lda 4, offsets_a 5, A 6, offsets_p 7, ipiv 8, batch 9,
     * info 10); square here: m is n */
    cl_mem m = n;
    expect("getrf: ctx NULL", bchol_dgetrf_vbatched(NULL, m, n, lda, oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_CONTEXT, "argument 1");
    expect("getrf: m NULL", bchol_dgetrf_vbatched(c, NULL, n, lda, oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_M_ARRAY, "argument 2 (m)");
    expect("getrf: m too small", bchol_sgetrf_vbatched(c, small, n, lda, oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_M_ARRAY, "argument 2 (m)");
    expect("getrf: n NULL", bchol_dgetrf_vbatched(c, m, NULL, lda, oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_N_ARRAY, "argument 3 (n)");
    expect("getrf: lda too small", bchol_dgetrf_vbatched(c, m, n, small, oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_LDA_ARRAY, "argument 4 (lda)");
    expect("getrf: offsets_a NULL",
           bchol_dgetrf_vbatched(c, m, n, lda, NULL, A, opv, P, 2, info, &ev), BCHOL_ERR_OFFSETS_A,
           "argument 5 (offsets_a)");
    expect("getrf: A NULL", bchol_dgetrf_vbatched(c, m, n, lda, oa, NULL, opv, P, 2, info, &ev),
           BCHOL_ERR_A, "argument 6 (A)");
    expect("getrf: offsets_p too small",
           bchol_dgetrf_vbatched(c, m, n, lda, oa, A, small, P, 2, info, &ev), BCHOL_ERR_OFFSETS_P,
           "argument 7 (offsets_p)");
    expect("getrf: ipiv NULL", bchol_dgetrf_vbatched(c, m, n, lda, oa, A, opv, NULL, 2, info, &ev),
           BCHOL_ERR_IPIV, "argument 8 (ipiv)");
    expect("getrf: batch < 0", bchol_dgetrf_vbatched(c, m, n, lda, oa, A, opv, P, -1, info, &ev),
           BCHOL_ERR_BATCH, "argument 9 (batch = -1)");
    expect("getrf: info too small",
           bchol_dgetrf_vbatched(c, m, n, lda, oa, A, opv, P, 2, small, &ev), BCHOL_ERR_INFO_SIZE,
           "argument 10 (info)");
    expect("getrf: ipiv is A", bchol_dgetrf_vbatched(c, m, n, lda, oa, A, opv, A, 2, info, &ev),
           BCHOL_ERR_IPIV, "argument 8 (ipiv)");
    /* _ex: params 2, max_m 3, max_n 4, m 5, n 6, lda 7, offsets_a 8, A 9, offsets_p 10,
     * ipiv 11, batch 12, info 13 */
    expect("getrf_ex: params->lx", bchol_dgetrf_vbatched_ex(c, &big_lx, 3, 3, m, n, lda, oa, A,
                                                            opv, P, 2, info, &ev),
           BCHOL_ERR_ARGUMENT, "argument 2 (params->lx = 65)");
    expect("getrf_ex: params->tbc", bchol_sgetrf_vbatched_ex(c, &big_tbc, 3, 3, m, n, lda, oa, A,
                                                             opv, P, 2, info, &ev),
           BCHOL_ERR_ARGUMENT, "argument 2 (params->tbc = 65)");
    expect("getrf_ex: params->nb", bchol_sgetrf_vbatched_ex(c, &big_nb, 3, 3, m, n, lda, oa, A,
                                                            opv, P, 2, info, &ev),
           BCHOL_ERR_ARGUMENT, "argument 2 (params->nb = 65)");
    expect("getrf_ex: params->fused_max", bchol_dgetrf_vbatched_ex(c, &bad_split, 3, 3, m, n, lda,
                                                                   oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_ARGUMENT, "argument 2 (params->fused_max = -2)");
    expect("getrf_ex: max_m < 0",
           bchol_dgetrf_vbatched_ex(c, NULL, -1, 3, m, n, lda, oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_MAX_N, "argument 3 (max_m = -1)");
    expect("getrf_ex: max_n < 0",
           bchol_dgetrf_vbatched_ex(c, NULL, 3, -1, m, n, lda, oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_MAX_N, "argument 4 (max_n = -1)");
    expect("getrf_ex: m NULL",
           bchol_dgetrf_vbatched_ex(c, NULL, 3, 3, NULL, n, lda, oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_M_ARRAY, "argument 5 (m)");
    expect("getrf_ex: n NULL",
           bchol_dgetrf_vbatched_ex(c, NULL, 3, 3, m, NULL, lda, oa, A, opv, P, 2, info, &ev),
           BCHOL_ERR_N_ARRAY, "argument 6 (n)");
    expect("getrf_ex: ipiv NULL",
           bchol_dgetrf_vbatched_ex(c, NULL, 3, 3, m, n, lda, oa, A, opv, NULL, 2, info, &ev),
           BCHOL_ERR_IPIV, "argument 11 (ipiv)");
    expect("getrf_ex: batch < 0",
           bchol_dgetrf_vbatched_ex(c, NULL, 3, 3, m, n, lda, oa, A, opv, P, -2, info, &ev),
           BCHOL_ERR_BATCH, "argument 12 (batch = -2)");
    expect("getrf_ex: info NULL",
           bchol_sgetrf_vbatched_ex(c, NULL, 3, 3, m, n, lda, oa, A, opv, P, 2, NULL, &ev),
           BCHOL_ERR_INFO, "argument 13 (info)");
    {
        /* far beyond the fused kernel: accepted (the blocked path), the loose bound cut to
         * what A holds */
        cl_mem bigA = upload(c, (size_t)600 * 600 * sizeof(double), NULL);
        expect("getrf_ex: max_n beyond the fused kernel",
               bchol_dgetrf_vbatched_ex(c, NULL, 600, 600, m, n, lda, oa, bigA, opv, P, 2, info,
                                        NULL),
               BCHOL_SUCCESS, NULL);
        expect("gesv_ex: max_n beyond the fused kernel",
               bchol_dgesv_vbatched_ex(c, NULL, 600, 2, n, k, lda, ldb, oa, bigA, opv, P, ob, B,
                                       2, info, NULL),
               BCHOL_SUCCESS, NULL);
        clFinish(bchol_context_queue(c));
        clReleaseMemObject(bigA);
    }

    {
        /* a malformed BCHOL_GETRF is an error of the routines that factor, as for the
         * fixed-size ones, before anything is enqueued (A keeps its marks); the solve alone
         * does not read it */
        setenv("BCHOL_GETRF", "workitem,bogus", 1);
        const double mark[64] = {[0] = 7.0, [9] = -3.0};
        cl_mem Am = upload(c, sizeof mark, mark);
        expect("getrf: BCHOL_GETRF malformed",
               bchol_dgetrf_vbatched(c, m, n, lda, oa, Am, opv, P, 2, info, NULL),
               BCHOL_ERR_ARGUMENT, "BCHOL_GETRF = \"workitem,bogus\"");
        expect("gesv: BCHOL_GETRF malformed",
               bchol_dgesv_vbatched(c, n, k, lda, ldb, oa, Am, opv, P, ob, B, 2, info, NULL),
               BCHOL_ERR_ARGUMENT, "BCHOL_GETRF");
        expect("getrs: BCHOL_GETRF not read",
               bchol_dgetrs_vbatched(c, 'N', n, k, lda, ldb, oa, Am, opv, P, ob, B, 2, info, NULL),
               BCHOL_SUCCESS, NULL);
        double back[64];
        clEnqueueReadBuffer(bchol_context_queue(c), Am, CL_TRUE, 0, sizeof back, back, 0, NULL,
                            NULL);
        expect("getrf/gesv: A untouched", memcmp(back, mark, sizeof mark) ? BCHOL_ERR_ARGUMENT
                                                                           : BCHOL_SUCCESS,
               BCHOL_SUCCESS, NULL);
        unsetenv("BCHOL_GETRF");
        clReleaseMemObject(Am);
    }

    /* getrs_vbatched(ctx 1, trans 2, n 3, nrhs 4, lda 5, ldb 6, offsets_a 7, A 8, offsets_p 9,
     * ipiv 10, offsets_b 11, B 12, batch 13, info 14) */
    expect("getrs: trans", bchol_dgetrs_vbatched(c, 'C', n, k, lda, ldb, oa, A, opv, P, ob, B, 2,
                                                 info, &ev),
           BCHOL_ERR_TRANS, "argument 2 (trans = 'C')");
    expect("getrs: nrhs NULL", bchol_dgetrs_vbatched(c, 'N', n, NULL, lda, ldb, oa, A, opv, P, ob,
                                                     B, 2, info, &ev),
           BCHOL_ERR_NRHS_ARRAY, "argument 4 (nrhs)");
    expect("getrs: ldb too small", bchol_dgetrs_vbatched(c, 'N', n, k, lda, small, oa, A, opv, P,
                                                         ob, B, 2, info, &ev),
           BCHOL_ERR_LDB_ARRAY, "argument 6 (ldb)");
    expect("getrs: offsets_p NULL", bchol_sgetrs_vbatched(c, 'T', n, k, lda, ldb, oa, A, NULL, P,
                                                          ob, B, 2, info, &ev),
           BCHOL_ERR_OFFSETS_P, "argument 9 (offsets_p)");
    expect("getrs: ipiv NULL", bchol_dgetrs_vbatched(c, 'N', n, k, lda, ldb, oa, A, opv, NULL, ob,
                                                     B, 2, info, &ev),
           BCHOL_ERR_IPIV, "argument 10 (ipiv)");
    expect("getrs: offsets_b NULL", bchol_dgetrs_vbatched(c, 'N', n, k, lda, ldb, oa, A, opv, P,
                                                          NULL, B, 2, info, &ev),
           BCHOL_ERR_OFFSETS_B, "argument 11 (offsets_b)");
    expect("getrs: B NULL", bchol_dgetrs_vbatched(c, 'N', n, k, lda, ldb, oa, A, opv, P, ob, NULL,
                                                  2, info, &ev),
           BCHOL_ERR_B, "argument 12 (B)");
    expect("getrs: B is A", bchol_dgetrs_vbatched(c, 'N', n, k, lda, ldb, oa, A, opv, P, ob, A, 2,
                                                  info, &ev),
           BCHOL_ERR_B, "argument 12 (B)");
    expect("getrs: batch < 0", bchol_dgetrs_vbatched(c, 'N', n, k, lda, ldb, oa, A, opv, P, ob, B,
                                                     -4, info, &ev),
           BCHOL_ERR_BATCH, "argument 13 (batch = -4)");
    expect("getrs: info NULL", bchol_dgetrs_vbatched(c, 'N', n, k, lda, ldb, oa, A, opv, P, ob, B,
                                                     2, NULL, &ev),
           BCHOL_ERR_INFO, "argument 14 (info)");
    /* _ex: params 2, trans 3, max_n 4, max_nrhs 5, n 6 .. info 17 */
    expect("getrs_ex: params->nt", bchol_dgetrs_vbatched_ex(c, &bad_nt, 'N', 3, 2, n, k, lda, ldb,
                                                            oa, A, opv, P, ob, B, 2, info, &ev),
           BCHOL_ERR_ARGUMENT, "argument 2 (params->nt = 33)");
    expect("getrs_ex: params->variant", bchol_dgetrs_vbatched_ex(c, &no_variant, 'N', 3, 2, n, k, lda, ldb,
                                                                 oa, A, opv, P, ob, B, 2, info, &ev),
           BCHOL_ERR_ARGUMENT, "is not a solve variant");
    expect("getrs_ex: trans", bchol_dgetrs_vbatched_ex(c, NULL, 'x', 3, 2, n, k, lda, ldb, oa, A,
                                                       opv, P, ob, B, 2, info, &ev),
           BCHOL_ERR_TRANS, "argument 3 (trans = 'x')");
    expect("getrs_ex: max_n < 0", bchol_dgetrs_vbatched_ex(c, NULL, 'N', -1, 2, n, k, lda, ldb, oa,
                                                           A, opv, P, ob, B, 2, info, &ev),
           BCHOL_ERR_MAX_N, "argument 4 (max_n = -1)");
    expect("getrs_ex: max_nrhs < 0", bchol_dgetrs_vbatched_ex(c, NULL, 'N', 3, -2, n, k, lda, ldb,
                                                              oa, A, opv, P, ob, B, 2, info, &ev),
           BCHOL_ERR_NRHS, "argument 5 (max_nrhs = -2)");
    expect("getrs_ex: n NULL", bchol_dgetrs_vbatched_ex(c, NULL, 'N', 3, 2, NULL, k, lda, ldb, oa,
                                                        A, opv, P, ob, B, 2, info, &ev),
           BCHOL_ERR_N_ARRAY, "argument 6 (n)");
    expect("getrs_ex: ipiv NULL", bchol_dgetrs_vbatched_ex(c, NULL, 'N', 3, 2, n, k, lda, ldb, oa,
                                                           A, opv, NULL, ob, B, 2, info, &ev),
           BCHOL_ERR_IPIV, "argument 13 (ipiv)");
    expect("getrs_ex: info small", bchol_sgetrs_vbatched_ex(c, NULL, 'N', 3, 2, n, k, lda, ldb, oa,
                                                            A, opv, P, ob, B, 2, small, &ev),
           BCHOL_ERR_INFO_SIZE, "argument 17 (info)");

    /* gesv_vbatched(ctx 1, n 2, nrhs 3, lda 4, ldb 5, offsets_a 6, A 7, offsets_p 8, ipiv 9,
     * offsets_b 10, B 11, batch 12, info 13); _ex: params 2, max_n 3, max_nrhs 4, n 5 .. */
    expect("gesv: n NULL", bchol_dgesv_vbatched(c, NULL, k, lda, ldb, oa, A, opv, P, ob, B, 2,
                                                info, &ev),
           BCHOL_ERR_N_ARRAY, "argument 2 (n)");
    expect("gesv: offsets_p NULL", bchol_dgesv_vbatched(c, n, k, lda, ldb, oa, A, NULL, P, ob, B, 2,
                                                        info, &ev),
           BCHOL_ERR_OFFSETS_P, "argument 8 (offsets_p)");
    expect("gesv: ipiv is B", bchol_dgesv_vbatched(c, n, k, lda, ldb, oa, A, opv, B, ob, B, 2, info,
                                                   &ev),
           BCHOL_ERR_B, "argument 11 (B)");
    expect("gesv: info NULL", bchol_sgesv_vbatched(c, n, k, lda, ldb, oa, A, opv, P, ob, B, 2, NULL,
                                                   &ev),
           BCHOL_ERR_INFO, "argument 13 (info)");
    expect("gesv_ex: max_n < 0", bchol_dgesv_vbatched_ex(c, NULL, -3, 2, n, k, lda, ldb, oa, A, opv,
                                                         P, ob, B, 2, info, &ev),
           BCHOL_ERR_MAX_N, "argument 3 (max_n = -3)");
    expect("gesv_ex: max_nrhs < 0", bchol_dgesv_vbatched_ex(c, NULL, 3, -1, n, k, lda, ldb, oa, A,
                                                            opv, P, ob, B, 2, info, &ev),
           BCHOL_ERR_NRHS, "argument 4 (max_nrhs = -1)");
    expect("gesv_ex: offsets_b NULL", bchol_dgesv_vbatched_ex(c, NULL, 3, 2, n, k, lda, ldb, oa, A,
                                                              opv, P, NULL, B, 2, info, &ev),
           BCHOL_ERR_OFFSETS_B, "argument 13 (offsets_b)");
    expect("gesv_ex: batch < 0", bchol_dgesv_vbatched_ex(c, NULL, 3, 2, n, k, lda, ldb, oa, A, opv,
                                                         P, ob, B, -1, info, &ev),
           BCHOL_ERR_BATCH, "argument 15 (batch = -1)");
    {
        double ha[16] = {0}, hb[16] = {0};
        int hp[8] = {0}, hi[2];
        /* getrf_host(ctx 1, m 2, n 3, lda 4, offsets_a 5, A 6, offsets_p 7, ipiv 8, batch 9,
         * info 10) */
        expect("getrf_host: m NULL",
               bchol_dgetrf_vbatched_host(c, NULL, nn, ld, off, ha, poff, hp, 2, hi),
               BCHOL_ERR_M_ARRAY, "argument 2 (m)");
        expect("getrf_host: n NULL",
               bchol_dgetrf_vbatched_host(c, nn, NULL, ld, off, ha, poff, hp, 2, hi),
               BCHOL_ERR_N_ARRAY, "argument 3 (n)");
        expect("getrf_host: lda NULL",
               bchol_sgetrf_vbatched_host(c, nn, nn, NULL, off, NULL, poff, hp, 2, hi),
               BCHOL_ERR_LDA_ARRAY, "argument 4 (lda)");
        expect("getrf_host: offsets_a NULL",
               bchol_dgetrf_vbatched_host(c, nn, nn, ld, NULL, ha, poff, hp, 2, hi),
               BCHOL_ERR_OFFSETS_A, "argument 5 (offsets_a)");
        expect("getrf_host: A NULL",
               bchol_dgetrf_vbatched_host(c, nn, nn, ld, off, NULL, poff, hp, 2, hi), BCHOL_ERR_A,
               "argument 6 (A)");
        expect("getrf_host: offsets_p NULL",
               bchol_dgetrf_vbatched_host(c, nn, nn, ld, off, ha, NULL, hp, 2, hi),
               BCHOL_ERR_OFFSETS_P, "argument 7 (offsets_p)");
        expect("getrf_host: ipiv NULL",
               bchol_dgetrf_vbatched_host(c, nn, nn, ld, off, ha, poff, NULL, 2, hi),
               BCHOL_ERR_IPIV, "argument 8 (ipiv)");
        expect("getrf_host: batch < 0",
               bchol_dgetrf_vbatched_host(c, nn, nn, ld, off, ha, poff, hp, -1, hi),
               BCHOL_ERR_BATCH, "argument 9 (batch = -1)");
        expect("getrf_host: info NULL",
               bchol_dgetrf_vbatched_host(c, nn, nn, ld, off, ha, poff, hp, 2, NULL),
               BCHOL_ERR_INFO, "argument 10 (info)");
        expect("gesv_host: n NULL",
               bchol_dgesv_vbatched_host(c, NULL, kk, ld, ld, off, ha, poff, hp, off, hb, 2, hi),
               BCHOL_ERR_N_ARRAY, "argument 2 (n)");
        expect("gesv_host: A NULL",
               bchol_dgesv_vbatched_host(c, nn, kk, ld, ld, off, NULL, poff, hp, off, hb, 2, hi),
               BCHOL_ERR_A, "argument 7 (A)");
        expect("gesv_host: nrhs NULL",
               bchol_dgesv_vbatched_host(c, nn, NULL, ld, ld, off, ha, poff, hp, off, hb, 2, hi),
               BCHOL_ERR_NRHS_ARRAY, "argument 3 (nrhs)");
        expect("gesv_host: B NULL",
               bchol_dgesv_vbatched_host(c, nn, kk, ld, ld, off, ha, poff, hp, off, NULL, 2, hi),
               BCHOL_ERR_B, "argument 11 (B)");
        expect("gesv_host: info NULL",
               bchol_dgesv_vbatched_host(c, nn, kk, ld, ld, off, ha, poff, hp, off, hb, 2, NULL),
               BCHOL_ERR_INFO, "argument 13 (info)");
        expect("gesv_host: batch = 0",
               bchol_sgesv_vbatched_host(c, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                         NULL, 0, NULL),
               BCHOL_SUCCESS, NULL);
    }
    if (ev) {
        printf("FAILED: an event came back from a failed call\n");
        failures++;
    }
    /* batch = 0: nothing is a buffer, success at once */
    expect("getrf: batch = 0",
           bchol_sgetrf_vbatched(c, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, &ev),
           BCHOL_SUCCESS, NULL);
    expect("getrs_ex: batch = 0",
           bchol_dgetrs_vbatched_ex(c, NULL, 'N', 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                    NULL, NULL, NULL, 0, NULL, &ev),
           BCHOL_SUCCESS, NULL);
    expect("gesv: batch = 0",
           bchol_dgesv_vbatched(c, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0,
                                NULL, &ev),
           BCHOL_SUCCESS, NULL);
    /* only empty matrices: the checks run (info = 0), nothing else; an event comes back */
    {
        const int z2[2] = {0, 0}, seven[2] = {7, 7};
        cl_mem z = upload(c, sizeof z2, z2);
        clEnqueueWriteBuffer(bchol_context_queue(c), info, CL_TRUE, 0, sizeof seven, seven, 0,
                             NULL, NULL);
        ev = NULL;
        bchol_status st = bchol_dgesv_vbatched(c, z, z, lda, ldb, oa, A, opv, P, ob, B, 2, info,
                                               &ev);
        int got[2] = {-1, -1};
        clEnqueueReadBuffer(bchol_context_queue(c), info, CL_TRUE, 0, sizeof got, got, 0, NULL,
                            NULL);
        expect("gesv: every n = 0", st, BCHOL_SUCCESS, NULL);
        if (!ev || got[0] || got[1]) {
            printf("FAILED: event %p, info %d %d (want an event and 0 0)\n", (void *)ev, got[0],
                   got[1]);
            failures++;
        }
        if (ev) clReleaseEvent(ev);
        clReleaseMemObject(z);
    }
    cl_mem all[] = {n, k, lda, ldb, oa, ob, opv, P, A, B, info, small};
    for (int i = 0; i < 12; i++) clReleaseMemObject(all[i]);
    bchol_context_destroy(c);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--mode") && !strcmp(argv[2], "args"))
        return test_skip_precision('d') ? TEST_SKIP : run_args();
    options o = parse(argc, argv);
    if (test_skip_precision(o.precision)) return TEST_SKIP;
    return run_case(&o);
}
