/* bchol_{s,d}{potrf,potrs,posv}_interleaved_host: synchronous factorizations and solves of
 * interleaved batches in host arrays, through one set of device buffers reused for every
 * piece of the batch. A piece is whole chunks (consecutive chunks are one contiguous
 * range of the layout) and as many as one device allocation holds; when the device
 * refuses memory before anything has come back, the piece is halved and tried again. A
 * piece is copied back only once its work has run, so that after a failure every matrix
 * (and its right-hand sides and info) is either as it was or done. */
#include "chol/interleaved.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Matrices per piece at most: bounds the host copy of a piece's info (64 MiB). */
#define MAX_PIECE ((int64_t)1 << 24)
/* The device buffers hold the lanes of a piece's last, partial chunk rounded up to this
 * (within the chunk), so that the work-groups of the device routines (at most 64 lanes)
 * find every lane they read and may take the fast, aligned kernels. */
#define LANE_ROUND 64

enum { POTRF, POTRS, POSV };

typedef struct {
    bchol_context *ctx;
    const char *routine;
    bchol_precision p;
    int what, n, nrhs;
    char uplo;
    int64_t chunk;
    size_t es;
} job;

/* Elements of the rows-by-cols interleaved blocks of count matrices copied to or from the
 * host (the span bchol.h requires), and those the device buffer holds (the last chunk's
 * lanes rounded up). */
static uint64_t copied(const job *j, int rows, int cols, int64_t count) {
    return bchol__interleaved_span_rect(rows, cols, count, j->chunk);
}

static uint64_t held(const job *j, int rows, int cols, int64_t count) {
    const int64_t last = (count - 1) % j->chunk + 1;
    int64_t lanes = (last + LANE_ROUND - 1) / LANE_ROUND * LANE_ROUND;
    if (lanes > j->chunk) lanes = j->chunk;
    return bchol__interleaved_span_rect(rows, cols, count - last + lanes, j->chunk);
}

/* Copies the rows-by-cols blocks of count matrices from host (a piece's start) to d,
 * zeroing the lanes the device holds past them (never copied back: they only keep the
 * kernels' reads of padding lanes defined). */
static cl_int upload(const job *j, cl_mem d, const char *host, int rows, int cols, int64_t count) {
    const uint64_t c = copied(j, rows, cols, count), h = held(j, rows, cols, count);
    cl_int err =
        clEnqueueWriteBuffer(j->ctx->queue, d, CL_FALSE, 0, (size_t)c * j->es, host, 0, NULL, NULL);
    if (!err && h > c) {
        const double zero = 0;
        err = clEnqueueFillBuffer(j->ctx->queue, d, &zero, j->es, (size_t)c * j->es,
                                  (size_t)(h - c) * j->es, 0, NULL, NULL);
    }
    return err;
}

/* Runs one piece of count matrices (host arrays hA, hB, info at the piece) through the
 * device buffers. *copying is set once the copy back has begun: the caller's memory may
 * have changed. */
static bchol_status run_piece(const job *j, char *hA, char *hB, int *info, int64_t count, cl_mem dA,
                              cl_mem dB, cl_mem dI, int *tmp, int *copying) {
    bchol_context *ctx = j->ctx;
    const int n = j->n, solve = j->what != POTRF && j->nrhs > 0, factor = j->what != POTRS;
    const size_t ibytes = (size_t)count * sizeof(cl_int);
    cl_event ev = NULL;
    bchol_status st = BCHOL_SUCCESS;
    cl_int err = upload(j, dA, hA, n, n, count);
    if (!err && solve) err = upload(j, dB, hB, n, j->nrhs, count);
    if (err) {
        st = bchol__fail_cl(ctx, err, "clEnqueueWriteBuffer");
    } else {
        if (j->what == POTRF)
            st = bchol__potrf_interleaved(ctx, j->routine, j->p, NULL, j->uplo, n, dA, count,
                                          j->chunk, dI, &ev);
        else if (j->what == POTRS)
            st = bchol__potrs_interleaved(ctx, j->routine, j->p, NULL, j->uplo, n, j->nrhs, dA, dB,
                                          count, j->chunk, &ev);
        else
            st = bchol__posv_interleaved(ctx, j->routine, j->p, NULL, j->uplo, n, j->nrhs, dA, dB,
                                         count, j->chunk, dI, &ev);
    }
    if (!st) {
        /* The work must have run (drivers report a failed execution, e.g. memory they could
         * not back, only in its event) before anything comes back. */
        if (ev) err = bchol__wait_ran(ev);
        const uint64_t ca = copied(j, n, n, count);
        const uint64_t cb = solve ? copied(j, n, j->nrhs, count) : 0;
        if (err) {
            st = bchol__fail_cl(ctx, err, j->what == POTRS ? "solve" : "factorization");
        } else if (factor && (err = bchol__read_wait(ctx->queue, dI, 0, ibytes, tmp, NULL))) {
            /* info comes back to tmp first, so that the caller's info changes together
             * with the matrices, once they are back */
            st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
        } else {
            *copying = 1;
            if (factor) err = bchol__read_wait(ctx->queue, dA, 0, (size_t)ca * j->es, hA, NULL);
            if (!err && solve)
                err = bchol__read_wait(ctx->queue, dB, 0, (size_t)cb * j->es, hB, NULL);
            if (err)
                st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
            else if (factor)
                memcpy(info, tmp, ibytes);
        }
    }
    /* Nothing may still read or write the caller's memory once we return. */
    if (st) bchol__queue_drain(ctx->queue);
    return st;
}

/* Chunks per piece whose device buffers fit one allocation: whole chunks, or 0 if not
 * even one does (the caller then tries the batch's only, partial chunk alone). */
static int64_t chunks_that_fit(const job *j, uint64_t per_lane) {
    const uint64_t max_alloc = j->ctx->info.max_alloc;
    const uint64_t lane_bytes = per_lane * j->es;
    if ((uint64_t)j->chunk > max_alloc / lane_bytes) return 0;
    return (int64_t)(max_alloc / (lane_bytes * (uint64_t)j->chunk));
}

static bchol_status ilv_host(bchol_context *ctx, const char *routine, bchol_precision p, int what,
                             char uplo, int n, int nrhs, void *A, void *B, int64_t batch,
                             int64_t chunk, int *info) {
    /* positions: potrf (uplo, n, A, batch, chunk, info); the solves (uplo, n, nrhs, A, B,
     * batch, chunk[, info]) */
    const int k = what == POTRF ? 0 : 1;
    int upper;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = bchol__check_uplo(ctx, routine, 2, uplo, &upper))) return st;
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 0", routine, n);
    if (what != POTRF && nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 4 (nrhs = %d) must be >= 0", routine,
                           nrhs);
    if (what == POTRF) nrhs = 0;
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument %d (batch = %lld) must be >= 0",
                           routine, 5 + 2 * k, (long long)batch);
    if (chunk < 1)
        return bchol__fail(ctx, BCHOL_ERR_CHUNK, "%s: argument %d (chunk = %lld) must be >= 1",
                           routine, 6 + 2 * k, (long long)chunk);
    const int factor = what != POTRS, solve = what != POTRF && n > 0 && nrhs > 0;
    if (batch > 0 && n > 0 && (factor || solve) && !A)
        return bchol__fail(ctx, BCHOL_ERR_A, "%s: argument %d (A) is NULL", routine, 4 + k);
    if (batch > 0 && solve && !B)
        return bchol__fail(ctx, BCHOL_ERR_B, "%s: argument 6 (B) is NULL", routine);
    if (batch > 0 && factor && !info)
        return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument %d (info) is NULL", routine,
                           7 + 2 * k);
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0 || (!factor && !solve)) return BCHOL_SUCCESS;
    char what_[120];
    snprintf(what_, sizeof what_, "argument %d (batch = %lld): info", 5 + 2 * k, (long long)batch);
    if (factor && (st = bchol__check_host_span(ctx, routine, BCHOL_ERR_BATCH, what_, info,
                                               (uint64_t)batch, sizeof(int))))
        return st;
    if (n == 0) {
        for (int64_t b = 0; b < batch; b++)
            info[b] = 0;
        return BCHOL_SUCCESS;
    }

    job j = {ctx, routine, p, what, n, nrhs, uplo, chunk, bchol__elem_size(p)};
    const uint64_t span_a = bchol__interleaved_span(n, batch, chunk);
    const uint64_t span_b = solve ? bchol__interleaved_span_rect(n, nrhs, batch, chunk) : 1;
    snprintf(what_, sizeof what_, "the interleaved batch of A (n = %d, chunk = %lld)", n,
             (long long)chunk);
    if ((st = bchol__check_host_span(ctx, routine, BCHOL_ERR_A_SIZE, what_, A,
                                     span_a ? span_a : UINT64_MAX, j.es)))
        return st;
    snprintf(what_, sizeof what_, "the interleaved batch of B (n = %d, nrhs = %d, chunk = %lld)",
             n, nrhs, (long long)chunk);
    if (solve && (st = bchol__check_host_span(ctx, routine, BCHOL_ERR_B_SIZE, what_, B,
                                              span_b ? span_b : UINT64_MAX, j.es)))
        return st;

    /* Chunks per piece: the larger of A's and B's blocks decides. */
    const uint64_t per_a = (uint64_t)n * (uint64_t)n, per_b = solve ? (uint64_t)n * nrhs : 0;
    int64_t chunks = chunks_that_fit(&j, per_a > per_b ? per_a : per_b);
    const int64_t nchunks = (batch - 1) / chunk + 1;
    if (chunks > nchunks) chunks = nchunks;
    if (chunks > 1 && chunks > MAX_PIECE / chunk)
        chunks = MAX_PIECE / chunk > 1 ? MAX_PIECE / chunk : 1;
    if (chunks == 0) {
        /* one chunk does not fit: only the batch's one partial chunk might */
        const uint64_t max_alloc = ctx->info.max_alloc;
        if (nchunks > 1 || held(&j, n, n, batch) > max_alloc / j.es ||
            (solve && held(&j, n, nrhs, batch) > max_alloc / j.es))
            return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY,
                               "%s: one chunk of %lld matrices (n = %d%s) exceeds the device's "
                               "largest allocation (%llu bytes); a smaller chunk splits",
                               routine, (long long)(nchunks > 1 ? chunk : batch), n,
                               solve ? " with its right-hand sides" : "",
                               (unsigned long long)max_alloc);
        chunks = 1;
    }

    int *tmp = NULL;
    cl_mem dA = NULL, dB = NULL, dI = NULL;
    int64_t done = 0, piece = chunks * chunk < batch ? chunks * chunk : batch;
    st = BCHOL_SUCCESS;
    while (done < batch) {
        const int64_t count = batch - done < piece ? batch - done : piece;
        int copying = 0;
        if (!dA) {
            cl_int err = CL_SUCCESS;
            dA = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                (size_t)held(&j, n, n, piece) * j.es, NULL, &err);
            if (dA && solve)
                dB = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                    (size_t)held(&j, n, nrhs, piece) * j.es, NULL, &err);
            if (dA && (dB || !solve) && factor)
                dI = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, (size_t)piece * sizeof(cl_int),
                                    NULL, &err);
            if (!dA || (solve && !dB) || (factor && !dI))
                st = bchol__fail_cl(ctx, err, "clCreateBuffer");
            if (!st && factor && !(tmp = malloc((size_t)piece * sizeof(int))))
                st = bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "%s: no host memory", routine);
        }
        if (!st) {
            const uint64_t q0 = (uint64_t)(done / chunk) * (uint64_t)chunk;
            char *hA = (char *)A + (size_t)(q0 * per_a) * j.es;
            char *hB = solve ? (char *)B + (size_t)(q0 * per_b) * j.es : NULL;
            st = run_piece(&j, hA, hB, factor ? info + done : NULL, count, dA, dB, dI, tmp,
                           &copying);
        }
        if (!st) {
            done += count;
            continue;
        }
        /* Out of device memory before anything came back: try again with half the piece,
         * in whole chunks. */
        if (done > 0 || copying || piece <= chunk ||
            (st != BCHOL_ERR_OUT_OF_MEMORY && st != BCHOL_ERR_RESOURCES))
            break;
        piece = ((piece + chunk - 1) / chunk + 1) / 2 * chunk;
        if (dI) clReleaseMemObject(dI);
        if (dB) clReleaseMemObject(dB);
        if (dA) clReleaseMemObject(dA);
        free(tmp);
        dA = dB = dI = NULL;
        tmp = NULL;
        st = BCHOL_SUCCESS;
    }
    if (dI) clReleaseMemObject(dI);
    if (dB) clReleaseMemObject(dB);
    if (dA) clReleaseMemObject(dA);
    free(tmp);
    return st;
}

bchol_status bchol_spotrf_interleaved_host(bchol_context *ctx, char uplo, int n, float *A,
                                           int64_t batch, int64_t chunk, int *info) {
    return ilv_host(ctx, "bchol_spotrf_interleaved_host", BCHOL_S, POTRF, uplo, n, 0, A, NULL,
                    batch, chunk, info);
}

bchol_status bchol_dpotrf_interleaved_host(bchol_context *ctx, char uplo, int n, double *A,
                                           int64_t batch, int64_t chunk, int *info) {
    return ilv_host(ctx, "bchol_dpotrf_interleaved_host", BCHOL_D, POTRF, uplo, n, 0, A, NULL,
                    batch, chunk, info);
}

bchol_status bchol_spotrs_interleaved_host(bchol_context *ctx, char uplo, int n, int nrhs,
                                           const float *A, float *B, int64_t batch, int64_t chunk) {
    return ilv_host(ctx, "bchol_spotrs_interleaved_host", BCHOL_S, POTRS, uplo, n, nrhs, (void *)A,
                    B, batch, chunk, NULL);
}

bchol_status bchol_dpotrs_interleaved_host(bchol_context *ctx, char uplo, int n, int nrhs,
                                           const double *A, double *B, int64_t batch,
                                           int64_t chunk) {
    return ilv_host(ctx, "bchol_dpotrs_interleaved_host", BCHOL_D, POTRS, uplo, n, nrhs, (void *)A,
                    B, batch, chunk, NULL);
}

bchol_status bchol_sposv_interleaved_host(bchol_context *ctx, char uplo, int n, int nrhs, float *A,
                                          float *B, int64_t batch, int64_t chunk, int *info) {
    return ilv_host(ctx, "bchol_sposv_interleaved_host", BCHOL_S, POSV, uplo, n, nrhs, A, B, batch,
                    chunk, info);
}

bchol_status bchol_dposv_interleaved_host(bchol_context *ctx, char uplo, int n, int nrhs, double *A,
                                          double *B, int64_t batch, int64_t chunk, int *info) {
    return ilv_host(ctx, "bchol_dposv_interleaved_host", BCHOL_D, POSV, uplo, n, nrhs, A, B, batch,
                    chunk, info);
}
