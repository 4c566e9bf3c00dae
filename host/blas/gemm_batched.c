/* Host side of bchol's batched GEMM (gemm_batched.h). */
#include "blas/gemm_batched.h"
#include "blas/tile_kernels.h"

static const char *const gemm_files[] = {"common/common.cl", "blas/gemm_batched.cl", NULL};

#define GEMM_TILE 64
#define GEMM_KB 16

static int ceil_div(int a, int b) { return (a - 1) / b + 1; }

bchol_status bchol__gemm_batched(bchol_call *call, bchol_precision p, int m, int n, int k,
                                 double alpha, const bchol_gemm_operand *A,
                                 const bchol_gemm_operand *B, double beta,
                                 const bchol_gemm_operand *C, int64_t batch)
{
    bchol_context *ctx = call->ctx;
    cl_kernel kernel = NULL;
    bchol_tile_shape s;
    int wg = BCHOL_TILE_WG;
    bchol_status st;
    /* square tiles over wg work-items; where the built kernel takes fewer, build again
     * under its limit (the same tile, more results per work-item) */
    for (;;) {
        size_t limit = SIZE_MAX;
        bchol_options o;
        s = bchol__syrk_shape(GEMM_KB, GEMM_TILE, wg);
        bchol__options_init(&o);
        bchol__options_precision(&o, p);
        bchol__tile_options(&o, s);
        if ((st = bchol__get_kernel_checked(ctx, gemm_files, &o, "gemm_batched", (size_t)wg,
                                            bchol__tile_local_bytes(p, s), &kernel, &limit)))
            return st;
        if (limit == SIZE_MAX) break;
        const int lower = bchol__tile_wg(limit);
        if (lower >= wg || lower < 1)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "batched GEMM: the kernel takes at most %zu work-items", limit);
        wg = lower;
    }
    cl_ulong oa = A->offset, sa = A->stride, ob = B->offset, sb = B->stride, oc = C->offset,
             sc = C->stride, count = (cl_ulong)batch, g0 = 0;
    cl_int la = A->ld, lb = B->ld, lc = C->ld, mm = m, nn = n, kk = k;
    cl_int tm = ceil_div(m, s.tm), tn = ceil_div(n, s.tn);
    cl_float fa = (cl_float)alpha, fb = (cl_float)beta;
    cl_double da = alpha, db = beta;
    const int dbl = p == BCHOL_D;
    bchol_arg args[] = {BCHOL_ARG(A->buffer), BCHOL_ARG(oa), BCHOL_ARG(la), BCHOL_ARG(sa),
                        BCHOL_ARG(B->buffer), BCHOL_ARG(ob), BCHOL_ARG(lb), BCHOL_ARG(sb),
                        BCHOL_ARG(C->buffer), BCHOL_ARG(oc), BCHOL_ARG(lc), BCHOL_ARG(sc),
                        BCHOL_ARG(mm),        BCHOL_ARG(nn), BCHOL_ARG(kk),
                        dbl ? BCHOL_ARG(da) : BCHOL_ARG(fa),
                        dbl ? BCHOL_ARG(db) : BCHOL_ARG(fb),
                        BCHOL_ARG(tm),        BCHOL_ARG(tn), BCHOL_ARG(count), BCHOL_ARG(g0)};
    const uint64_t groups = (uint64_t)batch * (uint64_t)tm * (uint64_t)tn;
    return bchol__launch_groups(call, kernel, args, 21, 20, groups, (size_t)wg);
}
