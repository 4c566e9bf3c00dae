/*
 * libFuzzer target: random arguments to every public routine must give a status, never a
 * crash, a write outside the buffers, or a leaked OpenCL object.
 *
 * The input picks a routine and its arguments (sizes near the meaningful values, the
 * extremes of their types, or raw bits; buffers that are NULL, too small, large enough
 * or of another OpenCL context). Device buffers are sub-buffers between guard zones, host
 * arrays are exactly as long as the arguments say (AddressSanitizer watches them). After
 * each call:
 *   - a status the arguments make invalid (by the contract in bchol.h, restated below)
 *     must be a bad-argument status; a valid call must succeed or say it cannot be done
 *     here (size, resources, memory);
 *   - a failed call returns no event, leaves a message and changes no buffer;
 *   - the guard zones are intact, and the contexts, queues, buffers and events held are
 *     as many as before (counted by cl_shim; programs stay in the context's cache).
 * A violation aborts, which libFuzzer reports with the input.
 */
#include "bchol.h"
#include "cl_shim.h"
#include "fuzz_signals.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 4096 /* bytes on each side; a multiple of every sub-buffer alignment */
#define SMALL_A 256
#define BIG_A 65536
#define SMALL_INFO 16
#define BIG_INFO 4096

#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_args: " __VA_ARGS__);                                            \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

typedef struct {
    cl_mem parent, sub;
    size_t size;
    unsigned char *before, *after; /* parent's bytes */
} guarded;

static struct {
    bchol_context *ctx;
    cl_context cl, other;
    cl_command_queue queue;
    guarded a_small, a_big, i_small, i_big;
    cl_mem foreign;
    long live; /* contexts, queues, buffers and events held between inputs */
    long buffers;       /* buffers among them at setup */
    int no_fp64;        /* the device has no double precision */
    int workspace_kept; /* the shared context has cached its workspace buffer */
} g;

/* Programs and kernels stay in the context's cache: not counted. */
static long held(void) {
    return shim_live_of(SHIM_OBJ_CONTEXT) + shim_live_of(SHIM_OBJ_QUEUE) +
           shim_live_of(SHIM_OBJ_BUFFER) + shim_live_of(SHIM_OBJ_EVENT);
}

static guarded make_guarded(size_t size) {
    guarded b = {0};
    cl_int err;
    b.size = size;
    b.parent = clCreateBuffer(g.cl, CL_MEM_READ_WRITE, size + 2 * GUARD, NULL, &err);
    cl_buffer_region region = {GUARD, size};
    b.sub = b.parent ? clCreateSubBuffer(b.parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                         &region, &err)
                     : NULL;
    b.before = malloc(size + 2 * GUARD);
    b.after = malloc(size + 2 * GUARD);
    REQUIRE(b.sub && b.before && b.after, "setup: guarded buffer of %zu bytes: %d", size, err);
    for (size_t i = 0; i < size + 2 * GUARD; i++)
        b.before[i] = (unsigned char)(i * 131 + 7);
    return b;
}

/* Puts the known bytes into the buffer (the previous call may have factored them). */
static void reset(guarded *b) {
    REQUIRE(!clEnqueueWriteBuffer(g.queue, b->parent, CL_TRUE, 0, b->size + 2 * GUARD, b->before, 0,
                                  NULL, NULL),
            "reset");
}

/* Guards intact; and the payload too when the call failed. */
static void check(guarded *b, int payload_too, const char *what) {
    REQUIRE(!clEnqueueReadBuffer(g.queue, b->parent, CL_TRUE, 0, b->size + 2 * GUARD, b->after, 0,
                                 NULL, NULL),
            "read back");
    REQUIRE(!memcmp(b->after, b->before, GUARD) &&
                !memcmp(b->after + GUARD + b->size, b->before + GUARD + b->size, GUARD),
            "%s: a write outside buffer of %zu bytes", what, b->size);
    REQUIRE(!payload_too || !memcmp(b->after + GUARD, b->before + GUARD, b->size),
            "%s: a failed call changed the buffer", what);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    /* the objects below live until exit: cl_shim's exit check would count them */
    setenv("CLSHIM_LEAKS", "0", 1);
    struct sigaction handlers[FZ_NSIGNALS]; /* libFuzzer's reports, not LLVM's (fuzz_signals.h) */
    fz_save_signals(handlers);
    if (bchol_context_create(NULL, &g.ctx)) {
        fprintf(stderr, "fuzz_args: no context: %s\n", bchol_last_error(NULL));
        exit(1);
    }
    g.cl = bchol_context_cl_context(g.ctx);
    bchol_device_info d;
    g.no_fp64 = !bchol_context_device_info(g.ctx, &d) && !d.fp64;
    g.queue = bchol_context_queue(g.ctx);
    g.a_small = make_guarded(SMALL_A);
    g.a_big = make_guarded(BIG_A);
    g.i_small = make_guarded(SMALL_INFO);
    g.i_big = make_guarded(BIG_INFO);
    cl_device_id dev = bchol_context_device_id(g.ctx);
    g.other = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
    g.foreign = clCreateBuffer(g.other, CL_MEM_READ_WRITE, BIG_A, NULL, NULL);
    fz_restore_signals(handlers);
    g.live = held();
    g.buffers = shim_live_of(SHIM_OBJ_BUFFER);
    return 0;
}

/* ---- reading the input ---------------------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t left;
} reader;

static uint8_t u8(reader *r) {
    if (!r->left) return 0;
    r->left--;
    return *r->p++;
}

static uint64_t u64(reader *r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | u8(r);
    return v;
}

static const int64_t special[] = {0,
                                  1,
                                  -1,
                                  2,
                                  INT_MAX,
                                  INT_MIN,
                                  46340,
                                  46341,
                                  65535,
                                  65536,
                                  (int64_t)1 << 31,
                                  ((int64_t)1 << 31) - 1,
                                  (int64_t)1 << 32,
                                  (int64_t)1 << 62,
                                  INT64_MAX,
                                  INT64_MIN};

/* Mostly near a meaningful value, sometimes an extreme or raw bits. */
static int64_t value(reader *r, int64_t near, int wide) {
    uint8_t how = u8(r) % 8;
    if (how < 5) return near + (int64_t)(u8(r) % 9) - 4;
    if (how == 5) return special[u8(r) % (sizeof special / sizeof special[0])];
    if (how == 6) return wide ? (int64_t)u64(r) : (int32_t)u64(r);
    return near;
}

static int to_int(int64_t v) { return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v; }

static char pick_uplo(reader *r) {
    static const char good[] = "LUlu";
    uint8_t k = u8(r);
    return k < 200 ? good[k % 4] : (char)u8(r);
}

/* ---- the contract of bchol.h, restated ------------------------------------------------- */

static int uplo_ok(char u) { return u == 'L' || u == 'l' || u == 'U' || u == 'u'; }

#ifndef HAVE_CLBLAST
#define HAVE_CLBLAST 0
#endif

static int params_ok(const bchol_params *p, int n) {
    if (!p) return 1;
    /* interleaved variant: full unrolling only up to n = 64 (potrf_interleaved.c) */
    const int ilv_ok = p->inb <= 64 && p->looking <= BCHOL_LOOKING_TOP && p->unroll <= BCHOL_UNROLL_FULL &&
                       p->chunking <= BCHOL_STAGED && p->chunk <= 1024 && p->math <= BCHOL_MATH_FAST &&
                       (p->unroll != BCHOL_UNROLL_FULL || n <= 64);
    const int fused_ok = ilv_ok && p->variant <= BCHOL_VARIANT_WORKITEM &&
                         p->ib <= 32 && p->tbc <= 64 && p->rpt <= 64 && p->shape <= BCHOL_SHAPE_SHRINK;
    /* workitem variant: wnb <= 32, wvec 1/2/4/8/16, wmr <= 2, wgroup <= 256 (0: default) */
    const int wvec_ok = p->wvec <= 0 || p->wvec == 1 || p->wvec == 2 || p->wvec == 4 ||
                        p->wvec == 8 || p->wvec == 16;
    const int workitem_ok = p->wnb <= 32 && wvec_ok && p->wmr <= 2 && p->wgroup <= 256;
    /* separate variant: tile one of 16..128 (or default), CLBlast only when built in */
    const int tile_ok = p->tile <= 0 || p->tile == 16 || p->tile == 32 || p->tile == 64 || p->tile == 128;
    const int gemm_ok = p->gemm <= BCHOL_GEMM_OWN || (p->gemm == BCHOL_GEMM_CLBLAST && HAVE_CLBLAST);
    return fused_ok && workitem_ok && p->nb <= 64 && p->pb <= 64 && gemm_ok && tile_ok &&
           p->gb <= (1 << 24);
}

/* Elements a strided batch spans, or -1 beyond 2^62. */
static __int128 span(int64_t offset, int64_t stride, int64_t batch, int n, int lda) {
    __int128 s = (__int128)offset + (__int128)(batch - 1) * stride + (__int128)(n - 1) * lda + n;
    return s > ((__int128)1 << 62) ? -1 : s;
}

static size_t buffer_bytes(cl_mem m) {
    if (m == g.a_small.sub) return SMALL_A;
    if (m == g.a_big.sub || m == g.foreign) return BIG_A;
    if (m == g.i_small.sub) return SMALL_INFO;
    if (m == g.i_big.sub) return BIG_INFO;
    return 0;
}

static int buffer_ok(cl_mem m, __int128 need) {
    return m && m != g.foreign && need >= 0 && (__int128)buffer_bytes(m) >= need;
}

static int device_call_valid(char prec, const bchol_params *prm, char uplo, int n, cl_mem A,
                             int64_t offset, int lda, int64_t stride, int64_t batch, cl_mem info) {
    const int es = prec == 'd' ? 8 : 4;
    if (!params_ok(prm, n) || !uplo_ok(uplo) || n < 0 || lda < (n > 1 ? n : 1)) return 0;
    if (n > 0 && (int64_t)(n - 1) * lda + n > INT_MAX) return 0;
    if (offset < 0 || stride < (int64_t)lda * n || batch < 0) return 0;
    if (batch == 0) return 1;
    __int128 s = span(offset, stride, batch, n, lda);
    if (n > 0 && !buffer_ok(A, s < 0 ? -1 : s * es)) return 0;
    return buffer_ok(info, (__int128)batch * 4);
}

/* A valid call may still be impossible here, and say so. */
static int cannot_here(bchol_status st) {
    return st == BCHOL_ERR_UNSUPPORTED_SIZE || st == BCHOL_ERR_RESOURCES ||
           st == BCHOL_ERR_OUT_OF_MEMORY;
}

static int bad_argument(bchol_status st) { return st <= -1 && st >= BCHOL_ERR_DEVICE_SPEC; }

/* ---- the routines ------------------------------------------------------------------------ */

static guarded *guard_of(cl_mem m) {
    if (m == g.a_small.sub) return &g.a_small;
    if (m == g.a_big.sub) return &g.a_big;
    if (m == g.i_small.sub) return &g.i_small;
    if (m == g.i_big.sub) return &g.i_big;
    return NULL;
}

static cl_mem pick_buffer(reader *r, guarded *small, guarded *big) {
    switch (u8(r) % 6) {
    case 0:
        return NULL;
    case 1:
        return small->sub;
    case 2:
        return g.foreign;
    default:
        return big->sub;
    }
}

static void fuzz_device(reader *r, char prec, int ex) {
    /* one read per statement: the order of the input's bytes is fixed */
    bchol_params prm = {0}; /* the fields not drawn below take their defaults */
    prm.variant = (bchol_variant)((int8_t)u8(r) % 6);
    prm.ib = (int8_t)u8(r) % 40;
    prm.tbc = (int8_t)u8(r) % 70;
    prm.rpt = (int8_t)u8(r) % 70;
    prm.shape = (int8_t)u8(r) % 4;
    const bchol_params *p = ex && u8(r) % 4 ? &prm : NULL;
    char uplo = pick_uplo(r);
    int n = to_int(value(r, u8(r) % 24, 0));
    int lda = to_int(value(r, n > 1 ? n : 1, 0));
    int64_t offset = value(r, u8(r) % 8, 1);
    int64_t stride = value(r, (int64_t)lda * n + u8(r) % 4, 1);
    int64_t batch = value(r, u8(r) % 8, 1);
    cl_mem A = pick_buffer(r, &g.a_small, &g.a_big), info = pick_buffer(r, &g.i_small, &g.i_big);
    int want_event = u8(r) % 2;
    /* the separate variant's fields come last, so that older corpus inputs keep their
     * meaning (an exhausted input reads zeros: the defaults) */
    prm.nb = (int8_t)u8(r) % 80;
    prm.pb = (int8_t)u8(r) % 80;
    prm.gemm = (int8_t)u8(r) % 4;
    prm.tile = (int8_t)u8(r) % 140;
    prm.gb = (int)(int32_t)((uint32_t)(int8_t)u8(r) << ((u8(r) % 4) * 8)); /* no signed shift */
    /* then the interleaved variant's */
    prm.inb = (int8_t)u8(r) % 80;
    prm.looking = (int8_t)u8(r) % 5;
    prm.unroll = (int8_t)u8(r) % 4;
    prm.chunking = (int8_t)u8(r) % 5;
    int chunk_hi = u8(r);
    prm.chunk = (int16_t)(chunk_hi << 8 | u8(r)) % 1100;
    prm.math = (int8_t)u8(r) % 4;

    guarded *ga = guard_of(A), *gi = guard_of(info);
    if (ga) reset(ga);
    if (gi && gi != ga) reset(gi);
    cl_event ev = (cl_event)&ev;
    bchol_status st;
    if (ex)
        st = prec == 'd' ? bchol_dpotrf_batched_ex(g.ctx, p, uplo, n, A, offset, lda, stride, batch,
                                                   info, want_event ? &ev : NULL)
                         : bchol_spotrf_batched_ex(g.ctx, p, uplo, n, A, offset, lda, stride, batch,
                                                   info, want_event ? &ev : NULL);
    else
        st = prec == 'd' ? bchol_dpotrf_batched(g.ctx, uplo, n, A, offset, lda, stride, batch, info,
                                                want_event ? &ev : NULL)
                         : bchol_spotrf_batched(g.ctx, uplo, n, A, offset, lda, stride, batch, info,
                                                want_event ? &ev : NULL);
    if (want_event) {
        REQUIRE(ev != (cl_event)&ev, "the event was not set");
        REQUIRE(st || batch == 0 || ev, "success without an event");
        REQUIRE(st == 0 || ev == NULL, "an event with status %d", st);
        if (ev) {
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
        }
    }
    clFinish(g.queue);
    const int valid = device_call_valid(prec, p, uplo, n, A, offset, lda, stride, batch, info);
    const char *msg = bchol_last_error(g.ctx);
    /* in double without fp64 a valid call says so, after the argument checks */
    const int no_fp64 = prec == 'd' && g.no_fp64;
    REQUIRE(valid ? (no_fp64 ? st == BCHOL_ERR_NO_FP64 : st == 0 || cannot_here(st))
                  : bad_argument(st),
            "%cpotrf_batched%s(uplo=%d n=%d offset=%lld lda=%d stride=%lld batch=%lld A=%zu "
            "info=%zu params=%s) is %s "
            "but returned %d (%s)",
            prec, ex ? "_ex" : "", uplo, n, (long long)offset, lda, (long long)stride,
            (long long)batch, buffer_bytes(A), buffer_bytes(info), p ? "set" : "NULL",
            valid ? "valid" : "invalid", st, msg);
    REQUIRE(st == 0 || *msg, "status %d without a message", st);
    if (ga) check(ga, st != 0, "A");
    if (gi && gi != ga) check(gi, st != 0, "info");
}

static void fuzz_host(reader *r, char prec) {
    const int es = prec == 'd' ? 8 : 4;
    char uplo = pick_uplo(r);
    int n = to_int(value(r, u8(r) % 24, 0));
    int lda = to_int(value(r, n > 1 ? n : 1, 0));
    int64_t stride = value(r, (int64_t)lda * n + u8(r) % 4, 1);
    int64_t batch = value(r, u8(r) % 8, 1);
    int null_a = u8(r) % 8 == 0;
    int null_info = u8(r) % 8 == 0;

    int valid = uplo_ok(uplo) && n >= 0 && lda >= (n > 1 ? n : 1) &&
                (n == 0 || (int64_t)(n - 1) * lda + n <= INT_MAX) && stride >= (int64_t)lda * n &&
                batch >= 0 && !(batch > 0 && n > 0 && null_a) && !(batch > 0 && null_info);
    /* Arrays exactly as long as the arguments say; a valid call too large to hold is
     * skipped, an invalid one gets one element (it must not be touched). */
    size_t elems = 1, ints = 1;
    if (valid && batch > 0) {
        __int128 s = n > 0 ? span(0, stride, batch, n, lda) : 0;
        if (s < 0 || s * es > (1 << 20) || batch > (1 << 16)) return;
        elems = (size_t)s;
        ints = (size_t)batch;
    }
    const size_t bytes = elems > 0 ? elems * es : 1;
    unsigned char *a = null_a ? NULL : malloc(bytes), *a0 = malloc(bytes);
    int *info = null_info ? NULL : malloc(ints * sizeof(int));
    for (size_t i = 0; a && i < elems * es; i++)
        a[i] = (unsigned char)(i * 7 + 1);
    if (a) memcpy(a0, a, elems * es);
    bchol_status st =
        prec == 'd'
            ? bchol_dpotrf_batched_host(g.ctx, uplo, n, (double *)a, lda, stride, batch, info)
            : bchol_spotrf_batched_host(g.ctx, uplo, n, (float *)a, lda, stride, batch, info);
    const int no_fp64 = prec == 'd' && g.no_fp64;
    REQUIRE(valid ? (no_fp64 ? st == BCHOL_ERR_NO_FP64 : st == 0 || cannot_here(st))
                  : bad_argument(st),
            "%cpotrf_batched_host(uplo=%d n=%d lda=%d stride=%lld batch=%lld A=%s info=%s) is %s "
            "but returned %d (%s)",
            prec, uplo, n, lda, (long long)stride, (long long)batch, a ? "set" : "NULL",
            info ? "set" : "NULL", valid ? "valid" : "invalid", st, bchol_last_error(g.ctx));
    REQUIRE(st == 0 || !a || !memcmp(a, a0, elems * es), "a failed host call changed A");
    free(a);
    free(a0);
    free(info);
}

static void fuzz_context(reader *r) {
    char spec[24];
    size_t len = u8(r) % sizeof spec;
    for (size_t i = 0; i < len; i++)
        spec[i] = (char)u8(r);
    spec[len] = 0;
    bchol_context *c = (bchol_context *)&len;
    const int use_spec = u8(r) % 8 != 0;
    const int use_out = u8(r) % 16 != 0;
    bchol_status st = bchol_context_create(use_spec ? spec : NULL, use_out ? &c : NULL);
    if (c != (bchol_context *)&len) {
        REQUIRE(st ? c == NULL : c != NULL, "context_create(\"%s\"): status %d, ctx %p", spec, st,
                (void *)c);
        bchol_context_destroy(c);
    }
    REQUIRE(st == 0 || st == BCHOL_ERR_DEVICE_SPEC || st == BCHOL_ERR_ARGUMENT,
            "context_create: status %d", st);
}

static void fuzz_queries(reader *r) {
    bchol_device_info d;
    bchol_params prm;
    const char *source;
    double ms;
    bchol_context *c = u8(r) % 4 ? g.ctx : NULL;
    int n = to_int(value(r, u8(r) % 24, 0));
    bchol_status st;
    switch (u8(r) % 8) {
    case 0: {
        const char precision = (char)u8(r);
        const int use_params = u8(r) % 4 != 0;
        st = bchol_potrf_params(c, precision, n, use_params ? &prm : NULL,
                                u8(r) % 2 ? &source : NULL);
        REQUIRE(st <= 0 && st >= BCHOL_ERR_DEVICE_SPEC, "potrf_params: %d", st);
        break;
    }
    case 1:
        st = bchol_device_info_at(n, u8(r) % 4 ? &d : NULL);
        REQUIRE(st == 0 || st == BCHOL_ERR_ARGUMENT, "device_info_at(%d): %d", n, st);
        break;
    case 2:
        REQUIRE(bchol_status_string((bchol_status)(int32_t)u64(r))[0], "status_string");
        break;
    case 3:
        st = bchol_context_device_info(c, u8(r) % 4 ? &d : NULL);
        REQUIRE(st <= 0, "context_device_info: %d", st);
        break;
    case 4:
        bchol_context_set_timing(c, u8(r) % 2);
        st = bchol_last_call_ms(c, u8(r) % 4 ? &ms : NULL);
        REQUIRE(st <= 0, "last_call_ms: %d", st);
        bchol_context_set_timing(c, 0);
        break;
    case 5:
        REQUIRE(bchol_last_error(c) && bchol_last_warning(c), "messages");
        bchol_set_message_handler(c ? NULL : c, NULL, NULL);
        break;
    case 6: {
        bchol_context *w = NULL;
        const int use_queue = u8(r) % 2;
        st = bchol_context_create_from_queue(use_queue ? g.queue : NULL, u8(r) % 8 ? &w : NULL);
        REQUIRE(st == 0 || st == BCHOL_ERR_QUEUE || st == BCHOL_ERR_ARGUMENT,
                "create_from_queue: %d", st);
        bchol_context_destroy(w);
        break;
    }
    default:
        REQUIRE(bchol_device_count() >= 0 && !bchol_context_queue(NULL) &&
                    !bchol_context_cl_context(NULL) && !bchol_context_device_id(NULL),
                "NULL context accessors");
        bchol_context_destroy(NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    switch (u8(&r) % 8) {
    case 0:
        fuzz_device(&r, 's', 0);
        break;
    case 1:
        fuzz_device(&r, 'd', 0);
        break;
    case 2:
        fuzz_device(&r, 's', 1);
        break;
    case 3:
        fuzz_device(&r, 'd', 1);
        break;
    case 4:
        fuzz_host(&r, 's');
        break;
    case 5:
        fuzz_host(&r, 'd');
        break;
    case 6:
        fuzz_context(&r);
        break;
    default:
        fuzz_queries(&r);
    }
    char live[128];
    long now = held();
    shim_live(live, sizeof live);
    /* the shared context keeps one workspace buffer once a call needed one (workspace.c) */
    if (now == g.live + 1 && !g.workspace_kept && shim_live_of(SHIM_OBJ_BUFFER) == g.buffers + 1) {
        g.workspace_kept = 1;
        g.live = now;
    }
    REQUIRE(now == g.live, "%ld OpenCL objects held after the call, %ld before (all now: %s)", now,
            g.live, live);
    return 0;
}
