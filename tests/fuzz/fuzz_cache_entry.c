/* Fuzz target: the binary cache's entry reader (host/core/cache_entry.c through file_read.c),
 * everything bchol does with an entry before the driver sees its binary. No device: the
 * target compiles those two files itself. Each input is
 *   - parsed as an entry, expecting the digest its own header names (so that inputs get
 *     past the digest check to the length and checksum): accepted only if its header is
 *     exactly the one bchol writes for that binary;
 *   - written to a private file and read as an entry from a folder: the same verdict;
 *   - taken as a binary, given a header and parsed back (accepted, the same bytes), then
 *     with one byte changed, cut short, one byte longer, or expecting another digest:
 *     always refused.
 * Any disagreement aborts (libFuzzer keeps the input). */
#include "core/cache_entry.h"
#include "core/file_read.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FZ_REQUIRE(cond, what)                                                                     \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_cache_entry: %s (%s)\n", what, #cond);                           \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static char folder[256];
static int folder_fd = -1;

static void remove_folder(void) {
    if (folder_fd >= 0) {
        unlinkat(folder_fd, "entry.bin", 0);
        close(folder_fd);
    }
    rmdir(folder);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    /* in memory where there is such a folder: on a disk, writing the file is most of the
     * time (260 runs a second instead of 23,000 here) */
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp) tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(folder, sizeof folder, "%s/fuzz-cache-XXXXXX", tmp);
    FZ_REQUIRE(mkdtemp(folder), "no temporary folder");
    folder_fd = open(folder, O_RDONLY | O_DIRECTORY);
    FZ_REQUIRE(folder_fd >= 0, "temporary folder");
    atexit(remove_folder);
    return 0;
}

static const char other[] = "00112233445566778899aabbccddeeff";

static int parses(const unsigned char *e, size_t n, const char *digest) {
    const unsigned char *bin;
    size_t len;
    char why[256];
    int bad = bchol__cache_entry_parse(e, n, digest, &bin, &len, why, sizeof why);
    FZ_REQUIRE(bad || (bin == e + BCHOL_CACHE_HEADER_BYTES && len == n - BCHOL_CACHE_HEADER_BYTES),
               "accepted binary is not the rest of the entry");
    FZ_REQUIRE(!bad || (!bin && !len && *why), "refused without a reason");
    return !bad;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* 1. the input as an entry, against the digest its header names */
    char digest[33];
    if (size >= 48)
        memcpy(digest, data + 16, 32);
    else
        memcpy(digest, other, 32);
    digest[32] = 0;
    int ok = parses(data, size, digest);
    if (ok) {
        unsigned char header[BCHOL_CACHE_HEADER_BYTES];
        bchol__cache_entry_header(header, digest, data + BCHOL_CACHE_HEADER_BYTES,
                                  size - BCHOL_CACHE_HEADER_BYTES);
        FZ_REQUIRE(!memcmp(header, data, sizeof header), "accepted a header bchol does not write");
    }

    /* 2. the same bytes as a file of the cache folder */
    int fd = openat(folder_fd, "entry.bin", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
    FZ_REQUIRE(fd >= 0, "cannot write the entry file");
    FZ_REQUIRE(write(fd, data, size) == (ssize_t)size && close(fd) == 0, "writing the entry");
    FZ_REQUIRE(fchmodat(folder_fd, "entry.bin", 0600, 0) == 0, "chmod");
    char *entry = NULL, why[256];
    const unsigned char *bin;
    size_t len;
    int r = bchol__cache_entry_read(folder_fd, "entry.bin", digest, &entry, &bin, &len, why,
                                    sizeof why);
    FZ_REQUIRE((r == BCHOL_READ_OK) == ok, "the file and the bytes read differently");
    FZ_REQUIRE(!ok || (len == size - BCHOL_CACHE_HEADER_BYTES &&
                       !memcmp(bin, data + BCHOL_CACHE_HEADER_BYTES, len)),
               "the file's binary is not the input's");
    FZ_REQUIRE(ok || !entry, "a refused entry was handed back");
    free(entry);

    /* 3. the input as a binary: a made entry parses back, every change to it is refused */
    if (!size) return 0;
    size_t n = BCHOL_CACHE_HEADER_BYTES + size;
    unsigned char *e = malloc(n + 1);
    FZ_REQUIRE(e, "out of memory");
    bchol__cache_entry_header(e, other, data, size);
    memcpy(e + BCHOL_CACHE_HEADER_BYTES, data, size);
    FZ_REQUIRE(parses(e, n, other), "a made entry was refused");
    uint64_t h = bchol__fnv1a64(BCHOL_FNV_OFFSET, data, size);
    size_t at = (size_t)(h % n);
    unsigned char flip = (unsigned char)(1 + (h >> 32) % 255);
    e[at] ^= flip;
    FZ_REQUIRE(!parses(e, n, other), "an entry with a byte changed was accepted");
    e[at] ^= flip;
    FZ_REQUIRE(!parses(e, n - 1 - (size_t)((h >> 16) % n), other), "a cut entry was accepted");
    e[n] = (unsigned char)h;
    FZ_REQUIRE(!parses(e, n + 1, other), "a longer entry was accepted");
    char another[33];
    memcpy(another, other, sizeof another);
    another[h % 32] = another[h % 32] == 'f' ? '0' : 'f';
    FZ_REQUIRE(!parses(e, n, another), "an entry of another build was accepted");
    free(e);
    return 0;
}
