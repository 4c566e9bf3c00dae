/* bchol_{s,d}posv_vbatched[_ex]: the vbatched solve body with the factorization between
 * the checks and the substitution; the substitution skips every matrix whose info is not
 * zero, so a failed factorization or a rejected entry leaves its B untouched. */
#include "chol/chol.h"

bchol_status bchol_sposv_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem nrhs, cl_mem lda,
                                  cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_b,
                                  cl_mem B, int64_t batch, cl_mem info, cl_event *event) {
    return bchol__solve_vbatched(ctx, "bchol_sposv_vbatched", BCHOL_S, 1, NULL, uplo, -1, -1, n,
                                 nrhs, lda, ldb, offsets_a, A, offsets_b, B, batch, info, event);
}

bchol_status bchol_dposv_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem nrhs, cl_mem lda,
                                  cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_b,
                                  cl_mem B, int64_t batch, cl_mem info, cl_event *event) {
    return bchol__solve_vbatched(ctx, "bchol_dposv_vbatched", BCHOL_D, 1, NULL, uplo, -1, -1, n,
                                 nrhs, lda, ldb, offsets_a, A, offsets_b, B, batch, info, event);
}

static const bchol_solve_params no_params = {0};

bchol_status bchol_sposv_vbatched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                     char uplo, int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                     cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                     cl_mem offsets_b, cl_mem B, int64_t batch, cl_mem info,
                                     cl_event *event) {
    return bchol__solve_vbatched(ctx, "bchol_sposv_vbatched_ex", BCHOL_S, 1,
                                 params ? params : &no_params, uplo, max_n, max_nrhs, n, nrhs, lda,
                                 ldb, offsets_a, A, offsets_b, B, batch, info, event);
}

bchol_status bchol_dposv_vbatched_ex(bchol_context *ctx, const bchol_solve_params *params,
                                     char uplo, int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                     cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                     cl_mem offsets_b, cl_mem B, int64_t batch, cl_mem info,
                                     cl_event *event) {
    return bchol__solve_vbatched(ctx, "bchol_dposv_vbatched_ex", BCHOL_D, 1,
                                 params ? params : &no_params, uplo, max_n, max_nrhs, n, nrhs, lda,
                                 ldb, offsets_a, A, offsets_b, B, batch, info, event);
}
