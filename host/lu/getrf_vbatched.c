/* bchol_{s,d}getrf_vbatched[_ex]: argument checks, the device checks of the per-matrix
 * arrays (matrix arrays, then pivot arrays; the plain form reads the largest m and n back),
 * then the factorization: the fused getrf kernel (-D VBATCHED=1 of
 * cl_kernels/lu/getrf_fused.cl) on the matrices that fit its local memory, the blocked
 * path (getrf_vbatched_blocked.c) on the others. Also the pivot checks' launches, which
 * getrs_vbatched and gesv_vbatched share. */
#include "lu/lu.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_WG BCHOL__CHECK_WG
#define CHECK_BLOCK (BCHOL__CHECK_WG * BCHOL__CHECK_PER_ITEM)

static const char *const piv_files[] = {"common/vbatched_check.cl", "lu/vbatched_check_piv.cl",
                                        NULL};
static const char *const fused_files[] = {"common/common.cl", "lu/getrf_fused.cl", NULL};

/* ---- the pivot checks ------------------------------------------------------------------ */

static bchol_status launch_piv(bchol_call *call, const char *name, cl_mem m, cl_mem n,
                               cl_mem offsets_p,
                               uint64_t p_elems, int64_t batch, cl_mem scratch, uint64_t blocks,
                               cl_mem info)
{
    bchol_options o;
    cl_kernel k;
    bchol_status st;
    bchol__options_init(&o);
    bchol__vcheck_options(&o);
    bchol__options_add(&o, "-D INFO_BAD_OFFSET_P=%d", BCHOL_INFO_BAD_OFFSET_P);
    bchol__options_add(&o, "-D INFO_OVERLAP_P=%d", BCHOL_INFO_OVERLAP_P);
    if ((st = bchol__get_kernel(call->ctx, piv_files, &o, name, &k)) ||
        (st = bchol__vcheck_fits(call->ctx, name, k)))
        return st;
    cl_ulong elems = p_elems, count = (cl_ulong)batch, nblocks = blocks, g0 = 0;
    bchol_arg args[] = {BCHOL_ARG(m),       BCHOL_ARG(n),     BCHOL_ARG(offsets_p),
                        BCHOL_ARG(elems),   BCHOL_ARG(count), BCHOL_ARG(g0),
                        BCHOL_ARG(scratch), BCHOL_ARG(nblocks), BCHOL_ARG(info)};
    return bchol__launch_groups(call, k, args, 9, 5, blocks, CHECK_WG);
}

bchol_status bchol__vcheck_piv(bchol_call *call, cl_mem m, cl_mem n, cl_mem offsets_p,
                               uint64_t p_elems, int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    const uint64_t blocks = ((uint64_t)batch + CHECK_BLOCK - 1) / CHECK_BLOCK;
    cl_int err;
    cl_mem scratch = clCreateBuffer(ctx->cl_ctx, CL_MEM_READ_WRITE,
                                    (size_t)(3 * blocks + 1) * sizeof(cl_ulong), NULL, &err);
    if (!scratch) return bchol__fail_cl(ctx, err, "vbatched pivot checks: scratch buffer");
    /* one block: no carries to take from others, the flag kernel alone (as for A) */
    bchol_status st = BCHOL_SUCCESS;
    if (blocks > 1)
        st = launch_piv(call, "vbatched_check_piv_blocks", m, n, offsets_p, p_elems, batch, scratch,
                        blocks, info);
    if (!st) st = bchol__vcheck_scan(call, scratch, blocks);
    if (!st)
        st = launch_piv(call, "vbatched_check_piv_flag", m, n, offsets_p, p_elems, batch, scratch,
                        blocks, info);
    clReleaseMemObject(scratch); /* OpenCL keeps it until the commands using it finish */
    return st;
}

/* ---- sizes, the fused kernel and the split ---------------------------------------- */

int bchol__vbatched_reach(uint64_t a_elems, int max_n)
{
    uint64_t reach = 46340; /* 46341^2 > 2^31-1 */
    if (a_elems < reach * reach) {
        reach = (uint64_t)sqrt((double)a_elems);
        while (reach * reach > a_elems) reach--;
        while ((reach + 1) * (reach + 1) <= a_elems) reach++;
    }
    return (uint64_t)max_n > reach ? (int)reach : max_n;
}

static bchol_status get_kernel(bchol_context *ctx, bchol_precision p, const bchol_getrf_params *prm,
                               int max_m, int max_n, cl_kernel *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D M=%d", max_m);
    bchol__options_add(&o, "-D N=%d", max_n);
    bchol__options_add(&o, "-D LX=%d", prm->lx);
    bchol__options_add(&o, "-D TBC=%d", prm->tbc);
    bchol__options_add(&o, "-D PIVOT=1");
    bchol__options_add(&o, "-D VBATCHED=1");
    return bchol__get_kernel(ctx, fused_files, &o, "getrf_vbatched", k);
}

/* The fused kernel's shape for max_m x max_n (lx, tbc <= 0: the defaults), cut to local
 * memory and the batch; 0 where one matrix does not fit local memory. */
static int fused_shape(bchol_context *ctx, bchol_precision p, int lx, int tbc, int max_m,
                       int max_n, int64_t batch, bchol_getrf_params *prm)
{
    *prm = (bchol_getrf_params){lx, tbc, 0, 0};
    if (prm->lx > max_m) prm->lx = max_m;
    bchol__getrf_fused_params(ctx, p, max_m, max_n, prm);
    /* no more matrices a group than local memory holds, nor than the batch has */
    const uint64_t one = bchol__getrf_fused_local_bytes(p, max_m, max_n, prm->lx);
    if (one > bchol__usable_local_mem(ctx)) return 0;
    const uint64_t fit = bchol__usable_local_mem(ctx) / (one ? one : 1);
    if ((uint64_t)prm->tbc > fit) prm->tbc = fit > 1 ? (int)fit : 1;
    if (prm->tbc > batch) prm->tbc = (int)batch;
    return 1;
}

/* The fused kernel built for M = max_m, N = max_n on the matrices with m[b] <= max_m and
 * n[b] <= max_n (the others are the blocked path's). */
static bchol_status enqueue_fused(bchol_call *call, bchol_precision p, bchol_getrf_params prm,
                                  int max_m, int max_n, cl_mem m, cl_mem n, cl_mem lda,
                                  cl_mem offsets_a, cl_mem A, cl_mem offsets_p, cl_mem ipiv,
                                  int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    bchol_status st;
    /* fewer matrices a group, then fewer work-items a matrix, where the built kernel takes
     * fewer work-items than the shape needs (as the fixed-size driver) */
    cl_kernel kernel = NULL;
    for (int tries = 0;; tries++) {
        if ((st = get_kernel(ctx, p, &prm, max_m, max_n, &kernel))) return st;
        const size_t limit = bchol__kernel_wg_limit(ctx, kernel);
        if ((size_t)prm.lx * (size_t)prm.tbc <= limit) break;
        if (tries == 8)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "getrf_vbatched: no work-group shape fits %d x %d matrices (the "
                               "kernel takes at most %zu work-items)",
                               max_m, max_n, limit);
        if (prm.tbc > 1) {
            const size_t f = limit / (size_t)prm.lx;
            prm.tbc = f > 1 ? (int)f : 1;
        } else {
            prm.lx = (size_t)prm.lx / 2 < limit ? prm.lx / 2 : (int)limit;
            if (prm.lx < 1) prm.lx = 1;
        }
    }
    const size_t local = (size_t)prm.lx * (size_t)prm.tbc;
    const uint64_t groups = ((uint64_t)batch + (uint64_t)prm.tbc - 1) / (uint64_t)prm.tbc;
    cl_ulong count = (cl_ulong)batch, g0 = 0;
    bchol_arg args[] = {BCHOL_ARG(A),         BCHOL_ARG(offsets_a), BCHOL_ARG(m),
                        BCHOL_ARG(n),         BCHOL_ARG(lda),       BCHOL_ARG(ipiv),
                        BCHOL_ARG(offsets_p), BCHOL_ARG(info),      BCHOL_ARG(count),
                        BCHOL_ARG(g0)};
    return bchol__launch_groups(call, kernel, args, 10, 9, groups, local);
}

/* Whether the workitem kernel takes the whole batch: BCHOL_GETRF=workitem[,...] on any
 * device; otherwise where BCHOL_GETRF is unset or auto, the backend says so
 * (getrf_vb_workitem: CPUs) and params ask for nothing of the fused or blocked path. */
static int use_workitem(const bchol_context *ctx, bchol_getrf_variant forced,
                        const bchol_lu_params *prm)
{
    if (forced == BCHOL_GETRF_WORKITEM) return 1;
    if (forced != BCHOL_GETRF_AUTO) return 0;
    return ctx->backend->getrf_vb_workitem && prm->lx <= 0 && prm->tbc <= 0 && prm->nb <= 0 &&
           prm->fused_max == 0;
}

bchol_status bchol__getrf_vbatched_enqueue(bchol_call *call, bchol_precision p,
                                           const bchol_getrf_choice *env,
                                           const bchol_lu_params *prm, int max_m, int max_n,
                                           int max_k, cl_mem m, cl_mem n, cl_mem lda,
                                           cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                           cl_mem ipiv, int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    if (max_m <= 0 || max_n <= 0 || batch == 0) return BCHOL_SUCCESS;
    if (use_workitem(ctx, env->variant, prm)) {
        const int wb = env->variant == BCHOL_GETRF_WORKITEM && env->nb > 0
                           ? env->nb
                           : bchol__getrf_workitem_nb(ctx, max_m > max_n ? max_m : max_n);
        bchol_status st = bchol__getrf_workitem_loops(ctx, p, max_m, max_n, max_k);
        return st ? st
                  : bchol__getrf_workitem_vbatched(call, p, 0, wb, max_m, m, n, lda, offsets_a, A,
                                                   offsets_p, ipiv, batch, info);
    }
    /* The split: the fused kernel takes every matrix where the largest fits it whole, else
     * those with m, n <= the largest square order that fits (lo); the blocked path the
     * rest (or every matrix, where the backend says getrf_vb_all_blocked). fused_max > 0
     * lowers lo, -1 sends every matrix to the blocked path. */
    bchol_getrf_params fp;
    int lo_m = max_m, lo_n = max_n;
    if (prm->fused_max != 0 || !fused_shape(ctx, p, prm->lx, prm->tbc, max_m, max_n, batch, &fp)) {
        int lo = prm->fused_max < 0 ? 0 : bchol__getrf_max_n(ctx, p);
        if (prm->fused_max == 0 && ctx->backend->getrf_vb_all_blocked) lo = 0;
        if (prm->fused_max > 0 && prm->fused_max < lo) lo = prm->fused_max;
        lo_m = max_m < lo ? max_m : lo;
        lo_n = max_n < lo ? max_n : lo;
        if (lo_m > 0 && lo_n > 0 && !fused_shape(ctx, p, prm->lx, prm->tbc, lo_m, lo_n, batch, &fp))
            lo_m = lo_n = 0;
    }
    bchol_status st = BCHOL_SUCCESS;
    if (lo_m > 0 && lo_n > 0)
        st = enqueue_fused(call, p, fp, lo_m, lo_n, m, n, lda, offsets_a, A, offsets_p, ipiv, batch,
                           info);
    if (st || (lo_m >= max_m && lo_n >= max_n)) return st;
    /* the blocked path runs min(m, n) <= max_k steps of nb columns */
    const bchol_backend *be = ctx->backend;
    const int nb = prm->nb > 0           ? prm->nb
                   : be->getrf_vb_nb > 0 ? be->getrf_vb_nb
                   : be->getrf_nb > 0    ? be->getrf_nb
                                         : 16;
    return bchol__getrf_vbatched_blocked(call, p, nb, lo_m, lo_n, max_m, max_n, max_k, m, n, lda,
                                         offsets_a, A, offsets_p, ipiv, batch, info);
}

/* ---- the routines ----------------------------------------------------------------------- */

static bchol_status check_lu_params(bchol_context *ctx, const char *routine,
                                    const bchol_lu_params *prm)
{
    if (prm->lx > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->lx = %d) must be at most 64", routine, prm->lx);
    if (prm->tbc > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->tbc = %d) must be at most 64", routine,
                           prm->tbc);
    if (prm->nb > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->nb = %d) must be at most 64", routine, prm->nb);
    if (prm->fused_max < -1)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused_max = %d) must be >= -1", routine,
                           prm->fused_max);
    return BCHOL_SUCCESS;
}

bchol_status bchol__getrf_vbatched_body(bchol_context *ctx, const char *routine, bchol_precision p,
                                        const bchol_lu_params *params, int max_m, int max_n,
                                        cl_mem m, cl_mem n, cl_mem lda, cl_mem offsets_a, cl_mem A,
                                        cl_mem offsets_p, cl_mem ipiv, int64_t batch, cl_mem info,
                                        cl_event *event)
{
    /* Positions after ctx: m 2, n 3, ...; the _ex forms insert params (2), max_m (3) and
     * max_n (4). */
    const int ex = params != NULL, pm = ex ? 5 : 2;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (ex && (st = check_lu_params(ctx, routine, params))) return st;
    if (ex && max_m < 0)
        return bchol__fail(ctx, BCHOL_ERR_MAX_N, "%s: argument 3 (max_m = %d) must be >= 0",
                           routine, max_m);
    if (ex && max_n < 0)
        return bchol__fail(ctx, BCHOL_ERR_MAX_N, "%s: argument 4 (max_n = %d) must be >= 0",
                           routine, max_n);
    if (batch < 0 || batch > INT64_MAX / 8)
        return bchol__fail(ctx, BCHOL_ERR_BATCH,
                           "%s: argument %d (batch = %lld) must be in [0, 2^60)", routine, pm + 7,
                           (long long)batch);
    const uint64_t ints = (uint64_t)batch * sizeof(cl_int);
    const uint64_t longs = (uint64_t)batch * sizeof(cl_long);
    if (batch > 0 &&
        ((st = bchol__check_buffer(ctx, routine, pm, "m", m, ints, BCHOL_ERR_M_ARRAY,
                                   BCHOL_ERR_M_ARRAY)) ||
         (st = bchol__check_buffer(ctx, routine, pm + 1, "n", n, ints, BCHOL_ERR_N_ARRAY,
                                   BCHOL_ERR_N_ARRAY)) ||
         (st = bchol__check_buffer(ctx, routine, pm + 2, "lda", lda, ints, BCHOL_ERR_LDA_ARRAY,
                                   BCHOL_ERR_LDA_ARRAY)) ||
         (st = bchol__check_buffer(ctx, routine, pm + 3, "offsets_a", offsets_a, longs,
                                   BCHOL_ERR_OFFSETS_A, BCHOL_ERR_OFFSETS_A)) ||
         (st = bchol__check_buffer(ctx, routine, pm + 4, "A", A, 0, BCHOL_ERR_A,
                                   BCHOL_ERR_A_SIZE)) ||
         (st = bchol__check_buffer(ctx, routine, pm + 5, "offsets_p", offsets_p, longs,
                                   BCHOL_ERR_OFFSETS_P, BCHOL_ERR_OFFSETS_P)) ||
         (st = bchol__check_buffer(ctx, routine, pm + 6, "ipiv", ipiv, 0, BCHOL_ERR_IPIV,
                                   BCHOL_ERR_IPIV_SIZE)) ||
         (st = bchol__check_buffer(ctx, routine, pm + 8, "info", info, ints, BCHOL_ERR_INFO,
                                   BCHOL_ERR_INFO_SIZE))))
        return st;
    /* which bytes of A and ipiv an entry uses is on the device: each is all of its buffer */
    const bchol_buffer_use uses[] = {
        {pm, "m", m, 0, ints, BCHOL__READ, BCHOL_ERR_M_ARRAY},
        {pm + 1, "n", n, 0, ints, BCHOL__READ, BCHOL_ERR_N_ARRAY},
        {pm + 2, "lda", lda, 0, ints, BCHOL__READ, BCHOL_ERR_LDA_ARRAY},
        {pm + 3, "offsets_a", offsets_a, 0, longs, BCHOL__READ, BCHOL_ERR_OFFSETS_A},
        {pm + 4, "A", A, 0, 0, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_A},
        {pm + 5, "offsets_p", offsets_p, 0, longs, BCHOL__READ, BCHOL_ERR_OFFSETS_P},
        {pm + 6, "ipiv", ipiv, 0, 0, BCHOL__WRITE, BCHOL_ERR_IPIV},
        {pm + 8, "info", info, 0, ints, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_INFO}};
    if (batch > 0 && (st = bchol__check_buffer_uses(ctx, routine, uses, 8))) return st;
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    bchol_getrf_choice env;
    if ((st = bchol__getrf_env(ctx, routine, &env))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    size_t a_bytes = 0, p_bytes = 0;
    clGetMemObjectInfo(A, CL_MEM_SIZE, sizeof a_bytes, &a_bytes, NULL);
    clGetMemObjectInfo(ipiv, CL_MEM_SIZE, sizeof p_bytes, &p_bytes, NULL);
    const uint64_t a_elems = a_bytes / bchol__elem_size(p);
    const uint64_t p_elems = p_bytes / sizeof(cl_int);

    static const bchol_lu_params defaults = {0, 0, 0, 0};
    bchol_call call;
    bchol_vcheck vc = {NULL, 0};
    bchol__call_begin(&call, ctx);
    /* The plain form bounds m[b], n[b] by nothing; the well-formed matrices give the maxima. */
    const int bound_m = ex ? max_m : INT_MAX, bound_n = ex ? max_n : INT_MAX;
    st = bchol__vcheck_reduce_mn(&call, &vc, m, n, lda, offsets_a, a_elems, bound_m, bound_n,
                                 batch, !ex);
    if (!st && !ex) st = bchol__vcheck_read_max_mn(&call, &vc, &max_m, &max_n);
    if (!st)
        st = bchol__vcheck_flag_mn(&call, &vc, m, n, lda, offsets_a, a_elems, bound_m, bound_n,
                                   batch, info);
    if (!st) st = bchol__vcheck_piv(&call, m, n, offsets_p, p_elems, batch, info);
    /* a matrix with work has m, n <= its footprint <= a_elems and min(m, n)^2 <= a_elems:
     * a loose bound of the _ex form costs no launches beyond those */
    if ((uint64_t)max_m > a_elems) max_m = (int)a_elems;
    if ((uint64_t)max_n > a_elems) max_n = (int)a_elems;
    if (!st)
        st = bchol__getrf_vbatched_enqueue(&call, p, &env, ex ? params : &defaults, max_m,
                                           max_n, bchol__vbatched_reach(a_elems, INT_MAX), m, n,
                                           lda, offsets_a, A, offsets_p, ipiv, batch, info);
    bchol__vcheck_release(&vc);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sgetrf_vbatched(bchol_context *ctx, cl_mem m, cl_mem n, cl_mem lda,
                                   cl_mem offsets_a, cl_mem A, cl_mem offsets_p, cl_mem ipiv,
                                   int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__getrf_vbatched_body(ctx, "bchol_sgetrf_vbatched", BCHOL_S, NULL, -1, -1, m, n,
                                      lda, offsets_a, A, offsets_p, ipiv, batch, info, event);
}

bchol_status bchol_dgetrf_vbatched(bchol_context *ctx, cl_mem m, cl_mem n, cl_mem lda,
                                   cl_mem offsets_a, cl_mem A, cl_mem offsets_p, cl_mem ipiv,
                                   int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__getrf_vbatched_body(ctx, "bchol_dgetrf_vbatched", BCHOL_D, NULL, -1, -1, m, n,
                                      lda, offsets_a, A, offsets_p, ipiv, batch, info, event);
}

static const bchol_lu_params no_params = {0, 0, 0, 0};

bchol_status bchol_sgetrf_vbatched_ex(bchol_context *ctx, const bchol_lu_params *params,
                                      int max_m, int max_n, cl_mem m, cl_mem n, cl_mem lda,
                                      cl_mem offsets_a, cl_mem A, cl_mem offsets_p, cl_mem ipiv,
                                      int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__getrf_vbatched_body(ctx, "bchol_sgetrf_vbatched_ex", BCHOL_S,
                                      params ? params : &no_params, max_m, max_n, m, n, lda,
                                      offsets_a, A, offsets_p, ipiv, batch, info, event);
}

bchol_status bchol_dgetrf_vbatched_ex(bchol_context *ctx, const bchol_lu_params *params,
                                      int max_m, int max_n, cl_mem m, cl_mem n, cl_mem lda,
                                      cl_mem offsets_a, cl_mem A, cl_mem offsets_p, cl_mem ipiv,
                                      int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__getrf_vbatched_body(ctx, "bchol_dgetrf_vbatched_ex", BCHOL_D,
                                      params ? params : &no_params, max_m, max_n, m, n, lda,
                                      offsets_a, A, offsets_p, ipiv, batch, info, event);
}
