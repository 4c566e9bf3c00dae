/* Device scratch memory for drivers whose kernels pass data to each other (the separate
 * variant's inverted diagonal blocks, the interleaved copy of a strided batch). One buffer is cached per context and lent to one
 * call at a time; a concurrent call on the same context gets a buffer of its own. Giving
 * a buffer back while its commands are still queued is safe: OpenCL deletes a memory
 * object only after the commands that use it have finished. */
#include "core/core.h"

bchol_status bchol__workspace_acquire(bchol_context *ctx, size_t bytes, cl_mem *mem)
{
    *mem = NULL;
    pthread_mutex_lock(&ctx->lock);
    if (!ctx->workspace_busy && ctx->workspace && ctx->workspace_bytes >= bytes) {
        ctx->workspace_busy = 1;
        *mem = ctx->workspace;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (*mem) return BCHOL_SUCCESS;
    cl_int err;
    *mem = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
    if (!*mem) return bchol__fail_cl(ctx, err, "workspace");
    return BCHOL_SUCCESS;
}

void bchol__workspace_release(bchol_context *ctx, cl_mem mem)
{
    if (!mem) return;
    size_t bytes = 0;
    clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof bytes, &bytes, NULL);
    pthread_mutex_lock(&ctx->lock);
    if (mem == ctx->workspace) {
        ctx->workspace_busy = 0;
        mem = NULL;
    } else if (!ctx->workspace_busy && bytes > ctx->workspace_bytes) {
        /* keep the larger one */
        cl_mem old = ctx->workspace;
        ctx->workspace = mem;
        ctx->workspace_bytes = bytes;
        mem = old;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (mem) clReleaseMemObject(mem);
}

void bchol__workspace_free(bchol_context *ctx)
{
    if (ctx->workspace) clReleaseMemObject(ctx->workspace);
    ctx->workspace = NULL;
    ctx->workspace_bytes = 0;
    ctx->workspace_busy = 0;
}
