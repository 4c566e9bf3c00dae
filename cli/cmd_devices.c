/* bchol devices: every OpenCL device with the identity bchol matches tuning data on. */
#include "bchol.h"
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>

int cmd_devices(int argc, char **argv)
{
    int count = bchol_device_count();
    if (count == 0) {
        printf("no OpenCL devices (install an ICD, e.g. pocl-opencl-icd)\n");
        return 1;
    }
    bchol_context *ctx = NULL;
    bchol_device_info def = {0};
    if (bchol_context_create(NULL, &ctx) == BCHOL_SUCCESS) bchol_context_device_info(ctx, &def);
    for (int i = 0; i < count; i++) {
        bchol_device_info d;
        if (bchol_device_info_at(i, &d)) continue;
        int is_default = ctx && d.platform_index == def.platform_index && d.device_index == def.device_index;
        printf("%d:%d%s  %s\n", d.platform_index, d.device_index, is_default ? " (default)" : "",
               d.raw_name);
        printf("    platform      %s (%s)\n", d.platform, d.platform_version);
        printf("    family        %s\n", d.family);
        printf("    vendor        %s\n", d.vendor);
        printf("    architecture  %s\n", *d.architecture ? d.architecture : "-");
        printf("    name          %s\n", d.name);
        printf("    driver        %s\n", d.driver);
        printf("    type          %s\n", d.type & CL_DEVICE_TYPE_GPU ? "GPU" : d.type & CL_DEVICE_TYPE_CPU ? "CPU" : "other");
        printf("    fp64          %s\n", d.fp64 ? "yes" : "no");
        printf("    compute units %u\n", d.compute_units);
        printf("    local memory  %llu KiB (%llu bytes usable by a kernel)\n",
               (unsigned long long)(d.local_mem / 1024), (unsigned long long)d.local_mem_usable);
        printf("    global memory %.1f GiB (largest allocation %.1f GiB)\n", d.global_mem / 1073741824.0,
               d.max_alloc / 1073741824.0);
        printf("    work-group    %zu work-items at most\n", d.max_work_group);
    }
    bchol_context_destroy(ctx);
    return 0;
}
