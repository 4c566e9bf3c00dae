/* Driver of the separate variant: right-looking blocked Cholesky over the whole batch
 * (Haidar et al. 2015, sections 4.2-4.3). For each nb-wide step j, with jb = min(nb, n-j):
 *
 *   potrf_panel     A11 = L11*L11**T (POTF2, nested blocking by pb) and W = L11**-1 (TRTRI)
 *   trsm_panel      L21 = A21 * W**T                               (GEMM, in place)
 *   syrk_trailing   A22 -= L21*L21**T on the stored triangle       (GEMM tiles)
 *
 * With the CLBlast GEMM, CLBlast's strided-batched GEMM updates the block columns of A22
 * below diagonal blocks of order gb, and syrk_trailing only those diagonal blocks, so
 * that neither writes outside the stored triangle. The batch goes through in chunks whose
 * inverses fit the workspace; launches are split where the grid would be too large. */
#include "chol/separate.h"
#include "blas/clblast_gemm.h"

static const char *const panel_files[] = {"common/common.cl", "chol/potrf_panel.cl", NULL};
static const char *const trsm_files[] = {"common/common.cl", "blas/gemm_tile.cl", "blas/trsm_panel.cl", NULL};
static const char *const syrk_files[] = {"common/common.cl", "blas/gemm_tile.cl", "blas/syrk_trailing.cl", NULL};

#define WORKSPACE_CAP BCHOL_SEPARATE_WORKSPACE_CAP

/* At least nb work-items (TRTRI gives each a row; nb <= 64), at most cap. */
static size_t panel_wg(const bchol_params *prm, size_t cap)
{
    const size_t want = (size_t)prm->nb * (size_t)prm->nb / 4;
    const size_t wg = want < 64 ? 64 : want > 256 ? 256 : want;
    return wg < cap ? wg : cap;
}

static void options_common(const bchol_context *ctx, bchol_options *o, bchol_precision p,
                           const bchol_params *prm, int upper,
                           int vbatched)
{
    bchol__options_init(o);
    bchol__options_precision(o, p);
    bchol__options_add(o, "-D UPPER=%d", upper);
    bchol__options_add(o, "-D NB=%d", prm->nb);
    if (vbatched) bchol__options_add(o, "-D VBATCHED=1");
    if (vbatched && ctx->backend->uniform_barrier_loops) bchol__options_add(o, "-D UNIFORM_LOOPS=1");
}

typedef bchol_separate_kernels separate_kernels;

/* The three kernels for work-groups of at most cap work-items; *limit: the lowest
 * kernel limit below the size its kernel was built for, else unchanged. */
static bchol_status build_for(bchol_context *ctx, bchol_precision p, const bchol_params *prm,
                              int upper, int vbatched, size_t cap, bchol_separate_kernels *k,
                              size_t *limit)
{
    bchol_options o;
    bchol_status st;
    const size_t es = bchol__elem_size(p);
    const int wg = bchol__tile_wg(cap);
    k->panel_wg = panel_wg(prm, cap);
    k->tile_wg = (size_t)wg;
    options_common(ctx, &o, p, prm, upper, vbatched);
    bchol__options_add(&o, "-D PB=%d", prm->pb < prm->nb ? prm->pb : prm->nb);
    bchol__options_add(&o, "-D PANEL_WG=%d", (int)k->panel_wg);
    if ((st = bchol__get_kernel_checked(ctx, panel_files, &o, "potrf_panel", k->panel_wg,
                          (size_t)prm->nb * (size_t)(prm->nb + 1) * es, &k->panel, limit)))
        return st;
    k->ts = bchol__trsm_shape(prm->nb, prm->tile, wg);
    options_common(ctx, &o, p, prm, upper, vbatched);
    bchol__tile_options(&o, k->ts);
    bchol__options_add(&o, "-D Y_LOWER_TRIANGULAR=1"); /* W = L11**-1 */
    if ((st = bchol__get_kernel_checked(ctx, trsm_files, &o, "trsm_panel", k->tile_wg, bchol__tile_local_bytes(p, k->ts),
                          &k->trsm, limit)))
        return st;
    k->ss = bchol__syrk_shape(prm->nb, prm->tile, wg);
    options_common(ctx, &o, p, prm, upper, vbatched);
    bchol__tile_options(&o, k->ss);
    return bchol__get_kernel_checked(ctx, syrk_files, &o, "syrk_trailing", k->tile_wg,
                       bchol__tile_local_bytes(p, k->ss), &k->syrk, limit);
}

bchol_status bchol__separate_kernels(bchol_context *ctx, bchol_precision p, const bchol_params *prm,
                                     int upper, int vbatched, bchol_separate_kernels *k)
{
    /* Up to 256 work-items per group where the kernels take them; where a kernel's limit
     * (CL_KERNEL_WORK_GROUP_SIZE) is lower, all three are built again under it: the same
     * tiles with more results per work-item, a narrower panel group. The panel's TRTRI
     * gives each row a work-item, so the limit bounds nb. Each round lowers the cap. */
    for (size_t cap = SIZE_MAX;;) {
        size_t limit = SIZE_MAX;
        bchol_status st = build_for(ctx, p, prm, upper, vbatched, cap, k, &limit);
        if (st || limit == SIZE_MAX) return st;
        if (limit < (size_t)prm->nb)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "separate variant: nb = %d needs potrf_panel work-groups of at "
                               "least nb work-items; the device runs its kernels with at most "
                               "%zu (lower params->nb)",
                               prm->nb, limit);
        cap = limit;
    }
}

/* The block columns of A22 below its diagonal blocks of order d, through CLBlast:
 * C -= L21(rows of C) * L21(columns of C)**T, in the orientation of the stored triangle. */
static bchol_status update_with_clblast(bchol_call *call, bchol_precision p, int upper, int n,
                                        int j, int jb, int d, cl_mem A, uint64_t off, int lda,
                                        uint64_t stride, int64_t count)
{
    const int m2 = n - j - jb;
    const uint64_t ld = (uint64_t)lda;
    for (int c0 = 0; c0 + d < m2; c0 += d) {
        const int r0 = c0 + d, rows = m2 - r0;
        const uint64_t c = (uint64_t)(j + jb + c0), r = (uint64_t)(j + jb + r0), k = (uint64_t)j;
        bchol_status st;
        if (!upper) {
            /* L(r0:, c0:c0+d) -= L21(r0:, :) * L21(c0:c0+d, :)**T */
            bchol_gemm_operand X = {A, off + r + k * ld, stride, lda};
            bchol_gemm_operand Y = {A, off + c + k * ld, stride, lda};
            bchol_gemm_operand C = {A, off + r + c * ld, stride, lda};
            st = bchol__clblast_gemm(call, p, 'N', 'T', rows, d, jb, -1.0, &X, &Y, 1.0, &C, count);
        } else {
            /* U(c0:c0+d, r0:) -= U12(:, c0:c0+d)**T * U12(:, r0:) */
            bchol_gemm_operand X = {A, off + k + c * ld, stride, lda};
            bchol_gemm_operand Y = {A, off + k + r * ld, stride, lda};
            bchol_gemm_operand C = {A, off + c + r * ld, stride, lda};
            st = bchol__clblast_gemm(call, p, 'T', 'N', d, rows, jb, -1.0, &X, &Y, 1.0, &C, count);
        }
        if (st) return st;
    }
    return BCHOL_SUCCESS;
}

/* All steps on matrices b0 .. b0+count-1, with W holding count inverses. */
static bchol_status factor_chunk(bchol_call *call, bchol_precision p, const bchol_params *prm,
                                 const separate_kernels *k, int upper, int n, cl_mem A,
                                 int64_t offset, int lda, int64_t stride, cl_mem info, cl_mem W,
                                 int64_t b0, int64_t count)
{
    const int use_clblast = prm->gemm == BCHOL_GEMM_CLBLAST;
    const int ts = prm->tile, d = bchol__ceil_div(prm->gb, ts) * ts;
    cl_ulong off = (cl_ulong)offset, str = (cl_ulong)stride, first = (cl_ulong)b0, cnt = (cl_ulong)count;
    cl_ulong g0 = 0;
    cl_int ld = lda, nn = n;
    bchol_status st;
    for (cl_int j = 0; j < n; j += prm->nb) {
        const int jb = bchol__min_int(prm->nb, n - j), m2 = n - j - jb;
        bchol_arg pa[] = {BCHOL_ARG(A), BCHOL_ARG(off), BCHOL_ARG(ld), BCHOL_ARG(str),
                          BCHOL_ARG(info), BCHOL_ARG(W), BCHOL_ARG(nn), BCHOL_ARG(j),
                          BCHOL_ARG(first), BCHOL_ARG(cnt), BCHOL_ARG(g0)};
        if ((st = bchol__launch_groups(call, k->panel, pa, 11, 10, (uint64_t)count, k->panel_wg))) return st;
        if (m2 == 0) break;

        cl_int tpm = bchol__ceil_div(m2, k->ts.tm);
        bchol_arg ta[] = {BCHOL_ARG(A), BCHOL_ARG(off), BCHOL_ARG(ld), BCHOL_ARG(str),
                          BCHOL_ARG(info), BCHOL_ARG(W), BCHOL_ARG(nn), BCHOL_ARG(j),
                          BCHOL_ARG(tpm), BCHOL_ARG(first), BCHOL_ARG(cnt), BCHOL_ARG(g0)};
        if ((st = bchol__launch_groups(call, k->trsm, ta, 12, 11, (uint64_t)count * (uint64_t)tpm, k->tile_wg)))
            return st;

        /* Diagonal blocks of qb tiles: one block over all of A22 with bchol's GEMM. */
        cl_int qb = use_clblast ? d / ts : bchol__ceil_div(m2, ts);
        const int blocks = use_clblast ? bchol__ceil_div(m2, d) : 1;
        cl_int spm = blocks * (qb * (qb + 1) / 2);
        bchol_arg sa[] = {BCHOL_ARG(A), BCHOL_ARG(off), BCHOL_ARG(ld), BCHOL_ARG(str),
                          BCHOL_ARG(info), BCHOL_ARG(nn), BCHOL_ARG(j), BCHOL_ARG(qb),
                          BCHOL_ARG(spm), BCHOL_ARG(first), BCHOL_ARG(cnt), BCHOL_ARG(g0)};
        if ((st = bchol__launch_groups(call, k->syrk, sa, 12, 11, (uint64_t)count * (uint64_t)spm, k->tile_wg)))
            return st;
        if (use_clblast &&
            (st = update_with_clblast(call, p, upper, n, j, jb, d, A,
                                      (uint64_t)offset + (uint64_t)b0 * (uint64_t)stride, lda,
                                      (uint64_t)stride, count)))
            return st;
    }
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrf_separate(bchol_call *call, bchol_precision p, const bchol_params *params,
                                   int upper, int n, cl_mem A, int64_t offset, int lda,
                                   int64_t stride, int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    separate_kernels k;
    bchol_status st;
    if ((st = bchol__separate_kernels(ctx, p, params, upper, 0, &k))) return st;

    const size_t per = (size_t)params->nb * (size_t)params->nb * bchol__elem_size(p);
    size_t cap = WORKSPACE_CAP < ctx->info.max_alloc ? WORKSPACE_CAP : (size_t)ctx->info.max_alloc;
    int64_t chunk = (int64_t)(cap / per);
    if (chunk < 1) chunk = 1;
    if (chunk > batch) chunk = batch;
    cl_mem W;
    if ((st = bchol__workspace_acquire(ctx, (size_t)chunk * per, &W))) return st;
    for (int64_t b0 = 0; b0 < batch && !st; b0 += chunk) {
        const int64_t count = batch - b0 < chunk ? batch - b0 : chunk;
        st = factor_chunk(call, p, params, &k, upper, n, A, offset, lda, stride, info, W, b0, count);
    }
    bchol__workspace_release(ctx, W);
    return st;
}
