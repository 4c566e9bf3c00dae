/*
 * Huge batches: more than 2^31 elements, or more matrices than one launch may hold,
 * checked matrix by matrix. The input is a function of (matrix, row, column) -- a
 * diagonally dominant SPD matrix, or one with a negative pivot at a known column -- so it
 * is made again for checking instead of being kept: the host holds one copy of the batch.
 * Every element outside the stored triangles is a NaN whose payload encodes its position
 * and must come back bit for bit; every info must be exact; every factor must have a
 * backward error <= 30.
 *
 *   test_huge --precision s|d --uplo L|U --n N --batch B [--lda-pad P] [--stride-pad S]
 *             [--offset O] [--mode device|host]
 *
 * On PoCL the CTest cases are small, with the launch limit lowered; on a GPU, e.g.
 *   test_huge --precision s --n 4 --batch 134217744    (2^31 + 256 elements, 8 GiB)
 *   test_huge --precision d --n 1 --batch 2200000000   (more matrices than 2^31)
 * Exit code 0 on pass.
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char precision, uplo, mode[16];
    int n, lda_pad, stride_pad;
    long long batch, offset;
} options;

static void usage(void) {
    fprintf(stderr, "usage: test_huge --precision s|d --uplo L|U --n N --batch B [--lda-pad P] "
                    "[--stride-pad S] [--offset O] [--mode device|host]\n");
    exit(2);
}

static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* In [-1, 1), the same for (i, j) and (j, i). */
static double entry(long long b, int i, int j) {
    uint64_t lo = (uint64_t)(i > j ? j : i), hi = (uint64_t)(i > j ? i : j);
    return (double)(mix((uint64_t)b * 0x9e3779b97f4a7c15ULL ^ (hi << 32 | lo)) >> 11) * 0x1p-52 -
           1.0;
}

/* 0 for an SPD matrix, or the 1-based column whose pivot is made negative: about one
 * matrix in 997, and the last one. */
static int broken_at(long long b, long long batch, int n) {
    uint64_t h = mix((uint64_t)b + 12345);
    return (h % 997 == 0 || b == batch - 1) ? (int)(h / 997 % (uint64_t)n) + 1 : 0;
}

/* Input element (i, j) of matrix b: strictly diagonally dominant (the diagonal is at least
 * n, each off-diagonal below 1 in magnitude; n + entry alone was 0 for n = 1 at matrix 0,
 * where the hash is 0), a(k,k) = -1 at a broken pivot (the leading k-by-k block stays SPD,
 * so info = k exactly). */
static double input(long long b, long long batch, int n, int i, int j) {
    if (i != j) return entry(b, i, j);
    return i + 1 == broken_at(b, batch, n) ? -1.0 : n + 1 + entry(b, i, i);
}

static uint64_t poison_bits(size_t e, int dbl) {
    uint64_t h = (e + 1) * 0x9e3779b97f4a7c15ULL;
    return dbl ? 0x7ff8000000000000ULL | (h >> 14) : 0x7fc00000U | (uint32_t)(h >> 42);
}

int main(int argc, char **argv) {
    options o = {'s', 'L', "device", 0, 0, 0, 0, 0};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--precision"))
            o.precision = v[0];
        else if (!strcmp(k, "--uplo"))
            o.uplo = v[0];
        else if (!strcmp(k, "--n"))
            o.n = atoi(v);
        else if (!strcmp(k, "--batch"))
            o.batch = atoll(v);
        else if (!strcmp(k, "--lda-pad"))
            o.lda_pad = atoi(v);
        else if (!strcmp(k, "--stride-pad"))
            o.stride_pad = atoi(v);
        else if (!strcmp(k, "--offset"))
            o.offset = atoll(v);
        else if (!strcmp(k, "--mode"))
            snprintf(o.mode, sizeof o.mode, "%s", v);
        else
            usage();
    }
    const int host = !strcmp(o.mode, "host");
    if ((o.precision != 's' && o.precision != 'd') || (o.uplo != 'L' && o.uplo != 'U') || o.n < 1 ||
        o.batch < 1 || argc % 2 == 0 || (!host && strcmp(o.mode, "device")) || (host && o.offset))
        usage();
    if (test_skip_precision(o.precision)) return TEST_SKIP;
    const int dbl = o.precision == 'd', n = o.n, lda = n + o.lda_pad;
    const long long stride = (long long)lda * n + o.stride_pad, batch = o.batch, offset = o.offset;
    const size_t es = dbl ? 8 : 4, tail = 37;
    const size_t total = (size_t)offset + (size_t)batch * (size_t)stride + tail;
    printf(
        "test_huge %c %c n=%d batch=%lld stride=%lld: %zu elements (%s 2^31), %.2f GiB, mode %s\n",
        o.precision, o.uplo, n, batch, stride, total,
        total > (1ULL << 31) ? "more than" : "less than", (double)(total * es) / (1 << 30), o.mode);

    bchol_context *ctx;
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "FAILED: no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    unsigned char *a = malloc(total * es);
    int *info = malloc(((size_t)batch + 4) * sizeof(int));
    if (!a || !info) {
        fprintf(stderr, "FAILED: no host memory for %zu bytes\n", total * es);
        return 1;
    }

    /* the batch: poison everywhere, then the stored triangles */
#pragma omp parallel for schedule(static)
    for (long long e = 0; e < (long long)total; e++) {
        uint64_t bits = poison_bits((size_t)e, dbl);
        memcpy(a + (size_t)e * es, &bits, es);
    }
#pragma omp parallel for schedule(static)
    for (long long b = 0; b < batch; b++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (util_in_triangle(o.uplo, i, j))
                    util_set(a, (size_t)offset + (size_t)b * (size_t)stride + util_idx(i, j, lda),
                             dbl, input(b, batch, n, i, j));
    for (long long b = 0; b < batch + 4; b++)
        info[b] = -12345;

    if (host) {
        st = dbl ? bchol_dpotrf_batched_host(ctx, o.uplo, n, (double *)a, lda, stride, batch, info)
                 : bchol_spotrf_batched_host(ctx, o.uplo, n, (float *)a, lda, stride, batch, info);
    } else {
        cl_int err;
        cl_context cl = bchol_context_cl_context(ctx);
        cl_command_queue q = bchol_context_queue(ctx);
        cl_mem dA =
            clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total * es, a, &err);
        cl_mem dI = dA ? clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                        ((size_t)batch + 4) * sizeof(int), info, &err)
                       : NULL;
        if (!dA || !dI) {
            fprintf(stderr, "FAILED: device buffers of %zu bytes: OpenCL error %d\n", total * es,
                    err);
            return 1;
        }
        cl_event ev = NULL;
        st = dbl ? bchol_dpotrf_batched(ctx, o.uplo, n, dA, offset, lda, stride, batch, dI, &ev)
                 : bchol_spotrf_batched(ctx, o.uplo, n, dA, offset, lda, stride, batch, dI, &ev);
        if (ev) {
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
        }
        if (!st && (clEnqueueReadBuffer(q, dA, CL_TRUE, 0, total * es, a, 0, NULL, NULL) ||
                    clEnqueueReadBuffer(q, dI, CL_TRUE, 0, ((size_t)batch + 4) * sizeof(int), info,
                                        0, NULL, NULL))) {
            fprintf(stderr, "FAILED: reading the results back\n");
            return 1;
        }
        clReleaseMemObject(dA);
        clReleaseMemObject(dI);
    }
    if (st) {
        fprintf(stderr, "FAILED: %s: %s\n", bchol_status_string(st), bchol_last_error(ctx));
        return 1;
    }

    /* every matrix, every element */
    long long bad_info = 0, touched = 0, broken = 0, first_bad = -1;
    double worst = 0;
#pragma omp parallel reduction(+ : bad_info, touched, broken) reduction(max : worst)
    {
        const size_t mbytes = ((size_t)(n - 1) * lda + n) * es;
        unsigned char *in = malloc(mbytes);
#pragma omp for schedule(static)
        for (long long b = 0; b < batch; b++) {
            const size_t at = (size_t)offset + (size_t)b * (size_t)stride;
            const int k = broken_at(b, batch, n);
            broken += k != 0;
            if (info[b] != k) {
                bad_info++;
                continue;
            }
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++)
                    if (util_in_triangle(o.uplo, i, j))
                        util_set(in, util_idx(i, j, lda), dbl, input(b, batch, n, i, j));
            if (!k) {
                double e = util_backward_error(in, a + at * es, dbl, o.uplo, n, lda);
                if (e > worst) worst = e; /* never NaN: Inf for a NaN factor */
            }
        }
        free(in);
        /* outside the stored triangles: the poison, bit for bit */
#pragma omp for schedule(static)
        for (long long e = 0; e < (long long)total; e++) {
            int inside = 0;
            if (e >= offset && e < offset + batch * stride) {
                long long r = (e - offset) % stride;
                int i = (int)(r % lda), j = (int)(r / lda);
                inside = j < n && i < n && util_in_triangle(o.uplo, i, j);
            }
            uint64_t bits = poison_bits((size_t)e, dbl);
            if (!inside && memcmp(a + (size_t)e * es, &bits, es)) touched++;
        }
    }
    for (long long b = 0; b < batch && bad_info && first_bad < 0; b++)
        if (info[b] != broken_at(b, batch, n)) first_bad = b;
    for (int b = 0; b < 4; b++)
        if (info[batch + b] != -12345) bad_info++;
    const int failed = bad_info || touched || !(worst <= 30.0);
    printf("test_huge: %lld matrices (%lld not SPD): backward error %.3g, %lld wrong info%s, %lld "
           "elements "
           "touched outside: %s\n",
           batch, broken, worst, bad_info,
           first_bad >= 0 ? " (first at the matrix printed below)" : "", touched,
           failed ? "FAILED" : "ok");
    if (first_bad >= 0)
        printf("    matrix %lld: info %d, expected %d\n", first_bad, info[first_bad],
               broken_at(first_bad, batch, n));
    free(a);
    free(info);
    bchol_context_destroy(ctx);
    return failed;
}
