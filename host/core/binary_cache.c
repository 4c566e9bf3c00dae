/* On-disk cache of built program binaries for drivers that keep none of their own
 * (NVIDIA's compiles every program anew). Keyed by a digest of source, options, device
 * name, driver and platform version; each entry carries that digest, its length and a
 * checksum (cache_entry.c), checked before the driver sees the binary; an entry that
 * fails any check, or does not load, is rebuilt and replaced.
 * Location: $BCHOL_CACHE_DIR ("off" disables), else $XDG_CACHE_HOME/bchol, else
 * $HOME/.cache/bchol.
 * Trust: bchol runs what it finds there, so the folder and each entry must be the user's
 * own and writable by no one else (else one warning per process, and the folder or entry
 * is not used); folders are made 0700 and entries 0600 whatever the umask, written to a
 * temporary file made exclusively (no links followed) in the folder and renamed over the
 * entry. */
#include "core/cache_entry.h"
#include "core/file_read.h"
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void bchol__build_key(const bchol_context *ctx, const char *text, const char *options,
                      char key[33])
{
    const char *parts[] = {text, options, ctx->info.raw_name, ctx->info.driver,
                           ctx->info.platform_version, BCHOL_VERSION};
    bchol__cache_digest(parts, (int)(sizeof parts / sizeof parts[0]), key);
}

/* One warning per process for a refused folder, and one for an unusable entry: a cache
 * that someone else can write stays so for every program of every context. */
static int warned_dir, warned_entry;

static void warn_once(int *flag, char *warning, size_t size, const char *fmt, ...)
{
    if (__atomic_exchange_n(flag, 1, __ATOMIC_RELAXED)) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(warning, size, fmt, ap);
    va_end(ap);
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

/* mkdir -p, each folder it makes 0700 (chmod: the umask may have taken bits away). */
static int make_dir(const char *path)
{
    if (mkdir(path, 0700)) return errno == EEXIST ? 0 : -1;
    return chmod(path, 0700);
}

static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            int bad = make_dir(path);
            *p = '/';
            if (bad) return -1;
        }
    return make_dir(path);
}

/* The cache folder, opened, checked on the descriptor; -1 when off, missing or refused. */
static int open_dir(int create, char *dir, size_t dir_size, char *warning, size_t size)
{
    if (cache_dir(dir, dir_size) || (create && make_dirs(dir))) return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    char why[200] = "cannot be examined";
    if (fstat(fd, &st) || bchol__private_mode(&st, why, sizeof why)) {
        warn_once(&warned_dir, warning, size,
                  "bchol: binary cache folder %s %s: not used (it must be this user's "
                  "alone, as the 0700 folder bchol makes)",
                  dir, why);
        close(fd);
        return -1;
    }
    return fd;
}

cl_program bchol__binary_cache_load(bchol_context *ctx, const char *key, char *warning,
                                    size_t size)
{
    char dir[3072], name[64], why[256];
    int dfd = open_dir(0, dir, sizeof dir, warning, size);
    if (dfd < 0) return NULL;
    snprintf(name, sizeof name, "%s.bin", key);
    char *entry = NULL;
    size_t len = 0;
    const unsigned char *binary = NULL;
    int r = bchol__cache_entry_read(dfd, name, key, &entry, &binary, &len, why, sizeof why);
    close(dfd);
    if (r) {
        if (r != BCHOL_READ_MISSING)
            warn_once(&warned_entry, warning, size,
                      "bchol: binary cache entry %s/%s %s: not used, rebuilt and replaced", dir,
                      name, why);
        return NULL;
    }
    cl_int err, status;
    const unsigned char *bins[] = {binary};
    cl_program program =
        clCreateProgramWithBinary(ctx->cl_ctx, 1, &ctx->device, &len, bins, &status, &err);
    free(entry);
    if (!program) return NULL;
    if (status != CL_SUCCESS || clBuildProgram(program, 1, &ctx->device, NULL, NULL, NULL)) {
        clReleaseProgram(program);
        return NULL;
    }
    return program;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Writes header and binary to a new file of the folder, then renames it over the entry:
 * readers see the old entry or the whole new one. The temporary name is made exclusively
 * and no link is followed, so nothing that waits in the folder is written through. */
static void write_entry(int dfd, const char *key, const unsigned char *binary, size_t length)
{
    static unsigned serial;
    unsigned char header[BCHOL_CACHE_HEADER_BYTES];
    char name[64], tmp[96];
    bchol__cache_entry_header(header, key, binary, length);
    snprintf(name, sizeof name, "%s.bin", key);
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 8; tries++) {
        snprintf(tmp, sizeof tmp, "%s.%ld.%u.tmp", key, (long)getpid(),
                 __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED));
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST) return;
    }
    if (fd < 0) return;
    int ok = fchmod(fd, 0600) == 0 && write_all(fd, header, sizeof header) == 0 &&
             write_all(fd, binary, length) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok || renameat(dfd, tmp, dfd, name)) unlinkat(dfd, tmp, 0);
}

void bchol__binary_cache_store(bchol_context *ctx, const char *key, cl_program program,
                               char *warning, size_t size)
{
    char dir[3072];
    size_t length = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof length, &length, NULL) ||
        !length || length > BCHOL_CACHE_MAX_ENTRY_BYTES - BCHOL_CACHE_HEADER_BYTES)
        return;
    int dfd = open_dir(1, dir, sizeof dir, warning, size);
    if (dfd < 0) return;
    unsigned char *binary = malloc(length);
    unsigned char *bins[] = {binary};
    if (binary &&
        clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
        write_entry(dfd, key, binary, length);
    free(binary);
    close(dfd);
}
