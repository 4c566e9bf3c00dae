/* bchol's own batched GEMM (cl_kernels/blas/gemm_batched.cl): C = alpha*A*B + beta*C over
 * a strided batch, column-major, no transposes. The blocked LU's trailing update runs on
 * it where CLBlast is not used. Factorization-neutral. Never installed. */
#ifndef BCHOL_GEMM_BATCHED_H
#define BCHOL_GEMM_BATCHED_H

#include "blas/clblast_gemm.h" /* bchol_gemm_operand */

/*
 * C_b = alpha * A_b * B_b + beta * C_b for b < batch; C_b m-by-n, the inner order k;
 * m, n, k > 0, batch > 0. Tiles of 64 x 64 over up to 256 work-items (fewer, with more
 * results each, where the built kernel takes fewer); launches split to the grid's
 * limits. Builds on first use (per context and precision).
 */
bchol_status bchol__gemm_batched(bchol_call *call, bchol_precision p, int m, int n, int k,
                                 double alpha, const bchol_gemm_operand *A,
                                 const bchol_gemm_operand *B, double beta,
                                 const bchol_gemm_operand *C, int64_t batch);

#endif
