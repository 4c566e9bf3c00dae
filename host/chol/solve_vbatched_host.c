/* bchol_{s,d}{potrs,posv}_vbatched_host: synchronous solve of a variable-size batch in host
 * arrays. The span of the matrices and the span of the right-hand sides each go to one
 * device allocation; the per-matrix arrays go as they are (offsets shifted to the spans),
 * so that the device checks give the same info codes as for device arrays. The largest n
 * and nrhs are found here, so the _ex path runs and nothing extra is read back. */
#include "chol/chol.h"

#include <limits.h>
#include <stdlib.h>

/* [*start, *end) of an entry's rows x cols block with leading dimension ld if the device
 * could accept it; 0 if it has none. */
static int footprint(int rows, int cols, int ld, int64_t offset, uint64_t *start, uint64_t *end) {
    if (rows <= 0 || cols <= 0 || ld < rows || offset < 0) return 0;
    uint64_t span = (uint64_t)(cols - 1) * (uint64_t)ld + (uint64_t)rows;
    if ((uint64_t)offset > UINT64_MAX - span) return 0;
    *start = (uint64_t)offset;
    *end = (uint64_t)offset + span;
    return 1;
}

/* A device buffer, a copy of host if not NULL; nothing once *err is set. */
static cl_mem device_buffer(bchol_context *ctx, cl_mem_flags flags, size_t bytes, const void *host,
                            cl_int *err) {
    if (*err) return NULL;
    return clCreateBuffer(ctx->cl_ctx, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                          (void *)host, err);
}

/* One of the two spans: lowest start and highest end, and offsets shifted to it. */
typedef struct {
    uint64_t lo, hi;
    int64_t *shifted;
} span_t;

static void find_span(const int *rows, const int *cols, const int *ld, const int64_t *offsets,
                      int64_t batch, int square, span_t *s) {
    uint64_t a, e;
    s->lo = UINT64_MAX;
    s->hi = 0;
    for (int64_t b = 0; b < batch; b++) {
        const int c = square ? rows[b] : cols[b];
        if (footprint(rows[b], c, ld[b], offsets[b], &a, &e) && (!square || e - a <= INT_MAX)) {
            s->lo = a < s->lo ? a : s->lo;
            s->hi = e > s->hi ? e : s->hi;
        }
    }
    for (int64_t b = 0; b < batch; b++) {
        const int c = square ? rows[b] : cols[b];
        if (footprint(rows[b], c, ld[b], offsets[b], &a, &e) && (!square || e - a <= INT_MAX))
            s->shifted[b] = (int64_t)(a - s->lo);
        else /* rejected on the device whatever its offset, or empty (not referenced) */
            s->shifted[b] = offsets[b] < 0 ? offsets[b] : 0;
    }
}

static bchol_status solve_host(bchol_context *ctx, const char *routine, bchol_precision p,
                               int factor, char uplo, const int *n, const int *nrhs, const int *lda,
                               const int *ldb, const int64_t *offsets_a, void *A,
                               const int64_t *offsets_b, void *B, int64_t batch, int *info) {
    int upper;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = bchol__check_uplo(ctx, routine, 2, uplo, &upper))) return st;
    struct {
        const void *ptr;
        bchol_status code;
        int pos;
        const char *name;
    } arrays[] = {{n, BCHOL_ERR_N_ARRAY, 3, "n"},
                  {nrhs, BCHOL_ERR_NRHS_ARRAY, 4, "nrhs"},
                  {lda, BCHOL_ERR_LDA_ARRAY, 5, "lda"},
                  {ldb, BCHOL_ERR_LDB_ARRAY, 6, "ldb"},
                  {offsets_a, BCHOL_ERR_OFFSETS_A, 7, "offsets_a"}};
    for (int i = 0; i < 5; i++)
        if (batch > 0 && !arrays[i].ptr)
            return bchol__fail(ctx, arrays[i].code, "%s: argument %d (%s) is NULL", routine,
                               arrays[i].pos, arrays[i].name);
    if (batch > 0 && !offsets_b)
        return bchol__fail(ctx, BCHOL_ERR_OFFSETS_B, "%s: argument 9 (offsets_b) is NULL", routine);
    if (batch < 0 || batch > INT64_MAX / 8)
        return bchol__fail(ctx, BCHOL_ERR_BATCH,
                           "%s: argument 11 (batch = %lld) must be in [0, 2^60)", routine,
                           (long long)batch);
    if (batch > 0 && !info)
        return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument 12 (info) is NULL", routine);
    if (batch == 0) return bchol__check_precision(ctx, routine, p);

    span_t sa, sb;
    sa.shifted = malloc((size_t)batch * sizeof(int64_t));
    sb.shifted = malloc((size_t)batch * sizeof(int64_t));
    if (!sa.shifted || !sb.shifted) {
        free(sa.shifted);
        free(sb.shifted);
        return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "%s: host memory", routine);
    }
    find_span(n, NULL, lda, offsets_a, batch, 1, &sa);
    find_span(n, nrhs, ldb, offsets_b, batch, 0, &sb);
    int max_n = 0, max_nrhs = 0;
    for (int64_t b = 0; b < batch; b++) {
        if (n[b] > max_n && lda[b] >= n[b] && offsets_a[b] >= 0) max_n = n[b];
        if (nrhs[b] > max_nrhs && ldb[b] >= (n[b] > 1 ? n[b] : 1) && offsets_b[b] >= 0)
            max_nrhs = nrhs[b];
    }
    const size_t es = bchol__elem_size(p);
    const uint64_t a_elems = sa.hi > sa.lo ? sa.hi - sa.lo : 1;
    const uint64_t b_elems = sb.hi > sb.lo ? sb.hi - sb.lo : 1;
    st = BCHOL_SUCCESS;
    if (sa.hi > 0 && !A)
        st = bchol__fail(ctx, BCHOL_ERR_A, "%s: argument 8 (A) is NULL", routine);
    else if (sb.hi > 0 && !B)
        st = bchol__fail(ctx, BCHOL_ERR_B, "%s: argument 10 (B) is NULL", routine);
    else if (!(st = bchol__check_host_span(ctx, routine, BCHOL_ERR_OFFSETS_A,
                                            "argument 7 (offsets_a): A", A, sa.hi, es)) &&
             !(st = bchol__check_host_span(ctx, routine, BCHOL_ERR_OFFSETS_B,
                                            "argument 9 (offsets_b): B", B, sb.hi, es)) &&
             !(st = bchol__check_host_span(ctx, routine, BCHOL_ERR_BATCH,
                                            "argument 11 (batch): info", info, (uint64_t)batch,
                                            sizeof(int))) &&
             /* after every argument check: a bad argument is named even without fp64 */
             !(st = bchol__check_precision(ctx, routine, p)) &&
             (a_elems > ctx->info.max_alloc / es || b_elems > ctx->info.max_alloc / es))
        st = bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY,
                         "%s: the matrices span %llu and the right-hand sides %llu elements; "
                         "the device's largest allocation holds %llu",
                         routine, (unsigned long long)a_elems, (unsigned long long)b_elems,
                         (unsigned long long)(ctx->info.max_alloc / es));
    if (st) {
        free(sa.shifted);
        free(sb.shifted);
        return st;
    }

    cl_int err = CL_SUCCESS;
    const size_t ints = (size_t)batch * sizeof(cl_int), longs = (size_t)batch * sizeof(cl_long);
    char *hostA = sa.hi > sa.lo ? (char *)A + sa.lo * es : NULL;
    char *hostB = sb.hi > sb.lo ? (char *)B + sb.lo * es : NULL;
    cl_mem dA = device_buffer(ctx, CL_MEM_READ_WRITE, a_elems * es, NULL, &err);
    cl_mem dB = device_buffer(ctx, CL_MEM_READ_WRITE, b_elems * es, NULL, &err);
    cl_mem dn = device_buffer(ctx, CL_MEM_READ_ONLY, ints, n, &err);
    cl_mem dnrhs = device_buffer(ctx, CL_MEM_READ_ONLY, ints, nrhs, &err);
    cl_mem dlda = device_buffer(ctx, CL_MEM_READ_ONLY, ints, lda, &err);
    cl_mem dldb = device_buffer(ctx, CL_MEM_READ_ONLY, ints, ldb, &err);
    cl_mem doffa = device_buffer(ctx, CL_MEM_READ_ONLY, longs, sa.shifted, &err);
    cl_mem doffb = device_buffer(ctx, CL_MEM_READ_ONLY, longs, sb.shifted, &err);
    cl_mem dinfo = device_buffer(ctx, CL_MEM_READ_WRITE, ints, NULL, &err);
    static const bchol_solve_params defaults = {0};
    if (err) {
        st = bchol__fail_cl(ctx, err, routine);
    } else if ((hostA && (err = clEnqueueWriteBuffer(ctx->queue, dA, CL_FALSE, 0, a_elems * es,
                                                     hostA, 0, NULL, NULL))) ||
               (hostB && (err = clEnqueueWriteBuffer(ctx->queue, dB, CL_FALSE, 0, b_elems * es,
                                                     hostB, 0, NULL, NULL)))) {
        st = bchol__fail_cl(ctx, err, "clEnqueueWriteBuffer");
    } else if (!(st = bchol__solve_vbatched(ctx, routine, p, factor, &defaults, uplo, max_n,
                                            max_nrhs, dn, dnrhs, dlda, dldb, doffa, dA, doffb, dB,
                                            batch, dinfo, NULL))) {
        if ((factor && hostA &&
             (err = clEnqueueReadBuffer(ctx->queue, dA, CL_FALSE, 0, a_elems * es, hostA, 0, NULL,
                                        NULL))) ||
            (hostB && (err = clEnqueueReadBuffer(ctx->queue, dB, CL_FALSE, 0, b_elems * es, hostB,
                                                 0, NULL, NULL))) ||
            (err = bchol__read_wait(ctx->queue, dinfo, 0, ints, info, NULL)))
            st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
    }
    /* Wait before releasing: the reads target the caller's memory. */
    bchol__queue_drain(ctx->queue);
    cl_mem all[] = {dinfo, doffb, doffa, dldb, dlda, dnrhs, dn, dB, dA};
    for (int i = 0; i < 9; i++)
        if (all[i]) clReleaseMemObject(all[i]);
    free(sa.shifted);
    free(sb.shifted);
    return st;
}

bchol_status bchol_spotrs_vbatched_host(bchol_context *ctx, char uplo, const int *n,
                                        const int *nrhs, const int *lda, const int *ldb,
                                        const int64_t *offsets_a, const float *A,
                                        const int64_t *offsets_b, float *B, int64_t batch,
                                        int *info) {
    return solve_host(ctx, "bchol_spotrs_vbatched_host", BCHOL_S, 0, uplo, n, nrhs, lda, ldb,
                      offsets_a, (void *)A, offsets_b, B, batch, info);
}

bchol_status bchol_dpotrs_vbatched_host(bchol_context *ctx, char uplo, const int *n,
                                        const int *nrhs, const int *lda, const int *ldb,
                                        const int64_t *offsets_a, const double *A,
                                        const int64_t *offsets_b, double *B, int64_t batch,
                                        int *info) {
    return solve_host(ctx, "bchol_dpotrs_vbatched_host", BCHOL_D, 0, uplo, n, nrhs, lda, ldb,
                      offsets_a, (void *)A, offsets_b, B, batch, info);
}

bchol_status bchol_sposv_vbatched_host(bchol_context *ctx, char uplo, const int *n, const int *nrhs,
                                       const int *lda, const int *ldb, const int64_t *offsets_a,
                                       float *A, const int64_t *offsets_b, float *B, int64_t batch,
                                       int *info) {
    return solve_host(ctx, "bchol_sposv_vbatched_host", BCHOL_S, 1, uplo, n, nrhs, lda, ldb,
                      offsets_a, A, offsets_b, B, batch, info);
}

bchol_status bchol_dposv_vbatched_host(bchol_context *ctx, char uplo, const int *n, const int *nrhs,
                                       const int *lda, const int *ldb, const int64_t *offsets_a,
                                       double *A, const int64_t *offsets_b, double *B,
                                       int64_t batch, int *info) {
    return solve_host(ctx, "bchol_dposv_vbatched_host", BCHOL_D, 1, uplo, n, nrhs, lda, ldb,
                      offsets_a, A, offsets_b, B, batch, info);
}
