/* Argument checks shared by the public routines. Each failure names the routine, the
 * argument's position and name, and the value that was wrong. */
#include "core/core.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

bchol_status bchol__check_context(const bchol_context *ctx, const char *routine)
{
    if (!ctx) return bchol__fail(NULL, BCHOL_ERR_CONTEXT, "%s: argument 1 (ctx) is NULL", routine);
    return BCHOL_SUCCESS;
}

bchol_status bchol__check_uplo(const bchol_context *ctx, const char *routine, int pos,
                               char uplo, int *upper)
{
    if (uplo == 'L' || uplo == 'l' || uplo == 'U' || uplo == 'u') {
        *upper = uplo == 'U' || uplo == 'u';
        return BCHOL_SUCCESS;
    }
    if (uplo >= 32 && uplo < 127)
        return bchol__fail(ctx, BCHOL_ERR_UPLO,
                           "%s: argument %d (uplo = '%c') must be 'L' or 'U'", routine, pos, uplo);
    return bchol__fail(ctx, BCHOL_ERR_UPLO, "%s: argument %d (uplo = %d) must be 'L' or 'U'",
                       routine, pos, (int)uplo);
}

bchol_status bchol__check_precision(const bchol_context *ctx, const char *routine,
                                    bchol_precision p)
{
    if (p == BCHOL_D && !ctx->info.fp64)
        return bchol__fail(ctx, BCHOL_ERR_NO_FP64,
                           "%s: device \"%s\" does not support double precision", routine,
                           ctx->info.raw_name);
    return BCHOL_SUCCESS;
}

bchol_status bchol__check_index_span(const bchol_context *ctx, const char *routine, int pos, int n,
                                     int lda)
{
    if (n > 0 && (int64_t)(n - 1) * lda + n > INT_MAX)
        return bchol__fail(ctx, BCHOL_ERR_N,
                           "%s: argument %d (n = %d) with lda = %d spans more than 2^31-1 elements",
                           routine, pos, n, lda);
    return BCHOL_SUCCESS;
}

bchol_status bchol__check_buffer(const bchol_context *ctx, const char *routine, int pos,
                                 const char *name, cl_mem buffer, uint64_t need,
                                 bchol_status bad, bchol_status small)
{
    cl_context owner = NULL;
    size_t size = 0;
    if (!buffer) return bchol__fail(ctx, bad, "%s: argument %d (%s) is NULL", routine, pos, name);
    cl_int err = clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
    if (!err) err = clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err == CL_INVALID_MEM_OBJECT)
        return bchol__fail(ctx, bad, "%s: argument %d (%s) is not a valid cl_mem", routine, pos,
                           name);
    if (err) { /* the driver could not answer (out of memory): not the caller's fault */
        char what[160];
        snprintf(what, sizeof what, "%s: argument %d (%s): clGetMemObjectInfo", routine, pos, name);
        return bchol__fail_cl(ctx, err, what);
    }
    if (owner != ctx->cl_ctx)
        return bchol__fail(ctx, bad,
                           "%s: argument %d (%s) belongs to another OpenCL context than ctx",
                           routine, pos, name);
    if ((uint64_t)size < need)
        return bchol__fail(ctx, small,
                           "%s: argument %d (%s) holds %zu bytes; the batch needs %llu", routine,
                           pos, name, size, (unsigned long long)need);
    return BCHOL_SUCCESS;
}

uint64_t bchol__info_bytes(int64_t batch)
{
    return (uint64_t)batch > UINT64_MAX / sizeof(cl_int) ? UINT64_MAX
                                                         : (uint64_t)batch * sizeof(cl_int);
}

int bchol__batch_span(int64_t offset, int64_t stride, int64_t batch, int ld, int rows, int cols,
                      uint64_t *span)
{
    /* offset + (batch-1)*stride + (cols-1)*ld + rows, all non-negative here */
    uint64_t s, t;
    if (batch <= 0 || rows <= 0 || cols <= 0) {
        *span = (uint64_t)offset;
        return 0;
    }
    if (__builtin_mul_overflow((uint64_t)(batch - 1), (uint64_t)stride, &s)) return -1;
    t = (uint64_t)(cols - 1) * (uint64_t)ld + (uint64_t)rows;
    if (__builtin_add_overflow(s, t, &s) || __builtin_add_overflow(s, (uint64_t)offset, &s))
        return -1;
    *span = s;
    return 0;
}

bchol_status bchol__check_host_span(const bchol_context *ctx, const char *routine,
                                    bchol_status bad, const char *what, const void *ptr,
                                    uint64_t elems, size_t es)
{
    /* A byte count or an end address that wraps sends a later piece back to the start of
     * the array: matrix 0 would be factored twice and the call succeed. */
    if (elems <= (uint64_t)PTRDIFF_MAX / es && (uintptr_t)ptr <= UINTPTR_MAX - elems * es)
        return BCHOL_SUCCESS;
    return bchol__fail(ctx, bad, "%s: %s spans %llu elements of %zu bytes, beyond the address space",
                       routine, what, (unsigned long long)elems, es);
}

bchol_status bchol__check_solve_params(bchol_context *ctx, const char *routine,
                                       const bchol_solve_params *p, int workitem)
{
    if (p->variant != BCHOL_SOLVE_AUTO && p->variant != BCHOL_SOLVE_SUBST &&
        !(workitem && p->variant == BCHOL_SOLVE_WORKITEM))
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->variant = %d) is not a solve variant", routine,
                           (int)p->variant);
    if (p->nt > 32)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->nt = %d) must be at most 32", routine, p->nt);
    if (p->rpt > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->rpt = %d) must be at most 64", routine, p->rpt);
    if (p->tbc > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->tbc = %d) must be at most 64", routine, p->tbc);
    return BCHOL_SUCCESS;
}
