/* Kernel launches of one routine call: arguments set and kernel enqueued under the
 * context lock (cl_kernel objects are shared), events chained by queue order, the last
 * one handed to the caller, first and last kept for timing. */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>

void bchol__call_begin(bchol_call *call, bchol_context *ctx)
{
    call->ctx = ctx;
    call->first = call->last = NULL;
    call->launches = 0;
}

void bchol__call_add_event(bchol_call *call, cl_event ev)
{
    if (!call->first) {
        call->first = ev;
        clRetainEvent(ev);
    }
    if (call->last) clReleaseEvent(call->last);
    call->last = ev;
    call->launches++;
}

/* BCHOL_TRACE: each launch waited for and its device time printed on stderr, to see where
 * a routine's time goes (the waits stall the queue: not for timing whole calls). */
static void trace(cl_kernel kernel, cl_event ev, cl_uint dims, const size_t *global,
                  const size_t *local)
{
    char name[64] = "?";
    cl_ulong start = 0, end = 0;
    clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    name[sizeof name - 1] = 0;
    if (clWaitForEvents(1, &ev) ||
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) ||
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL))
        return;
    fprintf(stderr, "bchol trace: %-28s %10zux%-6zu groups of %4zux%-3zu %9.2f us\n", name,
            global[0], dims > 1 ? global[1] : 1, local ? local[0] : 0, local && dims > 1 ? local[1] : 1,
            (double)(end - start) * 1e-3);
}

bchol_status bchol__launch(bchol_call *call, cl_kernel kernel, int nargs, const bchol_arg *args,
                           cl_uint dims, const size_t *global, const size_t *local)
{
    bchol_context *ctx = call->ctx;
    cl_int err = CL_SUCCESS;
    cl_event ev = NULL;
    pthread_mutex_lock(&ctx->lock);
    for (int i = 0; i < nargs && !err; i++)
        err = clSetKernelArg(kernel, (cl_uint)i, args[i].size, args[i].value);
    if (!err) err = clEnqueueNDRangeKernel(ctx->queue, kernel, dims, NULL, global, local, 0, NULL, &ev);
    pthread_mutex_unlock(&ctx->lock);
    if (err) {
        char what[96];
        snprintf(what, sizeof what, "launch of %zux%zu work-items in groups of %zux%zu",
                 global[0], dims > 1 ? global[1] : 1, local ? local[0] : 0,
                 local && dims > 1 ? local[1] : 1);
        return bchol__fail_cl(ctx, err, what);
    }
    bchol__call_add_event(call, ev);
    if (ctx->trace) trace(kernel, ev, dims, global, local);
    return BCHOL_SUCCESS;
}

bchol_status bchol__call_end(bchol_call *call, bchol_status status, cl_event *event)
{
    bchol_context *ctx = call->ctx;
    if (event) *event = NULL;
    if (!status && call->last) {
        if (event) {
            clRetainEvent(call->last);
            *event = call->last;
        }
        if (ctx->timing) {
            pthread_mutex_lock(&ctx->lock);
            if (ctx->timed_first) clReleaseEvent(ctx->timed_first);
            if (ctx->timed_last) clReleaseEvent(ctx->timed_last);
            clRetainEvent(call->first);
            clRetainEvent(call->last);
            ctx->timed_first = call->first;
            ctx->timed_last = call->last;
            pthread_mutex_unlock(&ctx->lock);
        }
    }
    if (call->first) clReleaseEvent(call->first);
    if (call->last) clReleaseEvent(call->last);
    call->first = call->last = NULL;
    return status;
}

int64_t bchol__launch_batch_limit(const bchol_context *ctx, int64_t per_group, size_t local)
{
    /* at most 2^31-1 work-items per launch, whatever the driver claims */
    int64_t groups = ctx->backend->max_groups_per_launch;
    if (local && groups > (int64_t)(2147483647 / local)) groups = (int64_t)(2147483647 / local);
    const long long cap = ctx->max_groups_per_launch; /* a testing aid, 0 when unset */
    if (cap > 0 && cap < groups) groups = cap;
    return groups * per_group;
}

bchol_status bchol__launch_groups(bchol_call *call, cl_kernel kernel, bchol_arg *args, int nargs,
                                  int g0_arg, uint64_t groups, size_t local)
{
    const uint64_t per_launch = (uint64_t)bchol__launch_batch_limit(call->ctx, 1, local);
    for (cl_ulong g0 = 0; g0 < groups; g0 += per_launch) {
        const uint64_t count = groups - g0 < per_launch ? groups - g0 : per_launch;
        const size_t global = (size_t)count * local;
        args[g0_arg] = BCHOL_ARG(g0);
        bchol_status st = bchol__launch(call, kernel, nargs, args, 1, &global, &local);
        if (st) return st;
    }
    return BCHOL_SUCCESS;
}

bchol_status bchol__launch_items(bchol_call *call, cl_kernel kernel, bchol_arg *args, int nargs,
                                 int b0_arg, int64_t batch, size_t local)
{
    const size_t limit = bchol__kernel_wg_limit(call->ctx, kernel);
    if (local > limit) local = limit > 0 ? limit : 1;
    const int64_t chunk = bchol__launch_batch_limit(call->ctx, (int64_t)local, local);
    for (int64_t first = 0; first < batch; first += chunk) {
        cl_ulong b0 = (cl_ulong)first;
        cl_ulong count = (cl_ulong)(batch - first < chunk ? batch - first : chunk);
        const size_t global = (size_t)((count + local - 1) / local) * local;
        args[b0_arg] = BCHOL_ARG(b0);
        args[b0_arg + 1] = BCHOL_ARG(count);
        bchol_status st = bchol__launch(call, kernel, nargs, args, 1, &global, &local);
        if (st) return st;
    }
    return BCHOL_SUCCESS;
}

uint64_t bchol__usable_local_mem(const bchol_context *ctx)
{
    return ctx->info.local_mem_usable; /* the backend's reserve taken off (device.c) */
}

size_t bchol__device_wg_limit(const bchol_context *ctx)
{
    size_t wg = ctx->info.max_work_group;
    if (ctx->kernel_wg_limit && wg > ctx->kernel_wg_limit) wg = ctx->kernel_wg_limit;
    return wg ? wg : 1; /* never 0: the variant drivers divide by it */
}

size_t bchol__kernel_wg_limit(const bchol_context *ctx, cl_kernel kernel)
{
    size_t wg = 0;
    if (clGetKernelWorkGroupInfo(kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg,
                                 NULL) != CL_SUCCESS || wg == 0)
        return bchol__device_wg_limit(ctx);
    if (ctx->kernel_wg_limit && wg > ctx->kernel_wg_limit) wg = ctx->kernel_wg_limit;
    return wg;
}

bchol_status bchol__check_loops(bchol_context *ctx, const char *what, int n, double iterations)
{
    /* The estimates count a kernel's main loops, not what its compiler leaves of the inner
     * ones: 0.6 of the limit kept every size it let through right on llvmpipe (potrf and
     * getrf workitem, the workitem and substitution solves, n up to 1100), where a full
     * limit let wrong ones through (workitem potrf n = 112, solves n = 500). */
    if (!ctx->loop_limit || iterations <= 0.6 * (double)ctx->loop_limit) return BCHOL_SUCCESS;
    return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                       "%s: n = %d takes about %.0f loop iterations a work-item; this device "
                       "ends a work-item's loops after %lld, as llvmpipe's loop limiter does, "
                       "which would leave the result wrong",
                       what, n, iterations, ctx->loop_limit);
}

long long bchol__solve_group(int n, const bchol_solve_params *s)
{
    const int rpt = s->rpt > 0 ? s->rpt : 1;
    return (((long long)n + rpt - 1) / rpt) * (s->tbc > 0 ? s->tbc : 1);
}

bchol_status bchol__solve_fit(bchol_context *ctx, bchol_solve_params *prm, int n, int nrhs,
                              const char *what, bchol_solve_build build, const void *arg,
                              cl_kernel *kernel)
{
    bchol_status st;
    /* Fewer columns than a tile holds would only compute zeros. */
    while (prm->nt > 1 && prm->nt / 2 >= nrhs) prm->nt /= 2;

    /* One work-item per RPT rows of a tile. If the built kernel takes fewer work-items
     * than that needs, put fewer tiles in a group, then give each work-item more rows. */
    for (int tries = 0;; tries++) {
        if ((st = build(ctx, prm, arg, kernel))) return st;
        const size_t limit = bchol__kernel_wg_limit(ctx, *kernel);
        const size_t want = (size_t)bchol__ceil_div(n, prm->rpt) * (size_t)prm->tbc;
        /* 2n steps (forward, backward); past 32 values a work-item (rpt rows of nt
         * columns) llvmpipe's LLVM 15 keeps a step's row and column loops as loops */
        const double tile = (double)prm->rpt * (prm->nt > 0 ? prm->nt : 1);
        if (want <= limit)
            return bchol__check_loops(ctx, what, n,
                                      2.0 * n * (tile > 32 ? 1 + 2.0 * prm->rpt + tile : 1));
        if (tries == 8 || (prm->tbc == 1 && prm->rpt >= 64))
            return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                               "%s: no work-group shape fits n = %d (the kernel takes at most %zu "
                               "work-items, rpt = %d)",
                               what, n, limit, prm->rpt);
        if (prm->tbc > 1) {
            const size_t fit = limit / (size_t)bchol__ceil_div(n, prm->rpt);
            prm->tbc = fit > 1 ? (int)fit : 1;
        } else {
            const int need = bchol__ceil_div(n, (int)limit);
            prm->rpt = prm->rpt * 2 > need ? prm->rpt * 2 : need;
            if (prm->rpt > 64) prm->rpt = 64;
        }
    }
}

bchol_status bchol__fill_int(bchol_call *call, cl_mem buffer, int value, int64_t count)
{
    cl_event ev;
    cl_int v = value;
    cl_int err = clEnqueueFillBuffer(call->ctx->queue, buffer, &v, sizeof v, 0,
                                     (size_t)count * sizeof v, 0, NULL, &ev);
    if (err) return bchol__fail_cl(call->ctx, err, "clEnqueueFillBuffer");
    bchol__call_add_event(call, ev);
    return BCHOL_SUCCESS;
}

void bchol__call_join(bchol_call *call, cl_event ev)
{
    bchol_context *ctx = call->ctx;
    if (!ev) return;
    if (!call->first && ctx->timing) {
        /* The nested call recorded its span as the context's last timed call. */
        pthread_mutex_lock(&ctx->lock);
        if (ctx->timed_last == ev && ctx->timed_first) {
            call->first = ctx->timed_first;
            clRetainEvent(call->first);
        }
        pthread_mutex_unlock(&ctx->lock);
    }
    bchol__call_add_event(call, ev);
}
