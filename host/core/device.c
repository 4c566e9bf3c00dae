/* Platform and device discovery, device selection by spec, normalized identity. */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

/* Drivers pad some strings with spaces; keep them trimmed and terminated. */
static void trim(char *out, size_t size)
{
    out[size - 1] = 0;
    size_t len = strlen(out);
    while (len > 0 && out[len - 1] == ' ') out[--len] = 0;
}

static void dev_str(cl_device_id dev, cl_device_info what, char *out, size_t size)
{
    if (clGetDeviceInfo(dev, what, size, out, NULL) != CL_SUCCESS) out[0] = 0;
    trim(out, size);
}

static void plat_str(cl_platform_id plat, cl_platform_info what, char *out, size_t size)
{
    if (clGetPlatformInfo(plat, what, size, out, NULL) != CL_SUCCESS) out[0] = 0;
    trim(out, size);
}

#define DEV_STR(dev, what, out) dev_str(dev, what, out, sizeof(out))
#define PLAT_STR(plat, what, out) plat_str(plat, what, out, sizeof(out))

bchol_status bchol__query_device(cl_platform_id platform, cl_device_id device,
                                 bchol_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->platform_index = info->device_index = -1;
    PLAT_STR(platform, CL_PLATFORM_NAME, info->platform);
    PLAT_STR(platform, CL_PLATFORM_VERSION, info->platform_version);
    DEV_STR(device, CL_DEVICE_NAME, info->raw_name);
    DEV_STR(device, CL_DEVICE_VENDOR, info->vendor);
    DEV_STR(device, CL_DRIVER_VERSION, info->driver);
    snprintf(info->name, sizeof info->name, "%s", info->raw_name);

    cl_device_fp_config fp64 = 0;
    cl_uint cu = 0;
    cl_ulong gmem = 0, alloc = 0, lmem = 0;
    size_t wg = 0;
    clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof info->type, &info->type, NULL);
    /* The extension string alone is not enough: some drivers list cl_khr_fp64 with an
     * empty double config. */
    if (clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL) !=
        CL_SUCCESS)
        fp64 = 0;
    info->fp64 = fp64 != 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
    clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    info->compute_units = cu;
    info->global_mem = gmem;
    info->max_alloc = alloc;
    info->local_mem = lmem;
    info->max_work_group = wg;

    const bchol_backend *backend = bchol__backend_for(platform, device, info);
    snprintf(info->family, sizeof info->family, "%s", backend->family);
    const uint64_t reserve = (uint64_t)backend->local_mem_reserve;
    info->local_mem_usable = lmem > reserve ? lmem - reserve : 0;
    backend->identify(device, info);
    return BCHOL_SUCCESS;
}

/* Every device of every platform in a fixed order. */
typedef struct {
    int count;
    cl_platform_id platform[MAX_DEVICES];
    cl_device_id device[MAX_DEVICES];
    int pindex[MAX_DEVICES], dindex[MAX_DEVICES];
    char seen[512]; /* what the platforms answered, for the message when nothing matches */
    int transient;  /* a platform answered with an error other than "no device" */
} device_list;

static void list_devices(device_list *list)
{
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint np = 0;
    size_t at = 0;
    list->count = 0;
    list->seen[0] = 0;
    list->transient = 0;
    cl_int err = clGetPlatformIDs(MAX_PLATFORMS, platforms, &np);
    if (err != CL_SUCCESS) {
        list->transient = err != -1001; /* CL_PLATFORM_NOT_FOUND_KHR: no ICD at all */
        snprintf(list->seen, sizeof list->seen, "clGetPlatformIDs: %s", bchol__cl_error_name(err));
        return;
    }
    if (np > MAX_PLATFORMS) np = MAX_PLATFORMS;
    for (cl_uint p = 0; p < np; p++) {
        cl_device_id devices[MAX_DEVICES];
        cl_uint nd = 0;
        char name[64];
        PLAT_STR(platforms[p], CL_PLATFORM_NAME, name);
        err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devices, &nd);
        if (at < sizeof list->seen) {
            int k = err == CL_SUCCESS
                        ? snprintf(list->seen + at, sizeof list->seen - at, "%s%s: %u device(s)",
                                   at ? "; " : "", name, nd)
                        : snprintf(list->seen + at, sizeof list->seen - at, "%s%s: %s",
                                   at ? "; " : "", name, bchol__cl_error_name(err));
            at += k > 0 ? (size_t)k : 0;
        }
        if (err != CL_SUCCESS) {
            list->transient |= err != CL_DEVICE_NOT_FOUND;
            continue;
        }
        if (nd > MAX_DEVICES) nd = MAX_DEVICES;
        for (cl_uint d = 0; d < nd && list->count < MAX_DEVICES; d++) {
            list->platform[list->count] = platforms[p];
            list->device[list->count] = devices[d];
            list->pindex[list->count] = (int)p;
            list->dindex[list->count] = (int)d;
            list->count++;
        }
    }
}

int bchol_device_count(void)
{
    device_list list;
    list_devices(&list);
    return list.count;
}

bchol_status bchol_device_info_at(int index, bchol_device_info *info)
{
    device_list list;
    if (!info) return bchol__fail(NULL, BCHOL_ERR_ARGUMENT, "bchol_device_info_at: info is NULL");
    list_devices(&list);
    if (index < 0 || index >= list.count)
        return bchol__fail(NULL, BCHOL_ERR_ARGUMENT,
                           "bchol_device_info_at: index %d is not in [0, %d)", index,
                           list.count);
    bchol__query_device(list.platform[index], list.device[index], info);
    info->platform_index = list.pindex[index];
    info->device_index = list.dindex[index];
    return BCHOL_SUCCESS;
}

static int spec_matches(const char *spec, const device_list *list, int i)
{
    bchol_device_info info;
    bchol__query_device(list->platform[i], list->device[i], &info);
    if (!strcasecmp(spec, "gpu")) return (info.type & CL_DEVICE_TYPE_GPU) != 0;
    if (!strcasecmp(spec, "cpu")) return (info.type & CL_DEVICE_TYPE_CPU) != 0;
    if (!strcasecmp(spec, "nvidia")) return !strcmp(info.family, "nvidia");
    if (!strcasecmp(spec, "pocl")) return !strcmp(info.family, "pocl");
    return 0;
}

/* One index of a P:D spec: decimal digits only (no sign, no blank), at most 65535 (OpenCL
 * counts platforms and devices in cl_uint, and no machine has more); *end is the first
 * character after it. 0 when there are no digits, -1 when the number is larger. */
static int parse_index(const char *s, int *value, const char **end)
{
    long v = 0;
    const char *c = s;
    for (; *c >= '0' && *c <= '9'; c++)
        if ((v = v * 10 + (*c - '0')) > 65535) v = 65536; /* saturate: no overflow */
    *end = c;
    if (c == s) return 0;
    *value = (int)v;
    return v > 65535 ? -1 : 1;
}

/* The index of the device spec chooses in list, -1 when none matches, -2 for a malformed
 * spec, -3 for a P:D spec with an index out of range. Without a spec: the first GPU, else
 * the first CPU, else the first device. */
static int choose(const char *spec, const device_list *list)
{
    int chosen = -1, p, d, kp, kd;
    const char *end;
    if (!spec || !*spec) {
        for (int i = 0; i < list->count && chosen < 0; i++)
            if (spec_matches("gpu", list, i)) chosen = i;
        for (int i = 0; i < list->count && chosen < 0; i++)
            if (spec_matches("cpu", list, i)) chosen = i;
        return chosen < 0 && list->count > 0 ? 0 : chosen;
    }
    if ((kp = parse_index(spec, &p, &end)) != 0 && *end == ':' &&
        (kd = parse_index(end + 1, &d, &end)) != 0 && *end == 0) {
        if (kp < 0 || kd < 0) return -3;
        for (int i = 0; i < list->count; i++)
            if (list->pindex[i] == p && list->dindex[i] == d) chosen = i;
        return chosen;
    }
    if (strcasecmp(spec, "gpu") && strcasecmp(spec, "cpu") && strcasecmp(spec, "nvidia") &&
        strcasecmp(spec, "pocl"))
        return -2;
    for (int i = 0; i < list->count && chosen < 0; i++)
        if (spec_matches(spec, list, i)) chosen = i;
    return chosen;
}

bchol_status bchol__select_device(const char *spec, cl_platform_id *platform,
                                  cl_device_id *device, int *pindex, int *dindex)
{
    device_list list;
    if (!spec || !*spec) spec = getenv("BCHOL_DEVICE");
    int chosen;
    /* A platform that answered with an error (not "no device") may be busy: NVIDIA's driver
     * was seen to list no device for a few seconds while many processes started on it
     * (H200, 2026-11-24). Look again a few times before giving up. */
    for (int attempt = 0;; attempt++) {
        list_devices(&list);
        chosen = choose(spec, &list);
        if (chosen >= 0 || chosen <= -2 || !list.transient || attempt == 3) break;
        struct timespec pause = {0, 250000000L << attempt}; /* 0.25, 0.5, 1 s */
        if (pause.tv_nsec >= 1000000000L) pause = (struct timespec){1, 0};
        nanosleep(&pause, NULL);
    }
    if (chosen == -2)
        return bchol__fail(NULL, BCHOL_ERR_DEVICE_SPEC,
                           "device spec \"%s\" is not one of nvidia, pocl, gpu, cpu or "
                           "P:D (platform:device, as `bchol devices` lists them)",
                           spec);
    if (chosen == -3)
        return bchol__fail(NULL, BCHOL_ERR_DEVICE_SPEC,
                           "device spec \"%s\": a platform or device index is larger than 65535",
                           spec);
    if (list.count == 0)
        return bchol__fail(NULL, BCHOL_ERR_NO_DEVICE,
                           "no OpenCL device found (is an ICD such as pocl-opencl-icd "
                           "installed?)%s%s%s",
                           list.seen[0] ? " (platforms: " : "", list.seen, list.seen[0] ? ")" : "");
    if (chosen < 0)
        return bchol__fail(NULL, BCHOL_ERR_DEVICE_SPEC,
                           "no OpenCL device matches the device spec \"%s\" (platforms: %s)",
                           spec, list.seen[0] ? list.seen : "none");
    *platform = list.platform[chosen];
    *device = list.device[chosen];
    *pindex = list.pindex[chosen];
    *dindex = list.dindex[chosen];
    return BCHOL_SUCCESS;
}
