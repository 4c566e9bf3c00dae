/*
 * Tester for bchol_{s,d}getrf_batched, _nopiv_batched and _batched_host: one case per run,
 * chosen by options; exit code 0 on pass.
 *
 *   test_getrf --precision s|d --m M --n N [--batch B] [--lda-pad P] [--stride-pad S]
 *              [--piv-pad Q] [--offset O] [--offset-p OP] [--mode types|nopiv|host|args]
 *              [--seed X] [--refuse-buffers K] [--same-as GETRF]
 *
 * types: the batch cycles through LAPACK dchkge's matrix types 1-11 (below) and three of
 *   bchol's: a NaN (12) and an infinity (13) in column c < min(m, n), whose info is c+1
 *   (the non-finite value reaches the pivot at column c), and in double a first column
 *   of subnormal numbers (14: its pivot's reciprocal overflows). Checks, per matrix: info
 *   equal to LAPACKE_?getrf's (types 1-11, 14) or c+1; ||P*A - L*U||_1 / (n*||A||_1*eps)
 *   <= 30 (types 1-11, 14); ipiv equal to LAPACKE_?getrf's (all but 8, 9 and 14: no ties
 *   up to rounding; 8 and 9 are only reported, their late pivots being rounding-dependent;
 *   OpenBLAS's getrf, Debian's LAPACKE here, scales type 14's column by the reciprocal of
 *   its subnormal pivot, Inf, so its factors are no reference there: the residual is);
 *   and everything outside the m-by-n blocks and the min(m, n) pivots of each matrix
 *   (padding rows, gaps, the buffers' heads and tails, poisoned) bit for bit unchanged.
 * host: the same through the host form. --refuse-buffers K: the first K device allocations
 *   of the call are refused (cl_shim), which the host form must absorb by halving its
 *   piece K times; the call must succeed, the same checks apply, and the K refusals must
 *   have happened.
 * --same-as GETRF: the batch factored again with BCHOL_GETRF=GETRF must give the same A
 *   (bit for bit, a NaN matching any NaN), ipiv and info (the workitem variant's panels
 *   against its unblocked getf2: the same multiply-adds in the same order).
 * nopiv: diagonally dominant matrices (columns), plus a zero at (0,0) (info 1) and a NaN
 *   on the diagonal at c (info c+1) every fifth matrix; A = L*U, same checks.
 * args: every bad argument named with its status, batch = 0, m or n = 0, a size beyond
 *   the local memory (fused) or the work-group (regs), nothing touched by a refused call.
 *
 * dchkge's types (as generated here, A = U*diag(s)*V**T with random orthogonal U, V from
 * geqrf+orgqr of random matrices, s geometric from anorm to anorm/cond):
 *   1 diagonal  2 upper triangular  3 lower triangular  4 random, cond 2
 *   5 first column zero  6 column min(m,n) zero  7 columns min(m,n)/2+1..n zero
 *   8 cond sqrt(0.1/eps)  9 cond 0.1/eps  10 norm near underflow  11 norm near overflow
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"
#include "cl_shim.h"

#include <lapacke.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0
#define NTYPES 14
#define POISON_INT (-777)

typedef struct {
    char precision, mode[16], same_as[64];
    int m, n, lda_pad, stride_pad, piv_pad, refuse_buffers;
    long long batch, offset, offset_p;
    unsigned long long seed;
} options;

static void usage(void)
{
    fprintf(stderr, "usage: test_getrf --precision s|d --m M --n N [--batch B] [--lda-pad P] "
                    "[--stride-pad S] [--piv-pad Q] [--offset O] [--offset-p OP] "
                    "[--mode types|nopiv|host|args] [--seed X] [--refuse-buffers K] "
                    "[--same-as GETRF]\n");
    exit(2);
}

static options parse(int argc, char **argv)
{
    options o = {.precision = 'd', .mode = "types", .m = 8, .n = 8, .batch = 26, .seed = 1};
    int m_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) usage();
        i++;
        if (!strcmp(k, "--precision")) o.precision = v[0];
        else if (!strcmp(k, "--m")) o.m = atoi(v), m_given = 1;
        else if (!strcmp(k, "--n")) o.n = atoi(v);
        else if (!strcmp(k, "--batch")) o.batch = atoll(v);
        else if (!strcmp(k, "--lda-pad")) o.lda_pad = atoi(v);
        else if (!strcmp(k, "--stride-pad")) o.stride_pad = atoi(v);
        else if (!strcmp(k, "--piv-pad")) o.piv_pad = atoi(v);
        else if (!strcmp(k, "--offset")) o.offset = atoll(v);
        else if (!strcmp(k, "--offset-p")) o.offset_p = atoll(v);
        else if (!strcmp(k, "--mode")) snprintf(o.mode, sizeof o.mode, "%s", v);
        else if (!strcmp(k, "--seed")) o.seed = strtoull(v, NULL, 10);
        else if (!strcmp(k, "--refuse-buffers")) o.refuse_buffers = atoi(v);
        else if (!strcmp(k, "--same-as")) snprintf(o.same_as, sizeof o.same_as, "%s", v);
        else usage();
    }
    if (!m_given) o.m = o.n;
    if (o.precision != 's' && o.precision != 'd') usage();
    return o;
}

/* ---- matrices ------------------------------------------------------------------------ */

/* A random orthogonal r-by-r matrix (column-major, ld r): Q of the QR of a random one. */
static void random_orthogonal(double *q, int r, util_rng *rng)
{
    double *tau = malloc((size_t)r * sizeof *tau);
    for (size_t e = 0; e < (size_t)r * r; e++) q[e] = util_rng_uniform(rng);
    LAPACKE_dgeqrf(LAPACK_COL_MAJOR, r, r, q, r, tau);
    LAPACKE_dorgqr(LAPACK_COL_MAJOR, r, r, r, q, r, tau);
    free(tau);
}

/* dchkge's type t (1-11) as an m-by-n double matrix g (ld m); eps and safmin are those of
 * the precision under test (dlatb4's anorm and cond). */
static void make_type(double *g, int t, int m, int n, int dbl, util_rng *rng)
{
    const double eps = util_eps(dbl), safmin = dbl ? DBL_MIN : FLT_MIN;
    const double small = 0.25 * (safmin / eps), large = 1.0 / small;
    const double cond = t == 8 ? sqrt(0.1 / eps) : t == 9 ? 0.1 / eps : 2.0;
    const double anorm = t == 10 ? small : t == 11 ? large : 1.0;
    const int k = m < n ? m : n;
    double *s = malloc((size_t)(k > 0 ? k : 1) * sizeof *s);
    for (int i = 0; i < k; i++) s[i] = anorm * (k > 1 ? pow(cond, -(double)i / (k - 1)) : 1.0);
    memset(g, 0, (size_t)m * n * sizeof *g);
    if (t == 1) {
        for (int i = 0; i < k; i++) g[i + (size_t)i * m] = util_rng_uniform(rng) < 0 ? -s[i] : s[i];
    } else if (t == 14) {
        /* random, column 0 scaled to subnormal numbers: its pivot's reciprocal overflows,
         * so the column must be divided by it (dgetf2's sfmin branch) */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                g[i + (size_t)j * m] = util_rng_uniform(rng) * (j == 0 ? DBL_MIN / 8 : 1.0);
    } else if (t == 2 || t == 3) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                if (i == j) {
                    const double d = 1.0 + 0.5 * fabs(util_rng_uniform(rng));
                    g[i + (size_t)j * m] = util_rng_uniform(rng) < 0 ? -d : d;
                } else if ((t == 2 && i < j) || (t == 3 && i > j)) {
                    g[i + (size_t)j * m] = util_rng_uniform(rng);
                }
    } else {
        double *u = malloc((size_t)m * m * sizeof *u), *v = malloc((size_t)n * n * sizeof *v);
        random_orthogonal(u, m, rng);
        random_orthogonal(v, n, rng);
        /* A = U(:, 0:k) * diag(s) * V(:, 0:k)**T */
        for (int j = 0; j < n; j++)
            for (int l = 0; l < k; l++) {
                const double w = s[l] * v[j + (size_t)l * n];
                for (int i = 0; i < m; i++) g[i + (size_t)j * m] += u[i + (size_t)l * m] * w;
            }
        free(u);
        free(v);
        /* the zero columns of types 5-7 (izero 1-based, as dchkge) */
        const int izero = t == 5 ? 1 : t == 6 ? k : k / 2 + 1;
        if (t >= 5 && t <= 7)
            for (int j = izero - 1; j < (t == 7 ? n : izero); j++)
                for (int i = 0; i < m; i++) g[i + (size_t)j * m] = 0;
    }
    free(s);
}

/* Column-dominant m-by-n matrix for getrf_nopiv: |a(j,j)| > sum of the rest of column j. */
static void make_dominant(double *g, int m, int n, util_rng *rng)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double x = util_rng_uniform(rng);
            if (i == j) x = (x < 0 ? -1 : 1) * (m + 1.0);
            g[i + (size_t)j * m] = x;
        }
}

static void put(void *a, int dbl, size_t at, int lda, const double *g, int m, int n)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) util_set(a, at + util_idx(i, j, lda), dbl, g[i + (size_t)j * m]);
}

/* ||P*A - L*U||_1 / (n*||A||_1*eps) with A = a0, the factors in f (both at ld lda, in the
 * precision dbl), ipiv 1-based (NULL: no pivoting). */
static double lu_residual(const void *a0, const void *f, int dbl, int m, int n, int lda,
                          const int *ipiv)
{
    const int k = m < n ? m : n;
    double *pa = malloc((size_t)m * n * sizeof *pa);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) pa[i + (size_t)j * m] = util_get(a0, util_idx(i, j, lda), dbl);
    double anorm = 0;
    for (int j = 0; j < n; j++) {
        double c = 0;
        for (int i = 0; i < m; i++) c += fabs(pa[i + (size_t)j * m]);
        if (c > anorm) anorm = c;
    }
    if (ipiv)
        for (int i = 0; i < k; i++) {
            const int p = ipiv[i] - 1;
            if (p < 0 || p >= m) {
                free(pa);
                return INFINITY;
            }
            if (p != i)
                for (int j = 0; j < n; j++) {
                    const double t = pa[i + (size_t)j * m];
                    pa[i + (size_t)j * m] = pa[p + (size_t)j * m];
                    pa[p + (size_t)j * m] = t;
                }
        }
    double rnorm = 0;
    for (int j = 0; j < n; j++) {
        double c = 0;
        for (int i = 0; i < m; i++) {
            /* (L*U)(i,j) = sum_{l <= min(i, j, k-1)} L(i,l) U(l,j), L(i,i) = 1 */
            double s = 0;
            const int top = i < j ? i : j;
            for (int l = 0; l <= top && l < k; l++) {
                const double L = l == i ? 1.0 : util_get(f, util_idx(i, l, lda), dbl);
                s += L * util_get(f, util_idx(l, j, lda), dbl);
            }
            c += fabs(pa[i + (size_t)j * m] - s);
        }
        if (!(c <= rnorm)) rnorm = c; /* a NaN wins */
    }
    free(pa);
    if (anorm == 0) return rnorm == 0 ? 0 : INFINITY;
    return rnorm / ((double)n * anorm * util_eps(dbl));
}

/* ---- device and host runs ------------------------------------------------------------- */

typedef struct {
    bchol_context *ctx;
    int dbl, pivot, host;
    int m, n, lda;
    long long stride, offset, stride_p, offset_p, batch;
} run_shape;

/* Factors the batch in a (total elements) with pivots in p (ptotal ints) and info in
 * info (batch + 4 ints) on the device (or through the host form), results back in place. */
static bchol_status run(const run_shape *r, void *a, size_t total, int *p, size_t ptotal,
                        int *info)
{
    const size_t es = r->dbl ? 8 : 4;
    bchol_status st;
    if (r->host) {
        /* the host form has no offsets: matrix 0 at the arrays' offset */
        void *A = (char *)a + (size_t)r->offset * es;
        int *P = p + r->offset_p;
        return r->dbl ? bchol_dgetrf_batched_host(r->ctx, r->m, r->n, A, r->lda, r->stride, P,
                                                  r->stride_p, r->batch, info)
                      : bchol_sgetrf_batched_host(r->ctx, r->m, r->n, A, r->lda, r->stride, P,
                                                  r->stride_p, r->batch, info);
    }
    cl_context cl = bchol_context_cl_context(r->ctx);
    cl_command_queue q = bchol_context_queue(r->ctx);
    cl_int err;
    cl_mem dA = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total * es, a, &err);
    cl_mem dP = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ptotal * sizeof(int), p, &err);
    cl_mem dI = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               (size_t)(r->batch + 4) * sizeof(int), info, &err);
    if (!dA || !dP || !dI) {
        fprintf(stderr, "FAILED: clCreateBuffer: %d\n", err);
        exit(1);
    }
    cl_event ev = NULL;
    if (r->pivot)
        st = r->dbl ? bchol_dgetrf_batched(r->ctx, r->m, r->n, dA, r->offset, r->lda, r->stride, dP,
                                           r->offset_p, r->stride_p, r->batch, dI, &ev)
                    : bchol_sgetrf_batched(r->ctx, r->m, r->n, dA, r->offset, r->lda, r->stride, dP,
                                           r->offset_p, r->stride_p, r->batch, dI, &ev);
    else
        st = r->dbl ? bchol_dgetrf_nopiv_batched(r->ctx, r->m, r->n, dA, r->offset, r->lda,
                                                 r->stride, r->batch, dI, &ev)
                    : bchol_sgetrf_nopiv_batched(r->ctx, r->m, r->n, dA, r->offset, r->lda,
                                                 r->stride, r->batch, dI, &ev);
    if (!st && r->batch > 0 && !ev) {
        fprintf(stderr, "FAILED: no event returned\n");
        exit(1);
    }
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    clEnqueueReadBuffer(q, dA, CL_TRUE, 0, total * es, a, 0, NULL, NULL);
    clEnqueueReadBuffer(q, dP, CL_TRUE, 0, ptotal * sizeof(int), p, 0, NULL, NULL);
    clEnqueueReadBuffer(q, dI, CL_TRUE, 0, (size_t)(r->batch + 4) * sizeof(int), info, 0, NULL, NULL);
    clReleaseMemObject(dA);
    clReleaseMemObject(dP);
    clReleaseMemObject(dI);
    return st;
}

/* ---- the factorization cases ----------------------------------------------------------- */

static int factor_case(const options *o, bchol_context *ctx)
{
    const int dbl = o->precision == 'd', m = o->m, n = o->n, k = m < n ? m : n;
    const int nopiv = !strcmp(o->mode, "nopiv"), host = !strcmp(o->mode, "host");
    const int lda = (m > 1 ? m : 1) + o->lda_pad;
    const long long stride = (long long)lda * n + o->stride_pad;
    const long long stride_p = k + o->piv_pad;
    const size_t es = dbl ? 8 : 4, tail = 37;
    const size_t total = (size_t)(o->offset + o->batch * stride) + tail;
    const size_t ptotal = (size_t)(o->offset_p + o->batch * stride_p) + tail;

    void *a = malloc(total * es), *a0 = malloc(total * es);
    int *p = malloc(ptotal * sizeof *p), *info = malloc((size_t)(o->batch + 4) * sizeof *info);
    int *ref_info = calloc((size_t)o->batch + 1, sizeof *ref_info);
    int *ref_piv = malloc(((size_t)o->batch * k + 1) * sizeof *ref_piv);
    int *type = calloc((size_t)o->batch + 1, sizeof *type);
    double *g = malloc(((size_t)m * n + 1) * sizeof *g);
    void *ref = malloc(((size_t)m * n + 1) * es);
    util_poison(a, dbl, total);
    for (size_t e = 0; e < ptotal; e++) p[e] = POISON_INT - (int)(e % 1000);
    util_rng rng;
    util_rng_seed(&rng, o->seed);
    for (long long b = 0; b < o->batch; b++) {
        const size_t at = (size_t)(o->offset + b * stride);
        if (k == 0) continue;
        if (nopiv) {
            make_dominant(g, m, n, &rng);
            type[b] = 0;
            if (b % 5 == 3) g[0] = 0, ref_info[b] = 1;
            if (b % 5 == 4) {
                const int c = (int)(b / 5) % k;
                g[c + (size_t)c * m] = NAN;
                ref_info[b] = c + 1;
            }
            put(a, dbl, at, lda, g, m, n);
            continue;
        }
        int t = 1 + (int)(b % NTYPES);
        /* subnormal floats are optional in OpenCL; with one column, ||A|| itself is subnormal */
        if (t == 14 && (!dbl || n == 1)) t = 4;
        type[b] = t;
        if (t <= 11 || t == 14) {
            make_type(g, t, m, n, dbl, &rng);
            /* the reference: LAPACKE_?getrf on the same (rounded) matrix */
            for (size_t e = 0; e < (size_t)m * n; e++) util_set(ref, e, dbl, g[e]);
            const int r = dbl ? LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, ref, m, ref_piv + b * k)
                              : LAPACKE_sgetrf(LAPACK_COL_MAJOR, m, n, ref, m, ref_piv + b * k);
            if (r < 0) {
                fprintf(stderr, "FAILED: test setup: LAPACKE getrf returned %d\n", r);
                return 1;
            }
            ref_info[b] = r;
            if (t >= 5 && t <= 7 && r != (t == 5 ? 1 : t == 6 ? k : k / 2 + 1)) {
                fprintf(stderr, "FAILED: test setup: type %d gives LAPACK info %d\n", t, r);
                return 1;
            }
        } else {
            /* 12, 13: random (type 4) with a NaN or an infinity in column c, row r */
            make_type(g, 4, m, n, dbl, &rng);
            const int c = (int)(b / NTYPES) % k, row = (int)((b * 7) % m);
            g[row + (size_t)c * m] = t == 12 ? NAN : -INFINITY;
            ref_info[b] = c + 1;
        }
        put(a, dbl, at, lda, g, m, n);
    }
    memcpy(a0, a, total * es);
    int *p0 = malloc(ptotal * sizeof *p0);
    memcpy(p0, p, ptotal * sizeof *p);
    for (long long b = 0; b < o->batch + 4; b++) info[b] = -12345;

    run_shape r = {ctx, dbl, !nopiv, host, m, n, lda, stride, o->offset, stride_p, o->offset_p, o->batch};
    if (o->refuse_buffers) shim_fail(SHIM_BUFFER, 1, o->refuse_buffers, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    bchol_status st = run(&r, a, total, p, ptotal, info);
    const long long refused = shim_faults();
    shim_fail(SHIM_ANY, 0, 0, CL_SUCCESS);
    if (refused != o->refuse_buffers) {
        fprintf(stderr, "FAILED: %lld device allocations refused, %d asked for (%s: %s)\n",
                refused, o->refuse_buffers, bchol_status_string(st), bchol_last_error(ctx));
        return 1;
    }
    const char *forced = getenv("BCHOL_GETRF");
    if (st == BCHOL_ERR_UNSUPPORTED_SIZE && forced && !strncmp(forced, "fused", 5)) {
        /* the fused kernel forced on a device whose local memory cannot hold the matrix
         * (NVIDIA's 48 KiB): refused by name, as bchol.h says; nothing to check here */
        printf("skipped: %s\n", bchol_last_error(ctx));
        return TEST_SKIP;
    }
    if (test_skip_refusal(ctx, st)) return TEST_SKIP;
    if (st) {
        fprintf(stderr, "FAILED: %s: %s\n", bchol_status_string(st), bchol_last_error(ctx));
        return 1;
    }

    long long touched = 0, ptouched = 0, bad_info = 0, bad_piv = 0, bad_piv_ill = 0;
    double worst = 0;
    for (size_t e = 0; e < total; e++) {
        int inside = 0;
        if (e >= (size_t)o->offset && e < (size_t)(o->offset + o->batch * stride)) {
            const size_t rr = (e - (size_t)o->offset) % (size_t)stride;
            inside = (int)(rr % (size_t)lda) < m && rr / (size_t)lda < (size_t)n;
        }
        if (!inside && memcmp((char *)a + e * es, (char *)a0 + e * es, es))
            if (touched++ < 5) fprintf(stderr, "element %zu outside the matrices changed\n", e);
    }
    for (size_t e = 0; e < ptotal; e++) {
        int inside = 0;
        if (!nopiv && e >= (size_t)o->offset_p && e < (size_t)(o->offset_p + o->batch * stride_p))
            inside = (long long)((e - (size_t)o->offset_p) % (size_t)stride_p) < k;
        if (!inside && p[e] != p0[e])
            if (ptouched++ < 5) fprintf(stderr, "ipiv element %zu outside the pivots changed\n", e);
    }
    for (long long b = 0; b < o->batch; b++) {
        const size_t at = (size_t)(o->offset + b * stride) * es;
        const int *piv = p + o->offset_p + b * stride_p;
        if (info[b] != ref_info[b])
            if (bad_info++ < 5)
                fprintf(stderr, "matrix %lld (type %d): info %d, expected %d\n", b, type[b], info[b],
                        ref_info[b]);
        if (k == 0 || type[b] == 12 || type[b] == 13 || (nopiv && ref_info[b])) continue;
        const double err = lu_residual((char *)a0 + at, (char *)a + at, dbl, m, n, lda, nopiv ? NULL : piv);
        if (!(err <= worst)) worst = err;
        if (!(err <= THRESHOLD))
            fprintf(stderr, "matrix %lld (type %d): residual %.3g\n", b, type[b], err);
        if (nopiv) continue;
        int differ = 0;
        for (int i = 0; i < k; i++) differ |= piv[i] != ref_piv[b * k + i];
        if (type[b] == 14) continue;
        if (differ && (type[b] == 8 || type[b] == 9)) {
            bad_piv_ill++;
        } else if (differ && bad_piv++ < 5) {
            fprintf(stderr, "matrix %lld (type %d): ipiv differs from LAPACK's:", b, type[b]);
            for (int i = 0; i < k && i < 12; i++) fprintf(stderr, " %d/%d", piv[i], ref_piv[b * k + i]);
            fprintf(stderr, "\n");
        }
    }
    for (int b = 0; b < 4; b++)
        if (info[o->batch + b] != -12345) bad_info++;
    long long unlike = 0; /* --same-as: elements, pivots and infos that differ from it */
    if (o->same_as[0]) {
        void *a2 = malloc(total * es);
        int *p2 = malloc(ptotal * sizeof *p2), *info2 = malloc((size_t)(o->batch + 4) * sizeof *info2);
        memcpy(a2, a0, total * es);
        memcpy(p2, p0, ptotal * sizeof *p2);
        char *was = forced ? strdup(forced) : NULL;
        setenv("BCHOL_GETRF", o->same_as, 1);
        st = run(&r, a2, total, p2, ptotal, info2);
        if (was) setenv("BCHOL_GETRF", was, 1);
        else unsetenv("BCHOL_GETRF");
        free(was);
        if (st) {
            fprintf(stderr, "--same-as %s: %s: %s\n", o->same_as, bchol_status_string(st),
                    bchol_last_error(ctx));
            unlike = 1;
        }
        for (size_t e = 0; !st && e < total; e++) /* a NaN's sign and payload may differ */
            unlike += memcmp((char *)a + e * es, (char *)a2 + e * es, es) &&
                      !(isnan(util_get(a, e, dbl)) && isnan(util_get(a2, e, dbl)));
        for (size_t e = 0; !st && e < ptotal; e++) unlike += p[e] != p2[e];
        for (long long b = 0; !st && b < o->batch; b++) unlike += info[b] != info2[b];
        if (unlike) fprintf(stderr, "--same-as %s: %lld elements, pivots or infos differ\n", o->same_as, unlike);
        free(a2);
        free(p2);
        free(info2);
    }
    const int failed = touched || ptouched || bad_info || bad_piv || !(worst <= THRESHOLD) || unlike;
    printf("getrf%s %c m=%d n=%d batch=%lld lda=%d stride=%lld offset=%lld stride_p=%lld "
           "offset_p=%lld: residual %.3g, %lld wrong info, %lld ipiv unlike LAPACK's "
           "(+%lld on types 8-9, not counted), %lld+%lld elements touched outside: %s\n",
           nopiv ? "_nopiv" : host ? "_host" : "", o->precision, m, n, o->batch, lda, stride,
           o->offset, stride_p, o->offset_p, worst, bad_info, bad_piv, bad_piv_ill, touched, ptouched,
           failed ? "FAILED" : "ok");
    free(a);
    free(a0);
    free(p);
    free(p0);
    free(info);
    free(ref_info);
    free(ref_piv);
    free(type);
    free(g);
    free(ref);
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
    const int n = 6, lda = 6, batch = 3;
    double buf[6 * 6 * 3 + 8];
    int pbuf[6 * 3 + 8], ibuf[3 + 8];
    for (size_t e = 0; e < sizeof buf / sizeof *buf; e++) buf[e] = (double)e;
    for (size_t e = 0; e < sizeof pbuf / sizeof *pbuf; e++) pbuf[e] = -1;
    for (size_t e = 0; e < sizeof ibuf / sizeof *ibuf; e++) ibuf[e] = -2;
    cl_mem dA = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof buf, buf, &err);
    cl_mem dP = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof pbuf, pbuf, &err);
    cl_mem dI = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof ibuf, ibuf, &err);
    cl_mem tiny = clCreateBuffer(cl, CL_MEM_READ_WRITE, 8, NULL, &err);
    cl_mem ro = clCreateBuffer(cl, CL_MEM_READ_ONLY, sizeof buf, NULL, &err);
    const int64_t sa = (int64_t)lda * n;
    cl_event ev = (cl_event)1;
#define D(...) bchol_dgetrf_batched(ctx, __VA_ARGS__)
#define S(...) bchol_sgetrf_batched(ctx, __VA_ARGS__)
    /* the double routine where the device has it: its messages name the same arguments */
#define G(...) (dbl ? D(__VA_ARGS__) : S(__VA_ARGS__))
    expect("ctx", ctx, bchol_dgetrf_batched(NULL, n, n, dA, 0, lda, sa, dP, 0, n, batch, dI, NULL),
           BCHOL_ERR_CONTEXT, NULL);
    expect("m < 0", ctx, G(-1, n, dA, 0, lda, sa, dP, 0, n, batch, dI, NULL), BCHOL_ERR_M, "argument 2 (m = -1)");
    expect("n < 0", ctx, G(n, -1, dA, 0, lda, sa, dP, 0, n, batch, dI, NULL), BCHOL_ERR_N, "argument 3 (n = -1)");
    expect("lda < m", ctx, G(n, n, dA, 0, n - 1, sa, dP, 0, n, batch, dI, NULL), BCHOL_ERR_LDA, "argument 6 (lda = 5)");
    expect("lda < 1", ctx, G(0, n, dA, 0, 0, 0, dP, 0, 0, batch, dI, NULL), BCHOL_ERR_LDA, "argument 6 (lda = 0)");
    expect("index span", ctx, G(3, 70000, dA, 0, 40000, (int64_t)40000 * 70000, dP, 0, 3, batch, dI, NULL),
           BCHOL_ERR_N, "argument 3 (n = 70000)");
    expect("offset_a", ctx, G(n, n, dA, -1, lda, sa, dP, 0, n, batch, dI, NULL), BCHOL_ERR_OFFSET_A, "argument 5");
    expect("stride_a", ctx, G(n, n, dA, 0, lda, sa - 1, dP, 0, n, batch, dI, NULL), BCHOL_ERR_STRIDE_A, "argument 7");
    expect("offset_p", ctx, G(n, n, dA, 0, lda, sa, dP, -1, n, batch, dI, NULL), BCHOL_ERR_OFFSET_P, "argument 9");
    expect("stride_p", ctx, G(8, n, dA, 0, 8, 8 * n, dP, 0, n - 1, batch, dI, NULL), BCHOL_ERR_STRIDE_P,
           "argument 10 (stride_p = 5) must be >= min(m, n) = 6");
    expect("batch", ctx, G(n, n, dA, 0, lda, sa, dP, 0, n, -1, dI, NULL), BCHOL_ERR_BATCH, "argument 11");
    expect("A NULL", ctx, G(n, n, NULL, 0, lda, sa, dP, 0, n, batch, dI, NULL), BCHOL_ERR_A, "argument 4 (A)");
    expect("A small", ctx, G(n, n, tiny, 0, lda, sa, dP, 0, n, batch, dI, NULL), BCHOL_ERR_A_SIZE, "argument 4 (A)");
    /* the buffer holds cap elements of the precision G runs: one past them */
    const int64_t cap = (int64_t)(sizeof buf / (dbl ? 8 : 4));
    expect("A small by offset", ctx, G(n, n, dA, cap - batch * sa + 1, lda, sa, dP, 0, n, batch, dI, NULL),
           BCHOL_ERR_A_SIZE, "argument 4");
    expect("ipiv NULL", ctx, G(n, n, dA, 0, lda, sa, NULL, 0, n, batch, dI, NULL), BCHOL_ERR_IPIV, "argument 8 (ipiv)");
    expect("ipiv small", ctx, G(n, n, dA, 0, lda, sa, tiny, 0, n, batch, dI, NULL), BCHOL_ERR_IPIV_SIZE,
           "argument 8 (ipiv)");
    expect("ipiv small by offset", ctx, G(n, n, dA, 0, lda, sa, dP, 9, n, batch, dI, NULL), BCHOL_ERR_IPIV_SIZE,
           "argument 8");
    expect("info NULL", ctx, G(n, n, dA, 0, lda, sa, dP, 0, n, batch, NULL, NULL), BCHOL_ERR_INFO, "argument 12 (info)");
    expect("info small", ctx, G(n, n, dA, 0, lda, sa, dP, 0, n, batch, tiny, NULL), BCHOL_ERR_INFO_SIZE,
           "argument 12");
    expect("ipiv = A", ctx, G(n, n, dA, 0, lda, sa, dA, 0, n, batch, dI, NULL), BCHOL_ERR_IPIV, "argument 8");
    expect("info = ipiv", ctx, G(n, n, dA, 0, lda, sa, dP, 0, n, batch, dP, NULL), BCHOL_ERR_INFO, "argument 12");
    expect("A read-only", ctx, G(n, n, ro, 0, lda, sa, dP, 0, n, batch, dI, NULL), BCHOL_ERR_A, "argument 4");
    /* nopiv: its batch and info are arguments 8 and 9 */
    expect("nopiv m", ctx, bchol_sgetrf_nopiv_batched(ctx, -2, n, dA, 0, lda, sa, batch, dI, NULL),
           BCHOL_ERR_M, "bchol_sgetrf_nopiv_batched: argument 2 (m = -2)");
    expect("nopiv batch", ctx, bchol_sgetrf_nopiv_batched(ctx, n, n, dA, 0, lda, sa, -1, dI, NULL),
           BCHOL_ERR_BATCH, "argument 8");
    expect("nopiv info", ctx, bchol_sgetrf_nopiv_batched(ctx, n, n, dA, 0, lda, sa, batch, NULL, NULL),
           BCHOL_ERR_INFO, "argument 9 (info)");
    /* the host forms */
    double hA[36];
    int hP[6], hI[1];
    expect("host m", ctx, bchol_dgetrf_batched_host(ctx, -1, n, hA, lda, sa, hP, n, 1, hI), BCHOL_ERR_M,
           "bchol_dgetrf_batched_host: argument 2");
    expect("host lda", ctx, bchol_dgetrf_batched_host(ctx, n, n, hA, 2, sa, hP, n, 1, hI), BCHOL_ERR_LDA,
           "argument 5");
    expect("host stride_a", ctx, bchol_dgetrf_batched_host(ctx, n, n, hA, lda, 3, hP, n, 1, hI),
           BCHOL_ERR_STRIDE_A, "argument 6");
    expect("host ipiv", ctx, bchol_dgetrf_batched_host(ctx, n, n, hA, lda, sa, NULL, n, 1, hI), BCHOL_ERR_IPIV,
           "argument 7");
    expect("host stride_p", ctx, bchol_dgetrf_batched_host(ctx, n, n, hA, lda, sa, hP, 2, 1, hI),
           BCHOL_ERR_STRIDE_P, "argument 8");
    expect("host batch", ctx, bchol_dgetrf_batched_host(ctx, n, n, hA, lda, sa, hP, n, -3, hI), BCHOL_ERR_BATCH,
           "argument 9");
    expect("host info", ctx, bchol_dgetrf_batched_host(ctx, n, n, hA, lda, sa, hP, n, 1, NULL), BCHOL_ERR_INFO,
           "argument 10");

    /* quick returns: batch = 0 touches nothing and needs no buffer; m or n = 0 sets info */
    ev = (cl_event)1;
    expect("batch 0", ctx, S(n, n, NULL, 0, lda, sa, NULL, 0, n, 0, NULL, &ev), BCHOL_SUCCESS, NULL);
    if (ev) fprintf(stderr, "FAILED: batch 0 returned an event\n"), failures++;
    expect("m 0", ctx, S(0, n, NULL, 0, 1, n, NULL, 0, 0, batch, dI, NULL), BCHOL_SUCCESS, NULL);
    expect("n 0", ctx, bchol_sgetrf_nopiv_batched(ctx, n, 0, NULL, 0, lda, 0, 1, dI, NULL), BCHOL_SUCCESS, NULL);
    /* the fused variant asked for (BCHOL_GETRF) at a size beyond local memory: refused by
     * name, nothing enqueued (auto would take the blocked variant); a malformed request
     * is an argument error */
    cl_mem big = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)4000 * 4000 * 4, NULL, &err);
    if (big) {
        cl_mem bigp = clCreateBuffer(cl, CL_MEM_READ_WRITE, 4000 * 4, NULL, &err);
        setenv("BCHOL_GETRF", "fused", 1);
        expect("too large", ctx, S(4000, 4000, big, 0, 4000, (int64_t)4000 * 4000, bigp, 0, 4000, 1, dI, NULL),
               BCHOL_ERR_UNSUPPORTED_SIZE, "local memory");
        /* the regs variant asked for with more rows than a work-group's work-items (an
         * m-by-1 matrix: A stays small) */
        bchol_device_info di;
        if (bchol_context_device_info(ctx, &di) == BCHOL_SUCCESS && di.max_work_group < 4000 * 4000) {
            const int wide = (int)di.max_work_group + 1;
            setenv("BCHOL_GETRF", "regs", 1);
            expect("regs too tall", ctx, S(wide, 1, big, 0, wide, wide, bigp, 0, 1, 1, dI, NULL),
                   BCHOL_ERR_UNSUPPORTED_SIZE, "regs LU kernel takes a work-item per row");
        }
        setenv("BCHOL_GETRF", "regs,load=direct", 1); /* an option of an earlier regs kernel */
        expect("BCHOL_GETRF load", ctx, S(4, 4, big, 0, 4, 16, bigp, 0, 4, 1, dI, NULL),
               BCHOL_ERR_ARGUMENT, "BCHOL_GETRF");
        setenv("BCHOL_GETRF", "blocked,nb=0", 1);
        expect("BCHOL_GETRF nb 0", ctx, S(4000, 4000, big, 0, 4000, (int64_t)4000 * 4000, bigp, 0, 4000, 1, dI, NULL),
               BCHOL_ERR_ARGUMENT, "BCHOL_GETRF");
        unsetenv("BCHOL_GETRF");
        clReleaseMemObject(bigp);
        clReleaseMemObject(big);
    }
    clFinish(bchol_context_queue(ctx));
    double back[sizeof buf / sizeof *buf];
    int pback[sizeof pbuf / sizeof *pbuf], iback[sizeof ibuf / sizeof *ibuf];
    cl_command_queue q = bchol_context_queue(ctx);
    clEnqueueReadBuffer(q, dA, CL_TRUE, 0, sizeof buf, back, 0, NULL, NULL);
    clEnqueueReadBuffer(q, dP, CL_TRUE, 0, sizeof pbuf, pback, 0, NULL, NULL);
    clEnqueueReadBuffer(q, dI, CL_TRUE, 0, sizeof ibuf, iback, 0, NULL, NULL);
    if (memcmp(back, buf, sizeof buf) || memcmp(pback, pbuf, sizeof pbuf))
        fprintf(stderr, "FAILED: a refused call or quick return changed A or ipiv\n"), failures++;
    /* info: the m = 0 call set batch zeros, the n = 0 one the first; nothing after */
    for (int b = 0; b < (int)(sizeof ibuf / sizeof *ibuf); b++)
        if (iback[b] != (b < batch ? 0 : -2))
            fprintf(stderr, "FAILED: info[%d] = %d after the quick returns\n", b, iback[b]), failures++;
    /* the host form's quick return */
    int hinfo[3] = {7, 7, 7};
    expect("host n 0", ctx, bchol_sgetrf_batched_host(ctx, 4, 0, NULL, 4, 0, NULL, 0, 2, hinfo), BCHOL_SUCCESS, NULL);
    if (hinfo[0] || hinfo[1] || hinfo[2] != 7) fprintf(stderr, "FAILED: host n = 0: info\n"), failures++;
    clReleaseMemObject(dA);
    clReleaseMemObject(dP);
    clReleaseMemObject(dI);
    clReleaseMemObject(tiny);
    clReleaseMemObject(ro);
    printf("getrf args: %d failures: %s\n", failures, failures ? "FAILED" : "ok");
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
    const int failed = !strcmp(o.mode, "args") ? args_case(ctx) : factor_case(&o, ctx);
    bchol_context_destroy(ctx);
    return failed == TEST_SKIP ? TEST_SKIP : failed ? 1 : 0;
}
