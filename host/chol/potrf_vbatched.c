/* bchol_{s,d}potrf_vbatched[_ex]: argument checks, the device checks of the per-matrix
 * arrays (and, for the plain form, the largest n read back), then the variants: the
 * fused kernel (on CPUs the workitem kernel) for the matrices up to the crossover, the
 * separate variant above it. */
#include "chol/chol.h"

#include <limits.h>
#include <math.h>

/* The fused kernel takes up to 64 matrices per work-group and also the PACK shape; the
 * separate variant has only bchol's own GEMM kernels (CLBlast has no variable sizes); the
 * workitem fields as for the fixed size. */
static bchol_status check_params(bchol_context *ctx, const char *routine,
                                 const bchol_vbatched_params *p)
{
    const bchol_params *f = &p->fused;
    if (f->variant == BCHOL_VARIANT_INTERLEAVED)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.variant = INTERLEAVED): the interleaved "
                           "variant takes fixed sizes only; use AUTO, FUSED, SEPARATE or WORKITEM",
                           routine);
    if (f->variant != BCHOL_VARIANT_AUTO && f->variant != BCHOL_VARIANT_FUSED &&
        f->variant != BCHOL_VARIANT_SEPARATE && f->variant != BCHOL_VARIANT_WORKITEM)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.variant = %d) must be AUTO, FUSED, "
                           "SEPARATE or WORKITEM",
                           routine, (int)f->variant);
    if (f->wnb > 32)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.wnb = %d) must be at most 32", routine,
                           f->wnb);
    if (f->wvec > 0 && f->wvec != 1 && f->wvec != 2 && f->wvec != 4 && f->wvec != 8 &&
        f->wvec != 16)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.wvec = %d) must be 1, 2, 4, 8 or 16",
                           routine, f->wvec);
    if (f->wmr > 2)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.wmr = %d) must be 1 or 2", routine,
                           f->wmr);
    if (f->wgroup > 256)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.wgroup = %d) must be at most 256",
                           routine, f->wgroup);
    if (f->ib > 32)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.ib = %d) must be at most 32", routine,
                           f->ib);
    if (f->tbc > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.tbc = %d) must be at most 64", routine,
                           f->tbc);
    if (f->rpt > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.rpt = %d) must be at most 64", routine,
                           f->rpt);
    if (f->shape > BCHOL_SHAPE_PACK)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.shape = %d) is not a shape", routine,
                           f->shape);
    if (f->nb > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.nb = %d) must be at most 64", routine,
                           f->nb);
    if (f->pb > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.pb = %d) must be at most 64", routine,
                           f->pb);
    if (f->tile > 0 && f->tile != 16 && f->tile != 32 && f->tile != 64 && f->tile != 128)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.tile = %d) must be 16, 32, 64 or 128",
                           routine, f->tile);
    if (f->gemm > BCHOL_GEMM_OWN)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->fused.gemm = %d) must be 0 or BCHOL_GEMM_OWN: "
                           "variable sizes have no CLBlast path",
                           routine, f->gemm);
    if ((int)p->etm < 0 || p->etm > BCHOL_ETM_AGGRESSIVE)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->etm = %d) is not an ETM", routine, (int)p->etm);
    if ((int)p->schedule < 0 || p->schedule > BCHOL_SCHEDULE_ONE_LAUNCH)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->schedule = %d) is not a schedule", routine,
                           (int)p->schedule);
    if ((int)p->order < 0 || p->order > BCHOL_ORDER_STEPS)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->order = %d) is not an order", routine,
                           (int)p->order);
    return BCHOL_SUCCESS;
}

static bchol_status unsupported(bchol_context *ctx, const char *routine, bchol_precision p,
                                int max_n, const bchol_vbatched_params *prm)
{
    return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                       "%s: max_n = %d is above what the fused kernel (params->fused.variant = "
                       "FUSED) holds in local memory on this device (at most %d with ib = %d)",
                       routine, max_n, bchol__vbatched_fused_max_n(ctx, p, prm), prm->fused.ib);
}

/* The variants for a checked batch of largest order max_n: the fused kernel (or, on a
 * backend that says so and with WORKITEM, the workitem kernel) takes n[b] <= fused_hi
 * (work_hi), the separate variant n[b] > sep_lo (each is skipped where its range is empty). */
bchol_status bchol__potrf_vbatched_run(bchol_call *call, bchol_precision p,
                                       const bchol_vbatched_params *prm, int upper, int max_n,
                                       cl_mem n, cl_mem lda, cl_mem offsets, cl_mem A,
                                       int64_t batch, cl_mem info)
{
    /* The _ex forms' max_n is only the caller's bound: no well-formed matrix is larger
     * than its 32-bit index span (n*n <= 2^31-1) or than A (n*n elements) allows, so the
     * launches stop there (the separate variant steps through every block column up to
     * max_n: a bound of INT_MAX would enqueue millions of launches). */
    size_t a_bytes = 0;
    clGetMemObjectInfo(A, CL_MEM_SIZE, sizeof a_bytes, &a_bytes, NULL);
    const uint64_t a_elems = a_bytes / bchol__elem_size(p);
    uint64_t reach = 46340; /* 46341^2 > 2^31-1 */
    if (a_elems < reach * reach) {
        reach = (uint64_t)sqrt((double)a_elems);
        while (reach * reach > a_elems)
            reach--;
        while ((reach + 1) * (reach + 1) <= a_elems)
            reach++;
    }
    if ((uint64_t)max_n > reach) max_n = (int)reach;
    int fused_hi = max_n, sep_lo = max_n, work_hi = 0;
    const int work_to =
        prm->fused.variant == BCHOL_VARIANT_AUTO ? bchol__vbatched_workitem_to(call->ctx, p) : 0;
    if (prm->fused.variant == BCHOL_VARIANT_SEPARATE) {
        fused_hi = 0, sep_lo = 0;
    } else if (prm->fused.variant == BCHOL_VARIANT_WORKITEM) {
        fused_hi = 0, work_hi = max_n;
    } else if (work_to > 0) { /* a CPU: the workitem kernel up to work_to, separate above */
        fused_hi = 0, work_hi = max_n < work_to ? max_n : work_to, sep_lo = work_hi;
    } else if (prm->fused.variant == BCHOL_VARIANT_AUTO && max_n > prm->crossover) {
        fused_hi = prm->crossover, sep_lo = prm->crossover;
    }
    bchol_status st = BCHOL_SUCCESS;
    if (work_hi > 0)
        st = bchol__potrf_vbatched_workitem(call, p, &prm->fused, upper, work_hi, n, lda, offsets,
                                            A, batch, info);
    if (!st && fused_hi > 0)
        st = bchol__potrf_vbatched_fused(call, p, prm, upper, fused_hi, n, lda, offsets, A, batch,
                                         info);
    if (!st && sep_lo < max_n)
        st = bchol__potrf_vbatched_separate(call, p, &prm->fused, upper, sep_lo, max_n, n, lda,
                                            offsets, A, batch, info);
    return st;
}

bchol_status bchol__potrf_vbatched(bchol_context *ctx, const char *routine, bchol_precision p,
                                   const bchol_vbatched_params *params, char uplo, int max_n,
                                   cl_mem n, cl_mem lda, cl_mem offsets, cl_mem A, int64_t batch,
                                   cl_mem info, cl_event *event)
{
    /* Positions after ctx: the _ex forms insert params (2) and max_n (4). */
    const int ex = params != NULL, pn = ex ? 5 : 3;
    int upper;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (ex && (st = check_params(ctx, routine, params))) return st;
    if ((st = bchol__check_uplo(ctx, routine, ex ? 3 : 2, uplo, &upper))) return st;
    if (ex && max_n < 0)
        return bchol__fail(ctx, BCHOL_ERR_MAX_N, "%s: argument 4 (max_n = %d) must be >= 0",
                           routine, max_n);
    if (batch < 0 || batch > INT64_MAX / 8)
        return bchol__fail(ctx, BCHOL_ERR_BATCH,
                           "%s: argument %d (batch = %lld) must be in [0, 2^60)", routine, pn + 4,
                           (long long)batch);
    const uint64_t ints = (uint64_t)batch * sizeof(cl_int);
    if (batch > 0 &&
        ((st = bchol__check_buffer(ctx, routine, pn, "n", n, ints, BCHOL_ERR_N_ARRAY,
                                  BCHOL_ERR_N_ARRAY)) ||
        (st = bchol__check_buffer(ctx, routine, pn + 1, "lda", lda, ints, BCHOL_ERR_LDA_ARRAY,
                                  BCHOL_ERR_LDA_ARRAY)) ||
        (st = bchol__check_buffer(ctx, routine, pn + 2, "offsets", offsets,
                                  (uint64_t)batch * sizeof(cl_long), BCHOL_ERR_OFFSETS_A,
                                  BCHOL_ERR_OFFSETS_A)) ||
        (st =
             bchol__check_buffer(ctx, routine, pn + 3, "A", A, 0, BCHOL_ERR_A, BCHOL_ERR_A_SIZE)) ||
        (st = bchol__check_buffer(ctx, routine, pn + 5, "info", info, ints, BCHOL_ERR_INFO,
                                  BCHOL_ERR_INFO_SIZE))))
        return st;
    /* which bytes of A an entry uses is on the device: A is all of its buffer */
    const bchol_buffer_use uses[] = {
        {pn, "n", n, 0, ints, BCHOL__READ, BCHOL_ERR_N_ARRAY},
        {pn + 1, "lda", lda, 0, ints, BCHOL__READ, BCHOL_ERR_LDA_ARRAY},
        {pn + 2, "offsets", offsets, 0, (uint64_t)batch * sizeof(cl_long), BCHOL__READ,
         BCHOL_ERR_OFFSETS_A},
        {pn + 3, "A", A, 0, 0, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_A},
        {pn + 5, "info", info, 0, ints, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_INFO}};
    if (batch > 0 && (st = bchol__check_buffer_uses(ctx, routine, uses, 5))) return st;
    /* after every argument check (the entries of the arrays are the device's to check,
     * on a device that can run the call): a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    size_t a_bytes = 0;
    clGetMemObjectInfo(A, CL_MEM_SIZE, sizeof a_bytes, &a_bytes, NULL);
    const uint64_t a_elems = a_bytes / bchol__elem_size(p);

    bchol_vbatched_params chosen = {{0}, BCHOL_ETM_DEFAULT, BCHOL_SCHEDULE_DEFAULT, 0, BCHOL_ORDER_DEFAULT};
    if (ex) {
        chosen = *params;
        bchol__complete_vbatched_params(ctx, p, max_n, batch, &chosen);
        if (chosen.fused.variant == BCHOL_VARIANT_FUSED &&
            max_n > bchol__vbatched_fused_max_n(ctx, p, &chosen))
            return unsupported(ctx, routine, p, max_n, &chosen);
    }

    bchol_call call;
    bchol_vcheck vc = {NULL, 0};
    bchol__call_begin(&call, ctx);
    /* The plain form bounds n[b] by nothing; the well-formed matrices give max_n. */
    const int bound = ex ? max_n : INT_MAX;
    st = bchol__vcheck_reduce(&call, &vc, n, lda, offsets, a_elems, bound, batch, !ex);
    if (!st && !ex && !(st = bchol__vcheck_read_max_n(&call, &vc, &max_n)))
        bchol__complete_vbatched_params(ctx, p, max_n, batch, &chosen);
    if (!st) st = bchol__vcheck_flag(&call, &vc, n, lda, offsets, a_elems, bound, batch, info);
    if (!st)
        st = bchol__potrf_vbatched_run(&call, p, &chosen, upper, max_n, n, lda, offsets, A, batch,
                                       info);
    bchol__vcheck_release(&vc);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_spotrf_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem lda,
                                   cl_mem offsets, cl_mem A, int64_t batch, cl_mem info,
                                   cl_event *event)
{
    return bchol__potrf_vbatched(ctx, "bchol_spotrf_vbatched", BCHOL_S, NULL, uplo, -1, n, lda,
                                 offsets, A, batch, info, event);
}

bchol_status bchol_dpotrf_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem lda,
                                   cl_mem offsets, cl_mem A, int64_t batch, cl_mem info,
                                   cl_event *event)
{
    return bchol__potrf_vbatched(ctx, "bchol_dpotrf_vbatched", BCHOL_D, NULL, uplo, -1, n, lda,
                                 offsets, A, batch, info, event);
}

static const bchol_vbatched_params no_params = {{0}, BCHOL_ETM_DEFAULT, BCHOL_SCHEDULE_DEFAULT, 0, BCHOL_ORDER_DEFAULT};

bchol_status bchol_spotrf_vbatched_ex(bchol_context *ctx, const bchol_vbatched_params *params,
                                      char uplo, int max_n, cl_mem n, cl_mem lda, cl_mem offsets,
                                      cl_mem A, int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__potrf_vbatched(ctx, "bchol_spotrf_vbatched_ex", BCHOL_S,
                                 params ? params : &no_params, uplo, max_n, n, lda, offsets, A,
                                 batch, info, event);
}

bchol_status bchol_dpotrf_vbatched_ex(bchol_context *ctx, const bchol_vbatched_params *params,
                                      char uplo, int max_n, cl_mem n, cl_mem lda, cl_mem offsets,
                                      cl_mem A, int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__potrf_vbatched(ctx, "bchol_dpotrf_vbatched_ex", BCHOL_D,
                                 params ? params : &no_params, uplo, max_n, n, lda, offsets, A,
                                 batch, info, event);
}
