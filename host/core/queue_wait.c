/* Waits for the host: a read whose data is in host memory on return, a routine's event
 * that must show it ran, and a drain after which no queued command still uses the caller's
 * memory. The read and the drain wait on an event of their
 * own rather than trust a blocking read or clFinish: Mesa Rusticl 22.3 (Debian 12) returns
 * from those early while other host threads enqueue on the same queue (test_concurrency's
 * one_context found it; a plain OpenCL program with four threads sharing an in-order queue
 * shows it too), and waits on events stay right there. */
#include "core/core.h"

cl_int bchol__read_wait(cl_command_queue q, cl_mem buffer, size_t offset, size_t bytes, void *host,
                        cl_event *event)
{
    cl_event ev = NULL;
    cl_int err = clEnqueueReadBuffer(q, buffer, CL_FALSE, offset, bytes, host, 0, NULL, &ev);
    if (event) *event = NULL;
    if (err) return err;
    /* clWaitForEvents fails for a read that failed. A wait that fails otherwise does not
     * mean the read did not happen (the host memory may still change): one more wait. */
    if ((err = clWaitForEvents(1, &ev))) err = clWaitForEvents(1, &ev);
    if (!err && event)
        *event = ev;
    else
        clReleaseEvent(ev);
    return err;
}

cl_int bchol__wait_ran(cl_event ev)
{
    cl_int status = CL_COMPLETE, err;
    if (!(err = clWaitForEvents(1, &ev)))
        err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    if (!err && status < 0) err = status;
    clReleaseEvent(ev);
    return err;
}

cl_int bchol__queue_drain(cl_command_queue q)
{
    /* In an in-order queue a marker without a wait list completes after every command
     * enqueued before it; clFinish only where the marker could not be made or waited for. */
    cl_event marker = NULL;
    cl_int err = clEnqueueMarkerWithWaitList(q, 0, NULL, &marker);
    if (err) return clFinish(q);
    err = clWaitForEvents(1, &marker);
    clReleaseEvent(marker);
    return err ? clFinish(q) : CL_SUCCESS;
}
