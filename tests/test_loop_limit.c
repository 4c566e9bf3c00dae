/*
 * Devices that end a work-item's loops early (llvmpipe's loop limiter, behind Mesa Rusticl:
 * 65535 iterations in all) would return wrong results without a word; bchol refuses the
 * sizes whose loops would run that long (bchol__check_loops). One case per run:
 *
 *   guard    BCHOL_LOOP_LIMIT=2000 (any device): the substitution and workitem solves, the
 *            workitem getrf and the workitem LU solve run below the estimate's bound, right,
 *            and are refused above it with BCHOL_ERR_UNSUPPORTED_SIZE naming the loops,
 *            the caller's arrays as they were
 *   device   the device itself: a kernel counts 70000 loop iterations; where it counts fewer
 *            the substitution solve at n = 1025 in groups of 32 (Rusticl's kernel limit)
 *            must be refused, elsewhere right: bchol knows the devices that truncate
 */
#include "bchol.h"
#include "bchol_util.h"
#include "test_check.h"
#include "test_skip.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* potrs (host form) with L: L(i,i) = 2, below it small values; B random. Returns the
 * status; *err: max |L*L^T*X - B| / max |B| (0 where refused), *same: B untouched. */
static bchol_status potrs(bchol_context *ctx, int n, int nrhs, double *err, int *same)
{
    float *a = calloc((size_t)n * n, sizeof *a), *b = malloc(sizeof(float) * n * nrhs),
          *x = malloc(sizeof(float) * n * nrhs);
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)n);
    for (int j = 0; j < n; j++) {
        a[(size_t)j * n + j] = 2;
        for (int i = j + 1; i < n; i++) a[(size_t)j * n + i] = (float)(0.01 * util_rng_uniform(&rng));
    }
    for (int i = 0; i < n * nrhs; i++) b[i] = (float)util_rng_uniform(&rng);
    memcpy(x, b, sizeof(float) * n * nrhs);
    const bchol_status st = bchol_spotrs_batched_host(ctx, 'L', n, nrhs, a, n, (int64_t)n * n, x, n,
                                                      (int64_t)n * nrhs, 1);
    *same = !memcmp(x, b, sizeof(float) * n * nrhs);
    *err = 0;
    double *y = malloc(sizeof(double) * n);
    for (int c = 0; c < nrhs && !st; c++) {
        const float *xc = x + (size_t)c * n, *bc = b + (size_t)c * n;
        double worst = 0, big = 0;
        for (int i = 0; i < n; i++) { /* y = L^T x */
            double s = 0;
            for (int k = i; k < n; k++) s += (double)a[(size_t)i * n + k] * xc[k];
            y[i] = s;
        }
        for (int i = 0; i < n; i++) { /* L y - b */
            double s = 0;
            for (int k = 0; k <= i; k++) s += (double)a[(size_t)k * n + i] * y[k];
            worst = fmax(worst, fabs(s - bc[i]));
            big = fmax(big, fabs(bc[i]));
        }
        *err = fmax(*err, worst / big);
    }
    free(a);
    free(b);
    free(x);
    free(y);
    return st;
}

/* gesv (host form) on a random n-by-n system; *r: LAPACK's solve ratio. */
static bchol_status gesv(bchol_context *ctx, int n, int nrhs, double *r, int *same)
{
    float *a = malloc(sizeof(float) * n * n), *a0 = malloc(sizeof(float) * n * n),
          *b = malloc(sizeof(float) * n * nrhs), *b0 = malloc(sizeof(float) * n * nrhs);
    int *ipiv = malloc(sizeof(int) * n), info = -1;
    util_rng rng;
    util_rng_seed(&rng, (uint64_t)n + 7);
    util_fill_uniform(a, 0, n, n, n, &rng);
    util_fill_uniform(b, 0, n, nrhs, n, &rng);
    memcpy(a0, a, sizeof(float) * n * n);
    memcpy(b0, b, sizeof(float) * n * nrhs);
    const bchol_status st = bchol_sgesv_batched_host(ctx, n, nrhs, a, n, (int64_t)n * n, ipiv, n, b,
                                                     n, (int64_t)n * nrhs, 1, &info);
    *same = !memcmp(b, b0, sizeof(float) * n * nrhs);
    *r = st || info ? 0 : util_lu_solve_residual(a0, 0, 'N', n, n, nrhs, b, n, b0, n);
    free(a);
    free(a0);
    free(b);
    free(b0);
    free(ipiv);
    return st;
}

/* A refusal: BCHOL_ERR_UNSUPPORTED_SIZE naming the loops, the caller's B as it was. */
static void refused(bchol_context *ctx, bchol_status st, int same, const char *what)
{
    CHECK(st == BCHOL_ERR_UNSUPPORTED_SIZE && strstr(bchol_last_error(ctx), "loop iterations") && same,
          "%s: status %d (%s), B %s; wanted a refusal naming the loops, B as it was", what, st,
          bchol_last_error(ctx), same ? "as it was" : "changed");
    printf("%s: %s\n", what, bchol_last_error(ctx));
}

static void case_guard(void)
{
    setenv("BCHOL_LOOP_LIMIT", "2000", 1); /* estimates up to 1200 run */
    bchol_context *ctx;
    if (bchol_context_create(NULL, &ctx)) {
        printf("FAILED: no context: %s\n", bchol_last_error(NULL));
        exit(1);
    }
    double e;
    int same;
    bchol_status st;
    /* the substitution solve, one row a work-item where the device takes the group:
     * 2n steps */
    setenv("BCHOL_SOLVE_VARIANT", "subst", 1);
    st = potrs(ctx, 500, 1, &e, &same);
    CHECK(!st && e < 1e-4, "subst potrs n = 500: status %d (%s), error %.3g", st, bchol_last_error(ctx), e);
    st = potrs(ctx, 700, 1, &e, &same);
    refused(ctx, st, same, "subst potrs n = 700");
    /* the workitem solve: 2n * ceil(n/vw) * nrhs */
    setenv("BCHOL_SOLVE_VARIANT", "workitem", 1);
    st = potrs(ctx, 40, 2, &e, &same);
    CHECK(!st && e < 1e-4, "workitem potrs n = 40: status %d (%s), error %.3g", st, bchol_last_error(ctx), e);
    st = potrs(ctx, 100, 2, &e, &same);
    refused(ctx, st, same, "workitem potrs n = 100");
    unsetenv("BCHOL_SOLVE_VARIANT");
    /* the workitem getrf: n^3/vw */
    setenv("BCHOL_GETRF", "workitem", 1);
    st = gesv(ctx, 8, 1, &e, &same);
    CHECK(!st && e <= 30, "gesv n = 8 (workitem getrf): status %d (%s), ratio %.3g", st, bchol_last_error(ctx), e);
    st = gesv(ctx, 24, 1, &e, &same);
    refused(ctx, st, same, "gesv n = 24 (workitem getrf)");
    /* the workitem LU solve after the blocked getrf (no loop estimate of its own) */
    setenv("BCHOL_GETRF", "blocked,nb=8", 1);
    setenv("BCHOL_LU_SOLVE_VARIANT", "workitem", 1);
    st = gesv(ctx, 20, 1, &e, &same);
    CHECK(!st && e <= 30, "gesv n = 20 (workitem solve): status %d (%s), ratio %.3g", st, bchol_last_error(ctx), e);
    st = gesv(ctx, 60, 4, &e, &same);
    refused(ctx, st, same, "gesv n = 60, nrhs = 4 (workitem solve)");
    unsetenv("BCHOL_GETRF");
    unsetenv("BCHOL_LU_SOLVE_VARIANT");
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_LOOP_LIMIT");
}

/* How many of 70000 loop iterations a work-item of ctx's device runs. */
static int counted(bchol_context *ctx)
{
    static const char *src = "kernel void count(global int *out, const int n) {"
                             "  int c = 0; for (int i = 0; i < n; i++) c += out[1] + 1; out[0] = c; }";
    cl_context cl = bchol_context_cl_context(ctx);
    cl_device_id dev = bchol_context_device_id(ctx);
    cl_int err, got[2] = {0, 0}, n = 70000;
    cl_program p = clCreateProgramWithSource(cl, 1, &src, NULL, &err);
    cl_kernel k = NULL;
    cl_mem b = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof got, got, &err);
    if (p && !clBuildProgram(p, 1, &dev, "", NULL, NULL)) k = clCreateKernel(p, "count", &err);
    const size_t one = 1;
    cl_event ev = NULL;
    if (!k || clSetKernelArg(k, 0, sizeof b, &b) || clSetKernelArg(k, 1, sizeof n, &n) ||
        clEnqueueNDRangeKernel(bchol_context_queue(ctx), k, 1, NULL, &one, &one, 0, NULL, NULL) ||
        clEnqueueReadBuffer(bchol_context_queue(ctx), b, CL_FALSE, 0, sizeof got, got, 0, NULL, &ev) ||
        clWaitForEvents(1, &ev))
        got[0] = -1;
    if (ev) clReleaseEvent(ev);
    if (k) clReleaseKernel(k);
    if (p) clReleaseProgram(p);
    if (b) clReleaseMemObject(b);
    return got[0];
}

static void case_device(void)
{
    setenv("BCHOL_KERNEL_WG_LIMIT", "32", 1); /* 33 rows a work-item at n = 1025 */
    setenv("BCHOL_SOLVE_VARIANT", "subst", 1);
    bchol_context *ctx;
    if (bchol_context_create(NULL, &ctx)) {
        printf("FAILED: no context: %s\n", bchol_last_error(NULL));
        exit(1);
    }
    const int c = counted(ctx);
    CHECK(c >= 0, "the counting kernel did not run");
    double e;
    int same;
    const bchol_status st = potrs(ctx, 1025, 1, &e, &same);
    printf("the device ran %d of 70000 loop iterations; subst potrs n = 1025: status %d, error %.3g\n", c,
           st, e);
    if (c >= 0 && c < 70000)
        refused(ctx, st, same, "subst potrs n = 1025 on a device that ends loops early");
    else
        CHECK(!st && e < 1e-4, "subst potrs n = 1025: status %d (%s), error %.3g", st, bchol_last_error(ctx), e);
    bchol_context_destroy(ctx);
    unsetenv("BCHOL_KERNEL_WG_LIMIT");
    unsetenv("BCHOL_SOLVE_VARIANT");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_loop_limit guard|device\n");
        return 2;
    }
    if (!strcmp(argv[1], "guard")) case_guard();
    else if (!strcmp(argv[1], "device")) case_device();
    else return 2;
    printf("%s: %s\n", argv[1], failures ? "FAILED" : "ok");
    return failures != 0;
}
