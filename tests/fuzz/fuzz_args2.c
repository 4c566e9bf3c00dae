/*
 * libFuzzer target: random arguments to the public routines that fuzz_args does not reach
 * (the fixed-size and interleaved solves, the interleaved factorization and the layout
 * conversions, the vbatched factorization and solves with their device arrays, the host
 * forms of the solves and of the interleaved routines, and the parameter queries) must
 * give a status, never a crash or a write outside the buffers.
 *
 * Device buffers are sub-buffers between guard zones. After each call:
 *   - a call the contract in bchol.h (restated below) makes invalid returns a bad-argument
 *     status; a valid one succeeds or says it cannot be done here;
 *   - a failed call returns no event, leaves a message and changes no buffer; a
 *     successful one writes only what the routine may write (the blocks, triangles and
 *     lanes of the batch; nothing of a read-only argument);
 *   - vbatched: the per-matrix arrays hold random, also bad, entries; info must hold the
 *     documented code of each bad entry (BCHOL_INFO_*), the good matrices a pivot in range,
 *     and only good matrices may change;
 *   - the guard zones are intact and no OpenCL object is leaked (counted by cl_shim).
 * The work per input stays tiny (n and batch mostly <= 8) so that libFuzzer makes
 * progress on PoCL. A violation aborts, which libFuzzer reports with the input.
 */
#include "cl_shim.h"
#include "fuzz_common.h"
#include "fuzz_signals.h"

#define REQUIRE FZ_REQUIRE
#define VB_MAX 16 /* entries of the big per-matrix arrays */

typedef struct {
    fz_guarded small, big;
} pool;

static struct {
    bchol_context *ctx;
    cl_context cl, other;
    cl_command_queue queue;
    pool a, b, info, n, nrhs, lda, ldb, oa, ob;
    cl_mem foreign;
    long live, buffers;
    int workspace_kept;
    int trace; /* FUZZ_TRACE=1: each call and its status, to see what a corpus reaches */
    int no_fp64; /* the device has no double precision */
} g;

static long held(void) {
    return shim_live_of(SHIM_OBJ_CONTEXT) + shim_live_of(SHIM_OBJ_QUEUE) +
           shim_live_of(SHIM_OBJ_BUFFER) + shim_live_of(SHIM_OBJ_EVENT);
}

static pool make_pool(size_t small, size_t big) {
    pool p = {fz_make_guarded(g.cl, small), fz_make_guarded(g.cl, big)};
    return p;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    setenv("CLSHIM_LEAKS", "0", 1); /* the objects below live until exit */
    struct sigaction handlers[FZ_NSIGNALS]; /* libFuzzer's reports, not LLVM's (fuzz_signals.h) */
    fz_save_signals(handlers);
    if (bchol_context_create(NULL, &g.ctx)) {
        fprintf(stderr, "fuzz_args2: no context: %s\n", bchol_last_error(NULL));
        exit(1);
    }
    g.cl = bchol_context_cl_context(g.ctx);
    g.no_fp64 = fz_no_fp64(g.ctx);
    g.queue = bchol_context_queue(g.ctx);
    g.a = make_pool(64, 8192);
    g.b = make_pool(64, 4096);
    g.info = make_pool(8, 4 * VB_MAX);
    g.n = make_pool(8, 4 * VB_MAX);
    g.nrhs = make_pool(8, 4 * VB_MAX);
    g.lda = make_pool(8, 4 * VB_MAX);
    g.ldb = make_pool(8, 4 * VB_MAX);
    g.oa = make_pool(16, 8 * VB_MAX);
    g.ob = make_pool(16, 8 * VB_MAX);
    cl_device_id dev = bchol_context_device_id(g.ctx);
    g.other = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
    g.foreign = clCreateBuffer(g.other, CL_MEM_READ_WRITE, 8192, NULL, NULL);
    REQUIRE(g.other && g.foreign, "setup: second context");
    g.trace = getenv("FUZZ_TRACE") && *getenv("FUZZ_TRACE") == '1';
    fz_restore_signals(handlers);
    g.live = held();
    g.buffers = shim_live_of(SHIM_OBJ_BUFFER);
    return 0;
}

/* ---- buffers ------------------------------------------------------------------------ */

/* The buffer an argument gets, and its guards (NULL for NULL or another context's). */
typedef struct {
    cl_mem m;
    fz_guarded *gd;
} arg_buf;

static arg_buf pick(fz_reader *r, pool *p) {
    switch (fz_u8(r) % 8) {
    case 0:
        return (arg_buf){NULL, NULL};
    case 1:
        return (arg_buf){p->small.sub, &p->small};
    case 2:
        return (arg_buf){g.foreign, NULL};
    default:
        return (arg_buf){p->big.sub, &p->big};
    }
}

static int holds(arg_buf b, __int128 bytes) {
    return b.gd && bytes >= 0 && (__int128)b.gd->size >= bytes;
}

static size_t bytes_of(arg_buf b) { return b.gd ? b.gd->size : b.m ? 1 : 0; }

/* ---- the contract, restated ---------------------------------------------------------- */

/* Elements a strided batch spans (rows-by-cols blocks), -1 when absurd. */
static __int128 span(int64_t offset, int64_t stride, int64_t batch, int ld, int rows, int cols) {
    if (batch <= 0 || rows <= 0 || cols <= 0) return offset;
    __int128 s = (__int128)offset + (__int128)(batch - 1) * stride + (__int128)(cols - 1) * ld + rows;
    return s > ((__int128)1 << 62) ? -1 : s;
}

/* Elements an interleaved batch of rows-by-cols blocks spans (bchol.h, "Interleaved"). */
static __int128 ilv_span(int rows, int cols, int64_t batch, int64_t chunk) {
    if (batch <= 0 || rows <= 0 || cols <= 0) return 0;
    __int128 nchunks = (batch - 1) / chunk + 1;
    __int128 s = (nchunks * rows * cols - 1) * chunk + (batch - 1) % chunk + 1;
    return s > ((__int128)1 << 62) ? -1 : s;
}

static int max1(int n) { return n > 1 ? n : 1; }

/* (n-1)*ld + n fits the kernels' 32-bit index */
static int fits32(int n, int ld) { return n <= 0 || (int64_t)(n - 1) * ld + n <= INT_MAX; }

static int solve_params_ok(const bchol_solve_params *p, int interleaved) {
    /* the interleaved solve has no workitem variant; the strided and vbatched ones take it
     * (vbatched runs the substitution kernel whatever the variant) */
    return !p || ((p->variant == BCHOL_SOLVE_AUTO || p->variant == BCHOL_SOLVE_SUBST ||
                   (!interleaved && p->variant == BCHOL_SOLVE_WORKITEM)) &&
                  p->nt <= 32 && p->tbc <= 64 && (interleaved || p->rpt <= 64));
}

static int ilv_params_ok(const bchol_params *p, int n) {
    return !p || ((p->variant == BCHOL_VARIANT_AUTO || p->variant == BCHOL_VARIANT_INTERLEAVED) &&
                  p->inb <= 64 && p->looking <= BCHOL_LOOKING_TOP &&
                  p->unroll <= BCHOL_UNROLL_FULL && p->chunking <= BCHOL_STAGED &&
                  p->chunk <= 1024 && p->math <= BCHOL_MATH_FAST &&
                  (p->unroll != BCHOL_UNROLL_FULL || n <= 64));
}

/* ---- the shared end of each call --------------------------------------------------- */

static void check_event(int want, cl_event ev, bchol_status st, int enqueues) {
    if (!want) return;
    REQUIRE(ev != (cl_event)&ev, "the event was not set");
    REQUIRE(st || !enqueues || ev, "success without an event");
    REQUIRE(st == 0 || ev == NULL, "an event with status %d", st);
    if (ev) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
}

static void check_status(bchol_context *ctx, int valid, char prec, bchol_status st,
                         const char *call) {
    const char *msg = bchol_last_error(ctx);
    if (g.trace) fprintf(stderr, "%s -> %d%s\n", call, st, valid ? " (valid)" : "");
    REQUIRE(fz_status_ok(valid, prec == 'd' && g.no_fp64, st), "%s is %s%s but returned %d (%s)",
            call, valid ? "valid" : "invalid", prec == 'd' && g.no_fp64 ? " (no fp64)" : "", st,
            msg);
    REQUIRE(!ctx || st == 0 || *msg, "status %d without a message", st);
    REQUIRE(ctx || st == BCHOL_ERR_CONTEXT, "NULL ctx gave %d", st);
}

static void reset_all(arg_buf *const *bufs, int count) {
    for (int i = 0; i < count; i++)
        if (bufs[i]->gd) fz_reset(g.queue, bufs[i]->gd);
}

/* Marks the elements of a strided batch: tri 'L', 'U' or 0 (the whole block). */
static void mark_strided(unsigned char *may, size_t elems, int64_t offset, int ld, int64_t stride,
                         int64_t batch, int rows, int cols, char tri) {
    if (rows <= 0 || cols <= 0) return; /* nothing to mark, whatever the batch (up to 2^63) */
    for (int64_t b = 0; b < batch; b++)
        for (int j = 0; j < cols; j++)
            for (int i = 0; i < rows; i++) {
                if ((tri == 'L' && i < j) || (tri == 'U' && i > j)) continue;
                size_t e = (size_t)(offset + b * stride + (int64_t)j * ld + i);
                REQUIRE(e < elems, "mask past the buffer");
                may[e] = 1;
            }
}

static void mark_interleaved(unsigned char *may, size_t elems, int64_t batch, int64_t chunk,
                             int rows, int cols, char tri, const int *only) {
    if (rows <= 0 || cols <= 0) return; /* n = 0 with a batch of 2^63 is a valid quick return */
    for (int64_t b = 0; b < batch; b++) {
        if (only && only[b]) continue;
        for (int j = 0; j < cols; j++)
            for (int i = 0; i < rows; i++) {
                if ((tri == 'L' && i < j) || (tri == 'U' && i > j)) continue;
                size_t e = (size_t)(((b / chunk) * rows * cols + (int64_t)j * rows + i) * chunk +
                                    b % chunk);
                REQUIRE(e < elems, "mask past the buffer");
                may[e] = 1;
            }
    }
}

static char tri_of(char uplo) { return uplo == 'U' || uplo == 'u' ? 'U' : 'L'; }

/* The info payload after the call: batch ints in [0, n] (a pivot), nothing past them. */
static const int *check_info(fz_guarded *gi, int64_t batch, int n, const char *what) {
    const int *info = (const int *)(gi->after + FZ_GUARD);
    for (int64_t b = 0; b < batch; b++)
        REQUIRE(info[b] >= 0 && info[b] <= n, "%s: info[%lld] = %d outside [0, %d]", what,
                (long long)b, info[b], n);
    REQUIRE(!memcmp(gi->after + FZ_GUARD + batch * 4, gi->before + FZ_GUARD + batch * 4,
                    gi->size - batch * 4),
            "%s: info written past the batch", what);
    return info;
}

/* ---- fixed-size solves --------------------------------------------------------------- */

static void fuzz_solve(fz_reader *r, char prec, int posv, int ex) {
    const int es = prec == 'd' ? 8 : 4;
    bchol_solve_params sp;
    sp.variant = (bchol_solve_variant)((int8_t)fz_u8(r) % 3);
    sp.nt = (int8_t)fz_u8(r) % 40;
    sp.rpt = (int8_t)fz_u8(r) % 70;
    sp.tbc = (int8_t)fz_u8(r) % 70;
    const bchol_solve_params *p = ex && fz_u8(r) % 4 ? &sp : NULL;
    bchol_context *ctx = fz_u8(r) % 16 ? g.ctx : NULL;
    char uplo = fz_uplo(r);
    int n = fz_int(fz_value(r, fz_u8(r) % 9, 0));
    int nrhs = fz_int(fz_value(r, fz_u8(r) % 5, 0));
    int lda = fz_int(fz_value(r, max1(n), 0));
    int ldb = fz_int(fz_value(r, max1(n), 0));
    int64_t oa = fz_value(r, fz_u8(r) % 8, 1);
    int64_t sa = fz_value(r, (int64_t)lda * n + fz_u8(r) % 4, 1);
    int64_t ob = fz_value(r, fz_u8(r) % 8, 1);
    int64_t sb = fz_value(r, (int64_t)ldb * nrhs + fz_u8(r) % 4, 1);
    int64_t batch = fz_value(r, fz_u8(r) % 9, 1);
    arg_buf A = pick(r, &g.a), B = pick(r, &g.b), I = pick(r, &g.info);
    const int want_event = fz_u8(r) % 2;

    int valid = ctx && solve_params_ok(p, 0) && fz_uplo_ok(uplo) && n >= 0 && nrhs >= 0 &&
                oa >= 0 && lda >= max1(n) && fits32(n, lda) && sa >= (int64_t)lda * n && ob >= 0 &&
                ldb >= max1(n) && sb >= (int64_t)ldb * nrhs && batch >= 0;
    /* buffers matter only where they are used (quick returns in bchol.h) */
    if (valid && batch > 0 && n > 0 && (posv || nrhs > 0)) {
        valid = holds(A, span(oa, sa, batch, lda, n, n) * es);
        if (nrhs > 0) valid = valid && holds(B, span(ob, sb, batch, ldb, n, nrhs) * es);
    }
    if (valid && posv && batch > 0) valid = holds(I, (__int128)batch * 4); /* batch may be near 2^63 */

    arg_buf *bufs[] = {&A, &B, &I};
    reset_all(bufs, 3);
    cl_event ev = (cl_event)&ev, *evp = want_event ? &ev : NULL;
    bchol_status st;
    if (posv)
        st = prec == 'd' ? bchol_dposv_batched(ctx, uplo, n, nrhs, A.m, oa, lda, sa, B.m, ob, ldb,
                                               sb, batch, I.m, evp)
                         : bchol_sposv_batched(ctx, uplo, n, nrhs, A.m, oa, lda, sa, B.m, ob, ldb,
                                               sb, batch, I.m, evp);
    else if (ex)
        st = prec == 'd' ? bchol_dpotrs_batched_ex(ctx, p, uplo, n, nrhs, A.m, oa, lda, sa, B.m,
                                                   ob, ldb, sb, batch, evp)
                         : bchol_spotrs_batched_ex(ctx, p, uplo, n, nrhs, A.m, oa, lda, sa, B.m,
                                                   ob, ldb, sb, batch, evp);
    else
        st = prec == 'd' ? bchol_dpotrs_batched(ctx, uplo, n, nrhs, A.m, oa, lda, sa, B.m, ob, ldb,
                                                sb, batch, evp)
                         : bchol_spotrs_batched(ctx, uplo, n, nrhs, A.m, oa, lda, sa, B.m, ob, ldb,
                                                sb, batch, evp);
    check_event(want_event, ev, st, batch > 0 && (posv || (n > 0 && nrhs > 0)));
    clFinish(g.queue);
    char call[320];
    snprintf(call, sizeof call,
             "%c%s_batched%s(uplo=%d n=%d nrhs=%d A=%zu oa=%lld lda=%d sa=%lld B=%zu ob=%lld "
             "ldb=%d sb=%lld batch=%lld info=%zu params=%s)",
             prec, posv ? "posv" : "potrs", ex ? "_ex" : "", uplo, n, nrhs, bytes_of(A),
             (long long)oa, lda, (long long)sa, bytes_of(B), (long long)ob, ldb, (long long)sb,
             (long long)batch, bytes_of(I), p ? "set" : "NULL");
    check_status(ctx, valid, prec, st, call);

    const int ok = st == 0;
    if (A.gd) fz_check(g.queue, A.gd, !ok || !posv, call);
    if (B.gd) fz_check(g.queue, B.gd, !ok, call);
    if (I.gd) fz_check(g.queue, I.gd, !ok || !posv, call);
    if (!ok || batch == 0) return;
    const int *info = posv && I.gd ? check_info(I.gd, batch, n < 0 ? 0 : n, call) : NULL;
    if (posv && A.gd) {
        unsigned char *may = calloc(A.gd->size / es, 1);
        mark_strided(may, A.gd->size / es, oa, lda, sa, batch, n, n, tri_of(uplo));
        fz_check_mask(A.gd, may, es, "posv: A");
        free(may);
    }
    if (B.gd) {
        unsigned char *may = calloc(B.gd->size / es, 1);
        for (int64_t b = 0; b < batch && n > 0 && nrhs > 0; b++) /* posv: a failed factorization keeps its B */
            if (!info || !info[b]) mark_strided(may, B.gd->size / es, ob + b * sb, ldb, 0, 1, n, nrhs, 0);
        fz_check_mask(B.gd, may, es, "solve: B");
        free(may);
    }
}

/* ---- interleaved: potrf, potrs, posv ----------------------------------------------- */

static void random_params(fz_reader *r, bchol_params *prm) {
    memset(prm, 0, sizeof *prm);
    prm->variant = (bchol_variant)((int8_t)fz_u8(r) % 5);
    prm->inb = (int8_t)fz_u8(r) % 80;
    prm->looking = (int8_t)fz_u8(r) % 5;
    prm->unroll = (int8_t)fz_u8(r) % 4;
    prm->chunking = (int8_t)fz_u8(r) % 5;
    prm->chunk = (int8_t)fz_u8(r) * 9;
    prm->math = (int8_t)fz_u8(r) % 4;
}

/* what: 0 potrf, 1 potrs, 2 posv */
static void fuzz_interleaved(fz_reader *r, char prec, int what, int ex) {
    const int es = prec == 'd' ? 8 : 4;
    bchol_params fp;
    random_params(r, &fp);
    bchol_solve_params sp = {(bchol_solve_variant)((int8_t)fz_u8(r) % 3), (int8_t)fz_u8(r) % 40,
                             (int8_t)fz_u8(r) % 70, (int8_t)fz_u8(r) % 70};
    const int use_params = ex && fz_u8(r) % 4;
    bchol_context *ctx = fz_u8(r) % 16 ? g.ctx : NULL;
    char uplo = fz_uplo(r);
    int n = fz_int(fz_value(r, fz_u8(r) % 9, 0));
    int nrhs = what ? fz_int(fz_value(r, fz_u8(r) % 5, 0)) : 0;
    int64_t batch = fz_value(r, fz_u8(r) % 9, 1);
    int64_t chunk = fz_value(r, 1 + fz_u8(r) % 8, 1);
    arg_buf A = pick(r, &g.a), B = what ? pick(r, &g.b) : (arg_buf){NULL, NULL};
    arg_buf I = what != 1 ? pick(r, &g.info) : (arg_buf){NULL, NULL};
    const int want_event = fz_u8(r) % 2;

    const int params_ok = !use_params || (what == 1 ? solve_params_ok(&sp, 1) : ilv_params_ok(&fp, n));
    int valid = ctx && params_ok && fz_uplo_ok(uplo) && n >= 0 && nrhs >= 0 && batch >= 0 && chunk >= 1;
    if (valid && batch > 0 && n > 0 && (what != 1 || nrhs > 0)) {
        valid = holds(A, ilv_span(n, n, batch, chunk) * es);
        if (what && nrhs > 0) valid = valid && holds(B, ilv_span(n, nrhs, batch, chunk) * es);
    }
    if (valid && what != 1 && batch > 0) valid = holds(I, (__int128)batch * 4); /* batch may be near 2^63 */

    arg_buf *bufs[] = {&A, &B, &I};
    reset_all(bufs, 3);
    cl_event ev = (cl_event)&ev, *evp = want_event ? &ev : NULL;
    const bchol_params *fpp = use_params ? &fp : NULL;
    const bchol_solve_params *spp = use_params ? &sp : NULL;
    const int d = prec == 'd';
    bchol_status st;
    if (what == 0)
        st = ex ? (d ? bchol_dpotrf_interleaved_ex : bchol_spotrf_interleaved_ex)(
                      ctx, fpp, uplo, n, A.m, batch, chunk, I.m, evp)
                : (d ? bchol_dpotrf_interleaved : bchol_spotrf_interleaved)(ctx, uplo, n, A.m, batch,
                                                                             chunk, I.m, evp);
    else if (what == 1)
        st = ex ? (d ? bchol_dpotrs_interleaved_ex : bchol_spotrs_interleaved_ex)(
                      ctx, spp, uplo, n, nrhs, A.m, B.m, batch, chunk, evp)
                : (d ? bchol_dpotrs_interleaved : bchol_spotrs_interleaved)(ctx, uplo, n, nrhs, A.m,
                                                                             B.m, batch, chunk, evp);
    else
        st = ex ? (d ? bchol_dposv_interleaved_ex : bchol_sposv_interleaved_ex)(
                      ctx, fpp, uplo, n, nrhs, A.m, B.m, batch, chunk, I.m, evp)
                : (d ? bchol_dposv_interleaved : bchol_sposv_interleaved)(
                      ctx, uplo, n, nrhs, A.m, B.m, batch, chunk, I.m, evp);
    check_event(want_event, ev, st, batch > 0 && (what != 1 || (n > 0 && nrhs > 0)));
    clFinish(g.queue);
    char call[256];
    static const char *const names[] = {"potrf", "potrs", "posv"};
    snprintf(call, sizeof call,
             "%c%s_interleaved%s(uplo=%d n=%d nrhs=%d A=%zu B=%zu batch=%lld chunk=%lld info=%zu "
             "params=%s)",
             prec, names[what], ex ? "_ex" : "", uplo, n, nrhs, bytes_of(A), bytes_of(B),
             (long long)batch, (long long)chunk, bytes_of(I), use_params ? "set" : "NULL");
    check_status(ctx, valid, prec, st, call);

    const int ok = st == 0;
    if (A.gd) fz_check(g.queue, A.gd, !ok || what == 1, call);
    if (B.gd) fz_check(g.queue, B.gd, !ok, call);
    if (I.gd) fz_check(g.queue, I.gd, !ok, call);
    if (!ok || batch == 0) return;
    const int *info = I.gd ? check_info(I.gd, batch, n < 0 ? 0 : n, call) : NULL;
    if (what != 1 && A.gd) {
        unsigned char *may = calloc(A.gd->size / es, 1);
        mark_interleaved(may, A.gd->size / es, batch, chunk, n, n, tri_of(uplo), NULL);
        fz_check_mask(A.gd, may, es, "interleaved: A");
        free(may);
    }
    if (B.gd) {
        unsigned char *may = calloc(B.gd->size / es, 1);
        mark_interleaved(may, B.gd->size / es, batch, chunk, n, nrhs, 0, info);
        fz_check_mask(B.gd, may, es, "interleaved: B");
        free(may);
    }
}

/* ---- layout conversions ------------------------------------------------------------ */

/* rhs: the right-hand-side forms; back: interleaved to strided. */
static void fuzz_convert(fz_reader *r, char prec, int rhs, int back) {
    const int es = prec == 'd' ? 8 : 4;
    bchol_context *ctx = fz_u8(r) % 16 ? g.ctx : NULL;
    static const char uplos[] = "LUAlua";
    const uint8_t k = fz_u8(r);
    char uplo = k < 240 ? uplos[k % 6] : (char)fz_u8(r);
    int n = fz_int(fz_value(r, fz_u8(r) % 9, 0));
    int cols = rhs ? fz_int(fz_value(r, fz_u8(r) % 5, 0)) : n;
    int ld = fz_int(fz_value(r, max1(n), 0));
    int64_t offset = fz_value(r, fz_u8(r) % 8, 1);
    int64_t stride = fz_value(r, (int64_t)ld * cols + fz_u8(r) % 4, 1);
    int64_t batch = fz_value(r, fz_u8(r) % 9, 1);
    int64_t chunk = fz_value(r, 1 + fz_u8(r) % 8, 1);
    /* strided side from the A pool, interleaved side from the B pool */
    arg_buf S = pick(r, &g.a), L = pick(r, &g.b);
    const int want_event = fz_u8(r) % 2;

    /* uplo: 'L' or 'U', or 'A' (the whole matrix); a lowercase 'a' may go either way */
    const int uplo_ok = rhs || fz_uplo_ok(uplo) || uplo == 'A';
    int valid = ctx && uplo_ok && n >= 0 && cols >= 0 && offset >= 0 && ld >= max1(n) &&
                stride >= (int64_t)ld * cols && batch >= 0 && chunk >= 1;
    valid = valid && (rhs ? n == 0 || cols == 0 ||
                                ((int64_t)(cols - 1) * ld + n <= INT_MAX && (int64_t)n * cols <= INT_MAX)
                          : fits32(n, ld));
    if (valid && batch > 0 && n > 0 && cols > 0)
        valid = holds(S, span(offset, stride, batch, ld, n, cols) * es) &&
                holds(L, ilv_span(n, cols, batch, chunk) * es);
    const int either = !rhs && (uplo == 'a');

    arg_buf *bufs[] = {&S, &L};
    reset_all(bufs, 2);
    cl_event ev = (cl_event)&ev, *evp = want_event ? &ev : NULL;
    const int d = prec == 'd';
    bchol_status st;
    if (rhs && !back)
        st = (d ? bchol_dinterleave_rhs : bchol_sinterleave_rhs)(ctx, n, cols, S.m, offset, ld,
                                                                  stride, batch, L.m, chunk, evp);
    else if (rhs)
        st = (d ? bchol_ddeinterleave_rhs : bchol_sdeinterleave_rhs)(ctx, n, cols, L.m, batch, chunk,
                                                                      S.m, offset, ld, stride, evp);
    else if (!back)
        st = (d ? bchol_dinterleave : bchol_sinterleave)(ctx, uplo, n, S.m, offset, ld, stride,
                                                          batch, L.m, chunk, evp);
    else
        st = (d ? bchol_ddeinterleave : bchol_sdeinterleave)(ctx, uplo, n, L.m, batch, chunk, S.m,
                                                              offset, ld, stride, evp);
    check_event(want_event, ev, st, batch > 0 && n > 0 && cols > 0);
    clFinish(g.queue);
    char call[256];
    snprintf(call, sizeof call,
             "%c%s%s(uplo=%d n=%d cols=%d strided=%zu offset=%lld ld=%d stride=%lld batch=%lld "
             "interleaved=%zu chunk=%lld)",
             prec, back ? "deinterleave" : "interleave", rhs ? "_rhs" : "", uplo, n, cols,
             bytes_of(S), (long long)offset, ld, (long long)stride, (long long)batch, bytes_of(L),
             (long long)chunk);
    if (either)
        REQUIRE(st == 0 || fz_bad_argument(st), "%s returned %d", call, st);
    else
        check_status(ctx, valid, prec, st, call);
    const int ok = st == 0;
    if (S.gd) fz_check(g.queue, S.gd, !ok || !back, call);
    if (L.gd) fz_check(g.queue, L.gd, !ok || back, call);
    if (!ok || batch == 0 || n <= 0 || cols <= 0) return;
    const char tri = rhs || uplo == 'A' || uplo == 'a' ? 0 : tri_of(uplo);
    fz_guarded *dst = back ? S.gd : L.gd;
    if (!dst) return;
    unsigned char *may = calloc(dst->size / es, 1);
    if (back)
        mark_strided(may, dst->size / es, offset, ld, stride, batch, n, cols, tri);
    else
        mark_interleaved(may, dst->size / es, batch, chunk, n, cols, tri, NULL);
    fz_check_mask(dst, may, es, call);
    free(may);
}

/* ---- vbatched ---------------------------------------------------------------------- */

/* Per-matrix entries: mostly a packed, well-formed layout, with some bad values. */
static int entry_int(fz_reader *r, int good) {
    const uint8_t k = fz_u8(r);
    if (k < 200) return good;
    if (k < 230) { /* near good, in 64 bits: good may be INT_MAX (n, then lda) */
        const int64_t v = (int64_t)good + (int)(fz_u8(r) % 5) - 3;
        return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
    }
    return (int32_t)fz_u64(r);
}

static int64_t entry_long(fz_reader *r, int64_t good) {
    const uint8_t k = fz_u8(r);
    if (k < 200) return good;
    if (k < 230) return good + (int64_t)(fz_u8(r) % 9) - 5;
    return (int64_t)fz_u64(r);
}

typedef struct {
    int64_t start, end; /* footprint in elements; end == start: none */
} footprint;

/* The documented info codes of the per-matrix entries (bchol.h, BCHOL_INFO_*): code[b]
 * is 0 for a well-formed entry. Overlaps are decided in index order among the entries
 * with a footprint. */
static void overlap_codes(const footprint *f, int *code, int64_t batch, int overlap) {
    int64_t end_before = INT64_MIN;
    for (int64_t b = 0; b < batch; b++) {
        if (code[b] || f[b].end == f[b].start) continue;
        if (f[b].start < end_before) code[b] = overlap;
        /* an entry rejected for overlapping still ends the earlier footprints */
        if (f[b].end > end_before) end_before = f[b].end;
    }
    int64_t start_after = INT64_MAX;
    for (int64_t b = batch - 1; b >= 0; b--) {
        if ((code[b] && code[b] != overlap) || f[b].end == f[b].start) continue;
        if (f[b].end > start_after && !code[b]) code[b] = overlap;
        if (f[b].start < start_after) start_after = f[b].start;
    }
}

/* A vbatched call's arguments, as the checks of its result need them. */
typedef struct {
    int what, ex;
    char uplo;
    int max_n, max_nrhs;
    int64_t batch;
    const int *n, *lda;
    const int64_t *oa;
    const int *nrhs, *ldb;
    const int64_t *ob;
    int64_t a_elems, b_elems; /* as the routine knows them; INT64_MAX: not known (host) */
    size_t a_len, b_len;      /* elements of the arrays given */
} vb_call;

static __int128 end_of(int64_t offset, int rows, int cols, int ld) {
    return (__int128)offset + (__int128)(cols - 1) * ld + rows;
}

/* info holds the documented code of each bad entry (matrix arrays first) and a pivot in
 * range for the good ones; only good matrices changed: their triangle in A (posv, potrf),
 * their block in B (solved ones only). */
static void vb_check(const char *call, const vb_call *c, const int *info, int es,
                     const unsigned char *a0, const unsigned char *a1, const unsigned char *b0,
                     const unsigned char *b1) {
    const int *n = c->n, *lda = c->lda, *nrhs = c->nrhs, *ldb = c->ldb;
    const int64_t *oa = c->oa, *ob = c->ob, batch = c->batch;
    int code[VB_MAX] = {0};
    footprint fa[VB_MAX] = {{0, 0}}, fb[VB_MAX] = {{0, 0}};
    for (int64_t b = 0; b < batch; b++) {
        if (n[b] < 0) code[b] = BCHOL_INFO_BAD_N;
        else if (lda[b] < max1(n[b]) || !fits32(n[b], lda[b])) code[b] = BCHOL_INFO_BAD_LDA;
        else if (oa[b] < 0 || (n[b] > 0 && end_of(oa[b], n[b], n[b], lda[b]) > c->a_elems))
            code[b] = BCHOL_INFO_BAD_OFFSET;
        else if (c->ex && n[b] > c->max_n) code[b] = BCHOL_INFO_ABOVE_MAX_N;
        else if (n[b] > 0) fa[b].start = oa[b], fa[b].end = (int64_t)end_of(oa[b], n[b], n[b], lda[b]);
    }
    overlap_codes(fa, code, batch, BCHOL_INFO_OVERLAP);
    int either[VB_MAX] = {0}; /* entries whose right-hand sides do not matter */
    for (int64_t b = 0; c->what && b < batch; b++) {
        if (code[b]) continue;
        /* n[b] = 0 is skipped: whether its right-hand sides are checked is not said */
        either[b] = n[b] == 0;
        if (nrhs[b] < 0) code[b] = BCHOL_INFO_BAD_NRHS;
        else if (ldb[b] < max1(n[b])) code[b] = BCHOL_INFO_BAD_LDB;
        else if (ob[b] < 0 ||
                 (nrhs[b] > 0 && n[b] > 0 && end_of(ob[b], n[b], nrhs[b], ldb[b]) > c->b_elems))
            code[b] = BCHOL_INFO_BAD_OFFSET_B;
        else if (c->ex && nrhs[b] > c->max_nrhs) code[b] = BCHOL_INFO_ABOVE_MAX_NRHS;
        else if (nrhs[b] > 0 && n[b] > 0)
            fb[b].start = ob[b], fb[b].end = (int64_t)end_of(ob[b], n[b], nrhs[b], ldb[b]);
    }
    if (c->what) overlap_codes(fb, code, batch, BCHOL_INFO_OVERLAP_B);
    if (g.trace) {
        fprintf(stderr, "  entries:");
        for (int64_t b = 0; b < batch; b++)
            fprintf(stderr, " %d", code[b]);
        fprintf(stderr, "\n");
    }
    for (int64_t b = 0; b < batch; b++) {
        if (either[b] && (info[b] == 0 || info[b] <= BCHOL_INFO_BAD_NRHS)) continue;
        if (code[b])
            REQUIRE(info[b] == code[b],
                    "%s: info[%lld] = %d, the entry (n=%d lda=%d oa=%lld nrhs=%d ldb=%d ob=%lld) "
                    "makes it %d",
                    call, (long long)b, info[b], n[b], lda[b], (long long)oa[b],
                    c->what ? nrhs[b] : 0, c->what ? ldb[b] : 0, c->what ? (long long)ob[b] : 0,
                    code[b]);
        else
            REQUIRE(info[b] >= 0 && info[b] <= n[b] && (c->what != 1 || info[b] == 0),
                    "%s: info[%lld] = %d for a good matrix of order %d", call, (long long)b,
                    info[b], n[b]);
    }
    /* the mask covers the footprints, which lie inside the arrays for good entries */
    int64_t a_max = 0, b_max = 0;
    for (int64_t b = 0; b < batch; b++) {
        if (info[b] >= 0 && n[b] > 0) a_max = fa[b].end > a_max ? fa[b].end : a_max;
        if (info[b] == 0 && n[b] > 0 && c->what) b_max = fb[b].end > b_max ? fb[b].end : b_max;
    }
    unsigned char *may = calloc((size_t)a_max + 1, 1);
    for (int64_t b = 0; b < batch; b++)
        if (info[b] >= 0 && c->what != 1 && n[b] > 0)
            mark_strided(may, (size_t)a_max, oa[b], lda[b], 0, 1, n[b], n[b], tri_of(c->uplo));
    fz_changes(a0, a1, c->a_len, may, (size_t)a_max, es, "vbatched: A");
    free(may);
    if (c->what && b0) {
        may = calloc((size_t)b_max + 1, 1);
        for (int64_t b = 0; b < batch; b++)
            if (info[b] == 0 && n[b] > 0 && nrhs[b] > 0)
                mark_strided(may, (size_t)b_max, ob[b], ldb[b], 0, 1, n[b], nrhs[b], 0);
        fz_changes(b0, b1, c->b_len, may, (size_t)b_max, es, "vbatched: B");
        free(may);
    }
}

/* what: 0 potrf, 1 potrs, 2 posv */
static void fuzz_vbatched(fz_reader *r, char prec, int what, int ex) {
    const int es = prec == 'd' ? 8 : 4;
    bchol_vbatched_params vp;
    random_params(r, &vp.fused);
    vp.fused.variant = (bchol_variant)((int8_t)fz_u8(r) % 5);
    vp.fused.ib = (int8_t)fz_u8(r) % 40;
    vp.fused.tbc = (int8_t)fz_u8(r) % 3;
    vp.fused.rpt = (int8_t)fz_u8(r) % 70;
    vp.fused.shape = (int8_t)fz_u8(r) % 4;
    vp.fused.nb = (int8_t)fz_u8(r) % 70;
    vp.fused.pb = (int8_t)fz_u8(r) % 70;
    vp.fused.gemm = (int8_t)fz_u8(r) % 4;
    vp.fused.tile = fz_u8(r) % 8 ? 0 : (int8_t)fz_u8(r) % 140;
    vp.etm = (bchol_etm)((int8_t)fz_u8(r) % 4);
    const int8_t sched = (int8_t)fz_u8(r); /* its high bits give the order: no byte more */
    vp.schedule = (bchol_schedule)(sched % 4);
    vp.order = (bchol_order)(sched / 4 % 4);
    vp.crossover = (int8_t)fz_u8(r) % 12;
    bchol_solve_params sp = {(bchol_solve_variant)((int8_t)fz_u8(r) % 3), (int8_t)fz_u8(r) % 40,
                             (int8_t)fz_u8(r) % 70, (int8_t)fz_u8(r) % 70};
    const int use_params = ex && fz_u8(r) % 4;
    bchol_context *ctx = fz_u8(r) % 16 ? g.ctx : NULL;
    char uplo = fz_uplo(r);
    int max_n = ex ? fz_int(fz_value(r, fz_u8(r) % 9, 0)) : -1;
    int max_nrhs = ex && what ? fz_int(fz_value(r, fz_u8(r) % 5, 0)) : -1;
    int64_t batch = fz_value(r, fz_u8(r) % 9, 1);
    arg_buf N = pick(r, &g.n), LDA = pick(r, &g.lda), OA = pick(r, &g.oa), A = pick(r, &g.a);
    arg_buf NR = what ? pick(r, &g.nrhs) : (arg_buf){NULL, NULL};
    arg_buf LDB = what ? pick(r, &g.ldb) : (arg_buf){NULL, NULL};
    arg_buf OB = what ? pick(r, &g.ob) : (arg_buf){NULL, NULL};
    arg_buf B = what ? pick(r, &g.b) : (arg_buf){NULL, NULL};
    arg_buf I = pick(r, &g.info);
    const int want_event = fz_u8(r) % 2;

    /* the entries, written into the payload of the arrays */
    int n[VB_MAX], lda[VB_MAX], nrhs[VB_MAX], ldb[VB_MAX];
    int64_t oa[VB_MAX], ob[VB_MAX];
    int64_t next_a = fz_u8(r) % 4, next_b = fz_u8(r) % 4;
    for (int b = 0; b < VB_MAX; b++) {
        n[b] = entry_int(r, fz_u8(r) % 7);
        const int64_t lda_pick = (int64_t)max1(n[b]) + fz_u8(r) % 2; /* n may be INT_MAX */
        lda[b] = entry_int(r, lda_pick > INT_MAX ? INT_MAX : (int)lda_pick);
        oa[b] = entry_long(r, next_a);
        /* the next matrix follows this one (raw offsets may be near the type's limits) */
        if (n[b] > 0 && lda[b] > 0 && lda[b] < 64 && oa[b] >= 0 && oa[b] < ((int64_t)1 << 40))
            next_a = (int64_t)end_of(oa[b], n[b], n[b], lda[b]);
        nrhs[b] = entry_int(r, fz_u8(r) % 4);
        ldb[b] = entry_int(r, max1(n[b]));
        ob[b] = entry_long(r, next_b);
        if (n[b] > 0 && nrhs[b] > 0 && ldb[b] > 0 && ldb[b] < 64 && ob[b] >= 0 &&
            ob[b] < ((int64_t)1 << 40))
            next_b = (int64_t)end_of(ob[b], n[b], nrhs[b], ldb[b]);
    }
    /* the small arrays hold the first entries: a call that reads past them is caught */
    pool *const arrays[] = {&g.n, &g.lda, &g.oa, &g.nrhs, &g.ldb, &g.ob};
    const void *const values[] = {n, lda, oa, nrhs, ldb, ob};
    for (int i = 0; i < 6; i++) {
        memcpy(fz_payload(&arrays[i]->big), values[i], arrays[i]->big.size);
        memcpy(fz_payload(&arrays[i]->small), values[i], arrays[i]->small.size);
    }

    int params_ok = 1;
    if (use_params && what == 1) params_ok = solve_params_ok(&sp, 0);
    if (use_params && what != 1) {
        const bchol_params *f = &vp.fused;
        params_ok = (f->variant == BCHOL_VARIANT_AUTO || f->variant == BCHOL_VARIANT_FUSED ||
                     f->variant == BCHOL_VARIANT_SEPARATE) &&
                    f->ib <= 32 && f->tbc <= 64 && f->rpt <= 64 && f->shape <= BCHOL_SHAPE_PACK &&
                    f->nb <= 64 && f->pb <= 64 && f->gemm <= BCHOL_GEMM_OWN &&
                    (f->tile <= 0 || f->tile == 16 || f->tile == 32 || f->tile == 64 ||
                     f->tile == 128) &&
                    vp.etm <= BCHOL_ETM_AGGRESSIVE && vp.schedule <= BCHOL_SCHEDULE_ONE_LAUNCH &&
                    vp.order <= BCHOL_ORDER_STEPS;
    }
    if (use_params && what == 2) params_ok = solve_params_ok(&sp, 0);
    int valid = ctx && params_ok && fz_uplo_ok(uplo) && (!ex || max_n >= 0) &&
                (!ex || !what || max_nrhs >= 0) && batch >= 0 && batch < ((int64_t)1 << 60);
    if (valid && batch > 0)
        valid = holds(N, batch * 4) && holds(LDA, batch * 4) && holds(OA, batch * 8) && A.gd &&
                holds(I, batch * 4) &&
                (!what || (holds(NR, batch * 4) && holds(LDB, batch * 4) && holds(OB, batch * 8) &&
                           B.gd));

    arg_buf *bufs[] = {&N, &LDA, &OA, &A, &NR, &LDB, &OB, &B, &I};
    reset_all(bufs, 9);
    cl_event ev = (cl_event)&ev, *evp = want_event ? &ev : NULL;
    const int d = prec == 'd';
    const bchol_vbatched_params *vpp = use_params ? &vp : NULL;
    const bchol_solve_params *spp = use_params ? &sp : NULL;
    bchol_status st;
    if (what == 0)
        st = ex ? (d ? bchol_dpotrf_vbatched_ex : bchol_spotrf_vbatched_ex)(
                      ctx, vpp, uplo, max_n, N.m, LDA.m, OA.m, A.m, batch, I.m, evp)
                : (d ? bchol_dpotrf_vbatched : bchol_spotrf_vbatched)(ctx, uplo, N.m, LDA.m, OA.m,
                                                                       A.m, batch, I.m, evp);
    else if (what == 1)
        st = ex ? (d ? bchol_dpotrs_vbatched_ex : bchol_spotrs_vbatched_ex)(
                      ctx, spp, uplo, max_n, max_nrhs, N.m, NR.m, LDA.m, LDB.m, OA.m, A.m, OB.m,
                      B.m, batch, I.m, evp)
                : (d ? bchol_dpotrs_vbatched : bchol_spotrs_vbatched)(
                      ctx, uplo, N.m, NR.m, LDA.m, LDB.m, OA.m, A.m, OB.m, B.m, batch, I.m, evp);
    else
        st = ex ? (d ? bchol_dposv_vbatched_ex : bchol_sposv_vbatched_ex)(
                      ctx, spp, uplo, max_n, max_nrhs, N.m, NR.m, LDA.m, LDB.m, OA.m, A.m, OB.m,
                      B.m, batch, I.m, evp)
                : (d ? bchol_dposv_vbatched : bchol_sposv_vbatched)(
                      ctx, uplo, N.m, NR.m, LDA.m, LDB.m, OA.m, A.m, OB.m, B.m, batch, I.m, evp);
    check_event(want_event, ev, st, batch > 0);
    clFinish(g.queue);
    char call[256];
    static const char *const names[] = {"potrf", "potrs", "posv"};
    snprintf(call, sizeof call,
             "%c%s_vbatched%s(uplo=%d max_n=%d max_nrhs=%d batch=%lld n=%zu lda=%zu oa=%zu A=%zu "
             "nrhs=%zu ldb=%zu ob=%zu B=%zu info=%zu params=%s)",
             prec, names[what], ex ? "_ex" : "", uplo, max_n, max_nrhs, (long long)batch,
             bytes_of(N), bytes_of(LDA), bytes_of(OA), bytes_of(A), bytes_of(NR), bytes_of(LDB),
             bytes_of(OB), bytes_of(B), bytes_of(I), use_params ? "set" : "NULL");
    /* The plain forms read the largest n back: a batch past the fused kernel's reach may
     * be unsupported on the device, which fz_cannot_here covers. */
    check_status(ctx, valid, prec, st, call);

    const int ok = st == 0;
    for (int i = 0; i < 9; i++)
        if (bufs[i]->gd)
            fz_check(g.queue, bufs[i]->gd, !ok || (bufs[i] != &A && bufs[i] != &B && bufs[i] != &I) ||
                                               (what == 1 && bufs[i] == &A),
                     call);
    if (!ok || batch == 0) return;

    vb_check(call, &(vb_call){what, ex, uplo, max_n, max_nrhs, batch, n, lda, oa, nrhs, ldb, ob,
                              (int64_t)(A.gd->size / es), B.gd ? (int64_t)(B.gd->size / es) : 0,
                              A.gd->size / es, B.gd ? B.gd->size / es : 0},
             (const int *)(I.gd->after + FZ_GUARD), es, A.gd->before + FZ_GUARD,
             A.gd->after + FZ_GUARD, B.gd ? B.gd->before + FZ_GUARD : NULL,
             B.gd ? B.gd->after + FZ_GUARD : NULL);
    REQUIRE(!memcmp(I.gd->after + FZ_GUARD + batch * 4, I.gd->before + FZ_GUARD + batch * 4,
                    I.gd->size - batch * 4),
            "%s: info written past the batch", call);
}

/* ---- host conveniences ------------------------------------------------------------ */

/* Host arrays exactly as long as the arguments say (AddressSanitizer watches them); a
 * valid call too large to hold is skipped, an invalid one gets one element. */
static void fuzz_solve_host(fz_reader *r, char prec, int posv) {
    const int es = prec == 'd' ? 8 : 4;
    bchol_context *ctx = fz_u8(r) % 16 ? g.ctx : NULL;
    char uplo = fz_uplo(r);
    int n = fz_int(fz_value(r, fz_u8(r) % 9, 0));
    int nrhs = fz_int(fz_value(r, fz_u8(r) % 5, 0));
    int lda = fz_int(fz_value(r, max1(n), 0));
    int ldb = fz_int(fz_value(r, max1(n), 0));
    int64_t sa = fz_value(r, (int64_t)lda * n + fz_u8(r) % 4, 1);
    int64_t sb = fz_value(r, (int64_t)ldb * nrhs + fz_u8(r) % 4, 1);
    int64_t batch = fz_value(r, fz_u8(r) % 9, 1);
    const int null_a = fz_u8(r) % 8 == 0, null_b = fz_u8(r) % 8 == 0, null_i = fz_u8(r) % 8 == 0;

    const int solve = n > 0 && nrhs > 0;
    int valid = ctx && fz_uplo_ok(uplo) && n >= 0 && nrhs >= 0 && lda >= max1(n) &&
                fits32(n, lda) && sa >= (int64_t)lda * n && ldb >= max1(n) &&
                sb >= (int64_t)ldb * nrhs && batch >= 0;
    valid = valid && !(batch > 0 && ((null_a && n > 0 && (solve || posv)) || (null_b && solve) ||
                                     (null_i && posv)));
    size_t ea = 1, eb = 1, ei = 1;
    if (valid && batch > 0) {
        __int128 sA = span(0, sa, batch, lda, n, n), sB = span(0, sb, batch, ldb, n, nrhs);
        if (sA < 0 || sB < 0 || sA * es > (1 << 20) || sB * es > (1 << 20) || batch > (1 << 16))
            return;
        ea = sA > 0 ? (size_t)sA : 1, eb = sB > 0 ? (size_t)sB : 1, ei = (size_t)batch;
    }
    unsigned char *a = null_a ? NULL : malloc(ea * es), *a0 = malloc(ea * es);
    unsigned char *b = null_b ? NULL : malloc(eb * es), *b0 = malloc(eb * es);
    int *info = null_i ? NULL : malloc(ei * sizeof(int));
    for (size_t i = 0; i < ea * es; i++)
        a0[i] = (unsigned char)(i * 7 + 1);
    for (size_t i = 0; i < eb * es; i++)
        b0[i] = (unsigned char)(i * 11 + 3);
    if (a) memcpy(a, a0, ea * es);
    if (b) memcpy(b, b0, eb * es);
    const int d = prec == 'd';
    bchol_status st;
    if (posv)
        st = d ? bchol_dposv_batched_host(ctx, uplo, n, nrhs, (double *)a, lda, sa, (double *)b, ldb,
                                          sb, batch, info)
               : bchol_sposv_batched_host(ctx, uplo, n, nrhs, (float *)a, lda, sa, (float *)b, ldb,
                                          sb, batch, info);
    else
        st = d ? bchol_dpotrs_batched_host(ctx, uplo, n, nrhs, (const double *)a, lda, sa,
                                           (double *)b, ldb, sb, batch)
               : bchol_spotrs_batched_host(ctx, uplo, n, nrhs, (const float *)a, lda, sa,
                                           (float *)b, ldb, sb, batch);
    char call[256];
    snprintf(call, sizeof call,
             "%c%s_batched_host(uplo=%d n=%d nrhs=%d lda=%d sa=%lld ldb=%d sb=%lld batch=%lld "
             "A=%s B=%s info=%s)",
             prec, posv ? "posv" : "potrs", uplo, n, nrhs, lda, (long long)sa, ldb, (long long)sb,
             (long long)batch, a ? "set" : "NULL", b ? "set" : "NULL", info ? "set" : "NULL");
    check_status(ctx, valid, prec, st, call);
    if (st == 0 && valid && batch > 0) {
        unsigned char *may = calloc(ea, 1);
        if (posv && n > 0) mark_strided(may, ea, 0, lda, sa, batch, n, n, tri_of(uplo));
        if (a) fz_changes(a0, a, ea, may, ea, es, "host solve: A");
        free(may);
        may = calloc(eb, 1);
        for (int64_t k = 0; k < batch && solve; k++) {
            if (posv) REQUIRE(info[k] >= 0 && info[k] <= n, "%s: info[%lld] = %d", call, (long long)k, info[k]);
            if (!posv || !info[k]) mark_strided(may, eb, k * sb, ldb, 0, 1, n, nrhs, 0);
        }
        if (b) fz_changes(b0, b, eb, may, eb, es, "host solve: B");
        free(may);
    } else if (st != 0) {
        REQUIRE(!a || !memcmp(a, a0, ea * es), "%s: failed and changed A", call);
        REQUIRE(!b || !memcmp(b, b0, eb * es), "%s: failed and changed B", call);
    }
    free(a), free(a0), free(b), free(b0), free(info);
}

/* The interleaved host forms (what: 0 potrf, 1 potrs, 2 posv): arrays of exactly the
 * spans bchol.h gives (a partial last chunk's lanes past the batch stop at its last
 * matrix); a valid call too large to hold is skipped, an invalid one gets one element. */
static void fuzz_ilv_host(fz_reader *r, char prec, int what) {
    const int es = prec == 'd' ? 8 : 4;
    bchol_context *ctx = fz_u8(r) % 16 ? g.ctx : NULL;
    char uplo = fz_uplo(r);
    int n = fz_int(fz_value(r, fz_u8(r) % 9, 0));
    int nrhs = what ? fz_int(fz_value(r, fz_u8(r) % 5, 0)) : 0;
    int64_t batch = fz_value(r, fz_u8(r) % 9, 1);
    int64_t chunk = fz_value(r, 1 + fz_u8(r) % 8, 1);
    const int null_a = fz_u8(r) % 8 == 0, null_b = fz_u8(r) % 8 == 0, null_i = fz_u8(r) % 8 == 0;

    const int factor = what != 1, solve = what && n > 0 && nrhs > 0;
    int valid = ctx && fz_uplo_ok(uplo) && n >= 0 && nrhs >= 0 && batch >= 0 && chunk >= 1;
    valid = valid && !(batch > 0 && ((null_a && n > 0 && (factor || solve)) || (null_b && solve) ||
                                     (null_i && factor)));
    size_t ea = 1, eb = 1, ei = 1;
    if (valid && batch > 0) {
        __int128 sA = ilv_span(n, n, batch, chunk), sB = ilv_span(n, nrhs, batch, chunk);
        if (sA < 0 || sB < 0 || sA * es > (1 << 20) || sB * es > (1 << 20) || batch > (1 << 16))
            return;
        ea = sA > 0 ? (size_t)sA : 1, eb = sB > 0 ? (size_t)sB : 1, ei = (size_t)batch;
    }
    unsigned char *a = null_a ? NULL : malloc(ea * es), *a0 = malloc(ea * es);
    unsigned char *b = null_b ? NULL : malloc(eb * es), *b0 = malloc(eb * es);
    int *info = null_i ? NULL : malloc(ei * sizeof(int));
    for (size_t i = 0; i < ea * es; i++)
        a0[i] = (unsigned char)(i * 7 + 1);
    for (size_t i = 0; i < eb * es; i++)
        b0[i] = (unsigned char)(i * 11 + 3);
    if (a) memcpy(a, a0, ea * es);
    if (b) memcpy(b, b0, eb * es);
    const int d = prec == 'd';
    bchol_status st;
    if (what == 0)
        st = d ? bchol_dpotrf_interleaved_host(ctx, uplo, n, (double *)a, batch, chunk, info)
               : bchol_spotrf_interleaved_host(ctx, uplo, n, (float *)a, batch, chunk, info);
    else if (what == 1)
        st = d ? bchol_dpotrs_interleaved_host(ctx, uplo, n, nrhs, (const double *)a, (double *)b,
                                               batch, chunk)
               : bchol_spotrs_interleaved_host(ctx, uplo, n, nrhs, (const float *)a, (float *)b,
                                               batch, chunk);
    else
        st = d ? bchol_dposv_interleaved_host(ctx, uplo, n, nrhs, (double *)a, (double *)b, batch,
                                              chunk, info)
               : bchol_sposv_interleaved_host(ctx, uplo, n, nrhs, (float *)a, (float *)b, batch,
                                              chunk, info);
    static const char *const names[] = {"potrf", "potrs", "posv"};
    char call[256];
    snprintf(call, sizeof call,
             "%c%s_interleaved_host(uplo=%d n=%d nrhs=%d batch=%lld chunk=%lld A=%s B=%s info=%s)",
             prec, names[what], uplo, n, nrhs, (long long)batch, (long long)chunk,
             a ? "set" : "NULL", b ? "set" : "NULL", info ? "set" : "NULL");
    check_status(ctx, valid, prec, st, call);
    if (st == 0 && valid && batch > 0) {
        for (int64_t k = 0; k < batch && factor; k++)
            REQUIRE(info[k] >= 0 && info[k] <= n, "%s: info[%lld] = %d", call, (long long)k, info[k]);
        unsigned char *may = calloc(ea, 1);
        if (factor && n > 0) mark_interleaved(may, ea, batch, chunk, n, n, tri_of(uplo), NULL);
        if (a) fz_changes(a0, a, ea, may, ea, es, "interleaved host: A");
        free(may);
        may = calloc(eb, 1);
        if (solve) mark_interleaved(may, eb, batch, chunk, n, nrhs, 0, factor ? info : NULL);
        if (b) fz_changes(b0, b, eb, may, eb, es, "interleaved host: B");
        free(may);
    } else if (st != 0) {
        REQUIRE(!a || !memcmp(a, a0, ea * es), "%s: failed and changed A", call);
        REQUIRE(!b || !memcmp(b, b0, eb * es), "%s: failed and changed B", call);
    }
    free(a), free(a0), free(b), free(b0), free(info);
}

/* The vbatched host forms cannot know how long A and B are: every footprint the arrays
 * describe lies inside them (offsets past the end become negative), and the arrays hold
 * exactly batch entries. */
static void fuzz_vbatched_host(fz_reader *r, char prec, int what) {
    const int es = prec == 'd' ? 8 : 4;
    bchol_context *ctx = fz_u8(r) % 16 ? g.ctx : NULL;
    char uplo = fz_uplo(r);
    int64_t batch = fz_value(r, fz_u8(r) % 9, 1);
    const uint8_t nulls = fz_u8(r) < 32 ? fz_u8(r) : 0; /* one bit per array */
    int n[VB_MAX], lda[VB_MAX], nrhs[VB_MAX], ldb[VB_MAX];
    int64_t oa[VB_MAX], ob[VB_MAX], next_a = fz_u8(r) % 4, next_b = fz_u8(r) % 4;
    int64_t a_end = 1, b_end = 1;
    const int64_t cap = 2048;
    for (int b = 0; b < VB_MAX; b++) {
        n[b] = entry_int(r, fz_u8(r) % 7);
        const int64_t lda_pick = (int64_t)max1(n[b]) + fz_u8(r) % 2; /* n may be INT_MAX */
        lda[b] = entry_int(r, lda_pick > INT_MAX ? INT_MAX : (int)lda_pick);
        oa[b] = entry_long(r, next_a);
        nrhs[b] = entry_int(r, fz_u8(r) % 4);
        ldb[b] = entry_int(r, max1(n[b]));
        ob[b] = entry_long(r, next_b);
        if (n[b] > 0 && lda[b] >= n[b] && oa[b] >= 0) {
            if (end_of(oa[b], n[b], n[b], lda[b]) > cap) oa[b] = -1 - (oa[b] & 7);
            else next_a = (int64_t)end_of(oa[b], n[b], n[b], lda[b]), a_end = next_a > a_end ? next_a : a_end;
        }
        if (n[b] > 0 && nrhs[b] > 0 && ldb[b] >= n[b] && ob[b] >= 0) {
            if (end_of(ob[b], n[b], nrhs[b], ldb[b]) > cap) ob[b] = -1 - (ob[b] & 7);
            else next_b = (int64_t)end_of(ob[b], n[b], nrhs[b], ldb[b]), b_end = next_b > b_end ? next_b : b_end;
        }
    }
    /* a_end, b_end cover every footprint: later entries only move the ends up */
    /* NULL per-matrix arrays are bad arguments (potrf takes no nrhs, ldb, offsets_b: bits
     * 5-7 do nothing there); a NULL A only when the arrays describe a matrix, since A is
     * not referenced otherwise (bchol.h: A holds every matrix the arrays describe). */
    const int null_array = batch > 0 && (nulls & (what == 0 ? 0x17 : 0xf7));
    int described = 0;
    for (int64_t b = 0; b < batch && b < VB_MAX; b++)
        described |= n[b] > 0 && lda[b] >= n[b] && oa[b] >= 0;
    const int precheck = ctx && fz_uplo_ok(uplo) && batch >= 0 && !null_array;
    /* past its argument checks the routine reads batch entries of each array */
    if (precheck && batch > VB_MAX) return;
    const int valid = precheck && !(batch > 0 && (nulls & 0x08) && described);
    const size_t cnt = batch > 0 && batch <= VB_MAX ? (size_t)batch : 1;
    int *hn = malloc(cnt * 4), *hlda = malloc(cnt * 4), *hnrhs = malloc(cnt * 4), *hldb = malloc(cnt * 4);
    int64_t *hoa = malloc(cnt * 8), *hob = malloc(cnt * 8);
    int *info = malloc(cnt * 4);
    memcpy(hn, n, cnt * 4), memcpy(hlda, lda, cnt * 4), memcpy(hnrhs, nrhs, cnt * 4);
    memcpy(hldb, ldb, cnt * 4), memcpy(hoa, oa, cnt * 8), memcpy(hob, ob, cnt * 8);
    unsigned char *a = malloc((size_t)a_end * es), *a0 = malloc((size_t)a_end * es);
    unsigned char *b = malloc((size_t)b_end * es), *b0 = malloc((size_t)b_end * es);
    for (size_t i = 0; i < (size_t)a_end * es; i++)
        a0[i] = (unsigned char)(i * 7 + 1);
    for (size_t i = 0; i < (size_t)b_end * es; i++)
        b0[i] = (unsigned char)(i * 11 + 3);
    memcpy(a, a0, (size_t)a_end * es), memcpy(b, b0, (size_t)b_end * es);
#define OR_NULL(bit, p) (nulls & (1 << (bit)) ? NULL : (p))
    const int d = prec == 'd';
    bchol_status st;
    if (what == 0)
        st = d ? bchol_dpotrf_vbatched_host(ctx, uplo, OR_NULL(0, hn), OR_NULL(1, hlda), OR_NULL(2, hoa),
                                            OR_NULL(3, (double *)a), batch, OR_NULL(4, info))
               : bchol_spotrf_vbatched_host(ctx, uplo, OR_NULL(0, hn), OR_NULL(1, hlda), OR_NULL(2, hoa),
                                            OR_NULL(3, (float *)a), batch, OR_NULL(4, info));
    else if (what == 1)
        st = d ? bchol_dpotrs_vbatched_host(ctx, uplo, OR_NULL(0, hn), OR_NULL(5, hnrhs), OR_NULL(1, hlda),
                                            OR_NULL(6, hldb), OR_NULL(2, hoa), OR_NULL(3, (const double *)a),
                                            OR_NULL(7, hob), (double *)b, batch, OR_NULL(4, info))
               : bchol_spotrs_vbatched_host(ctx, uplo, OR_NULL(0, hn), OR_NULL(5, hnrhs), OR_NULL(1, hlda),
                                            OR_NULL(6, hldb), OR_NULL(2, hoa), OR_NULL(3, (const float *)a),
                                            OR_NULL(7, hob), (float *)b, batch, OR_NULL(4, info));
    else
        st = d ? bchol_dposv_vbatched_host(ctx, uplo, OR_NULL(0, hn), OR_NULL(5, hnrhs), OR_NULL(1, hlda),
                                           OR_NULL(6, hldb), OR_NULL(2, hoa), OR_NULL(3, (double *)a),
                                           OR_NULL(7, hob), (double *)b, batch, OR_NULL(4, info))
               : bchol_sposv_vbatched_host(ctx, uplo, OR_NULL(0, hn), OR_NULL(5, hnrhs), OR_NULL(1, hlda),
                                           OR_NULL(6, hldb), OR_NULL(2, hoa), OR_NULL(3, (float *)a),
                                           OR_NULL(7, hob), (float *)b, batch, OR_NULL(4, info));
#undef OR_NULL
    static const char *const names[] = {"potrf", "potrs", "posv"};
    char call[160];
    snprintf(call, sizeof call, "%c%s_vbatched_host(uplo=%d batch=%lld nulls=%#x)", prec,
             names[what], uplo, (long long)batch, nulls);
    check_status(ctx, valid, prec, st, call);
    if (st == 0 && batch > 0)
        vb_check(call, &(vb_call){what, 0, uplo, 0, 0, batch, n, lda, oa, nrhs, ldb, ob, INT64_MAX, INT64_MAX,
                                  (size_t)a_end, (size_t)b_end},
                 info, es, a0, a, b0, b);
    else if (st != 0) {
        REQUIRE(!memcmp(a, a0, (size_t)a_end * es), "%s: failed and changed A", call);
        REQUIRE(!memcmp(b, b0, (size_t)b_end * es), "%s: failed and changed B", call);
    }
    free(hn), free(hlda), free(hnrhs), free(hldb), free(hoa), free(hob), free(info);
    free(a), free(a0), free(b), free(b0);
}

/* ---- parameter queries and prepare ------------------------------------------------- */

static void fuzz_params(fz_reader *r) {
    bchol_context *ctx = fz_u8(r) % 8 ? g.ctx : NULL;
    const char precision = fz_u8(r) % 4 ? "sd"[fz_u8(r) % 2] : (char)fz_u8(r);
    const char uplo = fz_uplo(r);
    int n = fz_int(fz_value(r, fz_u8(r) % 9, 0));
    int nrhs = fz_int(fz_value(r, fz_u8(r) % 5, 0));
    const int use_out = fz_u8(r) % 8 != 0, use_source = fz_u8(r) % 2;
    const char *source = NULL;
    const int prec_ok = precision == 's' || precision == 'd';
    bchol_status st;
    switch (fz_u8(r) % 3) {
    case 0: {
        bchol_solve_params sp;
        st = bchol_potrs_params(ctx, precision, n, nrhs, use_out ? &sp : NULL,
                                use_source ? &source : NULL);
        const int valid = ctx && prec_ok && n >= 0 && nrhs >= 0 && use_out;
        /* source may be asked for or not; n or nrhs beyond the device may be unsupported */
        REQUIRE(valid ? st == 0 || fz_cannot_here(st) : fz_bad_argument(st),
                "potrs_params(prec=%d n=%d nrhs=%d out=%d) returned %d (%s)", precision, n, nrhs,
                use_out, st, bchol_last_error(ctx));
        if (!st && use_source) REQUIRE(source && *source, "potrs_params: no source");
        break;
    }
    case 1: {
        bchol_vbatched_params vp;
        const int64_t batch = nrhs; /* the drawn nrhs serves as the batch: no more input read */
        st = bchol_potrf_vbatched_params(ctx, precision, n, batch, use_out ? &vp : NULL,
                                         use_source ? &source : NULL);
        /* valid: the arguments the two queries share; batch is the vbatched query's own */
        const int valid = ctx && prec_ok && n >= 0 && use_out;
        REQUIRE(valid && batch >= 0 ? st == 0 || fz_cannot_here(st) : fz_bad_argument(st),
                "potrf_vbatched_params(prec=%d max_n=%d batch=%lld out=%d) returned %d (%s)",
                precision, n, (long long)batch, use_out, st, bchol_last_error(ctx));
        if (!st) REQUIRE(vp.crossover >= 0, "potrf_vbatched_params: crossover %d", vp.crossover);
        /* the native interleaved query on the same arguments (no more input read: the
         * corpus keeps its meaning) */
        bchol_params ip;
        source = NULL;
        st = bchol_potrf_interleaved_params(ctx, precision, n, use_out ? &ip : NULL,
                                            use_source ? &source : NULL);
        REQUIRE(valid ? st == 0 : fz_bad_argument(st),
                "potrf_interleaved_params(prec=%d n=%d out=%d) returned %d (%s)", precision, n,
                use_out, st, bchol_last_error(ctx));
        if (!st) REQUIRE(ip.variant == BCHOL_VARIANT_INTERLEAVED && ip.inb > 0 && ip.chunk > 0,
                         "potrf_interleaved_params: variant %d inb %d chunk %d", ip.variant, ip.inb,
                         ip.chunk);
        if (!st && use_source) REQUIRE(source && *source, "potrf_interleaved_params: no source");
        break;
    }
    default: {
        /* n stays small where valid: prepare builds the kernels */
        bchol_params prm, eff;
        memset(&prm, 0, sizeof prm);
        prm.variant = (bchol_variant)((int8_t)fz_u8(r) % 5);
        prm.ib = (int8_t)fz_u8(r) % 40;
        prm.tbc = (int8_t)fz_u8(r) % 70;
        prm.rpt = (int8_t)fz_u8(r) % 70;
        prm.shape = (int8_t)fz_u8(r) % 4;
        const int use_params = fz_u8(r) % 2;
        if (n > 8) n = 8;
        st = bchol_potrf_prepare(ctx, use_params ? &prm : NULL, precision, uplo, n,
                                 use_out ? &eff : NULL);
        /* the parameters' ranges are those of potrf_batched_ex (fuzz_args checks them):
         * here only the sizes and pointers decide */
        const int invalid = !ctx || !prec_ok || !fz_uplo_ok(uplo) || n < 0 || !use_out;
        REQUIRE(invalid ? fz_bad_argument(st)
                        : precision == 'd' && g.no_fp64 ? st == BCHOL_ERR_NO_FP64 || fz_bad_argument(st)
                                                        : st == 0 || st <= -1,
                "potrf_prepare(prec=%d uplo=%d n=%d out=%d) returned %d (%s)", precision, uplo, n,
                use_out, st, bchol_last_error(ctx));
        REQUIRE(st != BCHOL_ERR_OPENCL && st != BCHOL_ERR_KERNEL_SOURCE,
                "potrf_prepare(n=%d) failed: %s", n, bchol_last_error(ctx));
        /* then the solve's prepare, if a byte past the above asks for it (inputs that end
         * before it, as the corpus's do, skip it) */
        if (fz_u8(r) % 2) {
            bchol_solve_params sp, seff;
            memset(&sp, 0, sizeof sp);
            sp.variant = (bchol_solve_variant)((int8_t)fz_u8(r) % 3);
            sp.nt = (int8_t)fz_u8(r) % 40;
            sp.rpt = (int8_t)fz_u8(r) % 70;
            sp.tbc = (int8_t)fz_u8(r) % 70;
            const int use_sp = fz_u8(r) % 2, k = nrhs > 8 ? 8 : nrhs;
            st = bchol_potrs_prepare(ctx, use_sp ? &sp : NULL, precision, uplo, n, k, use_out ? &seff : NULL);
            const int bad_params = use_sp && (((int)sp.variant < 0 || (int)sp.variant > 2) || sp.nt > 32 ||
                                              sp.rpt > 64 || sp.tbc > 64);
            const int bad = invalid || bad_params || k < 0;
            REQUIRE(fz_status_ok(!bad, precision == 'd' && g.no_fp64, st),
                    "potrs_prepare(prec=%d uplo=%d n=%d nrhs=%d out=%d) returned %d (%s)", precision, uplo, n, k,
                    use_out, st, bchol_last_error(ctx));
            if (!st && n > 0 && k > 0)
                REQUIRE((seff.variant == BCHOL_SOLVE_SUBST || seff.variant == BCHOL_SOLVE_WORKITEM) && seff.nt >= 1 && seff.nt <= 32 &&
                            (seff.nt == 1 || seff.nt / 2 < k) && seff.rpt >= 1 && seff.rpt <= 64 &&
                            seff.tbc >= 1 && seff.tbc <= 64,
                        "potrs_prepare(n=%d nrhs=%d): effective nt %d rpt %d tbc %d", n, k, seff.nt, seff.rpt,
                        seff.tbc);
        }
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_reader r = {data, size};
    const uint8_t k = fz_u8(&r);
    const char prec = k & 1 ? 'd' : 's';
    switch (k / 2 % 16) {
    case 0: fuzz_solve(&r, prec, 0, 0); break;
    case 1: fuzz_solve(&r, prec, 0, 1); break;
    case 2: fuzz_solve(&r, prec, 1, 0); break;
    case 3: fuzz_interleaved(&r, prec, 0, k / 32 % 2); break;
    case 4: fuzz_interleaved(&r, prec, 1, 0); break;
    case 5: fuzz_interleaved(&r, prec, 1, 1); break;
    case 6: fuzz_interleaved(&r, prec, 2, k / 32 % 2); break;
    case 7: fuzz_convert(&r, prec, 0, k / 32 % 2); break;
    case 8: fuzz_convert(&r, prec, 1, k / 32 % 2); break;
    case 9: fuzz_vbatched(&r, prec, 0, 0); break;
    case 10: fuzz_vbatched(&r, prec, 0, 1); break;
    case 11: fuzz_vbatched(&r, prec, 1, 0); break;
    case 12: fuzz_vbatched(&r, prec, 1, 1); break;
    case 13: fuzz_vbatched(&r, prec, 2, 0); break;
    case 14: fuzz_vbatched(&r, prec, 2, 1); break;
    default:
        if (k / 32 % 2 == 0) {
            fuzz_params(&r);
            break;
        }
        /* 5 and 6 came last: the older corpus files keep their meaning (no byte 5 or 6) */
        switch (fz_u8(&r) % 8) {
        case 0: fuzz_solve_host(&r, prec, 0); break;
        case 1: fuzz_solve_host(&r, prec, 1); break;
        case 5:
        case 6: fuzz_ilv_host(&r, prec, fz_u8(&r) % 3); break;
        default: fuzz_vbatched_host(&r, prec, fz_u8(&r) % 3);
        }
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
