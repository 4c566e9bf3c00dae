/* bchol_{s,d}getrf_interleaved and bchol_{s,d}getrs_interleaved: LU with partial pivoting
 * and its solve on interleaved batches of tiny matrices (cl_kernels/lu/getrf_interleaved.cl:
 * one work-item per matrix, the matrix in a private array). Argument checks, quick
 * returns, build, split launches. */
#include "lu/lu.h"
#include "layout/layout.h"

#include <limits.h>
#include <string.h>

static const char *const ilv_files[] = {"common/common.cl", "lu/getrf_interleaved.cl", NULL};

/* Largest order: the matrix lives in one work-item's private array (N*N elements). */
#define ILV_LU_MAX_N 32
/* Work-items per group, halved while the built kernel takes fewer. */
#define DEFAULT_WG 64
/* Every loop unrolled (a stays in registers, no run-time indices) up to this order for
 * getrf (about n^3 statements), and up to this many elements N*N*NT for getrs. */
#define FULL_MAX_N 16
#define FULL_MAX_WORK 1024

/* The kernel built for (name, n, nt, trans) and fitted: *wg work-items per group. */
static bchol_status ilv_kernel(bchol_context *ctx, bchol_precision p, const char *name, int n,
                               int nt, int trans, int full, int *wg, cl_kernel *kernel)
{
    int w = DEFAULT_WG;
    if ((size_t)w > ctx->info.max_work_group) w = (int)ctx->info.max_work_group;
    for (;;) {
        bchol_options o;
        bchol__options_init(&o);
        bchol__options_precision(&o, p);
        bchol__options_add(&o, "-D N=%d", n);
        bchol__options_add(&o, "-D NT=%d", nt);
        bchol__options_add(&o, "-D TRANS=%d", trans);
        bchol__options_add(&o, "-D FULL=%d", full);
        bchol__options_add(&o, "-D WG=%d", w);
        bchol_status st = bchol__get_kernel(ctx, ilv_files, &o, name, kernel);
        if (st) return st;
        const size_t limit = bchol__kernel_wg_limit(ctx, *kernel);
        if ((size_t)w <= limit) break;
        if (w == 1)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "interleaved LU (%s): n = %d does not run even with one work-item "
                               "per group on this device",
                               name, n);
        w = (int)limit < w / 2 ? (int)limit : w / 2;
    }
    *wg = w;
    return BCHOL_SUCCESS;
}

static bchol_status check_size(bchol_context *ctx, const char *routine, int n)
{
    if (n <= ILV_LU_MAX_N) return BCHOL_SUCCESS;
    return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                       "%s: n = %d: the interleaved LU holds a matrix in one work-item's private "
                       "memory, n <= %d (use the strided routines for larger n)",
                       routine, n, ILV_LU_MAX_N);
}

/* Elements of an interleaved batch of rows-by-cols blocks, checked against the buffer at
 * position pos (NULL where nothing of it is used). */
static bchol_status check_ilv_buffer(bchol_context *ctx, const char *routine, int pos,
                                     const char *name, cl_mem buffer, int rows, int cols,
                                     size_t es, int64_t batch, int64_t chunk, bchol_status bad,
                                     bchol_status small, uint64_t *bytes)
{
    const uint64_t span = bchol__interleaved_span_rect(rows, cols, batch, chunk);
    if (!span || span > UINT64_MAX / es)
        return bchol__fail(ctx, small,
                           "%s: the interleaved batch of %s (n = %d, chunk = %lld) spans more "
                           "than 2^63 elements",
                           routine, name, rows, (long long)chunk);
    *bytes = span * es;
    return bchol__check_buffer(ctx, routine, pos, name, buffer, *bytes, bad, small);
}

/* ---- getrf ------------------------------------------------------------------------------ */

/* (ctx, n, A, ipiv, batch, chunk, info, event) */
static bchol_status getrf_interleaved(bchol_context *ctx, const char *routine, bchol_precision p,
                                      int n, cl_mem A, cl_mem ipiv, int64_t batch, int64_t chunk,
                                      cl_mem info, cl_event *event)
{
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 2 (n = %d) must be >= 0", routine, n);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 5 (batch = %lld) must be >= 0",
                           routine, (long long)batch);
    if (chunk < 1)
        return bchol__fail(ctx, BCHOL_ERR_CHUNK, "%s: argument 6 (chunk = %lld) must be >= 1",
                           routine, (long long)chunk);
    const size_t es = bchol__elem_size(p);
    uint64_t bytes_a = 0, bytes_p = 0;
    if (batch > 0 && n > 0) {
        if ((st = check_ilv_buffer(ctx, routine, 3, "A", A, n, n, es, batch, chunk, BCHOL_ERR_A,
                                   BCHOL_ERR_A_SIZE, &bytes_a)) ||
            (st = check_ilv_buffer(ctx, routine, 4, "ipiv", ipiv, n, 1, sizeof(cl_int), batch,
                                   chunk, BCHOL_ERR_IPIV, BCHOL_ERR_IPIV_SIZE, &bytes_p)))
            return st;
    }
    if (batch > 0 && (st = bchol__check_buffer(ctx, routine, 7, "info", info,
                                               bchol__info_bytes(batch), BCHOL_ERR_INFO,
                                               BCHOL_ERR_INFO_SIZE)))
        return st;
    const bchol_buffer_use uses[] = {
        {3, "A", bytes_a ? A : NULL, 0, bytes_a, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_A},
        {4, "ipiv", bytes_p ? ipiv : NULL, 0, bytes_p, BCHOL__WRITE, BCHOL_ERR_IPIV},
        {7, "info", info, 0, bchol__info_bytes(batch), BCHOL__WRITE, BCHOL_ERR_INFO}};
    if (batch > 0 && (st = bchol__check_buffer_uses(ctx, routine, uses, 3))) return st;
    /* after every argument check: a bad argument is named even without fp64 */
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0) return BCHOL_SUCCESS;
    if ((st = check_size(ctx, routine, n))) return st;

    cl_kernel kernel = NULL;
    int wg = 0;
    if (n > 0 && (st = ilv_kernel(ctx, p, "getrf_interleaved", n, 1, 0, n <= FULL_MAX_N, &wg,
                                  &kernel)))
        return st;
    bchol_call call;
    bchol__call_begin(&call, ctx);
    if (n == 0) return bchol__call_end(&call, bchol__fill_int(&call, info, 0, batch), event);
    const uint64_t groups = ((uint64_t)batch + (uint64_t)wg - 1) / (uint64_t)wg;
    cl_ulong ch = (cl_ulong)chunk, total = (cl_ulong)batch, g0 = 0;
    bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(ipiv), BCHOL_ARG(ch),
                        BCHOL_ARG(total), BCHOL_ARG(info), BCHOL_ARG(g0)};
    st = bchol__launch_groups(&call, kernel, args, 6, 5, groups, (size_t)wg);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sgetrf_interleaved(bchol_context *ctx, int n, cl_mem A, cl_mem ipiv,
                                      int64_t batch, int64_t chunk, cl_mem info, cl_event *event)
{
    return getrf_interleaved(ctx, "bchol_sgetrf_interleaved", BCHOL_S, n, A, ipiv, batch, chunk,
                             info, event);
}

bchol_status bchol_dgetrf_interleaved(bchol_context *ctx, int n, cl_mem A, cl_mem ipiv,
                                      int64_t batch, int64_t chunk, cl_mem info, cl_event *event)
{
    return getrf_interleaved(ctx, "bchol_dgetrf_interleaved", BCHOL_D, n, A, ipiv, batch, chunk,
                             info, event);
}

/* ---- getrs ------------------------------------------------------------------------------ */

/* (ctx, trans, n, nrhs, A, ipiv, B, batch, chunk, event) */
static bchol_status getrs_interleaved(bchol_context *ctx, const char *routine, bchol_precision p,
                                      char trans, int n, int nrhs, cl_mem A, cl_mem ipiv,
                                      cl_mem B, int64_t batch, int64_t chunk, cl_event *event)
{
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    const int t = trans == 'T' || trans == 't';
    if (!t && trans != 'N' && trans != 'n') {
        if (trans >= 32 && trans < 127)
            return bchol__fail(ctx, BCHOL_ERR_TRANS,
                               "%s: argument 2 (trans = '%c') must be 'N' or 'T'", routine, trans);
        return bchol__fail(ctx, BCHOL_ERR_TRANS, "%s: argument 2 (trans = %d) must be 'N' or 'T'",
                           routine, (int)trans);
    }
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 0", routine, n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 4 (nrhs = %d) must be >= 0", routine,
                           nrhs);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 8 (batch = %lld) must be >= 0",
                           routine, (long long)batch);
    if (chunk < 1)
        return bchol__fail(ctx, BCHOL_ERR_CHUNK, "%s: argument 9 (chunk = %lld) must be >= 1",
                           routine, (long long)chunk);
    /* Buffers are checked only where they will be used. */
    if (batch == 0 || n == 0 || nrhs == 0) return bchol__check_precision(ctx, routine, p);
    const size_t es = bchol__elem_size(p);
    uint64_t bytes_a = 0, bytes_p = 0, bytes_b = 0;
    if ((st = check_ilv_buffer(ctx, routine, 5, "A", A, n, n, es, batch, chunk, BCHOL_ERR_A,
                               BCHOL_ERR_A_SIZE, &bytes_a)) ||
        (st = check_ilv_buffer(ctx, routine, 6, "ipiv", ipiv, n, 1, sizeof(cl_int), batch, chunk,
                               BCHOL_ERR_IPIV, BCHOL_ERR_IPIV_SIZE, &bytes_p)) ||
        (st = check_ilv_buffer(ctx, routine, 7, "B", B, n, nrhs, es, batch, chunk, BCHOL_ERR_B,
                               BCHOL_ERR_B_SIZE, &bytes_b)))
        return st;
    const bchol_buffer_use uses[] = {
        {5, "A", A, 0, bytes_a, BCHOL__READ, BCHOL_ERR_A},
        {6, "ipiv", ipiv, 0, bytes_p, BCHOL__READ, BCHOL_ERR_IPIV},
        {7, "B", B, 0, bytes_b, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_B}};
    if ((st = bchol__check_buffer_uses(ctx, routine, uses, 3))) return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if ((st = check_size(ctx, routine, n))) return st;

    /* right-hand sides per work-item: fill FULL_MAX_WORK on CPUs (unrolled), 256/n
     * elsewhere, within 1..8; fewer where nrhs is smaller */
    const int cpu = (ctx->info.type & CL_DEVICE_TYPE_CPU) != 0;
    int nt = cpu ? FULL_MAX_WORK / (n * n) : 256 / n;
    nt = nt < 1 ? 1 : nt > 8 ? 8 : nt;
    while (nt > 1 && nt / 2 >= nrhs) nt /= 2;
    const int full = n * n * nt <= FULL_MAX_WORK;
    cl_kernel kernel;
    int wg;
    if ((st = ilv_kernel(ctx, p, "getrs_interleaved", n, nt, t, full, &wg, &kernel))) return st;

    bchol_call call;
    bchol__call_begin(&call, ctx);
    const uint64_t tiles = (uint64_t)((nrhs + nt - 1) / nt);
    const uint64_t groups = tiles * (((uint64_t)batch + (uint64_t)wg - 1) / (uint64_t)wg);
    cl_ulong ch = (cl_ulong)chunk, total = (cl_ulong)batch, g0 = 0;
    cl_int k = nrhs;
    bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(ipiv), BCHOL_ARG(B), BCHOL_ARG(ch),
                        BCHOL_ARG(k),     BCHOL_ARG(total), BCHOL_ARG(g0)};
    st = bchol__launch_groups(&call, kernel, args, 7, 6, groups, (size_t)wg);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_sgetrs_interleaved(bchol_context *ctx, char trans, int n, int nrhs, cl_mem A,
                                      cl_mem ipiv, cl_mem B, int64_t batch, int64_t chunk,
                                      cl_event *event)
{
    return getrs_interleaved(ctx, "bchol_sgetrs_interleaved", BCHOL_S, trans, n, nrhs, A, ipiv, B,
                             batch, chunk, event);
}

bchol_status bchol_dgetrs_interleaved(bchol_context *ctx, char trans, int n, int nrhs, cl_mem A,
                                      cl_mem ipiv, cl_mem B, int64_t batch, int64_t chunk,
                                      cl_event *event)
{
    return getrs_interleaved(ctx, "bchol_dgetrs_interleaved", BCHOL_D, trans, n, nrhs, A, ipiv, B,
                             batch, chunk, event);
}
