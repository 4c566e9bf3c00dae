/* bchol__host_pieces: the piece loop of the host-array forms. The caller's arrays go to
 * the device in pieces of whole matrices through one set of device buffers, made for the
 * largest piece that one device allocation holds and reused for every piece; the device
 * routine runs on each piece, and what it may write comes back only after it has run, so
 * that after a failure every matrix of the caller is either as it was or done (with its
 * info). With halve set, a piece that the device refuses memory for before anything has
 * come back is halved and tried again. */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

/* Matrices per piece at most where info comes back: bounds its host copy (64 MiB). */
#define MAX_PIECE_WITH_INFO ((int64_t)1 << 24)

/* Elements that count matrices of a span, first to last. */
static uint64_t span(const bchol__host_array *a, int64_t count) {
    return (uint64_t)(count - 1) * (uint64_t)a->stride + a->last;
}

/* The caller's memory of array a from matrix first on. */
static char *at(const bchol__host_array *a, int64_t first) {
    return (char *)a->host + (size_t)first * (size_t)a->stride * a->elem;
}

static void release(cl_mem *bufs, int narrays, cl_mem *dinfo) {
    if (*dinfo) clReleaseMemObject(*dinfo);
    for (int i = narrays - 1; i >= 0; i--)
        if (bufs[i]) clReleaseMemObject(bufs[i]);
    for (int i = 0; i < narrays; i++)
        bufs[i] = NULL;
    *dinfo = NULL;
}

/* One buffer an array and one for info (where the routine has it), each for piece
 * matrices; fails naming clCreateBuffer and leaves the ones made for release(). */
static bchol_status create(bchol_context *ctx, const bchol__host_array *arrays, int narrays,
                           int with_info, int64_t piece, cl_mem *bufs, cl_mem *dinfo) {
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < narrays; i++) {
        const cl_mem_flags flags = arrays[i].out ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY;
        bufs[i] = clCreateBuffer(ctx->cl_ctx, flags,
                                 (size_t)span(&arrays[i], piece) * arrays[i].elem, NULL, &err);
        if (!bufs[i]) return bchol__fail_cl(ctx, err, "clCreateBuffer");
    }
    if (with_info && !(*dinfo = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                               (size_t)piece * sizeof(cl_int), NULL, &err)))
        return bchol__fail_cl(ctx, err, "clCreateBuffer");
    return BCHOL_SUCCESS;
}

/* Runs one piece of count matrices from matrix first: the arrays in, the routine, then
 * info into tmp, the arrays the routine writes back (the last read blocking), and info
 * from tmp, so that the caller's info and arrays change together (the last read waited
 * for: in queue order the others are done then). *copying is set once
 * the copy back has begun: the caller's memory may have changed. */
static bchol_status run_piece(bchol_context *ctx, const bchol__host_array *arrays, int narrays,
                              int *info, int64_t first, int64_t count, const cl_mem *bufs,
                              cl_mem dinfo, int *tmp, const bchol__host_job *job, int *copying) {
    const size_t ibytes = (size_t)count * sizeof(cl_int);
    cl_command_queue q = ctx->queue;
    cl_event ev = NULL;
    bchol_status st = BCHOL_SUCCESS;
    cl_int err = CL_SUCCESS;
    int last_out = -1;
    for (int i = 0; i < narrays && !err; i++) {
        err = clEnqueueWriteBuffer(q, bufs[i], CL_FALSE, 0,
                                   (size_t)span(&arrays[i], count) * arrays[i].elem,
                                   at(&arrays[i], first), 0, NULL, NULL);
        if (arrays[i].out) last_out = i;
    }
    if (err) {
        st = bchol__fail_cl(ctx, err, "clEnqueueWriteBuffer");
    } else if (!(st = job->run(ctx, job->arg, bufs, dinfo, count, &ev))) {
        if (ev && (err = bchol__wait_ran(ev))) {
            st = bchol__fail_cl(ctx, err, job->work);
        } else if (info &&
                   (err = clEnqueueReadBuffer(q, dinfo, CL_FALSE, 0, ibytes, tmp, 0, NULL, NULL))) {
            st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
        } else {
            *copying = 1;
            for (int i = 0; i <= last_out && !err; i++) {
                if (!arrays[i].out) continue;
                const size_t bytes = (size_t)span(&arrays[i], count) * arrays[i].elem;
                err = i == last_out
                          ? bchol__read_wait(q, bufs[i], 0, bytes, at(&arrays[i], first), NULL)
                          : clEnqueueReadBuffer(q, bufs[i], CL_FALSE, 0, bytes,
                                                at(&arrays[i], first), 0, NULL, NULL);
            }
            if (!err && last_out < 0) err = bchol__queue_drain(q);
            if (err)
                st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
            else if (info)
                memcpy(info + first, tmp, ibytes);
        }
    }
    /* Nothing may still read or write the caller's memory once we return. */
    if (st) bchol__queue_drain(q);
    return st;
}

bchol_status bchol__host_pieces(bchol_context *ctx, const bchol__host_job *job,
                                const bchol__host_array *arrays, int narrays, int *info,
                                int64_t batch) {
    const char *routine = job->routine;
    const uint64_t max_alloc = ctx->info.max_alloc;
    /* matrices one allocation holds, 1 + (room after one matrix) / stride, counted in
     * elements so that no product wraps (a batch of one may have any stride) */
    int64_t piece = batch;
    for (int i = 0; i < narrays; i++) {
        const bchol__host_array *a = &arrays[i];
        if (a->last * a->elem > max_alloc)
            return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY,
                               "%s: one matrix (%llu bytes) exceeds the device's largest "
                               "allocation (%llu bytes)",
                               routine, (unsigned long long)(a->last * a->elem),
                               (unsigned long long)max_alloc);
        const uint64_t fit = 1 + (max_alloc - a->last * a->elem) / a->elem / (uint64_t)a->stride;
        if (fit < (uint64_t)piece) piece = (int64_t)fit;
    }
    if (info && piece > MAX_PIECE_WITH_INFO) piece = MAX_PIECE_WITH_INFO;

    cl_mem bufs[BCHOL__HOST_ARRAYS_MAX] = {NULL}, dinfo = NULL;
    int *tmp = NULL;
    if (info && !(tmp = malloc((size_t)piece * sizeof(int))))
        return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "%s: no host memory", routine);
    bchol_status st = BCHOL_SUCCESS;
    int64_t done = 0;
    while (done < batch) {
        const int64_t count = batch - done < piece ? batch - done : piece;
        int copying = 0;
        if (!bufs[0]) st = create(ctx, arrays, narrays, info != NULL, piece, bufs, &dinfo);
        if (!st)
            st =
                run_piece(ctx, arrays, narrays, info, done, count, bufs, dinfo, tmp, job, &copying);
        if (!st) {
            done += count;
            continue;
        }
        /* Out of device memory before anything came back: try again with half the piece. */
        if (!job->halve || done > 0 || copying || piece == 1 ||
            (st != BCHOL_ERR_OUT_OF_MEMORY && st != BCHOL_ERR_RESOURCES))
            break;
        piece = (piece + 1) / 2;
        release(bufs, narrays, &dinfo);
        st = BCHOL_SUCCESS;
    }
    release(bufs, narrays, &dinfo);
    free(tmp);
    return st;
}
