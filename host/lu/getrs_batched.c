/* bchol_{s,d}getrs_batched: argument checks, quick returns, then the substitution solve
 * with the factors and pivots of getrf. */
#include "lu/lu_solve.h"

/* A, ipiv and B of a strided batch: their spans must fit the buffers. */
static bchol_status check_buffers(bchol_context *ctx, const char *routine, bchol_precision p,
                                  int n, int nrhs, cl_mem A, int64_t offset_a, int lda,
                                  int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, cl_mem B, int64_t offset_b, int ldb,
                                  int64_t stride_b, int64_t batch, uint64_t *end_a,
                                  uint64_t *end_b)
{
    const size_t es = bchol__elem_size(p);
    bchol_status st;
    if (bchol__batch_span(offset_a, stride_a, batch, lda, n, n, end_a) || *end_a > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_A_SIZE, "%s: the batch of A spans more than 2^64 bytes",
                           routine);
    if ((st = bchol__check_buffer(ctx, routine, 5, "A", A, *end_a * es, BCHOL_ERR_A,
                                  BCHOL_ERR_A_SIZE)))
        return st;
    const uint64_t pb = bchol__pivot_bytes(n, offset_p, stride_p, batch);
    if (pb == UINT64_MAX)
        return bchol__fail(ctx, BCHOL_ERR_IPIV_SIZE,
                           "%s: the batch of ipiv spans more than 2^64 bytes", routine);
    if ((st = bchol__check_buffer(ctx, routine, 9, "ipiv", ipiv, pb, BCHOL_ERR_IPIV,
                                  BCHOL_ERR_IPIV_SIZE)))
        return st;
    if (bchol__batch_span(offset_b, stride_b, batch, ldb, n, nrhs, end_b) || *end_b > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_B_SIZE, "%s: the batch of B spans more than 2^64 bytes",
                           routine);
    return bchol__check_buffer(ctx, routine, 12, "B", B, *end_b * es, BCHOL_ERR_B,
                               BCHOL_ERR_B_SIZE);
}

static bchol_status getrs_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                  char trans, int n, int nrhs, cl_mem A, int64_t offset_a, int lda,
                                  int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, cl_mem B, int64_t offset_b, int ldb,
                                  int64_t stride_b, int64_t batch, cl_event *event)
{
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    const int t = trans == 'T' || trans == 't';
    if (!t && trans != 'N' && trans != 'n') {
        if (trans >= 32 && trans < 127)
            return bchol__fail(ctx, BCHOL_ERR_TRANS,
                               "%s: argument 2 (trans = '%c') must be 'N' or 'T'", routine, trans);
        return bchol__fail(ctx, BCHOL_ERR_TRANS, "%s: argument 2 (trans = %d) must be 'N' or 'T'",
                           routine, (int)trans);
    }
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 0", routine, n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 4 (nrhs = %d) must be >= 0", routine,
                           nrhs);
    if (offset_a < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_A, "%s: argument 6 (offset_a = %lld) must be >= 0",
                           routine, (long long)offset_a);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA, "%s: argument 7 (lda = %d) must be >= max(1, n) = %d",
                           routine, lda, n > 1 ? n : 1);
    if ((st = bchol__check_index_span(ctx, routine, 3, n, lda))) return st;
    if (stride_a < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument 8 (stride_a = %lld) must be >= lda*n = %lld", routine,
                           (long long)stride_a, (long long)lda * n);
    if ((st = bchol__check_pivot_args(ctx, routine, 10, n, offset_p, stride_p))) return st;
    if (offset_b < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_B,
                           "%s: argument 13 (offset_b = %lld) must be >= 0", routine,
                           (long long)offset_b);
    if (ldb < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDB,
                           "%s: argument 14 (ldb = %d) must be >= max(1, n) = %d", routine, ldb,
                           n > 1 ? n : 1);
    if (stride_b < (int64_t)ldb * nrhs)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_B,
                           "%s: argument 15 (stride_b = %lld) must be >= ldb*nrhs = %lld", routine,
                           (long long)stride_b, (long long)ldb * nrhs);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 16 (batch = %lld) must be >= 0",
                           routine, (long long)batch);
    /* Buffers are checked only where they will be used. */
    if (batch == 0 || n == 0 || nrhs == 0) {
        if ((st = bchol__check_precision(ctx, routine, p))) return st;
        return BCHOL_SUCCESS;
    }
    uint64_t end_a, end_b;
    if ((st = check_buffers(ctx, routine, p, n, nrhs, A, offset_a, lda, stride_a, ipiv, offset_p,
                            stride_p, B, offset_b, ldb, stride_b, batch, &end_a, &end_b)))
        return st;
    const size_t es = bchol__elem_size(p);
    const bchol_buffer_use uses[] = {
        {5, "A", A, (uint64_t)offset_a * es, end_a * es, BCHOL__READ, BCHOL_ERR_A},
        {9, "ipiv", ipiv, (uint64_t)offset_p * sizeof(cl_int),
         bchol__pivot_bytes(n, offset_p, stride_p, batch), BCHOL__READ, BCHOL_ERR_IPIV},
        {12, "B", B, (uint64_t)offset_b * es, end_b * es, BCHOL__READ | BCHOL__WRITE,
         BCHOL_ERR_B}};
    if ((st = bchol__check_buffer_uses(ctx, routine, uses, 3))) return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;

    bchol_lu_solve_plan plan;
    if ((st = bchol__lu_solve_plan(ctx, p, t, 0, n, nrhs, &plan))) return st;
    bchol_call call;
    bchol__call_begin(&call, ctx);
    st = bchol__getrs_enqueue(&call, &plan, A, offset_a, lda, stride_a, ipiv, offset_p, stride_p,
                              B, offset_b, ldb, stride_b, batch, NULL);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sgetrs_batched(bchol_context *ctx, char trans, int n, int nrhs, cl_mem A,
                                  int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                  int64_t offset_p, int64_t stride_p, cl_mem B, int64_t offset_b,
                                  int ldb, int64_t stride_b, int64_t batch, cl_event *event)
{
    return getrs_batched(ctx, "bchol_sgetrs_batched", BCHOL_S, trans, n, nrhs, A, offset_a, lda,
                         stride_a, ipiv, offset_p, stride_p, B, offset_b, ldb, stride_b, batch,
                         event);
}

bchol_status bchol_dgetrs_batched(bchol_context *ctx, char trans, int n, int nrhs, cl_mem A,
                                  int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                  int64_t offset_p, int64_t stride_p, cl_mem B, int64_t offset_b,
                                  int ldb, int64_t stride_b, int64_t batch, cl_event *event)
{
    return getrs_batched(ctx, "bchol_dgetrs_batched", BCHOL_D, trans, n, nrhs, A, offset_a, lda,
                         stride_a, ipiv, offset_p, stride_p, B, offset_b, ldb, stride_b, batch,
                         event);
}
