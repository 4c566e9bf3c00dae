/* On-disk cache of built program binaries for drivers that keep none of their own
 * (NVIDIA's compiles every program anew). Keyed by a hash of source, options, device
 * name, driver and platform version; written atomically (temporary file + rename); a
 * binary that does not load is ignored and replaced by a fresh build.
 * Location: $BCHOL_CACHE_DIR ("off" disables), else $XDG_CACHE_HOME/bchol, else
 * $HOME/.cache/bchol. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h ^ 0xff; /* separator, so that ("ab","c") and ("a","bc") differ */
}

void bchol__build_key(const bchol_context *ctx, const char *text, const char *options,
                      char key[33])
{
    const char *parts[] = {text, options, ctx->info.raw_name, ctx->info.driver,
                           ctx->info.platform_version, BCHOL_VERSION};
    uint64_t h1 = 0xcbf29ce484222325ULL, h2 = 0x84222325cbf29ce4ULL;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        h1 = fnv1a(h1, parts[i]);
        h2 = fnv1a(h2 * 31 + i, parts[i]);
    }
    snprintf(key, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
}

/* Returns 0 and the cache folder, or -1 when the cache is off or has no home. */
static int cache_dir(char *dir, size_t size)
{
    const char *env = getenv("BCHOL_CACHE_DIR");
    if (env && (!strcmp(env, "off") || !strcmp(env, "0"))) return -1;
    if (env && *env)
        snprintf(dir, size, "%s", env);
    else if ((env = getenv("XDG_CACHE_HOME")) && *env)
        snprintf(dir, size, "%s/bchol", env);
    else if ((env = getenv("HOME")) && *env)
        snprintf(dir, size, "%s/.cache/bchol", env);
    else
        return -1;
    return 0;
}

static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            int bad = mkdir(path, 0755) && errno != EEXIST;
            *p = '/';
            if (bad) return -1;
        }
    return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

cl_program bchol__binary_cache_load(bchol_context *ctx, const char *key)
{
    char dir[3072], path[4096];
    if (cache_dir(dir, sizeof dir)) return NULL;
    snprintf(path, sizeof path, "%s/%s.bin", dir, key);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *binary = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (binary = malloc((size_t)size)) && fread(binary, 1, (size_t)size, f) != (size_t)size) {
        free(binary);
        binary = NULL;
    }
    fclose(f);
    if (!binary) return NULL;
    size_t len = (size_t)size;
    cl_int err, status;
    const unsigned char *bins[] = {binary};
    cl_program program =
        clCreateProgramWithBinary(ctx->cl_ctx, 1, &ctx->device, &len, bins, &status, &err);
    free(binary);
    if (!program) return NULL;
    if (status != CL_SUCCESS || clBuildProgram(program, 1, &ctx->device, NULL, NULL, NULL)) {
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

void bchol__binary_cache_store(bchol_context *ctx, const char *key, cl_program program)
{
    char dir[3072], tmp[4096], path[4096];
    size_t size = 0;
    if (cache_dir(dir, sizeof dir) || make_dirs(dir)) return;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) || !size)
        return;
    unsigned char *binary = malloc(size);
    if (!binary) return;
    unsigned char *bins[] = {binary};
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS) {
        snprintf(path, sizeof path, "%s/%s.bin", dir, key);
        snprintf(tmp, sizeof tmp, "%s/%s.%ld.%p.tmp", dir, key, (long)getpid(), (void *)&size);
        FILE *f = fopen(tmp, "wb");
        if (f) {
            int ok = fwrite(binary, 1, size, f) == size;
            ok = (fclose(f) == 0) && ok;
            /* rename() is atomic: readers see the old file or the whole new one. */
            if (!ok || rename(tmp, path)) remove(tmp);
        }
    }
    free(binary);
}
