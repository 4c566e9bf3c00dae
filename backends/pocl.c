/* PoCL CPU devices: names carry a "pthread-"/"cpu-" driver prefix and the LLVM CPU name,
 * PoCL keeps its own kernel cache, and one work-group shape for all steps avoids a new
 * specialization per local size. */
#include "backends/backend.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int matches(cl_platform_id platform, cl_device_id device, const bchol_device_info *info)
{
    return strstr(info->platform, "Portable Computing Language") != NULL ||
           strstr(info->platform_version, "PoCL") != NULL ||
           strstr(info->platform_version, "pocl") != NULL;
}

static int has_prefix(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* CL_DEVICE_VERSION ends in "HSTR: <driver>-<cpu triple of 4 parts>-<llvm cpu>". */
static void arch_from_hstr(cl_device_id device, char *arch, size_t size)
{
    char version[256] = "";
    clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL);
    const char *h = strstr(version, "HSTR: ");
    if (!h) return;
    h += 6;
    int dashes = 0;
    while (*h && dashes < 5)
        if (*h++ == '-') dashes++;
    if (dashes == 5 && *h) snprintf(arch, size, "%s", h);
}

static void identify(cl_device_id device, bchol_device_info *info)
{
    static const char *const prefixes[] = {"pthread-", "cpu-", "basic-", "tbb-"};
    char name[sizeof info->name];
    snprintf(name, sizeof name, "%s", info->raw_name);
    const char *s = name;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (has_prefix(s, prefixes[i])) {
            s += strlen(prefixes[i]);
            break;
        }
    arch_from_hstr(device, info->architecture, sizeof info->architecture);
    size_t alen = strlen(info->architecture);
    if (alen && has_prefix(s, info->architecture) && s[alen] == '-') s += alen + 1;
    snprintf(info->name, sizeof info->name, "%s", s);
    bchol__normalize_vendor(info->vendor, sizeof info->vendor);
}

/* Measured with bchol bench on a 2-core EPYC (PoCL 3.1): one work-item per matrix up to
 * n = 16, four rows per work-item above; several matrices per work-group only slowed it. */
static void fused_defaults(char precision, int n, bchol_params *p)
{
    p->ib = 8;
    p->rpt = n <= 16 ? (n > 0 ? n : 1) : 4;
    p->shape = BCHOL_SHAPE_FIXED;
    p->tbc = 1;
}

/* Variable sizes: one matrix per work-group of a fixed shape (one PoCL specialization per
 * work-group size); tbc 4 was slower (0.22 vs 0.32 Gflop/s at nmax 16, bchol bench
 * --vbatched --tbc 1,4 on the loaded 2-core EPYC), so no sort either. */
static void vbatched_defaults(char precision, int n, bchol_vbatched_params *p)
{
    p->fused.tbc = 1;
    p->fused.shape = BCHOL_SHAPE_FIXED;
    p->order = BCHOL_ORDER_INDEX;
}

/* Solve, measured with bchol bench --solve on the same machine. The variant: the workitem
 * solve (one work-item per system, no barriers; issue 31), which potrs and posv run at
 * every n: against the substitution kernel in the same loaded hour (2026-11-27, float and
 * double, nrhs 1 and 16, n = 4..512) it was faster at every size measured, e.g. float
 * nrhs 1 at n = 32..256 2.0-2.8x the LAPACK loop where the substitution kernel ran
 * 0.26-0.52x (docs/performance.md, "CPU through PoCL"); it takes nt, right-hand sides per
 * pass. The substitution kernel's shapes, which the vbatched solve runs (and potrs with
 * variant BCHOL_SOLVE_SUBST): one work-item per tile (all rows in one work-item, no real
 * barriers) up to n = 32, 16 rows per work-item above; right-hand-side tiles of up to 8
 * columns, powers of two so that few programs are built. The LU solve (getrs, gesv,
 * getri's solve path, the vbatched getrs and gesv) takes the same variant and nt
 * (host/lu/lu_solve_shape.c): its workitem kernel ran 1.1-16x the substitution kernel's
 * speed at n = 4..256, nrhs 1 and 16, float and double, on the same 2 cores (548e73a,
 * docs/performance.md's LU section). */
static void solve_defaults(char precision, int n, int nrhs, bchol_solve_params *p)
{
    p->variant = BCHOL_SOLVE_WORKITEM;
    p->nt = 1;
    while (p->nt < nrhs && p->nt < 8) p->nt *= 2;
    p->rpt = 1;
    while (p->rpt < n && p->rpt < 32) p->rpt *= 2;
    if (n > 32) p->rpt = 16;
    p->tbc = 1;
}

/* Separate variant, measured with bchol bench --variant fused,separate on the same CPU
 * (batch 16-64, a noisy shared machine): 64 x 64 GEMM tiles beat 16 and 32, nb = 32
 * about ties 64; the two variants are within 30% of each other from n = 256 to 512 (either
 * ahead, depending on the run) and the separate one is 1.6-2.2x faster at n = 1024. */
static void separate_defaults(char precision, int n, bchol_params *p)
{
    p->nb = 32;
    p->pb = 8;
    p->gemm = BCHOL_GEMM_OWN;
    p->tile = 64;
    p->gb = 128;
}

/* Interleaved variant on PoCL (2-core EPYC, measured with bchol bench --variant
 * interleaved): PoCL vectorizes across a work-group's work-items only straight-line code,
 * so the whole factorization is unrolled up to n = 32 (9-11 Gflop/s, builds of 1-4 s;
 * tiles of 8: tiles of 4 stop the vectorizer). Above, top-looking tile loops (4-7
 * Gflop/s, builds of about 1 s) beat full unrolling's build times (8 s at n = 48, 21 s at
 * 64). Chunks of 64 matrices: eight AVX2 vectors of floats per work-group.
 * Strided batches go through the conversions up to n = 64: 3-5x faster than the fused
 * kernel there, conversions included (n = 8: 2.2 vs 10.3 ms, n = 32: 37 vs 188 ms, n = 64
 * at batch 4096: 91 vs 282 ms); larger n was not measured. */
static void interleaved_defaults(char precision, int n, bchol_params *p)
{
    p->inb = 8;
    p->looking = n <= 32 ? BCHOL_LOOKING_LEFT : BCHOL_LOOKING_TOP;
    p->unroll = n <= 32 ? BCHOL_UNROLL_FULL : BCHOL_UNROLL_TILES;
    p->chunking = BCHOL_CHUNKED;
    p->chunk = 64;
    p->math = BCHOL_MATH_IEEE;
}

/* Workitem variant (one work-item per matrix, issue 31), measured with bchol bench
 * --variant workitem on the 2-core EPYC (PoCL 3.1, LLVM's skylake-avx512 target, loaded
 * machine, so only large differences count): a tile of two (lower: 2 vectors of rows by
 * wnb columns; upper: 2 rows, which ran upper storage about twice as fast as one), vectors
 * of 8 and blocks of 8 columns (16 accumulators: the ymm/zmm registers hold them; 16-wide
 * vectors or blocks were no faster at n = 128-512 and slower at n = 4-64 in bchol tune);
 * 8 matrices per work-group. */
static void workitem_defaults(char precision, int n, bchol_params *p)
{
    p->wnb = 8;
    p->wvec = 8;
    p->wmr = 2;
    p->wgroup = 8;
}

/* Strided batches where the tuning file has no say (it decides up to n = 128): the
 * interleaved layout up to n = 16, where its conversions paid off (2-23x the LAPACK loop on
 * the idle machine, 2026-11-25); one work-item per matrix up to n = 512, the largest size
 * measured (0.7-2x the loop at n = 128-512 where the fused kernel ran 0.1-0.2x,
 * docs/results/2026-11-27-pocl-cpu-profile); above, the fused/separate crossover, as
 * before (a batch of few huge matrices would occupy as many cores as it has matrices). */
static bchol_variant strided_variant(char precision, int n)
{
    return n <= 16 ? BCHOL_VARIANT_INTERLEAVED : n <= 512 ? BCHOL_VARIANT_WORKITEM : BCHOL_VARIANT_FUSED;
}

/* Interleaved solve: the whole tile at every n (PoCL keeps it on the stack beyond what it
 * unrolls, and vectorizes the straight-line code of small tiles across work-items). */
static int interleaved_solve_block(char precision, int n) { return 0; }

/* PoCL 5.0 (Ubuntu 24.04, LLVM 16) miscompiles the fused and variable-size kernels under
 * its default work-group method (work-item loops around the regions between barriers):
 * SPD matrices reported failed (info 9-38) or factored wrong (backward error 1e4-1e12),
 * and the variable-size kernels crash (SIGSEGV), even with one thread; PoCL 3.1 runs the
 * same kernels right. Under continuation-based barriers (POCL_WORK_GROUP_METHOD=cbs)
 * PoCL 5.0 passes the whole suite (docs/DEVELOPING.md, "Other implementations"). PoCL
 * reads the variable when it compiles a kernel (and hashes it into its cache key), so it
 * is set before bchol's first build, from PoCL 4 on, unless the caller set it. */
static int pocl_needs_cbs(const char *driver_version)
{
    return atoi(driver_version) >= 4;
}

static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;

static void prepare_driver(const bchol_device_info *info)
{
    if (!pocl_needs_cbs(info->driver)) return;
    pthread_mutex_lock(&env_lock);
    if (!getenv("POCL_WORK_GROUP_METHOD")) setenv("POCL_WORK_GROUP_METHOD", "cbs", 0);
    pthread_mutex_unlock(&env_lock);
}

const bchol_backend bchol__backend_pocl = {
    .family = "pocl",
    .matches = matches,
    .identify = identify,
    .build_options = "-D EARLY_EXIT=0 -D UNROLL=0",
    .binary_cache = 0,
    /* "Incoming edges to non-entry block!" (an assertion in its ParallelRegion pass) */
    .broken_fused_ib_d = 2,
    .fused_defaults = fused_defaults,
    .max_groups_per_launch = 2147483647,
    .solve_defaults = solve_defaults,
    .separate_defaults = separate_defaults,
    .crossover_s = 512,
    .crossover_d = 512,
    /* getrf: fused against blocked (nb 32), batch 200, Gflop/s on the 2 shared cores of
     * the dev machine (2026-11-27; noisy, other builds running: two rounds disagree at
     * 128-192). Round 1: float n = 64 0.44/0.36, 128 1.25/1.58, 160 2.07/1.95, 192
     * 1.08/1.91, 256 0.47/1.05, 511 1.26/1.71; double 128 0.73/0.95, 256 0.51/1.77.
     * Round 2 (bench --getrf of the time, now bench --routine getrf --variant, median of 3): float 96 1.4/0.8, 128 1.2/1.0, 192
     * 1.7/1.3, 256 0.7/1.5; double 96 1.4/0.8, 128 0.7/0.9, 192 1.4/1.2, 256 0.2/1.2.
     * The fused kernel falls off past 192 (a 256 KiB matrix and more per work-group),
     * hence 192. nb at float 256: 16 0.61, 32 1.05, 64 0.86; at 512: 32 1.84, 64 2.01. */
    .getrf_crossover_s = 192,
    .getrf_crossover_d = 192,
    .getrf_nb = 32,
    /* getri (bench --routine getri under BCHOL_GETRI=solve|fused|blocked,nb=..; 2 shared
     * cores, batch 1000, median of 5, noisy): ms solve/fused/blocked nb 64, float n = 8
     * 0.47/0.66/2.7, 16 13/4.5/9.5, 32 98/132/139, 64 777/975/1042, 128 11784/-/3967;
     * double 8 0.55/0.75/3.0, 16 12.6/4.7/14, 32 108/55/85, 64 783/754/486, 128
     * 7580/-/5352. Batch 100 after the triangle-aware trtri (8530868), ms solve/blocked
     * nb 32/nb 64: float n = 128 743/549/278, 256 4752/4686/2172; double 128 657/673/307,
     * 256 6620/4837/2216. Those solve times are the substitution kernel's; with the workitem
     * solve (the LU solve on PoCL since, 548e73a; batch 500, median of 3 rounds, loaded
     * machine) ms solve/fused/blocked nb 64: float n = 8 0.077/0.33/1.35, 16 0.62/2.18/4.63,
     * 32 3.04/13.5/18.5, 64 21.5/104/103, 128 110/-/648; double 8 0.14/0.36/1.44, 16
     * 0.67/2.38/4.96, 32 3.69/15.0/22.5, 64 21.3/99.1/116, 128 161/-/745; batch 100, n = 256:
     * float 159/-/886, double 279/-/1067. Hence the solve to 256 and no fused range; the
     * blocked path above (not measured against the solve there). */
    /* getrf_vbatched on CPUs: the workitem getrf per matrix, as the fixed-size getrf
     * (1.1-24x the blocked variant on the 16-core Xeon, above); it also keeps PoCL 5.0 off
     * the blocked path's barrier loops (getrf_vb_panel factored wrong there, 2026-11-27). */
    .getrf_vb_workitem = 1,
    .getri_fused_from = 1,
    .getri_fused_to_s = 0,
    .getri_fused_to_d = 0,
    .getri_solve_to_s = 256,
    .getri_solve_to_d = 256,
    .getri_nb_s = 64,
    .getri_nb_d = 64,
    /* getrf's workitem variant (one work-item per matrix, no barriers) against the others,
     * Gflop/s, medians of 3. 16-core Xeon (skylake-avx512, PoCL 5.0, 2026-11-27, 8941759;
     * batch 1000 up to 192, 300 above; workitem/blocked/fused): float n = 64 91.6/3.9/9.2,
     * 128 55.3/5.6/11.5, 192 72.1/7.6/11.2, 256 31.6/9.3, 384 38.4/11.5, 512 28.8/13.0;
     * double 64 62.9/4.1/10.1, 128 23.3/6.4/8.2, 192 30.2/8.0/9.5, 256 15.9/9.6,
     * 384 18.1/11.0, 512 13.5/12.1 (docs/results/2026-11-27-xeon-pocl5-cpu/lu-solve-8941759.txt). The 2-core EPYC
     * (loaded, batch 1000): float 64 8.6 against fused 0.59, 256 4.3 against blocked 1.5;
     * double 256 0.70 against blocked 0.89, within that machine's noise. Workitem up to 512.
     * With its panels (below; 2-core EPYC idle, 2026-11-28, bench --routine getrf --variant,
     * batch 8 float and 16 double, Gflop/s workitem/blocked): float n = 768 41.5/4.65, 1024
     * 23.6/5.08; double 768 35.3/4.43, 1024 15.9/4.45; hence up to 1024. */
    .getrf_workitem_to_s = 1024,
    .getrf_workitem_to_d = 1024,
    /* Its panel width (BCHOL_GETRF=workitem,nb=1|4|8|16|32, bench --routine getrf, 2-core
     * EPYC idle, 2026-11-28, two rounds, Gflop/s; batch 4000 to n = 32, 1000 at 48-64, 400
     * to 128, 96 to 256, 32 above). Float nb 1/4/8/16: n = 32 17.6/21.9/21.0/17.9, 64
     * 23.6/18.2/18.0/24.9 (round 1: 18.1/26.5/27.5/20.9), 128 16.5/43.7/50.8/43.2, 256
     * 8.6/34.2/61.5/54.2, 384 18.2/62.8/82.7/71.3, 512 4.4/16.3/35.2/50.1; double 32
     * 13.9/18.1/15.8/14.8, 64 16.5/26.1/25.2/21.7, 128 3.9/21.5/23.7/26.6, 192
     * 6.6/36.3/45.4/40.2, 256 2.1/9.0/17.8/25.9, 384 3.4/26.6/40.5/42.7, 512 1.3/4.6/9.0/13.2;
     * nb 32 behind 8 or 16 from n = 32 on. Unblocked, the rank-1 updates stream the
     * trailing block through the caches at every column (0.13x the LAPACK loop at float
     * 256, 0.05x double); panels of 8 to n = 192, of 16 from 256. */
    .getrf_workitem_nb = 8,
    .getrf_workitem_nb2 = 16,
    .getrf_workitem_nb2_from = 256,
    .vbatched_defaults = vbatched_defaults,
    .vbatched_crossover_s = 512,
    .vbatched_crossover_d = 512,
    /* Variable sizes: the workitem kernel takes every matrix. bench --vbatched, orders
     * uniform in [1, nmax], batch 1000, median of 3, 2-core EPYC loaded (load 2-13),
     * 2026-11-27, default version / LAPACK loop: float L nmax 32-256 0.17-0.26x (fused)
     * -> 0.91-1.84x (workitem), double U 0.22-0.46x -> 0.68-1.47x; above 512, where the
     * split once gave matrices to the separate variant, that variant ran 0.3-0.4 Gflop/s
     * against the workitem kernel's 13-26 (nmax 768, 1024, batch 60, float and double). */
    .vbatched_workitem_to_s = INT_MAX,
    .vbatched_workitem_to_d = INT_MAX,
    .interleaved_defaults = interleaved_defaults,
    .strided_variant = strided_variant,
    .workitem_defaults = workitem_defaults,
    .interleaved_solve_block = interleaved_solve_block,
    .prepare_driver = prepare_driver,
    /* PoCL 5.0 (under either work-group method) factored wrong, or crashed, where the
     * variable-size panel, TRSM and SYRK kernels' barrier loops ran to an order read from
     * memory (uniform in each work-group, as the standard requires, but not provably so);
     * with loops to NB the whole suite passes there. */
    .uniform_barrier_loops = 1,
};
