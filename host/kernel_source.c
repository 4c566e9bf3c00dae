/* Kernel sources: embedded at build time, or read from $BCHOL_KERNEL_DIR so that kernels
 * can be edited without rebuilding the library. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bchol_embedded {
    const char *name;
    const char *text;
};
extern const struct bchol_embedded bchol__embedded_kernels[];

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)size + 1))) {
            if (fread(text, 1, (size_t)size, f) != (size_t)size) {
                free(text);
                text = NULL;
            } else {
                text[size] = 0;
            }
        }
    }
    fclose(f);
    return text;
}

bchol_status bchol__kernel_source(const bchol_context *ctx, const char *name, char **text)
{
    const char *dir = getenv("BCHOL_KERNEL_DIR");
    *text = NULL;
    if (dir && *dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (!(*text = read_file(path)))
            return bchol__fail(ctx, BCHOL_ERR_KERNEL_SOURCE,
                               "kernel source %s could not be read (BCHOL_KERNEL_DIR=%s)", path,
                               dir);
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
