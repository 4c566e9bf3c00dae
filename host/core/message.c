/* Error messages (per thread, per context) and warnings (per context, or a handler). */
#include "core/core.h"

#include <stdio.h>
#include <string.h>

/* Long enough for a typical build log; longer logs keep their beginning. */
#define MESSAGE_SIZE 16384

static _Thread_local struct {
    const bchol_context *ctx;
    char text[MESSAGE_SIZE];
} last;

bchol_status bchol__fail(const bchol_context *ctx, bchol_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last.text, sizeof last.text, fmt, ap);
    va_end(ap);
    last.ctx = ctx;
    return status;
}

const char *bchol_last_error(const bchol_context *ctx)
{
    if (ctx == NULL || last.ctx == ctx) return last.text;
    return "";
}

const char *bchol__cl_error_name(cl_int err)
{
    switch (err) {
#define E(x) case x: return #x
    E(CL_SUCCESS); E(CL_DEVICE_NOT_FOUND); E(CL_DEVICE_NOT_AVAILABLE);
    E(CL_COMPILER_NOT_AVAILABLE); E(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    E(CL_OUT_OF_RESOURCES); E(CL_OUT_OF_HOST_MEMORY); E(CL_PROFILING_INFO_NOT_AVAILABLE);
    E(CL_MEM_COPY_OVERLAP); E(CL_BUILD_PROGRAM_FAILURE); E(CL_MAP_FAILURE);
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET); E(CL_INVALID_VALUE); E(CL_INVALID_DEVICE_TYPE);
    E(CL_INVALID_PLATFORM); E(CL_INVALID_DEVICE); E(CL_INVALID_CONTEXT);
    E(CL_INVALID_QUEUE_PROPERTIES); E(CL_INVALID_COMMAND_QUEUE); E(CL_INVALID_HOST_PTR);
    E(CL_INVALID_MEM_OBJECT); E(CL_INVALID_BINARY); E(CL_INVALID_BUILD_OPTIONS);
    E(CL_INVALID_PROGRAM); E(CL_INVALID_PROGRAM_EXECUTABLE); E(CL_INVALID_KERNEL_NAME);
    E(CL_INVALID_KERNEL); E(CL_INVALID_ARG_INDEX); E(CL_INVALID_ARG_VALUE);
    E(CL_INVALID_ARG_SIZE); E(CL_INVALID_KERNEL_ARGS); E(CL_INVALID_WORK_DIMENSION);
    E(CL_INVALID_WORK_GROUP_SIZE); E(CL_INVALID_WORK_ITEM_SIZE); E(CL_INVALID_GLOBAL_OFFSET);
    E(CL_INVALID_EVENT_WAIT_LIST); E(CL_INVALID_EVENT); E(CL_INVALID_OPERATION);
    E(CL_INVALID_BUFFER_SIZE); E(CL_INVALID_GLOBAL_WORK_SIZE);
#undef E
    }
    return "unknown OpenCL error";
}

bchol_status bchol__status_of_cl(cl_int err)
{
    switch (err) {
    case CL_SUCCESS: return BCHOL_SUCCESS;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_INVALID_BUFFER_SIZE: return BCHOL_ERR_OUT_OF_MEMORY;
    case CL_OUT_OF_RESOURCES:
    case CL_INVALID_WORK_GROUP_SIZE: return BCHOL_ERR_RESOURCES;
    case CL_BUILD_PROGRAM_FAILURE: return BCHOL_ERR_BUILD;
    default: return BCHOL_ERR_OPENCL;
    }
}

bchol_status bchol__fail_cl(const bchol_context *ctx, cl_int err, const char *what)
{
    return bchol__fail(ctx, bchol__status_of_cl(err), "%s: %s (%d)", what,
                       bchol__cl_error_name(err), (int)err);
}

void bchol__warn(bchol_context *ctx, const char *fmt, ...)
{
    char text[sizeof ctx->last_warning];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&ctx->lock);
    memcpy(ctx->last_warning, text, sizeof text);
    bchol_message_handler handler = ctx->handler;
    void *user = ctx->handler_user;
    pthread_mutex_unlock(&ctx->lock);
    if (handler) handler(text, user);
}

void bchol_set_message_handler(bchol_context *ctx, bchol_message_handler handler, void *user)
{
    if (!ctx) return;
    pthread_mutex_lock(&ctx->lock);
    ctx->handler = handler;
    ctx->handler_user = user;
    pthread_mutex_unlock(&ctx->lock);
}

const char *bchol_last_warning(const bchol_context *ctx)
{
    return ctx ? ctx->last_warning : "";
}
