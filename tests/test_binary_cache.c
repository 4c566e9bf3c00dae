/*
 * bchol's on-disk binary cache (host/core/binary_cache.c), forced on for PoCL with
 * BCHOL_BINARY_CACHE=on, and files that are not regular files where bchol reads files.
 * One case per run: test_binary_cache <case> [kernel source folder]; exit code 0 on pass.
 *
 *   modes             folders the cache makes are 0700, entries 0600, whatever the umask;
 *                     a second context loads every program from them
 *   shared_dir        a cache folder writable by group or others is not used (one warning)
 *   shared_entry      an entry writable by others, a link, or (as root) another user's:
 *                     not loaded (one warning), rebuilt and replaced by a private one
 *   tamper            entries with bytes flipped, cut short, swapped with another's, of the
 *                     old headerless format or over the size cap: rebuilt and replaced
 *   fifo_tuning_file  a FIFO as BCHOL_TUNING_FILE, as a *.json of BCHOL_TUNING_DIR, as the
 *   fifo_tuning_dir   kernels of BCHOL_KERNEL_DIR, as a cache entry: refused at once (the
 *   fifo_kernel_dir   run has an alarm; before the fix each blocked in open() forever)
 *   fifo_cache_entry
 *
 * Every factorization is checked (info and backward error); cl_shim counts the programs
 * made from source and from binaries, which says whether an entry was used.
 */
#include "bchol.h"
#include "bchol_util.h"
#include "core/cache_entry.h"
#include "cl_shim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_check.h"
#include "test_skip.h"


static char root[256], cache[512];
static int warnings;
static char last[1024];

static void on_message(const char *message, void *user) {
    (void)user;
    warnings++;
    snprintf(last, sizeof last, "%s", message);
    printf("  warning: %s\n", message);
}

/* Factors a float and a double batch (two programs, so two entries) on a new context;
 * returns the programs built from source during the run. */
static long factor_batches(const char *what) {
    long before = shim_programs(0);
    bchol_context *ctx;
    bchol_status st = bchol_context_create(NULL, &ctx);
    CHECK(st == BCHOL_SUCCESS, "%s: context: %s", what, bchol_last_error(NULL));
    if (st) return -1;
    bchol_set_message_handler(ctx, on_message, NULL);
    enum { N = 9, BATCH = 5 };
    for (int dbl = 0; dbl < 2; dbl++) {
        size_t es = dbl ? sizeof(double) : sizeof(float), count = (size_t)N * N * BATCH;
        unsigned char *a = malloc(count * es), *f = malloc(count * es);
        int info[BATCH];
        util_rng r;
        util_rng_seed(&r, 17 + (uint64_t)dbl);
        for (int b = 0; b < BATCH; b++)
            util_spd(a + (size_t)b * N * N * es, dbl, 'L', N, N, &r);
        memcpy(f, a, count * es);
        st = dbl ? bchol_dpotrf_batched_host(ctx, 'L', N, (double *)f, N, N * N, BATCH, info)
                 : bchol_spotrf_batched_host(ctx, 'L', N, (float *)f, N, N * N, BATCH, info);
        CHECK(st == BCHOL_SUCCESS, "%s: %cpotrf: %s", what, dbl ? 'd' : 's', bchol_last_error(ctx));
        for (int b = 0; !st && b < BATCH; b++) {
            double err = util_backward_error(a + (size_t)b * N * N * es, f + (size_t)b * N * N * es,
                                             dbl, 'L', N, N);
            CHECK(info[b] == 0 && err < 10, "%s: %cpotrf matrix %d: info %d, backward error %g",
                  what, dbl ? 'd' : 's', b, info[b], err);
        }
        free(a);
        free(f);
    }
    bchol_context_destroy(ctx);
    return shim_programs(0) - before;
}

/* The names of the cache's entries (*.bin), up to max; their count. */
static int entries(char names[][64], int max) {
    DIR *d = opendir(cache);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len > 4 && len < 64 && !strcmp(e->d_name + len - 4, ".bin"))
            snprintf(names[n++], 64, "%s", e->d_name);
    }
    if (d) closedir(d);
    return n;
}

static void path_of(char *out, size_t size, const char *name) {
    snprintf(out, size, "%s/%s", cache, name);
}

/* Every file of the cache is a private regular file holding an intact entry of the
 * build its name says, and no temporary file is left. */
static void check_cache(const char *what) {
    DIR *d = opendir(cache);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        path_of(path, sizeof path, e->d_name);
        struct stat st;
        CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600 &&
                  st.st_uid == geteuid(),
              "%s: %s: not a private regular file (mode %o)", what, e->d_name,
              (unsigned)st.st_mode);
        size_t len = strlen(e->d_name);
        CHECK(len == 36 && !strcmp(e->d_name + 32, ".bin"), "%s: %s: not an entry", what,
              e->d_name);
        FILE *f = fopen(path, "rb");
        static unsigned char buf[BCHOL_CACHE_MAX_ENTRY_BYTES / 16];
        size_t size = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f) fclose(f);
        const unsigned char *bin;
        size_t blen;
        char why[256], digest[33];
        snprintf(digest, sizeof digest, "%.32s", e->d_name);
        CHECK(bchol__cache_entry_parse(buf, size, digest, &bin, &blen, why, sizeof why) == 0,
              "%s: %s %s", what, e->d_name, why);
        n++;
    }
    if (d) closedir(d);
    CHECK(n >= 2, "%s: %d entries in the cache, expected one per program", what, n);
}

static void setup(void) {
    snprintf(root, sizeof root, "%s/bchol-bc-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        exit(2);
    }
    snprintf(cache, sizeof cache, "%s/x/y/cache", root);
    setenv("BCHOL_BINARY_CACHE", "on", 1);
    setenv("BCHOL_CACHE_DIR", cache, 1);
    setenv("BCHOL_TUNING_FILE", "off", 1); /* its warnings are not this test's */
}

static void cleanup(void) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd)) printf("could not remove %s\n", root);
}

static int mode_of(const char *path) {
    struct stat st;
    return lstat(path, &st) ? -1 : (int)(st.st_mode & 07777);
}

/* Folders made 0700 and entries 0600 under umask 0; the next context builds nothing. */
static void case_modes(void) {
    umask(0);
    factor_batches("first run");
    char path[600];
    snprintf(path, sizeof path, "%s/x", root);
    CHECK(mode_of(path) == 0700, "folder %s has mode %o", path, mode_of(path));
    snprintf(path, sizeof path, "%s/x/y", root);
    CHECK(mode_of(path) == 0700, "folder %s has mode %o", path, mode_of(path));
    CHECK(mode_of(cache) == 0700, "folder %s has mode %o", cache, mode_of(cache));
    check_cache("after the first run");
    long made = shim_programs(1);
    CHECK(factor_batches("second run") == 0, "the second run built from source");
    CHECK(shim_programs(1) - made >= 2, "the second run loaded %ld binaries",
          shim_programs(1) - made);
    CHECK(warnings == 0, "%d warnings", warnings);
}

/* A folder others (or the group) may write is not used: no entry read or written. */
static void case_shared_dir(void) {
    factor_batches("filling the cache");
    char names[8][64];
    int n = entries(names, 8);
    static const int modes[] = {0777, 0770, 0702};
    for (int m = 0; m < 3; m++) {
        CHECK(chmod(cache, (mode_t)modes[m]) == 0, "chmod");
        long made = shim_programs(1);
        warnings = 0;
        factor_batches("shared folder");
        CHECK(shim_programs(1) == made, "mode %o: an entry was loaded from the shared folder",
              modes[m]);
        /* one warning per process: only the first mode gives it */
        CHECK(warnings == (m == 0), "mode %o: %d warnings", modes[m], warnings);
        CHECK(m > 0 || strstr(last, "binary cache folder"), "warning: %s", last);
    }
    CHECK(entries(names, 8) == n, "entries were written to the shared folder");
}

/* Entries others may write, links and (as root) another user's entries are not loaded. */
static void case_shared_entry(void) {
    factor_batches("filling the cache");
    char names[8][64], path[1024], elsewhere[1024];
    int n = entries(names, 8);
    CHECK(n >= 2, "%d entries", n);
    for (int kind = 0; kind < 4 && n >= 2; kind++) {
        const char *what = kind == 0   ? "world-writable entries"
                           : kind == 1 ? "group-writable entries"
                           : kind == 2 ? "links to entries"
                                       : "entries of another user";
        if (kind == 3 && geteuid() != 0) {
            printf("  (%s: not root, skipped)\n", what);
            break;
        }
        for (int i = 0; i < n; i++) {
            path_of(path, sizeof path, names[i]);
            if (kind == 0) CHECK(chmod(path, 0666) == 0, "chmod");
            if (kind == 1) CHECK(chmod(path, 0620) == 0, "chmod");
            if (kind == 2) {
                snprintf(elsewhere, sizeof elsewhere, "%s/%s", root, names[i]);
                CHECK(rename(path, elsewhere) == 0 && symlink(elsewhere, path) == 0, "symlink");
            }
            if (kind == 3) CHECK(chown(path, 1, 1) == 0, "chown");
        }
        int before = warnings;
        long made = shim_programs(1);
        CHECK(factor_batches(what) >= 2, "%s: not rebuilt", what);
        CHECK(shim_programs(1) == made, "%s: loaded", what);
        CHECK(warnings == before + (kind == 0), "%s: %d warnings", what, warnings - before);
        check_cache(what);
    }
}

static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) ? -1 : (long)st.st_size;
}

static void read_all(const char *path, unsigned char **data, size_t *size) {
    FILE *f = fopen(path, "rb");
    long s = file_size(path);
    *data = malloc(s > 0 ? (size_t)s : 1);
    *size = f && s > 0 ? fread(*data, 1, (size_t)s, f) : 0;
    if (f) fclose(f);
}

static void write_all(const char *path, const unsigned char *data, size_t size) {
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "writing %s", path);
}

/* Damaged and swapped entries: never loaded, rebuilt, replaced, results right. */
static void case_tamper(void) {
    static const char *const kinds[] = {"a byte of the binary flipped",
                                        "a byte of the header flipped",
                                        "cut to half",
                                        "cut to the header",
                                        "empty",
                                        "swapped with another entry",
                                        "headerless (old format)",
                                        "one byte appended",
                                        "over the size cap"};
    const int nkinds = (int)(sizeof kinds / sizeof kinds[0]);
    factor_batches("filling the cache");
    char names[8][64], path[1024];
    int n = entries(names, 8);
    CHECK(n >= 2, "%d entries", n);
    for (int k = 0; k < nkinds && n >= 2; k++) {
        unsigned char *data[8];
        size_t size[8];
        for (int i = 0; i < n; i++) {
            path_of(path, sizeof path, names[i]);
            read_all(path, &data[i], &size[i]);
        }
        for (int i = 0; i < n; i++) {
            path_of(path, sizeof path, names[i]);
            unsigned char *d = data[i];
            size_t s = size[i];
            switch (k) {
            case 0:
                d[BCHOL_CACHE_HEADER_BYTES + (s - BCHOL_CACHE_HEADER_BYTES) / 2] ^= 0x10;
                break;
            case 1:
                d[20] ^= 1;
                break;
            case 2:
                s /= 2;
                break;
            case 3:
                s = BCHOL_CACHE_HEADER_BYTES;
                break;
            case 4:
                s = 0;
                break;
            case 5:
                d = data[(i + 1) % n], s = size[(i + 1) % n];
                break;
            case 6:
                d += BCHOL_CACHE_HEADER_BYTES, s -= BCHOL_CACHE_HEADER_BYTES;
                break;
            }
            if (k == 7) {
                FILE *f = fopen(path, "ab");
                CHECK(f && fputc(0, f) == 0 && fclose(f) == 0, "append");
            } else if (k == 8) {
                /* sparse: the cap is checked before anything is read or allocated */
                CHECK(truncate(path, (off_t)BCHOL_CACHE_MAX_ENTRY_BYTES + 1) == 0, "truncate");
            } else {
                write_all(path, d, s);
            }
            CHECK(chmod(path, 0600) == 0, "chmod");
        }
        for (int i = 0; i < n; i++)
            free(data[i]);
        long made = shim_programs(1);
        CHECK(factor_batches(kinds[k]) >= 2, "%s: not rebuilt", kinds[k]);
        CHECK(shim_programs(1) == made, "%s: a damaged entry reached the driver", kinds[k]);
        check_cache(kinds[k]);
    }
    /* one warning per process, and the next run uses the replaced entries */
    CHECK(warnings == 1, "%d warnings", warnings);
    CHECK(factor_batches("after the repairs") == 0, "the repaired entries were not used");
}

/* A FIFO as BCHOL_TUNING_FILE, *.json of BCHOL_TUNING_DIR, kernel files, cache entries. */
static void case_fifo(const char *where, const char *kernels) {
    char path[1024];
    alarm(120); /* a blocked open() ends the run: a failure, not a hung CI */
    if (!strcmp(where, "tuning_file")) {
        snprintf(path, sizeof path, "%s/tuning.json", root);
        CHECK(mkfifo(path, 0600) == 0, "mkfifo");
        setenv("BCHOL_TUNING_FILE", path, 1);
        factor_batches("FIFO as BCHOL_TUNING_FILE");
        CHECK(warnings == 1 && strstr(last, "not a regular file"), "%d warnings: %s", warnings,
              last);
    } else if (!strcmp(where, "tuning_dir")) {
        snprintf(path, sizeof path, "%s/a.json", root);
        CHECK(mkfifo(path, 0600) == 0, "mkfifo");
        unsetenv("BCHOL_TUNING_FILE");
        setenv("BCHOL_TUNING_DIR", root, 1);
        factor_batches("FIFO in BCHOL_TUNING_DIR");
        CHECK(warnings == 1 && strstr(last, "not a regular file"), "%d warnings: %s", warnings,
              last);
    } else if (!strcmp(where, "kernel_dir")) {
        /* every kernel file a FIFO: the first one read is refused */
        static const char *const subdirs[] = {"common", "blas", "layout", "chol"};
        int made = 0;
        CHECK(kernels, "no kernel folder given");
        for (int i = 0; kernels && i < 4; i++) {
            char from[512];
            snprintf(from, sizeof from, "%s/%s", kernels, subdirs[i]);
            snprintf(path, sizeof path, "%s/%s", root, subdirs[i]);
            mkdir(path, 0700);
            DIR *d = opendir(from);
            CHECK(d, "no kernel folder %s", from);
            struct dirent *e;
            while (d && (e = readdir(d)))
                if (strstr(e->d_name, ".cl")) {
                    snprintf(path, sizeof path, "%s/%s/%s", root, subdirs[i], e->d_name);
                    made += mkfifo(path, 0600) == 0;
                }
            if (d) closedir(d);
        }
        CHECK(made > 0, "no FIFO made");
        setenv("BCHOL_KERNEL_DIR", root, 1);
        bchol_context *ctx;
        CHECK(bchol_context_create(NULL, &ctx) == BCHOL_SUCCESS, "context");
        float a[4] = {4, 1, 1, 3};
        int info[1];
        bchol_status st = bchol_spotrf_batched_host(ctx, 'L', 2, a, 2, 4, 1, info);
        CHECK(st == BCHOL_ERR_KERNEL_SOURCE && strstr(bchol_last_error(ctx), "not a regular file"),
              "status %d: %s", (int)st, bchol_last_error(ctx));
        bchol_context_destroy(ctx);
    } else if (!strcmp(where, "cache_entry")) {
        factor_batches("filling the cache");
        char names[8][64];
        int n = entries(names, 8);
        CHECK(n >= 2, "%d entries", n);
        for (int i = 0; i < n; i++) {
            path_of(path, sizeof path, names[i]);
            CHECK(unlink(path) == 0 && mkfifo(path, 0600) == 0, "mkfifo");
        }
        alarm(60); /* from here on, a blocked open() is the only way to take this long */
        long made = shim_programs(1);
        CHECK(factor_batches("FIFOs as entries") >= 2, "not rebuilt");
        CHECK(shim_programs(1) == made, "loaded");
        CHECK(warnings == 1 && strstr(last, "not a regular file"), "%d warnings: %s", warnings,
              last);
        check_cache("FIFOs replaced");
    } else {
        CHECK(0, "unknown FIFO case %s", where);
    }
    alarm(0);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_binary_cache <case> [kernel folder]\n");
        return 2;
    }
    /* each case factors a float and a double batch (two programs, two entries) */
    if (test_no_fp64()) {
        printf("skipped: no fp64 (the cases build a double program)\n");
        return TEST_SKIP;
    }
    setup();
    const char *c = argv[1];
    if (!strcmp(c, "modes"))
        case_modes();
    else if (!strcmp(c, "shared_dir"))
        case_shared_dir();
    else if (!strcmp(c, "shared_entry"))
        case_shared_entry();
    else if (!strcmp(c, "tamper"))
        case_tamper();
    else if (!strncmp(c, "fifo_", 5))
        case_fifo(c + 5, argc > 2 ? argv[2] : NULL);
    else {
        fprintf(stderr, "test_binary_cache: unknown case %s\n", c);
        failures++;
    }
    cleanup();
    printf("%s: %s\n", c, failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
