/* bchol_{s,d}gesv_batched: getrf, then the 'N' solve of the matrices whose factorization
 * succeeded, in one call; the solve kernel reads info and leaves the B of a matrix with
 * info > 0 untouched. */
#include "lu/lu_solve.h"

/* The positions of gesv's arguments for getrf's checks (m = n: no argument). */
static const bchol_lu_pos gesv_pos = {.m = 0, .n = 2, .A = 4, .offset_a = 5, .lda = 6,
                                      .stride_a = 7, .ipiv = 8, .offset_p = 9, .stride_p = 10,
                                      .batch = 15, .info = 16};

bchol_status bchol__gesv_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                 int n, int nrhs, cl_mem A, int64_t offset_a, int lda,
                                 int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                 int64_t stride_p, cl_mem B, int64_t offset_b, int ldb,
                                 int64_t stride_b, int64_t batch, cl_mem info, cl_event *event)
{
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    /* The scalars in argument order; getrf's checks below see them again and pass. */
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 2 (n = %d) must be >= 0", routine, n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 3 (nrhs = %d) must be >= 0", routine,
                           nrhs);
    if (offset_a < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_A, "%s: argument 5 (offset_a = %lld) must be >= 0",
                           routine, (long long)offset_a);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA, "%s: argument 6 (lda = %d) must be >= max(1, n) = %d",
                           routine, lda, n > 1 ? n : 1);
    if ((st = bchol__check_index_span(ctx, routine, 2, n, lda))) return st;
    if (stride_a < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument 7 (stride_a = %lld) must be >= lda*n = %lld", routine,
                           (long long)stride_a, (long long)lda * n);
    if ((st = bchol__check_pivot_args(ctx, routine, 9, n, offset_p, stride_p))) return st;
    if (offset_b < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_B,
                           "%s: argument 12 (offset_b = %lld) must be >= 0", routine,
                           (long long)offset_b);
    if (ldb < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDB,
                           "%s: argument 13 (ldb = %d) must be >= max(1, n) = %d", routine, ldb,
                           n > 1 ? n : 1);
    if (stride_b < (int64_t)ldb * nrhs)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_B,
                           "%s: argument 14 (stride_b = %lld) must be >= ldb*nrhs = %lld", routine,
                           (long long)stride_b, (long long)ldb * nrhs);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 15 (batch = %lld) must be >= 0",
                           routine, (long long)batch);

    /* Buffers, where used: getrf's A, ipiv and info (in that order), then B. */
    bchol_buffer_use uses[4];
    int nuses = 0;
    if ((st = bchol__check_getrf_args(ctx, routine, &gesv_pos, p, 1, n, n, A, offset_a, lda,
                                      stride_a, ipiv, offset_p, stride_p, batch, info, uses,
                                      &nuses)))
        return st;
    const int solve = batch > 0 && n > 0 && nrhs > 0;
    if (solve) {
        const size_t es = bchol__elem_size(p);
        uint64_t end_b;
        if (bchol__batch_span(offset_b, stride_b, batch, ldb, n, nrhs, &end_b) ||
            end_b > UINT64_MAX / es)
            return bchol__fail(ctx, BCHOL_ERR_B_SIZE,
                               "%s: the batch of B spans more than 2^64 bytes", routine);
        if ((st = bchol__check_buffer(ctx, routine, 11, "B", B, end_b * es, BCHOL_ERR_B,
                                      BCHOL_ERR_B_SIZE)))
            return st;
        /* The solve reads what getrf wrote: the pivots and info. */
        for (int i = 0; i < nuses; i++) uses[i].access |= BCHOL__READ;
        uses[nuses++] = (bchol_buffer_use){11, "B", B, (uint64_t)offset_b * es, end_b * es,
                                           BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_B};
    }
    if (batch > 0 && (st = bchol__check_buffer_uses(ctx, routine, uses, nuses))) return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;

    /* Whatever can refuse the work does before anything is enqueued: A stays as it was. */
    bchol_lu_solve_plan plan;
    if (solve && (st = bchol__lu_solve_plan(ctx, p, 0, 0, n, nrhs, &plan))) return st;
    if ((st = bchol__getrf_check_size(ctx, routine, p, n, n))) return st;
    bchol_call call;
    bchol__call_begin(&call, ctx);
    st = bchol__getrf_enqueue(&call, p, 1, n, n, A, offset_a, lda, stride_a, ipiv, offset_p,
                              stride_p, batch, info);
    if (!st && solve)
        st = bchol__getrs_enqueue(&call, &plan, A, offset_a, lda, stride_a, ipiv, offset_p,
                                  stride_p, B, offset_b, ldb, stride_b, batch, info);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sgesv_batched(bchol_context *ctx, int n, int nrhs, cl_mem A, int64_t offset_a,
                                 int lda, int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                 int64_t stride_p, cl_mem B, int64_t offset_b, int ldb,
                                 int64_t stride_b, int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__gesv_batched(ctx, "bchol_sgesv_batched", BCHOL_S, n, nrhs, A, offset_a, lda,
                               stride_a, ipiv, offset_p, stride_p, B, offset_b, ldb, stride_b,
                               batch, info, event);
}

bchol_status bchol_dgesv_batched(bchol_context *ctx, int n, int nrhs, cl_mem A, int64_t offset_a,
                                 int lda, int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                 int64_t stride_p, cl_mem B, int64_t offset_b, int ldb,
                                 int64_t stride_b, int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__gesv_batched(ctx, "bchol_dgesv_batched", BCHOL_D, n, nrhs, A, offset_a, lda,
                               stride_a, ipiv, offset_p, stride_p, B, offset_b, ldb, stride_b,
                               batch, info, event);
}
