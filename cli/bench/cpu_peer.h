/* The CPU peer users would otherwise run: one LAPACKE call (potrf, potrs, posv, getrf,
 * getrs, gesv, getri) per matrix in an OpenMP dynamic loop over all cores, sequential BLAS
 * inside. */
#ifndef BCHOL_CPU_PEER_H
#define BCHOL_CPU_PEER_H

#include <stdint.h>

/* 1 if bchol was built with LAPACKE and OpenMP. */
int cpu_peer_available(void);
/* Threads the peer uses. */
int cpu_peer_threads(void);
/* Factors the batch in place (matrix b at A + b*stride); info[b] as LAPACK. Returns
 * the wall time in milliseconds. */
double cpu_peer_potrf(int dbl, char uplo, int n, void *A, int lda, int64_t stride,
                      int64_t batch, int *info);
/* Variable sizes: factors matrix b of order n[b] at A + offset[b] (elements, leading
 * dimension lda[b]) in place; info[b] as LAPACK. Returns the wall time in milliseconds. */
double cpu_peer_potrf_vbatched(int dbl, char uplo, const int *n, const int *lda,
                               const int64_t *offset, void *A, int64_t batch, int *info);

/* Solves A*X = B per matrix with LAPACKE ?potrs on the factors in A (matrix b at
 * A + b*stride_a, its right-hand sides at B + b*stride_b); returns the wall time in
 * milliseconds. */
double cpu_peer_potrs(int dbl, char uplo, int n, int nrhs, const void *A, int lda,
                      int64_t stride_a, void *B, int ldb, int64_t stride_b, int64_t batch);
/* Factors and solves per matrix with LAPACKE ?posv; info[b] as LAPACK. Returns the wall
 * time in milliseconds. */
double cpu_peer_posv(int dbl, char uplo, int n, int nrhs, void *A, int lda, int64_t stride_a,
                     void *B, int ldb, int64_t stride_b, int64_t batch, int *info);

/* Variable sizes (bench --solve --vbatched): LAPACKE ?posv per matrix, matrix b of order
 * n[b] at A + offsets_a[b] (leading dimension n[b]) and its nrhs[b] right-hand sides at
 * B + offsets_b[b] (leading dimension n[b]); info[b] as LAPACK. Returns milliseconds. */
double cpu_peer_posv_vbatched(int dbl, char uplo, const int *n, const int *nrhs, void *A,
                              const int64_t *offsets_a, void *B, const int64_t *offsets_b,
                              int64_t batch, int *info);

/* LU (bench --routine), one matrix per iteration as above; ipiv 1-based, n per matrix at
 * ipiv + b*stride_p (int32: LAPACKE's lapack_int must be int). Each returns the wall time
 * in milliseconds. ?getrf in place; info[b] as LAPACK. */
double cpu_peer_getrf(int dbl, int n, void *A, int lda, int64_t stride_a, int *ipiv,
                      int64_t stride_p, int64_t batch, int *info);
/* ?getrs (trans 'N' or 'T') with the factors and pivots of getrf; B overwritten by X. */
double cpu_peer_getrs(int dbl, char trans, int n, int nrhs, const void *A, int lda,
                      int64_t stride_a, const int *ipiv, int64_t stride_p, void *B, int ldb,
                      int64_t stride_b, int64_t batch);
/* ?gesv: factor and solve; info[b] as LAPACK. */
double cpu_peer_gesv(int dbl, int n, int nrhs, void *A, int lda, int64_t stride_a, int *ipiv,
                     int64_t stride_p, void *B, int ldb, int64_t stride_b, int64_t batch,
                     int *info);
/* The inverse in place: ?getrf then ?getri per matrix (the peer of bchol's getrf +
 * getri); info[b] from getrf, or getri's where getrf's was 0. */
double cpu_peer_getrf_getri(int dbl, int n, void *A, int lda, int64_t stride_a, int *ipiv,
                            int64_t stride_p, int64_t batch, int *info);

#endif
