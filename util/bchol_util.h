/* Helpers shared by the tests and the bchol command: random SPD matrices, the backward
 * error of a factor, a reference factorization for info, medians, size lists. */
#ifndef BCHOL_UTIL_H
#define BCHOL_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Reproducible random numbers (splitmix64). */
typedef struct { uint64_t s; } util_rng;
void util_rng_seed(util_rng *r, uint64_t seed);
uint64_t util_rng_next(util_rng *r);
double util_rng_uniform(util_rng *r); /* in [-1, 1) */

/* Element i of a float (dbl = 0) or double (dbl = 1) array, as double. */
static inline double util_get(const void *a, size_t i, int dbl)
{
    return dbl ? ((const double *)a)[i] : (double)((const float *)a)[i];
}
static inline void util_set(void *a, size_t i, int dbl, double v)
{
    if (dbl)
        ((double *)a)[i] = v;
    else
        ((float *)a)[i] = (float)v;
}

/* Index of element (i, j) of a column-major matrix. */
static inline size_t util_idx(int i, int j, int ld) { return (size_t)i + (size_t)j * (size_t)ld; }

/* 1 if (i, j) lies in the stored triangle ('L': i >= j, 'U': i <= j). */
static inline int util_in_triangle(char uplo, int i, int j)
{
    return (uplo == 'U' || uplo == 'u') ? i <= j : i >= j;
}

/*
 * A random well-conditioned SPD matrix, G*G**T/n + I with G uniform in [-1, 1): writes
 * only the stored triangle of the n-by-n matrix at a (leading dimension lda).
 */
void util_spd(void *a, int dbl, char uplo, int n, int lda, util_rng *r);

/* A cheap SPD matrix for benchmarks: symmetric uniform in [-1, 1) plus n on the diagonal
 * (diagonally dominant); writes the whole n-by-n matrix. */
void util_spd_fast(void *a, int dbl, int n, int lda, util_rng *r);

/*
 * Makes the SPD matrix at a fail at pivot col (0-based): lowers a(col,col) so that the
 * Schur complement there is -n. Leading minors of order <= col stay positive definite.
 */
void util_break_at(void *a, int dbl, char uplo, int n, int lda, int col);

/* Unblocked Cholesky in double precision of a copy of the stored triangle, with bchol's
 * pivot rule; returns info (0, or the 1-based failing column). */
int util_ref_info(const void *a, int dbl, char uplo, int n, int lda);

/* ||A - F*F**T||_F / (n * ||A||_F * eps) of one matrix, A and F sharing lda; F is the
 * stored triangle of the factor. eps is LAPACK's (2^-24 or 2^-53). */
double util_backward_error(const void *a, const void *f, int dbl, char uplo, int n, int lda);
double util_eps(int dbl);

/* Fills count float (dbl = 0) or double elements with NaNs whose payload depends on the
 * position, so that a misplaced write shows when compared bit for bit; one element in four
 * is instead a finite value near 1 (position in its low bits), since a read-modify-write
 * such as x -= y carries a NaN through unchanged. */
void util_poison(void *a, int dbl, size_t count);

/* Inputs of the info tests: a good SPD matrix, or one broken in one way. */
enum { UTIL_GOOD, UTIL_NOT_SPD, UTIL_NAN_DIAG, UTIL_NAN_OFFDIAG, UTIL_INF_DIAG, UTIL_INF_OFFDIAG,
       UTIL_KINDS };

/*
 * Writes the stored triangle of a random SPD matrix (util_spd) and breaks it as kind says,
 * at a column that depends on salt (e.g. the matrix index). Returns the info bchol must
 * report (util_ref_info), or -1 if a kind that must fail did not (a setup error).
 */
int util_spd_case(void *a, int dbl, char uplo, int n, int lda, util_rng *r, int kind, long long salt);

/* Median of v[0..n-1] (sorts v). */
double util_median(double *v, int n);

/*
 * Parses a list of sizes in [0, 2^20]: "a,b,c", "a:b" (a, 2a, 4a, ... up to b) or "a:b:s"
 * (step s). Returns the count or -1 if malformed, out of range or longer than max (the
 * command's options go through options.h, which says which).
 */
int util_parse_sizes(const char *text, int *out, int max);

/* ---- solves (util_solve.c) ---- */

/* Overwrites the stored triangle of the SPD matrix at a with its Cholesky factor (L for
 * 'L', U = L**T for 'U'), computed in double; returns info as LAPACK (a unchanged then). */
int util_ref_factor(void *a, int dbl, char uplo, int n, int lda);

/* ||A*X - B||_F / (||A||_F * ||X||_F * n * eps) for the n-by-nrhs X and B, A symmetric
 * from its stored triangle; computed in double. */
double util_solve_residual(const void *a, int dbl, char uplo, int n, int lda, int nrhs,
                           const void *x, int ldx, const void *b, int ldb);

/* Fills a rows-by-cols block (leading dimension ld) with uniform values in [-1, 1). */
void util_fill_uniform(void *a, int dbl, int rows, int cols, int ld, util_rng *r);

/* ---- LU (util_lu.c): LAPACK's xGET01-03 ratios in 1-norms, computed in double; a general
 * random matrix is util_fill_uniform's ---- */

/* ||P*A - L*U||_1 / (n * ||A||_1 * eps) of one n-by-n matrix: A and its factors F (unit L
 * below the diagonal, U on and above, as getrf leaves them) share lda; ipiv 1-based. A
 * pivot outside [1, n] gives infinity. */
double util_lu_residual(const void *a, const void *f, const int *ipiv, int dbl, int n, int lda);

/* ||B - op(A)*X||_1 / (||op(A)||_1 * ||X||_1 * eps) for the n-by-nrhs X and B; op(A) = A
 * (trans 'N') or A**T ('T'). */
double util_lu_solve_residual(const void *a, int dbl, char trans, int n, int lda, int nrhs,
                              const void *x, int ldx, const void *b, int ldb);

/* ||I - A*C||_1 / (n * ||A||_1 * ||C||_1 * eps) for C an inverse of the n-by-n A. */
double util_inv_residual(const void *a, const void *c, int dbl, int n, int lda, int ldc);

/* ---- variable-size batches (vbatched.c) ---------------------------------------------- */

typedef enum {
    UTIL_DIST_UNIFORM,  /* uniform in [1, nmax] */
    UTIL_DIST_GAUSSIAN, /* normal, mean nmax/2, standard deviation nmax/6, clipped to [1, nmax] */
    UTIL_DIST_MIX       /* n = 0 or 1 a quarter of the time each, else uniform in [1, nmax] */
} util_dist;

/* Parses "uniform", "gaussian" or "mix"; returns -1 otherwise. */
int util_parse_dist(const char *text);
const char *util_dist_name(util_dist dist);

/* A random order from the distribution. */
int util_random_order(util_dist dist, int nmax, util_rng *r);

/*
 * Lays batch matrices of orders n[] and leading dimensions lda[] out one after the other
 * from element first: offsets[b] is where matrix b starts, each followed by a gap of
 * 0..max_gap elements (random when r is not NULL, else max_gap). Returns the elements used.
 */
int64_t util_pack(const int *n, const int *lda, int64_t batch, int64_t first, int max_gap,
                  util_rng *r, int64_t *offsets);

/* PoCL 5 (the GPU machine's, 2026-11-24) rewrites OCL_ICD_FILENAMES in its process when it
 * initializes, keeping only itself: there the variable lists PoCL and NVIDIA's ICD, and every
 * process started after the first OpenCL call (the tuner's build processes, the tests' runs
 * of bchol) saw PoCL alone. Save the variable first thing in main; restore it before
 * starting a process (in the parent before posix_spawn, or in a forked child before exec). */
void util_icd_env_save(void);
void util_icd_env_restore(void);

/* Flops of the Cholesky factorization of order n, n^3/3 (as for the fixed size). */
static inline double util_potrf_flops(int n) { return (double)n * n * n / 3.0; }

/* The batch bchol bench times at order n, and bchol tune by default. */
static inline long long util_bench_batch(int n) { return n <= 64 ? 16384 : n <= 256 ? 3000 : 1000; }

/* batch cut so that two copies of it, matrices of per bytes (0: any batch), fit a device of
 * these sizes: each copy within one allocation, both within half the memory (bench and tune
 * keep the batch and a pristine copy). */
static inline long long util_fit_batch(long long batch, uint64_t per, uint64_t max_alloc, uint64_t global_mem)
{
    /* divided, not multiplied: batch * per wrapped for --batch 2^58 and passed the cap */
    if (per && (uint64_t)batch > max_alloc / per) batch = (long long)(max_alloc / per);
    if (per && (uint64_t)batch > global_mem / 4 / per) batch = (long long)(global_mem / 4 / per);
    return batch;
}

#endif
