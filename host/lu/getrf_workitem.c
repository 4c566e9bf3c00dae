/* Driver of the workitem getrf (cl_kernels/lu/getrf_workitem.cl): one work-item per matrix
 * factors it in place, no barriers, the whole batch in one launch (split where the driver's
 * grid limits ask). For CPUs (issue 30). */
#include "lu/lu.h"

static const char *const workitem_files[] = {"common/common.cl", "common/vector.cl", "lu/getrf_workitem.cl", NULL};

/* Vectors of 8 floats or 4 doubles (a 256-bit register), no wider than the rows. */
static int vector_width(bchol_precision p, int m)
{
    int vw = p == BCHOL_D ? 4 : 8;
    while (vw > 1 && vw > m) vw /= 2;
    return vw;
}

/* Matrices (work-items) per work-group: group (<= 0: 8), cut to the kernel's limit; the
 * kernels skip work-items past the batch, so the last group may be partial. */
static size_t group_size(bchol_call *call, cl_kernel kernel, int group)
{
    const size_t local = (size_t)(group > 0 ? group : 8);
    const size_t limit = bchol__kernel_wg_limit(call->ctx, kernel);
    return local > limit ? limit : local;
}

int bchol__getrf_workitem_nb(const bchol_context *ctx, int big)
{
    const bchol_backend *be = ctx->backend;
    const int nb = be->getrf_workitem_nb2_from > 0 && big >= be->getrf_workitem_nb2_from
                       ? be->getrf_workitem_nb2
                       : be->getrf_workitem_nb;
    return nb > 0 ? nb : 1;
}

/* m*n*k updates vw at a time (on llvmpipe n = 64 came out right and 128 wrong, as this
 * estimate says) */
bchol_status bchol__getrf_workitem_loops(bchol_context *ctx, bchol_precision p, int m, int n, int k)
{
    return bchol__check_loops(ctx, "workitem getrf", m > n ? m : n,
                              (double)m * n * k / vector_width(p, m));
}

bchol_status bchol__getrf_workitem(bchol_call *call, bchol_precision p, int group, int wb, int pivot,
                                   int m, int n, cl_mem A, int64_t offset_a, int lda,
                                   int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                   int64_t stride_p, int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    bchol_status st = bchol__getrf_workitem_loops(ctx, p, m, n, m < n ? m : n);
    if (st) return st;
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D M=%d", m);
    bchol__options_add(&o, "-D N=%d", n);
    bchol__options_add(&o, "-D PIVOT=%d", pivot);
    bchol__options_add(&o, "-D VW=%d", vector_width(p, m));
    bchol__options_add(&o, "-D WB=%d", wb > 0 ? wb : 1);
    cl_kernel kernel;
    if ((st = bchol__get_kernel(ctx, workitem_files, &o, "getrf_workitem", &kernel))) return st;
    const size_t local = group_size(call, kernel, group);
    return bchol__getrf_launch(call, kernel, pivot, A, offset_a, lda, stride_a, ipiv, offset_p,
                               stride_p, batch, info, local, local);
}

bchol_status bchol__getrf_workitem_vbatched(bchol_call *call, bchol_precision p, int group, int wb,
                                            int max_m, cl_mem m, cl_mem n, cl_mem lda,
                                            cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                            cl_mem ipiv, int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D VBATCHED=1");
    bchol__options_add(&o, "-D VW=%d", vector_width(p, max_m));
    bchol__options_add(&o, "-D WB=%d", wb > 0 ? wb : 1);
    cl_kernel kernel;
    bchol_status st;
    if ((st = bchol__get_kernel(ctx, workitem_files, &o, "getrf_workitem_vbatched", &kernel)))
        return st;
    cl_ulong count = (cl_ulong)batch, g0 = 0;
    bchol_arg args[] = {BCHOL_ARG(A),    BCHOL_ARG(offsets_a), BCHOL_ARG(m),
                        BCHOL_ARG(n),    BCHOL_ARG(lda),       BCHOL_ARG(ipiv),
                        BCHOL_ARG(offsets_p), BCHOL_ARG(info), BCHOL_ARG(count),
                        BCHOL_ARG(g0)};
    const size_t local = group_size(call, kernel, group);
    const uint64_t groups = ((uint64_t)batch + local - 1) / local; /* args[9] is g0 */
    return bchol__launch_groups(call, kernel, args, 10, 9, groups, local);
}
