/* Adapter to CLBlast's strided-batched GEMM, used by the separate variant's trailing
 * update when bchol is built with CLBlast (CMake option BCHOL_WITH_CLBLAST). */
#ifndef BCHOL_CLBLAST_GEMM_H
#define BCHOL_CLBLAST_GEMM_H

#include "core/core.h"

/* 1 if this bchol was built with CLBlast. */
int bchol__clblast_available(void);

/* One operand of a strided batch: matrix b at element offset + b*stride, column-major. */
typedef struct {
    cl_mem buffer;
    uint64_t offset, stride;
    int ld;
} bchol_gemm_operand;

/*
 * C_b = alpha * op(A_b) * op(B_b) + beta * C_b for b < batch, op(X) = X or X**T as
 * trans_x is 'N' or 'T'; C_b is m-by-n, the inner order k. Enqueued on the call's queue
 * (in pieces where the batch exceeds CLBlast's grid); each event joins the call. CLBlast's
 * statuses map to bchol's: OpenCL codes as bchol__status_of_cl, CLBlast's "no double
 * precision" to BCHOL_ERR_NO_FP64, its local-memory shortage to BCHOL_ERR_RESOURCES, the
 * rest to BCHOL_ERR_OPENCL with CLBlast's code in the message.
 */
bchol_status bchol__clblast_gemm(bchol_call *call, bchol_precision p, char trans_a, char trans_b,
                                 int m, int n, int k, double alpha, const bchol_gemm_operand *A,
                                 const bchol_gemm_operand *B, double beta,
                                 const bchol_gemm_operand *C, int64_t batch);

/* Drops CLBlast's cached programs (process-wide: CLBlast has no per-context release), so
 * that a destroyed context leaves no OpenCL object behind. Called by
 * bchol_context_destroy for contexts that used CLBlast. */
void bchol__clblast_release(void);

#endif
