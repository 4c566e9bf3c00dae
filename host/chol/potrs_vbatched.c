/* bchol_{s,d}potrs_vbatched[_ex], and the body it shares with posv_vbatched: argument
 * checks, the device checks of the per-matrix arrays (matrix arrays, then right-hand-side
 * arrays; the plain form reads the largest n and nrhs back), then the factorization
 * (posv) and the solve: the substitution kernel, or the workitem kernel where the solve
 * variant (the caller's, BCHOL_SOLVE_VARIANT or the backend's) says so. */
#include "chol/chol.h"

#include <limits.h>

static bchol_status unsupported(bchol_context *ctx, const char *routine, bchol_precision p,
                                int max_n, const bchol_vbatched_params *prm) {
    return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                       "%s: the largest n = %d is above what the vbatched factorization holds "
                       "in local memory on this device (at most %d with ib = %d)",
                       routine, max_n, bchol__vbatched_fused_max_n(ctx, p, prm), prm->fused.ib);
}

/* Parameters and kernels for the largest sizes, made before anything changes in A or B.
 * The launches cover ceil(max_nrhs / nt) tiles per matrix, so a loose max_nrhs (the _ex
 * forms', or the host form's, which counts every entry the checks may pass) is cut to the
 * most right-hand sides a block with work can have in B: n >= 1 and ldb >= 1 give
 * (nrhs - 1) * ldb + n <= b_elems, so nrhs <= b_elems. Without it, max_nrhs = INT_MAX ran
 * ~2^31 / nt idle units per matrix (minutes on PoCL; found by fuzz_args2). The checks
 * still use the caller's max_nrhs, so the info codes do not change. */
static bchol_status plan_sizes(bchol_context *ctx, const char *routine, bchol_precision p,
                               int factor, int upper, int max_n, int max_nrhs, int64_t batch,
                               uint64_t b_elems, bchol_solve_params *sp,
                               bchol_vbatched_params *fp, bchol_subst_plan *plan) {
    if ((uint64_t)max_nrhs > b_elems) max_nrhs = (int)b_elems;
    if (factor) {
        bchol__complete_vbatched_params(ctx, p, max_n, batch, fp);
        /* AUTO gives large matrices to the separate variant, as potrf_vbatched does */
        if (fp->fused.variant == BCHOL_VARIANT_FUSED &&
            max_n > bchol__vbatched_fused_max_n(ctx, p, fp))
            return unsupported(ctx, routine, p, max_n, fp);
    }
    if (max_n == 0 || max_nrhs == 0) return BCHOL_SUCCESS;
    /* the caller's variant, else BCHOL_SOLVE_VARIANT, else the backend's (as potrs) */
    bchol__complete_solve_params(ctx, p, max_n, max_nrhs, 1, sp, NULL);
    return bchol__potrs_subst_vbatched_plan(ctx, p, sp, upper, max_n, max_nrhs, plan);
}

bchol_status bchol__solve_vbatched(bchol_context *ctx, const char *routine, bchol_precision p,
                                   int factor, const bchol_solve_params *params, char uplo,
                                   int max_n, int max_nrhs, cl_mem n, cl_mem nrhs, cl_mem lda,
                                   cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_b,
                                   cl_mem B, int64_t batch, cl_mem info, cl_event *event) {
    /* Positions after ctx: the _ex forms insert params (2), max_n (4) and max_nrhs (5). */
    const int ex = params != NULL, pn = ex ? 6 : 3;
    int upper;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (ex && (st = bchol__check_solve_params(ctx, routine, params, 1))) return st;
    if ((st = bchol__check_uplo(ctx, routine, ex ? 3 : 2, uplo, &upper))) return st;
    if (ex && max_n < 0)
        return bchol__fail(ctx, BCHOL_ERR_MAX_N, "%s: argument 4 (max_n = %d) must be >= 0",
                           routine, max_n);
    if (ex && max_nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 5 (max_nrhs = %d) must be >= 0",
                           routine, max_nrhs);
    const bchol_vsolve_buffers bufs = {n, nrhs, lda, ldb, offsets_a, A, NULL, NULL,
                                       offsets_b, B, info};
    if ((st = bchol__check_vsolve_buffers(ctx, routine, pn, &bufs, 0, factor, batch))) return st;
    /* after every argument check (the entries of the arrays are the device's to check,
     * on a device that can run the call): a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    size_t a_bytes = 0, b_bytes = 0;
    clGetMemObjectInfo(A, CL_MEM_SIZE, sizeof a_bytes, &a_bytes, NULL);
    clGetMemObjectInfo(B, CL_MEM_SIZE, sizeof b_bytes, &b_bytes, NULL);
    const uint64_t a_elems = a_bytes / bchol__elem_size(p);
    const uint64_t b_elems = b_bytes / bchol__elem_size(p);

    bchol_solve_params sp = {0};
    bchol_vbatched_params fp = {{0}, BCHOL_ETM_DEFAULT, BCHOL_SCHEDULE_DEFAULT, 0, BCHOL_ORDER_DEFAULT};
    bchol_subst_plan plan = {0};
    if (ex) {
        sp = *params;
        if ((st = plan_sizes(ctx, routine, p, factor, upper, max_n, max_nrhs, batch, b_elems, &sp, &fp,
                             &plan)))
            return st;
    }
    cl_int err;
    cl_mem result = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, 2 * sizeof(cl_int), NULL, &err);
    if (!result) return bchol__fail_cl(ctx, err, "vbatched solve checks: result buffer");

    bchol_call call;
    bchol_vcheck vc = {NULL, 0};
    bchol__call_begin(&call, ctx);
    /* The plain form bounds the sizes by nothing; the well-formed entries give the maxima. */
    const int bound_n = ex ? max_n : INT_MAX, bound_nrhs = ex ? max_nrhs : INT_MAX;
    /* the largest n comes from the right-hand-side checks' result, not from these */
    st = bchol__vcheck_reduce(&call, &vc, n, lda, offsets_a, a_elems, bound_n, batch, 0);
    if (!st) st = bchol__vcheck_flag(&call, &vc, n, lda, offsets_a, a_elems, bound_n, batch, info);
    if (!st)
        st = bchol__vcheck_rhs(&call, n, nrhs, ldb, offsets_b, b_elems, bound_nrhs, batch, info,
                               result);
    if (!st && !ex) {
        cl_int maxima[2] = {0, 0};
        cl_event ev = NULL;
        err = bchol__read_wait(ctx->queue, result, 0, sizeof maxima, maxima, &ev);
        if (err) {
            st = bchol__fail_cl(ctx, err, "vbatched solve checks: reading the largest n, nrhs");
        } else {
            bchol__call_add_event(&call, ev);
            max_n = maxima[0];
            max_nrhs = maxima[1];
            st = plan_sizes(ctx, routine, p, factor, upper, max_n, max_nrhs, batch, b_elems, &sp, &fp,
                            &plan);
        }
    }
    if (!st && factor)
        st = bchol__potrf_vbatched_run(&call, p, &fp, upper, max_n, n, lda, offsets_a, A, batch,
                                       info);
    if (!st && max_n > 0 && max_nrhs > 0)
        st = bchol__potrs_subst_vbatched(&call, &plan, n, nrhs, lda, ldb, offsets_a, A, offsets_b,
                                         B, batch, info);
    bchol__vcheck_release(&vc);
    clReleaseMemObject(result); /* OpenCL keeps it until the commands using it finish */
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_spotrs_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem nrhs, cl_mem lda,
                                   cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_b,
                                   cl_mem B, int64_t batch, cl_mem info, cl_event *event) {
    return bchol__solve_vbatched(ctx, "bchol_spotrs_vbatched", BCHOL_S, 0, NULL, uplo, -1, -1, n,
                                 nrhs, lda, ldb, offsets_a, A, offsets_b, B, batch, info, event);
}

bchol_status bchol_dpotrs_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem nrhs, cl_mem lda,
                                   cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_b,
                                   cl_mem B, int64_t batch, cl_mem info, cl_event *event) {
    return bchol__solve_vbatched(ctx, "bchol_dpotrs_vbatched", BCHOL_D, 0, NULL, uplo, -1, -1, n,
                                 nrhs, lda, ldb, offsets_a, A, offsets_b, B, batch, info, event);
}

static const bchol_solve_params no_params = {0};

bchol_status bchol_spotrs_vbatched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                      char uplo, int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                      cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                      cl_mem offsets_b, cl_mem B, int64_t batch, cl_mem info,
                                      cl_event *event) {
    return bchol__solve_vbatched(ctx, "bchol_spotrs_vbatched_ex", BCHOL_S, 0,
                                 params ? params : &no_params, uplo, max_n, max_nrhs, n, nrhs, lda,
                                 ldb, offsets_a, A, offsets_b, B, batch, info, event);
}

bchol_status bchol_dpotrs_vbatched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                      char uplo, int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                      cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                      cl_mem offsets_b, cl_mem B, int64_t batch, cl_mem info,
                                      cl_event *event) {
    return bchol__solve_vbatched(ctx, "bchol_dpotrs_vbatched_ex", BCHOL_D, 0,
                                 params ? params : &no_params, uplo, max_n, max_nrhs, n, nrhs, lda,
                                 ldb, offsets_a, A, offsets_b, B, batch, info, event);
}
