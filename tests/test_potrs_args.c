/*
 * Argument checking, quick returns and failure statuses of the solve routines (potrs,
 * posv, their _ex and host forms). One case per run: test_potrs_args <case>; exit code
 * 0 on pass. Each bad call must return its own status, name the argument (position and
 * name) in bchol_last_error, hand back no event, and leave the buffers as they were.
 */
#include "bchol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bchol_context *ctx;
static cl_mem A, B, info;
static int failures;

#define N 6
#define K 3
#define BATCH 4
#define SA (N * N)
#define SB (N * K)

static void expect(const char *what, bchol_status got, bchol_status want, const char *needle)
{
    const char *msg = bchol_last_error(NULL); /* this thread's last message, any context */
    int ok = got == want && (!needle || strstr(msg, needle));
    printf("%-44s %-36s %s\n", what, bchol_status_string(got), ok ? "ok" : "FAILED");
    if (!ok) {
        printf("    wanted %d (%s), got %d; message: %s\n", want, bchol_status_string(want), got, msg);
        failures++;
    }
}

/* A potrs (posv when inf is not (cl_mem)-1) call; checks the status and that no event
 * comes back on failure. */
static bchol_status call(const char *what, char prec, int posv, char uplo, int n, int k, cl_mem a,
                         long long oa, int lda, long long sa, cl_mem b, long long ob, int ldb,
                         long long sb, long long batch, cl_mem inf, bchol_status want,
                         const char *needle)
{
    cl_event ev = (cl_event)1; /* must come back NULL on failure */
    bchol_status st;
    if (posv)
        st = prec == 'd' ? bchol_dposv_batched(ctx, uplo, n, k, a, oa, lda, sa, b, ob, ldb, sb, batch, inf, &ev)
                         : bchol_sposv_batched(ctx, uplo, n, k, a, oa, lda, sa, b, ob, ldb, sb, batch, inf, &ev);
    else
        st = prec == 'd' ? bchol_dpotrs_batched(ctx, uplo, n, k, a, oa, lda, sa, b, ob, ldb, sb, batch, &ev)
                         : bchol_spotrs_batched(ctx, uplo, n, k, a, oa, lda, sa, b, ob, ldb, sb, batch, &ev);
    if (st && ev) {
        printf("%-44s returned an event on failure: FAILED\n", what);
        failures++;
    }
    if (ev && ev != (cl_event)1) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
    }
    expect(what, st, want, needle);
    return st;
}

#define POTRS(what, ...) call(what, 's', 0, __VA_ARGS__)
#define POSV(what, ...) call(what, 's', 1, __VA_ARGS__)

/* Reads a buffer's first bytes. */
static void peek(cl_mem m, void *out, size_t bytes)
{
    clEnqueueReadBuffer(bchol_context_queue(ctx), m, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
}

static float snapshot_a[SA * BATCH], snapshot_b[SB * BATCH];

static void take_snapshot(void)
{
    peek(A, snapshot_a, sizeof snapshot_a);
    peek(B, snapshot_b, sizeof snapshot_b);
}

static void expect_unchanged(const char *what)
{
    float a[SA * BATCH], b[SB * BATCH];
    peek(A, a, sizeof a);
    peek(B, b, sizeof b);
    int ok = !memcmp(a, snapshot_a, sizeof a) && !memcmp(b, snapshot_b, sizeof b);
    printf("%-44s %-36s %s\n", what, "", ok ? "ok" : "FAILED");
    failures += !ok;
}

static void case_potrs(void)
{
    take_snapshot();
    POTRS("uplo = 'X'", 'X', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL, BCHOL_ERR_UPLO, "argument 2 (uplo");
    POTRS("n = -1", 'L', -1, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL, BCHOL_ERR_N, "argument 3 (n = -1)");
    POTRS("nrhs = -1", 'L', N, -1, A, 0, N, SA, B, 0, N, SB, BATCH, NULL, BCHOL_ERR_NRHS, "argument 4 (nrhs = -1)");
    POTRS("offset_a = -1", 'L', N, K, A, -1, N, SA, B, 0, N, SB, BATCH, NULL, BCHOL_ERR_OFFSET_A, "argument 6 (offset_a");
    POTRS("lda = n - 1", 'L', N, K, A, 0, N - 1, SA, B, 0, N, SB, BATCH, NULL, BCHOL_ERR_LDA, "argument 7 (lda = 5)");
    POTRS("lda = 0 with n = 0", 'L', 0, K, A, 0, 0, 0, B, 0, 1, SB, BATCH, NULL, BCHOL_ERR_LDA, "lda = 0");
    POTRS("n*lda beyond 2^31", 'L', 50000, K, A, 0, 50000, 2500000000LL, B, 0, 50000, 150000, 1, NULL,
          BCHOL_ERR_N, "2^31");
    POTRS("stride_a < lda*n", 'L', N, K, A, 0, N, SA - 1, B, 0, N, SB, BATCH, NULL, BCHOL_ERR_STRIDE_A,
          "argument 8 (stride_a");
    POTRS("offset_b = -1", 'L', N, K, A, 0, N, SA, B, -1, N, SB, BATCH, NULL, BCHOL_ERR_OFFSET_B, "argument 10 (offset_b");
    POTRS("ldb = n - 1", 'L', N, K, A, 0, N, SA, B, 0, N - 1, SB, BATCH, NULL, BCHOL_ERR_LDB, "argument 11 (ldb = 5)");
    POTRS("ldb = 0 with n = 0", 'L', 0, K, A, 0, 1, SA, B, 0, 0, SB, BATCH, NULL, BCHOL_ERR_LDB, "ldb = 0");
    POTRS("stride_b < ldb*nrhs", 'L', N, K, A, 0, N, SA, B, 0, N, SB - 1, BATCH, NULL, BCHOL_ERR_STRIDE_B,
          "argument 12 (stride_b");
    POTRS("batch = -1", 'L', N, K, A, 0, N, SA, B, 0, N, SB, -1, NULL, BCHOL_ERR_BATCH, "argument 13 (batch");
    POTRS("A = NULL", 'L', N, K, NULL, 0, N, SA, B, 0, N, SB, BATCH, NULL, BCHOL_ERR_A, "argument 5 (A) is NULL");
    POTRS("B = NULL", 'L', N, K, A, 0, N, SA, NULL, 0, N, SB, BATCH, NULL, BCHOL_ERR_B, "argument 9 (B) is NULL");
    POTRS("A too small (offset)", 'L', N, K, A, 1, N, SA, B, 0, N, SB, BATCH, NULL, BCHOL_ERR_A_SIZE, "(A) holds");
    POTRS("A too small (batch + 1)", 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH + 1, NULL, BCHOL_ERR_A_SIZE, "(A)");
    POTRS("B too small (offset)", 'L', N, K, A, 0, N, SA, B, 1, N, SB, BATCH, NULL, BCHOL_ERR_B_SIZE, "(B) holds");
    POTRS("B too small (ldb)", 'L', N, K, A, 0, N, SA, B, 0, N + 1, SB + K, BATCH, NULL, BCHOL_ERR_B_SIZE, "(B)");
    POTRS("batch span overflows", 'L', N, K, A, 0, N, 1LL << 62, B, 0, N, SB, 1LL << 40, NULL, BCHOL_ERR_A_SIZE, NULL);
    /* two double matrices fill A exactly; B of the same bytes is one element short */
    call("B too small for double", 'd', 0, 'L', N, K, A, 0, N, SA, B, 1, N, SB, 2, NULL,
         BCHOL_ERR_B_SIZE, "(B)");
    bchol_status st = bchol_spotrs_batched(NULL, 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL);
    expect("ctx = NULL", st, BCHOL_ERR_CONTEXT, "argument 1 (ctx)");

    cl_context other = clCreateContext(NULL, 1, (cl_device_id[]){bchol_context_device_id(ctx)}, NULL, NULL, NULL);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 4096 * 8, NULL, NULL);
    POTRS("B of another context", 'L', N, K, A, 0, N, SA, foreign, 0, N, SB, BATCH, NULL, BCHOL_ERR_B,
          "another OpenCL context");
    clReleaseMemObject(foreign);
    clReleaseContext(other);
    expect_unchanged("failed calls left A and B unchanged");

    /* Quick returns: no event, nothing touched, unused buffers may be NULL. */
    POTRS("batch = 0 with NULL buffers", 'L', N, K, NULL, 0, N, SA, NULL, 0, N, SB, 0, NULL, BCHOL_SUCCESS, NULL);
    POTRS("n = 0 with NULL buffers", 'L', 0, K, NULL, 0, 1, 0, NULL, 0, 1, K, BATCH, NULL, BCHOL_SUCCESS, NULL);
    POTRS("nrhs = 0 with NULL buffers", 'L', N, 0, NULL, 0, N, SA, NULL, 0, N, 0, BATCH, NULL, BCHOL_SUCCESS, NULL);
    cl_event ev = (cl_event)1;
    st = bchol_spotrs_batched(ctx, 'L', N, 0, A, 0, N, SA, B, 0, N, 0, BATCH, &ev);
    expect("nrhs = 0 gives no event", st, ev == NULL ? BCHOL_SUCCESS : BCHOL_ERR_ARGUMENT, NULL);
    expect_unchanged("quick returns left A and B unchanged");
    POTRS("valid call", 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL, BCHOL_SUCCESS, NULL);
}

static void case_posv(void)
{
    int fill[BATCH] = {9, 9, 9, 9}, out[BATCH];
    cl_command_queue q = bchol_context_queue(ctx);
    clEnqueueWriteBuffer(q, info, CL_TRUE, 0, sizeof fill, fill, 0, NULL, NULL);
    take_snapshot();
    POSV("posv: ldb = n - 1", 'U', N, K, A, 0, N, SA, B, 0, N - 1, SB, BATCH, info, BCHOL_ERR_LDB, "argument 11 (ldb");
    POSV("posv: info = NULL", 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL, BCHOL_ERR_INFO, "argument 14 (info) is NULL");
    POSV("posv: info too small", 'L', 1, K, A, 0, 1, 1, B, 0, 1, K, BATCH * N, info, BCHOL_ERR_INFO_SIZE,
         "argument 14 (info) holds");
    POSV("posv: info for batch = 2^62 at n = 0", 'L', 0, K, A, 0, 1, 0, B, 0, 1, K, 1LL << 62, info,
         BCHOL_ERR_INFO_SIZE, "argument 14 (info) holds");
    POSV("posv: A = NULL with nrhs = 0", 'L', N, 0, NULL, 0, N, SA, NULL, 0, N, 0, BATCH, info, BCHOL_ERR_A,
         "argument 5 (A) is NULL");
    POSV("posv: batch = 0 with NULL buffers", 'L', N, K, NULL, 0, N, SA, NULL, 0, N, SB, 0, NULL, BCHOL_SUCCESS, NULL);
    expect_unchanged("posv: failed calls left A and B unchanged");
    peek(info, out, sizeof out);
    if (memcmp(out, fill, sizeof out)) {
        printf("posv: failed calls changed info: FAILED\n");
        failures++;
    }

    /* n = 0 sets info to zero, with an event. */
    cl_event ev = NULL;
    bchol_status st = bchol_sposv_batched(ctx, 'L', 0, K, NULL, 0, 1, 0, NULL, 0, 1, K, BATCH, info, &ev);
    expect("posv: n = 0 returns an event", st, ev ? BCHOL_SUCCESS : BCHOL_ERR_ARGUMENT, NULL);
    if (ev) clReleaseEvent(ev);
    peek(info, out, sizeof out);
    for (int b = 0; b < BATCH; b++)
        if (out[b] != 0) {
            printf("posv: n = 0: info[%d] = %d, expected 0: FAILED\n", b, out[b]);
            failures++;
        }

    /* nrhs = 0 factors (A = I stays I, info 0) and does not touch B, which may be NULL. */
    clEnqueueWriteBuffer(q, info, CL_TRUE, 0, sizeof fill, fill, 0, NULL, NULL);
    POSV("posv: nrhs = 0 factors only", 'L', N, 0, A, 0, N, SA, NULL, 0, N, 0, BATCH, info, BCHOL_SUCCESS, NULL);
    peek(info, out, sizeof out);
    for (int b = 0; b < BATCH; b++)
        if (out[b] != 0) {
            printf("posv: nrhs = 0: info[%d] = %d, expected 0: FAILED\n", b, out[b]);
            failures++;
        }
    expect_unchanged("posv: nrhs = 0 left B (and A = I) unchanged");
}

static void case_ex(void)
{
    bchol_solve_params p = {BCHOL_SOLVE_SUBST, 33, 0, 0};
    bchol_status st = bchol_spotrs_batched_ex(ctx, &p, 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL);
    expect("params->nt = 33", st, BCHOL_ERR_ARGUMENT, "argument 2 (params->nt = 33)");
    p.nt = 4;
    p.rpt = 65;
    st = bchol_spotrs_batched_ex(ctx, &p, 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL);
    expect("params->rpt = 65", st, BCHOL_ERR_ARGUMENT, "params->rpt");
    p.rpt = 1;
    p.tbc = 65;
    st = bchol_spotrs_batched_ex(ctx, &p, 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL);
    expect("params->tbc = 65", st, BCHOL_ERR_ARGUMENT, "params->tbc");
    p.tbc = 1;
    p.variant = (bchol_solve_variant)9;
    st = bchol_spotrs_batched_ex(ctx, &p, 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL);
    expect("params->variant = 9", st, BCHOL_ERR_ARGUMENT, "params->variant");
    /* The _ex form counts params as argument 2: lda is argument 8, ldb 12. */
    st = bchol_spotrs_batched_ex(ctx, NULL, 'L', N, K, A, 0, N - 1, SA, B, 0, N, SB, BATCH, NULL);
    expect("_ex lda = n - 1 names argument 8", st, BCHOL_ERR_LDA, "argument 8 (lda");
    st = bchol_dpotrs_batched_ex(ctx, NULL, 'L', N, K, A, 0, N, SA, B, 0, N - 1, SB, BATCH, NULL);
    expect("_ex ldb = n - 1 names argument 12", st, BCHOL_ERR_LDB, "argument 12 (ldb");

    bchol_solve_params q;
    const char *source = NULL;
    st = bchol_potrs_params(ctx, 's', 40, 16, &q, &source);
    expect("bchol_potrs_params", st, BCHOL_SUCCESS, NULL);
    if (st || (q.variant != BCHOL_SOLVE_SUBST && q.variant != BCHOL_SOLVE_WORKITEM) || q.nt < 1 || q.nt > 32 || q.rpt < 1 || q.tbc < 1 ||
        !source || !*source) {
        printf("bchol_potrs_params gave variant %d nt %d rpt %d tbc %d: FAILED\n", q.variant, q.nt, q.rpt, q.tbc);
        failures++;
    }
    st = bchol_potrs_params(ctx, 's', 4, -1, &q, NULL);
    expect("bchol_potrs_params nrhs = -1", st, BCHOL_ERR_NRHS, "argument 4 (nrhs = -1)");
    st = bchol_potrs_params(ctx, 'z', 4, 1, &q, NULL);
    expect("bchol_potrs_params precision 'z'", st, BCHOL_ERR_ARGUMENT, "argument 2 (precision");
    st = bchol_potrs_params(ctx, 's', 4, 1, NULL, NULL);
    expect("bchol_potrs_params params = NULL", st, BCHOL_ERR_ARGUMENT, "argument 5 (params)");

    /* bchol_potrs_prepare: each argument in its place; then the fitted parameters (nt
     * narrowed to nrhs) */
    bchol_solve_params eff, wide = {BCHOL_SOLVE_SUBST, 33, 0, 0};
    st = bchol_potrs_prepare(NULL, NULL, 's', 'L', N, K, &eff);
    expect("potrs_prepare ctx = NULL", st, BCHOL_ERR_CONTEXT, "argument 1 (ctx)");
    st = bchol_potrs_prepare(ctx, &wide, 's', 'L', N, K, &eff);
    expect("potrs_prepare params->nt = 33", st, BCHOL_ERR_ARGUMENT, "argument 2 (params->nt = 33)");
    st = bchol_potrs_prepare(ctx, NULL, 'z', 'L', N, K, &eff);
    expect("potrs_prepare precision 'z'", st, BCHOL_ERR_ARGUMENT, "argument 3 (precision");
    st = bchol_potrs_prepare(ctx, NULL, 's', 'Q', N, K, &eff);
    expect("potrs_prepare uplo = 'Q'", st, BCHOL_ERR_UPLO, "argument 4");
    st = bchol_potrs_prepare(ctx, NULL, 's', 'L', -1, K, &eff);
    expect("potrs_prepare n = -1", st, BCHOL_ERR_N, "argument 5 (n = -1)");
    st = bchol_potrs_prepare(ctx, NULL, 's', 'L', N, -1, &eff);
    expect("potrs_prepare nrhs = -1", st, BCHOL_ERR_NRHS, "argument 6 (nrhs = -1)");
    st = bchol_potrs_prepare(ctx, NULL, 's', 'L', N, K, NULL);
    expect("potrs_prepare effective = NULL", st, BCHOL_ERR_ARGUMENT, "argument 7 (effective)");
    const bchol_solve_params ask = {BCHOL_SOLVE_SUBST, 16, 1, 2};
    st = bchol_potrs_prepare(ctx, &ask, 's', 'L', N, K, &eff);
    expect("potrs_prepare nt = 16 for nrhs = 3", st, BCHOL_SUCCESS, NULL);
    if (st || eff.variant != BCHOL_SOLVE_SUBST || eff.nt != 4 || eff.rpt != 1 || eff.tbc != 2) {
        printf("potrs_prepare gave variant %d nt %d rpt %d tbc %d, wanted 1 4 1 2: FAILED\n", eff.variant, eff.nt,
               eff.rpt, eff.tbc);
        failures++;
    }
    /* the workitem solve runs passes of nt columns, the rest one by one: nt 16 narrows to 2 */
    const bchol_solve_params ask_wi = {BCHOL_SOLVE_WORKITEM, 16, 0, 0};
    st = bchol_potrs_prepare(ctx, &ask_wi, 's', 'U', N, K, &eff);
    expect("potrs_prepare workitem nt = 16 for nrhs = 3", st, BCHOL_SUCCESS, NULL);
    if (st || eff.variant != BCHOL_SOLVE_WORKITEM || eff.nt != 2) {
        printf("potrs_prepare gave variant %d nt %d, wanted 2 2: FAILED\n", eff.variant, eff.nt);
        failures++;
    }
}

static void case_host(void)
{
    float a[SA * BATCH], b[SB * BATCH];
    int inf[BATCH];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    bchol_status st;
    st = bchol_spotrs_batched_host(ctx, 'Q', N, K, a, N, SA, b, N, SB, BATCH);
    expect("host potrs: uplo = 'Q'", st, BCHOL_ERR_UPLO, "argument 2");
    st = bchol_spotrs_batched_host(ctx, 'L', N, -2, a, N, SA, b, N, SB, BATCH);
    expect("host potrs: nrhs = -2", st, BCHOL_ERR_NRHS, "argument 4 (nrhs = -2)");
    st = bchol_spotrs_batched_host(ctx, 'L', N, K, NULL, N, SA, b, N, SB, BATCH);
    expect("host potrs: A = NULL", st, BCHOL_ERR_A, "argument 5 (A) is NULL");
    st = bchol_spotrs_batched_host(ctx, 'L', N, K, a, N - 1, SA, b, N, SB, BATCH);
    expect("host potrs: lda = n - 1", st, BCHOL_ERR_LDA, "argument 6 (lda");
    /* checked before any copy: a, b are far smaller than what these arguments claim */
    st = bchol_spotrs_batched_host(ctx, 'L', 50000, K, a, 50000, 2500000000LL, b, 50000, 150000, 1);
    expect("host potrs: n*lda beyond 2^31", st, BCHOL_ERR_N, "argument 3 (n = 50000) with lda = 50000");
    st = bchol_sposv_batched_host(ctx, 'L', 50000, K, a, 50000, 2500000000LL, b, 50000, 150000, 1, inf);
    expect("host posv: n*lda beyond 2^31", st, BCHOL_ERR_N, "2^31");
    st = bchol_spotrs_batched_host(ctx, 'L', N, K, a, N, SA - 1, b, N, SB, BATCH);
    expect("host potrs: stride_a < lda*n", st, BCHOL_ERR_STRIDE_A, "argument 7 (stride_a");
    st = bchol_spotrs_batched_host(ctx, 'L', N, K, a, N, SA, NULL, N, SB, BATCH);
    expect("host potrs: B = NULL", st, BCHOL_ERR_B, "argument 8 (B) is NULL");
    st = bchol_spotrs_batched_host(ctx, 'L', N, K, a, N, SA, b, N - 1, SB, BATCH);
    expect("host potrs: ldb = n - 1", st, BCHOL_ERR_LDB, "argument 9 (ldb");
    st = bchol_spotrs_batched_host(ctx, 'L', N, K, a, N, SA, b, N, SB - 1, BATCH);
    expect("host potrs: stride_b < ldb*nrhs", st, BCHOL_ERR_STRIDE_B, "argument 10 (stride_b");
    st = bchol_spotrs_batched_host(ctx, 'L', N, K, a, N, SA, b, N, SB, -1);
    expect("host potrs: batch = -1", st, BCHOL_ERR_BATCH, "argument 11 (batch");
    st = bchol_spotrs_batched_host(ctx, 'L', N, 0, NULL, N, SA, NULL, N, 0, BATCH);
    expect("host potrs: nrhs = 0 with NULL arrays", st, BCHOL_SUCCESS, NULL);
    st = bchol_sposv_batched_host(ctx, 'L', N, K, a, N, SA, b, N, SB, BATCH, NULL);
    expect("host posv: info = NULL", st, BCHOL_ERR_INFO, "argument 12 (info) is NULL");
    /* Strides or offsets whose byte offsets wrap the address space would bring a later
     * piece back to the array's start. */
    st = bchol_sposv_batched_host(ctx, 'L', N, K, a, N, 1LL << 62, b, N, SB, 2, inf);
    expect("host posv: stride_a * 4 bytes wraps", st, BCHOL_ERR_STRIDE_A, "argument 7 (stride_a");
    st = bchol_dposv_batched_host(ctx, 'L', 2, 1, (double *)a, 2, 4, (double *)b, 2, 1LL << 61, 2,
                                  inf);
    expect("host posv: stride_b * 8 bytes wraps", st, BCHOL_ERR_STRIDE_B, "argument 10 (stride_b");
    st = bchol_spotrs_batched_host(ctx, 'L', N, K, a, N, 1LL << 62, b, N, SB, 2);
    expect("host potrs: stride_a * 4 bytes wraps", st, BCHOL_ERR_STRIDE_A, "address space");
    {
        int vn[1] = {N}, vk[1] = {K}, vld[1] = {N};
        int64_t zero[1] = {0}, far[1] = {1LL << 62};
        st = bchol_sposv_vbatched_host(ctx, 'L', vn, vk, vld, vld, far, a, zero, b, 1, inf);
        expect("host posv vbatched: offsets_a wrap", st, BCHOL_ERR_OFFSETS_A, "argument 7");
        st = bchol_sposv_vbatched_host(ctx, 'L', vn, vk, vld, vld, zero, a, far, b, 1, inf);
        expect("host posv vbatched: offsets_b wrap", st, BCHOL_ERR_OFFSETS_B, "argument 9");
    }
    for (int i = 0; i < BATCH; i++) inf[i] = 7;
    st = bchol_sposv_batched_host(ctx, 'L', 0, K, NULL, 1, 0, NULL, 1, K, BATCH, inf);
    expect("host posv: n = 0 sets info to 0", st, BCHOL_SUCCESS, NULL);
    for (int i = 0; i < BATCH; i++)
        if (inf[i] != 0) failures++;
    /* A zero matrix is not positive definite: info = 1 and B unchanged. */
    for (int i = 0; i < SB * BATCH; i++) b[i] = (float)i;
    st = bchol_sposv_batched_host(ctx, 'U', N, K, a, N, SA, b, N, SB, BATCH, inf);
    expect("host posv: zero matrices", st, BCHOL_SUCCESS, NULL);
    for (int i = 0; i < BATCH; i++)
        if (inf[i] != 1) {
            printf("host posv: info[%d] = %d, expected 1: FAILED\n", i, inf[i]);
            failures++;
        }
    for (int i = 0; i < SB * BATCH; i++)
        if (b[i] != (float)i) {
            printf("host posv: B[%d] changed for a failed matrix: FAILED\n", i);
            failures++;
            break;
        }
}

static void case_no_fp64(void)
{
    setenv("BCHOL_DEVICE_NO_FP64", "1", 1);
    bchol_context *c2;
    if (bchol_context_create(NULL, &c2)) {
        failures++;
        return;
    }
    bchol_context *keep = ctx;
    ctx = c2;
    cl_mem a2 = clCreateBuffer(bchol_context_cl_context(c2), CL_MEM_READ_WRITE, 8 * SA * BATCH, NULL, NULL);
    cl_mem b2 = clCreateBuffer(bchol_context_cl_context(c2), CL_MEM_READ_WRITE, 8 * SB * BATCH, NULL, NULL);
    cl_mem i2 = clCreateBuffer(bchol_context_cl_context(c2), CL_MEM_READ_WRITE, 4 * BATCH, NULL, NULL);
    call("double potrs without fp64", 'd', 0, 'L', N, K, a2, 0, N, SA, b2, 0, N, SB, BATCH, NULL,
         BCHOL_ERR_NO_FP64, "double precision");
    call("double posv without fp64", 'd', 1, 'L', N, K, a2, 0, N, SA, b2, 0, N, SB, BATCH, i2,
         BCHOL_ERR_NO_FP64, "double precision");
    clReleaseMemObject(a2);
    clReleaseMemObject(b2);
    clReleaseMemObject(i2);
    bchol_context_destroy(c2);
    ctx = keep;
    unsetenv("BCHOL_DEVICE_NO_FP64");
}

/* A solve kernel that does not build: posv fails before it factors, so A, B and info
 * stay as they were. */
static void case_build_failure(void)
{
    char dir[] = "/tmp/bchol-badsolve-XXXXXX";
    if (!mkdtemp(dir)) {
        failures++;
        return;
    }
    char path[512];
    static const char *const subdirs[] = {"common", "chol"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, subdirs[i]);
        mkdir(path, 0700);
    }
    /* both solve kernels: whichever variant the dispatcher picks fails to build */
    static const char *const bad[] = {"chol/potrs_subst.cl", "chol/potrs_workitem.cl"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, bad[i]);
        FILE *f = fopen(path, "w");
        fputs("this is not OpenCL C;\n", f);
        fclose(f);
    }
    /* the other kernels come from the source tree */
    const char *files[] = {"common/common.cl", "common/vector.cl", "common/workitem_sweeps.cl",
                           "chol/potrf_fused.cl"};
    for (int i = 0; i < 4; i++) {
        char from[512], to[512];
        snprintf(from, sizeof from, "%s/%s", BCHOL_SOURCE_KERNELS, files[i]);
        snprintf(to, sizeof to, "%s/%s", dir, files[i]);
        if (symlink(from, to)) failures++;
    }
    int fill[BATCH] = {9, 9, 9, 9}, out[BATCH];
    clEnqueueWriteBuffer(bchol_context_queue(ctx), info, CL_TRUE, 0, sizeof fill, fill, 0, NULL, NULL);
    take_snapshot();
    setenv("BCHOL_KERNEL_DIR", dir, 1);
    POTRS("potrs: kernel that fails to build", 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, NULL,
          BCHOL_ERR_BUILD, "build log");
    POSV("posv: solve kernel that fails to build", 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, info,
         BCHOL_ERR_BUILD, "build log");
    unsetenv("BCHOL_KERNEL_DIR");
    expect_unchanged("posv: A and B unchanged after the failure");
    peek(info, out, sizeof out);
    if (memcmp(out, fill, sizeof out)) {
        printf("posv: info changed after the failure: FAILED\n");
        failures++;
    }
    for (int i = 0; i < 6; i++) {
        const char *name = i < 2 ? bad[i] : files[i - 2];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        remove(path);
    }
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, subdirs[i]);
        rmdir(path);
    }
    rmdir(dir);
}

static cl_mem make_buffer(cl_mem_flags flags, size_t bytes, const void *host)
{
    return clCreateBuffer(bchol_context_cl_context(ctx), flags | (host ? CL_MEM_COPY_HOST_PTR : 0),
                          bytes, (void *)host, NULL);
}

/* How the solves use their buffers: B overlapping A was accepted by posv (it writes both),
 * as were read-only and write-only buffers where the call writes or reads them. */
static void case_buffer_use(void)
{
    cl_mem ro_a = make_buffer(CL_MEM_READ_ONLY, sizeof(float) * SA * BATCH, NULL);
    cl_mem wo_b = make_buffer(CL_MEM_WRITE_ONLY, sizeof(float) * SB * BATCH, NULL);
    cl_mem big = make_buffer(CL_MEM_READ_WRITE, sizeof(float) * (SA + SB) * BATCH, NULL);
    take_snapshot();
    POSV("posv: B is A", 'L', N, K, A, 0, N, SA, A, 0, N, SB, BATCH, info, BCHOL_ERR_B,
         "argument 9 (B) overlaps argument 5 (A)");
    POSV("posv: B inside A's last matrix", 'L', N, K, big, 0, N, SA, big, SA * BATCH - 1, N, SB,
         BATCH, info, BCHOL_ERR_B, "overlaps");
    POSV("posv: A read-only", 'L', N, K, ro_a, 0, N, SA, B, 0, N, SB, BATCH, info, BCHOL_ERR_A,
         "argument 5 (A) is CL_MEM_READ_ONLY");
    POSV("posv: info is B", 'L', N, K, A, 0, N, SA, B, 0, N, SB, BATCH, B, BCHOL_ERR_INFO,
         "argument 14 (info) overlaps argument 9 (B)");
    POTRS("potrs: B write-only", 'L', N, K, A, 0, N, SA, wo_b, 0, N, SB, BATCH, NULL, BCHOL_ERR_B,
          "argument 9 (B) is CL_MEM_WRITE_ONLY");
    POTRS("potrs: B is A", 'L', N, K, A, 0, N, SA, A, 0, N, SB, BATCH, NULL, BCHOL_ERR_B,
          "overlaps");
    expect_unchanged("A and B unchanged after the failures");
    /* potrs only reads A; A and B apart in one buffer are fine */
    POTRS("potrs: A read-only", 'L', N, K, ro_a, 0, N, SA, B, 0, N, SB, BATCH, NULL, BCHOL_SUCCESS,
          NULL);
    POSV("posv: A and B apart in one buffer", 'L', N, K, big, 0, N, SA, big, SA * BATCH, N, SB,
         BATCH, info, BCHOL_SUCCESS, NULL);

    bchol_status st = bchol_sposv_interleaved(ctx, 'L', N, K, A, A, BATCH, BATCH, info, NULL);
    expect("posv interleaved: B is A", st, BCHOL_ERR_B, "argument 6 (B) overlaps argument 5 (A)");
    st = bchol_sposv_interleaved(ctx, 'L', N, K, A, B, BATCH, BATCH, A, NULL);
    expect("posv interleaved: info is A", st, BCHOL_ERR_INFO, "argument 9 (info) overlaps");
    st = bchol_spotrs_interleaved(ctx, 'L', N, K, A, wo_b, BATCH, BATCH, NULL);
    expect("potrs interleaved: B write-only", st, BCHOL_ERR_B, "CL_MEM_WRITE_ONLY");

    int vn[BATCH] = {N, N, N, N}, vk[BATCH] = {K, K, K, K};
    cl_long va[BATCH] = {0, SA, 2 * SA, 3 * SA}, vb[BATCH] = {0, SB, 2 * SB, 3 * SB};
    cl_mem dn = make_buffer(CL_MEM_READ_ONLY, sizeof vn, vn);
    cl_mem dk = make_buffer(CL_MEM_READ_WRITE, sizeof vk, vk);
    cl_mem da = make_buffer(CL_MEM_READ_ONLY, sizeof va, va);
    cl_mem db = make_buffer(CL_MEM_READ_ONLY, sizeof vb, vb);
    st = bchol_sposv_vbatched(ctx, 'L', dn, dk, dn, dn, da, A, db, A, BATCH, info, NULL);
    expect("posv vbatched: B is A", st, BCHOL_ERR_B, "argument 10 (B) overlaps argument 8 (A)");
    st = bchol_sposv_vbatched(ctx, 'L', dn, dk, dn, dn, da, A, db, B, BATCH, dk, NULL);
    expect("posv vbatched: info is the nrhs array", st, BCHOL_ERR_INFO,
           "argument 12 (info) overlaps argument 4 (nrhs)");
    st = bchol_sposv_vbatched(ctx, 'L', dn, dk, dn, dn, da, ro_a, db, B, BATCH, info, NULL);
    expect("posv vbatched: A read-only", st, BCHOL_ERR_A, "CL_MEM_READ_ONLY");
    st = bchol_spotrs_vbatched(ctx, 'L', dn, dk, dn, dn, da, ro_a, db, B, BATCH, info, NULL);
    expect("potrs vbatched: A read-only is read only", st, BCHOL_SUCCESS, NULL);
    clFinish(bchol_context_queue(ctx));
    cl_mem all[] = {ro_a, wo_b, big, dn, dk, da, db};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) clReleaseMemObject(all[i]);
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    {"buffer_use", case_buffer_use},
    {"potrs", case_potrs},   {"posv", case_posv},         {"ex", case_ex},
    {"host", case_host},     {"no_fp64", case_no_fp64},   {"build_failure", case_build_failure},
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_potrs_args <case>\n");
        return 2;
    }
    bchol_status st = bchol_context_create(NULL, &ctx);
    if (st) {
        fprintf(stderr, "no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    cl_context cl = bchol_context_cl_context(ctx);
    A = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(float) * SA * BATCH, NULL, NULL);
    B = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(float) * SB * BATCH, NULL, NULL);
    info = clCreateBuffer(cl, CL_MEM_READ_WRITE, sizeof(int) * BATCH, NULL, NULL);
    /* Identity factors and B(i, c) = i + c: valid calls have real work, and their solution
     * is B itself. */
    float id[SA * BATCH] = {0}, rhs[SB * BATCH];
    for (int b = 0; b < BATCH; b++)
        for (int i = 0; i < N; i++) id[b * SA + i * N + i] = 1;
    for (int i = 0; i < SB * BATCH; i++) rhs[i] = (float)(i % SB);
    clEnqueueWriteBuffer(bchol_context_queue(ctx), A, CL_TRUE, 0, sizeof id, id, 0, NULL, NULL);
    clEnqueueWriteBuffer(bchol_context_queue(ctx), B, CL_TRUE, 0, sizeof rhs, rhs, 0, NULL, NULL);
    int found = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(argv[1], cases[i].name)) {
            cases[i].run();
            found = 1;
        }
    clFinish(bchol_context_queue(ctx));
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(info);
    bchol_context_destroy(ctx);
    if (!found) {
        fprintf(stderr, "test_potrs_args: no case \"%s\"\n", argv[1]);
        return 2;
    }
    return failures ? 1 : 0;
}
