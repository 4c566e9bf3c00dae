/* bchol_{s,d}potrf_vbatched_host: synchronous factorization of a variable-size batch in
 * host arrays. The span of the matrices goes to one device allocation; the per-matrix
 * arrays go as they are (offsets shifted to the span), so that the device checks give the
 * same info codes as for device arrays. */
#include "chol/chol.h"

#include <limits.h>
#include <stdlib.h>

/* The footprint [start, end) of entry b if the device could accept it; 0 if none. */
static int footprint(int n, int lda, int64_t offset, uint64_t *start, uint64_t *end)
{
    if (n <= 0 || lda < n || offset < 0) return 0;
    uint64_t span = (uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)n;
    if (span > INT_MAX || (uint64_t)offset > UINT64_MAX - span) return 0;
    *start = (uint64_t)offset;
    *end = (uint64_t)offset + span;
    return 1;
}

/* A device buffer, a copy of host if not NULL; nothing once *err is set. */
static cl_mem device_buffer(bchol_context *ctx, cl_mem_flags flags, size_t bytes, const void *host,
                            cl_int *err)
{
    if (*err) return NULL;
    return clCreateBuffer(ctx->cl_ctx, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                          (void *)host, err);
}

static bchol_status vbatched_host(bchol_context *ctx, const char *routine, bchol_precision p,
                                  char uplo, const int *n, const int *lda, const int64_t *offsets,
                                  void *A, int64_t batch, int *info)
{
    int upper;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = bchol__check_uplo(ctx, routine, 2, uplo, &upper))) return st;
    if (batch > 0 && !n)
        return bchol__fail(ctx, BCHOL_ERR_N_ARRAY, "%s: argument 3 (n) is NULL", routine);
    if (batch > 0 && !lda)
        return bchol__fail(ctx, BCHOL_ERR_LDA_ARRAY, "%s: argument 4 (lda) is NULL", routine);
    if (batch > 0 && !offsets)
        return bchol__fail(ctx, BCHOL_ERR_OFFSETS_A, "%s: argument 5 (offsets) is NULL", routine);
    if (batch < 0 || batch > INT64_MAX / 8)
        return bchol__fail(ctx, BCHOL_ERR_BATCH,
                           "%s: argument 7 (batch = %lld) must be in [0, 2^60)", routine,
                           (long long)batch);
    if (batch > 0 && !info)
        return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument 8 (info) is NULL", routine);
    if (batch == 0) return bchol__check_precision(ctx, routine, p);

    uint64_t lo = UINT64_MAX, hi = 0, s, e;
    int max_n = 0;
    for (int64_t b = 0; b < batch; b++)
        if (footprint(n[b], lda[b], offsets[b], &s, &e)) {
            lo = s < lo ? s : lo;
            hi = e > hi ? e : hi;
            max_n = n[b] > max_n ? n[b] : max_n;
        }
    if (hi > 0 && !A) return bchol__fail(ctx, BCHOL_ERR_A, "%s: argument 6 (A) is NULL", routine);
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    const size_t es = bchol__elem_size(p);
    if ((st = bchol__check_host_span(ctx, routine, BCHOL_ERR_OFFSETS_A, "argument 5 (offsets): A",
                                     A, hi, es)) ||
        (st = bchol__check_host_span(ctx, routine, BCHOL_ERR_BATCH, "argument 7 (batch): info",
                                     info, (uint64_t)batch, sizeof(int))))
        return st;
    const uint64_t elems = hi > lo ? hi - lo : 1;
    if (elems > ctx->info.max_alloc / es)
        return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY,
                           "%s: the matrices span %llu elements; the device's largest allocation "
                           "holds %llu",
                           routine, (unsigned long long)elems,
                           (unsigned long long)(ctx->info.max_alloc / es));
    int64_t *shifted = malloc((size_t)batch * sizeof *shifted);
    if (!shifted) return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "%s: host memory", routine);
    for (int64_t b = 0; b < batch; b++) {
        if (footprint(n[b], lda[b], offsets[b], &s, &e))
            shifted[b] = (int64_t)(s - lo);
        else /* rejected on the device whatever its offset, or n = 0 (not referenced) */
            shifted[b] = offsets[b] < 0 ? offsets[b] : 0;
    }

    cl_int err = CL_SUCCESS;
    const size_t ints = (size_t)batch * sizeof(cl_int);
    char *hostA = hi > lo ? (char *)A + lo * es : NULL;
    cl_mem dA = device_buffer(ctx, CL_MEM_READ_WRITE, elems * es, NULL, &err);
    cl_mem dn = device_buffer(ctx, CL_MEM_READ_ONLY, ints, n, &err);
    cl_mem dlda = device_buffer(ctx, CL_MEM_READ_ONLY, ints, lda, &err);
    cl_mem doff =
        device_buffer(ctx, CL_MEM_READ_ONLY, (size_t)batch * sizeof(cl_long), shifted, &err);
    cl_mem dinfo = device_buffer(ctx, CL_MEM_READ_WRITE, ints, NULL, &err);
    static const bchol_vbatched_params defaults = {{0}, BCHOL_ETM_DEFAULT, BCHOL_SCHEDULE_DEFAULT, 0, BCHOL_ORDER_DEFAULT};
    if (err) {
        st = bchol__fail_cl(ctx, err, routine);
    } else if (hostA && (err = clEnqueueWriteBuffer(ctx->queue, dA, CL_FALSE, 0, elems * es, hostA,
                                                    0, NULL, NULL))) {
        st = bchol__fail_cl(ctx, err, "clEnqueueWriteBuffer");
    } else if (!(st = bchol__potrf_vbatched(ctx, routine, p, &defaults, uplo, max_n, dn, dlda, doff,
                                            dA, batch, dinfo, NULL))) {
        if ((hostA && (err = clEnqueueReadBuffer(ctx->queue, dA, CL_FALSE, 0, elems * es, hostA, 0,
                                                 NULL, NULL))) ||
            (err = bchol__read_wait(ctx->queue, dinfo, 0, ints, info, NULL)))
            st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
    }
    /* Wait before releasing: the reads target the caller's memory. */
    bchol__queue_drain(ctx->queue);
    cl_mem all[] = {dinfo, doff, dlda, dn, dA};
    for (int i = 0; i < 5; i++)
        if (all[i]) clReleaseMemObject(all[i]);
    free(shifted);
    return st;
}

bchol_status bchol_spotrf_vbatched_host(bchol_context *ctx, char uplo, const int *n, const int *lda,
                                        const int64_t *offsets, float *A, int64_t batch, int *info)
{
    return vbatched_host(ctx, "bchol_spotrf_vbatched_host", BCHOL_S, uplo, n, lda, offsets, A,
                         batch, info);
}

bchol_status bchol_dpotrf_vbatched_host(bchol_context *ctx, char uplo, const int *n, const int *lda,
                                        const int64_t *offsets, double *A, int64_t batch, int *info)
{
    return vbatched_host(ctx, "bchol_dpotrf_vbatched_host", BCHOL_D, uplo, n, lda, offsets, A,
                         batch, info);
}
