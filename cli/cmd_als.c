/*
 * bchol als: alternating least squares on a generated ratings matrix, each half-sweep one
 * posv_vbatched call (the application of the interleaved seed; Kalman/GP users solve the
 * same way).
 *
 * Ratings r_ui = x*_u . y*_i + noise for a random rank-k truth, observed at a skewed
 * number of items per user (a few heavy users, many light ones). A half-sweep over users
 * fixes Y and solves for each user u, with Omega_u the items u rated,
 *     (sum_{i in Omega_u} y_i y_i**T + lambda |Omega_u| I) x_u = sum_{i in Omega_u} r_ui y_i
 * (ALS with weighted regularization), then the same over items with X fixed. A user with
 * few ratings gets fewer factors, k_u = clamp(|Omega_u| / M, 1, k) (M = --obs-per-factor) (its
 * other components stay zero), so the systems are genuinely of variable order; users
 * without ratings are entries with n = 0. The normal equations are assembled on the host
 * and solved on the device; the training RMSE is printed per sweep.
 *
 * --check T exits 1 unless the RMSE after every sweep is below the one before (up to a
 * 1e-9 relative tolerance) and the last is below T.
 */
#include "bchol.h"
#include "bchol_util.h"
#include "commands.h"
#include "options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int users, items, rank, sweeps, obs_per_factor;
    double density, lambda, noise, check;
    char precision;
    unsigned long long seed;
    const char *device;
} als_options;

/* Sparse ratings by row: entries ptr[r] .. ptr[r+1]-1 are (col[e], val[e]). */
typedef struct {
    int rows;
    int64_t *ptr;
    int *col;
    double *val;
} sparse;

static int usage(FILE *f) {
    fprintf(
        f,
        "usage: bchol als [options]\n"
        "  --users U --items I  ratings matrix shape, each 1 to 10^6 (default 2000 x 1000)\n"
        "  --rank K             factors per user/item, 1 to 1024 (default 8)\n"
        "  --density D          mean fraction of items a user rated (default 0.03)\n"
        "  --lambda L           regularization weight (default 0.02)\n"
        "  --noise E            rating noise, uniform in [-E, E) (default 0.01)\n"
        "  --obs-per-factor M   a row with c ratings gets min(K, max(1, c/M)) factors (default 3)\n"
        "  --sweeps S           full sweeps, 1 to 10000 (default 8)\n"
        "  --precision s|d      (default d; s on devices without fp64)\n"
        "  --seed X  --device SPEC  --check T (exit 1 unless the RMSE falls below T)\n");
    return f == stderr ? 2 : 0;
}

static int parse(int argc, char **argv, als_options *o) {
    *o = (als_options){2000, 1000, 8, 8, 3, 0.03, 0.02, 0.01, -1, 'd', 1, NULL};
    opt_reader r;
    int more, bad = 0;
    opt_begin(&r, "als", argc, argv, NULL);
    while (!bad && (more = opt_next(&r)) > 0) {
        const char *k = r.key;
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) return usage(stdout) + 1;
        if (!strcmp(k, "--users")) bad = opt_int(&r, 1, 1000000, &o->users);
        else if (!strcmp(k, "--items")) bad = opt_int(&r, 1, 1000000, &o->items);
        else if (!strcmp(k, "--rank")) bad = opt_int(&r, 1, 1024, &o->rank);
        else if (!strcmp(k, "--density")) bad = opt_double(&r, 1e-9, 1, &o->density);
        else if (!strcmp(k, "--lambda")) bad = opt_double(&r, 0, 1e30, &o->lambda);
        else if (!strcmp(k, "--noise")) bad = opt_double(&r, 0, 1e30, &o->noise);
        else if (!strcmp(k, "--obs-per-factor")) bad = opt_int(&r, 1, 1000000, &o->obs_per_factor);
        else if (!strcmp(k, "--sweeps")) bad = opt_int(&r, 1, 10000, &o->sweeps);
        else if (!strcmp(k, "--precision")) bad = opt_char(&r, "sd", &o->precision);
        else if (!strcmp(k, "--seed")) {
            uint64_t seed = 0;
            bad = opt_u64(&r, &seed);
            o->seed = seed;
        } else if (!strcmp(k, "--device")) o->device = r.value;
        else if (!strcmp(k, "--check")) bad = opt_double(&r, 0, 1e30, &o->check);
        else bad = opt_bad(&r, "unknown option (bchol als --help)");
    }
    if (bad || more < 0) return 2;
    return 0;
}

/* A skewed number of ratings per user and the truth; fills the by-user matrix. */
static int generate(const als_options *o, util_rng *r, const double *xs, const double *ys,
                    sparse *R) {
    const int k = o->rank;
    R->rows = o->users;
    R->ptr = malloc(((size_t)o->users + 1) * sizeof *R->ptr);
    int *count = malloc((size_t)o->users * sizeof *count);
    char *seen = calloc((size_t)o->items, 1);
    if (!R->ptr || !count || !seen) return -1;
    R->ptr[0] = 0;
    for (int u = 0; u < o->users; u++) {
        const double t = 0.5 * (util_rng_uniform(r) + 1); /* in [0, 1) */
        double c = o->density * o->items * 3 * t * t;     /* mean density, skewed */
        count[u] = c < 1 ? 1 : c > o->items ? o->items : (int)c;
        R->ptr[u + 1] = R->ptr[u] + count[u];
    }
    R->col = malloc((size_t)R->ptr[o->users] * sizeof *R->col);
    R->val = malloc((size_t)R->ptr[o->users] * sizeof *R->val);
    if (!R->col || !R->val) return -1;
    for (int u = 0; u < o->users; u++) {
        int64_t e = R->ptr[u];
        while (e < R->ptr[u + 1]) {
            int i = (int)(util_rng_next(r) % (uint64_t)o->items);
            if (seen[i]) continue;
            seen[i] = 1;
            double v = 0;
            for (int f = 0; f < k; f++)
                v += xs[(size_t)u * k + f] * ys[(size_t)i * k + f];
            R->col[e] = i;
            R->val[e++] = v + o->noise * util_rng_uniform(r);
        }
        for (e = R->ptr[u]; e < R->ptr[u + 1]; e++)
            seen[R->col[e]] = 0;
    }
    free(count);
    free(seen);
    return 0;
}

/* The by-column matrix of R (items x users). */
static int transpose(const sparse *R, int cols, sparse *T) {
    const int64_t nnz = R->ptr[R->rows];
    T->rows = cols;
    T->ptr = calloc((size_t)cols + 1, sizeof *T->ptr);
    T->col = malloc((size_t)nnz * sizeof *T->col);
    T->val = malloc((size_t)nnz * sizeof *T->val);
    int64_t *next = malloc((size_t)cols * sizeof *next);
    if (!T->ptr || !T->col || !T->val || !next) return -1;
    for (int64_t e = 0; e < nnz; e++)
        T->ptr[R->col[e] + 1]++;
    for (int c = 0; c < cols; c++)
        T->ptr[c + 1] += T->ptr[c];
    memcpy(next, T->ptr, (size_t)cols * sizeof *next);
    for (int r = 0; r < R->rows; r++)
        for (int64_t e = R->ptr[r]; e < R->ptr[r + 1]; e++) {
            T->col[next[R->col[e]]] = r;
            T->val[next[R->col[e]]++] = R->val[e];
        }
    free(next);
    return 0;
}

static double rmse(const sparse *R, const double *x, const double *y, int k) {
    double s = 0;
    for (int r = 0; r < R->rows; r++)
        for (int64_t e = R->ptr[r]; e < R->ptr[r + 1]; e++) {
            double v = 0;
            for (int f = 0; f < k; f++)
                v += x[(size_t)r * k + f] * y[(size_t)R->col[e] * k + f];
            s += (v - R->val[e]) * (v - R->val[e]);
        }
    return sqrt(s / (double)R->ptr[R->rows]);
}

/* Device buffers of one half-sweep, sized for the larger side. */
typedef struct {
    cl_mem n, nrhs, lda, ldb, oa, ob, A, B, info;
    int *hn, *hnrhs, *hld, *hinfo;
    int64_t *hoa, *hob;
    void *hA, *hB;
} workspace;

/*
 * Solves for the factors x_r of every row r of R (the rows of the fixed side are y) with
 * one posv_vbatched call: returns 0, or -1 with a message. *solve_ms gets the device time.
 */
static int half_sweep(bchol_context *ctx, const als_options *o, const sparse *R, double *x,
                      const double *y, workspace *w, double *solve_ms) {
    const int k = o->rank, dbl = o->precision == 'd', rows = R->rows;
    const size_t es = dbl ? 8 : 4;
    int64_t ta = 0, tb = 0;
    int max_n = 0;
    for (int r = 0; r < rows; r++) {
        const int64_t c = R->ptr[r + 1] - R->ptr[r];
        int kr = (int)(c / o->obs_per_factor);
        kr = c == 0 ? 0 : kr < 1 ? 1 : kr > k ? k : kr;
        w->hn[r] = kr;
        w->hnrhs[r] = 1;
        w->hld[r] = kr > 1 ? kr : 1; /* packed: lda = ldb = max(1, n) */
        w->hoa[r] = ta;
        w->hob[r] = tb;
        ta += (int64_t)kr * kr;
        tb += kr;
        max_n = kr > max_n ? kr : max_n;
    }
    /* Normal equations: the lower triangle of sum y y**T + lambda c I, and sum r y. */
    for (int r = 0; r < rows; r++) {
        const int kr = w->hn[r];
        const int64_t c = R->ptr[r + 1] - R->ptr[r];
        char *A = (char *)w->hA + w->hoa[r] * es, *B = (char *)w->hB + w->hob[r] * es;
        for (int j = 0; j < kr; j++) {
            for (int i = j; i < kr; i++) {
                double s = i == j ? o->lambda * (double)c : 0;
                for (int64_t e = R->ptr[r]; e < R->ptr[r + 1]; e++)
                    s += y[(size_t)R->col[e] * k + i] * y[(size_t)R->col[e] * k + j];
                util_set(A, util_idx(i, j, kr), dbl, s);
            }
            double s = 0;
            for (int64_t e = R->ptr[r]; e < R->ptr[r + 1]; e++)
                s += R->val[e] * y[(size_t)R->col[e] * k + j];
            util_set(B, (size_t)j, dbl, s);
        }
    }
    cl_command_queue q = bchol_context_queue(ctx);
    const size_t ints = (size_t)rows * sizeof(int), longs = (size_t)rows * sizeof(int64_t);
    cl_int err = 0;
    err |= clEnqueueWriteBuffer(q, w->n, CL_FALSE, 0, ints, w->hn, 0, NULL, NULL);
    err |= clEnqueueWriteBuffer(q, w->nrhs, CL_FALSE, 0, ints, w->hnrhs, 0, NULL, NULL);
    err |= clEnqueueWriteBuffer(q, w->lda, CL_FALSE, 0, ints, w->hld, 0, NULL, NULL);
    err |= clEnqueueWriteBuffer(q, w->ldb, CL_FALSE, 0, ints, w->hld, 0, NULL, NULL);
    err |= clEnqueueWriteBuffer(q, w->oa, CL_FALSE, 0, longs, w->hoa, 0, NULL, NULL);
    err |= clEnqueueWriteBuffer(q, w->ob, CL_FALSE, 0, longs, w->hob, 0, NULL, NULL);
    if (ta > 0)
        err |= clEnqueueWriteBuffer(q, w->A, CL_FALSE, 0, (size_t)ta * es, w->hA, 0, NULL, NULL);
    if (tb > 0)
        err |= clEnqueueWriteBuffer(q, w->B, CL_FALSE, 0, (size_t)tb * es, w->hB, 0, NULL, NULL);
    if (err) {
        fprintf(stderr, "bchol als: writing the systems failed\n");
        return -1;
    }
    cl_event ev = NULL;
    bchol_status st =
        dbl ? bchol_dposv_vbatched_ex(ctx, NULL, 'L', max_n, 1, w->n, w->nrhs, w->lda, w->ldb,
                                      w->oa, w->A, w->ob, w->B, rows, w->info, &ev)
            : bchol_sposv_vbatched_ex(ctx, NULL, 'L', max_n, 1, w->n, w->nrhs, w->lda, w->ldb,
                                      w->oa, w->A, w->ob, w->B, rows, w->info, &ev);
    if (st) {
        fprintf(stderr, "bchol als: posv_vbatched: %s\n", bchol_last_error(ctx));
        return -1;
    }
    clReleaseEvent(ev);
    if (bchol_last_call_ms(ctx, solve_ms)) *solve_ms = -1; /* waits for the call */
    if (tb > 0) clEnqueueReadBuffer(q, w->B, CL_TRUE, 0, (size_t)tb * es, w->hB, 0, NULL, NULL);
    clEnqueueReadBuffer(q, w->info, CL_TRUE, 0, ints, w->hinfo, 0, NULL, NULL);
    for (int r = 0; r < rows; r++) {
        if (w->hinfo[r] != 0) {
            fprintf(stderr, "bchol als: system %d (order %d) failed: info %d\n", r, w->hn[r],
                    w->hinfo[r]);
            return -1;
        }
        for (int f = 0; f < k; f++)
            x[(size_t)r * k + f] = f < w->hn[r] ? util_get(w->hB, (size_t)w->hob[r] + f, dbl) : 0;
    }
    return 0;
}

static void *alloc_or_die(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "bchol als: out of host memory\n");
        exit(1);
    }
    return p;
}

int cmd_als(int argc, char **argv) {
    als_options o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc == 1 ? 0 : rc;
    bchol_context *ctx;
    if (bchol_context_create(o.device, &ctx)) {
        fprintf(stderr, "bchol als: %s\n", bchol_last_error(NULL));
        return 1;
    }
    bchol_device_info d;
    bchol_context_device_info(ctx, &d);
    if (o.precision == 'd' && !d.fp64) o.precision = 's';
    bchol_context_set_timing(ctx, 1);
    const int k = o.rank, dbl = o.precision == 'd';
    util_rng rng;
    util_rng_seed(&rng, o.seed);
    /* The truth, scaled so that the ratings have unit variance (uniform: variance 1/3). */
    double *xs = alloc_or_die((size_t)o.users * k * sizeof *xs);
    double *ys = alloc_or_die((size_t)o.items * k * sizeof *ys);
    const double scale = sqrt(3.0 / sqrt((double)k));
    for (size_t e = 0; e < (size_t)o.users * k; e++)
        xs[e] = scale * util_rng_uniform(&rng);
    for (size_t e = 0; e < (size_t)o.items * k; e++)
        ys[e] = scale * util_rng_uniform(&rng);
    sparse R, T;
    if (generate(&o, &rng, xs, ys, &R) || transpose(&R, o.items, &T)) {
        fprintf(stderr, "bchol als: out of host memory\n");
        return 1;
    }
    /* The model starts from small random item factors (users are solved first). */
    double *x = alloc_or_die((size_t)o.users * k * sizeof *x);
    double *y = alloc_or_die((size_t)o.items * k * sizeof *y);
    memset(x, 0, (size_t)o.users * k * sizeof *x);
    for (size_t e = 0; e < (size_t)o.items * k; e++)
        y[e] = 0.1 * util_rng_uniform(&rng);

    const int most = o.users > o.items ? o.users : o.items;
    const size_t es = dbl ? 8 : 4;
    const size_t elems_a = (size_t)most * k * k, elems_b = (size_t)most * k;
    workspace w;
    w.hn = alloc_or_die((size_t)most * sizeof(int));
    w.hnrhs = alloc_or_die((size_t)most * sizeof(int));
    w.hld = alloc_or_die((size_t)most * sizeof(int));
    w.hinfo = alloc_or_die((size_t)most * sizeof(int));
    w.hoa = alloc_or_die((size_t)most * sizeof(int64_t));
    w.hob = alloc_or_die((size_t)most * sizeof(int64_t));
    w.hA = alloc_or_die(elems_a * es);
    w.hB = alloc_or_die(elems_b * es);
    cl_context cl = bchol_context_cl_context(ctx);
    cl_int err = 0, e1;
    cl_mem *bufs[] = {&w.n, &w.nrhs, &w.lda, &w.ldb, &w.info, &w.oa, &w.ob, &w.A, &w.B};
    const size_t sizes[] = {most * sizeof(int),     most * sizeof(int), most * sizeof(int),
                            most * sizeof(int),     most * sizeof(int), most * sizeof(int64_t),
                            most * sizeof(int64_t), elems_a * es,       elems_b * es};
    for (int i = 0; i < 9; i++) {
        *bufs[i] = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizes[i], NULL, &e1);
        err |= e1;
    }
    if (err) {
        fprintf(stderr, "bchol als: device buffers: OpenCL error\n");
        return 1;
    }
    printf("# bchol als: %d users x %d items, %lld ratings, rank %d, lambda %g, noise %g, "
           "%cposv_vbatched on %s (%s)\n",
           o.users, o.items, (long long)R.ptr[R.rows], k, o.lambda, o.noise, o.precision,
           d.raw_name, d.platform);
    /* How variable the batches are: rows with fewer than k factors, and without ratings. */
    const sparse *sides[2] = {&R, &T};
    for (int side = 0; side < 2; side++) {
        int fewer = 0, none = 0;
        for (int r = 0; r < sides[side]->rows; r++) {
            const int64_t c = sides[side]->ptr[r + 1] - sides[side]->ptr[r];
            none += c == 0;
            fewer += c > 0 && c / o.obs_per_factor < k;
        }
        printf("# %s: %d with fewer than %d factors, %d without ratings (n = 0)\n",
               side ? "items" : "users", fewer, k, none);
    }
    printf("# the first call's time includes building the kernels\n");
    printf(
        "# sweep  train_rmse   users_ms   items_ms   (device time of each posv_vbatched call)\n");
    double first = rmse(&R, x, y, k), prev = first, last = first;
    printf("%7d  %10.6f\n", 0, first);
    int ok = 1;
    for (int s = 1; s <= o.sweeps && ok; s++) {
        double ms_u = 0, ms_i = 0;
        if (half_sweep(ctx, &o, &R, x, y, &w, &ms_u) || half_sweep(ctx, &o, &T, y, x, &w, &ms_i)) {
            ok = 0;
            break;
        }
        last = rmse(&R, x, y, k);
        printf("%7d  %10.6f %10.3f %10.3f\n", s, last, ms_u, ms_i);
        if (o.check >= 0 && !(last <= prev * (1 + 1e-9))) {
            fprintf(stderr, "bchol als: the RMSE rose at sweep %d (%g after %g)\n", s, last, prev);
            ok = 0;
        }
        prev = last;
    }
    if (ok && o.check >= 0 && !(last < o.check)) {
        fprintf(stderr, "bchol als: final RMSE %g is not below %g\n", last, o.check);
        ok = 0;
    }
    if (o.check >= 0) printf("%s\n", ok ? "ok" : "FAILED");
    for (int i = 0; i < 9; i++)
        clReleaseMemObject(*bufs[i]);
    free(w.hn), free(w.hnrhs), free(w.hld), free(w.hinfo), free(w.hoa), free(w.hob), free(w.hA);
    free(w.hB), free(xs), free(ys), free(x), free(y);
    free(R.ptr), free(R.col), free(R.val), free(T.ptr), free(T.col), free(T.val);
    bchol_context_destroy(ctx);
    return ok ? 0 : 1;
}
