/* bchol_{s,d}getrf_vbatched_host and bchol_{s,d}gesv_vbatched_host: synchronous
 * conveniences on host arrays, as potrf_vbatched_host. The span of the matrices (of the
 * pivots, of the right-hand sides) goes to one device allocation each; the per-matrix
 * arrays go as they are with the offsets shifted to the spans, so that the device checks
 * give the same info codes as for device arrays. */
#include "lu/lu.h"

#include <limits.h>
#include <stdlib.h>

/* Footprint [start, end) of an entry the device could accept (span elements from offset,
 * span > 0); 0 if none. */
static int footprint(uint64_t span, int64_t offset, uint64_t *start, uint64_t *end)
{
    if (span == 0 || offset < 0 || (uint64_t)offset > UINT64_MAX - span) return 0;
    *start = (uint64_t)offset;
    *end = (uint64_t)offset + span;
    return 1;
}

static uint64_t a_span(int m, int n, int lda)
{
    if (m <= 0 || n <= 0 || lda < m) return 0;
    const uint64_t s = (uint64_t)(n - 1) * (uint64_t)lda + (uint64_t)m;
    return s > INT_MAX ? 0 : s;
}

static uint64_t b_span(int n, int nrhs, int ldb)
{
    if (n <= 0 || nrhs <= 0 || ldb < n) return 0;
    return (uint64_t)(nrhs - 1) * (uint64_t)ldb + (uint64_t)n;
}

/* One array of the call: its span [lo, hi) and shifted offsets. */
typedef struct {
    uint64_t lo, hi;
    int64_t *shifted;
    cl_mem buf, offs;
} piece;

static void place(piece *pc, int64_t batch, const int64_t *offsets, const uint64_t *spans)
{
    uint64_t s, e;
    pc->lo = UINT64_MAX, pc->hi = 0;
    for (int64_t b = 0; b < batch; b++)
        if (footprint(spans[b], offsets[b], &s, &e)) {
            pc->lo = s < pc->lo ? s : pc->lo;
            pc->hi = e > pc->hi ? e : pc->hi;
        }
    for (int64_t b = 0; b < batch; b++)
        pc->shifted[b] = footprint(spans[b], offsets[b], &s, &e) ? (int64_t)(s - pc->lo)
                         : offsets[b] < 0                       ? offsets[b]
                                                                : 0;
}

static bchol_status host_form(bchol_context *ctx, const char *routine, bchol_precision p,
                              int solve, const int *m, const int *n, const int *nrhs,
                              const int *lda,
                              const int *ldb, const int64_t *offsets_a, void *A,
                              const int64_t *offsets_p, int *ipiv, const int64_t *offsets_b,
                              void *B, int64_t batch, int *info)
{
    /* positions: getrf (m 2, n 3, lda 4, offsets_a 5, A 6, offsets_p 7, ipiv 8, batch 9,
     * info 10); gesv (n 2, nrhs 3, lda 4, ldb 5, offsets_a 6, A 7, offsets_p 8, ipiv 9,
     * offsets_b 10, B 11, batch 12, info 13; square: m is n) */
    const int pn = solve ? 2 : 3, pa = 4, pp = solve ? 8 : 7, pbt = solve ? 12 : 9;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (batch < 0 || batch > INT64_MAX / 8)
        return bchol__fail(ctx, BCHOL_ERR_BATCH,
                           "%s: argument %d (batch = %lld) must be in [0, 2^60)", routine, pbt,
                           (long long)batch);
    if (batch > 0) {
        if (!solve && !m)
            return bchol__fail(ctx, BCHOL_ERR_M_ARRAY, "%s: argument 2 (m) is NULL", routine);
        if (!n)
            return bchol__fail(ctx, BCHOL_ERR_N_ARRAY, "%s: argument %d (n) is NULL", routine, pn);
        if (solve && !nrhs)
            return bchol__fail(ctx, BCHOL_ERR_NRHS_ARRAY, "%s: argument 3 (nrhs) is NULL", routine);
        if (!lda)
            return bchol__fail(ctx, BCHOL_ERR_LDA_ARRAY, "%s: argument %d (lda) is NULL", routine,
                               pa);
        if (solve && !ldb)
            return bchol__fail(ctx, BCHOL_ERR_LDB_ARRAY, "%s: argument 5 (ldb) is NULL", routine);
        if (!offsets_a)
            return bchol__fail(ctx, BCHOL_ERR_OFFSETS_A, "%s: argument %d (offsets_a) is NULL",
                               routine, pa + (solve ? 2 : 1));
        if (!offsets_p)
            return bchol__fail(ctx, BCHOL_ERR_OFFSETS_P, "%s: argument %d (offsets_p) is NULL",
                               routine, pp);
        if (solve && !offsets_b)
            return bchol__fail(ctx, BCHOL_ERR_OFFSETS_B, "%s: argument 10 (offsets_b) is NULL",
                               routine);
        if (!info)
            return bchol__fail(ctx, BCHOL_ERR_INFO, "%s: argument %d (info) is NULL", routine,
                               pbt + 1);
    }
    if (batch == 0) return bchol__check_precision(ctx, routine, p);

    uint64_t *spans = malloc((size_t)batch * sizeof *spans);
    piece pcs[3] = {{0}};
    for (int i = 0; i < 3; i++) pcs[i].shifted = malloc((size_t)batch * sizeof(int64_t));
    if (!spans || !pcs[0].shifted || !pcs[1].shifted || !pcs[2].shifted) {
        free(spans);
        for (int i = 0; i < 3; i++) free(pcs[i].shifted);
        return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "%s: host memory", routine);
    }
    if (solve) m = n;
    int max_m = 0, max_n = 0, max_nrhs = 0;
    for (int64_t b = 0; b < batch; b++) {
        spans[b] = a_span(m[b], n[b], lda[b]);
        if (spans[b] && offsets_a[b] >= 0 && n[b] > max_n) max_n = n[b];
        if (spans[b] && offsets_a[b] >= 0 && m[b] > max_m) max_m = m[b];
    }
    place(&pcs[0], batch, offsets_a, spans);
    for (int64_t b = 0; b < batch; b++)
        spans[b] = m[b] > 0 && n[b] > 0 ? (uint64_t)(m[b] < n[b] ? m[b] : n[b]) : 0;
    place(&pcs[1], batch, offsets_p, spans);
    if (solve) {
        for (int64_t b = 0; b < batch; b++) {
            spans[b] = b_span(n[b], nrhs[b], ldb[b]);
            if (spans[b] && offsets_b[b] >= 0 && nrhs[b] > max_nrhs) max_nrhs = nrhs[b];
        }
        place(&pcs[2], batch, offsets_b, spans);
    }
    free(spans);
    void *hosts[3] = {A, ipiv, B};
    const size_t sizes[3] = {bchol__elem_size(p), sizeof(cl_int), bchol__elem_size(p)};
    static const char *const names[3] = {"A", "ipiv", "B"};
    const int pos[3] = {pa + (solve ? 3 : 2), pp + 1, 11};
    const bchol_status bad[3] = {BCHOL_ERR_A, BCHOL_ERR_IPIV, BCHOL_ERR_B};
    for (int i = 0; i < (solve ? 3 : 2) && !st; i++)
        if (pcs[i].hi > 0 && !hosts[i])
            st = bchol__fail(ctx, bad[i], "%s: argument %d (%s) is NULL", routine, pos[i],
                             names[i]);
    /* after every argument check: a bad argument is named even without fp64 */
    if (!st) st = bchol__check_precision(ctx, routine, p);
    for (int i = 0; i < (solve ? 3 : 2) && !st; i++) {
        const uint64_t elems = pcs[i].hi > pcs[i].lo ? pcs[i].hi - pcs[i].lo : 1;
        if (elems > ctx->info.max_alloc / sizes[i])
            st = bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY,
                             "%s: the %s span %llu elements; the device's largest allocation "
                             "holds %llu",
                             routine, names[i], (unsigned long long)elems,
                             (unsigned long long)(ctx->info.max_alloc / sizes[i]));
    }

    cl_int err = CL_SUCCESS;
    const size_t ints = (size_t)batch * sizeof(cl_int), longs = (size_t)batch * sizeof(cl_long);
    cl_mem dm = NULL, dn = NULL, dk = NULL, dlda = NULL, dldb = NULL, dinfo = NULL;
    if (!st) {
        for (int i = 0; i < (solve ? 3 : 2) && !err; i++) {
            piece *pc = &pcs[i];
            const uint64_t elems = pc->hi > pc->lo ? pc->hi - pc->lo : 1;
            void *h = pc->hi > pc->lo ? (char *)hosts[i] + pc->lo * sizes[i] : NULL;
            pc->buf = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE | (h ? CL_MEM_COPY_HOST_PTR : 0),
                                     elems * sizes[i], h, &err);
            if (!err)
                pc->offs = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                          longs, pc->shifted, &err);
        }
        if (!err) dn = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ints, (void *)n, &err);
        if (!err && !solve) dm = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ints, (void *)m, &err);
        if (!err) dlda = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ints, (void *)lda, &err);
        if (!err && solve) dk = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ints, (void *)nrhs, &err);
        if (!err && solve) dldb = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ints, (void *)ldb, &err);
        if (!err) dinfo = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, ints, NULL, &err);
        if (err) st = bchol__fail_cl(ctx, err, routine);
    }
    if (!st) {
        static const bchol_lu_params lu_defaults = {0, 0, 0, 0};
        static const bchol_solve_params solve_defaults = {0};
        st = solve ? bchol__lu_solve_vbatched(ctx, routine, p, 1, &solve_defaults, 'N', max_n,
                                              max_nrhs, dn, dk, dlda, dldb, pcs[0].offs,
                                              pcs[0].buf, pcs[1].offs, pcs[1].buf, pcs[2].offs,
                                              pcs[2].buf, batch, dinfo, NULL)
                   : bchol__getrf_vbatched_body(ctx, routine, p, &lu_defaults, max_m, max_n, dm,
                                                dn, dlda, pcs[0].offs, pcs[0].buf, pcs[1].offs,
                                                pcs[1].buf, batch, dinfo, NULL);
    }
    if (!st) {
        for (int i = 0; i < (solve ? 3 : 2) && !err; i++)
            if (pcs[i].hi > pcs[i].lo)
                err = clEnqueueReadBuffer(ctx->queue, pcs[i].buf, CL_FALSE, 0,
                                          (pcs[i].hi - pcs[i].lo) * sizes[i],
                                          (char *)hosts[i] + pcs[i].lo * sizes[i], 0, NULL, NULL);
        if (!err) err = bchol__read_wait(ctx->queue, dinfo, 0, ints, info, NULL);
        if (err) st = bchol__fail_cl(ctx, err, "clEnqueueReadBuffer");
    }
    /* Wait before releasing: the reads target the caller's memory. */
    bchol__queue_drain(ctx->queue);
    cl_mem all[] = {dm, dn, dk, dlda, dldb, dinfo, pcs[0].buf, pcs[0].offs, pcs[1].buf,
                    pcs[1].offs, pcs[2].buf, pcs[2].offs};
    for (int i = 0; i < 12; i++)
        if (all[i]) clReleaseMemObject(all[i]);
    for (int i = 0; i < 3; i++) free(pcs[i].shifted);
    return st;
}

bchol_status bchol_sgetrf_vbatched_host(bchol_context *ctx, const int *m, const int *n,
                                        const int *lda,
                                        const int64_t *offsets_a, float *A,
                                        const int64_t *offsets_p, int *ipiv, int64_t batch,
                                        int *info)
{
    return host_form(ctx, "bchol_sgetrf_vbatched_host", BCHOL_S, 0, m, n, NULL, lda, NULL, offsets_a,
                     A, offsets_p, ipiv, NULL, NULL, batch, info);
}

bchol_status bchol_dgetrf_vbatched_host(bchol_context *ctx, const int *m, const int *n,
                                        const int *lda,
                                        const int64_t *offsets_a, double *A,
                                        const int64_t *offsets_p, int *ipiv, int64_t batch,
                                        int *info)
{
    return host_form(ctx, "bchol_dgetrf_vbatched_host", BCHOL_D, 0, m, n, NULL, lda, NULL, offsets_a,
                     A, offsets_p, ipiv, NULL, NULL, batch, info);
}

bchol_status bchol_sgesv_vbatched_host(bchol_context *ctx, const int *n, const int *nrhs,
                                       const int *lda, const int *ldb, const int64_t *offsets_a,
                                       float *A, const int64_t *offsets_p, int *ipiv,
                                       const int64_t *offsets_b, float *B, int64_t batch,
                                       int *info)
{
    return host_form(ctx, "bchol_sgesv_vbatched_host", BCHOL_S, 1, n, n, nrhs, lda, ldb, offsets_a,
                     A, offsets_p, ipiv, offsets_b, B, batch, info);
}

bchol_status bchol_dgesv_vbatched_host(bchol_context *ctx, const int *n, const int *nrhs,
                                       const int *lda, const int *ldb, const int64_t *offsets_a,
                                       double *A, const int64_t *offsets_p, int *ipiv,
                                       const int64_t *offsets_b, double *B, int64_t batch,
                                       int *info)
{
    return host_form(ctx, "bchol_dgesv_vbatched_host", BCHOL_D, 1, n, n, nrhs, lda, ldb, offsets_a,
                     A, offsets_p, ipiv, offsets_b, B, batch, info);
}
