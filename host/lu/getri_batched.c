/* bchol_{s,d}getri_batched: argument checks, quick returns, the path (bchol__getri_choose,
 * getri_choose.c: the one place it is chosen), then C = inv(A) from getrf's factors and
 * pivots, out of place: the solve of A*C = I (lu/getrs.cl), or dgetri's algorithm fused or
 * blocked (lu/getri.cl, getri_fused.c, getri_blocked.c). */
#include "lu/getri.h"
#include "lu/lu_solve.h"

static bchol_status getri_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                  int n, cl_mem A, int64_t offset_a, int lda, int64_t stride_a,
                                  cl_mem ipiv, int64_t offset_p, int64_t stride_p, cl_mem C,
                                  int64_t offset_c, int ldc, int64_t stride_c, int64_t batch,
                                  cl_mem info, cl_event *event)
{
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 2 (n = %d) must be >= 0", routine, n);
    if (offset_a < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_A, "%s: argument 4 (offset_a = %lld) must be >= 0",
                           routine, (long long)offset_a);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA, "%s: argument 5 (lda = %d) must be >= max(1, n) = %d",
                           routine, lda, n > 1 ? n : 1);
    if ((st = bchol__check_index_span(ctx, routine, 2, n, lda))) return st;
    if (stride_a < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument 6 (stride_a = %lld) must be >= lda*n = %lld", routine,
                           (long long)stride_a, (long long)lda * n);
    if ((st = bchol__check_pivot_args(ctx, routine, 8, n, offset_p, stride_p))) return st;
    if (offset_c < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_C, "%s: argument 11 (offset_c = %lld) must be >= 0",
                           routine, (long long)offset_c);
    if (ldc < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDC,
                           "%s: argument 12 (ldc = %d) must be >= max(1, n) = %d", routine, ldc,
                           n > 1 ? n : 1);
    if (stride_c < (int64_t)ldc * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_C,
                           "%s: argument 13 (stride_c = %lld) must be >= ldc*n = %lld", routine,
                           (long long)stride_c, (long long)ldc * n);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 14 (batch = %lld) must be >= 0",
                           routine, (long long)batch);

    /* Buffers are checked only where they will be used: info for every batch, the
     * matrices where n > 0. */
    const size_t es = bchol__elem_size(p);
    uint64_t end_a = 0, end_c = 0, pb = 0;
    if (batch > 0 && n > 0) {
        if (bchol__batch_span(offset_a, stride_a, batch, lda, n, n, &end_a) ||
            end_a > UINT64_MAX / es)
            return bchol__fail(ctx, BCHOL_ERR_A_SIZE,
                               "%s: the batch of A spans more than 2^64 bytes", routine);
        if ((st = bchol__check_buffer(ctx, routine, 3, "A", A, end_a * es, BCHOL_ERR_A,
                                      BCHOL_ERR_A_SIZE)))
            return st;
        if ((pb = bchol__pivot_bytes(n, offset_p, stride_p, batch)) == UINT64_MAX)
            return bchol__fail(ctx, BCHOL_ERR_IPIV_SIZE,
                               "%s: the batch of ipiv spans more than 2^64 bytes", routine);
        if ((st = bchol__check_buffer(ctx, routine, 7, "ipiv", ipiv, pb, BCHOL_ERR_IPIV,
                                      BCHOL_ERR_IPIV_SIZE)))
            return st;
        if (bchol__batch_span(offset_c, stride_c, batch, ldc, n, n, &end_c) ||
            end_c > UINT64_MAX / es)
            return bchol__fail(ctx, BCHOL_ERR_C_SIZE,
                               "%s: the batch of C spans more than 2^64 bytes", routine);
        if ((st = bchol__check_buffer(ctx, routine, 10, "C", C, end_c * es, BCHOL_ERR_C,
                                      BCHOL_ERR_C_SIZE)))
            return st;
    }
    if (batch > 0) {
        if ((st = bchol__check_buffer(ctx, routine, 15, "info", info, bchol__info_bytes(batch),
                                      BCHOL_ERR_INFO, BCHOL_ERR_INFO_SIZE)))
            return st;
        /* C is only written; it must share no byte with A, ipiv or info. */
        const int m = n > 0;
        const bchol_buffer_use uses[] = {
            {3, "A", m ? A : NULL, (uint64_t)offset_a * es, end_a * es, BCHOL__READ, BCHOL_ERR_A},
            {7, "ipiv", m ? ipiv : NULL, (uint64_t)offset_p * sizeof(cl_int), pb, BCHOL__READ,
             BCHOL_ERR_IPIV},
            {10, "C", m ? C : NULL, (uint64_t)offset_c * es, end_c * es, BCHOL__WRITE, BCHOL_ERR_C},
            {15, "info", info, 0, bchol__info_bytes(batch), BCHOL__WRITE, BCHOL_ERR_INFO}};
        if ((st = bchol__check_buffer_uses(ctx, routine, uses, 4))) return st;
    }
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;

    /* the path, and the solve's plan, before anything is enqueued */
    bchol_getri_choice choice = {0};
    bchol_lu_solve_plan plan;
    if (n > 0 && (st = bchol__getri_choose(ctx, routine, p, n, &choice))) return st;
    if (n > 0 && choice.path == BCHOL_GETRI_SOLVE &&
        (st = bchol__lu_solve_plan(ctx, p, 0, 1, n, n, &plan)))
        return st;
    bchol_call call;
    bchol__call_begin(&call, ctx);
    if (n == 0)
        st = bchol__fill_int(&call, info, 0, batch);
    else if (choice.path == BCHOL_GETRI_SOLVE)
        st = bchol__getri_enqueue(&call, &plan, A, offset_a, lda, stride_a, ipiv, offset_p,
                                  stride_p, C, offset_c, ldc, stride_c, batch, info);
    else if (choice.path == BCHOL_GETRI_FUSED)
        st = bchol__getri_fused(&call, p, n, A, offset_a, lda, stride_a, ipiv, offset_p, stride_p,
                                C, offset_c, ldc, stride_c, batch, info);
    else
        st = bchol__getri_blocked(&call, p, &choice, n, A, offset_a, lda, stride_a, ipiv,
                                  offset_p, stride_p, C, offset_c, ldc, stride_c, batch, info);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sgetri_batched(bchol_context *ctx, int n, cl_mem A, int64_t offset_a, int lda,
                                  int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, cl_mem C, int64_t offset_c, int ldc,
                                  int64_t stride_c, int64_t batch, cl_mem info, cl_event *event)
{
    return getri_batched(ctx, "bchol_sgetri_batched", BCHOL_S, n, A, offset_a, lda, stride_a, ipiv,
                         offset_p, stride_p, C, offset_c, ldc, stride_c, batch, info, event);
}

bchol_status bchol_dgetri_batched(bchol_context *ctx, int n, cl_mem A, int64_t offset_a, int lda,
                                  int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, cl_mem C, int64_t offset_c, int ldc,
                                  int64_t stride_c, int64_t batch, cl_mem info, cl_event *event)
{
    return getri_batched(ctx, "bchol_dgetri_batched", BCHOL_D, n, A, offset_a, lda, stride_a, ipiv,
                         offset_p, stride_p, C, offset_c, ldc, stride_c, batch, info, event);
}
