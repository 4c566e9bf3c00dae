/*
 * Double precision on a device without fp64 (BCHOL_DEVICE_NO_FP64=1 hides it): every
 * public double routine names a bad argument first, with the argument's own status, and
 * answers BCHOL_ERR_NO_FP64 to a valid call, quick returns (batch = 0) included; nothing
 * is enqueued (no event). Exit code 0 on pass.
 */
#include "bchol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4
#define K 2
#define BATCH 3
#define SA (N * N)
#define SB (N * K)

static int failures;

static void expect(const char *what, bchol_status got, bchol_status want, const char *needle,
                   cl_event ev)
{
    const char *msg = bchol_last_error(NULL);
    int ok = got == want && (!needle || strstr(msg, needle)) && ev == NULL;
    printf("%-44s %-40s %s\n", what, bchol_status_string(got), ok ? "ok" : "FAILED");
    if (!ok) {
        printf("    wanted %d (%s), got %d%s; message: %s\n", want, bchol_status_string(want), got,
               ev ? " and an event" : "", msg);
        failures++;
    }
}

int main(void)
{
    setenv("BCHOL_DEVICE_NO_FP64", "1", 1);
    bchol_context *ctx;
    if (bchol_context_create(NULL, &ctx)) {
        printf("FAILED: no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    cl_context cl = bchol_context_cl_context(ctx);
    /* big holds any of the calls' data; tiny none */
    cl_mem big = clCreateBuffer(cl, CL_MEM_READ_WRITE, 1 << 16, NULL, NULL);
    cl_mem tiny = clCreateBuffer(cl, CL_MEM_READ_WRITE, 8, NULL, NULL);
    /* a valid call writes no buffer another argument uses: B, info and the vbatched arrays
     * get their own */
    cl_mem bB = clCreateBuffer(cl, CL_MEM_READ_WRITE, 1 << 16, NULL, NULL);
    cl_mem bI = clCreateBuffer(cl, CL_MEM_READ_WRITE, 1 << 16, NULL, NULL);
    cl_mem bV = clCreateBuffer(cl, CL_MEM_READ_WRITE, 1 << 16, NULL, NULL);
    const bchol_params prm = {0};
    const bchol_solve_params sp = {0};
    const bchol_vbatched_params vp = {{0}, BCHOL_ETM_DEFAULT, BCHOL_SCHEDULE_DEFAULT, 0,
                                      BCHOL_ORDER_DEFAULT};
    const bchol_status NO = BCHOL_ERR_NO_FP64;
    cl_event ev;
    bchol_status st;

#define DEV(what, want, needle, ...)                                                               \
    do {                                                                                           \
        ev = (cl_event)1;                                                                          \
        st = __VA_ARGS__;                                                                          \
        expect(what, st, want, needle, ev == (cl_event)1 ? NULL : ev);                            \
    } while (0)

    /* fixed size */
    DEV("dpotrf_batched A too small", BCHOL_ERR_A_SIZE, "(A)",
        bchol_dpotrf_batched(ctx, 'L', N, tiny, 0, N, SA, BATCH, big, &ev));
    DEV("dpotrf_batched info NULL", BCHOL_ERR_INFO, "(info)",
        bchol_dpotrf_batched(ctx, 'L', N, big, 0, N, SA, BATCH, NULL, &ev));
    DEV("dpotrf_batched valid", NO, "double", bchol_dpotrf_batched(ctx, 'L', N, big, 0, N, SA, BATCH, bI, &ev));
    DEV("dpotrf_batched batch 0", NO, NULL, bchol_dpotrf_batched(ctx, 'L', N, NULL, 0, N, SA, 0, NULL, &ev));
    DEV("dpotrf_batched_ex A NULL", BCHOL_ERR_A, "(A)",
        bchol_dpotrf_batched_ex(ctx, &prm, 'U', N, NULL, 0, N, SA, BATCH, big, &ev));
    DEV("dpotrf_batched_ex valid", NO, NULL,
        bchol_dpotrf_batched_ex(ctx, &prm, 'U', N, big, 0, N, SA, BATCH, bI, &ev));
    DEV("dpotrs_batched B too small", BCHOL_ERR_B_SIZE, "(B)",
        bchol_dpotrs_batched(ctx, 'L', N, K, big, 0, N, SA, tiny, 0, N, SB, BATCH, &ev));
    DEV("dpotrs_batched valid", NO, NULL,
        bchol_dpotrs_batched(ctx, 'L', N, K, big, 0, N, SA, bB, 0, N, SB, BATCH, &ev));
    DEV("dpotrs_batched_ex A NULL", BCHOL_ERR_A, "(A)",
        bchol_dpotrs_batched_ex(ctx, &sp, 'L', N, K, NULL, 0, N, SA, big, 0, N, SB, BATCH, &ev));
    DEV("dposv_batched info too small", BCHOL_ERR_INFO_SIZE, "(info)",
        bchol_dposv_batched(ctx, 'L', N, K, big, 0, N, SA, big, 0, N, SB, BATCH, tiny, &ev));
    DEV("dposv_batched valid", NO, NULL,
        bchol_dposv_batched(ctx, 'L', N, K, big, 0, N, SA, bB, 0, N, SB, BATCH, bI, &ev));

    /* interleaved, and the conversions */
    DEV("dpotrf_interleaved A too small", BCHOL_ERR_A_SIZE, "(A)",
        bchol_dpotrf_interleaved(ctx, 'L', N, tiny, BATCH, 2, big, &ev));
    DEV("dpotrf_interleaved valid", NO, NULL,
        bchol_dpotrf_interleaved(ctx, 'L', N, big, BATCH, 2, bI, &ev));
    DEV("dpotrf_interleaved batch 0", NO, NULL,
        bchol_dpotrf_interleaved(ctx, 'L', N, NULL, 0, 2, NULL, &ev));
    DEV("dpotrf_interleaved_ex info NULL", BCHOL_ERR_INFO, "(info)",
        bchol_dpotrf_interleaved_ex(ctx, &prm, 'L', N, big, BATCH, 2, NULL, &ev));
    DEV("dpotrs_interleaved B NULL", BCHOL_ERR_B, "(B)",
        bchol_dpotrs_interleaved(ctx, 'L', N, K, big, NULL, BATCH, 2, &ev));
    DEV("dpotrs_interleaved_ex valid", NO, NULL,
        bchol_dpotrs_interleaved_ex(ctx, &sp, 'L', N, K, big, bB, BATCH, 2, &ev));
    DEV("dposv_interleaved info NULL", BCHOL_ERR_INFO, "(info)",
        bchol_dposv_interleaved(ctx, 'L', N, K, big, big, BATCH, 2, NULL, &ev));
    DEV("dposv_interleaved_ex valid", NO, NULL,
        bchol_dposv_interleaved_ex(ctx, &prm, 'L', N, K, big, bB, BATCH, 2, bI, &ev));
    DEV("dinterleave B too small", BCHOL_ERR_B_SIZE, "(B)",
        bchol_dinterleave(ctx, 'L', N, big, 0, N, SA, BATCH, tiny, 2, &ev));
    DEV("dinterleave valid", NO, NULL, bchol_dinterleave(ctx, 'L', N, big, 0, N, SA, BATCH, bB, 2, &ev));
    DEV("ddeinterleave A NULL", BCHOL_ERR_A, "(A)",
        bchol_ddeinterleave(ctx, 'L', N, big, BATCH, 2, NULL, 0, N, SA, &ev));
    DEV("dinterleave_rhs Bi NULL", BCHOL_ERR_B, "(Bi)",
        bchol_dinterleave_rhs(ctx, N, K, big, 0, N, SB, BATCH, NULL, 2, &ev));
    DEV("ddeinterleave_rhs B too small", BCHOL_ERR_B_SIZE, "(B)",
        bchol_ddeinterleave_rhs(ctx, N, K, big, BATCH, 2, tiny, 0, N, SB, &ev));
    DEV("ddeinterleave_rhs valid", NO, NULL,
        bchol_ddeinterleave_rhs(ctx, N, K, big, BATCH, 2, bB, 0, N, SB, &ev));

    /* variable sizes: the arrays' buffers are arguments, their entries the device's */
    DEV("dpotrf_vbatched n NULL", BCHOL_ERR_N_ARRAY, "(n)",
        bchol_dpotrf_vbatched(ctx, 'L', NULL, big, big, big, BATCH, big, &ev));
    DEV("dpotrf_vbatched valid", NO, NULL,
        bchol_dpotrf_vbatched(ctx, 'L', bV, bV, bV, big, BATCH, bI, &ev));
    DEV("dpotrf_vbatched_ex info too small", BCHOL_ERR_INFO_SIZE, "(info)",
        bchol_dpotrf_vbatched_ex(ctx, &vp, 'L', N, big, big, big, big, BATCH, tiny, &ev));
    DEV("dpotrs_vbatched B NULL", BCHOL_ERR_B, "(B)",
        bchol_dpotrs_vbatched(ctx, 'L', big, big, big, big, big, big, big, NULL, BATCH, big, &ev));
    DEV("dposv_vbatched_ex offsets_a too small", BCHOL_ERR_OFFSETS_A, "(offsets_a)",
        bchol_dposv_vbatched_ex(ctx, &sp, 'L', N, K, big, big, big, big, tiny, big, big, big, BATCH,
                                big, &ev));
    DEV("dposv_vbatched valid", NO, NULL,
        bchol_dposv_vbatched(ctx, 'L', bV, bV, bV, bV, bV, big, bV, bB, BATCH, bI, &ev));
    DEV("dposv_vbatched batch 0", NO, NULL,
        bchol_dposv_vbatched(ctx, 'L', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, &ev));

    /* host forms */
    double a[SA * BATCH] = {0}, b[SB * BATCH] = {0};
    int info[BATCH], n[BATCH] = {N, N, N}, k[BATCH] = {K, K, K}, ld[BATCH] = {N, N, N};
    int64_t oa[BATCH] = {0, SA, 2 * SA}, ob[BATCH] = {0, SB, 2 * SB};
    ev = NULL;
    expect("dpotrf_batched_host info NULL", bchol_dpotrf_batched_host(ctx, 'L', N, a, N, SA, BATCH, NULL),
           BCHOL_ERR_INFO, "(info)", NULL);
    expect("dpotrf_batched_host valid", bchol_dpotrf_batched_host(ctx, 'L', N, a, N, SA, BATCH, info),
           NO, NULL, NULL);
    expect("dpotrs_batched_host B NULL",
           bchol_dpotrs_batched_host(ctx, 'L', N, K, a, N, SA, NULL, N, SB, BATCH), BCHOL_ERR_B,
           "(B)", NULL);
    expect("dposv_batched_host valid",
           bchol_dposv_batched_host(ctx, 'L', N, K, a, N, SA, b, N, SB, BATCH, info), NO, NULL, NULL);
    expect("dpotrf_interleaved_host A NULL",
           bchol_dpotrf_interleaved_host(ctx, 'L', N, NULL, BATCH, 2, info), BCHOL_ERR_A, "(A)", NULL);
    expect("dposv_interleaved_host valid",
           bchol_dposv_interleaved_host(ctx, 'L', N, K, a, b, BATCH, 2, info), NO, NULL, NULL);
    expect("dpotrf_vbatched_host A NULL",
           bchol_dpotrf_vbatched_host(ctx, 'L', n, ld, oa, NULL, BATCH, info), BCHOL_ERR_A, "(A)",
           NULL);
    expect("dpotrf_vbatched_host valid", bchol_dpotrf_vbatched_host(ctx, 'L', n, ld, oa, a, BATCH, info),
           NO, NULL, NULL);
    expect("dposv_vbatched_host B NULL",
           bchol_dposv_vbatched_host(ctx, 'L', n, k, ld, ld, oa, a, ob, NULL, BATCH, info),
           BCHOL_ERR_B, "(B)", NULL);
    expect("dpotrs_vbatched_host valid",
           bchol_dpotrs_vbatched_host(ctx, 'L', n, k, ld, ld, oa, a, ob, b, BATCH, info), NO, NULL,
           NULL);

    /* single precision still runs */
    float s[SA * BATCH] = {0};
    for (int m = 0; m < BATCH; m++)
        for (int i = 0; i < N; i++)
            s[m * SA + i * N + i] = 4;
    expect("spotrf_batched_host still works", bchol_spotrf_batched_host(ctx, 'L', N, s, N, SA, BATCH, info),
           BCHOL_SUCCESS, NULL, NULL);
    for (int m = 0; m < BATCH; m++)
        if (info[m] != 0 || s[m * SA] != 2) {
            printf("spotrf_batched_host: matrix %d: info %d, L(0,0) %g: FAILED\n", m, info[m], s[m * SA]);
            failures++;
        }

    clReleaseMemObject(big);
    clReleaseMemObject(tiny);
    clReleaseMemObject(bB);
    clReleaseMemObject(bI);
    clReleaseMemObject(bV);
    bchol_context_destroy(ctx);
    if (failures) printf("%d FAILED\n", failures);
    return failures != 0;
}
