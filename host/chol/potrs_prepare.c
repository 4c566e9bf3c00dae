/* bchol_potrs_prepare: builds the substitution kernel that a solve with given parameters
 * runs and says which parameters will run, without enqueueing anything (for tuners and
 * warm-ups). */
#include "chol/chol.h"

bchol_status bchol_potrs_prepare(bchol_context *ctx, const bchol_solve_params *params,
                                 char precision, char uplo, int n, int nrhs,
                                 bchol_solve_params *effective)
{
    static const char routine[] = "bchol_potrs_prepare";
    int upper;
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (params && (st = bchol__check_solve_params(ctx, routine, params, 1))) return st;
    if (precision != 's' && precision != 'd')
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 3 (precision = %d) must be 's' or 'd'",
                           routine, (int)precision);
    if ((st = bchol__check_uplo(ctx, routine, 4, uplo, &upper))) return st;
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 5 (n = %d) must be >= 0", routine, n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 6 (nrhs = %d) must be >= 0", routine, nrhs);
    if (!effective)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 7 (effective) is NULL", routine);
    const bchol_precision p = (bchol_precision)precision;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;

    bchol_solve_params chosen = {0};
    if (params) chosen = *params;
    int vw;
    bchol__complete_solve_params(ctx, p, n, nrhs, 0, &chosen, &vw);
    /* the fixed-size kernel, fitted as bchol_{s,d}potrs_batched_ex fits it */
    if (n > 0 && nrhs > 0) {
        bchol_subst_plan plan;
        if ((st = bchol__potrs_subst_plan(ctx, p, &chosen, vw, upper, n, nrhs, &plan))) return st;
        chosen = plan.prm;
    }
    *effective = chosen;
    return BCHOL_SUCCESS;
}
