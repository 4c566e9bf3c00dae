/* Helpers for testing and benchmarking the solves: a reference factor to feed potrs,
 * and the residual of a computed solution. */
#include "bchol_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Element (i, j) of the symmetric matrix from its stored triangle. */
static double sym_at(const void *a, int dbl, char uplo, int i, int j, int lda)
{
    return util_in_triangle(uplo, i, j) ? util_get(a, util_idx(i, j, lda), dbl)
                                        : util_get(a, util_idx(j, i, lda), dbl);
}

int util_ref_factor(void *a, int dbl, char uplo, int n, int lda)
{
    /* Left-looking Cholesky in double of the lower triangle l (ld n): column j is
     * a(j:n, j) - L(j:n, 0:j) * L(j, 0:j)**T, scaled by its pivot's square root. */
    double *l = calloc((size_t)n * (size_t)n + 1, sizeof *l);
    if (!l) abort();
    int info = 0;
    for (int j = 0; j < n && !info; j++) {
        for (int i = j; i < n; i++) {
            double s = sym_at(a, dbl, uplo, i, j, lda);
            for (int k = 0; k < j; k++)
                s -= l[i + (size_t)k * n] * l[j + (size_t)k * n];
            l[i + (size_t)j * n] = s;
        }
        double d = l[j + (size_t)j * n];
        if (!(d > 0) || !isfinite(d)) {
            info = j + 1;
            break;
        }
        d = sqrt(d);
        for (int i = j; i < n; i++)
            l[i + (size_t)j * n] = i == j ? d : l[i + (size_t)j * n] / d;
    }
    if (!info)
        for (int j = 0; j < n; j++)
            for (int i = j; i < n; i++) {
                /* L(i, j) goes to (i, j) in 'L' storage and to (j, i) as U = L**T in 'U' */
                size_t at = uplo == 'U' || uplo == 'u' ? util_idx(j, i, lda) : util_idx(i, j, lda);
                util_set(a, at, dbl, l[i + (size_t)j * n]);
            }
    free(l);
    return info;
}

double util_solve_residual(const void *a, int dbl, char uplo, int n, int lda, int nrhs,
                           const void *x, int ldx, const void *b, int ldb)
{
    double res = 0, anorm = 0, xnorm = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double v = sym_at(a, dbl, uplo, i, j, lda);
            anorm += v * v;
        }
    for (int c = 0; c < nrhs; c++)
        for (int i = 0; i < n; i++) {
            double s = -util_get(b, util_idx(i, c, ldb), dbl);
            for (int k = 0; k < n; k++)
                s += sym_at(a, dbl, uplo, i, k, lda) * util_get(x, util_idx(k, c, ldx), dbl);
            double xi = util_get(x, util_idx(i, c, ldx), dbl);
            res += s * s;
            xnorm += xi * xi;
        }
    if (n == 0 || nrhs == 0) return 0;
    if (anorm == 0 || xnorm == 0) return res == 0 ? 0 : INFINITY;
    double r = sqrt(res) / (sqrt(anorm) * sqrt(xnorm) * n * util_eps(dbl));
    return isnan(r) ? INFINITY : r;
}

void util_fill_uniform(void *a, int dbl, int rows, int cols, int ld, util_rng *r)
{
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            util_set(a, util_idx(i, j, ld), dbl, util_rng_uniform(r));
}

