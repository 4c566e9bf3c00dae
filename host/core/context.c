/* Contexts: own device, OpenCL context and in-order queue, or wrap a caller's queue. */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

static bchol_status context_new(cl_platform_id platform, cl_device_id device,
                                bchol_context **out)
{
    bchol_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return bchol__fail(NULL, BCHOL_ERR_OUT_OF_MEMORY, "bchol_context_create: no memory");
    ctx->platform = platform;
    ctx->device = device;
    pthread_mutex_init(&ctx->lock, NULL);
    bchol__query_device(platform, device, &ctx->info);
    /* Testing aid: act as on a device without double precision. */
    const char *no_fp64 = getenv("BCHOL_DEVICE_NO_FP64");
    if (no_fp64 && *no_fp64 && strcmp(no_fp64, "0")) ctx->info.fp64 = 0;
    ctx->trace = getenv("BCHOL_TRACE") != NULL; /* read once: not in every launch */
    /* Testing aid: fewer work-groups per launch than the driver takes (launch.c). */
    const char *groups = getenv("BCHOL_MAX_GROUPS_PER_LAUNCH");
    ctx->max_groups_per_launch = groups && *groups ? atoll(groups) : 0;
    /* Testing aid: the rule for one launch of a small variable-size batch on any device. */
    const char *one = getenv("BCHOL_VBATCHED_ONE_LAUNCH_PER_CU");
    ctx->one_launch_per_cu = one && *one ? atoi(one) : -1;
    /* Testing aid: every kernel's work-group limit at most this (launch.c). */
    const char *wg = getenv("BCHOL_KERNEL_WG_LIMIT");
    ctx->kernel_wg_limit = wg && atoll(wg) > 0 ? (size_t)atoll(wg) : 0;
    /* llvmpipe ends every loop of a work-item after 65535 iterations in all (on Rusticl
     * 22.3 a kernel counting to 70000 stops at 65535; test_loop_limit): results computed
     * past that are wrong without a word, so the routines refuse sizes whose loops would
     * run longer. */
    const char *loops = getenv("BCHOL_LOOP_LIMIT");
    ctx->loop_limit = !strncmp(ctx->info.name, "llvmpipe", 8) ? 65535 : 0;
    if (loops && atoll(loops) > 0) ctx->loop_limit = atoll(loops);
    const bchol_backend *backend = bchol__backend_for(platform, device, &ctx->info);
    if (backend->prepare_driver) backend->prepare_driver(&ctx->info);
    bchol__defaults_select(ctx, backend);
    /* Testing aid: bchol's binary cache on a driver that has its own (PoCL), or off. */
    const char *bin = getenv("BCHOL_BINARY_CACHE");
    ctx->binary_cache = ctx->backend->binary_cache;
    if (bin && (!strcmp(bin, "on") || !strcmp(bin, "1"))) ctx->binary_cache = 1;
    if (bin && (!strcmp(bin, "off") || !strcmp(bin, "0"))) ctx->binary_cache = 0;
    *out = ctx;
    return BCHOL_SUCCESS;
}

bchol_status bchol_context_create(const char *device_spec, bchol_context **out)
{
    cl_platform_id platform;
    cl_device_id device;
    int pindex, dindex;
    if (!out) return bchol__fail(NULL, BCHOL_ERR_ARGUMENT, "bchol_context_create: ctx is NULL");
    *out = NULL;
    bchol_status st = bchol__select_device(device_spec, &platform, &device, &pindex, &dindex);
    if (st) return st;

    bchol_context *ctx;
    if ((st = context_new(platform, device, &ctx))) return st;
    ctx->info.platform_index = pindex;
    ctx->info.device_index = dindex;

    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    ctx->cl_ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
    if (!ctx->cl_ctx) {
        st = bchol__fail_cl(NULL, err, "bchol_context_create: clCreateContext");
        bchol_context_destroy(ctx);
        return st;
    }
    ctx->queue = clCreateCommandQueue(ctx->cl_ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!ctx->queue) {
        st = bchol__fail_cl(NULL, err, "bchol_context_create: clCreateCommandQueue");
        bchol_context_destroy(ctx);
        return st;
    }
    *out = ctx;
    return BCHOL_SUCCESS;
}

bchol_status bchol_context_create_from_queue(cl_command_queue queue, bchol_context **out)
{
    cl_context clctx;
    cl_device_id device;
    cl_platform_id platform;
    cl_command_queue_properties qprops;
    if (!out)
        return bchol__fail(NULL, BCHOL_ERR_ARGUMENT,
                           "bchol_context_create_from_queue: ctx is NULL");
    *out = NULL;
    if (!queue ||
        clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof clctx, &clctx, NULL) ||
        clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL) ||
        clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof qprops, &qprops, NULL) ||
        clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL))
        return bchol__fail(NULL, BCHOL_ERR_QUEUE,
                           "bchol_context_create_from_queue: queue is not a valid command "
                           "queue");
    /* Routines chain their launches through queue order. */
    if (qprops & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return bchol__fail(NULL, BCHOL_ERR_QUEUE,
                           "bchol_context_create_from_queue: the queue is out of order; bchol "
                           "needs an in-order queue");
    bchol_context *ctx;
    bchol_status st = context_new(platform, device, &ctx);
    if (st) return st;
    clRetainContext(clctx);
    clRetainCommandQueue(queue);
    ctx->cl_ctx = clctx;
    ctx->queue = queue;
    *out = ctx;
    return BCHOL_SUCCESS;
}

void bchol_context_destroy(bchol_context *ctx)
{
    if (!ctx) return;
    if (ctx->timed_first) clReleaseEvent(ctx->timed_first);
    if (ctx->timed_last) clReleaseEvent(ctx->timed_last);
    bchol__program_cache_release(ctx);
    bchol__workspace_free(ctx);
    if (ctx->release_clblast) ctx->release_clblast();
    if (ctx->release_tuning) ctx->release_tuning(ctx);
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->cl_ctx) clReleaseContext(ctx->cl_ctx);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

cl_command_queue bchol_context_queue(const bchol_context *ctx) { return ctx ? ctx->queue : NULL; }
cl_context bchol_context_cl_context(const bchol_context *ctx) { return ctx ? ctx->cl_ctx : NULL; }
cl_device_id bchol_context_device_id(const bchol_context *ctx) { return ctx ? ctx->device : NULL; }

bchol_status bchol_context_device_info(const bchol_context *ctx, bchol_device_info *info)
{
    if (!ctx) return bchol__fail(NULL, BCHOL_ERR_CONTEXT, "bchol_context_device_info: ctx is NULL");
    if (!info)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "bchol_context_device_info: info is NULL");
    *info = ctx->info;
    return BCHOL_SUCCESS;
}

void bchol_context_set_timing(bchol_context *ctx, int on)
{
    if (ctx) ctx->timing = on != 0;
}

bchol_status bchol_last_call_ms(bchol_context *ctx, double *ms)
{
    if (!ctx) return bchol__fail(NULL, BCHOL_ERR_CONTEXT, "bchol_last_call_ms: ctx is NULL");
    if (!ms) return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "bchol_last_call_ms: ms is NULL");
    *ms = 0;
    pthread_mutex_lock(&ctx->lock);
    cl_event first = ctx->timed_first, last = ctx->timed_last;
    if (first) clRetainEvent(first);
    if (last) clRetainEvent(last);
    pthread_mutex_unlock(&ctx->lock);
    if (!first || !last) {
        if (first) clReleaseEvent(first);
        if (last) clReleaseEvent(last);
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "bchol_last_call_ms: no timed call (turn timing on with "
                           "bchol_context_set_timing before the call)");
    }
    cl_ulong start = 0, end = 0;
    cl_int err = clWaitForEvents(1, &last);
    if (!err)
        err = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                      NULL);
    if (!err)
        err = clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    clReleaseEvent(first);
    clReleaseEvent(last);
    if (err) return bchol__fail_cl(ctx, err, "bchol_last_call_ms: profiling information");
    *ms = (double)(end - start) * 1e-6;
    return BCHOL_SUCCESS;
}
