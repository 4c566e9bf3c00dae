/* The CPU peer users would otherwise run: one LAPACKE potrf per matrix in an OpenMP
 * dynamic loop over all cores, sequential BLAS inside. */
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

#endif
