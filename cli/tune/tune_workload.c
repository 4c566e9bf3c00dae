/* The batch a candidate is timed on: random diagonally dominant SPD matrices (so every
 * reference info is 0) but one, broken at pivot n/2 + 1, and the reference results the
 * run is checked against: info of every matrix, the backward error of a sample. For the
 * solve, the batch's factors and random right-hand sides, checked by the residual of a
 * sample of the systems; getrs' the same on getrf's factors of the LU batch, and getri's
 * inverses of those factors by ||I - A*C|| of the sample. */
#include "bchol_util.h"
#include "tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES (32u << 20) /* host staging while the batch is generated */
#define THRESHOLD 30.0          /* backward error in units of n*eps, as the tests */

long long tune_default_batch(const bchol_device_info *dev, char precision, int n)
{
    const unsigned long long per = (unsigned long long)n * n * (precision == 'd' ? 8 : 4);
    /* as bchol bench, on CPUs too: smaller batches, a run of a few tens of ms (4e6 / n^2
     * matrices, as before 2026-11-25), stay in a CPU's caches and pick what loses at larger
     * ones: double n = 24 on an AVX-512 EPYC (PoCL) chose the interleaved simple layout,
     * 5.1 ms for 6932 matrices against 6.0 chunked, but 49.8 ms against 13.8 for 16384 */
    long long batch = util_fit_batch(util_bench_batch(n), per, dev->max_alloc, dev->global_mem);
    return batch < 2 ? 2 : batch;
}

void tune_workload_free(tune_workload *w)
{
    if (w->A0) clReleaseMemObject(w->A0);
    if (w->A) clReleaseMemObject(w->A);
    if (w->info) clReleaseMemObject(w->info);
    if (w->vn) clReleaseMemObject(w->vn);
    if (w->vlda) clReleaseMemObject(w->vlda);
    if (w->voff) clReleaseMemObject(w->voff);
    if (w->F) clReleaseMemObject(w->F);
    if (w->B0) clReleaseMemObject(w->B0);
    if (w->B) clReleaseMemObject(w->B);
    if (w->ilv) clReleaseMemObject(w->ilv);
    if (w->ipiv) clReleaseMemObject(w->ipiv);
    if (w->lu0) clReleaseMemObject(w->lu0);
    if (w->lu_f) clReleaseMemObject(w->lu_f);
    if (w->lu_p) clReleaseMemObject(w->lu_p);
    free(w->ipiv_host);
    free(w->lu_sample_in);
    free(w->vn_host);
    free(w->sample_in);
    free(w->sample_out);
    free(w->info_host);
    memset(w, 0, sizeof *w);
}

static int fail(char *why, size_t size, const char *what, cl_int err)
{
    snprintf(why, size, "%s: OpenCL error %d", what, (int)err);
    return -1;
}

/* The variable-size view of the batch: orders uniform in [1, n] (the broken matrix keeps n,
 * so that its pivot is reached), lda n, offsets b*n*n. */
static int variable_sizes_init(tune_workload *w, char *why, size_t size)
{
    const long long batch = w->batch, broken = batch / 2;
    int *lda = malloc((size_t)batch * sizeof *lda);
    int64_t *off = malloc((size_t)batch * sizeof *off);
    w->vn_host = malloc((size_t)batch * sizeof *w->vn_host);
    if (!lda || !off || !w->vn_host) {
        free(lda);
        free(off);
        snprintf(why, size, "out of host memory for the variable sizes of batch %lld", batch);
        return -1;
    }
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)w->n * 7919u + 17u);
    for (long long b = 0; b < batch; b++) {
        w->vn_host[b] = b == broken ? w->n : 1 + (int)(util_rng_next(&rng) % (uint64_t)w->n);
        lda[b] = w->n;
        off[b] = b * (int64_t)w->n * w->n;
    }
    cl_int err = CL_SUCCESS;
    cl_context cl = bchol_context_cl_context(w->ctx);
    const cl_mem_flags f = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    w->vn = clCreateBuffer(cl, f, (size_t)batch * sizeof(int), w->vn_host, &err);
    if (w->vn) w->vlda = clCreateBuffer(cl, f, (size_t)batch * sizeof(int), lda, &err);
    if (w->vlda) w->voff = clCreateBuffer(cl, f, (size_t)batch * sizeof(int64_t), off, &err);
    free(lda);
    free(off);
    return w->voff ? 0 : fail(why, size, "the variable sizes", err);
}

/* The solve's buffers: the factors of the batch (the fused variant, which builds in about a
 * second on PoCL where the dispatcher's interleaved kernels take up to a minute; where it
 * cannot run, the dispatcher's), and max_nrhs uniform random right-hand sides per matrix. */
static int solve_init(tune_workload *w, char *why, size_t size)
{
    const size_t per_a = (size_t)w->n * (size_t)w->n * w->elem;
    const size_t per_b = (size_t)w->n * (size_t)w->max_nrhs * w->elem;
    cl_int err;
    cl_context cl = bchol_context_cl_context(w->ctx);
    cl_command_queue q = bchol_context_queue(w->ctx);
    w->F = clCreateBuffer(cl, CL_MEM_READ_WRITE, per_a * (size_t)w->batch, NULL, &err);
    if (!w->F) return fail(why, size, "the factors", err);
    w->B0 = clCreateBuffer(cl, CL_MEM_READ_ONLY, per_b * (size_t)w->batch, NULL, &err);
    if (!w->B0) return fail(why, size, "the right-hand sides", err);
    w->B = clCreateBuffer(cl, CL_MEM_READ_WRITE, per_b * (size_t)w->batch, NULL, &err);
    if (!w->B) return fail(why, size, "the working right-hand sides", err);
    const int n = w->n, dbl = w->precision == 'd';
    const bchol_params fused = {.variant = BCHOL_VARIANT_FUSED};
    bchol_status st = BCHOL_ERR_UNSUPPORTED_SIZE;
    for (int k = 0; k < 2 && st; k++) {
        const bchol_params *prm = k ? NULL : &fused;
        err = clEnqueueCopyBuffer(q, w->A0, w->F, 0, 0, per_a * (size_t)w->batch, 0, NULL, NULL);
        if (err) return fail(why, size, "copying the batch", err);
        st = dbl ? bchol_dpotrf_batched_ex(w->ctx, prm, w->uplo, n, w->F, 0, n, (int64_t)n * n, w->batch,
                                           w->info, NULL)
                 : bchol_spotrf_batched_ex(w->ctx, prm, w->uplo, n, w->F, 0, n, (int64_t)n * n, w->batch,
                                           w->info, NULL);
    }
    if (st) {
        snprintf(why, size, "factoring the batch for the solve: %s: %s", bchol_status_string(st),
                 bchol_last_error(w->ctx));
        return -1;
    }
    /* the right-hand sides, staged in pieces */
    size_t chunk = CHUNK_BYTES / per_b;
    chunk = chunk < 1 ? 1 : chunk > (size_t)w->batch ? (size_t)w->batch : chunk;
    char *stage = malloc(chunk * per_b);
    if (!stage) {
        snprintf(why, size, "out of host memory for the right-hand sides");
        return -1;
    }
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)n * 7777u + (uint64_t)w->max_nrhs);
    for (long long first = 0; first < w->batch && !err; first += (long long)chunk) {
        long long count = w->batch - first < (long long)chunk ? w->batch - first : (long long)chunk;
        util_fill_uniform(stage, dbl, n, (int)(count * w->max_nrhs), n, &rng);
        err = clEnqueueWriteBuffer(q, w->B0, CL_TRUE, (size_t)first * per_b, (size_t)count * per_b, stage, 0,
                                   NULL, NULL);
    }
    free(stage);
    if (!err) err = clFinish(q);
    return err ? fail(why, size, "writing the right-hand sides", err) : 0;
}

int tune_workload_init(tune_workload *w, bchol_context *ctx, char precision, char uplo, int n,
                       long long batch, int max_nrhs, char *why, size_t size)
{
    memset(w, 0, sizeof *w);
    w->ctx = ctx;
    w->precision = precision;
    w->uplo = uplo;
    w->n = n;
    w->batch = batch;
    w->elem = precision == 'd' ? 8 : 4;
    const int dbl = precision == 'd';
    const size_t per = (size_t)n * (size_t)n * w->elem, bytes = per * (size_t)batch;
    const long long broken = batch / 2;

    /* the sample: both ends, the broken matrix, two between */
    const long long at[TUNE_SAMPLES] = {0, batch / 4, broken, (3 * batch) / 4, batch - 1};
    for (int i = 0; i < TUNE_SAMPLES; i++) {
        int dup = 0;
        for (int k = 0; k < w->nsample; k++) dup |= w->sample[k] == at[i];
        if (!dup) w->sample[w->nsample++] = at[i];
    }
    cl_int err;
    cl_context cl = bchol_context_cl_context(ctx);
    cl_command_queue q = bchol_context_queue(ctx);
    w->A0 = clCreateBuffer(cl, CL_MEM_READ_ONLY, bytes, NULL, &err);
    if (!w->A0) return fail(why, size, "the pristine batch", err);
    w->A = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!w->A) return fail(why, size, "the working batch", err);
    w->info = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)batch * sizeof(int), NULL, &err);
    if (!w->info) return fail(why, size, "info", err);
    w->sample_in = malloc(per * TUNE_SAMPLES);
    w->sample_out = malloc(per * TUNE_SAMPLES);
    w->info_host = malloc((size_t)batch * sizeof(int));
    size_t chunk = CHUNK_BYTES / per;
    chunk = chunk < 1 ? 1 : chunk > (size_t)batch ? (size_t)batch : chunk;
    char *stage = malloc(chunk * per);
    if (!w->sample_in || !w->sample_out || !w->info_host || !stage) {
        free(stage);
        snprintf(why, size, "out of host memory for n = %d, batch = %lld", n, batch);
        return -1;
    }
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)n * 1000003u + (uint64_t)precision);
    for (long long first = 0; first < batch; first += (long long)chunk) {
        long long count = batch - first < (long long)chunk ? batch - first : (long long)chunk;
        for (long long b = 0; b < count; b++) {
            char *m = stage + (size_t)b * per;
            util_spd_fast(m, dbl, n, n, &rng);
            if (first + b == broken) util_break_at(m, dbl, 'L', n, n, n / 2);
            for (int k = 0; k < w->nsample; k++)
                if (w->sample[k] == first + b) {
                    memcpy((char *)w->sample_in + (size_t)k * per, m, per);
                    w->sample_info[k] = util_ref_info(m, dbl, uplo, n, n);
                }
        }
        err = clEnqueueWriteBuffer(q, w->A0, CL_TRUE, (size_t)first * per, (size_t)count * per,
                                   stage, 0, NULL, NULL);
        if (err) {
            free(stage);
            return fail(why, size, "writing the batch", err);
        }
    }
    free(stage);
    if (variable_sizes_init(w, why, size)) return -1;
    w->max_nrhs = max_nrhs > 0 ? max_nrhs : 0;
    return w->max_nrhs ? solve_init(w, why, size) : 0;
}

int tune_workload_ilv(tune_workload *w, size_t bytes)
{
    if (w->ilv && w->ilv_bytes >= bytes) return 0;
    if (w->ilv) clReleaseMemObject(w->ilv);
    cl_int err;
    w->ilv = clCreateBuffer(bchol_context_cl_context(w->ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
    w->ilv_bytes = w->ilv ? bytes : 0;
    return w->ilv ? 0 : -1;
}

long long tune_lu_batch(const bchol_device_info *dev, int n, long long batch)
{
    if (dev->type & CL_DEVICE_TYPE_GPU) return batch;
    const double cores = dev->compute_units > 2 ? dev->compute_units : 2;
    const double floor = cores * 4 > 16 ? cores * 4 : 16;
    const double cap = 1.5e8 * cores / ((double)n * n * n);
    const long long c = cap < floor ? (long long)floor : cap > (double)batch ? batch : (long long)cap;
    return c < batch ? c : batch;
}

int tune_workload_lu(tune_workload *w, char *why, size_t size)
{
    if (w->lu0) return 0;
    const int n = w->n, dbl = w->precision == 'd';
    const size_t per = (size_t)n * (size_t)n * w->elem;
    bchol_device_info d;
    bchol_context_device_info(w->ctx, &d);
    w->lu_batch = tune_lu_batch(&d, n, w->batch);
    const long long batch = w->lu_batch, broken = batch / 2;
    /* the sample: both ends, the singular matrix, two between */
    const long long at[TUNE_SAMPLES] = {0, batch / 4, broken, (3 * batch) / 4, batch - 1};
    w->lu_nsample = 0;
    for (int i = 0; i < TUNE_SAMPLES; i++) {
        int dup = 0;
        for (int k = 0; k < w->lu_nsample; k++) dup |= w->lu_sample[k] == at[i];
        if (!dup) w->lu_sample[w->lu_nsample++] = at[i];
    }
    cl_int err;
    cl_context cl = bchol_context_cl_context(w->ctx);
    cl_command_queue q = bchol_context_queue(w->ctx);
    w->ipiv_host = malloc((size_t)n * sizeof(int));
    w->lu_sample_in = malloc(per * TUNE_SAMPLES);
    size_t chunk = CHUNK_BYTES / per;
    chunk = chunk < 1 ? 1 : chunk > (size_t)batch ? (size_t)batch : chunk;
    char *stage = malloc(chunk * per);
    if (!w->ipiv_host || !w->lu_sample_in || !stage) {
        free(stage);
        snprintf(why, size, "out of host memory for getrf's batch");
        return -1;
    }
    w->ipiv = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)n * (size_t)batch * sizeof(int), NULL, &err);
    if (w->ipiv) w->lu0 = clCreateBuffer(cl, CL_MEM_READ_ONLY, per * (size_t)batch, NULL, &err);
    if (!w->lu0) {
        free(stage);
        return fail(why, size, "getrf's batch", err);
    }
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)n * 104729u + (uint64_t)w->precision);
    for (long long first = 0; first < batch && !err; first += (long long)chunk) {
        long long count = batch - first < (long long)chunk ? batch - first : (long long)chunk;
        util_fill_uniform(stage, dbl, n, (int)(count * n), n, &rng);
        if (broken >= first && broken < first + count)
            memset(stage + (size_t)(broken - first) * per + (size_t)(n / 2) * n * w->elem, 0, (size_t)n * w->elem);
        for (int k = 0; k < w->lu_nsample; k++)
            if (w->lu_sample[k] >= first && w->lu_sample[k] < first + count)
                memcpy((char *)w->lu_sample_in + (size_t)k * per, stage + (size_t)(w->lu_sample[k] - first) * per,
                       per);
        err = clEnqueueWriteBuffer(q, w->lu0, CL_TRUE, (size_t)first * per, (size_t)count * per, stage, 0, NULL,
                                   NULL);
    }
    free(stage);
    return err ? fail(why, size, "writing getrf's batch", err) : 0;
}

int tune_workload_reset_lu(tune_workload *w)
{
    cl_command_queue q = bchol_context_queue(w->ctx);
    const size_t bytes = (size_t)w->n * (size_t)w->n * w->elem * (size_t)w->lu_batch;
    const int poison = -7777;
    if (clEnqueueCopyBuffer(q, w->lu0, w->A, 0, 0, bytes, 0, NULL, NULL) ||
        clEnqueueFillBuffer(q, w->ipiv, &poison, sizeof poison, 0, (size_t)w->n * (size_t)w->lu_batch * sizeof(int), 0,
                            NULL, NULL))
        return -1;
    return clFinish(q) ? -1 : 0;
}

int tune_workload_reset(tune_workload *w)
{
    cl_command_queue q = bchol_context_queue(w->ctx);
    const size_t bytes = (size_t)w->n * (size_t)w->n * w->elem * (size_t)w->batch;
    if (clEnqueueCopyBuffer(q, w->A0, w->A, 0, 0, bytes, 0, NULL, NULL)) return -1;
    /* info is garbage until the run's first step writes it: poison it so a run that
     * skips matrices cannot pass on a previous run's values */
    const int poison = -7777;
    if (clEnqueueFillBuffer(q, w->info, &poison, sizeof poison, 0, (size_t)w->batch * sizeof(int),
                            0, NULL, NULL))
        return -1;
    const size_t bytes_b = (size_t)w->n * (size_t)w->max_nrhs * w->elem * (size_t)w->batch;
    if (w->max_nrhs && clEnqueueCopyBuffer(q, w->B0, w->B, 0, 0, bytes_b, 0, NULL, NULL)) return -1;
    return clFinish(q) ? -1 : 0;
}

int tune_workload_verify(tune_workload *w, int variable_sizes, char *why, size_t size)
{
    cl_command_queue q = bchol_context_queue(w->ctx);
    const size_t per = (size_t)w->n * (size_t)w->n * w->elem;
    const int dbl = w->precision == 'd';
    cl_int err = clEnqueueReadBuffer(q, w->info, CL_TRUE, 0, (size_t)w->batch * sizeof(int),
                                     w->info_host, 0, NULL, NULL);
    for (int k = 0; k < w->nsample && !err; k++)
        err = clEnqueueReadBuffer(q, w->A, CL_TRUE, (size_t)w->sample[k] * per, per,
                                  (char *)w->sample_out + (size_t)k * per, 0, NULL, NULL);
    if (err) return fail(why, size, "reading the results", err);
    const long long broken = w->batch / 2;
    int broken_info = 0;
    for (int k = 0; k < w->nsample; k++)
        if (w->sample[k] == broken) broken_info = w->sample_info[k];
    for (long long b = 0; b < w->batch; b++) {
        int want = b == broken ? broken_info : 0;
        if (w->info_host[b] != want) {
            snprintf(why, size, "verification: info[%lld] = %d, the reference says %d", b,
                     w->info_host[b], want);
            return -1;
        }
    }
    for (int k = 0; k < w->nsample; k++) {
        if (w->sample_info[k]) continue;
        /* a variable-size run factors the leading block (lda n) */
        const int order = variable_sizes ? w->vn_host[w->sample[k]] : w->n;
        double e = util_backward_error((char *)w->sample_in + (size_t)k * per,
                                       (char *)w->sample_out + (size_t)k * per, dbl, w->uplo, order,
                                       w->n);
        if (!(e <= THRESHOLD)) {
            snprintf(why, size, "verification: matrix %lld has backward error %.3g (> %g)",
                     w->sample[k], e, THRESHOLD);
            return -1;
        }
    }
    return 0;
}

/* Every info of a getrf or getri run on the LU batch: 0, and for the singular matrix
 * (lu_batch/2, column n/2 zero) n/2 + 1, U(n/2+1, n/2+1) being its first zero diagonal. */
static int verify_lu_info(tune_workload *w, char *why, size_t size)
{
    cl_int err = clEnqueueReadBuffer(bchol_context_queue(w->ctx), w->info, CL_TRUE, 0,
                                     (size_t)w->lu_batch * sizeof(int), w->info_host, 0, NULL, NULL);
    if (err) return fail(why, size, "reading info", err);
    const long long broken = w->lu_batch / 2;
    for (long long b = 0; b < w->lu_batch; b++) {
        const int want = b == broken ? w->n / 2 + 1 : 0;
        if (w->info_host[b] != want) {
            snprintf(why, size, "verification: info[%lld] = %d, the reference says %d", b, w->info_host[b], want);
            return -1;
        }
    }
    return 0;
}

int tune_workload_verify_lu(tune_workload *w, char *why, size_t size)
{
    cl_command_queue q = bchol_context_queue(w->ctx);
    const size_t per = (size_t)w->n * (size_t)w->n * w->elem;
    const int n = w->n, dbl = w->precision == 'd';
    if (!w->lu0) {
        snprintf(why, size, "verification: getrf's batch was never made");
        return -1;
    }
    if (verify_lu_info(w, why, size)) return -1;
    cl_int err;
    for (int k = 0; k < w->lu_nsample; k++) {
        const long long b = w->lu_sample[k];
        if (w->info_host[b]) continue; /* the singular matrix: its info is checked above */
        char *out = (char *)w->sample_out + (size_t)k * per;
        err = clEnqueueReadBuffer(q, w->A, CL_TRUE, (size_t)b * per, per, out, 0, NULL, NULL);
        if (!err)
            err = clEnqueueReadBuffer(q, w->ipiv, CL_TRUE, (size_t)b * (size_t)n * sizeof(int),
                                      (size_t)n * sizeof(int), w->ipiv_host, 0, NULL, NULL);
        if (err) return fail(why, size, "reading the results", err);
        const double r = util_lu_residual((char *)w->lu_sample_in + (size_t)k * per, out, w->ipiv_host, dbl, n, n);
        if (!(r <= THRESHOLD)) {
            snprintf(why, size, "verification: matrix %lld has LU residual %.3g (> %g)", b, r, THRESHOLD);
            return -1;
        }
    }
    return 0;
}

int tune_workload_verify_solve(tune_workload *w, int nrhs, char *why, size_t size)
{
    cl_command_queue q = bchol_context_queue(w->ctx);
    const int n = w->n, dbl = w->precision == 'd';
    const size_t per_a = (size_t)n * (size_t)n * w->elem, per_b = (size_t)n * (size_t)nrhs * w->elem;
    if (nrhs < 1 || nrhs > w->max_nrhs) {
        snprintf(why, size, "verification: nrhs = %d outside the workload's 1..%d", nrhs, w->max_nrhs);
        return -1;
    }
    char *x = malloc(per_b), *b = malloc(per_b);
    int bad = !x || !b;
    if (bad) snprintf(why, size, "out of host memory for the verification");
    for (int k = 0; k < w->nsample && !bad; k++) {
        if (w->sample_info[k]) continue; /* no factor to solve with */
        /* system s: X at s*n*nrhs in B, its right-hand sides at the same place in B0 */
        const size_t at = (size_t)w->sample[k] * per_b;
        cl_int err = clEnqueueReadBuffer(q, w->B, CL_TRUE, at, per_b, x, 0, NULL, NULL);
        if (!err) err = clEnqueueReadBuffer(q, w->B0, CL_TRUE, at, per_b, b, 0, NULL, NULL);
        if (err) {
            fail(why, size, "reading the solutions", err);
            bad = 1;
            break;
        }
        double r = util_solve_residual((char *)w->sample_in + (size_t)k * per_a, dbl, w->uplo, n, n, nrhs, x, n,
                                       b, n);
        if (!(r <= THRESHOLD)) {
            snprintf(why, size, "verification: system %lld (nrhs = %d) has residual %.3g (> %g)", w->sample[k],
                     nrhs, r, THRESHOLD);
            bad = 1;
        }
    }
    free(x);
    free(b);
    return bad ? -1 : 0;
}

int tune_workload_getrs(tune_workload *w, char *why, size_t size)
{
    if (w->lu_f) return 0;
    if (tune_workload_lu(w, why, size)) return -1;
    const int n = w->n;
    const size_t bytes = (size_t)n * (size_t)n * w->elem * (size_t)w->lu_batch;
    cl_int err;
    cl_context cl = bchol_context_cl_context(w->ctx);
    cl_command_queue q = bchol_context_queue(w->ctx);
    w->lu_p = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)n * (size_t)w->lu_batch * sizeof(int), NULL, &err);
    if (w->lu_p) w->lu_f = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!w->lu_f) return fail(why, size, "getrs' factors", err);
    if ((err = clEnqueueCopyBuffer(q, w->lu0, w->lu_f, 0, 0, bytes, 0, NULL, NULL)))
        return fail(why, size, "copying getrf's batch", err);
    /* info (the singular matrix's) is not needed: verify_getrs skips that matrix */
    const int64_t sa = (int64_t)n * n;
    bchol_status st = w->precision == 'd'
                          ? bchol_dgetrf_batched(w->ctx, n, n, w->lu_f, 0, n, sa, w->lu_p, 0, n, w->lu_batch, w->info, NULL)
                          : bchol_sgetrf_batched(w->ctx, n, n, w->lu_f, 0, n, sa, w->lu_p, 0, n, w->lu_batch, w->info, NULL);
    if (!st && clFinish(q)) st = BCHOL_ERR_OPENCL;
    if (st) {
        snprintf(why, size, "factoring getrf's batch for getrs: %s: %s", bchol_status_string(st),
                 bchol_last_error(w->ctx));
        clReleaseMemObject(w->lu_f);
        w->lu_f = NULL;
        return -1;
    }
    return 0;
}

int tune_workload_verify_getrs(tune_workload *w, int nrhs, char *why, size_t size)
{
    cl_command_queue q = bchol_context_queue(w->ctx);
    const int n = w->n, dbl = w->precision == 'd';
    const size_t per_a = (size_t)n * (size_t)n * w->elem, per_b = (size_t)n * (size_t)nrhs * w->elem;
    if (!w->lu_f || nrhs < 1 || nrhs > w->max_nrhs) {
        snprintf(why, size, "verification: no getrs factors, or nrhs = %d outside the workload's 1..%d", nrhs,
                 w->max_nrhs);
        return -1;
    }
    char *x = malloc(per_b), *b = malloc(per_b);
    int bad = !x || !b;
    if (bad) snprintf(why, size, "out of host memory for the verification");
    for (int k = 0; k < w->lu_nsample && !bad; k++) {
        if (w->lu_sample[k] == w->lu_batch / 2) continue; /* singular: no solution to check */
        const size_t at = (size_t)w->lu_sample[k] * per_b;
        cl_int err = clEnqueueReadBuffer(q, w->B, CL_TRUE, at, per_b, x, 0, NULL, NULL);
        if (!err) err = clEnqueueReadBuffer(q, w->B0, CL_TRUE, at, per_b, b, 0, NULL, NULL);
        if (err) {
            fail(why, size, "reading the solutions", err);
            bad = 1;
            break;
        }
        const double r = util_lu_solve_residual((char *)w->lu_sample_in + (size_t)k * per_a, dbl, 'N', n, n, nrhs,
                                                x, n, b, n);
        if (!(r <= THRESHOLD)) {
            snprintf(why, size, "verification: system %lld (nrhs = %d) has residual %.3g (> %g)", w->lu_sample[k],
                     nrhs, r, THRESHOLD);
            bad = 1;
        }
    }
    free(x);
    free(b);
    return bad ? -1 : 0;
}

int tune_workload_verify_getri(tune_workload *w, char *why, size_t size)
{
    cl_command_queue q = bchol_context_queue(w->ctx);
    const int n = w->n, dbl = w->precision == 'd';
    const size_t per = (size_t)n * (size_t)n * w->elem;
    if (!w->lu_f) {
        snprintf(why, size, "verification: no getri factors");
        return -1;
    }
    if (verify_lu_info(w, why, size)) return -1;
    const long long broken = w->lu_batch / 2;
    cl_int err;
    for (int k = 0; k < w->lu_nsample; k++) {
        const long long b = w->lu_sample[k];
        if (b == broken) continue; /* singular: C untouched, its info checked above */
        char *c = (char *)w->sample_out + (size_t)k * per;
        if ((err = clEnqueueReadBuffer(q, w->A, CL_TRUE, (size_t)b * per, per, c, 0, NULL, NULL)))
            return fail(why, size, "reading the inverses", err);
        const double r = util_inv_residual((char *)w->lu_sample_in + (size_t)k * per, c, dbl, n, n, n);
        if (!(r <= THRESHOLD)) {
            snprintf(why, size, "verification: matrix %lld has inverse residual %.3g (> %g)", b, r, THRESHOLD);
            return -1;
        }
    }
    return 0;
}
