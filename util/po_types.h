/* LAPACK's test matrix types for the PO (Cholesky) routines, made as dchkpo makes them
 * through dlatb4 and dlatms: A = Q*D*Q**T with Q a random orthogonal matrix and D
 * geometric from 1 to 1/cond (dlatms mode 3), scaled so that max |a(i,j)| = anorm. */
#ifndef BCHOL_PO_TYPES_H
#define BCHOL_PO_TYPES_H

#include "bchol_util.h"

enum {
    UTIL_PO_DIAGONAL = 1, /* D alone, cond = 2 */
    UTIL_PO_RANDOM,       /* cond = 2 */
    UTIL_PO_ZERO_FIRST,   /* type 2, row and column 1 set to zero: info = 1 */
    UTIL_PO_ZERO_LAST,    /* ... column n: info = n */
    UTIL_PO_ZERO_MIDDLE,  /* ... column n/2+1: info = n/2+1 */
    UTIL_PO_ILL_SQRT,     /* cond = sqrt(0.1/eps) */
    UTIL_PO_ILL,          /* cond = 0.1/eps */
    UTIL_PO_SMALL,        /* type 2 with anorm = 0.25*safmin/eps, near underflow */
    UTIL_PO_LARGE,        /* type 2 with anorm = 1/that, near overflow */
    UTIL_PO_TYPES = UTIL_PO_LARGE
};

/* A short name of the type ("zero-middle", "ill-0.1/eps", ...). */
const char *util_po_type_name(int type);

/* Smallest n LAPACK makes the type for (a zeroed column must exist: 1, 2, 3). */
int util_po_type_min_n(int type);

/* Writes the stored triangle of an n-by-n matrix of the type (1..UTIL_PO_TYPES) in
 * float (dbl = 0) or double, and returns the info a Cholesky factorization must give:
 * 0, or the zeroed column (1-based). eps is LAPACK's dlamch('P') of the precision. */
int util_po_matrix(int type, void *a, int dbl, char uplo, int n, int lda, util_rng *r);

#endif
