/* The binary cache's entry format: a header that binds the binary to what it was built
 * from and says how long it is and what it hashes to, so that a truncated, damaged or
 * swapped entry is never handed to the driver (PoCL aborts the process on a truncated
 * one). FNV-1a-64 finds every change of a single byte (each step is a bijection of the
 * state) and is no defence against a writer who means harm: the folder's permissions are
 * (binary_cache.c). */
#include "core/cache_entry.h"
#include "core/file_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'B', 'C', 'H', 'O', 'L', 'B', 'I', 'N'};
#define FORMAT_VERSION 1u

uint64_t bchol__fnv1a64(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void bchol__cache_digest(const char *const *parts, int nparts, char digest[33])
{
    /* two lanes of 64 bits; each part is preceded by its length, so that ("ab", "c") and
     * ("a", "bc") differ */
    uint64_t h1 = BCHOL_FNV_OFFSET, h2 = BCHOL_FNV_OFFSET ^ 0x5bd1e9955bd1e995ULL;
    for (int i = 0; i < nparts; i++) {
        uint64_t len = strlen(parts[i]);
        unsigned char prefix[8];
        for (int b = 0; b < 8; b++) prefix[b] = (unsigned char)(len >> (8 * b));
        h1 = bchol__fnv1a64(bchol__fnv1a64(h1, prefix, 8), parts[i], len);
        h2 = bchol__fnv1a64(bchol__fnv1a64(h2 * 31 + (uint64_t)i, prefix, 8), parts[i], len);
    }
    snprintf(digest, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int b = 0; b < 8; b++) p[b] = (unsigned char)(v >> (8 * b));
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int b = 7; b >= 0; b--) v = v << 8 | p[b];
    return v;
}

void bchol__cache_entry_header(unsigned char header[BCHOL_CACHE_HEADER_BYTES],
                               const char *digest, const unsigned char *binary, size_t length)
{
    memset(header, 0, BCHOL_CACHE_HEADER_BYTES);
    memcpy(header, magic, 8);
    put64(header + 8, FORMAT_VERSION | (uint64_t)BCHOL_CACHE_HEADER_BYTES << 32);
    memcpy(header + 16, digest, 32);
    put64(header + 48, length);
    put64(header + 56, bchol__fnv1a64(BCHOL_FNV_OFFSET, binary, length));
}

int bchol__cache_entry_parse(const unsigned char *entry, size_t size, const char *digest,
                             const unsigned char **binary, size_t *length, char *why,
                             size_t why_size)
{
    *binary = NULL;
    *length = 0;
    if (size < BCHOL_CACHE_HEADER_BYTES || memcmp(entry, magic, 8)) {
        snprintf(why, why_size, "is not a bchol cache entry");
        return -1;
    }
    uint64_t format = get64(entry + 8);
    if (format != (FORMAT_VERSION | (uint64_t)BCHOL_CACHE_HEADER_BYTES << 32)) {
        snprintf(why, why_size, "has another format (%#llx)", (unsigned long long)format);
        return -1;
    }
    if (memcmp(entry + 16, digest, 32)) {
        snprintf(why, why_size,
                 "was built from something else (source, options, device or driver)");
        return -1;
    }
    uint64_t want = get64(entry + 48), have = size - BCHOL_CACHE_HEADER_BYTES;
    if (want != have || !have) {
        snprintf(why, why_size, "holds %llu bytes of binary where its header says %llu",
                 (unsigned long long)have, (unsigned long long)want);
        return -1;
    }
    const unsigned char *bin = entry + BCHOL_CACHE_HEADER_BYTES;
    if (bchol__fnv1a64(BCHOL_FNV_OFFSET, bin, (size_t)have) != get64(entry + 56)) {
        snprintf(why, why_size, "is damaged (checksum mismatch)");
        return -1;
    }
    *binary = bin;
    *length = (size_t)have;
    return 0;
}

int bchol__cache_entry_read(int dirfd, const char *name, const char *digest, char **entry,
                            const unsigned char **binary, size_t *length, char *why,
                            size_t why_size)
{
    size_t size = 0;
    *binary = NULL;
    *length = 0;
    int r = bchol__read_file_at(dirfd, name, BCHOL_READ_NOFOLLOW | BCHOL_READ_PRIVATE,
                                BCHOL_CACHE_MAX_ENTRY_BYTES, entry, &size, why, why_size);
    if (r) return r;
    if (bchol__cache_entry_parse((const unsigned char *)*entry, size, digest, binary, length, why,
                                 why_size)) {
        free(*entry);
        *entry = NULL;
        return BCHOL_READ_FAILED;
    }
    return BCHOL_READ_OK;
}
