/* bchol_{s,d}getrf_batched and bchol_{s,d}getrf_nopiv_batched: argument checks (shared
 * with the routines that factor, by argument position), quick returns, the enqueue of the
 * chosen variant (the choice: getrf_choose.c). */
#include "lu/lu.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const bchol_lu_pos bchol__getrf_pos = {.m = 2, .n = 3, .A = 4, .offset_a = 5, .lda = 6,
                                       .stride_a = 7, .ipiv = 8, .offset_p = 9,
                                       .stride_p = 10, .batch = 11, .info = 12};
const bchol_lu_pos bchol__getrf_nopiv_pos = {.m = 2, .n = 3, .A = 4, .offset_a = 5, .lda = 6,
                                             .stride_a = 7, .batch = 8, .info = 9};

bchol_status bchol__getrf_launch(bchol_call *call, cl_kernel kernel, int pivot, cl_mem A,
                                 int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                 int64_t offset_p, int64_t stride_p, int64_t batch, cl_mem info,
                                 size_t per_group, size_t local)
{
    cl_ulong off = (cl_ulong)offset_a, str = (cl_ulong)stride_a, count = (cl_ulong)batch;
    cl_ulong off_p = pivot ? (cl_ulong)offset_p : 0, str_p = pivot ? (cl_ulong)stride_p : 0;
    cl_mem piv = pivot ? ipiv : NULL; /* the kernel built with PIVOT = 0 does not touch it */
    cl_int ld = lda;
    cl_ulong g0 = 0;
    bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(off),   BCHOL_ARG(ld),
                        BCHOL_ARG(str),   BCHOL_ARG(piv),   BCHOL_ARG(off_p),
                        BCHOL_ARG(str_p), BCHOL_ARG(info),  BCHOL_ARG(count),
                        BCHOL_ARG(g0)};
    const uint64_t groups = ((uint64_t)batch + per_group - 1) / per_group;
    return bchol__launch_groups(call, kernel, args, 10, 9, groups, local);
}

bchol_status bchol__check_getrf_args(bchol_context *ctx, const char *routine,
                                     const bchol_lu_pos *pos, bchol_precision p, int pivot,
                                     int m, int n, cl_mem A, int64_t offset_a, int lda,
                                     int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                     int64_t stride_p, int64_t batch, cl_mem info,
                                     bchol_buffer_use *uses, int *nuses)
{
    bchol_status st;
    *nuses = 0;
    if (pos->m && m < 0)
        return bchol__fail(ctx, BCHOL_ERR_M, "%s: argument %d (m = %d) must be >= 0", routine,
                           pos->m, m);
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument %d (n = %d) must be >= 0", routine,
                           pos->n, n);
    if (lda < (m > 1 ? m : 1))
        return bchol__fail(ctx, BCHOL_ERR_LDA, "%s: argument %d (lda = %d) must be >= max(1, %s) = %d",
                           routine, pos->lda, lda, pos->m ? "m" : "n", m > 1 ? m : 1);
    /* the kernels index a matrix with ints: (n-1)*lda + m < 2^31 (only n > 1 can break it,
     * as m <= lda) */
    if (n > 1 && (int64_t)(n - 1) * lda + m > INT_MAX)
        return bchol__fail(ctx, BCHOL_ERR_N,
                           "%s: argument %d (n = %d) with lda = %d spans more than 2^31-1 elements",
                           routine, pos->n, n, lda);
    if (offset_a < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_A, "%s: argument %d (offset_a = %lld) must be >= 0",
                           routine, pos->offset_a, (long long)offset_a);
    if (stride_a < (int64_t)lda * n)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_A,
                           "%s: argument %d (stride_a = %lld) must be >= lda*n = %lld", routine,
                           pos->stride_a, (long long)stride_a, (long long)lda * n);
    const int k = m < n ? m : n;
    if (pivot && offset_p < 0)
        return bchol__fail(ctx, BCHOL_ERR_OFFSET_P, "%s: argument %d (offset_p = %lld) must be >= 0",
                           routine, pos->offset_p, (long long)offset_p);
    if (pivot && stride_p < k)
        return bchol__fail(ctx, BCHOL_ERR_STRIDE_P,
                           "%s: argument %d (stride_p = %lld) must be >= min(m, n) = %d", routine,
                           pos->stride_p, (long long)stride_p, k);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument %d (batch = %lld) must be >= 0",
                           routine, pos->batch, (long long)batch);
    if (batch == 0) return BCHOL_SUCCESS;

    const uint64_t es = bchol__elem_size(p);
    uint64_t span = 0, pspan = 0;
    if (k > 0) {
        if (bchol__batch_span(offset_a, stride_a, batch, lda, m, n, &span) || span > UINT64_MAX / es)
            return bchol__fail(ctx, BCHOL_ERR_A_SIZE,
                               "%s: the batch spans more elements of A than 2^64 bytes", routine);
        if ((st = bchol__check_buffer(ctx, routine, pos->A, "A", A, span * es, BCHOL_ERR_A,
                                      BCHOL_ERR_A_SIZE)))
            return st;
        uses[(*nuses)++] = (bchol_buffer_use){pos->A, "A", A, (uint64_t)offset_a * es, span * es,
                                              BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_A};
    }
    if (pivot && k > 0) {
        /* offset_p + (batch-1)*stride_p + k ints */
        if (bchol__batch_span(offset_p, stride_p, batch, 0, k, 1, &pspan) ||
            pspan > UINT64_MAX / sizeof(cl_int))
            return bchol__fail(ctx, BCHOL_ERR_IPIV_SIZE,
                               "%s: the batch spans more elements of ipiv than 2^64 bytes", routine);
        if ((st = bchol__check_buffer(ctx, routine, pos->ipiv, "ipiv", ipiv, pspan * sizeof(cl_int),
                                      BCHOL_ERR_IPIV, BCHOL_ERR_IPIV_SIZE)))
            return st;
        uses[(*nuses)++] =
            (bchol_buffer_use){pos->ipiv, "ipiv", ipiv, (uint64_t)offset_p * sizeof(cl_int),
                               pspan * sizeof(cl_int), BCHOL__WRITE, BCHOL_ERR_IPIV};
    }
    if (pos->info) {
        if ((st = bchol__check_buffer(ctx, routine, pos->info, "info", info,
                                      bchol__info_bytes(batch), BCHOL_ERR_INFO,
                                      BCHOL_ERR_INFO_SIZE)))
            return st;
        uses[(*nuses)++] = (bchol_buffer_use){pos->info, "info", info, 0, bchol__info_bytes(batch),
                                              BCHOL__WRITE, BCHOL_ERR_INFO};
    }
    return BCHOL_SUCCESS;
}

bchol_status bchol__getrf_check_size(bchol_context *ctx, const char *routine, bchol_precision p,
                                     int m, int n)
{
    bchol_getrf_choice c;
    return bchol__getrf_choose(ctx, routine, p, m, n, &c);
}

bchol_status bchol__getrf_enqueue(bchol_call *call, bchol_precision p, int pivot, int m, int n,
                                  cl_mem A, int64_t offset_a, int lda, int64_t stride_a,
                                  cl_mem ipiv, int64_t offset_p, int64_t stride_p, int64_t batch,
                                  cl_mem info)
{
    if (batch == 0) return BCHOL_SUCCESS;
    if (m == 0 || n == 0) return bchol__fill_int(call, info, 0, batch);
    bchol_getrf_choice c;
    bchol_status st = bchol__getrf_choose(call->ctx, pivot ? "getrf" : "getrf_nopiv", p, m, n, &c);
    if (st) return st;
    if (c.variant == BCHOL_GETRF_WORKITEM)
        return bchol__getrf_workitem(call, p, c.tbc, c.wb, pivot, m, n, A, offset_a, lda, stride_a,
                                     ipiv, offset_p, stride_p, batch, info);
    if (c.variant == BCHOL_GETRF_REGS)
        return bchol__getrf_regs(call, p, c.tbc, pivot, m, n, A, offset_a, lda, stride_a,
                                 ipiv, offset_p, stride_p, batch, info);
    if (c.variant == BCHOL_GETRF_BLOCKED)
        return bchol__getrf_blocked(call, p, &c, pivot, m, n, A, offset_a, lda, stride_a, ipiv,
                                    offset_p, stride_p, batch, info);
    const bchol_getrf_params prm = {c.lx, c.tbc, 0, 0};
    return bchol__getrf_fused(call, p, &prm, pivot, m, n, A, offset_a, lda, stride_a, ipiv,
                              offset_p, stride_p, batch, info);
}

bchol_status bchol__getrf_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                  int pivot, int m, int n, cl_mem A, int64_t offset_a, int lda,
                                  int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, int64_t batch, cl_mem info, cl_event *event)
{
    bchol_buffer_use uses[3];
    int nuses;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if ((st = bchol__check_getrf_args(ctx, routine, pivot ? &bchol__getrf_pos : &bchol__getrf_nopiv_pos,
                                      p, pivot, m, n, A, offset_a, lda, stride_a, ipiv, offset_p,
                                      stride_p, batch, info, uses, &nuses)))
        return st;
    if (batch > 0 && (st = bchol__check_buffer_uses(ctx, routine, uses, nuses))) return st;
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    /* before anything is enqueued: a size no variant holds changes nothing */
    if ((st = bchol__getrf_check_size(ctx, routine, p, m, n))) return st;

    bchol_call call;
    bchol__call_begin(&call, ctx);
    st = bchol__getrf_enqueue(&call, p, pivot, m, n, A, offset_a, lda, stride_a, ipiv, offset_p,
                              stride_p, batch, info);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sgetrf_batched(bchol_context *ctx, int m, int n, cl_mem A, int64_t offset_a,
                                  int lda, int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__getrf_batched(ctx, "bchol_sgetrf_batched", BCHOL_S, 1, m, n, A, offset_a, lda,
                                stride_a, ipiv, offset_p, stride_p, batch, info, event);
}

bchol_status bchol_dgetrf_batched(bchol_context *ctx, int m, int n, cl_mem A, int64_t offset_a,
                                  int lda, int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__getrf_batched(ctx, "bchol_dgetrf_batched", BCHOL_D, 1, m, n, A, offset_a, lda,
                                stride_a, ipiv, offset_p, stride_p, batch, info, event);
}

bchol_status bchol_sgetrf_nopiv_batched(bchol_context *ctx, int m, int n, cl_mem A,
                                        int64_t offset_a, int lda, int64_t stride_a,
                                        int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__getrf_batched(ctx, "bchol_sgetrf_nopiv_batched", BCHOL_S, 0, m, n, A, offset_a,
                                lda, stride_a, NULL, 0, 0, batch, info, event);
}

bchol_status bchol_dgetrf_nopiv_batched(bchol_context *ctx, int m, int n, cl_mem A,
                                        int64_t offset_a, int lda, int64_t stride_a,
                                        int64_t batch, cl_mem info, cl_event *event)
{
    return bchol__getrf_batched(ctx, "bchol_dgetrf_nopiv_batched", BCHOL_D, 0, m, n, A, offset_a,
                                lda, stride_a, NULL, 0, 0, batch, info, event);
}
