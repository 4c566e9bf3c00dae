/* bchol_{s,d}interleave_rhs and bchol_{s,d}deinterleave_rhs: copies of n-by-nrhs
 * right-hand sides between strided and interleaved batches (argument checks, then the
 * rectangular form of the conversion kernels of cl_kernels/layout/interleave.cl). */
#include "layout/layout.h"

#include <limits.h>

/* Positions of the strided and interleaved arguments differ between the two directions. */
typedef struct {
    int b, offset, ldb, stride, batch, bi, chunk;
} positions;

/* (ctx, n, nrhs, B, offset, ldb, stride, batch, Bi, chunk, event) */
static const positions to_interleaved_pos = {4, 5, 6, 7, 8, 9, 10};
/* (ctx, n, nrhs, Bi, batch, chunk, B, offset, ldb, stride, event) */
static const positions to_strided_pos = {7, 8, 9, 10, 5, 4, 6};

/* The buffers of a copy that moves something (batch, n and nrhs > 0), in argument order. */
static bchol_status check_rhs_buffers(bchol_context *ctx, const char *routine, bchol_precision p,
                                      int to_interleaved, const positions *pos, int n, int nrhs,
                                      cl_mem B, int64_t offset, int ldb, int64_t stride,
                                      int64_t batch, cl_mem Bi, int64_t chunk)
{
    bchol_status st;
    const size_t es = bchol__elem_size(p);
    uint64_t span_b, span_i = bchol__interleaved_span_rect(n, nrhs, batch, chunk);
    if (bchol__batch_span(offset, stride, batch, ldb, n, nrhs, &span_b) || span_b > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_B_SIZE, "%s: the batch of B spans more than 2^64 bytes",
                           routine);
    if (!span_i || span_i > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_B_SIZE,
                           "%s: the interleaved batch (chunk = %lld) spans more than 2^63 elements",
                           routine, (long long)chunk);
    for (int k = 4; k <= 10; k++) {
        if (k == pos->b && (st = bchol__check_buffer(ctx, routine, k, "B", B, span_b * es,
                                                     BCHOL_ERR_B, BCHOL_ERR_B_SIZE)))
            return st;
        if (k == pos->bi && (st = bchol__check_buffer(ctx, routine, k, "Bi", Bi, span_i * es,
                                                      BCHOL_ERR_B, BCHOL_ERR_B_SIZE)))
            return st;
    }
    /* the copy reads one layout and only writes the other; in argument order */
    const bchol_buffer_use ub = {pos->b, "B", B, (uint64_t)offset * es, span_b * es,
                                 to_interleaved ? BCHOL__READ : BCHOL__WRITE, BCHOL_ERR_B};
    const bchol_buffer_use ui = {pos->bi, "Bi", Bi, 0, span_i * es,
                                 to_interleaved ? BCHOL__WRITE : BCHOL__READ, BCHOL_ERR_B};
    const bchol_buffer_use uses[] = {pos->b < pos->bi ? ub : ui, pos->b < pos->bi ? ui : ub};
    return bchol__check_buffer_uses(ctx, routine, uses, 2);
}

static bchol_status copy_rhs(bchol_context *ctx, const char *routine, bchol_precision p,
                             int to_interleaved, const positions *pos, int n, int nrhs, cl_mem B,
                             int64_t offset, int ldb, int64_t stride, int64_t batch, cl_mem Bi,
                             int64_t chunk, cl_event *event)
{
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 2 (n = %d) must be >= 0", routine, n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 3 (nrhs = %d) must be >= 0", routine,
                           nrhs);
    /* In the order of the positions: the interleaved side comes first when copying back. */
    for (int k = 4; k <= 10; k++) {
        if (k == pos->offset && offset < 0)
            return bchol__fail(ctx, BCHOL_ERR_OFFSET_B,
                               "%s: argument %d (offset = %lld) must be >= 0", routine, k,
                               (long long)offset);
        if (k == pos->ldb && ldb < (n > 1 ? n : 1))
            return bchol__fail(ctx, BCHOL_ERR_LDB,
                               "%s: argument %d (ldb = %d) must be >= max(1, n) = %d", routine, k,
                               ldb, n > 1 ? n : 1);
        /* The kernels index a block with 32-bit ints. */
        if (k == pos->ldb && n > 0 && nrhs > 0 &&
            ((int64_t)(nrhs - 1) * ldb + n > INT_MAX || (int64_t)n * nrhs > INT_MAX))
            return bchol__fail(ctx, BCHOL_ERR_NRHS,
                               "%s: argument 3 (nrhs = %d) with n = %d and ldb = %d spans more "
                               "than 2^31-1 elements",
                               routine, nrhs, n, ldb);
        if (k == pos->stride && stride < (int64_t)ldb * nrhs)
            return bchol__fail(ctx, BCHOL_ERR_STRIDE_B,
                               "%s: argument %d (stride = %lld) must be >= ldb*nrhs = %lld",
                               routine, k, (long long)stride, (long long)ldb * nrhs);
        if (k == pos->batch && batch < 0)
            return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument %d (batch = %lld) must be >= 0",
                               routine, k, (long long)batch);
        if (k == pos->chunk && chunk < 1)
            return bchol__fail(ctx, BCHOL_ERR_CHUNK, "%s: argument %d (chunk = %lld) must be >= 1",
                               routine, k, (long long)chunk);
    }
    if (batch > 0 && n > 0 && nrhs > 0 &&
        (st = check_rhs_buffers(ctx, routine, p, to_interleaved, pos, n, nrhs, B, offset, ldb,
                                stride, batch, Bi, chunk)))
        return st;
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0 || n == 0 || nrhs == 0) return BCHOL_SUCCESS;

    bchol_call call;
    bchol__call_begin(&call, ctx);
    /* mode 2: every element of the block */
    st = bchol__interleave_rect_enqueue(&call, p, to_interleaved, 2, n, nrhs, B, offset, ldb,
                                        stride, Bi, batch, chunk, batch);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sinterleave_rhs(bchol_context *ctx, int n, int nrhs, cl_mem B, int64_t offset,
                                   int ldb, int64_t stride, int64_t batch, cl_mem Bi, int64_t chunk,
                                   cl_event *event)
{
    return copy_rhs(ctx, "bchol_sinterleave_rhs", BCHOL_S, 1, &to_interleaved_pos, n, nrhs, B,
                    offset, ldb, stride, batch, Bi, chunk, event);
}

bchol_status bchol_dinterleave_rhs(bchol_context *ctx, int n, int nrhs, cl_mem B, int64_t offset,
                                   int ldb, int64_t stride, int64_t batch, cl_mem Bi, int64_t chunk,
                                   cl_event *event)
{
    return copy_rhs(ctx, "bchol_dinterleave_rhs", BCHOL_D, 1, &to_interleaved_pos, n, nrhs, B,
                    offset, ldb, stride, batch, Bi, chunk, event);
}

bchol_status bchol_sdeinterleave_rhs(bchol_context *ctx, int n, int nrhs, cl_mem Bi, int64_t batch,
                                     int64_t chunk, cl_mem B, int64_t offset, int ldb,
                                     int64_t stride, cl_event *event)
{
    return copy_rhs(ctx, "bchol_sdeinterleave_rhs", BCHOL_S, 0, &to_strided_pos, n, nrhs, B,
                    offset, ldb, stride, batch, Bi, chunk, event);
}

bchol_status bchol_ddeinterleave_rhs(bchol_context *ctx, int n, int nrhs, cl_mem Bi, int64_t batch,
                                     int64_t chunk, cl_mem B, int64_t offset, int ldb,
                                     int64_t stride, cl_event *event)
{
    return copy_rhs(ctx, "bchol_ddeinterleave_rhs", BCHOL_D, 0, &to_strided_pos, n, nrhs, B,
                    offset, ldb, stride, batch, Bi, chunk, event);
}
