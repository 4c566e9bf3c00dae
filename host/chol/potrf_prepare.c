/* bchol_potrf_prepare: builds what a factorization with given parameters needs and says
 * which parameters will run, without enqueueing anything (for tuners and warm-ups). */
#include "chol/interleaved.h"
#include "chol/separate.h"

bchol_status bchol_potrf_prepare(bchol_context *ctx, const bchol_params *params, char precision,
                                 char uplo, int n, bchol_params *effective)
{
    static const char routine[] = "bchol_potrf_prepare";
    int upper;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (params && (st = bchol__check_params(ctx, routine, params))) return st;
    if (precision != 's' && precision != 'd')
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 3 (precision = %d) must be 's' or 'd'",
                           routine, (int)precision);
    if ((st = bchol__check_uplo(ctx, routine, 4, uplo, &upper))) return st;
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 5 (n = %d) must be >= 0", routine, n);
    if (!effective)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 6 (effective) is NULL", routine);
    const bchol_precision p = (bchol_precision)precision;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;

    bchol_params chosen = {0};
    if (params) chosen = *params;
    bchol__complete_params(ctx, p, n, &chosen);
    /* What the variant's call would build, fitted as it would be. The interleaved variant's
     * generated kernel is the one for batches of at least one workspace piece (layout and
     * chunk built in as the call would); CLBlast builds its GEMM at its first call. */
    if (n > 0 && chosen.variant == BCHOL_VARIANT_FUSED) {
        if (n > bchol__fused_max_n(ctx, p, &chosen))
            return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                               "%s: n = %d is larger than the fused kernel can hold in local "
                               "memory on this device (at most %d with ib = %d, tbc = %d)",
                               routine, n, bchol__fused_max_n(ctx, p, &chosen), chosen.ib, chosen.tbc);
        cl_kernel kernel, tail;
        if ((st = bchol__fused_prepare(ctx, p, &chosen, upper, n, &kernel, &tail))) return st;
    } else if (n > 0 && chosen.variant == BCHOL_VARIANT_SEPARATE) {
        bchol_separate_kernels k;
        if ((st = bchol__separate_kernels(ctx, p, &chosen, upper, 0, &k))) return st;
    } else if (n > 0 && chosen.variant == BCHOL_VARIANT_INTERLEAVED) {
        if ((st = bchol__potrf_via_interleaved_prepare(ctx, p, &chosen, upper, n))) return st;
    } else if (n > 0 && chosen.variant == BCHOL_VARIANT_WORKITEM) {
        cl_kernel kernel;
        if ((st = bchol__workitem_prepare(ctx, p, &chosen, upper, n, &kernel))) return st;
    }
    *effective = chosen;
    return BCHOL_SUCCESS;
}
