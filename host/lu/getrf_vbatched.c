/* bchol_{s,d}getrf_vbatched[_ex]: argument checks, the device checks of the per-matrix
 * arrays (matrix arrays, then pivot arrays; the plain form reads the largest n back), then
 * the fused getrf kernel built for the largest order (-D VBATCHED=1 of
 * cl_kernels/lu/getrf_fused.cl). Also the pivot checks' launches, which getrs_vbatched and
 * gesv_vbatched share. */
#include "lu/lu.h"

#include <limits.h>
#include <math.h>

#define CHECK_WG BCHOL__CHECK_WG
#define CHECK_BLOCK (BCHOL__CHECK_WG * BCHOL__CHECK_PER_ITEM)

static const char *const piv_files[] = {"common/vbatched_check.cl", "lu/vbatched_check_piv.cl",
                                        NULL};
static const char *const fused_files[] = {"common/common.cl", "lu/getrf_fused.cl", NULL};

/* ---- the pivot checks ------------------------------------------------------------------ */

static bchol_status launch_piv(bchol_call *call, const char *name, cl_mem n, cl_mem offsets_p,
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
    bchol_arg args[] = {BCHOL_ARG(n),       BCHOL_ARG(offsets_p), BCHOL_ARG(elems),
                        BCHOL_ARG(count),   BCHOL_ARG(g0),        BCHOL_ARG(scratch),
                        BCHOL_ARG(nblocks), BCHOL_ARG(info)};
    return bchol__launch_groups(call, k, args, 8, 4, blocks, CHECK_WG);
}

bchol_status bchol__vcheck_piv(bchol_call *call, cl_mem n, cl_mem offsets_p, uint64_t p_elems,
                               int64_t batch, cl_mem info)
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
        st = launch_piv(call, "vbatched_check_piv_blocks", n, offsets_p, p_elems, batch, scratch,
                        blocks, info);
    if (!st) st = bchol__vcheck_scan(call, scratch, blocks);
    if (!st)
        st = launch_piv(call, "vbatched_check_piv_flag", n, offsets_p, p_elems, batch, scratch,
                        blocks, info);
    clReleaseMemObject(scratch); /* OpenCL keeps it until the commands using it finish */
    return st;
}

/* ---- sizes and the fused kernel --------------------------------------------------------- */

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

bchol_status bchol__getrf_vbatched_check_size(bchol_context *ctx, const char *routine,
                                              bchol_precision p, int max_n)
{
    const int limit = bchol__getrf_max_n(ctx, p);
    if (max_n <= limit) return BCHOL_SUCCESS;
    return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                       "%s: the largest n = %d does not fit the fused LU kernel's local memory "
                       "on this device (%llu bytes usable; n up to %d); variable-size batches "
                       "have no blocked LU yet",
                       routine, max_n, (unsigned long long)bchol__usable_local_mem(ctx), limit);
}

static bchol_status get_kernel(bchol_context *ctx, bchol_precision p, const bchol_getrf_params *prm,
                               int max_n, cl_kernel *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D M=%d", max_n);
    bchol__options_add(&o, "-D N=%d", max_n);
    bchol__options_add(&o, "-D LX=%d", prm->lx);
    bchol__options_add(&o, "-D TBC=%d", prm->tbc);
    bchol__options_add(&o, "-D PIVOT=1");
    bchol__options_add(&o, "-D VBATCHED=1");
    return bchol__get_kernel(ctx, fused_files, &o, "getrf_vbatched", k);
}

bchol_status bchol__getrf_vbatched_enqueue(bchol_call *call, bchol_precision p,
                                           const bchol_getrf_params *params, int max_n, cl_mem n,
                                           cl_mem lda, cl_mem offsets_a, cl_mem A,
                                           cl_mem offsets_p, cl_mem ipiv, int64_t batch,
                                           cl_mem info)
{
    bchol_context *ctx = call->ctx;
    if (max_n <= 0 || batch == 0) return BCHOL_SUCCESS;
    bchol_status st = bchol__getrf_vbatched_check_size(ctx, "getrf_vbatched", p, max_n);
    if (st) return st;
    bchol_getrf_params prm = *params;
    if (prm.lx > max_n) prm.lx = max_n;
    bchol__getrf_fused_params(ctx, p, max_n, max_n, &prm);
    /* no more matrices a group than local memory holds, nor than the batch has */
    const uint64_t one = bchol__getrf_fused_local_bytes(p, max_n, max_n, prm.lx);
    const uint64_t fit = bchol__usable_local_mem(ctx) / (one ? one : 1);
    if ((uint64_t)prm.tbc > fit) prm.tbc = fit > 1 ? (int)fit : 1;
    if (prm.tbc > batch) prm.tbc = (int)batch;
    if (one > bchol__usable_local_mem(ctx))
        return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                           "getrf_vbatched: max_n = %d needs %llu bytes of local memory with lx "
                           "= %d; the device has %llu",
                           max_n, (unsigned long long)one, prm.lx,
                           (unsigned long long)bchol__usable_local_mem(ctx));

    /* fewer matrices a group, then fewer work-items a matrix, where the built kernel takes
     * fewer work-items than the shape needs (as the fixed-size driver) */
    cl_kernel kernel = NULL;
    for (int tries = 0;; tries++) {
        if ((st = get_kernel(ctx, p, &prm, max_n, &kernel))) return st;
        const size_t limit = bchol__kernel_wg_limit(ctx, kernel);
        if ((size_t)prm.lx * (size_t)prm.tbc <= limit) break;
        if (tries == 8)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "getrf_vbatched: no work-group shape fits max_n = %d (the kernel "
                               "takes at most %zu work-items)",
                               max_n, limit);
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
    bchol_arg args[] = {BCHOL_ARG(A),    BCHOL_ARG(offsets_a), BCHOL_ARG(n),
                        BCHOL_ARG(lda),  BCHOL_ARG(ipiv),      BCHOL_ARG(offsets_p),
                        BCHOL_ARG(info), BCHOL_ARG(count),     BCHOL_ARG(g0)};
    return bchol__launch_groups(call, kernel, args, 9, 8, groups, local);
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
    return BCHOL_SUCCESS;
}

bchol_status bchol__getrf_vbatched_body(bchol_context *ctx, const char *routine, bchol_precision p,
                                   const bchol_lu_params *params, int max_n, cl_mem n, cl_mem lda,
                                   cl_mem offsets_a, cl_mem A, cl_mem offsets_p, cl_mem ipiv,
                                   int64_t batch, cl_mem info, cl_event *event)
{
    /* Positions after ctx: the _ex forms insert params (2) and max_n (3). */
    const int ex = params != NULL, pn = ex ? 4 : 2;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (ex && (st = check_lu_params(ctx, routine, params))) return st;
    if (ex && max_n < 0)
        return bchol__fail(ctx, BCHOL_ERR_MAX_N, "%s: argument 3 (max_n = %d) must be >= 0",
                           routine, max_n);
    if (batch < 0 || batch > INT64_MAX / 8)
        return bchol__fail(ctx, BCHOL_ERR_BATCH,
                           "%s: argument %d (batch = %lld) must be in [0, 2^60)", routine, pn + 6,
                           (long long)batch);
    const uint64_t ints = (uint64_t)batch * sizeof(cl_int);
    const uint64_t longs = (uint64_t)batch * sizeof(cl_long);
    if (batch > 0 &&
        ((st = bchol__check_buffer(ctx, routine, pn, "n", n, ints, BCHOL_ERR_N_ARRAY,
                                   BCHOL_ERR_N_ARRAY)) ||
         (st = bchol__check_buffer(ctx, routine, pn + 1, "lda", lda, ints, BCHOL_ERR_LDA_ARRAY,
                                   BCHOL_ERR_LDA_ARRAY)) ||
         (st = bchol__check_buffer(ctx, routine, pn + 2, "offsets_a", offsets_a, longs,
                                   BCHOL_ERR_OFFSETS_A, BCHOL_ERR_OFFSETS_A)) ||
         (st = bchol__check_buffer(ctx, routine, pn + 3, "A", A, 0, BCHOL_ERR_A,
                                   BCHOL_ERR_A_SIZE)) ||
         (st = bchol__check_buffer(ctx, routine, pn + 4, "offsets_p", offsets_p, longs,
                                   BCHOL_ERR_OFFSETS_P, BCHOL_ERR_OFFSETS_P)) ||
         (st = bchol__check_buffer(ctx, routine, pn + 5, "ipiv", ipiv, 0, BCHOL_ERR_IPIV,
                                   BCHOL_ERR_IPIV_SIZE)) ||
         (st = bchol__check_buffer(ctx, routine, pn + 7, "info", info, ints, BCHOL_ERR_INFO,
                                   BCHOL_ERR_INFO_SIZE))))
        return st;
    /* which bytes of A and ipiv an entry uses is on the device: each is all of its buffer */
    const bchol_buffer_use uses[] = {
        {pn, "n", n, 0, ints, BCHOL__READ, BCHOL_ERR_N_ARRAY},
        {pn + 1, "lda", lda, 0, ints, BCHOL__READ, BCHOL_ERR_LDA_ARRAY},
        {pn + 2, "offsets_a", offsets_a, 0, longs, BCHOL__READ, BCHOL_ERR_OFFSETS_A},
        {pn + 3, "A", A, 0, 0, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_A},
        {pn + 4, "offsets_p", offsets_p, 0, longs, BCHOL__READ, BCHOL_ERR_OFFSETS_P},
        {pn + 5, "ipiv", ipiv, 0, 0, BCHOL__WRITE, BCHOL_ERR_IPIV},
        {pn + 7, "info", info, 0, ints, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_INFO}};
    if (batch > 0 && (st = bchol__check_buffer_uses(ctx, routine, uses, 7))) return st;
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    size_t a_bytes = 0, p_bytes = 0;
    clGetMemObjectInfo(A, CL_MEM_SIZE, sizeof a_bytes, &a_bytes, NULL);
    clGetMemObjectInfo(ipiv, CL_MEM_SIZE, sizeof p_bytes, &p_bytes, NULL);
    const uint64_t a_elems = a_bytes / bchol__elem_size(p);
    const uint64_t p_elems = p_bytes / sizeof(cl_int);

    /* _ex: the kernel's size, cut to what A can hold, is known before anything is enqueued */
    if (ex && (st = bchol__getrf_vbatched_check_size(ctx, routine, p,
                                                     bchol__vbatched_reach(a_elems, max_n))))
        return st;
    bchol_getrf_params prm = {ex ? params->lx : 0, ex ? params->tbc : 0, 0, 0};
    bchol_call call;
    bchol_vcheck vc = {NULL, 0};
    bchol__call_begin(&call, ctx);
    /* The plain form bounds n[b] by nothing; the well-formed matrices give max_n. */
    const int bound = ex ? max_n : INT_MAX;
    st = bchol__vcheck_reduce(&call, &vc, n, lda, offsets_a, a_elems, bound, batch, !ex);
    if (!st && !ex) st = bchol__vcheck_read_max_n(&call, &vc, &max_n);
    if (!st) st = bchol__vcheck_flag(&call, &vc, n, lda, offsets_a, a_elems, bound, batch, info);
    if (!st) st = bchol__vcheck_piv(&call, n, offsets_p, p_elems, batch, info);
    /* the plain form learns the largest n only now: the checks' codes are in info */
    if (!st && !ex) st = bchol__getrf_vbatched_check_size(ctx, routine, p, max_n);
    if (!st)
        st = bchol__getrf_vbatched_enqueue(&call, p, &prm, bchol__vbatched_reach(a_elems, max_n),
                                           n, lda, offsets_a, A, offsets_p, ipiv, batch, info);
    bchol__vcheck_release(&vc);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sgetrf_vbatched(bchol_context *ctx, cl_mem n, cl_mem lda, cl_mem offsets_a,
                                   cl_mem A, cl_mem offsets_p, cl_mem ipiv, int64_t batch,
                                   cl_mem info, cl_event *event)
{
    return bchol__getrf_vbatched_body(ctx, "bchol_sgetrf_vbatched", BCHOL_S, NULL, -1, n, lda, offsets_a, A,
                          offsets_p, ipiv, batch, info, event);
}

bchol_status bchol_dgetrf_vbatched(bchol_context *ctx, cl_mem n, cl_mem lda, cl_mem offsets_a,
                                   cl_mem A, cl_mem offsets_p, cl_mem ipiv, int64_t batch,
                                   cl_mem info, cl_event *event)
{
    return bchol__getrf_vbatched_body(ctx, "bchol_dgetrf_vbatched", BCHOL_D, NULL, -1, n, lda, offsets_a, A,
                          offsets_p, ipiv, batch, info, event);
}

static const bchol_lu_params no_params = {0, 0};

bchol_status bchol_sgetrf_vbatched_ex(bchol_context *ctx, const bchol_lu_params *params,
                                      int max_n, cl_mem n, cl_mem lda, cl_mem offsets_a, cl_mem A,
                                      cl_mem offsets_p, cl_mem ipiv, int64_t batch, cl_mem info,
                                      cl_event *event)
{
    return bchol__getrf_vbatched_body(ctx, "bchol_sgetrf_vbatched_ex", BCHOL_S, params ? params : &no_params,
                          max_n, n, lda, offsets_a, A, offsets_p, ipiv, batch, info, event);
}

bchol_status bchol_dgetrf_vbatched_ex(bchol_context *ctx, const bchol_lu_params *params,
                                      int max_n, cl_mem n, cl_mem lda, cl_mem offsets_a, cl_mem A,
                                      cl_mem offsets_p, cl_mem ipiv, int64_t batch, cl_mem info,
                                      cl_event *event)
{
    return bchol__getrf_vbatched_body(ctx, "bchol_dgetrf_vbatched_ex", BCHOL_D, params ? params : &no_params,
                          max_n, n, lda, offsets_a, A, offsets_p, ipiv, batch, info, event);
}
