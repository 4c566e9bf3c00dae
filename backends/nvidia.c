/* NVIDIA's OpenCL driver: architecture from cl_nv_device_attribute_query, binaries kept
 * in bchol's on-disk cache, one work-item per panel row and per-step work-groups. */
#include "backend.h"

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

/* ib = 8 is the seed's best on Kepler; several matrices per work-group below n = 32 keep
 * warps full (Abdelfattah et al., Fig. 3). */
static void fused_defaults(char precision, int n, bchol_params *p)
{
    p->ib = 8;
    p->rpt = 1;
    p->shape = BCHOL_SHAPE_SHRINK;
    if (n <= 8)
        p->tbc = 8;
    else if (n <= 16)
        p->tbc = 4;
    else if (n <= 32)
        p->tbc = 2;
    else
        p->tbc = 1;
}

/* Interleaved variant, from the seed's P100 results (Kurzak, Gates et al., Figs. 15-19):
 * chunks of 32 (one warp per group), top-looking, tiles of 8, the whole factorization
 * unrolled up to n = 20. Strided batches stay on the fused kernel until the conversions
 * are measured to pay off here. */
static void interleaved_defaults(char precision, int n, bchol_params *p)
{
    p->nb = 8;
    p->looking = BCHOL_LOOKING_TOP;
    p->unroll = n <= 20 ? BCHOL_UNROLL_FULL : BCHOL_UNROLL_TILES;
    p->chunking = BCHOL_CHUNKED;
    p->chunk = 32;
    p->math = BCHOL_MATH_IEEE;
}

static bchol_variant strided_variant(char precision, int n) { return BCHOL_VARIANT_FUSED; }

const bchol_backend bchol__backend_nvidia = {
    .family = "nvidia",
    .matches = matches,
    .identify = identify,
    .build_options = "",
    .binary_cache = 1,
    .fused_defaults = fused_defaults,
    .max_groups_per_launch = 2147483647 / 64,
    .interleaved_defaults = interleaved_defaults,
    .strided_variant = strided_variant,
};
