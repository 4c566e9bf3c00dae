/* Adapter to CLBlast's strided-batched GEMM (see clblast_gemm.h). Without CLBlast the
 * adapter reports itself unavailable and the dispatcher never calls it. */
#include "blas/clblast_gemm.h"

#ifdef BCHOL_HAVE_CLBLAST
#include <clblast_c.h>

/* CLBlast's batched kernels put the batch in the third NDRange dimension, which NVIDIA
 * limits to 65535. */
#define CLBLAST_MAX_BATCH 65535

int bchol__clblast_available(void) { return 1; }

static bchol_status status_of(bchol_context *ctx, CLBlastStatusCode code)
{
    if (code > -1000) return bchol__fail_cl(ctx, (cl_int)code, "CLBlast GEMM");
    if (code == CLBlastNoDoublePrecision)
        return bchol__fail(ctx, BCHOL_ERR_NO_FP64, "CLBlast GEMM: the device has no double precision");
    if (code == CLBlastInvalidLocalMemUsage)
        return bchol__fail(ctx, BCHOL_ERR_RESOURCES, "CLBlast GEMM: not enough local memory (CLBlast status %d)",
                           (int)code);
    return bchol__fail(ctx, BCHOL_ERR_OPENCL, "CLBlast GEMM failed with CLBlast status %d", (int)code);
}

bchol_status bchol__clblast_gemm(bchol_call *call, bchol_precision p, char trans_a, char trans_b,
                                 int m, int n, int k, double alpha, const bchol_gemm_operand *A,
                                 const bchol_gemm_operand *B, double beta,
                                 const bchol_gemm_operand *C, int64_t batch)
{
    bchol_context *ctx = call->ctx;
    const CLBlastTranspose ta = trans_a == 'T' ? CLBlastTransposeYes : CLBlastTransposeNo;
    const CLBlastTranspose tb = trans_b == 'T' ? CLBlastTransposeYes : CLBlastTransposeNo;
    ctx->release_clblast = bchol__clblast_release;
    for (int64_t b0 = 0; b0 < batch; b0 += CLBLAST_MAX_BATCH) {
        const size_t count = (size_t)(batch - b0 < CLBLAST_MAX_BATCH ? batch - b0 : CLBLAST_MAX_BATCH);
        const size_t ao = (size_t)(A->offset + (uint64_t)b0 * A->stride);
        const size_t bo = (size_t)(B->offset + (uint64_t)b0 * B->stride);
        const size_t co = (size_t)(C->offset + (uint64_t)b0 * C->stride);
        cl_event ev = NULL;
        CLBlastStatusCode code;
        if (p == BCHOL_D)
            code = CLBlastDgemmStridedBatched(CLBlastLayoutColMajor, ta, tb, (size_t)m, (size_t)n, (size_t)k,
                                              alpha, A->buffer, ao, (size_t)A->ld, (size_t)A->stride,
                                              B->buffer, bo, (size_t)B->ld, (size_t)B->stride, beta,
                                              C->buffer, co, (size_t)C->ld, (size_t)C->stride, count,
                                              &ctx->queue, &ev);
        else
            code = CLBlastSgemmStridedBatched(CLBlastLayoutColMajor, ta, tb, (size_t)m, (size_t)n, (size_t)k,
                                              (float)alpha, A->buffer, ao, (size_t)A->ld, (size_t)A->stride,
                                              B->buffer, bo, (size_t)B->ld, (size_t)B->stride, (float)beta,
                                              C->buffer, co, (size_t)C->ld, (size_t)C->stride, count,
                                              &ctx->queue, &ev);
        if (code != CLBlastSuccess) {
            if (ev) clReleaseEvent(ev);
            return status_of(ctx, code);
        }
        if (ev) bchol__call_add_event(call, ev);
    }
    return BCHOL_SUCCESS;
}

void bchol__clblast_release(void) { CLBlastClearCache(); }
#else

int bchol__clblast_available(void) { return 0; }

bchol_status bchol__clblast_gemm(bchol_call *call, bchol_precision p, char trans_a, char trans_b,
                                 int m, int n, int k, double alpha, const bchol_gemm_operand *A,
                                 const bchol_gemm_operand *B, double beta,
                                 const bchol_gemm_operand *C, int64_t batch)
{
    return bchol__fail(call->ctx, BCHOL_ERR_ARGUMENT, "CLBlast GEMM: this bchol was built without CLBlast");
}

void bchol__clblast_release(void) {}

#endif
