/*
 * Argument checking, quick returns and failure statuses of the potrf routines and of
 * context creation. One case per run: test_args <case>; exit code 0 on pass. Each bad
 * call must return its own status, name the argument in bchol_last_error, enqueue
 * nothing (no event) and leave the buffers as they were.
 */
#include "bchol.h"
#include "cl_shim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bchol_context *ctx;
static cl_mem A, info;
static int failures;

#define N 8
#define BATCH 4

static void expect(const char *what, bchol_status got, bchol_status want, const char *needle)
{
    const char *msg = bchol_last_error(NULL); /* this thread's last message, any context */
    int ok = got == want && (!needle || strstr(msg, needle));
    printf("%-40s %-28s %s\n", what, bchol_status_string(got), ok ? "ok" : "FAILED");
    if (!ok) {
        printf("    wanted %d (%s), got %d; message: %s\n", want, bchol_status_string(want), got, msg);
        failures++;
    }
}

/* A call with one argument changed from a valid one; checks the status and no event. */
static void call(const char *what, char prec, char uplo, int n, cl_mem a, long long offset, int lda,
                 long long stride, long long batch, cl_mem inf, bchol_status want, const char *needle)
{
    cl_event ev = (cl_event)1; /* must come back NULL on failure */
    bchol_status st = prec == 'd'
                          ? bchol_dpotrf_batched(ctx, uplo, n, a, offset, lda, stride, batch, inf, &ev)
                          : bchol_spotrf_batched(ctx, uplo, n, a, offset, lda, stride, batch, inf, &ev);
    if (st && ev) {
        printf("%-40s returned an event on failure: FAILED\n", what);
        failures++;
    }
    if (ev && ev != (cl_event)1) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    expect(what, st, want, needle);
}

static void case_arguments(void)
{
    const long long s = N * N;
    call("valid call", 's', 'L', N, A, 0, N, s, BATCH, info, BCHOL_SUCCESS, NULL);
    call("uplo = 'X'", 's', 'X', N, A, 0, N, s, BATCH, info, BCHOL_ERR_UPLO, "uplo");
    call("uplo = 0", 's', 0, N, A, 0, N, s, BATCH, info, BCHOL_ERR_UPLO, "uplo");
    call("n = -1", 's', 'L', -1, A, 0, N, s, BATCH, info, BCHOL_ERR_N, "n = -1");
    call("lda = n - 1", 's', 'L', N, A, 0, N - 1, s, BATCH, info, BCHOL_ERR_LDA, "lda = 7");
    call("lda = 0 with n = 0", 's', 'L', 0, A, 0, 0, 0, BATCH, info, BCHOL_ERR_LDA, "lda = 0");
    call("offset = -1", 's', 'L', N, A, -1, N, s, BATCH, info, BCHOL_ERR_OFFSET_A, "offset");
    call("stride < lda*n", 's', 'L', N, A, 0, N, s - 1, BATCH, info, BCHOL_ERR_STRIDE_A, "stride");
    call("batch = -1", 's', 'L', N, A, 0, N, s, -1, info, BCHOL_ERR_BATCH, "batch");
    call("A = NULL", 's', 'L', N, NULL, 0, N, s, BATCH, info, BCHOL_ERR_A, "(A) is NULL");
    call("info = NULL", 's', 'L', N, A, 0, N, s, BATCH, NULL, BCHOL_ERR_INFO, "(info) is NULL");
    call("A too small (batch + 1)", 's', 'L', N, A, 0, N, s, BATCH + 1, info, BCHOL_ERR_A_SIZE, "A");
    call("A too small (offset)", 's', 'L', N, A, 1, N, s, BATCH, info, BCHOL_ERR_A_SIZE, "A");
    call("A too small for double", 'd', 'L', N, A, 0, N, s, BATCH + BATCH, info, BCHOL_ERR_A_SIZE, "A");
    call("info too small", 's', 'L', 1, A, 0, 1, 1, BATCH * N, info, BCHOL_ERR_INFO_SIZE, "info");
    /* batch * 4 bytes of info wrapped to 0 for batch >= 2^62 (fuzz_args) */
    call("info for batch = 2^62 at n = 0", 's', 'L', 0, A, 0, 1, 0, 1LL << 62, info,
         BCHOL_ERR_INFO_SIZE, "info");
    call("n*lda beyond 2^31", 's', 'L', 50000, A, 0, 50000, 2500000000LL, 1, info, BCHOL_ERR_N, "2^31");
    call("batch span overflows", 's', 'L', N, A, 0, N, 1LL << 62, 1LL << 40, info, BCHOL_ERR_A_SIZE, NULL);
    call("batch = 0 with NULL buffers", 's', 'L', N, NULL, 0, N, s, 0, NULL, BCHOL_SUCCESS, NULL);
    call("n = 0 with NULL A", 's', 'L', 0, NULL, 0, 1, 0, BATCH, info, BCHOL_SUCCESS, NULL);

    bchol_status st = bchol_spotrf_batched(NULL, 'L', N, A, 0, N, s, BATCH, info, NULL);
    expect("ctx = NULL", st, BCHOL_ERR_CONTEXT, "ctx");

    /* A buffer of another OpenCL context */
    cl_context other = clCreateContext(NULL, 1, (cl_device_id[]){bchol_context_device_id(ctx)}, NULL, NULL, NULL);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 4096 * 8, NULL, NULL);
    call("A of another context", 's', 'L', N, foreign, 0, N, s, BATCH, info, BCHOL_ERR_A, "another OpenCL context");
    clReleaseMemObject(foreign);
    clReleaseContext(other);
}

static void case_params(void)
{
    bchol_params p = {.variant = BCHOL_VARIANT_FUSED, .ib = 33};
    bchol_status st = bchol_spotrf_batched_ex(ctx, &p, 'L', N, A, 0, N, N * N, BATCH, info, NULL);
    expect("params->ib = 33", st, BCHOL_ERR_ARGUMENT, "ib");
    p.ib = 8;
    p.tbc = 65;
    st = bchol_spotrf_batched_ex(ctx, &p, 'L', N, A, 0, N, N * N, BATCH, info, NULL);
    expect("params->tbc = 65", st, BCHOL_ERR_ARGUMENT, "tbc");
    p.tbc = 1;
    p.variant = (bchol_variant)77;
    st = bchol_spotrf_batched_ex(ctx, &p, 'L', N, A, 0, N, N * N, BATCH, info, NULL);
    expect("params->variant = 77", st, BCHOL_ERR_ARGUMENT, "variant");
    /* The _ex form counts params as argument 2: lda is argument 7. */
    st = bchol_spotrf_batched_ex(ctx, NULL, 'L', N, A, 0, N - 1, N * N, BATCH, info, NULL);
    expect("_ex lda = n - 1 names argument 7", st, BCHOL_ERR_LDA, "argument 7");
}

/* ib = 2 in double: factored where the device's compiler builds that kernel, else refused
 * with BCHOL_ERR_BUILD naming ib (PoCL 3.1's compiler aborts on it: the process must not). */
static void case_ib2_double(void)
{
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    if (!d.fp64) return; /* double is refused before any kernel is built */
    double a[N * N * BATCH];
    for (int b = 0; b < BATCH; b++)
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) a[b * N * N + i + j * N] = i == j ? N + 1.0 + b : 1.0;
    cl_command_queue q = bchol_context_queue(ctx);
    cl_mem buf = clCreateBuffer(bchol_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                sizeof a, a, NULL);
    bchol_params p = {.variant = BCHOL_VARIANT_FUSED, .ib = 2};
    bchol_status st = bchol_dpotrf_batched_ex(ctx, &p, 'L', N, buf, 0, N, N * N, BATCH, info, NULL);
    if (st != BCHOL_SUCCESS) {
        expect("fused ib = 2 in double", st, BCHOL_ERR_BUILD, "ib = 2");
    } else {
        int out[BATCH];
        double l[N * N * BATCH];
        clEnqueueReadBuffer(q, info, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof l, l, 0, NULL, NULL);
        /* L(0,0) and L(1,0) of each matrix: sqrt(a00) and a10 / sqrt(a00) */
        for (int b = 0; b < BATCH; b++) {
            const double d0 = sqrt(N + 1.0 + b);
            if (out[b] != 0 || fabs(l[b * N * N] - d0) > 1e-12 * d0 || fabs(l[b * N * N + 1] - 1.0 / d0) > 1e-12) {
                printf("fused ib = 2 in double: matrix %d info %d L00 %g L10 %g: FAILED\n", b, out[b],
                       l[b * N * N], l[b * N * N + 1]);
                failures++;
            }
        }
    }
    clReleaseMemObject(buf);
}

/* A size whose panel does not fit local memory with the largest ib and tbc. */
static void case_unsupported(void)
{
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    bchol_params p = {.variant = BCHOL_VARIANT_FUSED, .ib = 32, .tbc = 64, .rpt = 1};
    long long n = (long long)(d.local_mem_usable / (32 * 64 * 8)) + 1;
    cl_mem big = clCreateBuffer(bchol_context_cl_context(ctx), CL_MEM_READ_WRITE, (size_t)(n * n * 8), NULL, NULL);
    bchol_status st = bchol_dpotrf_batched_ex(ctx, &p, 'L', (int)n, big, 0, (int)n, n * n, 1, info, NULL);
    if (!d.fp64) st = st == BCHOL_ERR_NO_FP64 ? BCHOL_ERR_UNSUPPORTED_SIZE : st;
    expect("n beyond local memory", st, BCHOL_ERR_UNSUPPORTED_SIZE, d.fp64 ? "local memory" : NULL);
    clReleaseMemObject(big);
}

static void case_host(void)
{
    float a[N * N * BATCH];
    int inf[BATCH];
    bchol_status st = bchol_spotrf_batched_host(ctx, 'L', N, NULL, N, N * N, BATCH, inf);
    expect("host: A = NULL", st, BCHOL_ERR_A, "(A) is NULL");
    st = bchol_spotrf_batched_host(ctx, 'L', N, a, N, N * N, BATCH, NULL);
    expect("host: info = NULL", st, BCHOL_ERR_INFO, "(info) is NULL");
    st = bchol_spotrf_batched_host(ctx, 'Q', N, a, N, N * N, BATCH, inf);
    expect("host: uplo = 'Q'", st, BCHOL_ERR_UPLO, "argument 2");
    st = bchol_spotrf_batched_host(ctx, 'L', N, a, N - 1, N * N, BATCH, inf);
    expect("host: lda = n - 1", st, BCHOL_ERR_LDA, "argument 5");
    /* A stride whose byte offset wraps the address space brought the second piece back to
     * matrix 0: factored twice, and success. a holds identity matrices, so it would. */
    memset(a, 0, sizeof a);
    for (int b = 0; b < BATCH; b++)
        for (int i = 0; i < N; i++) a[b * N * N + i * N + i] = 1;
    st = bchol_spotrf_batched_host(ctx, 'L', N, a, N, 1LL << 62, 2, inf);
    expect("host: stride * 4 bytes wraps", st, BCHOL_ERR_STRIDE_A, "argument 6 (stride");
    st = bchol_dpotrf_batched_host(ctx, 'L', 2, (double *)a, 2, 1LL << 61, 2, inf);
    expect("host: stride * 8 bytes wraps", st, BCHOL_ERR_STRIDE_A, "address space");
    st = bchol_spotrf_batched_host(ctx, 'L', 0, NULL, 1, 0, (1LL << 62) + 1, inf);
    expect("host: info of 2^62 + 1 ints at n = 0", st, BCHOL_ERR_BATCH, "argument 7 (batch");
    int vn[1] = {N}, vlda[1] = {N};
    int64_t voff[1] = {1LL << 62};
    st = bchol_spotrf_vbatched_host(ctx, 'L', vn, vlda, voff, a, 1, inf);
    expect("host vbatched: offset * 4 bytes wraps", st, BCHOL_ERR_OFFSETS_A, "argument 5 (offsets)");
    for (int b = 0; b < BATCH; b++) inf[b] = 7;
    st = bchol_spotrf_batched_host(ctx, 'L', 0, NULL, 1, 0, BATCH, inf);
    expect("host: n = 0 sets info to 0", st, BCHOL_SUCCESS, NULL);
    for (int b = 0; b < BATCH; b++)
        if (inf[b] != 0) failures++;
}

/* n = 0 must set info to zero on the device too. */
static void case_quick_return(void)
{
    int fill[BATCH] = {9, 9, 9, 9}, out[BATCH];
    cl_command_queue q = bchol_context_queue(ctx);
    clEnqueueWriteBuffer(q, info, CL_TRUE, 0, sizeof fill, fill, 0, NULL, NULL);
    cl_event ev = NULL;
    bchol_status st = bchol_spotrf_batched(ctx, 'U', 0, NULL, 0, 1, 0, BATCH, info, &ev);
    expect("n = 0 returns an event", st, ev ? BCHOL_SUCCESS : BCHOL_ERR_ARGUMENT, NULL);
    if (ev) clReleaseEvent(ev);
    clEnqueueReadBuffer(q, info, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    for (int b = 0; b < BATCH; b++)
        if (out[b] != 0) {
            printf("n = 0: info[%d] = %d, expected 0: FAILED\n", b, out[b]);
            failures++;
        }
    ev = (cl_event)1;
    st = bchol_spotrf_batched(ctx, 'U', N, A, 0, N, N * N, 0, info, &ev);
    expect("batch = 0 gives no event", st, ev == NULL ? BCHOL_SUCCESS : BCHOL_ERR_ARGUMENT, NULL);
}

static void case_no_fp64(void)
{
    /* BCHOL_DEVICE_NO_FP64=1 makes the context treat its device as single-only. */
    setenv("BCHOL_DEVICE_NO_FP64", "1", 1);
    bchol_context *c2;
    if (bchol_context_create(NULL, &c2)) {
        failures++;
        return;
    }
    bchol_context *keep = ctx;
    ctx = c2;
    cl_mem a2 = clCreateBuffer(bchol_context_cl_context(c2), CL_MEM_READ_WRITE, 8 * N * N * BATCH, NULL, NULL);
    cl_mem i2 = clCreateBuffer(bchol_context_cl_context(c2), CL_MEM_READ_WRITE, 4 * BATCH, NULL, NULL);
    call("double without fp64", 'd', 'L', N, a2, 0, N, N * N, BATCH, i2, BCHOL_ERR_NO_FP64, "double precision");
    call("single without fp64 still works", 's', 'L', N, a2, 0, N, N * N, BATCH, i2, BCHOL_SUCCESS, NULL);
    clReleaseMemObject(a2);
    clReleaseMemObject(i2);
    bchol_context_destroy(c2);
    ctx = keep;
    unsetenv("BCHOL_DEVICE_NO_FP64");
}

static void case_context(void)
{
    bchol_context *c2 = (bchol_context *)1;
    bchol_status st = bchol_context_create("bogus", &c2);
    expect("device spec \"bogus\"", st, BCHOL_ERR_DEVICE_SPEC, "bogus");
    if (c2 != NULL) failures++;
    st = bchol_context_create("99:0", &c2);
    expect("device spec \"99:0\"", st, BCHOL_ERR_DEVICE_SPEC, "99:0");
    /* 2^32 wrapped to 0 and chose device 0:0 */
    c2 = (bchol_context *)1;
    st = bchol_context_create("4294967296:0", &c2);
    expect("device spec \"4294967296:0\"", st, BCHOL_ERR_DEVICE_SPEC, "65535");
    if (c2 != NULL) failures++;
    st = bchol_context_create("0:4294967296", &c2);
    expect("device spec \"0:4294967296\"", st, BCHOL_ERR_DEVICE_SPEC, "65535");
    st = bchol_context_create(" 0:0", &c2);
    expect("device spec \" 0:0\"", st, BCHOL_ERR_DEVICE_SPEC, "P:D");
    st = bchol_context_create("+0:0", &c2);
    expect("device spec \"+0:0\"", st, BCHOL_ERR_DEVICE_SPEC, "P:D");
    st = bchol_context_create_from_queue(NULL, &c2);
    expect("queue = NULL", st, BCHOL_ERR_QUEUE, "queue");
    st = bchol_context_create(NULL, NULL);
    expect("ctx out = NULL", st, BCHOL_ERR_ARGUMENT, NULL);

    /* Wrapping a caller's in-order queue works and keeps it alive. */
    cl_int err;
    cl_context cl = bchol_context_cl_context(ctx);
    cl_command_queue q = clCreateCommandQueue(cl, bchol_context_device_id(ctx), 0, &err);
    st = bchol_context_create_from_queue(q, &c2);
    expect("wrap an in-order queue", st, BCHOL_SUCCESS, NULL);
    if (!st) {
        clReleaseCommandQueue(q);
        bchol_context *keep = ctx;
        ctx = c2;
        call("potrf on a wrapped queue", 's', 'L', N, A, 0, N, N * N, BATCH, info, BCHOL_SUCCESS, NULL);
        ctx = keep;
        bchol_context_destroy(c2);
    }
    cl_command_queue ooo = clCreateCommandQueue(cl, bchol_context_device_id(ctx),
                                                CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (ooo) {
        st = bchol_context_create_from_queue(ooo, &c2);
        expect("out-of-order queue", st, BCHOL_ERR_QUEUE, "out of order");
        clReleaseCommandQueue(ooo);
    }

    /* A driver that answers the device query with an error once (NVIDIA's did while many
     * processes started on it): the selection looks again. The second query is the first
     * platform's clGetDeviceIDs (after clGetPlatformIDs). */
    shim_fail(SHIM_QUERY, 2, 1, CL_OUT_OF_RESOURCES);
    st = bchol_context_create(NULL, &c2);
    expect("a device query failing once", st, BCHOL_SUCCESS, NULL);
    if (shim_faults() != 1) {
        printf("FAILED: the device query was not failed once (%ld faults)\n", shim_faults());
        failures++;
    }
    if (!st) bchol_context_destroy(c2);
    /* every query failing: a status whose message says what the driver answered */
    shim_fail(SHIM_QUERY, 1, -1, CL_OUT_OF_RESOURCES);
    st = bchol_context_create(NULL, &c2);
    shim_fail(SHIM_ANY, 0, 0, CL_SUCCESS);
    expect("every device query failing", st, st ? st : BCHOL_ERR_NO_DEVICE, "CL_OUT_OF_RESOURCES");
}

/* A kernel that does not build: a status, the log in the message, no crash. */
static void case_build_failure(void)
{
    char dir[] = "/tmp/bchol-badkernels-XXXXXX";
    if (!mkdtemp(dir)) {
        failures++;
        return;
    }
    char path[256];
    static const char *const subdirs[] = {"common", "chol", "layout"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, subdirs[i]);
        mkdir(path, 0700);
    }
    /* every kernel file a potrf call may read (the dispatcher may pick either variant) */
    const char *files[] = {"common/common.cl", "common/vector.cl", "chol/potrf_fused.cl",
                           "chol/potrf_workitem.cl", "layout/interleave.cl"};
    const int nfiles = sizeof files / sizeof files[0];
    for (int i = 0; i < nfiles; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "w");
        fputs("this is not OpenCL C;\n", f);
        fclose(f);
    }
    setenv("BCHOL_KERNEL_DIR", dir, 1);
    call("kernel that fails to build", 's', 'L', N, A, 0, N, N * N, BATCH, info, BCHOL_ERR_BUILD, "build log");
    unsetenv("BCHOL_KERNEL_DIR");
    setenv("BCHOL_KERNEL_DIR", "/nonexistent-bchol-dir", 1);
    call("kernel folder missing", 's', 'L', N, A, 0, N, N * N, BATCH, info, BCHOL_ERR_KERNEL_SOURCE, "nonexistent");
    unsetenv("BCHOL_KERNEL_DIR");
    for (int i = 0; i < nfiles; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        remove(path);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, subdirs[i]);
        rmdir(path);
    }
    rmdir(dir);
}

/* The separate variant's parameters: each bad field is named; nothing is enqueued. */
static void case_separate_params(void)
{
    static const struct {
        const char *what, *needle;
        bchol_params p;
    } bad[] = {
        {"params->nb = 65", "nb = 65", {.variant = BCHOL_VARIANT_SEPARATE, .nb = 65}},
        {"params->pb = 65", "pb = 65", {.variant = BCHOL_VARIANT_SEPARATE, .pb = 65}},
        {"params->gemm = 3", "gemm = 3", {.variant = BCHOL_VARIANT_SEPARATE, .gemm = 3}},
        {"params->tile = 48", "tile = 48", {.variant = BCHOL_VARIANT_SEPARATE, .tile = 48}},
        {"params->gb = 2^25", "gb = 33554432", {.variant = BCHOL_VARIANT_SEPARATE, .gb = 1 << 25}},
        {"params->variant = 5", "variant = 5", {.variant = (bchol_variant)5}},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cl_event ev = (cl_event)1;
        bchol_status st = bchol_dpotrf_batched_ex(ctx, &bad[i].p, 'L', N, A, 0, N, N * N, BATCH / 2, info, &ev);
        if (ev) failures++;
        expect(bad[i].what, st, BCHOL_ERR_ARGUMENT, bad[i].needle);
    }
}

/* Kernels limited to 32 work-items (BCHOL_KERNEL_WG_LIMIT): an explicit nb above it cannot
 * run (the panel gives each of its rows a work-item) and is named; nothing is enqueued. */
static void case_separate_wg_limit(void)
{
    setenv("BCHOL_KERNEL_WG_LIMIT", "32", 1);
    bchol_context *c2;
    if (bchol_context_create(NULL, &c2)) {
        failures++;
        return;
    }
    bchol_context *keep = ctx;
    ctx = c2;
    cl_mem a2 = clCreateBuffer(bchol_context_cl_context(c2), CL_MEM_READ_WRITE, 4 * N * N * BATCH, NULL, NULL);
    cl_mem i2 = clCreateBuffer(bchol_context_cl_context(c2), CL_MEM_READ_WRITE, 4 * BATCH, NULL, NULL);
    const bchol_params p = {.variant = BCHOL_VARIANT_SEPARATE, .nb = 64};
    cl_event ev = (cl_event)1;
    bchol_status st = bchol_spotrf_batched_ex(ctx, &p, 'L', N, a2, 0, N, N * N, BATCH, i2, &ev);
    if (ev) failures++;
    expect("separate nb = 64 over 32 work-items", st, BCHOL_ERR_RESOURCES, "nb = 64");
    clReleaseMemObject(a2);
    clReleaseMemObject(i2);
    bchol_context_destroy(c2);
    ctx = keep;
    unsetenv("BCHOL_KERNEL_WG_LIMIT");
}

/* Without CLBlast in the build, asking for its GEMM names params->gemm. */
static void case_clblast_unavailable(void)
{
    bchol_params p = {.variant = BCHOL_VARIANT_SEPARATE, .gemm = BCHOL_GEMM_CLBLAST};
    bchol_status st = bchol_spotrf_batched_ex(ctx, &p, 'L', N, A, 0, N, N * N, BATCH, info, NULL);
    expect("params->gemm = CLBlast, built without", st, BCHOL_ERR_ARGUMENT, "without CLBlast");
}

/*
 * The dispatcher: fused (or interleaved or workitem, where the backend says so) up to one crossover
 * order, separate above it, and separate wherever the fused kernel cannot hold n in local
 * memory; every variant's fields filled.
 */
static void case_dispatch(void)
{
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    for (int pi = 0; pi < 2; pi++) {
        const char prec = "sd"[pi];
        int switched = 0, bad = 0, beyond = 0;
        bchol_params p;
        for (int n = 1; n <= 4096; n++) {
            const char *source = NULL;
            bchol_status st = bchol_potrf_params(ctx, prec, n, &p, &source);
            if (st || !source || p.ib <= 0 || p.tbc <= 0 || p.nb <= 0 || p.pb <= 0 || p.gemm <= 0 ||
                p.tile <= 0 || p.gb <= 0 || p.inb <= 0 || p.looking <= 0 || p.unroll <= 0 ||
                p.chunking <= 0 || p.chunk <= 0 || p.math <= 0 || p.wnb <= 0 || p.wvec <= 0 ||
                p.wmr <= 0 || p.wgroup <= 0 ||
                (p.variant != BCHOL_VARIANT_FUSED && p.variant != BCHOL_VARIANT_SEPARATE &&
                 p.variant != BCHOL_VARIANT_INTERLEAVED && p.variant != BCHOL_VARIANT_WORKITEM)) {
                if (bad++ < 3) printf("    %c n = %d: status %d, incomplete parameters\n", prec, n, st);
                continue;
            }
            /* the fused kernel keeps tbc*ib elements per row in local memory (potrf_fused.c) */
            const long long fused_max = (long long)(d.local_mem_usable / ((unsigned long long)p.tbc * p.ib * (pi ? 8 : 4)));
            if (p.variant == BCHOL_VARIANT_SEPARATE && !switched) {
                switched = n;
                printf("    %c: fused up to n = %d, separate above\n", prec, n - 1);
            }
            if (switched && p.variant != BCHOL_VARIANT_SEPARATE) {
                if (bad++ < 3) printf("    %c n = %d: fused again above the crossover\n", prec, n);
            }
            if (n > fused_max) {
                beyond++;
                if (p.variant == BCHOL_VARIANT_FUSED && bad++ < 3)
                    printf("    %c n = %d: fused beyond what it can hold\n", prec, n);
            }
        }
        if (beyond && !switched) bad++;
        expect(prec == 's' ? "single: one crossover" : "double: one crossover", bad ? BCHOL_ERR_ARGUMENT : 0, 0, NULL);
    }
}

/* A buffer of ctx with the given flags, holding bytes; set from host when not NULL. */
static cl_mem make_buffer(cl_mem_flags flags, size_t bytes, const void *host)
{
    return clCreateBuffer(bchol_context_cl_context(ctx), flags | (host ? CL_MEM_COPY_HOST_PTR : 0),
                          bytes, (void *)host, NULL);
}

/* How the routines use their buffers: a read-only A was written, a read-only or
 * write-only info accepted, and A and info in one buffer gave info the factor's bits. */
static void case_buffer_use(void)
{
    const long long s = N * N;
    cl_mem ro = make_buffer(CL_MEM_READ_ONLY, 4 * N * N * BATCH, NULL);
    cl_mem ro_info = make_buffer(CL_MEM_READ_ONLY, 4 * BATCH, NULL);
    cl_mem wo_info = make_buffer(CL_MEM_WRITE_ONLY, 4 * BATCH, NULL);
    call("A read-only", 's', 'L', N, ro, 0, N, s, BATCH, info, BCHOL_ERR_A,
         "argument 4 (A) is CL_MEM_READ_ONLY");
    call("info read-only", 's', 'L', N, A, 0, N, s, BATCH, ro_info, BCHOL_ERR_INFO,
         "argument 9 (info) is CL_MEM_READ_ONLY");
    call("info write-only", 's', 'L', N, A, 0, N, s, BATCH, wo_info, BCHOL_ERR_INFO,
         "argument 9 (info) is CL_MEM_WRITE_ONLY");
    call("info write-only at n = 0", 's', 'L', 0, NULL, 0, 1, 0, BATCH, wo_info, BCHOL_ERR_INFO,
         "CL_MEM_WRITE_ONLY");
    call("A and info one buffer", 's', 'L', N, A, 0, N, s, BATCH, A, BCHOL_ERR_INFO,
         "argument 9 (info) overlaps argument 4 (A)");
    /* three infos in the first 12 bytes, three matrices after them: disjoint, valid */
    call("A and info apart in one buffer", 's', 'L', N, A, 3, N, s, BATCH - 1, A, BCHOL_SUCCESS,
         NULL);
    call("info overlaps A's first matrix", 's', 'L', N, A, 2, N, s, BATCH - 1, A, BCHOL_ERR_INFO,
         "bytes [0, 12) and [8, ");

    /* Sub-buffers of one buffer: where they overlap, they are one memory. */
    cl_uint align_bits = 0;
    clGetDeviceInfo(bchol_context_device_id(ctx), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                    &align_bits, NULL);
    const size_t align = align_bits / 8 > 4 ? align_bits / 8 : 4;
    /* sa: [0, align + the batch); si inside it; sfar at the first aligned byte past sa */
    const size_t far = (align + 4 * N * N * BATCH + align - 1) / align * align;
    cl_mem parent = make_buffer(CL_MEM_READ_WRITE, far + align, NULL);
    cl_buffer_region ra = {0, align + 4 * N * N * BATCH}, ri = {align, 4 * BATCH},
                     rfar = {far, 4 * BATCH};
    cl_int e1 = CL_SUCCESS, e2 = CL_SUCCESS, e3 = CL_SUCCESS;
    cl_mem sa = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &ra, &e1);
    cl_mem si = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &ri, &e2);
    cl_mem sfar = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &rfar, &e3);
    if (!sa || !si || !sfar) {
        printf("FAILED: clCreateSubBuffer: %d %d %d (alignment %zu bytes)\n", e1, e2, e3, align);
        failures++;
        return;
    }
    /* overlapping memory objects of one buffer: undefined in OpenCL whatever bytes are used */
    call("info a sub-buffer inside A's", 's', 'L', N, sa, 0, N, s, BATCH, si, BCHOL_ERR_INFO,
         "argument 9 (info) and argument 4 (A) are overlapping memory objects");
    call("A's bytes apart from info's, the sub-buffers overlap", 's', 'L', N, sa,
         (long long)(align / 4 + BATCH), N, s, 1, si, BCHOL_ERR_INFO, "overlapping memory objects");
    call("info the parent of A's sub-buffer", 's', 'L', N, sa, 0, N, s, BATCH, parent,
         BCHOL_ERR_INFO, "overlapping memory objects");
    call("A and info in disjoint sub-buffers", 's', 'L', N, sa, 0, N, s, BATCH, sfar, BCHOL_SUCCESS,
         NULL);
    call("A the parent of info's sub-buffer", 's', 'L', N, parent, 0, N, s, BATCH, sfar,
         BCHOL_ERR_INFO, "overlapping memory objects");

    /* The other device forms share the check. */
    bchol_status st = bchol_spotrf_interleaved(ctx, 'L', N, A, BATCH, BATCH, A, NULL);
    expect("interleaved: A and info one buffer", st, BCHOL_ERR_INFO, "argument 7 (info) overlaps");
    st = bchol_spotrf_interleaved(ctx, 'L', N, ro, BATCH, BATCH, info, NULL);
    expect("interleaved: A read-only", st, BCHOL_ERR_A, "CL_MEM_READ_ONLY");
    int vn[BATCH] = {N, N, N, N}, vlda[BATCH] = {N, N, N, N};
    cl_long voff[BATCH] = {0, s, 2 * s, 3 * s};
    cl_mem dn = make_buffer(CL_MEM_READ_ONLY, sizeof vn, vn);
    cl_mem dlda = make_buffer(CL_MEM_READ_WRITE, sizeof vlda, vlda);
    cl_mem doff = make_buffer(CL_MEM_READ_ONLY, sizeof voff, voff);
    cl_mem wo_n = make_buffer(CL_MEM_WRITE_ONLY, sizeof vn, NULL);
    st = bchol_spotrf_vbatched(ctx, 'L', dn, dlda, doff, A, BATCH, info, NULL);
    expect("vbatched: valid (read-only arrays)", st, BCHOL_SUCCESS, NULL);
    clFinish(bchol_context_queue(ctx));
    st = bchol_spotrf_vbatched(ctx, 'L', wo_n, dlda, doff, A, BATCH, info, NULL);
    expect("vbatched: n write-only", st, BCHOL_ERR_N_ARRAY, "argument 3 (n) is CL_MEM_WRITE_ONLY");
    st = bchol_spotrf_vbatched(ctx, 'L', dn, dlda, doff, A, BATCH, dlda, NULL);
    expect("vbatched: info is the lda array", st, BCHOL_ERR_INFO,
           "argument 8 (info) overlaps argument 4 (lda)");
    st = bchol_spotrf_vbatched(ctx, 'L', dn, dlda, doff, ro, BATCH, info, NULL);
    expect("vbatched: A read-only", st, BCHOL_ERR_A, "argument 6 (A) is CL_MEM_READ_ONLY");
    st = bchol_sinterleave(ctx, 'L', N, A, 0, N, s, BATCH, A, BATCH, NULL);
    expect("interleave: B is A", st, BCHOL_ERR_B, "argument 9 (B) overlaps argument 4 (A)");
    st = bchol_sinterleave(ctx, 'L', N, A, 0, N, s, BATCH, ro, BATCH, NULL);
    expect("interleave: B read-only", st, BCHOL_ERR_B, "CL_MEM_READ_ONLY");
    st = bchol_sdeinterleave(ctx, 'L', N, ro, BATCH, BATCH, A, 0, N, s, NULL);
    expect("deinterleave: read-only B is read only", st, BCHOL_SUCCESS, NULL);
    clFinish(bchol_context_queue(ctx));
    cl_mem all[] = {sa, si, sfar, parent, ro, ro_info, wo_info, dn, dlda, doff, wo_n};
    /* NVIDIA's driver crashes on clReleaseMemObject(NULL) */
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]) clReleaseMemObject(all[i]);
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    {"buffer_use", case_buffer_use},
    {"arguments", case_arguments}, {"params", case_params},   {"unsupported", case_unsupported},
    {"host", case_host},           {"quick_return", case_quick_return},
    {"no_fp64", case_no_fp64},     {"context", case_context}, {"build_failure", case_build_failure},
    {"separate_params", case_separate_params}, {"clblast_unavailable", case_clblast_unavailable},
    {"dispatch", case_dispatch},   {"ib2_double", case_ib2_double},
    {"separate_wg_limit", case_separate_wg_limit},
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_args <case>\n");
        return 2;
    }
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    A = clCreateBuffer(bchol_context_cl_context(ctx), CL_MEM_READ_WRITE, 4 * N * N * BATCH, NULL, NULL);
    info = clCreateBuffer(bchol_context_cl_context(ctx), CL_MEM_READ_WRITE, 4 * BATCH, NULL, NULL);
    /* A valid SPD input (the identity) so that successful calls have real work. */
    float id[N * N * BATCH] = {0};
    for (int b = 0; b < BATCH; b++)
        for (int i = 0; i < N; i++) id[b * N * N + i * N + i] = 1;
    clEnqueueWriteBuffer(bchol_context_queue(ctx), A, CL_TRUE, 0, sizeof id, id, 0, NULL, NULL);
    int found = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            found = 1;
        }
    clFinish(bchol_context_queue(ctx));
    clReleaseMemObject(A);
    clReleaseMemObject(info);
    bchol_context_destroy(ctx);
    if (!found) {
        fprintf(stderr, "test_args: no case \"%s\"\n", argv[1]);
        return 2;
    }
    return failures ? 1 : 0;
}
