/* bchol_{s,d}potrs_interleaved[_ex]: argument checks (shared with posv_interleaved),
 * quick returns, then the interleaved substitution kernel: one work-item per (matrix,
 * tile of right-hand sides), the order built in. */
#include "chol/interleaved.h"

#include <stdlib.h>
#include <string.h>

static const char *const ilv_solve_files[] = {"common/common.cl", "chol/potrs_interleaved.cl", NULL};

/* Elements of a tile kept per work-item: NT is lowered until N*NT fits (registers on
 * GPUs; PoCL keeps larger tiles on the stack anyway). The blocked path keeps BLOCK*NT. */
#define TILE_BUDGET 256
#define BLOCK_TILE_BUDGET 64
/* Largest block of the blocked path (its loops are unrolled: the code grows as BLOCK^2). */
#define MAX_BLOCK 32
#define DEFAULT_WG 64
/* Largest N*N*NT unrolled into straight-line code on CPUs (larger bodies build slowly);
 * there NT is chosen to fill it. */
#define FULL_MAX_WORK 1024

/* Whether the wg lanes of each group are consecutive in one chunk and all exist in a
 * buffer of `elements` holding blocks of `per` elements (padding lanes included). */
static int lanes_fit(uint64_t per, int64_t batch, int64_t chunk, int wg, cl_mem buffer,
                     size_t es)
{
    const int64_t lanes = (batch + wg - 1) / wg * wg;
    if (chunk % wg != 0 && lanes > chunk) return 0;
    size_t size = 0;
    if (clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS) return 0;
    const uint64_t nchunks = (uint64_t)((lanes - 1) / chunk) + 1;
    /* whole chunks up to the last lane: (nchunks*per - 1)*chunk + lanes' last index + 1 */
    const uint64_t last = (uint64_t)((lanes - 1) % chunk) + 1;
    if (per > UINT64_MAX / nchunks / (uint64_t)chunk) return 0;
    return (nchunks * per - 1) * (uint64_t)chunk + last <= size / es;
}

bchol_status bchol__check_ilv_solve_args(bchol_context *ctx, const char *routine, int k,
                                         bchol_precision p, int factors, char uplo, int n,
                                         int nrhs, cl_mem A, cl_mem B, int64_t batch,
                                         int64_t chunk, int *upper)
{
    bchol_status st;
    if ((st = bchol__check_uplo(ctx, routine, 2 + k, uplo, upper))) return st;
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument %d (n = %d) must be >= 0", routine,
                           3 + k, n);
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument %d (nrhs = %d) must be >= 0",
                           routine, 4 + k, nrhs);
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument %d (batch = %lld) must be >= 0",
                           routine, 7 + k, (long long)batch);
    if (chunk < 1)
        return bchol__fail(ctx, BCHOL_ERR_CHUNK, "%s: argument %d (chunk = %lld) must be >= 1",
                           routine, 8 + k, (long long)chunk);
    /* Buffers are checked only where they will be used. */
    if (batch == 0 || n == 0 || (nrhs == 0 && !factors)) return BCHOL_SUCCESS;

    const size_t es = bchol__elem_size(p);
    uint64_t span = bchol__interleaved_span(n, batch, chunk);
    if (!span || span > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_A_SIZE,
                           "%s: the interleaved batch of A (n = %d, chunk = %lld) spans more "
                           "than 2^63 elements",
                           routine, n, (long long)chunk);
    if ((st = bchol__check_buffer(ctx, routine, 5 + k, "A", A, span * es, BCHOL_ERR_A,
                                  BCHOL_ERR_A_SIZE)))
        return st;
    if (nrhs == 0) return BCHOL_SUCCESS;
    span = bchol__interleaved_span_rect(n, nrhs, batch, chunk);
    if (!span || span > UINT64_MAX / es)
        return bchol__fail(ctx, BCHOL_ERR_B_SIZE,
                           "%s: the interleaved batch of B (n = %d, nrhs = %d, chunk = %lld) "
                           "spans more than 2^63 elements",
                           routine, n, nrhs, (long long)chunk);
    return bchol__check_buffer(ctx, routine, 6 + k, "B", B, span * es, BCHOL_ERR_B,
                               BCHOL_ERR_B_SIZE);
}

bchol_status bchol__check_ilv_solve_uses(bchol_context *ctx, const char *routine, int k,
                                         bchol_precision p, int factors, int n, int nrhs,
                                         cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                         cl_mem info)
{
    const size_t es = bchol__elem_size(p);
    const int solve = n > 0 && nrhs > 0;
    if (batch == 0) return BCHOL_SUCCESS;
    const uint64_t end_a = n > 0 && (solve || factors) ? bchol__interleaved_span(n, batch, chunk) : 0;
    const uint64_t end_b = solve ? bchol__interleaved_span_rect(n, nrhs, batch, chunk) : 0;
    const bchol_buffer_use uses[] = {
        {5 + k, "A", end_a ? A : NULL, 0, end_a * es,
         factors ? BCHOL__READ | BCHOL__WRITE : BCHOL__READ, BCHOL_ERR_A},
        {6 + k, "B", end_b ? B : NULL, 0, end_b * es, BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_B},
        {9 + k, "info", factors ? info : NULL, 0, bchol__info_bytes(batch),
         BCHOL__READ | BCHOL__WRITE, BCHOL_ERR_INFO}};
    return bchol__check_buffer_uses(ctx, routine, uses, 3);
}

/* Rows per register block of the blocked path, or 0 for the whole-tile path: the
 * backend's choice, or BCHOL_ILV_SOLVE_BLOCK=0..32 (to run either path on any device). */
static int solve_block(const bchol_context *ctx, bchol_precision p, int n)
{
    const char *force = getenv("BCHOL_ILV_SOLVE_BLOCK");
    if (force && *force) {
        char *end;
        long v = strtol(force, &end, 10);
        if (!*end && v >= 0 && v <= MAX_BLOCK) return (int)v;
    }
    int block = ctx->backend->interleaved_solve_block((char)p, n);
    return block < 0 ? 0 : block > MAX_BLOCK ? MAX_BLOCK : block;
}

bchol_status bchol__potrs_interleaved_plan(bchol_context *ctx, bchol_precision p,
                                           const bchol_solve_params *params, int upper, int n,
                                           int nrhs, cl_mem A, cl_mem B, int64_t batch,
                                           int64_t chunk, bchol_ilv_solve_plan *plan)
{
    int nt = params && params->nt > 0 ? params->nt : 0;
    int wg = params && params->tbc > 0 ? params->tbc : DEFAULT_WG;
    /* CPUs vectorize across work-items when addresses are affine and stores do not
     * branch. BCHOL_STORES=blend|predicated picks one (for testing both on one device). */
    const char *force = getenv("BCHOL_STORES");
    const int cpu = force && *force ? !strcmp(force, "blend")
                                    : (ctx->info.type & CL_DEVICE_TYPE_CPU) != 0;
    const int block = solve_block(ctx, p, n);
    if (!nt) {
        nt = block ? BLOCK_TILE_BUDGET / block
                   : cpu && n * n <= FULL_MAX_WORK ? FULL_MAX_WORK / (n * n) : TILE_BUDGET / n;
        nt = nt < 1 ? 1 : nt > 8 ? 8 : nt;
    }
    /* Fewer columns than a tile holds would only compute zeros. */
    while (nt > 1 && nt / 2 >= nrhs)
        nt /= 2;
    if ((size_t)wg > ctx->info.max_work_group) wg = (int)ctx->info.max_work_group;

    cl_kernel kernel;
    bchol_status st;
    const size_t es = bchol__elem_size(p);
    /* A long kernel may take fewer work-items per group than asked (registers). */
    for (;;) {
        /* the blocked path has loops over blocks: only the whole-tile path unrolls all */
        const int full = !block && n * n * nt <= FULL_MAX_WORK;
        const int aligned = cpu && (full || block) &&
                            lanes_fit((uint64_t)n * n, batch, chunk, wg, A, es) &&
                            lanes_fit((uint64_t)n * nrhs, batch, chunk, wg, B, es);
        bchol_options o;
        bchol__options_init(&o);
        bchol__options_precision(&o, p);
        bchol__options_add(&o, "-D N=%d", n);
        bchol__options_add(&o, "-D NT=%d", nt);
        bchol__options_add(&o, "-D WG=%d", wg);
        bchol__options_add(&o, "-D UPPER=%d", upper);
        bchol__options_add(&o, "-D ALIGNED=%d", aligned);
        bchol__options_add(&o, "-D FULL=%d", aligned && full);
        bchol__options_add(&o, "-D BLOCK=%d", block);
        if ((st = bchol__get_kernel(ctx, ilv_solve_files, &o, "potrs_interleaved", &kernel)))
            return st;
        size_t limit = bchol__kernel_wg_limit(ctx, kernel);
        if ((size_t)wg <= limit) break;
        if (wg == 1)
            return bchol__fail(ctx, BCHOL_ERR_RESOURCES,
                               "interleaved solve: n = %d, nt = %d does not run even with one "
                               "work-item per group on this device",
                               n, nt);
        wg = (int)limit < wg / 2 ? (int)limit : wg / 2;
    }
    plan->kernel = kernel;
    plan->nt = nt;
    plan->wg = wg;
    plan->block = block;
    plan->n = n;
    plan->nrhs = nrhs;
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrs_interleaved_enqueue(bchol_call *call, const bchol_ilv_solve_plan *plan,
                                              cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                              cl_mem info)
{
    const int64_t tiles = (plan->nrhs + plan->nt - 1) / plan->nt;
    const size_t local = (size_t)plan->wg;
    /* tiles groups per WG matrices (a group of matrices' tiles may span launches) */
    const uint64_t groups = (uint64_t)tiles * (((uint64_t)batch + plan->wg - 1) / plan->wg);
    cl_ulong ch = (cl_ulong)chunk, total = (cl_ulong)batch, g0 = 0;
    cl_int nrhs = plan->nrhs, skip = info != NULL;
    bchol_arg args[] = {BCHOL_ARG(A),     BCHOL_ARG(B),  BCHOL_ARG(ch),   BCHOL_ARG(nrhs),
                        BCHOL_ARG(total), BCHOL_ARG(g0), BCHOL_ARG(info), BCHOL_ARG(skip)};
    return bchol__launch_groups(call, plan->kernel, args, 8, 5, groups, local);
}

static bchol_status check_params(bchol_context *ctx, const char *routine,
                                 const bchol_solve_params *p)
{
    if (p->variant != BCHOL_SOLVE_AUTO && p->variant != BCHOL_SOLVE_SUBST)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->variant = %d) is not a solve variant", routine,
                           (int)p->variant);
    if (p->nt > 32)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->nt = %d) must be at most 32", routine, p->nt);
    if (p->tbc > 64)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (params->tbc = %d) must be at most 64", routine, p->tbc);
    return BCHOL_SUCCESS;
}

bchol_status bchol__potrs_interleaved(bchol_context *ctx, const char *routine, bchol_precision p,
                                      const bchol_solve_params *params, char uplo, int n, int nrhs,
                                      cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                      cl_event *event)
{
    int upper;
    bchol_status st;
    if (event) *event = NULL;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (params && (st = check_params(ctx, routine, params))) return st;
    if ((st = bchol__check_ilv_solve_args(ctx, routine, params ? 1 : 0, p, 0, uplo, n, nrhs, A,
                                          B, batch, chunk, &upper)) ||
        (st = bchol__check_ilv_solve_uses(ctx, routine, params ? 1 : 0, p, 0, n, nrhs, A, B, batch,
                                          chunk, NULL)))
        return st;
    if ((st = bchol__check_precision(ctx, routine, p))) return st;
    if (batch == 0 || n == 0 || nrhs == 0) return BCHOL_SUCCESS;

    bchol_ilv_solve_plan plan;
    if ((st = bchol__potrs_interleaved_plan(ctx, p, params, upper, n, nrhs, A, B, batch, chunk,
                                            &plan)))
        return st;
    bchol_call call;
    bchol__call_begin(&call, ctx);
    st = bchol__potrs_interleaved_enqueue(&call, &plan, A, B, batch, chunk, NULL);
    return bchol__call_end(&call, st, event);
}

bchol_status bchol_spotrs_interleaved(bchol_context *ctx, char uplo, int n, int nrhs, cl_mem A,
                                      cl_mem B, int64_t batch, int64_t chunk, cl_event *event)
{
    return bchol__potrs_interleaved(ctx, "bchol_spotrs_interleaved", BCHOL_S, NULL, uplo, n, nrhs, A, B,
                             batch, chunk, event);
}

bchol_status bchol_dpotrs_interleaved(bchol_context *ctx, char uplo, int n, int nrhs, cl_mem A,
                                      cl_mem B, int64_t batch, int64_t chunk, cl_event *event)
{
    return bchol__potrs_interleaved(ctx, "bchol_dpotrs_interleaved", BCHOL_D, NULL, uplo, n, nrhs, A, B,
                             batch, chunk, event);
}

static const bchol_solve_params no_params = {0};

bchol_status bchol_spotrs_interleaved_ex(bchol_context *ctx, const bchol_solve_params *params,
                                         char uplo, int n, int nrhs, cl_mem A, cl_mem B,
                                         int64_t batch, int64_t chunk, cl_event *event)
{
    return bchol__potrs_interleaved(ctx, "bchol_spotrs_interleaved_ex", BCHOL_S,
                             params ? params : &no_params, uplo, n, nrhs, A, B, batch, chunk,
                             event);
}

bchol_status bchol_dpotrs_interleaved_ex(bchol_context *ctx, const bchol_solve_params *params,
                                         char uplo, int n, int nrhs, cl_mem A, cl_mem B,
                                         int64_t batch, int64_t chunk, cl_event *event)
{
    return bchol__potrs_interleaved(ctx, "bchol_dpotrs_interleaved_ex", BCHOL_D,
                             params ? params : &no_params, uplo, n, nrhs, A, B, batch, chunk,
                             event);
}
