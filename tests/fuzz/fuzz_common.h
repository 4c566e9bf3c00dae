/* Helpers of the libFuzzer targets that call the routines with random arguments: reading
 * the input, values near a meaningful one, and device buffers between guard zones. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include "bchol.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZ_GUARD 4096 /* bytes on each side; a multiple of every sub-buffer alignment */

#define FZ_REQUIRE(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz: " __VA_ARGS__);                                                 \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

typedef struct {
    const uint8_t *p;
    size_t left;
} fz_reader;

/* An exhausted input reads zeros. */
static inline uint8_t fz_u8(fz_reader *r) {
    if (!r->left) return 0;
    r->left--;
    return *r->p++;
}

static inline uint64_t fz_u64(fz_reader *r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | fz_u8(r);
    return v;
}

/* Mostly near a meaningful value, sometimes an extreme of the type or raw bits. */
static inline int64_t fz_value(fz_reader *r, int64_t near, int wide) {
    static const int64_t special[] = {0,         1,         -1,        2,
                                      INT_MAX,   INT_MIN,   46340,     65536,
                                      (int64_t)1 << 31,     (int64_t)1 << 32,
                                      (int64_t)1 << 62,     INT64_MAX, INT64_MIN};
    uint8_t how = fz_u8(r) % 8;
    if (how < 5) return near + (int64_t)(fz_u8(r) % 5) - 2;
    if (how == 5) return special[fz_u8(r) % (sizeof special / sizeof special[0])];
    if (how == 6) return wide ? (int64_t)fz_u64(r) : (int32_t)fz_u64(r);
    return near;
}

static inline int fz_int(int64_t v) { return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v; }

static inline char fz_uplo(fz_reader *r) {
    static const char good[] = "LUlu";
    uint8_t k = fz_u8(r);
    return k < 200 ? good[k % 4] : (char)fz_u8(r);
}

static inline int fz_uplo_ok(char u) { return u == 'L' || u == 'l' || u == 'U' || u == 'u'; }

/* A valid call may still be impossible here, and say so. */
static inline int fz_cannot_here(bchol_status st) {
    return st == BCHOL_ERR_UNSUPPORTED_SIZE || st == BCHOL_ERR_RESOURCES ||
           st == BCHOL_ERR_OUT_OF_MEMORY;
}

static inline int fz_bad_argument(bchol_status st) {
    return st <= -1 && st >= BCHOL_ERR_DEVICE_SPEC;
}

/* The status a call may return: a bad-argument status if invalid; else, in double on a
 * device without fp64, BCHOL_ERR_NO_FP64 (after the argument checks, before any quick
 * return); else success or a reason it cannot be done here. */
static inline int fz_status_ok(int valid, int no_fp64, bchol_status st) {
    if (!valid) return fz_bad_argument(st);
    if (no_fp64) return st == BCHOL_ERR_NO_FP64;
    return st == 0 || fz_cannot_here(st);
}

/* Whether ctx's device lacks fp64 (BCHOL_DEVICE_NO_FP64 hides it). */
static inline int fz_no_fp64(const bchol_context *ctx) {
    bchol_device_info d;
    return !bchol_context_device_info(ctx, &d) && !d.fp64;
}

/* ---- guarded device buffers ---------------------------------------------------------- */

typedef struct {
    cl_mem parent, sub;
    size_t size;                   /* bytes of sub */
    unsigned char *before, *after; /* parent's bytes: sub's payload at FZ_GUARD */
} fz_guarded;

static inline fz_guarded fz_make_guarded(cl_context cl, size_t size) {
    fz_guarded b = {0};
    cl_int err = 0;
    b.size = size;
    b.parent = clCreateBuffer(cl, CL_MEM_READ_WRITE, size + 2 * FZ_GUARD, NULL, &err);
    cl_buffer_region region = {FZ_GUARD, size};
    b.sub = b.parent ? clCreateSubBuffer(b.parent, CL_MEM_READ_WRITE,
                                         CL_BUFFER_CREATE_TYPE_REGION, &region, &err)
                     : NULL;
    b.before = malloc(size + 2 * FZ_GUARD);
    b.after = malloc(size + 2 * FZ_GUARD);
    FZ_REQUIRE(b.sub && b.before && b.after, "setup: guarded buffer of %zu bytes: %d", size, err);
    for (size_t i = 0; i < size + 2 * FZ_GUARD; i++)
        b.before[i] = (unsigned char)(i * 131 + 7);
    return b;
}

static inline unsigned char *fz_payload(fz_guarded *b) { return b->before + FZ_GUARD; }

/* Puts the known bytes (guards and payload) into the buffer. */
static inline void fz_reset(cl_command_queue q, fz_guarded *b) {
    FZ_REQUIRE(!clEnqueueWriteBuffer(q, b->parent, CL_TRUE, 0, b->size + 2 * FZ_GUARD, b->before,
                                     0, NULL, NULL),
               "reset");
}

/* Reads the buffer back and checks the guards; the payload too when it must not change.
 * b->after + FZ_GUARD then holds the payload the call left. */
static inline void fz_check(cl_command_queue q, fz_guarded *b, int payload_too, const char *what) {
    FZ_REQUIRE(!clEnqueueReadBuffer(q, b->parent, CL_TRUE, 0, b->size + 2 * FZ_GUARD, b->after, 0,
                                    NULL, NULL),
               "read back");
    FZ_REQUIRE(!memcmp(b->after, b->before, FZ_GUARD) &&
                   !memcmp(b->after + FZ_GUARD + b->size, b->before + FZ_GUARD + b->size,
                           FZ_GUARD),
               "%s: a write outside the buffer of %zu bytes", what, b->size);
    FZ_REQUIRE(!payload_too || !memcmp(b->after + FZ_GUARD, b->before + FZ_GUARD, b->size),
               "%s: changed though it must not", what);
}

/* Of elems elements (es bytes each), only those marked in may[0 .. marked) changed. */
static inline void fz_changes(const unsigned char *before, const unsigned char *after,
                              size_t elems, const unsigned char *may, size_t marked, size_t es,
                              const char *what) {
    for (size_t e = 0; e < elems; e++)
        FZ_REQUIRE((e < marked && may[e]) || !memcmp(after + e * es, before + e * es, es),
                   "%s: element %zu changed outside what the call may write", what, e);
}

/* After fz_check: only the elements marked in may[] (one per element) changed. */
static inline void fz_check_mask(const fz_guarded *b, const unsigned char *may, size_t es,
                                 const char *what) {
    fz_changes(b->before + FZ_GUARD, b->after + FZ_GUARD, b->size / es, may, b->size / es, es,
               what);
}

#endif
