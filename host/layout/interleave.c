/* bchol_{s,d}interleave and bchol_{s,d}deinterleave: copies between strided and
 * interleaved batches (argument checks, then the tiled-transpose kernels of
 * cl_kernels/layout/interleave.cl). Also the span of an interleaved batch. */
#include "layout/layout.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const interleave_files[] = {"common/common.cl", "layout/interleave.cl", NULL};

#define TILE 16       /* a tile work-group is TILE*TILE work-items */
#define LOOP_GROUP 64 /* matrices per work-group of the CPU copy */

uint64_t bchol__interleaved_span_rect(int rows, int cols, int64_t batch, int64_t chunk)
{
    /* ((nchunks*rows*cols - 1) * chunk + (batch-1) % chunk + 1) */
    if (batch <= 0 || rows <= 0 || cols <= 0) return 0;
    const uint64_t nchunks = (uint64_t)((batch - 1) / chunk) + 1;
    uint64_t s;
    if (__builtin_mul_overflow(nchunks, (uint64_t)rows * (uint64_t)cols, &s) ||
        __builtin_mul_overflow(s - 1, (uint64_t)chunk, &s) ||
        __builtin_add_overflow(s, (uint64_t)((batch - 1) % chunk) + 1, &s) || s > INT64_MAX)
        return 0;
    return s;
}

uint64_t bchol__interleaved_span(int n, int64_t batch, int64_t chunk)
{
    return bchol__interleaved_span_rect(n, n, batch, chunk);
}

/* The conversion kernel of one direction: CPUs copy a matrix per work-item; GPUs transpose
 * tiles through local memory. BCHOL_CONVERSION=tile|loop picks one (for testing both on one
 * device). *loop says which, *limit the work-items per group the kernel takes. */
static bchol_status conversion_kernel(bchol_context *ctx, bchol_precision p, int to_interleaved,
                                      cl_kernel *kernel, int *loop, size_t *limit)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D TILE=%d", TILE);
    const char *force = getenv("BCHOL_CONVERSION");
    *loop = force && *force ? !strcmp(force, "loop") : (ctx->info.type & CL_DEVICE_TYPE_CPU) != 0;
    const char *name = *loop ? (to_interleaved ? "interleave_loop" : "deinterleave_loop")
                             : (to_interleaved ? "interleave" : "deinterleave");
    bchol_status st = bchol__get_kernel(ctx, interleave_files, &o, name, kernel);
    if (st) return st;
    *limit = bchol__kernel_wg_limit(ctx, *kernel);
    if (!*loop && *limit < TILE * TILE) {
        /* the tiles need TILE*TILE work-items per group; the loop copy runs with any */
        *loop = 1;
        name = to_interleaved ? "interleave_loop" : "deinterleave_loop";
        if ((st = bchol__get_kernel(ctx, interleave_files, &o, name, kernel))) return st;
        *limit = bchol__kernel_wg_limit(ctx, *kernel);
    }
    return BCHOL_SUCCESS;
}

bchol_status bchol__interleave_prepare(bchol_context *ctx, bchol_precision p)
{
    cl_kernel kernel;
    int loop;
    size_t limit;
    bchol_status st = conversion_kernel(ctx, p, 1, &kernel, &loop, &limit);
    return st ? st : conversion_kernel(ctx, p, 0, &kernel, &loop, &limit);
}

bchol_status bchol__interleave_enqueue(bchol_call *call, bchol_precision p, int to_interleaved,
                                       int uplo_mode, int n, cl_mem A, int64_t offset, int lda,
                                       int64_t stride, cl_mem B, int64_t batch, int64_t chunk,
                                       int64_t lanes)
{
    return bchol__interleave_rect_enqueue(call, p, to_interleaved, uplo_mode, n, n, A, offset, lda,
                                          stride, B, batch, chunk, lanes);
}

bchol_status bchol__interleave_rect_enqueue(bchol_call *call, bchol_precision p,
                                            int to_interleaved, int uplo_mode, int n, int cols,
                                            cl_mem A, int64_t offset, int lda, int64_t stride,
                                            cl_mem B, int64_t batch, int64_t chunk, int64_t lanes)
{
    bchol_context *ctx = call->ctx;
    cl_kernel kernel;
    int loop;
    size_t limit;
    bchol_status st = conversion_kernel(ctx, p, to_interleaved, &kernel, &loop, &limit);
    if (st) return st;

    /* A tile group covers TILE matrices of one of etiles element blocks (a matrix's blocks
     * may span launches); a loop group covers up to LOOP_GROUP matrices (one per
     * work-item). */
    const uint64_t etiles = loop ? 1 : ((uint64_t)n * (uint64_t)cols + TILE - 1) / TILE;
    const size_t loop_group = limit < LOOP_GROUP ? (limit ? limit : 1) : LOOP_GROUP;
    const uint64_t per_group = loop ? (uint64_t)loop_group : TILE;
    const size_t local = loop ? loop_group : TILE * TILE;
    if (!to_interleaved || lanes < batch) lanes = batch;
    const uint64_t groups = etiles * (((uint64_t)lanes + per_group - 1) / per_group);
    cl_ulong off = (cl_ulong)offset, str = (cl_ulong)stride, ch = (cl_ulong)chunk;
    cl_ulong end = (cl_ulong)batch, g0 = 0, pad = (cl_ulong)lanes;
    cl_int ld = lda, order = n, ncols = cols, mode = uplo_mode;
    bchol_arg to[] = {BCHOL_ARG(A),   BCHOL_ARG(off), BCHOL_ARG(ld),    BCHOL_ARG(str),
                      BCHOL_ARG(B),   BCHOL_ARG(ch),  BCHOL_ARG(order), BCHOL_ARG(ncols),
                      BCHOL_ARG(mode), BCHOL_ARG(end), BCHOL_ARG(g0), BCHOL_ARG(pad)};
    bchol_arg back[] = {BCHOL_ARG(B),   BCHOL_ARG(ch),  BCHOL_ARG(A),     BCHOL_ARG(off),
                        BCHOL_ARG(ld),  BCHOL_ARG(str), BCHOL_ARG(order), BCHOL_ARG(ncols),
                        BCHOL_ARG(mode), BCHOL_ARG(end), BCHOL_ARG(g0)};
    return bchol__launch_groups(call, kernel, to_interleaved ? to : back, to_interleaved ? 12 : 11,
                                10, groups, local);
}

/* 'L' -> 0, 'U' -> 1, 'A' -> 2 (the kernel's copy modes). */
static bchol_status check_copy_uplo(bchol_context *ctx, const char *routine, char uplo, int *mode)
{
    switch (uplo) {
    case 'L': case 'l': *mode = 0; return BCHOL_SUCCESS;
    case 'U': case 'u': *mode = 1; return BCHOL_SUCCESS;
    case 'A': case 'a': *mode = 2; return BCHOL_SUCCESS;
    }
    if (uplo >= 32 && uplo < 127)
        return bchol__fail(ctx, BCHOL_ERR_UPLO, "%s: argument 2 (uplo = '%c') must be 'L', 'U' or 'A'",
                           routine, uplo);
    return bchol__fail(ctx, BCHOL_ERR_UPLO, "%s: argument 2 (uplo = %d) must be 'L', 'U' or 'A'",
                       routine, (int)uplo);
}

/* Positions of the strided and interleaved arguments differ between the two directions. */
typedef struct {
    int a, offset, lda, stride, batch, b, chunk;
} positions;

/* The buffers of a copy that moves something (batch > 0, n > 0), in argument order. */
static bchol_status check_copy_buffers(bchol_context *ctx, const char *routine, bchol_precision p,
                                       int to_interleaved, const positions *pos, int n, cl_mem A,
                                       int64_t offset, int lda, int64_t stride, int64_t batch,
                                       cl_mem B, int64_t chunk)
{
    bchol_status st;
    const size_t es = bchol__elem_size(p);
    uint64_t span_a, span_b = bchol__interleaved_span(n, batch, chunk);
    if (bchol__batch_span(offset, stride, batch, lda, n, n, &span_a) || span_a > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_A_SIZE, "%s: the batch spans more elements than 2^64 bytes",
                           routine);
    if (!span_b || span_b > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_B_SIZE,
                           "%s: the interleaved batch (chunk = %lld) spans more than 2^63 elements",
                           routine, (long long)chunk);
    for (int k = 4; k <= 10; k++) {
        if (k == pos->a && (st = bchol__check_buffer(ctx, routine, k, "A", A, span_a * es, BCHOL_ERR_A,
                                                     BCHOL_ERR_A_SIZE)))
            return st;
        if (k == pos->b && (st = bchol__check_buffer(ctx, routine, k, "B", B, span_b * es, BCHOL_ERR_B,
                                                     BCHOL_ERR_B_SIZE)))
            return st;
    }
    /* the copy reads one layout and only writes the other; in argument order */
    const bchol_buffer_use ua = {pos->a, "A", A, (uint64_t)offset * es, span_a * es,
                                 to_interleaved ? BCHOL__READ : BCHOL__WRITE, BCHOL_ERR_A};
    const bchol_buffer_use ub = {pos->b, "B", B, 0, span_b * es,
                                 to_interleaved ? BCHOL__WRITE : BCHOL__READ, BCHOL_ERR_B};
    const bchol_buffer_use uses[] = {pos->a < pos->b ? ua : ub, pos->a < pos->b ? ub : ua};
    return bchol__check_buffer_uses(ctx, routine, uses, 2);
}

static bchol_status copy(bchol_context *ctx, const char *routine, bchol_precision p, int to_interleaved,
                         const positions *pos, char uplo, int n, cl_mem A, int64_t offset, int lda,
                         int64_t stride, int64_t batch, cl_mem B, int64_t chunk, cl_event *event)
{
    int mode = 0;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = check_copy_uplo(ctx, routine, uplo, &mode))) return st;
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 0", routine, n);
    /* Arguments in the order of their positions: the interleaved side comes first when
     * copying back. */
    for (int k = 4; k <= 10; k++) {
        if (k == pos->offset && offset < 0)
            return bchol__fail(ctx, BCHOL_ERR_OFFSET_A, "%s: argument %d (offset = %lld) must be >= 0",
                               routine, k, (long long)offset);
        if (k == pos->lda && lda < (n > 1 ? n : 1))
            return bchol__fail(ctx, BCHOL_ERR_LDA, "%s: argument %d (lda = %d) must be >= max(1, n) = %d",
                               routine, k, lda, n > 1 ? n : 1);
        if (k == pos->lda && (st = bchol__check_index_span(ctx, routine, 3, n, lda))) return st;
        if (k == pos->stride && stride < (int64_t)lda * n)
            return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                               "%s: argument %d (stride = %lld) must be >= lda*n = %lld", routine, k,
                               (long long)stride, (long long)lda * n);
        if (k == pos->batch && batch < 0)
            return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument %d (batch = %lld) must be >= 0",
                               routine, k, (long long)batch);
        if (k == pos->chunk && chunk < 1)
            return bchol__fail(ctx, BCHOL_ERR_CHUNK, "%s: argument %d (chunk = %lld) must be >= 1",
                               routine, k, (long long)chunk);
    }
    if (batch > 0 && n > 0 &&
        (st = check_copy_buffers(ctx, routine, p, to_interleaved, pos, n, A, offset, lda, stride,
                                 batch, B, chunk)))
        return st;
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0 || n == 0) return BCHOL_SUCCESS;

    bchol_call call;
    bchol__call_begin(&call, ctx);
    st = bchol__interleave_enqueue(&call, p, to_interleaved, mode, n, A, offset, lda, stride, B, batch,
                                   chunk, batch);
    return bchol__call_end(&call, st, event);
}

/* (ctx, uplo, n, A, offset, lda, stride, batch, B, chunk, event) */
static const positions to_interleaved_pos = {4, 5, 6, 7, 8, 9, 10};
/* (ctx, uplo, n, B, batch, chunk, A, offset, lda, stride, event) */
static const positions to_strided_pos = {7, 8, 9, 10, 5, 4, 6};

bchol_status bchol_sinterleave(bchol_context *ctx, char uplo, int n, cl_mem A, int64_t offset, int lda,
                               int64_t stride, int64_t batch, cl_mem B, int64_t chunk, cl_event *event)
{
    return copy(ctx, "bchol_sinterleave", BCHOL_S, 1, &to_interleaved_pos, uplo, n, A, offset, lda,
                stride, batch, B, chunk, event);
}

bchol_status bchol_dinterleave(bchol_context *ctx, char uplo, int n, cl_mem A, int64_t offset, int lda,
                               int64_t stride, int64_t batch, cl_mem B, int64_t chunk, cl_event *event)
{
    return copy(ctx, "bchol_dinterleave", BCHOL_D, 1, &to_interleaved_pos, uplo, n, A, offset, lda,
                stride, batch, B, chunk, event);
}

bchol_status bchol_sdeinterleave(bchol_context *ctx, char uplo, int n, cl_mem B, int64_t batch,
                                 int64_t chunk, cl_mem A, int64_t offset, int lda, int64_t stride,
                                 cl_event *event)
{
    return copy(ctx, "bchol_sdeinterleave", BCHOL_S, 0, &to_strided_pos, uplo, n, A, offset, lda,
                stride, batch, B, chunk, event);
}

bchol_status bchol_ddeinterleave(bchol_context *ctx, char uplo, int n, cl_mem B, int64_t batch,
                                 int64_t chunk, cl_mem A, int64_t offset, int lda, int64_t stride,
                                 cl_event *event)
{
    return copy(ctx, "bchol_ddeinterleave", BCHOL_D, 0, &to_strided_pos, uplo, n, A, offset, lda,
                stride, batch, B, chunk, event);
}
