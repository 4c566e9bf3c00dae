/*
 * Concurrency: several host threads on one context, and several contexts at once on one
 * device, must give the results of a sequential run bit for bit. One case per run:
 * test_concurrency <case> [threads] [rounds]; exit code 0 on pass.
 *
 *   one_context    threads share one fresh context: they race to build the same programs
 *                  (each must be built once: counted with cl_shim) and to set the
 *                  arguments of the same kernels, through both device and host routines,
 *                  Cholesky and LU (getri on its blocked path, which borrows the context's
 *                  workspace; the vbatched getrf on its blocked path, several launches)
 *   many_contexts  each thread makes its own context at the same time, uses it, destroys it
 *   errors         threads make bad calls on one context: each sees its own message
 *
 * Every thread runs every job in its own order, with its own buffers, and compares the
 * factors (pivots, inverses, solutions) and info with the sequential run, which is itself
 * checked against LAPACK's ratios.
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"
#include "cl_shim.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One routine call: distinct (precision, uplo, n) are distinct programs. kind: 'C' a
 * Cholesky factorization (host: 0 the device form, 1 the strided host form, 2 the
 * variable-size host form), 'L' getrf, 'V' the vbatched getrf (blocked path), 'I' getrf
 * then getri, 'S' the strided gesv host form. An LU job's output (and input) is its
 * matrices (A, or C for getri), then the pivots, then (gesv) the right-hand sides; one of
 * its matrices is singular. */
typedef struct {
    char kind, prec, uplo;
    int n, host, nrhs;
    long long batch;
    size_t bytes;
    unsigned char *input, *expect;
    int *expect_info;
} job;

#define JOB(p, u, n_, h, b)                                                                        \
    { .kind = 'C', .prec = p, .uplo = u, .n = n_, .host = h, .batch = b }
#define LU(k, p, n_, b, r)                                                                         \
    { .kind = k, .prec = p, .n = n_, .batch = b, .nrhs = r }
static job jobs[] = {
    JOB('s', 'L', 7, 0, 40),  JOB('d', 'U', 7, 1, 33), JOB('s', 'U', 19, 0, 21),
    JOB('d', 'L', 30, 0, 12), JOB('s', 'L', 7, 1, 25), JOB('d', 'L', 30, 1, 9),
    JOB('s', 'U', 19, 2, 17), LU('L', 's', 13, 20, 0),  LU('V', 'd', 11, 9, 0),
    LU('I', 's', 10, 12, 0),  LU('S', 'd', 9, 15, 2),   LU('I', 'd', 12, 10, 0),
};
/* the LU jobs' singular matrix and its zero column (info ZERO_COL + 1) */
#define SINGULAR 1
#define ZERO_COL 3
#define MAX_BATCH 40 /* the largest batch above */
#define NJOBS ((int)(sizeof jobs / sizeof jobs[0]))
/* programs the jobs build in one context, counted by the sequential run (the variants the
 * dispatcher picks on this device decide how many) */
static long distinct_programs;

static int threads = 8, rounds = 5;
static bchol_context *shared;
static pthread_barrier_t start;
static long mismatches, errors;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void count(long *what, const char *fmt, int t, int j, const char *msg) {
    pthread_mutex_lock(&count_lock);
    if ((*what)++ < 10) {
        printf(fmt, t, j, msg);
        printf("\n");
    }
    pthread_mutex_unlock(&count_lock);
}

/* Bytes of an LU job's matrices, pivots and right-hand sides. */
static size_t lu_a_bytes(const job *b) { return (size_t)(b->batch * b->n * b->n) * (b->prec == 'd' ? 8 : 4); }
static size_t lu_p_bytes(const job *b) { return (size_t)(b->batch * b->n) * sizeof(int); }
/* Where the right-hand sides start: after the pivots, aligned for doubles. */
static size_t lu_b_at(const job *b) { return (lu_a_bytes(b) + lu_p_bytes(b) + 7) / 8 * 8; }

static void make_lu_job(job *b, int j) {
    const int dbl = b->prec == 'd', n = b->n;
    const size_t es = dbl ? 8 : 4;
    b->bytes = lu_b_at(b) + (size_t)(b->batch * n * b->nrhs) * es;
    b->input = calloc(b->bytes, 1);
    b->expect = malloc(b->bytes);
    b->expect_info = malloc((size_t)b->batch * sizeof(int));
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)j + 101);
    util_fill_uniform(b->input, dbl, n, (int)(b->batch * n), n, &rng);
    memset(b->input + ((size_t)SINGULAR * n * n + (size_t)ZERO_COL * n) * es, 0, (size_t)n * es);
    if (b->nrhs) util_fill_uniform(b->input + lu_b_at(b), dbl, n, (int)(b->batch * b->nrhs), n, &rng);
}

static void make_jobs(void) {
    for (int j = 0; j < NJOBS; j++) {
        job *b = &jobs[j];
        if (b->kind != 'C') {
            make_lu_job(b, j);
            continue;
        }
        const int dbl = b->prec == 'd', n = b->n;
        b->bytes = (size_t)(b->batch * n * n) * (dbl ? 8 : 4);
        b->input = calloc(b->bytes, 1);
        b->expect = malloc(b->bytes);
        b->expect_info = malloc((size_t)b->batch * sizeof(int));
        util_rng rng;
        util_rng_seed(&rng, (uint64_t)j + 1);
        for (long long m = 0; m < b->batch; m++) {
            unsigned char *a = b->input + (size_t)(m * n * n) * (dbl ? 8 : 4);
            util_spd(a, dbl, b->uplo, n, n, &rng);
            if (m % 5 == 2) util_break_at(a, dbl, b->uplo, n, n, (int)(m % n));
        }
    }
}

/* This thread's device buffers: dA and dC hold the largest job's bytes, dP its pivots and
 * dI its info. */
typedef struct {
    cl_mem dA, dC, dP, dI;
} buffers;

static int make_buffers(bchol_context *ctx, size_t most, buffers *d) {
    cl_context cl = bchol_context_cl_context(ctx);
    d->dA = clCreateBuffer(cl, CL_MEM_READ_WRITE, most, NULL, NULL);
    d->dC = clCreateBuffer(cl, CL_MEM_READ_WRITE, most, NULL, NULL);
    d->dP = clCreateBuffer(cl, CL_MEM_READ_WRITE, most, NULL, NULL);
    d->dI = clCreateBuffer(cl, CL_MEM_READ_WRITE, MAX_BATCH * sizeof(int), NULL, NULL);
    return d->dA && d->dC && d->dP && d->dI ? 0 : -1;
}

static void free_buffers(buffers *d) {
    cl_mem all[] = {d->dA, d->dC, d->dP, d->dI};
    for (int i = 0; i < 4; i++)
        if (all[i]) clReleaseMemObject(all[i]);
}

/* Waits on the last read's own event (queue order: the rest is done then), not on blocking
 * transfers: Rusticl 22.3 ends those early while other threads share the queue. */
static bchol_status read_back(cl_command_queue q, cl_mem m1, size_t b1, void *h1, cl_mem m2,
                              size_t b2, void *h2, cl_mem dI, size_t bi, int *info) {
    cl_event ev = NULL;
    if (clEnqueueReadBuffer(q, m1, CL_FALSE, 0, b1, h1, 0, NULL, NULL) ||
        (m2 && clEnqueueReadBuffer(q, m2, CL_FALSE, 0, b2, h2, 0, NULL, NULL)) ||
        clEnqueueReadBuffer(q, dI, CL_FALSE, 0, bi, info, 0, NULL, &ev))
        return BCHOL_ERR_OPENCL;
    const cl_int err = clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
    return err ? BCHOL_ERR_OPENCL : BCHOL_SUCCESS;
}

/* The vbatched getrf of an LU job's uniform batch on its blocked path (nb 4), from dA to
 * dA and dP; its per-matrix arrays are made here (each context needs its own). */
static bchol_status run_getrf_vbatched(bchol_context *ctx, const job *b, const buffers *d,
                                       cl_event *ev) {
    const int n = b->n;
    int ns[MAX_BATCH];
    int64_t oa[MAX_BATCH], op[MAX_BATCH];
    for (long long m = 0; m < b->batch; m++) {
        ns[m] = n;
        oa[m] = m * n * n;
        op[m] = m * n;
    }
    cl_context cl = bchol_context_cl_context(ctx);
    const cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    const size_t ints = (size_t)b->batch * sizeof(int), longs = (size_t)b->batch * sizeof(int64_t);
    cl_mem dn = clCreateBuffer(cl, in, ints, ns, NULL), da = clCreateBuffer(cl, in, longs, oa, NULL),
           dp = clCreateBuffer(cl, in, longs, op, NULL);
    const bchol_lu_params prm = {.nb = 4, .fused_max = -1};
    bchol_status st = BCHOL_ERR_OPENCL;
    if (dn && da && dp)
        st = b->prec == 'd'
                 ? bchol_dgetrf_vbatched_ex(ctx, &prm, n, n, dn, dn, dn, da, d->dA, dp, d->dP, b->batch,
                                            d->dI, ev)
                 : bchol_sgetrf_vbatched_ex(ctx, &prm, n, n, dn, dn, dn, da, d->dA, dp, d->dP, b->batch,
                                            d->dI, ev);
    cl_mem all[] = {dn, da, dp};
    for (int i = 0; i < 3; i++)
        if (all[i]) clReleaseMemObject(all[i]);
    return st;
}

/* Runs LU job b on ctx into out/info; returns the status. */
static bchol_status run_lu_job(bchol_context *ctx, const job *b, unsigned char *out, int *info,
                               const buffers *d) {
    const int n = b->n, dbl = b->prec == 'd';
    const int64_t s = (int64_t)n * n;
    const size_t ab = lu_a_bytes(b), pb = lu_p_bytes(b), ib = (size_t)b->batch * sizeof(int);
    memcpy(out, b->input, b->bytes);
    if (b->kind == 'S')
        return dbl ? bchol_dgesv_batched_host(ctx, n, b->nrhs, (double *)out, n, s, (int *)(out + ab), n,
                                              (double *)(out + lu_b_at(b)), n, (int64_t)n * b->nrhs, b->batch,
                                              info)
                   : bchol_sgesv_batched_host(ctx, n, b->nrhs, (float *)out, n, s, (int *)(out + ab), n,
                                              (float *)(out + lu_b_at(b)), n, (int64_t)n * b->nrhs, b->batch,
                                              info);
    cl_command_queue q = bchol_context_queue(ctx);
    cl_event ev = NULL;
    bchol_status st;
    /* getri leaves a singular matrix's C as it was: C starts as A */
    if (clEnqueueWriteBuffer(q, d->dA, CL_FALSE, 0, ab, out, 0, NULL, NULL) ||
        (b->kind == 'I' && clEnqueueWriteBuffer(q, d->dC, CL_FALSE, 0, ab, out, 0, NULL, NULL)))
        return BCHOL_ERR_OPENCL;
    if (b->kind == 'V')
        st = run_getrf_vbatched(ctx, b, d, &ev);
    else
        st = dbl ? bchol_dgetrf_batched(ctx, n, n, d->dA, 0, n, s, d->dP, 0, n, b->batch, d->dI, &ev)
                 : bchol_sgetrf_batched(ctx, n, n, d->dA, 0, n, s, d->dP, 0, n, b->batch, d->dI, &ev);
    if (st) return st;
    clReleaseEvent(ev);
    if (b->kind == 'I') {
        st = dbl ? bchol_dgetri_batched(ctx, n, d->dA, 0, n, s, d->dP, 0, n, d->dC, 0, n, s, b->batch, d->dI, &ev)
                 : bchol_sgetri_batched(ctx, n, d->dA, 0, n, s, d->dP, 0, n, d->dC, 0, n, s, b->batch, d->dI, &ev);
        if (st) return st;
        clReleaseEvent(ev);
    }
    return read_back(q, b->kind == 'I' ? d->dC : d->dA, ab, out, d->dP, pb, out + ab, d->dI, ib, info);
}

/* Runs job j on ctx into out/info; returns the status. */
static bchol_status run_job(bchol_context *ctx, const job *b, unsigned char *out, int *info,
                            const buffers *d) {
    if (b->kind != 'C') return run_lu_job(ctx, b, out, info, d);
    cl_mem dA = d->dA, dI = d->dI;
    const int n = b->n;
    const long long s = (long long)n * n;
    memcpy(out, b->input, b->bytes);
    if (b->host == 1)
        return b->prec == 'd'
                   ? bchol_dpotrf_batched_host(ctx, b->uplo, n, (double *)out, n, s, b->batch, info)
                   : bchol_spotrf_batched_host(ctx, b->uplo, n, (float *)out, n, s, b->batch, info);
    if (b->host == 2) { /* the variable-size host form, all of one size */
        int ns[MAX_BATCH], ldas[MAX_BATCH];
        int64_t offsets[MAX_BATCH];
        for (long long m = 0; m < b->batch; m++) {
            ns[m] = ldas[m] = n;
            offsets[m] = m * s;
        }
        return b->prec == 'd' ? bchol_dpotrf_vbatched_host(ctx, b->uplo, ns, ldas, offsets,
                                                           (double *)out, b->batch, info)
                              : bchol_spotrf_vbatched_host(ctx, b->uplo, ns, ldas, offsets,
                                                           (float *)out, b->batch, info);
    }
    cl_command_queue q = bchol_context_queue(ctx);
    cl_event ev = NULL;
    bchol_status st;
    if (clEnqueueWriteBuffer(q, dA, CL_FALSE, 0, b->bytes, out, 0, NULL, NULL))
        return BCHOL_ERR_OPENCL;
    st = b->prec == 'd' ? bchol_dpotrf_batched(ctx, b->uplo, n, dA, 0, n, s, b->batch, dI, &ev)
                        : bchol_spotrf_batched(ctx, b->uplo, n, dA, 0, n, s, b->batch, dI, &ev);
    if (st) return st;
    clReleaseEvent(ev);
    return read_back(q, dA, b->bytes, out, NULL, 0, NULL, dI, (size_t)b->batch * sizeof(int), info);
}

/* Which matrices differ from the sequential run, and how: to tell a lost launch (a whole
 * matrix as it came in) from a race inside one. */
static void describe_mismatch(const job *b, const unsigned char *out, const int *info, char *what,
                              size_t size) {
    if (b->kind != 'C') { /* which part: the matrices, the pivots, the right-hand sides */
        const size_t ab = lu_a_bytes(b), pb = lu_p_bytes(b);
        long long infos = 0;
        for (long long m = 0; m < b->batch; m++) infos += info[m] != b->expect_info[m];
        snprintf(what, size, "results differ from the sequential run: matrices %s, pivots %s, %s%lld infos",
                 memcmp(out, b->expect, ab) ? "differ" : "equal",
                 memcmp(out + ab, b->expect + ab, pb) ? "differ" : "equal",
                 b->nrhs ? (memcmp(out + lu_b_at(b), b->expect + lu_b_at(b), b->bytes - lu_b_at(b)) ? "solutions differ, "
                                                                                            : "solutions equal, ")
                         : "",
                 infos);
        return;
    }
    const size_t mb = b->bytes / (size_t)b->batch;
    long long first = -1, differ = 0, as_input = 0, infos = 0;
    for (long long m = 0; m < b->batch; m++) {
        const size_t at = (size_t)m * mb;
        if (info[m] != b->expect_info[m]) infos++;
        if (!memcmp(out + at, b->expect + at, mb)) continue;
        if (first < 0) first = m;
        differ++;
        if (!memcmp(out + at, b->input + at, mb)) as_input++;
    }
    snprintf(what, size,
             "results differ from the sequential run: %lld of %lld matrices (first %lld, %lld as "
             "they came in), %lld infos",
             differ, b->batch, first, as_input, infos);
}

static size_t largest_job(void) {
    size_t most = 0;
    for (int j = 0; j < NJOBS; j++)
        if (jobs[j].bytes > most) most = jobs[j].bytes;
    return most;
}

/* Every job, rounds times, in an order that depends on the thread; compared with the
 * sequential results. ctx NULL: the thread makes its own context. */
static void *worker(void *arg) {
    const int t = (int)(intptr_t)arg;
    const size_t most = largest_job();
    unsigned char *out = malloc(most);
    int *info = malloc(MAX_BATCH * sizeof(int));
    pthread_barrier_wait(&start);
    bchol_context *ctx = shared;
    if (!ctx && bchol_context_create(NULL, &ctx)) {
        count(&errors, "thread %d: job %d: no context: %s", t, -1, bchol_last_error(NULL));
        free(out);
        free(info);
        return NULL;
    }
    buffers d;
    if (make_buffers(ctx, most, &d)) count(&errors, "thread %d: job %d: %s", t, -1, "no buffers");
    for (int r = 0; r < rounds && !errors; r++)
        for (int i = 0; i < NJOBS; i++) {
            const int j = (i * (t % 2 ? 5 : 1) + t + r) % NJOBS;
            const job *b = &jobs[j];
            bchol_params prm;
            const char *source = "backend ";
            if (b->kind == 'C') bchol_potrf_params(ctx, b->prec, b->n, &prm, &source);
            bchol_status st = run_job(ctx, b, out, info, &d);
            if (st)
                count(&errors, "thread %d: job %d: %s", t, j, bchol_last_error(ctx));
            else if (memcmp(out, b->expect, b->bytes) ||
                     memcmp(info, b->expect_info, (size_t)b->batch * sizeof(int))) {
                char what[256];
                describe_mismatch(b, out, info, what, sizeof what);
                count(&mismatches, "thread %d: job %d: %s", t, j, what);
            }
            /* the parameters come from the backend or a (shipped) tuning file */
            if (!source || (strncmp(source, "backend ", 8) && strncmp(source, "tuning file ", 12)))
                count(&errors, "thread %d: job %d: params source \"%s\"", t, j,
                      source ? source : "(null)");
        }
    free_buffers(&d);
    if (!shared) bchol_context_destroy(ctx);
    free(out);
    free(info);
    return NULL;
}

/* The sequential run of LU job b must be right: exact info (the singular matrix's zero
 * column, 0 elsewhere) and LAPACK's ratios of the others: ||P*A - L*U||, ||I - A*C||, or
 * ||B - A*X|| over (n ||A|| eps) and the like, at most 30. */
static void check_lu_reference(const job *b, int j, bchol_status st, bchol_context *ctx) {
    const int n = b->n, dbl = b->prec == 'd';
    const size_t es = dbl ? 8 : 4, ab = lu_a_bytes(b), per = (size_t)n * n * es;
    double worst = 0;
    int bad = st != 0;
    for (long long m = 0; m < b->batch && !st; m++) {
        const int want = m == SINGULAR ? ZERO_COL + 1 : 0;
        if (b->expect_info[m] != want) {
            bad++;
            continue;
        }
        if (want) continue;
        const unsigned char *a = b->input + m * per, *f = b->expect + m * per;
        const int *ipiv = (const int *)(b->expect + ab) + m * n;
        double e = b->kind == 'I'   ? util_inv_residual(a, f, dbl, n, n, n)
                   : b->kind == 'S' ? util_lu_solve_residual(a, dbl, 'N', n, n, b->nrhs,
                                                             b->expect + lu_b_at(b) + (size_t)m * n * b->nrhs * es, n,
                                                             b->input + lu_b_at(b) + (size_t)m * n * b->nrhs * es, n)
                                    : util_lu_residual(a, f, ipiv, dbl, n, n);
        if (!(e <= worst)) worst = e;
    }
    if (bad || !(worst <= 30)) {
        printf("FAILED: sequential job %d (%c): %s (ratio %.3g)\n", j, b->kind,
               st ? bchol_last_error(ctx) : "wrong info", worst);
        exit(1);
    }
}

static void sequential_reference(void) {
    bchol_context *ctx;
    if (bchol_context_create(NULL, &ctx)) {
        printf("FAILED: no context: %s\n", bchol_last_error(NULL));
        exit(1);
    }
    const long builds = shim_calls(SHIM_BUILD);
    buffers d;
    if (make_buffers(ctx, largest_job(), &d)) {
        printf("FAILED: no buffers\n");
        exit(1);
    }
    for (int j = 0; j < NJOBS; j++) {
        job *b = &jobs[j];
        bchol_status st = run_job(ctx, b, b->expect, b->expect_info, &d);
        if (b->kind != 'C') {
            check_lu_reference(b, j, st, ctx);
            continue;
        }
        /* the sequential run itself must be right */
        double worst = 0;
        int bad = st != 0;
        for (long long m = 0; m < b->batch && !st; m++) {
            size_t at = (size_t)(m * b->n * b->n) * (b->prec == 'd' ? 8 : 4);
            int ref = util_ref_info(b->input + at, b->prec == 'd', b->uplo, b->n, b->n);
            if (ref != b->expect_info[m])
                bad++;
            else if (!ref) {
                double e = util_backward_error(b->input + at, b->expect + at, b->prec == 'd',
                                               b->uplo, b->n, b->n);
                if (!(e <= worst)) worst = e;
            }
        }
        if (bad || !(worst <= 30)) {
            printf("FAILED: sequential job %d: %s (backward error %.3g)\n", j,
                   st ? bchol_last_error(ctx) : "wrong info", worst);
            exit(1);
        }
    }
    distinct_programs = shim_calls(SHIM_BUILD) - builds;
    free_buffers(&d);
    bchol_context_destroy(ctx);
}

static void run_threads(void *(*fn)(void *)) {
    pthread_t *tid = malloc((size_t)threads * sizeof *tid);
    pthread_barrier_init(&start, NULL, (unsigned)threads);
    for (int t = 0; t < threads; t++)
        pthread_create(&tid[t], NULL, fn, (void *)(intptr_t)t);
    for (int t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&start);
    free(tid);
}

static int case_one_context(void) {
    if (bchol_context_create(NULL, &shared)) return printf("FAILED: no context\n"), 1;
    long builds = shim_calls(SHIM_BUILD);
    run_threads(worker);
    builds = shim_calls(SHIM_BUILD) - builds;
    bchol_context_destroy(shared);
    printf("one_context: %d threads x %d rounds x %d jobs: %ld mismatches, %ld errors, %ld builds "
           "of %ld programs\n",
           threads, rounds, NJOBS, mismatches, errors, builds, distinct_programs);
    return mismatches || errors || builds != distinct_programs;
}

static int case_many_contexts(void) {
    shared = NULL;
    run_threads(worker);
    printf("many_contexts: %d threads with a context each x %d rounds x %d jobs: %ld mismatches, "
           "%ld errors\n",
           threads, rounds, NJOBS, mismatches, errors);
    return mismatches || errors;
}

/* Bad calls with a value of the thread's own, in lock-step: every thread fails, then
 * every thread reads its message, so a message kept for all threads would show another
 * thread's value. */
static void *bad_caller(void *arg) {
    const int t = (int)(intptr_t)arg;
    char want[64];
    pthread_barrier_wait(&start);
    for (int i = 0; i < 500; i++) {
        const int lda = -(1000 * t + i) - 1;
        bchol_status st = bchol_spotrf_batched(shared, 'L', 4, NULL, 0, lda, 16, 1, NULL, NULL);
        pthread_barrier_wait(&start);
        snprintf(want, sizeof want, "(lda = %d)", lda);
        if (st != BCHOL_ERR_LDA || !strstr(bchol_last_error(shared), want))
            count(&errors, "thread %d: call %d: %s", t, i, bchol_last_error(shared));
        pthread_barrier_wait(&start);
    }
    return NULL;
}

static int case_errors(void) {
    if (bchol_context_create(NULL, &shared)) return printf("FAILED: no context\n"), 1;
    run_threads(bad_caller);
    bchol_context_destroy(shared);
    printf("errors: %d threads x 500 bad calls in lock-step on one context: %ld wrong messages\n", threads,
           errors);
    return errors != 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr,
                "usage: test_concurrency one_context|many_contexts|errors [threads] [rounds]\n");
        return 2;
    }
    if (argc > 2) threads = atoi(argv[2]);
    if (argc > 3) rounds = atoi(argv[3]);
    if (threads < 1 || rounds < 1) return 2;
    if (!strcmp(argv[1], "errors")) return case_errors();
    /* getri's blocked path, whose calls borrow the context's workspace (set before any
     * thread starts: the library reads it at every call) */
    setenv("BCHOL_GETRI", "blocked,nb=4", 1);
    const char d = test_double_or_single(); /* the double jobs in single without fp64 */
    for (int j = 0; j < NJOBS; j++)
        if (jobs[j].prec == 'd') jobs[j].prec = d;
    make_jobs();
    sequential_reference();
    int failed = !strcmp(argv[1], "one_context")     ? case_one_context()
                 : !strcmp(argv[1], "many_contexts") ? case_many_contexts()
                                                     : 2;
    for (int j = 0; j < NJOBS; j++) {
        free(jobs[j].input);
        free(jobs[j].expect);
        free(jobs[j].expect_info);
    }
    return failed;
}
