/* Helpers for benchmarking the LU routines: the scaled residuals of a factorization, a
 * solve and an inverse (LAPACK's xGET01/xGET02/xGET03 ratios, in 1-norms), computed in
 * double from float or double data. */
#include "bchol_util.h"

#include <math.h>
#include <stdlib.h>

/* The 1-norm (largest column sum of |.|) of an n-by-n column-major double array. */
static double norm1(const double *a, int n)
{
    double worst = 0;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++) s += fabs(a[i + (size_t)j * n]);
        if (!(s <= worst)) worst = s;
    }
    return worst;
}

/* The n-by-n matrix at a (leading dimension lda) as a dense double copy (ld n). */
static double *dense(const void *a, int dbl, int n, int lda)
{
    double *d = malloc((size_t)n * (size_t)n * sizeof *d + 1);
    if (!d) abort();
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) d[i + (size_t)j * n] = util_get(a, util_idx(i, j, lda), dbl);
    return d;
}

static double ratio(double num, double den)
{
    if (den == 0) return num == 0 ? 0 : INFINITY;
    double r = num / den;
    return isnan(r) ? INFINITY : r;
}

double util_lu_residual(const void *a, const void *f, const int *ipiv, int dbl, int n, int lda)
{
    if (n == 0) return 0;
    double *pa = dense(a, dbl, n, lda), *lu = dense(f, dbl, n, lda);
    double *r = malloc((size_t)n * (size_t)n * sizeof *r + 1);
    if (!r) abort();
    /* P*A: the interchanges in order, row i with row ipiv[i] (1-based) */
    for (int i = 0; i < n; i++) {
        const int p = ipiv[i] - 1;
        if (p < 0 || p >= n) {
            free(pa);
            free(lu);
            free(r);
            return INFINITY;
        }
        if (p != i)
            for (int j = 0; j < n; j++) {
                double t = pa[i + (size_t)j * n];
                pa[i + (size_t)j * n] = pa[p + (size_t)j * n];
                pa[p + (size_t)j * n] = t;
            }
    }
    const double anorm = norm1(pa, n);
    /* R = P*A - L*U, L unit lower and U upper from f */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double s = 0;
            const int kmax = i < j ? i : j;
            for (int k = 0; k <= kmax; k++) {
                const double l = k == i ? 1.0 : lu[i + (size_t)k * n];
                s += l * lu[k + (size_t)j * n];
            }
            r[i + (size_t)j * n] = pa[i + (size_t)j * n] - s;
        }
    const double res = norm1(r, n);
    free(pa);
    free(lu);
    free(r);
    return ratio(res, n * anorm * util_eps(dbl));
}

double util_lu_solve_residual(const void *a, int dbl, char trans, int n, int lda, int nrhs,
                              const void *x, int ldx, const void *b, int ldb)
{
    if (n == 0 || nrhs == 0) return 0;
    const int t = trans == 'T' || trans == 't';
    double *op = dense(a, dbl, n, lda);
    if (t) /* op(A) = A**T */
        for (int j = 0; j < n; j++)
            for (int i = j + 1; i < n; i++) {
                double v = op[i + (size_t)j * n];
                op[i + (size_t)j * n] = op[j + (size_t)i * n];
                op[j + (size_t)i * n] = v;
            }
    double res = 0, xnorm = 0;
    for (int c = 0; c < nrhs; c++) {
        double rs = 0, xs = 0;
        for (int i = 0; i < n; i++) {
            double s = util_get(b, util_idx(i, c, ldb), dbl);
            for (int k = 0; k < n; k++) s -= op[i + (size_t)k * n] * util_get(x, util_idx(k, c, ldx), dbl);
            rs += fabs(s);
            xs += fabs(util_get(x, util_idx(i, c, ldx), dbl));
        }
        if (!(rs <= res)) res = rs;
        if (!(xs <= xnorm)) xnorm = xs;
    }
    const double anorm = norm1(op, n);
    free(op);
    return ratio(res, anorm * xnorm * util_eps(dbl));
}

double util_inv_residual(const void *a, const void *c, int dbl, int n, int lda, int ldc)
{
    if (n == 0) return 0;
    double *da = dense(a, dbl, n, lda), *dc = dense(c, dbl, n, ldc);
    double *r = malloc((size_t)n * (size_t)n * sizeof *r + 1);
    if (!r) abort();
    /* R = I - A*C, column by column: R(:, j) = e_j - sum_k A(:, k) C(k, j) */
    for (int j = 0; j < n; j++) {
        double *rj = r + (size_t)j * n;
        for (int i = 0; i < n; i++) rj[i] = i == j ? 1.0 : 0.0;
        for (int k = 0; k < n; k++) {
            const double ckj = dc[k + (size_t)j * n];
            const double *ak = da + (size_t)k * n;
            for (int i = 0; i < n; i++) rj[i] -= ak[i] * ckj;
        }
    }
    const double res = norm1(r, n), anorm = norm1(da, n), cnorm = norm1(dc, n);
    free(da);
    free(dc);
    free(r);
    return ratio(res, n * anorm * cnorm * util_eps(dbl));
}
