/* The binary cache's entry format (cache_entry.c). No OpenCL here: the fuzz target
 * compiles it alone. */
#ifndef BCHOL_CACHE_ENTRY_H
#define BCHOL_CACHE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

/*
 * An entry is a 64-byte header and the program binary. Header, integers little-endian:
 *    0  magic "BCHOLBIN"
 *    8  u32 format version (1)          12  u32 header bytes (64)
 *   16  32 hex digits: the build digest (bchol__build_key: source, options, device name,
 *       driver version, platform version, bchol's version), the entry's file name too
 *   48  u64 bytes of the binary         56  u64 FNV-1a-64 of the binary
 */
#define BCHOL_CACHE_HEADER_BYTES 64
/* No program binary of bchol's comes near this; a larger entry is not read. */
#define BCHOL_CACHE_MAX_ENTRY_BYTES (64u << 20)

/* FNV-1a-64 of n bytes, continuing from h (start: BCHOL_FNV_OFFSET). */
#define BCHOL_FNV_OFFSET 0xcbf29ce484222325ULL
uint64_t bchol__fnv1a64(uint64_t h, const void *data, size_t n);

/* The 32 hex digits naming a build made of the NUL-terminated parts, in order. */
void bchol__cache_digest(const char *const *parts, int nparts, char digest[33]);

/* Fills header for binary (length bytes) built as digest (32 hex digits). */
void bchol__cache_entry_header(unsigned char header[BCHOL_CACHE_HEADER_BYTES],
                               const char *digest, const unsigned char *binary, size_t length);

/* 0 if entry (size bytes) is a whole, intact entry of the build digest: *binary then
 * points into entry and *length is its size. Otherwise -1 and why. */
int bchol__cache_entry_parse(const unsigned char *entry, size_t size, const char *digest,
                             const unsigned char **binary, size_t *length, char *why,
                             size_t why_size);

/* Reads the entry name of the folder dirfd (file_read.c: no blocking, no link followed, a
 * private regular file of at most BCHOL_CACHE_MAX_ENTRY_BYTES) and checks it as
 * bchol__cache_entry_parse does. BCHOL_READ_OK: *entry to free, *binary and *length
 * within it; else a BCHOL_READ_* result (an entry that fails the checks: FAILED) and why. */
int bchol__cache_entry_read(int dirfd, const char *name, const char *digest, char **entry,
                            const unsigned char **binary, size_t *length, char *why,
                            size_t why_size);

#endif
