/* The strided routine's interleaved variant: pieces of the batch are copied into an
 * interleaved workspace (the stored triangle only), factored there by the generated kernel,
 * and their stored triangle copied back. The workspace is padded to whole work-groups, so
 * the padding lanes live only there. With chunking = BCHOL_STAGED one kernel does all
 * three, each work-group through local memory (no workspace). */
#include "chol/interleaved.h"

#include <stdlib.h>

/* Bytes of workspace one call uses at most; larger batches go through it in pieces, one
 * after the other (the queue is in order). BCHOL_WORKSPACE_LIMIT lowers it (for testing). */
#define WORKSPACE_MAX ((uint64_t)256 << 20)

static uint64_t workspace_cap(const bchol_context *ctx)
{
    uint64_t cap = WORKSPACE_MAX < ctx->info.max_alloc ? WORKSPACE_MAX : ctx->info.max_alloc;
    const char *env = getenv("BCHOL_WORKSPACE_LIMIT");
    if (env && *env) {
        long long v = atoll(env);
        if (v > 0 && (uint64_t)v < cap) cap = (uint64_t)v;
    }
    return cap;
}

/* How the strided routine goes through the workspace: work-groups of *group matrices
 * (params->chunk, or fewer in *small when one group does not fit one allocation; *params
 * then points at small), pieces of *piece matrices (whole groups that fit the cap; 0 when
 * not even one group does). */
static void plan(const bchol_context *ctx, bchol_precision p, const bchol_params **params,
                 bchol_params *small, int n, int64_t *group, int64_t *piece)
{
    const uint64_t per = (uint64_t)n * (uint64_t)n * bchol__elem_size(p);
    const uint64_t cap = workspace_cap(ctx);
    /* Lanes come in whole work-groups (the chunk of the chunked layout is the work-group),
     * so that every lane of every group exists in the workspace. */
    *group = (*params)->chunk;
    if (cap / per < (uint64_t)*group && cap >= per) {
        /* smaller work-groups where one group of matrices does not fit one allocation
         * (the same arithmetic per matrix, so the same results) */
        *small = **params;
        small->chunk = (int)(cap / per);
        *params = small;
        *group = small->chunk;
    }
    /* Matrices per piece: whole groups that fit the cap. */
    *piece = (int64_t)(cap / per) / *group * *group;
}

/* The layout of a piece of count matrices in the workspace: simple, one chunk of the
 * piece's lanes padded to whole groups; chunked, chunks of one group. */
static int64_t piece_layout(const bchol_params *params, int64_t group, int64_t count)
{
    return params->chunking == BCHOL_SIMPLE ? (count + group - 1) / group * group : group;
}

bchol_status bchol__potrf_via_interleaved_prepare(bchol_context *ctx, bchol_precision p,
                                                  const bchol_params *params, int upper, int n)
{
    bchol_params small;
    int64_t group, piece;
    int wg;
    cl_kernel kernel;
    if (n == 0) return BCHOL_SUCCESS;
    if (params->chunking == BCHOL_STAGED) {
        size_t local;
        return bchol__ilv_staged_kernel(ctx, p, params, upper, n, &wg, &local, &kernel);
    }
    plan(ctx, p, &params, &small, n, &group, &piece);
    if (piece < group) piece = group;
    /* the first piece of a batch of at least one piece, in a workspace of one piece */
    bchol_status st = bchol__interleave_prepare(ctx, p);
    return st ? st : bchol__interleaved_kernel(ctx, p, params, upper, n, piece,
                                               piece_layout(params, group, piece),
                                               (uint64_t)piece * (uint64_t)n * (uint64_t)n, &wg,
                                               &kernel);
}

bchol_status bchol__potrf_via_interleaved(bchol_call *call, bchol_precision p,
                                          const bchol_params *params, int upper, int n, cl_mem A,
                                          int64_t offset, int lda, int64_t stride, int64_t batch,
                                          cl_mem info, int may_decline, int *declined)
{
    *declined = 0;
    if (params->chunking == BCHOL_STAGED)
        return bchol__potrf_staged_enqueue(call, p, params, upper, n, A, offset, lda, stride, batch, info);
    bchol_context *ctx = call->ctx;
    const uint64_t per = (uint64_t)n * (uint64_t)n * bchol__elem_size(p);
    bchol_params small;
    int64_t group, piece;
    plan(ctx, p, &params, &small, n, &group, &piece);
    /* at least one group; the whole batch when it fits */
    if (piece < group) {
        if (may_decline) {
            *declined = 1;
            return BCHOL_SUCCESS;
        }
        piece = group;
    }
    if (piece >= batch) piece = (batch + group - 1) / group * group;

    /* The context's workspace (workspace.c) is kept between calls: a new buffer per call
     * costs an allocation and, on CPUs, page faults on every call. */
    const size_t bytes = (size_t)((uint64_t)piece * per);
    cl_mem work;
    bchol_status st = bchol__workspace_acquire(ctx, bytes, &work);
    if (st == BCHOL_ERR_OUT_OF_MEMORY && may_decline) {
        *declined = 1;
        return BCHOL_SUCCESS;
    }
    for (int64_t first = 0; first < batch && !st; first += piece) {
        const int64_t count = batch - first < piece ? batch - first : piece;
        const int64_t layout = piece_layout(params, group, count);
        const int64_t off = offset + first * stride;
        /* the lanes of the piece's last work-group past count hold the identity */
        const int64_t lanes = (count + group - 1) / group * group;
        if (!(st = bchol__interleave_enqueue(call, p, 1, upper, n, A, off, lda, stride, work, count,
                                             layout, lanes)) &&
            !(st = bchol__potrf_interleaved_enqueue(call, p, params, upper, n, work, count, layout, info, first)))
            st = bchol__interleave_enqueue(call, p, 0, upper, n, A, off, lda, stride, work, count,
                                           layout, count);
    }
    bchol__workspace_release(ctx, work);
    return st;
}
