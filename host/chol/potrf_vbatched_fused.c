/* Driver of the fused kernel on a variable-size batch: builds potrf_vbatched_step for (ib,
 * rpt, uplo, precision, ETM, schedule), fits the work-group (tbc matrices of
 * ceil(rows/rpt) work-items) to the device, and enqueues one launch per ib-wide panel of
 * the largest matrix, each sized for the rows that the schedule leaves at that launch. tbc
 * is a launch argument, not a build macro: it costs no program, and with the PACK shape
 * each launch packs as many matrices as the work-items that their rows leave free. The
 * ONE_LAUNCH schedule enqueues potrf_vbatched_all instead: every step in one launch, its
 * work-groups sized for max_n. */
#include "chol/chol.h"

static const char *const vbatched_files[] = {"common/common.cl", "chol/potrf_fused.cl", "chol/potrf_vbatched.cl",
                                             NULL};

/* The largest chunk that the sort by steps orders at once (its order takes 4 bytes per
 * matrix of the workspace: 64 MiB) and the work-items of its one work-group. */
enum { SORT_CHUNK = 1 << 24, SORT_GROUP = 1024 };


int bchol__vbatched_fused_max_n(const bchol_context *ctx, bchol_precision p,
                                const bchol_vbatched_params *prm)
{
    /* one matrix per work-group (the driver packs fewer where panels would not fit); the
     * inverse of bchol__fused_local_bytes(p, n, ib, 1) <= usable local memory */
    const uint64_t have = bchol__usable_local_mem(ctx), bounds = 2 * sizeof(cl_int);
    const uint64_t per_row = (uint64_t)prm->fused.ib * bchol__elem_size(p);
    uint64_t n = per_row && have > bounds ? (have - bounds) / per_row : 0;
    if (n < (uint64_t)prm->fused.ib) return 0; /* a panel takes max(n, ib) rows */
    return n > 1000000 ? 1000000 : (int)n;
}

/* The ONE_LAUNCH schedule on matrices b0 .. b0+count-1: potrf_vbatched_all, tbc matrices
 * of lx work-items and panel bytes each per work-group. */
static bchol_status launch_all(bchol_call *call, bchol_precision p, cl_kernel k, cl_int tbc, int lx,
                               uint64_t panel, cl_mem A, cl_mem offsets, cl_mem n, cl_mem lda, cl_mem info,
                               cl_ulong b0, cl_ulong count, cl_int n_hi, cl_int sorted, cl_mem order)
{
    const cl_int slot = (cl_int)(panel / bchol__elem_size(p));
    const size_t local = (size_t)lx * (size_t)tbc;
    const size_t global = (size_t)((count + (cl_ulong)tbc - 1) / (cl_ulong)tbc) * local;
    bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(offsets), BCHOL_ARG(n),
                        BCHOL_ARG(lda),   BCHOL_ARG(info),    BCHOL_ARG(b0),
                        BCHOL_ARG(count), BCHOL_ARG(n_hi),    BCHOL_ARG(tbc),
                        BCHOL_ARG(slot),  BCHOL_ARG(sorted),  BCHOL_ARG(order),
                        BCHOL_LOCAL((size_t)tbc * (size_t)panel),
                        BCHOL_LOCAL((size_t)tbc * 2 * sizeof(cl_int))};
    return bchol__launch(call, k, 14, args, 1, &global, &local);
}

/* A kernel of the step program: the step, the sort or every step in one launch. */
static bchol_status get_step_kernel(bchol_context *ctx, bchol_precision p,
                                    const bchol_vbatched_params *prm, int upper, const char *name,
                                    cl_kernel *k)
{
    bchol_options o;
    bchol__options_init(&o);
    bchol__options_precision(&o, p);
    bchol__options_add(&o, "-D IB=%d", prm->fused.ib);
    bchol__options_add(&o, "-D RPT=%d", prm->fused.rpt);
    bchol__options_add(&o, "-D UPPER=%d", upper);
    bchol__options_add(&o, "-D LAZY=%d", prm->schedule == BCHOL_SCHEDULE_LAZY);
    bchol__options_add(&o, "-D ETM_AGGRESSIVE=%d", prm->etm == BCHOL_ETM_AGGRESSIVE);
    return bchol__get_kernel(ctx, vbatched_files, &o, name, k);
}

bchol_status bchol__potrf_vbatched_fused(bchol_call *call, bchol_precision p,
                                         const bchol_vbatched_params *params, int upper, int max_n,
                                         cl_mem n, cl_mem lda, cl_mem offsets, cl_mem A,
                                         int64_t batch, cl_mem info)
{
    bchol_context *ctx = call->ctx;
    bchol_vbatched_params prm = *params;
    const int ib = prm.fused.ib;
    cl_kernel kernel = NULL;
    bchol_status st;
    if (max_n == 0) return BCHOL_SUCCESS;
    if ((st = bchol__fused_ib_buildable(ctx, p, ib))) return st;
    const uint64_t one = bchol__fused_local_bytes(p, max_n, ib, 1); /* a matrix and its bounds */
    if (one > bchol__usable_local_mem(ctx))
        return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                           "vbatched fused kernel: max_n = %d needs %zu bytes of local memory "
                           "(ib = %d); the device has %llu",
                           max_n, (size_t)one, ib,
                           (unsigned long long)bchol__usable_local_mem(ctx));

    const int one_launch = prm.schedule == BCHOL_SCHEDULE_ONE_LAUNCH;
    /* The first launch has the most rows: no more matrices per group than their panels
     * fit local memory there, nor than the batch has. */
    int tbc = prm.fused.tbc > 1 ? prm.fused.tbc : 1;
    if (tbc > batch) tbc = (int)batch;
    tbc = bchol__fused_fit_tbc(ctx, p, max_n, ib, 1, tbc);
    /* If the built kernel takes fewer work-items than that needs, put fewer matrices in a
     * group, then give each work-item more rows. */
    for (int tries = 0;; tries++) {
        if ((st = get_step_kernel(ctx, p, &prm, upper, one_launch ? "potrf_vbatched_all" : "potrf_vbatched_step",
                                  &kernel)))
            return st;
        size_t limit = bchol__kernel_wg_limit(ctx, kernel);
        const size_t lx = (size_t)bchol__ceil_div(max_n, prm.fused.rpt);
        if (lx * (size_t)tbc <= limit) break;
        if (tbc > 1) {
            tbc = limit / lx > 1 ? (int)(limit / lx) : 1;
            continue;
        }
        if (tries == 8)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "vbatched fused kernel: no work-group shape fits max_n = %d (the "
                               "kernel takes at most %zu work-items)",
                               max_n, limit);
        int need = bchol__ceil_div(max_n, (int)limit);
        prm.fused.rpt = prm.fused.rpt * 2 > need ? prm.fused.rpt * 2 : need;
    }

    /* max_n bounds the matrices this kernel takes: larger ones are the separate variant's */
    const cl_int n_hi = max_n;
    const int rpt = prm.fused.rpt, lazy = prm.schedule == BCHOL_SCHEDULE_LAZY;
    const int shape = prm.fused.shape;
    const cl_int launches = bchol__ceil_div(max_n, ib);
    const int lx_first = bchol__ceil_div(max_n, rpt);
    /* later launches have no larger groups, nor more of them (PACK: tbc_t * lx_t <= tbc *
     * lx_first, and tbc_t >= tbc), so the first launch's limit holds for all */
    int64_t chunk = bchol__launch_batch_limit(ctx, tbc, (size_t)lx_first * (size_t)tbc);
    /* Sorting by steps only matters where a group holds several matrices and there is more
     * than one step; its order of the chunk's matrices lives in the workspace, so chunks
     * stay below SORT_CHUNK. */
    const cl_int sorted = prm.order == BCHOL_ORDER_STEPS && launches > 1 &&
                          (tbc > 1 || (shape == BCHOL_SHAPE_PACK && !one_launch));
    cl_kernel sort_k = NULL;
    cl_mem ws = NULL;
    if (sorted) {
        if (chunk > SORT_CHUNK) chunk = SORT_CHUNK;
        const size_t words = (size_t)(batch < chunk ? batch : chunk);
        if ((st = get_step_kernel(ctx, p, &prm, upper, "potrf_vbatched_sort", &sort_k)) ||
            (st = bchol__workspace_acquire(ctx, words * sizeof(cl_uint), &ws)))
            return st;
    }
    for (int64_t first = 0; first < batch && !st; first += chunk) {
        cl_ulong b0 = (cl_ulong)first;
        cl_ulong count = (cl_ulong)(batch - first < chunk ? batch - first : chunk);
        cl_mem order = sorted ? ws : n; /* not read unless sorted */
        if (sorted) {
            /* counting sort of the chunk by key in one work-group (cl_kernels/chol/potrf_vbatched.cl) */
            size_t local = bchol__kernel_wg_limit(ctx, sort_k);
            if (local > SORT_GROUP) local = SORT_GROUP;
            bchol_arg args[] = {BCHOL_ARG(n),     BCHOL_ARG(info), BCHOL_ARG(b0),
                                BCHOL_ARG(count), BCHOL_ARG(n_hi), BCHOL_ARG(ws)};
            if ((st = bchol__launch(call, sort_k, 6, args, 1, &local, &local))) break;
        }
        if (one_launch) {
            st = launch_all(call, p, kernel, tbc, lx_first, bchol__fused_local_bytes(p, max_n, ib, 0),
                            A, offsets, n, lda, info, b0, count, n_hi, sorted, order);
            continue;
        }
        for (cl_int t = 0; t < launches && !st; t++) {
            /* Most rows any matrix has left: greedy, the largest matrix's; lazy, up to
             * (launches-t)*ib (a matrix whose last panel is full while the largest one's
             * is narrow has up to ib-1 rows more than the largest). */
            const int rows =
                lazy ? (max_n < (launches - t) * ib ? max_n : (launches - t) * ib) : max_n - t * ib;
            const int lx = shape == BCHOL_SHAPE_FIXED ? lx_first : bchol__ceil_div(rows, rpt);
            /* PACK: the work-items that fewer rows leave free take more matrices */
            cl_int tbc_t = tbc;
            if (shape == BCHOL_SHAPE_PACK) {
                int want = (int)((int64_t)tbc * lx_first / lx);
                if (want > 64) want = 64;
                if ((cl_ulong)want > count) want = (int)count;
                tbc_t = bchol__fused_fit_tbc(ctx, p, rows, ib, 1, want > tbc ? want : tbc);
            }
            /* the panels and the bounds are two local arguments: size them apart */
            const size_t panel = (size_t)bchol__fused_local_bytes(p, rows, ib, 0);
            const cl_int slot = (cl_int)(panel / bchol__elem_size(p));
            const size_t local = (size_t)lx * (size_t)tbc_t;
            const size_t global = (size_t)((count + (cl_ulong)tbc_t - 1) / (cl_ulong)tbc_t) * local;
            bchol_arg args[] = {BCHOL_ARG(A),        BCHOL_ARG(offsets),
                                BCHOL_ARG(n),        BCHOL_ARG(lda),
                                BCHOL_ARG(info),     BCHOL_ARG(t),
                                BCHOL_ARG(launches), BCHOL_ARG(b0),
                                BCHOL_ARG(count),    BCHOL_ARG(n_hi),
                                BCHOL_ARG(tbc_t),    BCHOL_ARG(slot),
                                BCHOL_ARG(sorted),   BCHOL_ARG(order),
                                BCHOL_LOCAL((size_t)tbc_t * panel),
                                BCHOL_LOCAL((size_t)tbc_t * 2 * sizeof(cl_int))};
            st = bchol__launch(call, kernel, 16, args, 1, &global, &local);
        }
    }
    /* given back once enqueued: OpenCL keeps it until the launches that use it are done */
    bchol__workspace_release(ctx, ws);
    return st;
}
