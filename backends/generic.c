/* Any other OpenCL device: conservative defaults, vendor normalized only. */
#include "backends/backend.h"

static int matches(cl_platform_id platform, cl_device_id device, const bchol_device_info *info)
{
    return 1;
}

static void identify(cl_device_id device, bchol_device_info *info)
{
    bchol__normalize_vendor(info->vendor, sizeof info->vendor);
}

static void fused_defaults(char precision, int n, bchol_params *p)
{
    p->ib = 8;
    p->tbc = n <= 16 ? 4 : 1;
    p->rpt = 1;
    p->shape = BCHOL_SHAPE_SHRINK;
}

/* Variable sizes: the fixed size's matrices per work-group at the fused share's largest
 * order, work-groups shrinking with the rows left, grouped by their number of panels. */
static void vbatched_defaults(char precision, int n, bchol_vbatched_params *p)
{
    p->fused.tbc = n <= 16 ? 4 : 1;
    p->fused.shape = BCHOL_SHAPE_SHRINK;
    p->order = BCHOL_ORDER_STEPS;
}

static void solve_defaults(char precision, int n, int nrhs, bchol_solve_params *p)
{
    p->variant = BCHOL_SOLVE_SUBST;
    p->nt = 1;
    while (p->nt < nrhs && p->nt < 8) p->nt *= 2;
    p->rpt = 1;
    p->tbc = n > 0 && n < 32 ? 32 / n : 1;
}

static void separate_defaults(char precision, int n, bchol_params *p)
{
    p->nb = 32;
    p->pb = 8;
    p->gemm = BCHOL_GEMM_OWN;
    p->tile = 32;
    p->gb = 128;
}

/* Interleaved variant: the NVIDIA choices; strided batches stay on the fused kernel. */
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

/* Workitem variant (never chosen here): blocks of 8 columns, vectors of 8 floats or 4
 * doubles (256 bits), a register tile of two vectors, 8 matrices per work-group. */
static void workitem_defaults(char precision, int n, bchol_params *p)
{
    p->wnb = 8;
    p->wvec = precision == 'd' ? 4 : 8;
    p->wmr = 2;
    p->wgroup = 8;
}

/* Interleaved solve: as on NVIDIA, the whole tile up to n = 32, blocks of 16 rows above. */
static int interleaved_solve_block(char precision, int n) { return n > 32 ? 16 : 0; }

const bchol_backend bchol__backend_generic = {
    .family = "generic",
    .matches = matches,
    .identify = identify,
    .build_options = "",
    .binary_cache = 1,
    .local_mem_reserve = 1024,
    .fused_defaults = fused_defaults,
    .max_groups_per_launch = 65535LL * 1024,
    .solve_defaults = solve_defaults,
    .separate_defaults = separate_defaults,
    .crossover_s = 768,
    .crossover_d = 512,
    /* getrf: unmeasured; the fused kernel wherever it fits */
    .getrf_crossover_s = 1 << 20,
    .getrf_crossover_d = 1 << 20,
    .getrf_nb = 16,
    /* getri: unmeasured; the solve for n <= 64, the blocked dgetri (nb 64) above */
    .getri_fused_from = 1,
    .getri_fused_to_s = 32,
    .getri_fused_to_d = 32,
    .getri_solve_to_s = 128,
    .getri_solve_to_d = 32,
    .getri_nb_s = 64,
    .getri_nb_d = 32,
    .vbatched_defaults = vbatched_defaults,
    .vbatched_crossover_s = 768,
    .vbatched_crossover_d = 512,
    .interleaved_defaults = interleaved_defaults,
    .strided_variant = strided_variant,
    .workitem_defaults = workitem_defaults,
    .interleaved_solve_block = interleaved_solve_block,
};
