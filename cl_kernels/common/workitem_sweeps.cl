/* The triangular sweeps of the workitem solves (chol/potrs_workitem.cl, lu/getrs_workitem.cl):
 * one work-item solves nr columns of B in place with a triangle stored by columns, each
 * step along one contiguous column of the factor as vectors of VW (common/vector.cl) and a
 * scalar tail, so that no access leaves the rows a step needs.
 *
 * Each sweep is a statement for a function that has in scope: Ab, lda (the factor), Bb, ldb
 * (B's first column of the pass), n, and REAL s[nr]. d_j is the diagonal element T(j,j),
 * taken as 1 where unit is set (LU's L: its diagonal is not stored):
 *   FORWARD_AXPY   T lower, T Y = B:      y_j = b_j / d_j;  b(j+1:n) -= y_j T(j+1:n, j)
 *   BACKWARD_DOT   T lower, T**T X = Y:   x_j = (y_j - T(j+1:n, j) . x(j+1:n)) / d_j
 *   FORWARD_DOT    T upper, T**T Y = B:   y_j = (b_j - T(0:j, j) . y(0:j)) / d_j
 *   BACKWARD_AXPY  T upper, T X = Y:      x_j = y_j / d_j;  b(0:j) -= x_j T(0:j, j)
 * A zero d_j divides (Inf, NaN) as the substitution kernels do: the solves never check. */
#ifndef BCHOL_WORKITEM_SWEEPS_CL
#define BCHOL_WORKITEM_SWEEPS_CL

/* x(c)(i0:i1) -= s(c) * col(i0:i1) for nr columns x of B: the axpy step. */
#define AXPY_STEP(nr)                                                                          \
    {                                                                                          \
        int i = i0;                                                                            \
        for (; i + VW <= i1; i += VW) {                                                        \
            const REALV l = VLOAD(col + i);                                                    \
            PRAGMA_UNROLL                                                                      \
            for (int c = 0; c < (nr); c++) {                                                   \
                __global REAL *p = Bb + i + (size_t)c * ldb;                                   \
                VSTORE(fma(-(REALV)s[c], l, VLOAD(p)), p);                                     \
            }                                                                                  \
        }                                                                                      \
        for (; i < i1; i++) {                                                                  \
            const REAL l = col[i];                                                             \
            PRAGMA_UNROLL                                                                      \
            for (int c = 0; c < (nr); c++) Bb[i + (size_t)c * ldb] -= s[c] * l;                \
        }                                                                                      \
    }

/* s(c) = col(i0:i1) . x(c)(i0:i1) for nr columns of B: the dot step. */
#define DOT_STEP(nr)                                                                           \
    {                                                                                          \
        REALV acc[nr];                                                                         \
        PRAGMA_UNROLL                                                                          \
        for (int c = 0; c < (nr); c++) {                                                       \
            acc[c] = (REALV)0;                                                                 \
            s[c] = (REAL)0;                                                                    \
        }                                                                                      \
        int i = i0;                                                                            \
        for (; i + VW <= i1; i += VW) {                                                        \
            const REALV l = VLOAD(col + i);                                                    \
            PRAGMA_UNROLL                                                                      \
            for (int c = 0; c < (nr); c++)                                                     \
                acc[c] = fma(l, VLOAD(Bb + i + (size_t)c * ldb), acc[c]);                      \
        }                                                                                      \
        for (; i < i1; i++) {                                                                  \
            const REAL l = col[i];                                                             \
            PRAGMA_UNROLL                                                                      \
            for (int c = 0; c < (nr); c++) s[c] = mad(l, Bb[i + (size_t)c * ldb], s[c]);       \
        }                                                                                      \
        PRAGMA_UNROLL                                                                          \
        for (int c = 0; c < (nr); c++) s[c] += hsum(acc[c]);                                   \
    }

/* b_j (all nr columns) divided by d_j unless unit; s(c) = the result. */
#define TAKE_PIVOT_ROW(nr, unit)                                                               \
    {                                                                                          \
        const REAL d = col[j];                                                                 \
        PRAGMA_UNROLL                                                                          \
        for (int c = 0; c < (nr); c++) {                                                       \
            __global REAL *p = Bb + j + (size_t)c * ldb;                                       \
            s[c] = (unit) ? *p : *p / d;                                                       \
            if (!(unit)) *p = s[c];                                                            \
        }                                                                                      \
    }

/* b_j = (b_j - s(c)) [/ d_j] for the nr columns: the end of a dot step. */
#define FINISH_DOT_ROW(nr, unit)                                                               \
    {                                                                                          \
        const REAL d = col[j];                                                                 \
        PRAGMA_UNROLL                                                                          \
        for (int c = 0; c < (nr); c++) {                                                       \
            __global REAL *p = Bb + j + (size_t)c * ldb;                                       \
            *p = (unit) ? *p - s[c] : (*p - s[c]) / d;                                         \
        }                                                                                      \
    }

#define FORWARD_AXPY(nr, unit)                                                                 \
    for (int j = 0; j < n; j++) {                                                              \
        __global const REAL *col = Ab + (size_t)j * lda;                                       \
        TAKE_PIVOT_ROW(nr, unit)                                                               \
        const int i0 = j + 1, i1 = n;                                                          \
        AXPY_STEP(nr)                                                                          \
    }

#define BACKWARD_DOT(nr, unit)                                                                 \
    for (int j = n - 1; j >= 0; j--) {                                                         \
        __global const REAL *col = Ab + (size_t)j * lda;                                       \
        const int i0 = j + 1, i1 = n;                                                          \
        DOT_STEP(nr)                                                                           \
        FINISH_DOT_ROW(nr, unit)                                                               \
    }

#define FORWARD_DOT(nr, unit)                                                                  \
    for (int j = 0; j < n; j++) {                                                              \
        __global const REAL *col = Ab + (size_t)j * lda;                                       \
        const int i0 = 0, i1 = j;                                                              \
        DOT_STEP(nr)                                                                           \
        FINISH_DOT_ROW(nr, unit)                                                               \
    }

#define BACKWARD_AXPY(nr, unit)                                                                \
    for (int j = n - 1; j >= 0; j--) {                                                         \
        __global const REAL *col = Ab + (size_t)j * lda;                                       \
        TAKE_PIVOT_ROW(nr, unit)                                                               \
        const int i0 = 0, i1 = j;                                                              \
        AXPY_STEP(nr)                                                                          \
    }

#endif
