#include "bchol_util.h"
#include "options.h"

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
            /* rows of G are contiguous: (G*G**T)(i,j) is a dot product of rows i and j */
            for (int k = 0; k < n; k++) s += g[k + (size_t)i * n] * g[k + (size_t)j * n];
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

/* The lower triangle of the symmetric matrix at a as dense double rows: row i of L is
 * contiguous, so each entry of L*L**T is one dot product. */
static double *lower_rows(const void *a, int dbl, char uplo, int n, int lda)
{
    double *r = calloc((size_t)n * (size_t)n + 1, sizeof *r);
    if (!r) abort();
    for (int i = 0; i < n; i++)
        for (int k = 0; k <= i; k++) r[(size_t)i * n + k] = sym(a, dbl, uplo, i, k, lda);
    return r;
}

double util_backward_error(const void *a, const void *f, int dbl, char uplo, int n, int lda)
{
    if (n == 0) return 0;
    double *l = lower_rows(f, dbl, uplo, n, lda), *s = lower_rows(a, dbl, uplo, n, lda);
    /* Scaled by an even power of two, 2^-e for A and 2^(-e/2) for F (both exact), so that
     * the squares in the norms neither underflow nor overflow for matrices scaled near
     * the ends of the range (LAPACK's PO types 8 and 9); the ratio is unchanged. */
    double amax = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double v = fabs(s[(size_t)i * n + j]);
            if (v > amax) amax = v;
        }
    int e = 0;
    if (amax > 0 && isfinite(amax)) frexp(amax, &e);
    e -= e & 1;
    const double sa = ldexp(1.0, -e), sf = ldexp(1.0, -e / 2);
    for (size_t k = 0; k < (size_t)n * (size_t)n; k++) {
        l[k] *= sf;
        s[k] *= sa;
    }
    double diff = 0, norm = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            /* (F*F**T)(i, j) = L(i, 0:j) . L(j, 0:j) */
            const double *li = l + (size_t)i * n, *lj = l + (size_t)j * n;
            double d = 0;
            for (int k = 0; k <= j; k++) d += li[k] * lj[k];
            double v = s[(size_t)i * n + j];
            double w = i == j ? 1.0 : 2.0; /* off-diagonals count twice in ||.||_F */
            diff += w * (v - d) * (v - d);
            norm += w * v * v;
        }
    free(l);
    free(s);
    if (norm == 0) return diff == 0 ? 0 : INFINITY;
    double r = sqrt(diff) / (n * sqrt(norm) * util_eps(dbl));
    return isnan(r) ? INFINITY : r;
}

void util_poison(void *a, int dbl, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ULL;
        const int finite = (h >> 62) == 0;
        if (dbl) {
            uint64_t bits = finite ? 0x3fe8000000000000ULL | (h >> 24) : 0x7ff8000000000000ULL | (h >> 14);
            memcpy((double *)a + i, &bits, 8);
        } else {
            uint32_t bits = finite ? 0x3f400000U | (uint32_t)(h >> 50) : 0x7fc00000U | (uint32_t)(h >> 42);
            memcpy((float *)a + i, &bits, 4);
        }
    }
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
    const char *why;
    return opt_parse_list(text, 0, 1 << 20, out, max, &why);
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

static struct {
    int saved, set;
    char *value;
} icd_env;

void util_icd_env_save(void)
{
    const char *v = getenv("OCL_ICD_FILENAMES");
    icd_env.saved = 1;
    icd_env.set = v != NULL;
    icd_env.value = v ? strdup(v) : NULL;
}

void util_icd_env_restore(void)
{
    if (!icd_env.saved) return;
    if (icd_env.set && icd_env.value)
        setenv("OCL_ICD_FILENAMES", icd_env.value, 1);
    else if (!icd_env.set)
        unsetenv("OCL_ICD_FILENAMES");
}
