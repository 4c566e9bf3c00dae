/* bchol_{s,d}potrf_batched[_ex]: argument checks, quick returns, then the variant the
 * dispatcher picks. */
#include "chol/chol.h"
#include "blas/clblast_gemm.h"
#include "chol/interleaved.h"

#include <limits.h>

static bchol_status check_separate_params(bchol_context *ctx, const char *routine,
                                          const bchol_params *p);

static bchol_status check_params(bchol_context *ctx, const char *routine, const bchol_params *p)
{
    if (p->variant != BCHOL_VARIANT_AUTO && p->variant != BCHOL_VARIANT_FUSED &&
        p->variant != BCHOL_VARIANT_SEPARATE && p->variant != BCHOL_VARIANT_INTERLEAVED &&
        p->variant != BCHOL_VARIANT_WORKITEM)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->variant = %d) is not a variant",
                           routine, (int)p->variant);
    if (p->ib > 32)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->ib = %d) must be at most 32",
                           routine, p->ib);
    if (p->tbc > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->tbc = %d) must be at most 64",
                           routine, p->tbc);
    if (p->rpt > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->rpt = %d) must be at most 64",
                           routine, p->rpt);
    if (p->shape > BCHOL_SHAPE_SHRINK)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->shape = %d) is not a shape",
                           routine, p->shape);
    if (p->wnb > 32)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->wnb = %d) must be at most 32",
                           routine, p->wnb);
    if (p->wvec > 0 && p->wvec != 1 && p->wvec != 2 && p->wvec != 4 && p->wvec != 8 && p->wvec != 16)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->wvec = %d) must be 1, 2, 4, 8 or 16", routine, p->wvec);
    if (p->wmr > 2)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->wmr = %d) must be 1 or 2",
                           routine, p->wmr);
    if (p->wgroup > 256)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->wgroup = %d) must be at most 256", routine, p->wgroup);
    return check_separate_params(ctx, routine, p);
}

/* The separate variant's fields (fields <= 0 take the default). */
static bchol_status check_separate_params(bchol_context *ctx, const char *routine,
                                          const bchol_params *p)
{
    if (p->nb > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->nb = %d) must be at most 64",
                           routine, p->nb);
    if (p->pb > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->pb = %d) must be at most 64",
                           routine, p->pb);
    if (p->gemm > BCHOL_GEMM_CLBLAST)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->gemm = %d) is not a GEMM",
                           routine, p->gemm);
    if (p->gemm == BCHOL_GEMM_CLBLAST && !bchol__clblast_available())
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->gemm = %d, CLBlast) is not available: this bchol "
                           "was built without CLBlast",
                           routine, p->gemm);
    if (p->tile > 0 && p->tile != 16 && p->tile != 32 && p->tile != 64 && p->tile != 128)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->tile = %d) must be 16, 32, 64 or 128", routine, p->tile);
    if (p->gb > (1 << 24))
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (params->gb = %d) must be at most 2^24",
                           routine, p->gb);
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrf_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                  const bchol_params *params, char uplo, int n, cl_mem A,
                                  int64_t offset, int lda, int64_t stride, int64_t batch,
                                  cl_mem info, cl_event *event)
{
    /* Positions of the arguments after ctx: the _ex forms have params in position 2. */
    const int k = params ? 1 : 0;
    int upper;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (params && (st = check_params(ctx, routine, params))) return st;
    if (params && (st = bchol__check_interleaved_params(ctx, routine, 2, n, params))) return st;
    if ((st = bchol__check_uplo(ctx, routine, 2 + k, uplo, &upper))) return st;
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument %d (n = %d) must be >= 0", routine, 3 + k, n);
    if (lda < (n > 1 ? n : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA, "%s: argument %d (lda = %d) must be >= max(1, n) = %d",
                           routine, 6 + k, lda, n > 1 ? n : 1);
    if ((st = bchol__check_index_span(ctx, routine, 3 + k, n, lda))) return st;
    if (offset < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_A, "%s: argument %d (offset = %lld) must be >= 0",
                           routine, 5 + k, (long long)offset);
    if (stride < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument %d (stride = %lld) must be >= lda*n = %lld", routine, 7 + k,
                           (long long)stride, (long long)lda * n);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument %d (batch = %lld) must be >= 0",
                           routine, 8 + k, (long long)batch);
    uint64_t span = 0; /* A is not referenced when n = 0, whatever the offset */
    if (batch > 0 && n > 0 && (bchol__batch_span(offset, stride, batch, lda, n, n, &span) ||
                               span > UINT64_MAX / bchol__elem_size(p)))
        return bchol__fail(ctx, BCHOL_ERR_A_SIZE, "%s: the batch spans more elements than 2^64 bytes",
                           routine);
    if (batch > 0 && n > 0 &&
        (st = bchol__check_buffer(ctx, routine, 4 + k, "A", A, span * bchol__elem_size(p),
                                  BCHOL_ERR_A, BCHOL_ERR_A_SIZE)))
        return st;
    if (batch > 0 && (st = bchol__check_buffer(ctx, routine, 9 + k, "info", info,
                                               bchol__info_bytes(batch), BCHOL_ERR_INFO,
                                               BCHOL_ERR_INFO_SIZE)))
        return st;
    const bchol_buffer_use uses[] = {
        {4 + k, "A", n > 0 ? A : NULL, (uint64_t)offset * bchol__elem_size(p),
         span * bchol__elem_size(p), BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_A},
        {9 + k, "info", info, 0, bchol__info_bytes(batch), BCHOL__READ | BCHOL__WRITE,
         BCHOL_ERR_INFO}};
    if (batch > 0 && (st = bchol__check_buffer_uses(ctx, routine, uses, 2))) return st;
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;

    bchol_call call;
    bchol__call_begin(&call, ctx);
    if (n == 0) return bchol__call_end(&call, bchol__fill_int(&call, info, 0, batch), event);

    bchol_params chosen = {0};
    if (params) chosen = *params;
    bchol__complete_params(ctx, p, n, &chosen);
    if (chosen.variant == BCHOL_VARIANT_INTERLEAVED) {
        /* the dispatcher's choice gives way to the strided kernels when the workspace
         * cannot be had; the caller's explicit choice does not */
        const int may_decline = !params || params->variant == BCHOL_VARIANT_AUTO;
        int declined;
        st = bchol__potrf_via_interleaved(&call, p, &chosen, upper, n, A, offset, lda, stride, batch, info,
                                          may_decline, &declined);
        if (!declined) return bchol__call_end(&call, st, event);
        chosen.variant = n > bchol__fused_max_n(ctx, p, &chosen) ? BCHOL_VARIANT_SEPARATE : BCHOL_VARIANT_FUSED;
    }
    if (chosen.variant == BCHOL_VARIANT_WORKITEM) {
        st = bchol__potrf_workitem(&call, p, &chosen, upper, n, A, offset, lda, stride, batch, info);
        return bchol__call_end(&call, st, event);
    }
    if (chosen.variant == BCHOL_VARIANT_SEPARATE) {
        st = bchol__potrf_separate(&call, p, &chosen, upper, n, A, offset, lda, stride, batch, info);
        return bchol__call_end(&call, st, event);
    }
    if (n > bchol__fused_max_n(ctx, p, &chosen))
        return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                           "%s: n = %d is larger than the fused kernel can hold in local memory "
                           "on this device (at most %d with ib = %d, tbc = %d)",
                           routine, n, bchol__fused_max_n(ctx, p, &chosen), chosen.ib, chosen.tbc);
    st = bchol__potrf_fused(&call, p, &chosen, upper, n, A, offset, lda, stride, batch, info);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_spotrf_batched(bchol_context *ctx, char uplo, int n, cl_mem A, int64_t offset,
                                  int lda, int64_t stride, int64_t batch, cl_mem info,
                                  cl_event *event)
{
    return bchol__potrf_batched(ctx, "bchol_spotrf_batched", BCHOL_S, NULL, uplo, n, A, offset,
                                lda, stride, batch, info, event);
}

bchol_status bchol_dpotrf_batched(bchol_context *ctx, char uplo, int n, cl_mem A, int64_t offset,
                                  int lda, int64_t stride, int64_t batch, cl_mem info,
                                  cl_event *event)
{
    return bchol__potrf_batched(ctx, "bchol_dpotrf_batched", BCHOL_D, NULL, uplo, n, A, offset,
                                lda, stride, batch, info, event);
}

static const bchol_params no_params = {0};

bchol_status bchol_spotrf_batched_ex(bchol_context *ctx, const bchol_params *params, char uplo,
                                     int n, cl_mem A, int64_t offset, int lda, int64_t stride,
                                     int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__potrf_batched(ctx, "bchol_spotrf_batched_ex", BCHOL_S, params ? params : &no_params,
                                uplo, n, A, offset, lda, stride, batch, info, event);
}

bchol_status bchol_dpotrf_batched_ex(bchol_context *ctx, const bchol_params *params, char uplo,
                                     int n, cl_mem A, int64_t offset, int lda, int64_t stride,
                                     int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__potrf_batched(ctx, "bchol_dpotrf_batched_ex", BCHOL_D, params ? params : &no_params,
                                uplo, n, A, offset, lda, stride, batch, info, event);
}

/* The same checks for bchol_potrf_prepare, where params is argument 2 as well. */
bchol_status bchol__check_params(bchol_context *ctx, const char *routine, const bchol_params *params)
{
    return check_params(ctx, routine, params);
}
