/*
 * Resource failures of the potrf routines and of context creation, made with cl_shim. One
 * case per run: test_faults <case>; exit code 0 on pass (cl_shim also fails the run if an
 * OpenCL object is still held at exit).
 *
 *   sweep_device   fail each OpenCL call of bchol_{s,d}potrf_batched in turn
 *   sweep_host     the same for bchol_{s,d}potrf_batched_host, in several pieces
 *   sweep_context  the same for context creation and device queries
 *   out_of_memory  the device refuses memory: smaller pieces, or a clear status
 *   build          a kernel that fails to build
 *   no_fp64        a device without doubles
 *   work_group     the driver refuses the work-group size, or takes fewer work-items
 *   context_loop   contexts made, used and destroyed in a loop, under a memory bound
 *
 * After an injected failure the routine must return a known negative status with a
 * message and no event, and the caller's data must be as it was: bit for bit when no
 * kernel had been launched (device buffers), matrix by matrix either as it was or
 * factored (host arrays, which change one finished piece at a time). A routine that
 * absorbs a failure (a query it can do without) must give the results of a run without
 * faults, bit for bit.
 */
#include "bchol.h"
#include "test_check.h"
#include "test_skip.h"
#include "bchol_util.h"
#include "cl_shim.h"

#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define SENTINEL_INFO (-7)

/* A batch of SPD matrices (one of them made to fail at a pivot) with random values in the
 * unreferenced parts, and the result of a run without faults. */
typedef struct {
    char prec, uplo;
    int n, lda;
    long long stride, batch;
    size_t es, bytes;
    unsigned char *input, *expect;
    int *ref_info, *expect_info, *sentinel;
} problem;

static problem make_problem(char prec, char uplo, int n, int lda_pad, int stride_pad,
                            long long batch) {
    problem pb = {prec, uplo, n, (n > 1 ? n : 1) + lda_pad, 0, batch, prec == 'd' ? 8 : 4, 0, 0, 0,
                  0,    0,    0};
    pb.stride = (long long)pb.lda * n + stride_pad;
    pb.bytes = (size_t)(pb.stride * batch > 0 ? pb.stride * batch : 1) * pb.es;
    pb.input = malloc(pb.bytes);
    pb.expect = malloc(pb.bytes);
    pb.ref_info = malloc((size_t)batch * sizeof(int));
    pb.expect_info = malloc((size_t)batch * sizeof(int));
    pb.sentinel = malloc((size_t)batch * sizeof(int));
    util_rng rng;
    util_rng_seed(&rng, 42);
    const int dbl = prec == 'd';
    for (size_t i = 0; i < pb.bytes / pb.es; i++)
        util_set(pb.input, i, dbl, util_rng_uniform(&rng));
    for (long long b = 0; b < batch; b++) {
        unsigned char *m = pb.input + (size_t)(b * pb.stride) * pb.es;
        util_spd(m, dbl, uplo, n, pb.lda, &rng);
        if (b == 1 && n > 1) util_break_at(m, dbl, uplo, n, pb.lda, n / 2);
        pb.ref_info[b] = util_ref_info(m, dbl, uplo, n, pb.lda);
        pb.sentinel[b] = SENTINEL_INFO;
    }
    return pb;
}

static void free_problem(problem *pb) {
    free(pb->input);
    free(pb->expect);
    free(pb->ref_info);
    free(pb->expect_info);
    free(pb->sentinel);
}

/* The factors are right: backward error, exact info, nothing outside the triangles. */
static int verify(const problem *pb, const unsigned char *out, const int *info) {
    const int dbl = pb->prec == 'd';
    double worst = 0;
    int bad = 0;
    for (long long b = 0; b < pb->batch; b++) {
        size_t at = (size_t)(b * pb->stride) * pb->es;
        if (info[b] != pb->ref_info[b])
            bad++;
        else if (info[b] == 0) {
            double e = util_backward_error(pb->input + at, out + at, dbl, pb->uplo, pb->n, pb->lda);
            if (!(e <= worst)) worst = e;
        }
        for (long long e = 0; e < pb->stride; e++) {
            int i = (int)(e % pb->lda), j = (int)(e / pb->lda);
            if ((i >= pb->n || j >= pb->n || !util_in_triangle(pb->uplo, i, j)) &&
                memcmp(out + at + (size_t)e * pb->es, pb->input + at + (size_t)e * pb->es, pb->es))
                bad++;
        }
    }
    return bad == 0 && worst <= 30.0;
}

static bchol_context *new_context(void) {
    bchol_context *c = NULL;
    bchol_status st = bchol_context_create(NULL, &c);
    if (st) {
        printf("FAILED: no context: %s\n", bchol_last_error(NULL));
        exit(1);
    }
    return c;
}

typedef struct {
    shim_kind kind;
    long nth, times;
    cl_int error;
} fault;

static const fault no_fault = {SHIM_ANY, 0, 0, CL_SUCCESS};

typedef struct {
    bchol_status status;
    long fired, launched;
    int event_ok;
    char message[4096];
} outcome;

static int known_status(bchol_status st) {
    return strcmp(bchol_status_string(st), "unknown status");
}

/* The device routine on fresh buffers holding the input; the fault is armed only around
 * the call. out and info receive the buffers' contents afterwards. */
static outcome run_device(bchol_context *c, const problem *pb, fault f, unsigned char *out,
                          int *info) {
    outcome o = {0};
    cl_context cl = bchol_context_cl_context(c);
    cl_command_queue q = bchol_context_queue(c);
    cl_int err;
    const size_t ibytes = (size_t)pb->batch * sizeof(int);
    cl_mem dA =
        clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pb->bytes, pb->input, &err);
    cl_mem dI =
        clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, ibytes, pb->sentinel, &err);
    if (!dA || !dI) {
        printf("FAILED: test buffers: %d\n", err);
        exit(1);
    }
    long launches = shim_launches();
    cl_event ev = (cl_event)&o; /* must be overwritten */
    shim_fail(f.kind, f.nth, f.times, f.error);
    o.status = pb->prec == 'd' ? bchol_dpotrf_batched(c, pb->uplo, pb->n, dA, 0, pb->lda,
                                                      pb->stride, pb->batch, dI, &ev)
                               : bchol_spotrf_batched(c, pb->uplo, pb->n, dA, 0, pb->lda,
                                                      pb->stride, pb->batch, dI, &ev);
    o.fired = shim_faults();
    shim_fail(SHIM_ANY, 0, 0, CL_SUCCESS);
    o.launched = shim_launches() - launches;
    snprintf(o.message, sizeof o.message, "%s", bchol_last_error(c));
    o.event_ok = o.status ? ev == NULL : ev != NULL && ev != (cl_event)&o;
    if (ev && ev != (cl_event)&o) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    clEnqueueReadBuffer(q, dA, CL_TRUE, 0, pb->bytes, out, 0, NULL, NULL);
    clEnqueueReadBuffer(q, dI, CL_TRUE, 0, ibytes, info, 0, NULL, NULL);
    clReleaseMemObject(dA);
    clReleaseMemObject(dI);
    return o;
}

/* The host routine on a copy of the input. */
static outcome run_host(bchol_context *c, const problem *pb, fault f, unsigned char *out,
                        int *info) {
    outcome o = {0};
    memcpy(out, pb->input, pb->bytes);
    memcpy(info, pb->sentinel, (size_t)pb->batch * sizeof(int));
    long launches = shim_launches();
    shim_fail(f.kind, f.nth, f.times, f.error);
    o.status = pb->prec == 'd' ? bchol_dpotrf_batched_host(c, pb->uplo, pb->n, (double *)out,
                                                           pb->lda, pb->stride, pb->batch, info)
                               : bchol_spotrf_batched_host(c, pb->uplo, pb->n, (float *)out,
                                                           pb->lda, pb->stride, pb->batch, info);
    o.fired = shim_faults();
    shim_fail(SHIM_ANY, 0, 0, CL_SUCCESS);
    o.launched = shim_launches() - launches;
    o.event_ok = 1;
    snprintf(o.message, sizeof o.message, "%s", bchol_last_error(c));
    return o;
}

static int same_as_expected(const problem *pb, const unsigned char *out, const int *info) {
    return !memcmp(out, pb->expect, pb->bytes) &&
           !memcmp(info, pb->expect_info, (size_t)pb->batch * sizeof(int));
}

static int unchanged(const problem *pb, const unsigned char *out, const int *info) {
    return !memcmp(out, pb->input, pb->bytes) &&
           !memcmp(info, pb->sentinel, (size_t)pb->batch * sizeof(int));
}

/* Host arrays after a failure: each matrix (its whole stride) as it was, or factored. */
static int each_as_it_was_or_factored(const problem *pb, const unsigned char *out,
                                      const int *info) {
    const size_t slot = (size_t)pb->stride * pb->es;
    for (long long b = 0; b < pb->batch; b++) {
        const size_t at = (size_t)b * slot;
        int was = !memcmp(out + at, pb->input + at, slot) && info[b] == SENTINEL_INFO;
        int done = !memcmp(out + at, pb->expect + at, slot) && info[b] == pb->expect_info[b];
        if (!was && !done) return 0;
    }
    return 1;
}

/* Checks one outcome of a routine run with a fault armed. */
static void check_outcome(const char *what, long k, const problem *pb, outcome o,
                          const unsigned char *out, const int *info, int host) {
    if (!o.status) {
        CHECK(same_as_expected(pb, out, info),
              "%s, call %ld failed: success, but results differ from a run without faults", what,
              k);
        return;
    }
    CHECK(o.status < 0 && known_status(o.status),
          "%s, call %ld failed: status %d is not a bchol status", what, k, o.status);
    CHECK(o.message[0] != 0, "%s, call %ld failed: %s without a message", what, k,
          bchol_status_string(o.status));
    CHECK(o.event_ok, "%s, call %ld failed: an event came back with status %d", what, k, o.status);
    if (host)
        CHECK(each_as_it_was_or_factored(pb, out, info),
              "%s, call %ld failed (%s): a matrix is neither as it was nor factored", what, k,
              o.message);
    else if (o.launched == 0)
        CHECK(unchanged(pb, out, info),
              "%s, call %ld failed (%s) before any launch, but the buffers changed", what, k,
              o.message);
}

static const cl_int sweep_errors[] = {CL_OUT_OF_RESOURCES, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                                      CL_OUT_OF_HOST_MEMORY};

/* Fails call k of the routine for k = 1, 2, ... until a run completes without reaching k,
 * with the errors taking turns, on one warm context (its kernel built): the same context
 * must go on working after each failure. The calls of a build (program, build, kernel)
 * are failed on fresh contexts, each then used again without a fault. */
static void sweep(const char *what, problem *pb, int host) {
    unsigned char *out = malloc(pb->bytes);
    int *info = malloc((size_t)pb->batch * sizeof(int));
    const long nerr = (long)(sizeof sweep_errors / sizeof sweep_errors[0]);
    bchol_context *c = new_context();
    outcome o = host ? run_host(c, pb, no_fault, pb->expect, pb->expect_info)
                     : run_device(c, pb, no_fault, pb->expect, pb->expect_info);
    CHECK(!o.status && verify(pb, pb->expect, pb->expect_info), "%s without faults: %s", what,
          o.message);
    long k, statuses = 0, absorbed = 0;
    for (k = 1;; k++) {
        fault f = {SHIM_ANY, k, 1, sweep_errors[k % nerr]};
        o = host ? run_host(c, pb, f, out, info) : run_device(c, pb, f, out, info);
        if (!o.fired) break;
        check_outcome(what, k, pb, o, out, info, host);
        if (o.status)
            statuses++;
        else
            absorbed++;
    }
    bchol_context_destroy(c);
    printf("%s: failed each of its %ld OpenCL calls in turn: %ld statuses, %ld absorbed\n", what,
           k - 1, statuses, absorbed);
    CHECK(k > 3, "%s: only %ld OpenCL calls seen", what, k - 1);

    static const shim_kind build_kinds[] = {SHIM_PROGRAM, SHIM_BUILD, SHIM_KERNEL};
    for (int i = 0; pb->n > 0 && i < 3; i++) {
        c = new_context();
        fault f = {build_kinds[i], 1, 1, sweep_errors[i % nerr]};
        o = host ? run_host(c, pb, f, out, info) : run_device(c, pb, f, out, info);
        CHECK(o.fired == 1, "%s: no %s call", what, shim_kind_name(build_kinds[i]));
        check_outcome(what, 0, pb, o, out, info, host);
        o = host ? run_host(c, pb, no_fault, out, info) : run_device(c, pb, no_fault, out, info);
        CHECK(!o.status && same_as_expected(pb, out, info),
              "%s: the context fails after a failed %s: %s", what, shim_kind_name(build_kinds[i]),
              o.message);
        bchol_context_destroy(c);
    }
    free(out);
    free(info);
}

static void case_sweep_device(void) {
    /* two matrices per launch: the batch is split into launches too */
    setenv("BCHOL_MAX_GROUPS_PER_LAUNCH", "2", 1);
    problem pb = make_problem('s', 'L', 12, 2, 3, 5);
    sweep("spotrf_batched L n=12", &pb, 0);
    free_problem(&pb);
    problem p0 = make_problem(test_double_or_single(), 'U', 0, 0, 0, 3);
    sweep("dpotrf_batched U n=0", &p0, 0);
    free_problem(&p0);
}

static void case_sweep_host(void) {
    /* the device takes three matrices per allocation: pieces of 3, 3 and 2 */
    problem pb = make_problem(test_double_or_single(), 'U', 12, 1, 2, 8);
    shim_set_max_alloc((cl_ulong)(3 * pb.stride * pb.es));
    sweep("dpotrf_batched_host U n=12", &pb, 1);
    free_problem(&pb);
}

static void case_sweep_context(void) {
    long k;
    for (k = 1;; k++) {
        bchol_context *c = (bchol_context *)&k;
        shim_fail(SHIM_ANY, k, 1, CL_OUT_OF_HOST_MEMORY);
        bchol_status st = bchol_context_create(NULL, &c);
        long fired = shim_faults();
        shim_fail(SHIM_ANY, 0, 0, CL_SUCCESS);
        if (!fired) {
            bchol_context_destroy(c);
            break;
        }
        if (st) {
            CHECK(st < 0 && known_status(st) && c == NULL && *bchol_last_error(NULL),
                  "context_create, call %ld failed: status %d, ctx %p, message \"%s\"", k, st,
                  (void *)c, bchol_last_error(NULL));
        } else {
            /* a query it did without: the context must still work or fail cleanly */
            bchol_status s2 = bchol_spotrf_batched(c, 'L', 4, NULL, 0, 4, 16, 1, NULL, NULL);
            CHECK(s2 == BCHOL_ERR_A, "context after call %ld failed: a bad call gives %d", k, s2);
            bchol_context_destroy(c);
        }
    }
    printf("context_create: failed each of %ld OpenCL calls\n", k - 1);
    CHECK(k > 3, "context_create: only %ld OpenCL calls seen", k - 1);

    bchol_context *owner = new_context();
    cl_command_queue q = bchol_context_queue(owner);
    for (k = 1;; k++) {
        bchol_context *c = NULL;
        shim_fail(SHIM_ANY, k, 1, CL_OUT_OF_HOST_MEMORY);
        bchol_status st = bchol_context_create_from_queue(q, &c);
        long fired = shim_faults();
        shim_fail(SHIM_ANY, 0, 0, CL_SUCCESS);
        CHECK(st ? c == NULL && known_status(st) : c != NULL,
              "create_from_queue, call %ld failed: status %d", k, st);
        bchol_context_destroy(c);
        if (!fired) break;
    }
    printf("context_create_from_queue: failed each of %ld OpenCL calls\n", k - 1);
    bchol_context_destroy(owner);

    for (k = 1;; k++) {
        bchol_device_info d;
        shim_fail(SHIM_ANY, k, 1, CL_OUT_OF_HOST_MEMORY);
        int count = bchol_device_count();
        bchol_status st = bchol_device_info_at(0, &d);
        long fired = shim_faults();
        shim_fail(SHIM_ANY, 0, 0, CL_SUCCESS);
        CHECK(count >= 0 && (st == BCHOL_SUCCESS || st == BCHOL_ERR_ARGUMENT),
              "device queries, call %ld failed: status %d", k, st);
        if (!fired) break;
    }
    printf("device queries: failed each of %ld OpenCL calls\n", k - 1);
}

static void expect_status(const char *what, outcome o, bchol_status want, const char *needle) {
    int ok = o.status == want && (!needle || strstr(o.message, needle));
    printf("%-58s %-30s %s\n", what, bchol_status_string(o.status), ok ? "ok" : "FAILED");
    if (!ok) {
        printf("    wanted %s; message: %s\n", bchol_status_string(want), o.message);
        failures++;
    }
}

static void case_out_of_memory(void) {
    problem pb = make_problem('s', 'L', 10, 1, 1, 9);
    unsigned char *out = malloc(pb.bytes);
    int *info = malloc((size_t)pb.batch * sizeof(int));
    bchol_context *c = new_context();
    outcome o = run_device(c, &pb, no_fault, pb.expect, pb.expect_info);
    CHECK(!o.status && verify(&pb, pb.expect, pb.expect_info), "reference run: %s", o.message);

    /* The driver backs buffers lazily: memory runs out at the first launch. */
    o = run_device(c, &pb, (fault){SHIM_LAUNCH, 1, 1, CL_MEM_OBJECT_ALLOCATION_FAILURE}, out, info);
    expect_status("device: out of memory at the first launch", o, BCHOL_ERR_OUT_OF_MEMORY,
                  "CL_MEM_OBJECT_ALLOCATION_FAILURE");
    CHECK(unchanged(&pb, out, info), "device: buffers changed after out of memory");

    /* Every allocation refused: a status, nothing changed. */
    o = run_host(c, &pb, (fault){SHIM_BUFFER, 1, -1, CL_MEM_OBJECT_ALLOCATION_FAILURE}, out, info);
    expect_status("host: every allocation refused", o, BCHOL_ERR_OUT_OF_MEMORY, "clCreateBuffer");
    CHECK(unchanged(&pb, out, info), "host: arrays changed after out of memory");

    /* The first allocations refused: smaller pieces succeed. */
    o = run_host(c, &pb, (fault){SHIM_BUFFER, 1, 3, CL_MEM_OBJECT_ALLOCATION_FAILURE}, out, info);
    expect_status("host: three allocations refused, smaller pieces", o, BCHOL_SUCCESS, NULL);
    CHECK(o.fired == 3 && same_as_expected(&pb, out, info),
          "host: results after smaller pieces differ");

    /* Memory the driver could not back shows in the execution: smaller pieces succeed. */
    o = run_host(c, &pb, (fault){SHIM_WAIT, 1, 1, CL_MEM_OBJECT_ALLOCATION_FAILURE}, out, info);
    expect_status("host: execution out of memory, smaller pieces", o, BCHOL_SUCCESS, NULL);
    CHECK(o.fired == 1 && same_as_expected(&pb, out, info),
          "host: results after a failed execution differ");
    o = run_host(c, &pb, (fault){SHIM_WAIT, 1, -1, CL_OUT_OF_RESOURCES}, out, info);
    expect_status("host: every execution fails", o, BCHOL_ERR_RESOURCES, "factorization");
    CHECK(unchanged(&pb, out, info), "host: arrays changed after failed executions");
    bchol_context_destroy(c);

    /* A device whose largest allocation holds 2.5 matrices: pieces of 2. */
    shim_set_max_alloc((cl_ulong)(pb.stride * pb.es * 5 / 2));
    c = new_context();
    o = run_host(c, &pb, no_fault, out, info);
    expect_status("host: batch larger than one allocation", o, BCHOL_SUCCESS, NULL);
    CHECK(same_as_expected(&pb, out, info), "host: results in pieces differ");
    bchol_context_destroy(c);

    /* ... and one smaller than a matrix. */
    shim_set_max_alloc((cl_ulong)(pb.n * pb.es));
    c = new_context();
    o = run_host(c, &pb, no_fault, out, info);
    expect_status("host: one matrix larger than any allocation", o, BCHOL_ERR_OUT_OF_MEMORY,
                  "largest allocation");
    CHECK(unchanged(&pb, out, info), "host: arrays changed");
    bchol_context_destroy(c);
    shim_set_max_alloc(0);
    free(out);
    free(info);
    free_problem(&pb);
}

static void case_build(void) {
    problem pb = make_problem(test_double_or_single(), 'L', 13, 0, 2, 4);
    unsigned char *out = malloc(pb.bytes);
    int *info = malloc((size_t)pb.batch * sizeof(int));
    bchol_context *c = new_context();
    outcome o = run_device(c, &pb, (fault){SHIM_BUILD, 1, -1, CL_BUILD_PROGRAM_FAILURE}, out, info);
    expect_status("device: the build fails", o, BCHOL_ERR_BUILD, "build log");
    CHECK(unchanged(&pb, out, info), "device: buffers changed after a failed build");
    o = run_host(c, &pb, (fault){SHIM_BUILD, 1, -1, CL_BUILD_PROGRAM_FAILURE}, out, info);
    expect_status("host: the build fails", o, BCHOL_ERR_BUILD, "build log");
    CHECK(unchanged(&pb, out, info), "host: arrays changed after a failed build");
    /* A failed build is not cached: the same context builds it the next time. */
    o = run_device(c, &pb, no_fault, pb.expect, pb.expect_info);
    expect_status("device: the next call builds and runs", o, BCHOL_SUCCESS, NULL);
    CHECK(verify(&pb, pb.expect, pb.expect_info), "device: wrong results after a failed build");
    bchol_context_destroy(c);

    /* A kernel source with an error in it (as a broken BCHOL_KERNEL_DIR copy would be). */
    char dir[] = "/tmp/bchol-faults-XXXXXX", path[128];
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    static const char *const subdirs[] = {"common", "chol", "layout"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, subdirs[i]);
        CHECK(mkdir(path, 0700) == 0, "mkdir %s", path);
    }
    snprintf(path, sizeof path, "%s/common/common.cl", dir);
    FILE *f = fopen(path, "w");
    /* the generated interleaved kernels include common.cl alone (the staged one, which the
     * H100 file picks at n = 13, reads no other file) */
    fputs("#define REAL float\n#define PIVOT_OK(d) ((d) > undefined_name)\n#define PRAGMA_UNROLL\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/chol/potrf_fused.cl", dir);
    f = fopen(path, "w");
    fputs("__kernel void potrf_fused_step(__global REAL *A) { A[0] = undefined_name; }\n", f);
    fclose(f);
    /* the workitem variant, where the dispatcher picks it (PoCL), and the vector header it
     * is built with (empty: the broken kernel uses none of it) */
    snprintf(path, sizeof path, "%s/common/vector.cl", dir);
    f = fopen(path, "w");
    fclose(f);
    snprintf(path, sizeof path, "%s/chol/potrf_workitem.cl", dir);
    f = fopen(path, "w");
    fputs("__kernel void potrf_workitem(__global REAL *A) { A[0] = undefined_name; }\n", f);
    fclose(f);
    /* the interleaved variant's conversions, where the dispatcher picks that variant */
    snprintf(path, sizeof path, "%s/layout/interleave.cl", dir);
    f = fopen(path, "w");
    fputs("__kernel void interleave_loop(__global REAL *A) { A[0] = undefined_name; }\n", f);
    fclose(f);
    setenv("BCHOL_KERNEL_DIR", dir, 1);
    c = new_context();
    o = run_host(c, &pb, no_fault, out, info);
    expect_status("host: kernel source with an error", o, BCHOL_ERR_BUILD, "undefined_name");
    CHECK(unchanged(&pb, out, info), "host: arrays changed after a failed build");
    bchol_context_destroy(c);
    unsetenv("BCHOL_KERNEL_DIR");
    remove(path);
    snprintf(path, sizeof path, "%s/chol/potrf_fused.cl", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/chol/potrf_workitem.cl", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/common/vector.cl", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/common/common.cl", dir);
    remove(path);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, subdirs[i]);
        rmdir(path);
    }
    rmdir(dir);
    free(out);
    free(info);
    free_problem(&pb);
}

static void case_no_fp64(void) {
    problem pd = make_problem('d', 'U', 9, 1, 0, 3), ps = make_problem('s', 'U', 9, 1, 0, 3);
    unsigned char *out = malloc(pd.bytes);
    int *info = malloc((size_t)pd.batch * sizeof(int));
    shim_set_no_fp64(1);
    bchol_context *c = new_context();
    bchol_device_info d;
    bchol_context_device_info(c, &d);
    CHECK(d.fp64 == 0, "the device still reports fp64");
    outcome o = run_device(c, &pd, no_fault, out, info);
    expect_status("device: double on a device without fp64", o, BCHOL_ERR_NO_FP64,
                  "double precision");
    CHECK(unchanged(&pd, out, info), "device: buffers changed");
    o = run_host(c, &pd, no_fault, out, info);
    expect_status("host: double on a device without fp64", o, BCHOL_ERR_NO_FP64,
                  "double precision");
    CHECK(unchanged(&pd, out, info), "host: arrays changed");
    bchol_params prm;
    bchol_status st = bchol_potrf_params(c, 'd', 9, &prm, NULL);
    CHECK(st == BCHOL_SUCCESS, "bchol_potrf_params('d') on a device without fp64: %d", st);
    o = run_host(c, &ps, no_fault, ps.expect, ps.expect_info);
    expect_status("host: single on a device without fp64", o, BCHOL_SUCCESS, NULL);
    CHECK(verify(&ps, ps.expect, ps.expect_info), "single precision results wrong");
    bchol_context_destroy(c);
    free(out);
    free(info);
    free_problem(&pd);
    free_problem(&ps);
}

static void case_work_group(void) {
    problem pb = make_problem('s', 'U', 24, 3, 1, 7);
    unsigned char *out = malloc(pb.bytes);
    int *info = malloc((size_t)pb.batch * sizeof(int));
    bchol_context *c = new_context();
    outcome o =
        run_device(c, &pb, (fault){SHIM_LAUNCH, 1, 1, CL_INVALID_WORK_GROUP_SIZE}, out, info);
    expect_status("device: the driver refuses the work-group size", o, BCHOL_ERR_RESOURCES,
                  "CL_INVALID_WORK_GROUP_SIZE");
    CHECK(unchanged(&pb, out, info), "device: buffers changed");
    o = run_device(c, &pb, (fault){SHIM_LAUNCH, 1, 1, CL_OUT_OF_RESOURCES}, out, info);
    expect_status("device: the kernel needs more than the device has", o, BCHOL_ERR_RESOURCES,
                  "CL_OUT_OF_RESOURCES");
    CHECK(unchanged(&pb, out, info), "device: buffers changed");
    o = run_host(c, &pb, (fault){SHIM_LAUNCH, 1, -1, CL_OUT_OF_RESOURCES}, out, info);
    expect_status("host: the kernel needs more than the device has", o, BCHOL_ERR_RESOURCES,
                  "CL_OUT_OF_RESOURCES");
    CHECK(unchanged(&pb, out, info), "host: arrays changed");
    bchol_context_destroy(c);

    /* Kernels that take fewer work-items than a matrix has rows: more rows per item. */
    static const size_t limits[] = {1, 7};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        shim_set_wg_limit(limits[i]);
        c = new_context();
        o = run_device(c, &pb, no_fault, out, info);
        char what[80];
        snprintf(what, sizeof what, "device: kernels take at most %zu work-items", limits[i]);
        expect_status(what, o, BCHOL_SUCCESS, NULL);
        CHECK(verify(&pb, out, info), "%s: wrong results", what);
        bchol_context_destroy(c);
    }
    shim_set_wg_limit(0);
    free(out);
    free(info);
    free_problem(&pb);
}

/* AddressSanitizer keeps freed memory in quarantine: resident memory grows by design
 * there, and LeakSanitizer checks leaks instead. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static long resident_kib(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Everything a context owns goes with it: made, used (device, host, timing, a failed
 * call, a wrapped queue) and destroyed many times, the objects held return to zero each
 * time and the resident memory stops growing. */
static void case_context_loop(void) {
    problem ps = make_problem('s', 'L', 9, 0, 0, 4), pd = make_problem(test_double_or_single(), 'U', 9, 0, 0, 4);
    unsigned char *out = malloc(pd.bytes);
    int *info = malloc((size_t)pd.batch * sizeof(int));
    const int warm = 5, rounds = 20;
    long base = 0;
    char live[256];
    for (int r = 0; r < rounds; r++) {
        bchol_context *c = new_context();
        bchol_context_set_timing(c, 1);
        outcome o = run_device(c, &ps, no_fault, out, info);
        double ms;
        CHECK(!o.status && verify(&ps, out, info) && !bchol_last_call_ms(c, &ms),
              "round %d: device: %s", r, o.message);
        o = run_host(c, &pd, no_fault, out, info);
        CHECK(!o.status && verify(&pd, out, info), "round %d: host: %s", r, o.message);
        CHECK(bchol_spotrf_batched(c, 'L', 9, NULL, 0, 8, 81, 1, NULL, NULL) == BCHOL_ERR_LDA,
              "round %d: bad lda", r);
        bchol_context *w;
        CHECK(!bchol_context_create_from_queue(bchol_context_queue(c), &w), "round %d: wrap", r);
        o = run_device(w, &ps, no_fault, out, info);
        CHECK(!o.status && verify(&ps, out, info), "round %d: wrapped queue: %s", r, o.message);
        bchol_context_destroy(c);
        bchol_context_destroy(w);
        long held = shim_live(live, sizeof live);
        CHECK(held == 0, "round %d: %ld OpenCL objects held after destroying the contexts (%s)", r,
              held, live);
        if (r == warm - 1) base = resident_kib();
    }
    long grown = resident_kib() - base;
    printf("context_loop: resident memory grew by %ld KiB over %d rounds after %d warm-up rounds\n",
           grown, rounds - warm, warm);
    if (UNDER_ASAN)
        printf("context_loop: no bound on resident memory under AddressSanitizer\n");
    else
        CHECK(grown < 16 * 1024, "resident memory grew by %ld KiB", grown);
    free(out);
    free(info);
    free_problem(&ps);
    free_problem(&pd);
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    {"sweep_device", case_sweep_device},
    {"sweep_host", case_sweep_host},
    {"sweep_context", case_sweep_context},
    {"out_of_memory", case_out_of_memory},
    {"build", case_build},
    {"no_fp64", case_no_fp64},
    {"work_group", case_work_group},
    {"context_loop", case_context_loop},
};

int main(int argc, char **argv) {
    for (size_t i = 0; argc == 2 && i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            printf("%s: %s\n", argv[1], failures ? "FAILED" : "ok");
            return failures ? 1 : 0;
        }
    fprintf(stderr, "usage: test_faults <case>\n");
    return 2;
}
