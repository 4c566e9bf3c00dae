/* The device families bchol knows, tried in order; generic matches every device. */
#include "backends/backend.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const bchol_backend *const backends[] = {
    &bchol__backend_nvidia,
    &bchol__backend_pocl,
    &bchol__backend_generic,
};

const bchol_backend *bchol__backend_for(cl_platform_id platform, cl_device_id device,
                                        const bchol_device_info *info)
{
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
        if (backends[i]->matches(platform, device, info)) return backends[i];
    return &bchol__backend_generic;
}

void bchol__normalize_vendor(char *vendor, size_t size)
{
    static const struct { const char *needle, *name; } known[] = {
        {"nvidia", "NVIDIA"},       {"genuineintel", "Intel"}, {"intel", "Intel"},
        {"authenticamd", "AMD"},    {"advanced micro", "AMD"}, {"amd", "AMD"},
        {"arm", "ARM"},             {"qualcomm", "Qualcomm"},  {"apple", "Apple"},
    };
    char lower[128];
    size_t i;
    for (i = 0; vendor[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)((vendor[i] >= 'A' && vendor[i] <= 'Z') ? vendor[i] + 32 : vendor[i]);
    lower[i] = 0;
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strstr(lower, known[i].needle)) {
            snprintf(vendor, size, "%s", known[i].name);
            return;
        }
}
