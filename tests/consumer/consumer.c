/* A program outside the bchol tree, built against an installed (and moved) bchol:
 * factors a few SPD matrices on the default device, checks L*L^T against A, and checks
 * that the library read the tuning files shipped in the installation it was given.
 * Usage: consumer TUNING_DIR (the installed share/bchol/tuning). Exit 0: both hold. */
#include <bchol.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 24
#define BATCH 5

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TUNING_DIR\n", argv[0]);
        return 2;
    }
    char expected[4096];
    if (!realpath(argv[1], expected)) {
        fprintf(stderr, "consumer: %s does not exist\n", argv[1]);
        return 1;
    }
    bchol_context *ctx = NULL;
    if (bchol_context_create(NULL, &ctx) != BCHOL_SUCCESS) {
        fprintf(stderr, "consumer: no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    int failed = 0;

    /* A_b = M M^T + N I, lower triangle factored in place */
    static double A[BATCH][N * N], A0[BATCH][N * N];
    int info[BATCH];
    srand(7);
    for (int b = 0; b < BATCH; b++) {
        double M[N * N];
        for (int i = 0; i < N * N; i++) M[i] = (double)rand() / RAND_MAX - 0.5;
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                double s = i == j ? N : 0;
                for (int k = 0; k < N; k++) s += M[i + k * N] * M[j + k * N];
                A[b][i + j * N] = A0[b][i + j * N] = s;
            }
    }
    if (bchol_dpotrf_batched_host(ctx, 'L', N, &A[0][0], N, N * N, BATCH, info) != BCHOL_SUCCESS) {
        fprintf(stderr, "consumer: dpotrf failed: %s\n", bchol_last_error(ctx));
        failed = 1;
    }
    for (int b = 0; b < BATCH && !failed; b++) {
        /* max |A - L L^T| over the lower triangle, relative to max |A| */
        double err = 0, norm = 0;
        for (int j = 0; j < N; j++)
            for (int i = j; i < N; i++) {
                double s = 0;
                for (int k = 0; k <= j; k++) s += A[b][i + k * N] * A[b][j + k * N];
                err = fmax(err, fabs(s - A0[b][i + j * N]));
                norm = fmax(norm, fabs(A0[b][i + j * N]));
            }
        if (info[b] != 0 || !(err <= 1e3 * N * 2.2e-16 * norm)) {
            fprintf(stderr, "consumer: matrix %d: info %d, |A - LL^T| = %g (|A| = %g)\n", b,
                    info[b], err, norm);
            failed = 1;
        }
    }

    /* The parameters' source names the tuning file they came from, or the folder that had
     * none for this device; either way the installed folder, not the built-in defaults. */
    bchol_params params;
    const char *source = NULL;
    if (bchol_potrf_params(ctx, 'd', N, &params, &source) != BCHOL_SUCCESS) {
        fprintf(stderr, "consumer: bchol_potrf_params failed: %s\n", bchol_last_error(ctx));
        failed = 1;
    } else if (!source || !strstr(source, expected)) {
        fprintf(stderr, "consumer: parameters not from %s: %s\n", expected, source ? source : "(null)");
        failed = 1;
    }
    if (!failed) printf("consumer: %d matrices of order %d factored; parameters: %s\n", BATCH, N, source);
    bchol_context_destroy(ctx);
    return failed;
}
