/* The interleaved variant's search space, timed on strided batches as the dispatcher
 * compares it (the conversions to and from the interleaved layout included), and the same
 * space as "interleaved-native", timed on data already interleaved (the factorization
 * alone: the entries of the interleaved routines themselves): tile size inb
 * (sizes that do not divide n get corner tiles), looking order, unrolling of the tile
 * loops, chunked or simple layout of the internal copy or none (staged: through local
 * memory; strided batches on GPUs only), chunk (also the work-group size), and math (IEEE
 * only unless --set math=... asks for fast math, which changes results).
 * Swept only up to n = 64 on GPUs (one work-item holds a whole matrix in registers), up to
 * 128 on CPUs. */
#include "tune.h"

#include <stdio.h>

enum { INB, LOOKING, UNROLL, CHUNKING, CHUNK, MATH, NPARAMS };

#define MAX_N 64      /* above, a matrix per work-item spills whatever the parameters */
/* A CPU's work-item keeps its matrix in memory (its stack) at any n, and the interleaved
 * path can stay the fastest past 64: on an AVX-512 EPYC (PoCL, 2026-11-25) it took 48 ms
 * at float n = 96 (batch 3000) where the fused kernel took 117. With no interleaved
 * record above 64, the crossover after the last one is a guess. */
#define MAX_N_CPU 128
#define MAX_FULL_N 64 /* the library's limit of unroll = full (potrf_interleaved.c) */
/* PoCL builds fully unrolled code of n = 48 in 8 s, 64 in 21 s on an idle 2-core EPYC, and
 * minutes under load (a sweep stalled 6 minutes on one); the timed runs after the warm-up
 * cannot show that cost, so CPUs sweep full unrolling only up to here (as the PoCL
 * defaults, which switch to tile loops above n = 32). */
#define MAX_FULL_N_CPU 32

static const char *const names[NPARAMS] = {"inb", "looking", "unroll", "chunking", "chunk", "math"};
static const char *const looking_labels[] = {"default", "left", "right", "top", NULL};
static const char *const unroll_labels[] = {"default", "tiles", "full", NULL};
static const char *const chunking_labels[] = {"default", "chunked", "simple", "staged", NULL};
static const char *const math_labels[] = {"default", "ieee", "fast", NULL};
static const char *const *const labels[NPARAMS] = {NULL, looking_labels, unroll_labels,
                                                   chunking_labels, NULL, math_labels};


/*
 * inb: tiles from 2 up to the whole matrix; 6, 12 and 24 leave corner tiles at the usual
 * power-of-two n (the seed's sweep found such sizes competitive). chunk: CPUs vectorize
 * across a group's work-items (8 floats per AVX2 vector), so small multiples of that; GPUs
 * want whole warps and enough of them.
 */
static int values(int param, const tune_target *t, int *out, int max)
{
    static const int inbs[] = {2, 4, 6, 8, 12, 16, 24, 32}, inbs_cpu[] = {8, 12};
    static const int chunk_gpu[] = {32, 64, 128, 256}, chunk_cpu[] = {32, 64, 128};
    static const int lookings[] = {BCHOL_LOOKING_LEFT, BCHOL_LOOKING_RIGHT, BCHOL_LOOKING_TOP};
    static const int lookings_cpu[] = {BCHOL_LOOKING_LEFT, BCHOL_LOOKING_TOP};
    static const int unrolls[] = {BCHOL_UNROLL_TILES, BCHOL_UNROLL_FULL};
    static const int chunkings[] = {BCHOL_CHUNKED, BCHOL_SIMPLE};
    const int n = t->n, gpu = tune_is_gpu(t);
    int k = 0;
    if (n > (gpu ? MAX_N : MAX_N_CPU)) return 0;
    /* CPUs: the neighbourhood of what won there. The 2-core EPYC's whole space (PoCL 3.1)
     * and the Xeon's (PoCL 5.0) picked chunked layouts of 32-128 matrices, tiles of 8 or
     * 12 (or the whole matrix), left- or top-looking at every size; the rest cost a sweep
     * of hours on a CPU ("which parameters matter", docs/results/2026-11-27-xeon-pocl5-cpu). */
    switch (param) {
    case INB: /* a tile of the whole matrix is one tile: sizes past n are the same */
        if (gpu) {
            for (int i = 0; i < 8 && k < max; i++)
                if (inbs[i] < n) out[k++] = inbs[i];
        } else {
            for (int i = 0; i < 2 && k < max; i++)
                if (inbs_cpu[i] < n) out[k++] = inbs_cpu[i];
        }
        if (k < max && n <= 32) out[k++] = n;
        return k;
    case LOOKING: return gpu ? tune_copy_list(lookings, 3, out, max) : tune_copy_list(lookings_cpu, 2, out, max);
    case UNROLL:
        return tune_copy_list(unrolls, n <= (gpu ? MAX_FULL_N : MAX_FULL_N_CPU) ? 2 : 1, out, max);
    case CHUNKING: return tune_copy_list(chunkings, gpu ? 2 : 1, out, max);
    case CHUNK: return gpu ? tune_copy_list(chunk_gpu, 4, out, max) : tune_copy_list(chunk_cpu, 3, out, max);
    case MATH: out[0] = BCHOL_MATH_IEEE; return 1;
    }
    return 0;
}

/* The strided routine's space: on GPUs also the staged kernel (no copy of the batch). A
 * CPU's local memory is plain memory, so there staging only adds a copy: on PoCL (AVX-512
 * EPYC, float n = 16) it took 1.2 ms where the workspace path took 0.65. */
static int strided_values(int param, const tune_target *t, int *out, int max)
{
    int k = values(param, t, out, max);
    if (param == CHUNKING && tune_is_gpu(t) && k > 0 && k < max) out[k++] = BCHOL_STAGED;
    return k;
}

static const char *prune(const int *c, const tune_target *t, char *why, size_t size)
{
    if ((size_t)c[CHUNK] > t->dev.max_work_group) {
        snprintf(why, size, "chunk = %d work-items per group; the device takes %zu", c[CHUNK],
                 t->dev.max_work_group);
        return "work-group size";
    }
    /* Staged groups that do not fit local memory run with fewer matrices (as many as fit),
     * which the smallest chunk already measures. */
    const uint64_t staged = (uint64_t)t->n * (uint64_t)(t->n + 1) / 2 * (uint64_t)(c[CHUNK] + 1) *
                            (uint64_t)tune_elem(t);
    if (c[CHUNKING] == BCHOL_STAGED && c[CHUNK] > 32 && staged > t->dev.local_mem_usable) {
        snprintf(why, size, "staged: chunk = %d matrices need %llu bytes of local memory; a kernel "
                 "may use %llu", c[CHUNK], (unsigned long long)staged,
                 (unsigned long long)t->dev.local_mem_usable);
        return "local memory";
    }
    if (c[UNROLL] == BCHOL_UNROLL_FULL && t->n > MAX_FULL_N) {
        snprintf(why, size, "unroll = full is limited to n <= %d", MAX_FULL_N);
        return "unrolled size";
    }
    /* Also from --set: PoCL compiles each work-group size at its first launch, in the
     * timing process, where --build-timeout does not reach (a Xeon sweep with --set
     * unroll=full,tiles stalled at float n = 64 until the call was killed). */
    if (c[UNROLL] == BCHOL_UNROLL_FULL && !tune_is_gpu(t) && t->n > MAX_FULL_N_CPU) {
        snprintf(why, size, "unroll = full on a CPU is limited to n <= %d (PoCL's first-launch "
                 "compilation, beyond the build limit)", MAX_FULL_N_CPU);
        return "build time";
    }
    return NULL;
}

static void to_params(const int *c, tune_params *t)
{
    *t = (tune_params){0};
    t->p = (bchol_params){.variant = BCHOL_VARIANT_INTERLEAVED, .inb = c[INB], .looking = c[LOOKING],
                        .unroll = c[UNROLL], .chunking = c[CHUNKING], .chunk = c[CHUNK],
                        .math = c[MATH]};
}

static void from_params(const tune_params *t, int *c)
{
    const bchol_params *p = &t->p;
    c[INB] = p->inb;
    c[LOOKING] = p->looking;
    c[UNROLL] = p->unroll;
    c[CHUNKING] = p->chunking;
    c[CHUNK] = p->chunk;
    c[MATH] = p->math;
}

static void defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    tune_params p = {0};
    bchol_potrf_params(ctx, t->precision, t->n, &p.p, NULL);
    from_params(&p, c);
}

/* ---- interleaved-native: the same space, timed on data already interleaved ---------- */

/* The layout a native run uses: the simple layout is one chunk of the batch padded to
 * whole work-groups (as the library's own copy of a strided batch), the chunked one
 * chunks of the work-group size; *bytes of buffer for it. */
static int64_t native_chunk(const tune_workload *w, const bchol_params *p, size_t *bytes)
{
    const int64_t wg = p->chunk > 0 ? p->chunk : 1;
    const int64_t lanes = (w->batch + wg - 1) / wg * wg;
    const int64_t chunk = p->chunking == BCHOL_SIMPLE ? lanes : wg;
    *bytes = (size_t)((lanes + chunk - 1) / chunk * chunk) * (size_t)w->n * (size_t)w->n * w->elem;
    return chunk;
}

static void native_defaults(bchol_context *ctx, const tune_target *t, int *c)
{
    tune_params p = {0};
    bchol_potrf_interleaved_params(ctx, t->precision, t->n, &p.p, NULL);
    from_params(&p, c);
}

/* The batch into the interleaved layout (not timed), then the factorization there. */
static bchol_status native_run(bchol_context *ctx, const tune_target *t, tune_workload *w,
                               const tune_params *p)
{
    (void)t;
    size_t bytes;
    const int64_t chunk = native_chunk(w, &p->p, &bytes), n = w->n;
    if (tune_workload_ilv(w, bytes)) return BCHOL_ERR_OUT_OF_MEMORY;
    const int dbl = w->precision == 'd';
    bchol_status st =
        dbl ? bchol_dinterleave(ctx, w->uplo, w->n, w->A, 0, w->n, n * n, w->batch, w->ilv, chunk, NULL)
            : bchol_sinterleave(ctx, w->uplo, w->n, w->A, 0, w->n, n * n, w->batch, w->ilv, chunk, NULL);
    if (st) return st;
    return dbl ? bchol_dpotrf_interleaved_ex(ctx, &p->p, w->uplo, w->n, w->ilv, w->batch, chunk,
                                             w->info, NULL)
               : bchol_spotrf_interleaved_ex(ctx, &p->p, w->uplo, w->n, w->ilv, w->batch, chunk,
                                             w->info, NULL);
}

/* The factors back into the strided batch, where the checks read them. */
static bchol_status native_after(bchol_context *ctx, const tune_target *t, tune_workload *w,
                                 const tune_params *p)
{
    (void)t;
    size_t bytes;
    const int64_t chunk = native_chunk(w, &p->p, &bytes), n = w->n;
    return w->precision == 'd'
               ? bchol_ddeinterleave(ctx, w->uplo, w->n, w->ilv, w->batch, chunk, w->A, 0, w->n,
                                     n * n, NULL)
               : bchol_sdeinterleave(ctx, w->uplo, w->n, w->ilv, w->batch, chunk, w->A, 0, w->n,
                                     n * n, NULL);
}

const tune_variant tune_interleaved_native = {
    .name = "interleaved-native",
    .gpu_default = 1, /* on CPUs only where named (tune.h) */
    .variant = BCHOL_VARIANT_INTERLEAVED,
    .native = 1,
    .nparams = NPARAMS,
    .param_names = names,
    .labels = labels,
    .values = values,
    .prune = prune,
    .to_params = to_params,
    .from_params = from_params,
    .defaults = native_defaults,
    /* the strided path's kernel (bchol_potrf_prepare) lays a batch out as native_chunk
     * does: the native call finds it built */
    .prepare = tune_strided_prepare,
    .run = native_run,
    .after = native_after,
};

const tune_variant tune_interleaved = {
    .name = "interleaved",
    .variant = BCHOL_VARIANT_INTERLEAVED,
    .probe_every_k = 1,
    .nparams = NPARAMS,
    .param_names = names,
    .labels = labels,
    .values = strided_values,
    .prune = prune,
    .to_params = to_params,
    .from_params = from_params,
    .defaults = defaults,
    .prepare = tune_strided_prepare,
    .run = tune_strided_run,
};
