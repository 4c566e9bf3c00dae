/* Kernel sources: embedded at build time, or read from $BCHOL_KERNEL_DIR so that kernels
 * can be edited without rebuilding the library. */
#include "core/file_read.h"
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bchol_embedded {
    const char *name;
    const char *text;
};
extern const struct bchol_embedded bchol__embedded_kernels[];

/* No kernel source comes near this: a larger file is a mistake, not a kernel. */
#define MAX_SOURCE_BYTES (16u << 20)

bchol_status bchol__kernel_source(const bchol_context *ctx, const char *name, char **text)
{
    const char *dir = getenv("BCHOL_KERNEL_DIR");
    *text = NULL;
    if (dir && *dir) {
        char path[4096], why[200];
        size_t size;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (bchol__read_file(path, 0, MAX_SOURCE_BYTES, text, &size, why, sizeof why))
            return bchol__fail(ctx, BCHOL_ERR_KERNEL_SOURCE,
                               "kernel source %s %s (BCHOL_KERNEL_DIR=%s)", path, why, dir);
        return BCHOL_SUCCESS;
    }
    for (const struct bchol_embedded *k = bchol__embedded_kernels; k->name; k++)
        if (!strcmp(k->name, name)) {
            if (!(*text = strdup(k->text)))
                return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "no memory for kernel %s", name);
            return BCHOL_SUCCESS;
        }
    return bchol__fail(ctx, BCHOL_ERR_KERNEL_SOURCE, "kernel source %s is not embedded", name);
}
