/*
 * LAPACK's PO test matrix types (dchkpo: diagonal; random; zero first, last or middle
 * column; ill-conditioned with cond = sqrt(0.1/eps) and 0.1/eps; scaled near underflow
 * and near overflow) through every variant: the exact info where the matrix is not
 * positive definite, and a backward error ||A - L*L**T||_F / (n*||A||_F*eps) <= 30 where
 * it is. The ratio is scale-invariant (the scaled types must meet the same bound), and
 * stays bounded however ill-conditioned A is, since Cholesky is backward stable. Nothing
 * outside the stored triangles may change.
 *
 *   test_po_types --precision s|d --uplo L|U --n N[,N...] [--seeds K] [--variant NAME]
 *
 * A new variant is one more entry in `variants` below. Exit code 0 on pass.
 */
#include "bchol.h"
#include "test_skip.h"
#include "bchol_util.h"
#include "po_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THRESHOLD 30.0

/* Factors batch matrices of host array a (matrix b at b*stride) in place, info on the host. */
typedef bchol_status (*factor_fn)(bchol_context *ctx, const bchol_params *prm, char prec, char uplo,
                                  int n, void *a, int lda, int64_t stride, int64_t batch,
                                  int *info);

/* Through the device routine (_ex, with the variant's parameters). */
static bchol_status factor_device(bchol_context *ctx, const bchol_params *prm, char prec, char uplo,
                                  int n, void *a, int lda, int64_t stride, int64_t batch,
                                  int *info) {
    const size_t bytes = (size_t)(stride * batch) * (prec == 'd' ? 8 : 4);
    cl_context cl = bchol_context_cl_context(ctx);
    cl_command_queue q = bchol_context_queue(ctx);
    cl_mem dA = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, a, NULL);
    cl_mem dI = clCreateBuffer(cl, CL_MEM_READ_WRITE, (size_t)batch * sizeof(int), NULL, NULL);
    bchol_status st = BCHOL_ERR_OPENCL;
    if (dA && dI) {
        st = prec == 'd'
                 ? bchol_dpotrf_batched_ex(ctx, prm, uplo, n, dA, 0, lda, stride, batch, dI, NULL)
                 : bchol_spotrf_batched_ex(ctx, prm, uplo, n, dA, 0, lda, stride, batch, dI, NULL);
        if (!st && (clEnqueueReadBuffer(q, dA, CL_TRUE, 0, bytes, a, 0, NULL, NULL) ||
                    clEnqueueReadBuffer(q, dI, CL_TRUE, 0, (size_t)batch * sizeof(int), info, 0,
                                        NULL, NULL)))
            st = BCHOL_ERR_OPENCL;
    }
    if (dA) clReleaseMemObject(dA);
    if (dI) clReleaseMemObject(dI);
    return st;
}

/* Through the synchronous host routine (the dispatcher's choice). */
static bchol_status factor_host(bchol_context *ctx, const bchol_params *prm, char prec, char uplo,
                                int n, void *a, int lda, int64_t stride, int64_t batch, int *info) {
    return prec == 'd' ? bchol_dpotrf_batched_host(ctx, uplo, n, a, lda, stride, batch, info)
                       : bchol_spotrf_batched_host(ctx, uplo, n, a, lda, stride, batch, info);
}

static const struct {
    const char *name;
    factor_fn factor;
    bchol_params params;
} variants[] = {
    {"fused", factor_device, {.variant = BCHOL_VARIANT_FUSED}},
    {"fused-ib4-tbc3-rpt2-shrink",
     factor_device,
     {.variant = BCHOL_VARIANT_FUSED, .ib = 4, .tbc = 3, .rpt = 2, .shape = BCHOL_SHAPE_SHRINK}},
    {"separate", factor_device, {.variant = BCHOL_VARIANT_SEPARATE}},
    {"separate-nb8-pb3-tile16",
     factor_device,
     {.variant = BCHOL_VARIANT_SEPARATE, .nb = 8, .pb = 3, .tile = 16}},
    {"interleaved", factor_device, {.variant = BCHOL_VARIANT_INTERLEAVED}},
    {"interleaved-inb3-top-simple-chunk16",
     factor_device,
     {.variant = BCHOL_VARIANT_INTERLEAVED, .inb = 3, .looking = BCHOL_LOOKING_TOP,
      .chunking = BCHOL_SIMPLE, .chunk = 16}},
    {"workitem", factor_device, {.variant = BCHOL_VARIANT_WORKITEM}},
    {"workitem-nb5-vec4-mr1",
     factor_device,
     {.variant = BCHOL_VARIANT_WORKITEM, .wnb = 5, .wvec = 4, .wmr = 1, .wgroup = 3}},
    {"host", factor_host, {.variant = BCHOL_VARIANT_AUTO}},
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

static void usage(void) {
    fprintf(stderr, "usage: test_po_types --precision s|d --uplo L|U --n N[,N...] [--seeds K] "
                    "[--variant NAME]\n");
    exit(2);
}

/* One variant at one n: seeds matrices of every type in one batch. Returns failures. */
static int run(bchol_context *ctx, int v, char prec, char uplo, int n, int seeds) {
    const int dbl = prec == 'd';
    const size_t es = dbl ? 8 : 4;
    const int lda = (n > 1 ? n : 1) + 1;
    const int64_t stride = (int64_t)lda * n + 2;
    int types[UTIL_PO_TYPES * 16], count = 0;
    for (int s = 0; s < seeds && s < 16; s++)
        for (int t = 1; t <= UTIL_PO_TYPES; t++)
            if (n >= util_po_type_min_n(t)) types[count++] = t;
    const size_t total = (size_t)(stride * count);
    unsigned char *a = malloc(total * es), *a0 = malloc(total * es);
    int *info = malloc((size_t)count * sizeof(int)), *expect = malloc((size_t)count * sizeof(int));
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)n * 1000 + (uint64_t)dbl);
    util_poison(a, dbl, total);
    for (int b = 0; b < count; b++)
        expect[b] =
            util_po_matrix(types[b], a + (size_t)(b * stride) * es, dbl, uplo, n, lda, &rng);
    memcpy(a0, a, total * es);
    for (int b = 0; b < count; b++)
        info[b] = -1;

    bchol_status st =
        variants[v].factor(ctx, &variants[v].params, prec, uplo, n, a, lda, stride, count, info);
    int failures = 0;
    if (st) {
        printf("%-28s %c %c n=%-4d %s: %s\n", variants[v].name, prec, uplo, n,
               bchol_status_string(st), bchol_last_error(ctx));
        failures = 1;
    }
    /* worst error and wrong info per type */
    double worst[UTIL_PO_TYPES + 1] = {0};
    int bad_info[UTIL_PO_TYPES + 1] = {0}, seen[UTIL_PO_TYPES + 1] = {0};
    long touched = 0;
    for (int b = 0; b < count && !st; b++) {
        const size_t at = (size_t)(b * stride) * es;
        const int t = types[b];
        seen[t]++;
        if (info[b] != expect[b]) {
            if (!bad_info[t]++)
                printf("    %s: matrix %d: info %d, expected %d\n", util_po_type_name(t), b,
                       info[b], expect[b]);
        } else if (info[b] == 0) {
            double e = util_backward_error(a0 + at, a + at, dbl, uplo, n, lda);
            if (!(e <= worst[t])) worst[t] = e;
        }
        for (int64_t e = 0; e < stride; e++) {
            int i = (int)(e % lda), j = (int)(e / lda);
            if ((i >= n || j >= n || !util_in_triangle(uplo, i, j)) &&
                memcmp(a + at + (size_t)e * es, a0 + at + (size_t)e * es, es))
                touched++;
        }
    }
    for (int t = 1; t <= UTIL_PO_TYPES && !st; t++) {
        if (!seen[t]) continue;
        int ok = bad_info[t] == 0 && worst[t] <= THRESHOLD;
        printf("%-28s %c %c n=%-4d %-12s info %s  backward error %9.3g  %s\n", variants[v].name,
               prec, uplo, n, util_po_type_name(t), bad_info[t] ? "WRONG" : "exact", worst[t],
               ok ? "ok" : "FAILED");
        failures += !ok;
    }
    if (touched) {
        printf("%-28s %c %c n=%-4d %ld elements outside the triangles changed: FAILED\n",
               variants[v].name, prec, uplo, n, touched);
        failures++;
    }
    free(a);
    free(a0);
    free(info);
    free(expect);
    return failures;
}

int main(int argc, char **argv) {
    char prec = 0, uplo = 0;
    const char *only = NULL;
    int sizes[64], nsizes = 0, seeds = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--precision"))
            prec = v[0];
        else if (!strcmp(k, "--uplo"))
            uplo = v[0];
        else if (!strcmp(k, "--n"))
            nsizes = util_parse_sizes(v, sizes, 64);
        else if (!strcmp(k, "--seeds"))
            seeds = atoi(v);
        else if (!strcmp(k, "--variant"))
            only = v;
        else
            usage();
    }
    if ((prec != 's' && prec != 'd') || (uplo != 'L' && uplo != 'U') || nsizes <= 0 || seeds < 1 ||
        argc % 2 == 0)
        usage();
    if (test_skip_precision(prec)) return TEST_SKIP;
    bchol_context *ctx;
    if (bchol_context_create(NULL, &ctx)) {
        fprintf(stderr, "FAILED: no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    int failures = 0, ran = 0;
    for (int v = 0; v < NVARIANTS; v++) {
        if (only && strcmp(only, variants[v].name)) continue;
        ran++;
        for (int i = 0; i < nsizes; i++)
            failures += run(ctx, v, prec, uplo, sizes[i], seeds);
    }
    bchol_context_destroy(ctx);
    if (!ran) {
        fprintf(stderr, "test_po_types: no variant \"%s\"\n", only);
        return 2;
    }
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
