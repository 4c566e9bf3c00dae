/* bchol_{s,d}getrs_vbatched[_ex] and bchol_{s,d}gesv_vbatched[_ex]: argument checks, the
 * device checks of the per-matrix arrays (matrix arrays, pivot arrays, right-hand-side
 * arrays; the plain forms read the largest n and nrhs back), then for gesv the vbatched
 * factorization (fused kernel and blocked path, getrf_vbatched.c), and the solve: the
 * substitution kernel getrs_vbatched (cl_kernels/lu/getrs.cl) or, where the variant says
 * so (the workitem solve on CPUs), getrs_workitem_vbatched; either skips every matrix whose
 * info is not zero. */
#include "lu/lu_solve.h"

#include <limits.h>

/* The kernels for the largest sizes, made before anything changes in A, ipiv or B. max_n
 * is cut to what A can hold and max_nrhs to what B can (a block with work has nrhs <=
 * b_elems), as potrs_vbatched does: the launches then never run for a loose bound. */
static bchol_status plan_sizes(bchol_context *ctx, bchol_precision p,
                               const bchol_solve_params *params, int trans, int *max_n,
                               int max_nrhs, uint64_t a_elems, uint64_t b_elems,
                               bchol_lu_solve_plan *plan)
{
    *max_n = bchol__vbatched_reach(a_elems, *max_n);
    if ((uint64_t)max_nrhs > b_elems) max_nrhs = (int)b_elems;
    plan->kernel = NULL;
    if (*max_n == 0 || max_nrhs == 0) return BCHOL_SUCCESS;
    return bchol__getrs_vbatched_plan(ctx, p, params, trans, *max_n, max_nrhs, plan);
}

bchol_status bchol__lu_solve_vbatched(bchol_context *ctx, const char *routine, bchol_precision p,
                                   int factor, const bchol_solve_params *params, char trans,
                                   int max_n, int max_nrhs, cl_mem n, cl_mem nrhs, cl_mem lda,
                                   cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                   cl_mem ipiv, cl_mem offsets_b, cl_mem B, int64_t batch,
                                   cl_mem info, cl_event *event)
{
    /* Positions after ctx: getrs has trans (2); the _ex forms insert params (2), max_n and
     * max_nrhs (after trans). */
    const int ex = params != NULL, tpos = ex ? 3 : 2;
    const int pmax = factor ? (ex ? 3 : 0) : (ex ? 4 : 0);
    const int pn = (factor ? 2 : 3) + (ex ? 3 : 0);
    int t = 0;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (ex && (st = bchol__check_solve_params(ctx, routine, params, 1))) return st;
    if (!factor) {
        t = trans == 'T' || trans == 't';
        if (!t && trans != 'N' && trans != 'n') {
            if (trans >= 32 && trans < 127)
                return bchol__fail(ctx, BCHOL_ERR_TRANS,
                                   "%s: argument %d (trans = '%c') must be 'N' or 'T'", routine,
                                   tpos, trans);
            return bchol__fail(ctx, BCHOL_ERR_TRANS,
                               "%s: argument %d (trans = %d) must be 'N' or 'T'", routine, tpos,
                               (int)trans);
        }
    }
    if (ex && max_n < 0)
        return bchol__fail(ctx, BCHOL_ERR_MAX_N, "%s: argument %d (max_n = %d) must be >= 0",
                           routine, pmax, max_n);
    if (ex && max_nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument %d (max_nrhs = %d) must be >= 0",
                           routine, pmax + 1, max_nrhs);
    const bchol_vsolve_buffers bufs = {n, nrhs, lda, ldb, offsets_a, A, offsets_p, ipiv,
                                       offsets_b, B, info};
    if ((st = bchol__check_vsolve_buffers(ctx, routine, pn, &bufs, 1, factor, batch))) return st;
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    bchol_getrf_choice env = {0}; /* gesv's factorization: BCHOL_GETRF, read before anything runs */
    if (factor && (st = bchol__getrf_env(ctx, routine, &env))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    size_t a_bytes = 0, p_bytes = 0, b_bytes = 0;
    clGetMemObjectInfo(A, CL_MEM_SIZE, sizeof a_bytes, &a_bytes, NULL);
    clGetMemObjectInfo(ipiv, CL_MEM_SIZE, sizeof p_bytes, &p_bytes, NULL);
    clGetMemObjectInfo(B, CL_MEM_SIZE, sizeof b_bytes, &b_bytes, NULL);
    const uint64_t a_elems = a_bytes / bchol__elem_size(p);
    const uint64_t p_elems = p_bytes / sizeof(cl_int);
    const uint64_t b_elems = b_bytes / bchol__elem_size(p);

    bchol_lu_solve_plan plan = {0};
    int run_n = max_n;
    if (ex && (st = plan_sizes(ctx, p, params, t, &run_n, max_nrhs, a_elems,
                               b_elems, &plan)))
        return st;
    cl_int err;
    cl_mem result = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE, 2 * sizeof(cl_int), NULL, &err);
    if (!result) return bchol__fail_cl(ctx, err, "vbatched LU solve checks: result buffer");

    bchol_call call;
    bchol_vcheck vc = {NULL, 0};
    bchol__call_begin(&call, ctx);
    /* The plain form bounds the sizes by nothing; the well-formed entries give the maxima. */
    const int bound_n = ex ? max_n : INT_MAX, bound_nrhs = ex ? max_nrhs : INT_MAX;
    st = bchol__vcheck_reduce(&call, &vc, n, lda, offsets_a, a_elems, bound_n, batch, 0);
    if (!st) st = bchol__vcheck_flag(&call, &vc, n, lda, offsets_a, a_elems, bound_n, batch, info);
    if (!st) st = bchol__vcheck_piv(&call, n, n, offsets_p, p_elems, batch, info);
    if (!st)
        st = bchol__vcheck_rhs(&call, n, nrhs, ldb, offsets_b, b_elems, bound_nrhs, batch, info,
                               result);
    if (!st && !ex) {
        cl_int maxima[2] = {0, 0};
        cl_event ev = NULL;
        err = bchol__read_wait(ctx->queue, result, 0, sizeof maxima, maxima, &ev);
        if (err) {
            st = bchol__fail_cl(ctx, err, "vbatched LU solve checks: reading the largest n, nrhs");
        } else {
            bchol__call_add_event(&call, ev);
            run_n = maxima[0];
            max_nrhs = maxima[1];
            st = plan_sizes(ctx, p, NULL, t, &run_n, max_nrhs, a_elems, b_elems,
                            &plan);
        }
    }
    const bchol_lu_params fprm = {0, 0, 0, 0};
    if (!st && factor)
        st = bchol__getrf_vbatched_enqueue(&call, p, &env, &fprm, run_n, run_n, run_n, n, n,
                                           lda, offsets_a, A, offsets_p, ipiv, batch, info);
    if (!st && plan.kernel)
        st = bchol__getrs_vbatched_enqueue(&call, &plan, n, nrhs, lda, ldb, offsets_a, A,
                                           offsets_p, ipiv, offsets_b, B, batch, info);
    bchol__vcheck_release(&vc);
    clReleaseMemObject(result); /* OpenCL keeps it until the commands using it finish */
    return bchol__call_end(&call, st, event);
}

static const bchol_solve_params no_params = {0};

bchol_status bchol_sgetrs_vbatched(bchol_context *ctx, char trans, cl_mem n, cl_mem nrhs,
                                   cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                   cl_mem offsets_p, cl_mem ipiv, cl_mem offsets_b, cl_mem B,
                                   int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__lu_solve_vbatched(ctx, "bchol_sgetrs_vbatched", BCHOL_S, 0, NULL, trans, -1, -1, n, nrhs,
                          lda, ldb, offsets_a, A, offsets_p, ipiv, offsets_b, B, batch, info,
                          event);
}

bchol_status bchol_dgetrs_vbatched(bchol_context *ctx, char trans, cl_mem n, cl_mem nrhs,
                                   cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                   cl_mem offsets_p, cl_mem ipiv, cl_mem offsets_b, cl_mem B,
                                   int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__lu_solve_vbatched(ctx, "bchol_dgetrs_vbatched", BCHOL_D, 0, NULL, trans, -1, -1, n, nrhs,
                          lda, ldb, offsets_a, A, offsets_p, ipiv, offsets_b, B, batch, info,
                          event);
}

bchol_status bchol_sgetrs_vbatched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                      char trans, int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                      cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                      cl_mem offsets_p, cl_mem ipiv, cl_mem offsets_b, cl_mem B,
                                      int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__lu_solve_vbatched(ctx, "bchol_sgetrs_vbatched_ex", BCHOL_S, 0,
                          params ? params : &no_params, trans, max_n, max_nrhs, n, nrhs, lda, ldb,
                          offsets_a, A, offsets_p, ipiv, offsets_b, B, batch, info, event);
}

bchol_status bchol_dgetrs_vbatched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                      char trans, int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                      cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                      cl_mem offsets_p, cl_mem ipiv, cl_mem offsets_b, cl_mem B,
                                      int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__lu_solve_vbatched(ctx, "bchol_dgetrs_vbatched_ex", BCHOL_D, 0,
                          params ? params : &no_params, trans, max_n, max_nrhs, n, nrhs, lda, ldb,
                          offsets_a, A, offsets_p, ipiv, offsets_b, B, batch, info, event);
}

bchol_status bchol_sgesv_vbatched(bchol_context *ctx, cl_mem n, cl_mem nrhs, cl_mem lda,
                                  cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                  cl_mem ipiv, cl_mem offsets_b, cl_mem B, int64_t batch,
                                  cl_mem info, cl_event *event)
{
    return bchol__lu_solve_vbatched(ctx, "bchol_sgesv_vbatched", BCHOL_S, 1, NULL, 'N', -1, -1, n, nrhs, lda,
                          ldb, offsets_a, A, offsets_p, ipiv, offsets_b, B, batch, info, event);
}

bchol_status bchol_dgesv_vbatched(bchol_context *ctx, cl_mem n, cl_mem nrhs, cl_mem lda,
                                  cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                  cl_mem ipiv, cl_mem offsets_b, cl_mem B, int64_t batch,
                                  cl_mem info, cl_event *event)
{
    return bchol__lu_solve_vbatched(ctx, "bchol_dgesv_vbatched", BCHOL_D, 1, NULL, 'N', -1, -1, n, nrhs, lda,
                          ldb, offsets_a, A, offsets_p, ipiv, offsets_b, B, batch, info, event);
}

bchol_status bchol_sgesv_vbatched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                     int max_n, int max_nrhs, cl_mem n, cl_mem nrhs, cl_mem lda,
                                     cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                     cl_mem ipiv, cl_mem offsets_b, cl_mem B, int64_t batch,
                                     cl_mem info, cl_event *event)
{
    return bchol__lu_solve_vbatched(ctx, "bchol_sgesv_vbatched_ex", BCHOL_S, 1,
                          params ? params : &no_params, 'N', max_n, max_nrhs, n, nrhs, lda, ldb,
                          offsets_a, A, offsets_p, ipiv, offsets_b, B, batch, info, event);
}

bchol_status bchol_dgesv_vbatched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                     int max_n, int max_nrhs, cl_mem n, cl_mem nrhs, cl_mem lda,
                                     cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                     cl_mem ipiv, cl_mem offsets_b, cl_mem B, int64_t batch,
                                     cl_mem info, cl_event *event)
{
    return bchol__lu_solve_vbatched(ctx, "bchol_dgesv_vbatched_ex", BCHOL_D, 1,
                          params ? params : &no_params, 'N', max_n, max_nrhs, n, nrhs, lda, ldb,
                          offsets_a, A, offsets_p, ipiv, offsets_b, B, batch, info, event);
}
