/* The strided routine's interleaved variant: pieces of the batch are copied into an
 * interleaved workspace (the stored triangle only), factored there by the generated kernel,
 * and their stored triangle copied back. The workspace is padded to whole work-groups, so
 * the padding lanes live only there. */
#include "interleaved.h"

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

bchol_status bchol__potrf_via_interleaved(bchol_call *call, bchol_precision p,
                                          const bchol_params *params, int upper, int n, cl_mem A,
                                          int64_t offset, int lda, int64_t stride, int64_t batch,
                                          cl_mem info)
{
    bchol_context *ctx = call->ctx;
    const uint64_t per = (uint64_t)n * (uint64_t)n * bchol__elem_size(p);
    const int simple = params->chunking == BCHOL_SIMPLE;
    /* Lanes come in whole work-groups (the chunk of the chunked layout is the work-group),
     * so that every lane of every group exists in the workspace. */
    const int64_t group = params->chunk;
    const uint64_t cap = workspace_cap(ctx);

    /* Matrices per piece: whole groups that fit the cap, at least one; the whole batch when
     * it fits. */
    int64_t piece = (int64_t)(cap / per) / group * group;
    if (piece < group) piece = group;
    if (piece >= batch) piece = (batch + group - 1) / group * group;

    /* The context keeps the workspace: a new buffer per call costs an allocation and, on
     * CPUs, page faults on every call. */
    const size_t bytes = (size_t)((uint64_t)piece * per);
    bchol_status st = BCHOL_SUCCESS;
    pthread_mutex_lock(&ctx->workspace_lock);
    if (ctx->workspace_bytes < bytes) {
        cl_int err;
        if (ctx->workspace) clReleaseMemObject(ctx->workspace);
        ctx->workspace_bytes = 0;
        if (!(ctx->workspace = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, bytes, NULL, &err)))
            st = bchol__fail_cl(ctx, err, "interleaved workspace");
        else
            ctx->workspace_bytes = bytes;
    }
    cl_mem work = ctx->workspace;
    for (int64_t first = 0; first < batch && !st; first += piece) {
        const int64_t count = batch - first < piece ? batch - first : piece;
        /* simple: one chunk of the piece's lanes, padded to whole groups */
        const int64_t layout = simple ? (count + group - 1) / group * group : group;
        const int64_t off = offset + first * stride;
        if (!(st = bchol__interleave_enqueue(call, p, 1, upper, n, A, off, lda, stride, work, count, layout)) &&
            !(st = bchol__potrf_interleaved_enqueue(call, p, params, upper, n, work, count, layout, info, first)))
            st = bchol__interleave_enqueue(call, p, 0, upper, n, A, off, lda, stride, work, count, layout);
    }
    pthread_mutex_unlock(&ctx->workspace_lock);
    return st;
}
