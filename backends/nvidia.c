/* NVIDIA's OpenCL driver: architecture from cl_nv_device_attribute_query, binaries kept
 * in bchol's on-disk cache, one work-item per panel row and per-step work-groups. */
#include "backends/backend.h"

#include <stdio.h>
#include <string.h>

#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001

static int matches(cl_platform_id platform, cl_device_id device, const bchol_device_info *info)
{
    return strstr(info->platform, "NVIDIA") != NULL && (info->type & CL_DEVICE_TYPE_GPU);
}

static void identify(cl_device_id device, bchol_device_info *info)
{
    cl_uint major = 0, minor = 0;
    snprintf(info->vendor, sizeof info->vendor, "NVIDIA");
    if (clGetDeviceInfo(device, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major,
                        NULL) == CL_SUCCESS &&
        clGetDeviceInfo(device, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor,
                        NULL) == CL_SUCCESS)
        snprintf(info->architecture, sizeof info->architecture, "SM%u.%u", major, minor);
}

/* The fused kernel factors its panel in registers (0375b01), so a wider panel costs little
 * more there and halves the launches: exhaustive sweeps of that kernel on the H200 and the
 * H100 (2026-11-24, docs/results/2026-11-24-h200-retune-fused and -h100-retune-fused, both
 * files' picks agreeing) chose ib = 16 for float from n = 16 and for double from n = 64
 * (1.3-1.6x ib = 8's time at n = 64-256), two matrices per work-group for float up to
 * n = 255 and two rows per work-item from 256, and below n = 8 panels of 4 with 16 or
 * more matrices per work-group in groups of a fixed shape (1.2-1.35x). Below n = 32
 * several matrices per work-group keep warps full (Abdelfattah et al., Fig. 3). Double
 * panels of 16 stop at the crossover (320): a panel of n rows takes n * ib doubles of
 * local memory, and 48 KiB hold ib = 16 only up to n = 376, ib = 8 up to 752, so that a
 * caller who asks for the fused kernel above the crossover can still have it. */
static void fused_defaults(char precision, int n, bchol_params *p)
{
    const int s = precision == 's';
    p->ib = n < 8 ? 4 : s ? (n >= 16 ? 16 : 8) : (n >= 64 && n <= 320 ? 16 : 8);
    p->rpt = s ? (n >= 256 ? 2 : 1) : (n >= 8 && n < 16 ? 2 : 1);
    p->shape = n < 8 ? BCHOL_SHAPE_FIXED : BCHOL_SHAPE_SHRINK;
    if (n < 8)
        p->tbc = 16;
    else if (n < 16)
        p->tbc = s ? 16 : 8;
    else if (n < 32)
        p->tbc = s ? 4 : 8;
    else if (n < (s ? 256 : 64))
        p->tbc = 2;
    else
        p->tbc = 1;
}

/* Variable sizes, from the same sweeps (H200 and H100, 2026-11-24, the fused kernel of
 * 0375b01, orders uniform in [1, nmax]): several matrices per work-group below nmax = 32
 * (1.1-1.4x), one from nmax = 32 (both devices' picks from 64; at 32 they differ);
 * PACK groups (as many work-items at every launch) and the matrices grouped by their
 * number of panels (ORDER_STEPS, three more commands) from nmax = 64 and 128; double keeps
 * panels of 8 up to nmax = 255 (both devices' picks at 64 and 128), where the fixed size
 * takes 16, and from 256 to the crossover takes 16 (as the fixed size, for local memory). */
static void vbatched_defaults(char precision, int n, bchol_vbatched_params *p)
{
    if (precision == 'd') p->fused.ib = n < 8 ? 4 : n >= 256 && n <= 320 ? 16 : 8;
    p->fused.tbc = n < 32 ? 8 : 1;
    p->fused.rpt = 1;
    p->fused.shape = n >= 64 ? BCHOL_SHAPE_PACK : BCHOL_SHAPE_SHRINK;
    p->order = n >= 128 ? BCHOL_ORDER_STEPS : BCHOL_ORDER_INDEX;
}

/* Solve: one work-item per row, whole right-hand-side tiles of up to 16 columns in
 * registers (a power of two covering nrhs, so that few programs are built), and several
 * tiles per work-group below n = 64 to keep warps full. */
static void solve_defaults(char precision, int n, int nrhs, bchol_solve_params *p)
{
    p->variant = BCHOL_SOLVE_SUBST;
    p->nt = 1;
    while (p->nt < nrhs && p->nt < 16) p->nt *= 2;
    p->rpt = 1;
    p->tbc = n > 0 && n < 64 ? 64 / n : 1;
}

/* Separate variant: nb = 64 (the seed's 32 doubles the trailing matrix's memory traffic,
 * which bounds the update with K = nb) and 64 x 64 GEMM tiles of 4 x 4 per work-item.
 * Crossover measured on the H200 (2026-11-22, docs/results/2026-11-22-h200-run2): the
 * fused kernel wins at n = 256 (6281 vs 4996 Gflop/s float, 4629 vs 3600 double), the
 * separate one from n = 384 on (7083 vs 6191, 5387 vs 4259), so both cross near 320
 * (float moved to 384 with the fused kernel's wider panels: crossover_s below). */
static void separate_defaults(char precision, int n, bchol_params *p)
{
    p->nb = 64;
    p->pb = 8;
    p->gemm = BCHOL_GEMM_OWN;
    p->tile = 64;
    p->gb = 128;
}

/* Interleaved variant, from the seed's P100 results (Kurzak, Gates et al., Figs. 15-19):
 * chunks of 32 (one warp per group), top-looking, tiles of 8, the whole factorization
 * unrolled up to n = 20. Strided batches stay on the fused kernel until the conversions
 * are measured to pay off here. */
static void interleaved_defaults(char precision, int n, bchol_params *p)
{
    p->inb = 8;
    p->looking = BCHOL_LOOKING_TOP;
    p->unroll = n <= 20 ? BCHOL_UNROLL_FULL : BCHOL_UNROLL_TILES;
    p->chunking = BCHOL_CHUNKED;
    p->chunk = 32;
    p->math = BCHOL_MATH_IEEE;
}

static bchol_variant strided_variant(char precision, int n) { return BCHOL_VARIANT_FUSED; }

/* Interleaved solve: the whole right-hand-side tile in private memory up to n = 16; above,
 * register blocks with the loops over blocks at run time. Measured on the H200 (2026-11-24,
 * b7080ca, docs/results/2026-11-24-h200-solve-ilv), float posv, 16384 systems: at n = 32
 * blocks of 8 took 0.093 ms against the whole tile's 0.129 (nrhs 1) and 0.25 against 0.88
 * (nrhs 16); at n = 64 blocks of 16 took 0.43 ms against 1.84 (the whole tile is indexed at
 * run time there and spills); at n = 16 the whole tile is a little faster (0.030 against
 * 0.031, 0.062 against 0.088). Blocks of 16 beat 8 from n = 48 (0.24 against 0.29 ms). */
static int interleaved_solve_block(char precision, int n)
{
    return n <= 16 ? 0 : n <= 32 ? 8 : 16;
}

const bchol_backend bchol__backend_nvidia = {
    .family = "nvidia",
    .matches = matches,
    .identify = identify,
    .build_options = "",
    .binary_cache = 1,
    .local_mem_reserve = 1024,
    .fused_defaults = fused_defaults,
    .max_groups_per_launch = 2147483647 / 64,
    .solve_defaults = solve_defaults,
    .separate_defaults = separate_defaults,
    /* Float: the fused kernel with ib = 16, rpt = 2 beat the separate variant's best at
     * n = 384 (2.49 against 2.67 ms, H200 exhaustive sweeps of 2026-11-24) and lost at 512
     * (5.17 against 4.90); double stays at 320 (separate 3.52 against fused 4.44 at 384). */
    .crossover_s = 384,
    .crossover_d = 320,
    /* getrf: the fused kernel holds float n <= 109, double n <= 76 in 48 KiB. H200,
     * 2026-11-27 (bench --routine getrf --variant fused|blocked, median of 5, Gflop/s fused/blocked nb 16): float 32
     * 610/410, 64 1066/889, 96 1110/1164; double 32 465/341, 64 737/736: the crossover at 64.
     * Blocked float n = 256, 512: nb 16 2471, 3132; nb 32 2317, 3014; nb 8 1547, 1828; double
     * nb 16 1717, 1991; nb 32 1507, 1998. CLBlast's GEMM: float 2277, 2830 (slower); double
     * 2163, 2557 (1.26x, 1.28x bchol's) -- docs/results/2026-11-27-h200-lu. */
    .getrf_crossover_s = 64,
    .getrf_crossover_d = 64,
    .getrf_nb = 16,
    /* getri alone, H200, ms, median of 5 (2026-11-27, 8d4c719; batch 16384 to n = 64, 3000
     * to 256, 1000 at 512; results/2026-11-27-h200-lu/getri-paths.txt): solve / fused /
     * blocked nb 16, 32, 64: float n = 4 0.0096/0.0074, 8 0.019/0.013, 16 0.083/0.034,
     * 32 0.375/0.213/1.22/1.02/1.55, 64 2.13/-/5.66/4.45/5.13, 128 2.86/-/6.07/4.03/4.17,
     * 256 21.9/-/35.8/19.2/16.7, 512 132/-/89.4/39.6/27.6; double 4 0.0114/0.0098,
     * 8 0.030/0.017, 16 0.136/0.067, 32 0.90/0.49/1.51/1.25/2.13, 64 5.94/-/7.23/5.79/9.76,
     * 128 8.13/-/7.94/5.18/7.27, 256 63.5/-/22.1/22.2/31.4, 512 -/-/52.3/45.1/54.7.
     * CLBlast's GEMM at nb 64: float 0.96-0.97x own's time at 256-512, double the same:
     * not taken. Fused to 64: against auto's blocked nb 32 (double) or solve (float) at
     * n = 40, 48, 56, 64, getri alone float 1.26, 1.06, 1.23, 1.07x, double 1.80, 1.72, 1.85,
     * 1.36x (H200, 2026-11-27, 7671ac4, batch 16384, medians of 2 rounds, getri-paths.txt's
     * end). */
    /* getrf_vbatched, orders uniform in [1, nmax], batch 2000, H200, ms, median of 5
     * (8d4c719, results/2026-11-27-h200-lu/getrf-vbatched.txt): the split (fused for what
     * fits, blocked nb 16 the rest) / every matrix blocked nb 16 / blocked nb 32: float
     * nmax 128 2.20/1.76/1.73, 256 9.52/8.87/7.70, 512 51.5/51.0/42.0; double 96
     * 1.49/1.23/1.13, 128 2.28/2.01/1.91, 256 10.8/10.5/9.92, 512 60.2/59.9/54.0. Where
     * the largest fits, the fused kernel alone (float nmax 64 0.385 against 0.555). */
    .getrf_vb_all_blocked = 1,
    .getrf_vb_nb = 32,
    .getri_fused_from = 1,
    .getri_fused_to_s = 64,
    .getri_fused_to_d = 64,
    .getri_solve_to_s = 128,
    .getri_solve_to_d = 32,
    .getri_nb_s = 64,
    .getri_nb_d = 32,
    .getrf_clblast_d_from = 256,
    /* The fused kernel's groups: 128 work-items (tbc = 128 / lx matrices). H200, bench
     * --getrf --tbc, Gflop/s at tbc 1, 2, 4, 8: float n = 8 107, 169, 227, 222; 16 322, 458,
     * 504, 510; 32 610, 688, 727, 723; 64 1066, 1118 (4 does not fit); double 8 97, 153, 186,
     * 193; 16 243, 291, 306, 313; 32 465, 514, 521 (8 does not fit) -- results/2026-11-27-h200-lu. */
    .getrf_group = 128,
    /* The regs getrf (a work-item per row, the row in registers, two barriers per step)
     * against the fused kernel, H200, batch 16384 (3000 at 96, 128), Gflop/s (2026-11-27,
     * results/2026-11-27-h200-lu/getrf-rows.txt): float n = 4 95/64, 8 537/229, 16 1553/510,
     * 32 2331/725, 64 2298/1118, 96 1938/1105, 128 373 (its 128 registers a row spill; fused
     * cannot hold 128); double 4 83/61, 8 412/204, 16 1002/315, 32 1656/522, 64 1189/735,
     * 96 770 (fused cannot hold it). tbc changed little from n = 16; the driver's ~128
     * work-items a group ran n = 4, 8 fastest. */
    .getrf_regs_to_s = 96,
    .getrf_regs_to_d = 64,
    /* Variable sizes straddling the fixed-size crossover: the fused kernel alone ran float
     * batches of max_n = 384 and 512 (batch 1000) at 3247-3319 and 4544-4661 Gflop/s on
     * the H200 (2026-11-24, b52b669), the separate variant alone at 2853 and 4321 (d648591),
     * and splits at 320 or 128 slower than either: float stays fused up to 512 (with
     * ib = 16, 3368 and 4741 against the separate variant's 2818 and 4253, 7bea8e1).
     * Double: the separate variant alone (2411 and 3529) beat the fused kernel alone (1849,
     * 2512) and the split at 320 (1565, 2548), so a straddling double batch goes to the
     * separate variant whole (crossover 0). */
    .vbatched_defaults = vbatched_defaults,
    .vbatched_crossover_s = 512,
    .vbatched_crossover_d = 0,
    /* One launch against the file's per-step schedules (2026-11-25, 144a302, orders uniform
     * in [1, nmax], nmax 8-128, batches 1000-16384): where batch * nmax <= 132 * 1536 one
     * launch took 0.41-1.12x the time on the H200 (geometric mean 0.82; the 1.12x a 46 us
     * call) and 0.57-1.27x on the H100 (0.85); above it 1.20x and 1.06x
     * (docs/results/2026-11-25-h200-vbatched-one-launch-batch, -h100-). Checked with the
     * rule in the library (b810622, H200, 2 rounds): 0.85x the time at nmax 8-192 (float
     * 0.91x, double 0.79x), but double nmax 256 at batch 700 took 1.39-1.46x: up to 192. */
    .vbatched_one_launch_per_cu = 1536,
    .vbatched_one_launch_max_n = 192,
    .interleaved_defaults = interleaved_defaults,
    .strided_variant = strided_variant,
    .interleaved_solve_block = interleaved_solve_block,
};
