/* Experiment (issue 3): a variable-size batch split by order into classes, each class a
 * vbatched call of its own, on one queue (in turn) or on a queue per class (in parallel,
 * one OpenCL context). Against the whole batch in one call and the padded fixed-size run.
 * usage: vbq s|d NMAX BATCH REPS SPLIT...   SPLIT: class bounds, e.g. 128 or 64,128,192
 * Times: wall (host, all queues finished) and device span (first marker to last event). */
#include "bchol.h"
#include "bchol_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXQ 16

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static cl_ulong prof(cl_event e, cl_profiling_info what)
{
    cl_ulong v = 0;
    clGetEventProfilingInfo(e, what, sizeof v, &v, NULL);
    return v;
}

typedef struct {
    int count, max_n;
    cl_mem n, off, info;
} klass;

static char prec;
static char uplo = 'L';

static bchol_status call(bchol_context *c, klass *k, cl_mem A, cl_event *ev)
{
    if (prec == 'd')
        return bchol_dpotrf_vbatched_ex(c, NULL, uplo, k->max_n, k->n, k->n, k->off, A, k->count,
                                        k->info, ev);
    return bchol_spotrf_vbatched_ex(c, NULL, uplo, k->max_n, k->n, k->n, k->off, A, k->count,
                                    k->info, ev);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 5) return 2;
    prec = argv[1][0];
    const int nmax = atoi(argv[2]), dbl = prec == 'd';
    const long long batch = atoll(argv[3]);
    const int reps = atoi(argv[4]);
    const size_t es = dbl ? 8 : 4;
    bchol_context *c0;
    if (bchol_context_create(getenv("VBQ_DEVICE") ? getenv("VBQ_DEVICE") : "nvidia", &c0)) return 1;
    cl_context cl = bchol_context_cl_context(c0);
    cl_device_id dev = bchol_context_device_id(c0);
    /* queues 1..MAXQ-1 with profiling, MAXQ+1.. without (does profiling serialize?) */
    bchol_context *cq[2 * MAXQ] = {c0};
    cl_command_queue q[2 * MAXQ] = {bchol_context_queue(c0)};
    for (int i = 1; i < 2 * MAXQ; i++) {
        cl_int err;
        q[i] = clCreateCommandQueue(cl, dev, i < MAXQ ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
        if (err || bchol_context_create_from_queue(q[i], &cq[i])) return 1;
    }
    int *n = malloc(batch * sizeof *n);
    int64_t *off = malloc(batch * sizeof *off);
    util_rng rng;
    util_rng_seed(&rng, 1000003ULL + nmax);
    double flops = 0;
    int mx = 0;
    for (long long b = 0; b < batch; b++) {
        n[b] = util_random_order(UTIL_DIST_UNIFORM, nmax, &rng);
        flops += util_potrf_flops(n[b]);
        if (n[b] > mx) mx = n[b];
    }
    const size_t elems = util_pack(n, n, batch, 0, 0, NULL, off), bytes = elems * es;
    char *a = malloc(bytes), *f = malloc(bytes);
    for (long long b = 0; b < batch; b++) util_spd_fast(a + off[b] * es, dbl, n[b], n[b], &rng);
    cl_int err;
    cl_mem src = clCreateBuffer(cl, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, bytes, a, &err);
    cl_mem A = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);

    /* the padded run, for the ratio */
    {
        const size_t per = (size_t)nmax * nmax * es, pb = per * batch;
        char *p = calloc(pb, 1);
        for (long long b = 0; b < batch; b++)
            for (int j = 0; j < nmax; j++)
                for (int i = 0; i < nmax; i++)
                    util_set(p + b * per, util_idx(i, j, nmax), dbl,
                             i < n[b] && j < n[b] ? util_get(a + off[b] * es, util_idx(i, j, n[b]), dbl)
                                                  : i == j);
        cl_mem ps = clCreateBuffer(cl, CL_MEM_COPY_HOST_PTR, pb, p, &err);
        cl_mem pa = clCreateBuffer(cl, CL_MEM_READ_WRITE, pb, NULL, &err);
        cl_mem pi = clCreateBuffer(cl, CL_MEM_READ_WRITE, batch * 4, NULL, &err);
        double w[64], d[64];
        for (int r = 0; r < reps + 2; r++) {
            clEnqueueCopyBuffer(q[0], ps, pa, 0, 0, pb, 0, NULL, NULL);
            clFinish(q[0]);
            cl_event m, e;
            clEnqueueMarkerWithWaitList(q[0], 0, NULL, &m);
            double t0 = now_ms();
            bchol_status st = dbl ? bchol_dpotrf_batched(c0, uplo, nmax, pa, 0, nmax, (int64_t)nmax * nmax, batch, pi, &e)
                                  : bchol_spotrf_batched(c0, uplo, nmax, pa, 0, nmax, (int64_t)nmax * nmax, batch, pi, &e);
            clFinish(q[0]);
            if (st) return 1;
            if (r >= 2) {
                w[r - 2] = now_ms() - t0;
                d[r - 2] = (prof(e, CL_PROFILING_COMMAND_END) - prof(m, CL_PROFILING_COMMAND_END)) * 1e-6;
            }
            clReleaseEvent(m);
            clReleaseEvent(e);
        }
        qsort(w, reps, sizeof *w, cmp);
        qsort(d, reps, sizeof *d, cmp);
        printf("%c nmax %d batch %lld padded: wall %.3f ms device %.3f ms\n", prec, nmax, batch,
               w[reps / 2], d[reps / 2]);
        fflush(stdout);
        clReleaseMemObject(ps);
        clReleaseMemObject(pa);
        clReleaseMemObject(pi);
        free(p);
    }

    /* splits: argv[5..], "-" = the whole batch */
    for (int s = 5; s < argc; s++) {
        int bounds[MAXQ + 1], nb = 0;
        if (strcmp(argv[s], "-")) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", argv[s]);
            for (char *t = strtok(buf, ","); t && nb < MAXQ - 1; t = strtok(NULL, ",")) bounds[nb++] = atoi(t);
        }
        bounds[nb++] = nmax;
        klass k[MAXQ];
        memset(k, 0, sizeof k);
        int lo = 0;
        for (int c = 0; c < nb; c++) {
            int *kn = malloc(batch * sizeof *kn);
            int64_t *ko = malloc(batch * sizeof *ko);
            for (long long b = 0; b < batch; b++)
                if (n[b] > lo && n[b] <= bounds[c]) {
                    kn[k[c].count] = n[b];
                    ko[k[c].count++] = off[b];
                    if (n[b] > k[c].max_n) k[c].max_n = n[b];
                }
            lo = bounds[c];
            k[c].n = clCreateBuffer(cl, CL_MEM_COPY_HOST_PTR, (k[c].count + 1) * 4, kn, &err);
            k[c].off = clCreateBuffer(cl, CL_MEM_COPY_HOST_PTR, (k[c].count + 1) * 8, ko, &err);
            k[c].info = clCreateBuffer(cl, CL_MEM_READ_WRITE, (k[c].count + 1) * 4, NULL, &err);
            free(kn);
            free(ko);
        }
        for (int par = 0; par < 3; par++) {
            if (nb == 1 && par) continue;
            double w[64], d[64];
            int bad = 0;
            for (int r = 0; r < reps + 2; r++) {
                clEnqueueCopyBuffer(q[0], src, A, 0, 0, bytes, 0, NULL, NULL);
                for (int c = 0; c < 2 * MAXQ; c++) clFinish(q[c]);
                cl_event m[MAXQ], e[MAXQ], m0 = NULL, m1 = NULL;
                double t0 = now_ms();
                if (par == 2) clEnqueueMarkerWithWaitList(q[0], 0, NULL, &m0);
                for (int c = 0; c < nb; c++) {
                    const int qi = par == 1 ? c : par == 2 && c ? MAXQ + c : 0;
                    if (par == 2) clEnqueueMarkerWithWaitList(q[qi], 1, &m0, &m[c]);
                    else clEnqueueMarkerWithWaitList(q[qi], 0, NULL, &m[c]);
                    if (!k[c].count) {
                        e[c] = m[c];
                        clRetainEvent(e[c]);
                        continue;
                    }
                    if (call(cq[qi], &k[c], A, &e[c])) {
                        fprintf(stderr, "call failed: %s\n", bchol_last_error(cq[qi]));
                        return 1;
                    }
                }
                if (par == 2) clEnqueueMarkerWithWaitList(q[0], nb, e, &m1);
                for (int c = 0; c < 2 * MAXQ; c++) clFinish(q[c]);
                const double wall = now_ms() - t0;
                cl_ulong st = ~0ull, en = 0;
                for (int c = 0; c < nb; c++) {
                    cl_ulong x = prof(m[c], CL_PROFILING_COMMAND_END), y = prof(e[c], CL_PROFILING_COMMAND_END);
                    if (x < st) st = x;
                    if (y > en) en = y;
                    clReleaseEvent(m[c]);
                    clReleaseEvent(e[c]);
                }
                if (par == 2) {
                    st = prof(m0, CL_PROFILING_COMMAND_END);
                    en = prof(m1, CL_PROFILING_COMMAND_END);
                    clReleaseEvent(m0);
                    clReleaseEvent(m1);
                }
                if (r >= 2) {
                    w[r - 2] = wall;
                    d[r - 2] = (en - st) * 1e-6;
                }
            }
            /* check: info zero, backward error of a sample */
            for (int c = 0; c < nb; c++) {
                int *inf = malloc((k[c].count + 1) * 4);
                clEnqueueReadBuffer(q[0], k[c].info, CL_TRUE, 0, (k[c].count + 1) * 4, inf, 0, NULL, NULL);
                for (int i = 0; i < k[c].count; i++) bad |= inf[i] != 0;
                free(inf);
            }
            clEnqueueReadBuffer(q[0], A, CL_TRUE, 0, bytes, f, 0, NULL, NULL);
            double worst = 0;
            for (long long b = 0; b < batch; b += batch / 16 + 1) {
                double e = util_backward_error(a + off[b] * es, f + off[b] * es, dbl, uplo, n[b], n[b]);
                if (e > worst) worst = e;
            }
            qsort(w, reps, sizeof *w, cmp);
            qsort(d, reps, sizeof *d, cmp);
            printf("%c nmax %d split %-16s %-9s wall %.3f ms device %.3f ms  %.0f Gflop/s (device)  info %s  berr %.2g\n",
                   prec, nmax, argv[s], par == 2 ? "par-noprof" : par ? "parallel" : "in-turn", w[reps / 2], d[reps / 2],
                   flops / (d[reps / 2] * 1e6), bad ? "BAD" : "ok", worst);
            fflush(stdout);
        }
        for (int c = 0; c < nb; c++) {
            clReleaseMemObject(k[c].n);
            clReleaseMemObject(k[c].off);
            clReleaseMemObject(k[c].info);
        }
    }
    return 0;
}
