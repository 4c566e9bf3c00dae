/* bchol_{s,d}potrf_batched_host: synchronous factorization of host arrays, in pieces
 * (core's bchol__host_pieces, halving a piece the device refuses memory for), so that after
 * a failure every matrix of the caller is either as it was or factored (with its info). */
#include "chol/chol.h"

#include <stdio.h>

typedef struct {
    const char *routine;
    bchol_precision p;
    char uplo;
    int n, lda;
    int64_t stride;
} potrf_piece;

static bchol_status run_piece(bchol_context *ctx, void *arg, const cl_mem *bufs, cl_mem info,
                              int64_t count, cl_event *ev) {
    const potrf_piece *j = arg;
    return bchol__potrf_batched(ctx, j->routine, j->p, NULL, j->uplo, j->n, bufs[0], 0, j->lda,
                                j->stride, count, info, ev);
}

/* The caller's A and info must lie in the address space (pieces are found by pointer
 * arithmetic that would wrap). */
static bchol_status check_spans(bchol_context *ctx, const char *routine, bchol_precision p, int n,
                                const void *A, int lda, int64_t stride, int64_t batch,
                                const int *info) {
    char what[120];
    uint64_t span = 0;
    bchol_status st;
    snprintf(what, sizeof what, "argument 6 (stride = %lld) with batch = %lld: A", (long long)stride,
             (long long)batch);
    if (batch > 0 && n > 0 && bchol__batch_span(0, stride, batch, lda, n, n, &span))
        span = UINT64_MAX; /* beyond 2^64 elements: fails below */
    if ((st = bchol__check_host_span(ctx, routine, BCHOL_ERR_STRIDE_A, what, A, span,
                                     bchol__elem_size(p))))
        return st;
    snprintf(what, sizeof what, "argument 7 (batch = %lld): info", (long long)batch);
    return bchol__check_host_span(ctx, routine, BCHOL_ERR_BATCH, what, info, (uint64_t)batch,
                                  sizeof(int));
}

static bchol_status potrf_host(bchol_context *ctx, const char *routine, bchol_precision p,
                               char uplo, int n, void *A, int lda, int64_t stride, int64_t batch,
                               int *info) {
    int upper;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = bchol__check_uplo(ctx, routine, 2, uplo, &upper))) return st;
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 0", routine, n);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA,
                           "%s: argument 5 (lda = %d) must be >= max(1, n) = %d", routine, lda,
                           n > 1 ? n : 1);
    if ((st = bchol__check_index_span(ctx, routine, 3, n, lda))) return st;
    if (stride < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument 6 (stride = %lld) must be >= lda*n = %lld", routine,
                           (long long)stride, (long long)lda * n);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 7 (batch = %lld) must be >= 0",
                           routine, (long long)batch);
    if (batch > 0 && n > 0 && !A)
        return bchol__fail(ctx, BCHOL_ERR_A, "%s: argument 4 (A) is NULL", routine);
    if (batch > 0 && !info)
        return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument 8 (info) is NULL", routine);
    if ((st = check_spans(ctx, routine, p, n, A, lda, stride, batch, info))) return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    if (n == 0) {
        for (int64_t b = 0; b < batch; b++)
            info[b] = 0;
        return BCHOL_SUCCESS;
    }

    potrf_piece piece = {routine, p, uplo, n, lda, stride};
    const bchol__host_job job = {routine, "factorization", 1, run_piece, &piece};
    const bchol__host_array a = {A, stride, (uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)n,
                                 bchol__elem_size(p), 1};
    return bchol__host_pieces(ctx, &job, &a, 1, info, batch);
}

bchol_status bchol_spotrf_batched_host(bchol_context *ctx, char uplo, int n, float *A, int lda,
                                       int64_t stride, int64_t batch, int *info) {
    return potrf_host(ctx, "bchol_spotrf_batched_host", BCHOL_S, uplo, n, A, lda, stride, batch,
                      info);
}

bchol_status bchol_dpotrf_batched_host(bchol_context *ctx, char uplo, int n, double *A, int lda,
                                       int64_t stride, int64_t batch, int *info) {
    return potrf_host(ctx, "bchol_dpotrf_batched_host", BCHOL_D, uplo, n, A, lda, stride, batch,
                      info);
}
