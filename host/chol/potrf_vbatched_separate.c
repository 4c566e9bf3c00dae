/* Driver of the separate variant on a variable-size batch: right-looking blocked Cholesky
 * over the batch (Haidar et al. 2015, sections 4.2-4.3) with per-matrix n, lda and offsets
 * read on the device. The host knows only an upper bound max_n: one launch sequence per
 * nb-wide step of the largest matrix,
 *
 *   potrf_panel     A11 = L11*L11**T and W = L11**-1, one work-group per matrix
 *   trsm_panel      L21 = A21 * W**T, row tiles for the largest matrix's A21
 *   syrk_trailing   A22 -= L21*L21**T, tiles for the largest matrix's A22
 *
 * built with -D VBATCHED=1. Work-groups whose matrix is finished, failed, rejected by the
 * checks, of order <= n_lo (the fused kernel's share of a split batch), or whose tile lies
 * outside their matrix leave early (ETM-classic). Only bchol's own GEMM tiles: CLBlast has
 * no variable sizes. */
#include "chol/separate.h"


bchol_status bchol__potrf_vbatched_separate(bchol_call *call, bchol_precision p,
                                            const bchol_params *prm, int upper, int n_lo, int max_n,
                                            cl_mem n, cl_mem lda, cl_mem offsets, cl_mem A,
                                            int64_t batch, cl_mem info) {
    bchol_context *ctx = call->ctx;
    bchol_separate_kernels k;
    bchol_status st;
    if (max_n <= n_lo) return BCHOL_SUCCESS;
    if ((st = bchol__separate_kernels(ctx, p, prm, upper, 1, &k))) return st;

    const int nb = prm->nb;
    const size_t per = (size_t)nb * (size_t)nb * bchol__elem_size(p);
    size_t cap = BCHOL_SEPARATE_WORKSPACE_CAP < ctx->info.max_alloc ? BCHOL_SEPARATE_WORKSPACE_CAP
                                                                    : (size_t)ctx->info.max_alloc;
    int64_t chunk = (int64_t)(cap / per);
    if (chunk < 1) chunk = 1;
    if (chunk > batch) chunk = batch;
    cl_mem W;
    if ((st = bchol__workspace_acquire(ctx, (size_t)chunk * per, &W))) return st;
    cl_int lo = n_lo;
    for (int64_t first = 0; first < batch && !st; first += chunk) {
        cl_ulong b0 = (cl_ulong)first, g0 = 0;
        cl_ulong cnt = (cl_ulong)(batch - first < chunk ? batch - first : chunk);
        for (cl_int j = 0; j < max_n && !st; j += nb) {
            /* Rows below the panel: at most the largest matrix's, max_n - j - nb. */
            const int m = max_n - j - nb;
            bchol_arg pa[] = {BCHOL_ARG(A),  BCHOL_ARG(offsets), BCHOL_ARG(n), BCHOL_ARG(lda),
                              BCHOL_ARG(lo), BCHOL_ARG(info),    BCHOL_ARG(W), BCHOL_ARG(j),
                              BCHOL_ARG(b0), BCHOL_ARG(cnt),     BCHOL_ARG(g0)};
            if ((st = bchol__launch_groups(call, k.panel, pa, 11, 10, cnt, k.panel_wg)))
                break;
            if (m <= 0) break;

            cl_int tpm = bchol__ceil_div(m, k.ts.tm);
            bchol_arg ta[] = {BCHOL_ARG(A),   BCHOL_ARG(offsets), BCHOL_ARG(n),   BCHOL_ARG(lda),
                              BCHOL_ARG(lo),  BCHOL_ARG(info),    BCHOL_ARG(W),   BCHOL_ARG(j),
                              BCHOL_ARG(tpm), BCHOL_ARG(b0),      BCHOL_ARG(cnt), BCHOL_ARG(g0)};
            if ((st = bchol__launch_groups(call, k.trsm, ta, 12, 11, cnt * (cl_ulong)tpm,
                                                    k.tile_wg)))
                break;

            /* One diagonal block of qb tiles over the largest A22: its lower triangle. */
            cl_int qb = bchol__ceil_div(m, k.ss.tm), spm = qb * (qb + 1) / 2;
            bchol_arg sa[] = {BCHOL_ARG(A),   BCHOL_ARG(offsets), BCHOL_ARG(n),   BCHOL_ARG(lda),
                              BCHOL_ARG(lo),  BCHOL_ARG(info),    BCHOL_ARG(j),   BCHOL_ARG(qb),
                              BCHOL_ARG(spm), BCHOL_ARG(b0),      BCHOL_ARG(cnt), BCHOL_ARG(g0)};
            st = bchol__launch_groups(call, k.syrk, sa, 12, 11, cnt * (cl_ulong)spm,
                                               k.tile_wg);
        }
    }
    bchol__workspace_release(ctx, W);
    return st;
}
