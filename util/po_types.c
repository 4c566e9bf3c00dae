#include "po_types.h"

#include <math.h>
#include <stdlib.h>

const char *util_po_type_name(int type) {
    static const char *const names[] = {"?",         "diagonal",    "random",   "zero-first",
                                        "zero-last", "zero-middle", "ill-sqrt", "ill-0.1/eps",
                                        "underflow", "overflow"};
    return type >= 1 && type <= UTIL_PO_TYPES ? names[type] : names[0];
}

int util_po_type_min_n(int type) {
    return type >= UTIL_PO_ZERO_FIRST && type <= UTIL_PO_ZERO_MIDDLE ? type - 2 : 0;
}

/* m = H*m*H with H = I - 2*v*v**T / (v**T*v) for a random v: one random reflection. */
static void reflect(double *m, int n, util_rng *r) {
    double *v = malloc(2 * (size_t)n * sizeof *v), *w = v + n, vv = 0, vw = 0;
    if (!v) abort();
    for (int i = 0; i < n; i++) {
        v[i] = util_rng_uniform(r);
        vv += v[i] * v[i];
    }
    if (vv == 0) {
        free(v);
        return;
    }
    for (int i = 0; i < n; i++)
        v[i] /= sqrt(vv);
    /* H*M*H = M - 2*v*w**T - 2*w*v**T + 4*(v**T*w)*v*v**T with w = M*v (M symmetric) */
    for (int i = 0; i < n; i++) {
        w[i] = 0;
        for (int j = 0; j < n; j++)
            w[i] += m[i + (size_t)j * n] * v[j];
        vw += v[i] * w[i];
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            m[i + (size_t)j * n] += -2 * v[i] * w[j] - 2 * w[i] * v[j] + 4 * vw * v[i] * v[j];
    free(v);
}

int util_po_matrix(int type, void *a, int dbl, char uplo, int n, int lda, util_rng *r) {
    /* dlatb4's constants for the PO types */
    const double eps = dbl ? 0x1p-52 : 0x1p-23; /* dlamch('P') */
    const double safmin = dbl ? 0x1p-1022 : 0x1p-126;
    const double small = 0.25 * safmin / eps, large = 1 / small;
    const double badc2 = 0.1 / eps, badc1 = sqrt(badc2);
    double cond = 2, anorm = 1;
    if (type == UTIL_PO_ILL_SQRT) cond = badc1;
    if (type == UTIL_PO_ILL) cond = badc2;
    if (type == UTIL_PO_SMALL) anorm = small;
    if (type == UTIL_PO_LARGE) anorm = large;
    if (n == 0) return 0;

    double *m = calloc((size_t)n * (size_t)n, sizeof *m);
    if (!m) abort();
    /* dlatm1 mode 3: d(i) = cond**(-(i-1)/(n-1)) */
    for (int i = 0; i < n; i++)
        m[i + (size_t)i * n] = n > 1 ? pow(cond, -(double)i / (n - 1)) : 1;
    if (type != UTIL_PO_DIAGONAL)
        for (int k = 0; k < n; k++)
            reflect(m, n, r);
    double mmax = 0;
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
        if (fabs(m[i]) > mmax) mmax = fabs(m[i]);
    int izero = 0;
    if (type == UTIL_PO_ZERO_FIRST) izero = 1;
    if (type == UTIL_PO_ZERO_LAST) izero = n;
    if (type == UTIL_PO_ZERO_MIDDLE) izero = n / 2 + 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (!util_in_triangle(uplo, i, j)) continue;
            /* symmetric to rounding: take the lower element for both triangles */
            double v = i >= j ? m[i + (size_t)j * n] : m[j + (size_t)i * n];
            /* scaled in two steps, so that neither overflows nor underflows on the way */
            v = (v / mmax) * anorm;
            if (izero && (i == izero - 1 || j == izero - 1)) v = 0;
            util_set(a, util_idx(i, j, lda), dbl, v);
        }
    free(m);
    return izero;
}
