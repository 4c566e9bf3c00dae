/* Platform and device discovery, device selection by spec, normalized identity. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    backend->identify(device, info);
    return BCHOL_SUCCESS;
}

/* Every device of every platform in a fixed order. */
typedef struct {
    int count;
    cl_platform_id platform[MAX_DEVICES];
    cl_device_id device[MAX_DEVICES];
    int pindex[MAX_DEVICES], dindex[MAX_DEVICES];
} device_list;

static void list_devices(device_list *list)
{
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint np = 0;
    list->count = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, platforms, &np) != CL_SUCCESS) return;
    if (np > MAX_PLATFORMS) np = MAX_PLATFORMS;
    for (cl_uint p = 0; p < np; p++) {
        cl_device_id devices[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devices, &nd) !=
            CL_SUCCESS)
            continue;
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

bchol_status bchol__select_device(const char *spec, cl_platform_id *platform,
                                  cl_device_id *device, int *pindex, int *dindex)
{
    device_list list;
    if (!spec || !*spec) spec = getenv("BCHOL_DEVICE");
    list_devices(&list);
    if (list.count == 0)
        return bchol__fail(NULL, BCHOL_ERR_NO_DEVICE,
                           "no OpenCL device found (is an ICD such as pocl-opencl-icd "
                           "installed?)");
    int chosen = -1;
    if (!spec || !*spec) {
        for (int i = 0; i < list.count && chosen < 0; i++)
            if (spec_matches("gpu", &list, i)) chosen = i;
        for (int i = 0; i < list.count && chosen < 0; i++)
            if (spec_matches("cpu", &list, i)) chosen = i;
        if (chosen < 0) chosen = 0;
    } else {
        int p, d, used = 0;
        if (sscanf(spec, "%d:%d%n", &p, &d, &used) == 2 && spec[used] == 0) {
            for (int i = 0; i < list.count; i++)
                if (list.pindex[i] == p && list.dindex[i] == d) chosen = i;
        } else if (!strcasecmp(spec, "gpu") || !strcasecmp(spec, "cpu") ||
                   !strcasecmp(spec, "nvidia") || !strcasecmp(spec, "pocl")) {
            for (int i = 0; i < list.count && chosen < 0; i++)
                if (spec_matches(spec, &list, i)) chosen = i;
        } else {
            return bchol__fail(NULL, BCHOL_ERR_DEVICE_SPEC,
                               "device spec \"%s\" is not one of nvidia, pocl, gpu, cpu or "
                               "P:D (platform:device, as `bchol devices` lists them)",
                               spec);
        }
        if (chosen < 0)
            return bchol__fail(NULL, BCHOL_ERR_DEVICE_SPEC,
                               "no OpenCL device matches the device spec \"%s\"", spec);
    }
    *platform = list.platform[chosen];
    *device = list.device[chosen];
    *pindex = list.pindex[chosen];
    *dindex = list.dindex[chosen];
    return BCHOL_SUCCESS;
}
