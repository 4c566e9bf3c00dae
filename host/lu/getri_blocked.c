/* Driver of the blocked getri: LAPACK's dgetri (dtrtri on U, then the solve with L from the
 * right, then the column interchanges) over a batch, on a workspace W of n-by-n a matrix
 * (ld n). For block columns of nb (the last one narrower):
 *
 *   trtri, j = 0, nb, ...    W(0:j, j:j+jb) = inv(U11) * U12          GEMM (beta 0), a row
 *                                                                     block of nb at a time
 *                            rows < j: * -inv(U_jj); rows j..j+jb-1:   getri_trsm_upper
 *                            inv(U_jj)
 *   L, j = last .. 0         W(:, j:j+jb) -= W(:, j+jb:n) * L(j+jb:n, j:j+jb)   GEMM
 *                            W(:, j:j+jb) = W(:, j:j+jb) * inv(L_jj)            getri_trsm_lower
 *   getri_store              info; the interchanges on each row of W, then to C
 *
 * W is zeroed first (getri_zero; oclgrind does not count a fill as written): the trtri
 * GEMMs read inv(U11)'s diagonal blocks whole (zeros below their diagonals), and the L
 * step's GEMM updates the zeros below inv(U) (dgetri zeroes L's place there).
 * The factors are only read (L and U straight from A), so the workspace, not C, holds
 * the work: a singular matrix's C is never written. The batch goes in pieces whose
 * workspace fits WORKSPACE_CAP and max_alloc. */
#include "lu/getri.h"
#include "blas/gemm_batched.h"

static const char *const getri_files[] = {"common/common.cl", "lu/getri.cl", NULL};

#define WORKSPACE_CAP ((size_t)1 << 30)
/* work-items a group of the row kernels (one row each) */
#define ROW_GROUP 64

typedef struct {
    cl_kernel zero, upper, lower, store;
    size_t wg;
} getri_kernels;

static bchol_status get_kernels(bchol_context *ctx, bchol_precision p, int nb, getri_kernels *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D NB=%d", nb);
    bchol_status st;
    if ((st = bchol__get_kernel(ctx, getri_files, &o, "getri_zero", &k->zero)) ||
        (st = bchol__get_kernel(ctx, getri_files, &o, "getri_trsm_upper", &k->upper)) ||
        (st = bchol__get_kernel(ctx, getri_files, &o, "getri_trsm_lower", &k->lower)) ||
        (st = bchol__get_kernel(ctx, getri_files, &o, "getri_store", &k->store)))
        return st;
    size_t wg = ROW_GROUP, l;
    if ((l = bchol__kernel_wg_limit(ctx, k->upper)) < wg) wg = l;
    if ((l = bchol__kernel_wg_limit(ctx, k->lower)) < wg) wg = l;
    if ((l = bchol__kernel_wg_limit(ctx, k->store)) < wg) wg = l;
    if ((l = bchol__kernel_wg_limit(ctx, k->zero)) < wg) wg = l;
    k->wg = wg ? wg : 1;
    return BCHOL_SUCCESS;
}

/* One of the row-wise solves on block column j (width jb) of count matrices. */
static bchol_status trsm(bchol_call *call, const getri_kernels *k, cl_kernel kernel, cl_mem A,
                         cl_ulong off_a, int lda, cl_ulong str_a, cl_mem W, int n, int j, int jb,
                         int64_t count)
{
    cl_ulong off_w = 0, cnt = (cl_ulong)count, g0 = 0;
    cl_int ld = lda, nn = n, jj = j, jjb = jb;
    bchol_arg args[] = {BCHOL_ARG(A), BCHOL_ARG(off_a), BCHOL_ARG(ld), BCHOL_ARG(str_a),
                        BCHOL_ARG(W), BCHOL_ARG(off_w), BCHOL_ARG(nn), BCHOL_ARG(jj),
                        BCHOL_ARG(jjb), BCHOL_ARG(cnt), BCHOL_ARG(g0)};
    const uint64_t units = (uint64_t)count * (uint64_t)n;
    return bchol__launch_groups(call, kernel, args, 11, 10, (units + k->wg - 1) / k->wg, k->wg);
}

/* inv(A) of count matrices from the one at A + off_a into W, then C. */
static bchol_status invert_piece(bchol_call *call, bchol_precision p, const bchol_getri_choice *c,
                                 const getri_kernels *k, int n, cl_mem A, cl_ulong off_a,
                                 int lda, cl_ulong str_a, cl_mem ipiv, cl_ulong off_p,
                                 cl_ulong str_p, cl_mem C, cl_ulong off_c, int ldc,
                                 cl_ulong str_c, cl_mem W, cl_ulong b0, int64_t count,
                                 cl_mem info)
{
    const int nb = c->nb;
    const uint64_t nn = (uint64_t)n * (uint64_t)n, ld = (uint64_t)lda;
    bchol_status st;

    cl_ulong elems = (cl_ulong)count * nn, g0z = 0;
    bchol_arg zargs[] = {BCHOL_ARG(W), BCHOL_ARG(elems), BCHOL_ARG(g0z)};
    if ((st = bchol__launch_groups(call, k->zero, zargs, 3, 2, (elems + k->wg - 1) / k->wg, k->wg)))
        return st;

    /* inv(U), block columns left to right */
    for (int j = 0; j < n; j += nb) {
        const int jb = n - j < nb ? n - j : nb;
        /* inv(U11) is upper triangular: row block i of the product needs only its
         * columns i..j-1 (and U12's rows i..j-1), so half the multiply-adds of one GEMM */
        for (int i = 0; i < j; i += nb) {
            const bchol_gemm_operand V1 = {W, (uint64_t)i * n + (uint64_t)i, nn, n};
            const bchol_gemm_operand U12 = {A, off_a + (uint64_t)j * ld + (uint64_t)i, str_a, lda};
            const bchol_gemm_operand V12 = {W, (uint64_t)j * n + (uint64_t)i, nn, n};
            if ((st = bchol__gemm_batched(call, p, nb, jb, j - i, 1.0, &V1, &U12, 0.0, &V12, count)))
                return st;
        }
        if ((st = trsm(call, k, k->upper, A, off_a, lda, str_a, W, n, j, jb, count))) return st;
    }
    /* X * L = inv(U), block columns right to left */
    for (int j = (n - 1) / nb * nb; j >= 0; j -= nb) {
        const int jb = n - j < nb ? n - j : nb;
        if (j + jb < n) {
            const bchol_gemm_operand X2 = {W, (uint64_t)(j + jb) * n, nn, n};
            const bchol_gemm_operand L21 = {A, off_a + (uint64_t)j * ld + (uint64_t)(j + jb), str_a, lda};
            const bchol_gemm_operand X1 = {W, (uint64_t)j * n, nn, n};
            if ((st = bchol__gemm_batched(call, p, n, jb, n - j - jb, -1.0, &X2, &L21, 1.0, &X1, count)))
                return st;
        }
        if ((st = trsm(call, k, k->lower, A, off_a, lda, str_a, W, n, j, jb, count))) return st;
    }
    /* info, interchanges, C */
    cl_ulong off_w = 0, cnt = (cl_ulong)count, g0 = 0;
    cl_int l_a = lda, l_c = ldc, n_ = n;
    bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off_a), BCHOL_ARG(l_a),  BCHOL_ARG(str_a),
                        BCHOL_ARG(W),     BCHOL_ARG(off_w), BCHOL_ARG(n_),   BCHOL_ARG(ipiv),
                        BCHOL_ARG(off_p), BCHOL_ARG(str_p), BCHOL_ARG(C),    BCHOL_ARG(off_c),
                        BCHOL_ARG(l_c),   BCHOL_ARG(str_c), BCHOL_ARG(info), BCHOL_ARG(b0),
                        BCHOL_ARG(cnt),   BCHOL_ARG(g0)};
    const uint64_t units = (uint64_t)count * (uint64_t)n;
    return bchol__launch_groups(call, k->store, args, 18, 17, (units + k->wg - 1) / k->wg, k->wg);
}

bchol_status bchol__getri_blocked(bchol_call *call, bchol_precision p, const bchol_getri_choice *c,
                                  int n, cl_mem A, int64_t offset_a, int lda, int64_t stride_a,
                                  cl_mem ipiv, int64_t offset_p, int64_t stride_p, cl_mem C,
                                  int64_t offset_c, int ldc, int64_t stride_c, int64_t batch,
                                  cl_mem info)
{
    bchol_context *ctx = call->ctx;
    getri_kernels k;
    bchol_status st;
    if ((st = get_kernels(ctx, p, c->nb, &k))) return st;

    const size_t per = (size_t)n * (size_t)n * bchol__elem_size(p);
    size_t cap = WORKSPACE_CAP < ctx->info.max_alloc ? WORKSPACE_CAP : (size_t)ctx->info.max_alloc;
    int64_t chunk = (int64_t)(cap / per);
    if (chunk < 1) chunk = 1;
    if (c->chunk > 0 && c->chunk < chunk) chunk = c->chunk;
    if (chunk > batch) chunk = batch;
    cl_mem W;
    if ((st = bchol__workspace_acquire(ctx, (size_t)chunk * per, &W))) return st;
    for (int64_t b0 = 0; b0 < batch && !st; b0 += chunk) {
        const int64_t count = batch - b0 < chunk ? batch - b0 : chunk;
        const uint64_t b = (uint64_t)b0;
        st = invert_piece(call, p, c, &k, n, A, (cl_ulong)offset_a + b * (uint64_t)stride_a, lda,
                          (cl_ulong)stride_a, ipiv, (cl_ulong)offset_p + b * (uint64_t)stride_p,
                          (cl_ulong)stride_p, C, (cl_ulong)offset_c + b * (uint64_t)stride_c, ldc,
                          (cl_ulong)stride_c, W, (cl_ulong)b0, count, info);
    }
    bchol__workspace_release(ctx, W);
    return st;
}
