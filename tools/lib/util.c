#include "bchol_util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void util_rng_seed(util_rng *r, uint64_t seed) { r->s = seed ^ 0x9e3779b97f4a7c15ULL; }

uint64_t util_rng_next(util_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double util_rng_uniform(util_rng *r) { return (double)(util_rng_next(r) >> 11) * 0x1p-52 - 1.0; }

void util_spd(void *a, int dbl, char uplo, int n, int lda, util_rng *r)
{
    double *g = malloc((size_t)n * (size_t)n * sizeof *g);
    if (!g) abort();
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++) g[i] = util_rng_uniform(r);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (!util_in_triangle(uplo, i, j)) continue;
            double s = 0;
            for (int k = 0; k < n; k++) s += g[i + (size_t)k * n] * g[j + (size_t)k * n];
            util_set(a, util_idx(i, j, lda), dbl, s / n + (i == j ? 1.0 : 0.0));
        }
    free(g);
}

void util_spd_fast(void *a, int dbl, int n, int lda, util_rng *r)
{
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            double v = i == j ? n + util_rng_uniform(r) : util_rng_uniform(r);
            util_set(a, util_idx(i, j, lda), dbl, v);
            util_set(a, util_idx(j, i, lda), dbl, v);
        }
}

/* Element (i, j), i >= j, of the symmetric matrix from its stored triangle. */
static double sym(const void *a, int dbl, char uplo, int i, int j, int lda)
{
    return util_in_triangle(uplo, i, j) ? util_get(a, util_idx(i, j, lda), dbl)
                                        : util_get(a, util_idx(j, i, lda), dbl);
}

/* Right-looking unblocked Cholesky of the lower triangle in l (n x n, ld n), stopped
 * after `steps` columns: l(steps, steps) then holds the Schur complement there. */
static int ref_potrf(double *l, int n, int steps)
{
    for (int k = 0; k < steps; k++) {
        double d = l[k + (size_t)k * n];
        if (!(d > 0) || !isfinite(d)) return k + 1;
        d = sqrt(d);
        l[k + (size_t)k * n] = d;
        for (int i = k + 1; i < n; i++) l[i + (size_t)k * n] /= d;
        for (int j = k + 1; j < n; j++)
            for (int i = j; i < n; i++) l[i + (size_t)j * n] -= l[i + (size_t)k * n] * l[j + (size_t)k * n];
    }
    return 0;
}

static double *lower_copy(const void *a, int dbl, char uplo, int n, int lda)
{
    double *l = calloc((size_t)n * (size_t)n + 1, sizeof *l);
    if (!l) abort();
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) l[i + (size_t)j * n] = sym(a, dbl, uplo, i, j, lda);
    return l;
}

void util_break_at(void *a, int dbl, char uplo, int n, int lda, int col)
{
    double *l = lower_copy(a, dbl, uplo, n, lda);
    ref_potrf(l, n, col);
    double schur = l[col + (size_t)col * n];
    double v = util_get(a, util_idx(col, col, lda), dbl);
    util_set(a, util_idx(col, col, lda), dbl, v - schur - n);
    free(l);
}

int util_ref_info(const void *a, int dbl, char uplo, int n, int lda)
{
    double *l = lower_copy(a, dbl, uplo, n, lda);
    int info = ref_potrf(l, n, n);
    free(l);
    return info;
}

double util_eps(int dbl) { return dbl ? 0x1p-53 : 0x1p-24; }

double util_backward_error(const void *a, const void *f, int dbl, char uplo, int n, int lda)
{
    double diff = 0, norm = 0;
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            /* (F*F**T)(i, j) from the lower factor L(i,k) = stored (i,k) or (k,i) */
            double s = 0;
            for (int k = 0; k <= j; k++) s += sym(f, dbl, uplo, i, k, lda) * sym(f, dbl, uplo, j, k, lda);
            double v = sym(a, dbl, uplo, i, j, lda);
            double w = i == j ? 1.0 : 2.0; /* off-diagonals count twice in ||.||_F */
            diff += w * (v - s) * (v - s);
            norm += w * v * v;
        }
    if (n == 0) return 0;
    if (norm == 0) return diff == 0 ? 0 : INFINITY;
    double r = sqrt(diff) / (n * sqrt(norm) * util_eps(dbl));
    return isnan(r) ? INFINITY : r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double util_median(double *v, int n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int util_parse_sizes(const char *text, int *out, int max)
{
    int a, b, s, used = 0, count = 0;
    if (sscanf(text, "%d:%d:%d%n", &a, &b, &s, &used) == 3 && !text[used]) {
        if (a < 0 || b < a || s <= 0) return -1;
        for (int v = a; v <= b && count < max; v += s) out[count++] = v;
        return count;
    }
    if (sscanf(text, "%d:%d%n", &a, &b, &used) == 2 && !text[used]) {
        if (a <= 0 || b < a) return -1;
        for (long v = a; v <= b && count < max; v *= 2) out[count++] = (int)v;
        return count;
    }
    const char *p = text;
    while (*p && count < max) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 1 << 20) return -1;
        out[count++] = (int)v;
        p = end;
        if (*p == ',') p++;
        else if (*p) return -1;
    }
    return count;
}

void util_poison(void *buf, int dbl, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ULL;
        if (dbl) {
            uint64_t bits = 0x7ff8000000000000ULL | (h >> 14);
            memcpy((double *)buf + i, &bits, 8);
        } else {
            uint32_t bits = 0x7fc00000U | (uint32_t)(h >> 42);
            memcpy((float *)buf + i, &bits, 4);
        }
    }
}

int util_spd_case(void *a, int dbl, char uplo, int n, int lda, util_rng *r, int kind, long long salt)
{
    if (n == 0) return 0;
    util_spd(a, dbl, uplo, n, lda, r);
    int col = (int)((salt * 7 + 3) % n), row = col + (n - col) / 2; /* row >= col */
    int lower = uplo == 'L' || uplo == 'l';
    int i = lower ? row : col, j = lower ? col : row;
    if (kind == UTIL_NOT_SPD) util_break_at(a, dbl, uplo, n, lda, col);
    if (kind == UTIL_NAN_DIAG) util_set(a, util_idx(col, col, lda), dbl, NAN);
    if (kind == UTIL_NAN_OFFDIAG) util_set(a, util_idx(i, j, lda), dbl, NAN);
    if (kind == UTIL_INF_DIAG) util_set(a, util_idx(col, col, lda), dbl, INFINITY);
    if (kind == UTIL_INF_OFFDIAG) util_set(a, util_idx(i, j, lda), dbl, INFINITY);
    int info = util_ref_info(a, dbl, uplo, n, lda);
    /* An off-diagonal NaN or Inf on the diagonal's row (row == col) is a diagonal one. */
    if (kind != UTIL_GOOD && info == 0 && kind != UTIL_NAN_OFFDIAG && kind != UTIL_INF_OFFDIAG) return -1;
    return info;
}
