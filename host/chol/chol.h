/* The Cholesky layer's shared interfaces: the dispatcher (variant and parameters per size),
 * the fused, separate and variable-size drivers, and the solves. It calls the layers below
 * (core, tuning, blas, layout); nothing below calls it. Never installed. */
#ifndef BCHOL_CHOL_H
#define BCHOL_CHOL_H

#include "core/core.h"

/* ---- dispatch (dispatch.c) ---------------------------------------------------------- */

/* Parameters for the fused kernel at this precision and n; *source says where from. */
void bchol__fused_params(bchol_context *ctx, bchol_precision p, int n, bchol_params *params,
                         const char **source);
/* Fills the fields of params that are <= 0 from the dispatcher's choice (for the caller's
 * variant where it names one). */
void bchol__complete_params(bchol_context *ctx, bchol_precision p, int n, bchol_params *params);
/* The same for the interleaved routines on data already interleaved: the interleaved
 * fields from bchol_potrf_interleaved_params's choice; variant becomes interleaved. */
void bchol__complete_interleaved_params(bchol_context *ctx, bchol_precision p, int n,
                                        bchol_params *params);

/* ---- variants ----------------------------------------------------------------------- */

/* Local memory of one matrix in a work-group of the fused kernel (potrf_fused.c): its panel
 * of max(rows, ib) x ib elements, plus, for a variable-size batch, the two ints of its
 * bounds. The dispatcher and both drivers size the kernel with it, so that they agree. */
uint64_t bchol__fused_local_bytes(bchol_precision p, int rows, int ib, int vbatched);
/* Most matrices per work-group, at most want, whose bchol__fused_local_bytes fit the
 * device's local memory less the backend's reserve; at least 1 (the caller checks that
 * one fits). */
int bchol__fused_fit_tbc(const bchol_context *ctx, bchol_precision p, int rows, int ib,
                         int vbatched, int want);

/* Largest n the fused kernel can factor with these parameters (local memory). */
int bchol__fused_max_n(const bchol_context *ctx, bchol_precision p, const bchol_params *params);

/* BCHOL_ERR_BUILD where the device's compiler is known to abort on fused kernels of this
 * panel width and precision (the backend's broken_fused_ib_d). */
bchol_status bchol__fused_ib_buildable(bchol_context *ctx, bchol_precision p, int ib);

/* Builds the fused kernel for prm and fits its work-group to the built kernel's limit
 * (prm->rpt or prm->tbc may change); fails when n does not fit local memory. *tail: the
 * kernel of a last panel narrower than prm->ib, or NULL (the last step runs *kernel). */
bchol_status bchol__fused_prepare(bchol_context *ctx, bchol_precision p, bchol_params *prm,
                                  int upper, int n, cl_kernel *kernel, cl_kernel *tail);

/* Enqueues the fused left-looking factorization of a checked, non-empty batch. */
bchol_status bchol__potrf_fused(bchol_call *call, bchol_precision p, const bchol_params *params,
                                int upper, int n, cl_mem A, int64_t offset, int lda,
                                int64_t stride, int64_t batch, cl_mem info);

/* The common body of bchol_{s,d}potrf_batched[_ex]. */
bchol_status bchol__potrf_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                  const bchol_params *params, char uplo, int n, cl_mem A,
                                  int64_t offset, int lda, int64_t stride, int64_t batch,
                                  cl_mem info, cl_event *event);

/* ---- separate variant (potrf_separate.c) -------------------------------------------- */

/* Enqueues the right-looking blocked factorization (panel POTF2+TRTRI, TRSM, trailing
 * update per nb-wide step) of a checked, non-empty batch; params are complete. */
bchol_status bchol__potrf_separate(bchol_call *call, bchol_precision p, const bchol_params *params,
                                   int upper, int n, cl_mem A, int64_t offset, int lda,
                                   int64_t stride, int64_t batch, cl_mem info);

/* The checks of bchol_params (argument 2 of the _ex routines and of bchol_potrf_prepare). */
bchol_status bchol__check_params(bchol_context *ctx, const char *routine, const bchol_params *params);

/* ---- workitem variant (potrf_workitem.c) -------------------------------------------- */

/* Builds the one-work-item-per-matrix kernel for prm's wnb, wvec and wmr. */
bchol_status bchol__workitem_prepare(bchol_context *ctx, bchol_precision p,
                                     const bchol_params *prm, int upper, int n, cl_kernel *k);
/* Its variable-size form (cl_kernels/chol/potrf_workitem.cl with VBATCHED = 1). */
bchol_status bchol__workitem_vbatched_prepare(bchol_context *ctx, bchol_precision p,
                                              const bchol_params *prm, int upper, cl_kernel *k);
/* Enqueues it on a checked, non-empty batch (one launch, split only at the grid's limits);
 * params are complete. */
bchol_status bchol__potrf_workitem(bchol_call *call, bchol_precision p, const bchol_params *params,
                                   int upper, int n, cl_mem A, int64_t offset, int lda,
                                   int64_t stride, int64_t batch, cl_mem info);

/* ---- solve (potrs_batched.c, posv_batched.c, potrs_subst.c, dispatch.c) ------------- */

/* Solve parameters at this precision, n and nrhs (the tuning table's solve entry, else the
 * backend's defaults); *source says where from. */
void bchol__solve_params(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                         bchol_solve_params *params, const char **source);
/* As bchol__solve_params for a variant the caller wants (AUTO: the dispatcher's choice);
 * vbatched: for the vbatched solve (solve entries only); *vw (may be NULL): the workitem
 * kernel's vector width (a solve-workitem entry's, BCHOL_SOLVE_WORKITEM_VW, else 8), which
 * bchol_solve_params has no field for. */
void bchol__solve_params_for(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                             bchol_solve_variant want, int vbatched, bchol_solve_params *params,
                             int *vw, const char **source);
/* Fills the fields of params that are <= 0 from the dispatcher's choice (for the caller's
 * variant where it names one); *vw (may be NULL) as above. */
void bchol__complete_solve_params(bchol_context *ctx, bchol_precision p, int n, int nrhs, int vbatched,
                                  bchol_solve_params *params, int *vw);

/* Checks the arguments that potrs and posv share (positions as in potrs; k = 1 when an
 * _ex params argument comes second) and sets *upper. Buffers are checked where they are
 * used: A also with nrhs = 0 when the routine factors it. Precision support is not
 * checked here. */
bchol_status bchol__check_solve_args(bchol_context *ctx, const char *routine, int k,
                                     bchol_precision p, int factors, char uplo, int n, int nrhs,
                                     cl_mem A, int64_t offset_a, int lda, int64_t stride_a,
                                     cl_mem B, int64_t offset_b, int ldb, int64_t stride_b,
                                     int64_t batch, int *upper);
/* After those checks (and posv's of info): how potrs (factors = 0) or posv uses A, B and
 * info (bchol__check_buffer_uses). */
bchol_status bchol__check_solve_uses(bchol_context *ctx, const char *routine, int k,
                                     bchol_precision p, int factors, int n, int nrhs, cl_mem A,
                                     int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                     int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                     cl_mem info);

/* The substitution kernel, built and fitted to the device for one problem shape; made
 * before anything is enqueued so that posv fails before it factors. */
typedef struct {
    cl_kernel kernel;
    bchol_solve_params prm; /* as fitted: rpt may grow, tbc shrink */
    int upper, n, nrhs;
    int vw; /* the workitem solve: its vector width */
} bchol_subst_plan;

/* The workitem solve's vector width where no solve-workitem entry names one (its VW). */
#define BCHOL__WORKITEM_SOLVE_VW 8
/* Whether vw is a width the workitem solve builds with (its vector types, common/vector.cl). */
static inline int bchol__workitem_solve_vw_ok(int vw)
{
    return vw == 1 || vw == 2 || vw == 4 || vw == 8 || vw == 16;
}
/* vw: the workitem solve's vector width (bchol__complete_solve_params's; 0: the default). */
bchol_status bchol__potrs_subst_plan(bchol_context *ctx, bchol_precision p,
                                     const bchol_solve_params *params, int vw, int upper, int n,
                                     int nrhs, bchol_subst_plan *plan);
/* The workitem solve (potrs_workitem.c): one work-item per system; the subst plan and
 * enqueue functions hand variant BCHOL_SOLVE_WORKITEM to these. */
bchol_status bchol__potrs_workitem_plan(bchol_context *ctx, bchol_precision p,
                                        const bchol_solve_params *params, int vw, int upper, int n,
                                        int nrhs, bchol_subst_plan *plan);
bchol_status bchol__potrs_workitem(bchol_call *call, const bchol_subst_plan *plan, cl_mem A,
                                   int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                   int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                   cl_mem info);
/* Its variable-size form (the vbatched plan and enqueue functions hand variant
 * BCHOL_SOLVE_WORKITEM to these): sizes per system, systems with info != 0 skipped. */
bchol_status bchol__potrs_workitem_vbatched_plan(bchol_context *ctx, bchol_precision p,
                                                 const bchol_solve_params *params, int upper,
                                                 int max_n, int max_nrhs, bchol_subst_plan *plan);
bchol_status bchol__potrs_workitem_vbatched(bchol_call *call, const bchol_subst_plan *plan,
                                            cl_mem n, cl_mem nrhs, cl_mem lda, cl_mem ldb,
                                            cl_mem offsets_a, cl_mem A, cl_mem offsets_b, cl_mem B,
                                            int64_t batch, cl_mem info);
/* The common bodies of bchol_{s,d}potrs_batched[_ex] (params NULL: not an _ex form) and
 * bchol_{s,d}posv_batched. */
bchol_status bchol__potrs_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                  const bchol_solve_params *params, char uplo, int n, int nrhs,
                                  cl_mem A, int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                  int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                  cl_event *event);
bchol_status bchol__posv_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                 char uplo, int n, int nrhs, cl_mem A, int64_t offset_a, int lda,
                                 int64_t stride_a, cl_mem B, int64_t offset_b, int ldb,
                                 int64_t stride_b, int64_t batch, cl_mem info, cl_event *event);

/* Enqueues the solve of a checked, non-empty batch. With info not NULL, matrices whose
 * info is not zero are skipped (their B stays as it was). */
bchol_status bchol__potrs_subst(bchol_call *call, const bchol_subst_plan *plan, cl_mem A,
                                int64_t offset_a, int lda, int64_t stride_a, cl_mem B,
                                int64_t offset_b, int ldb, int64_t stride_b, int64_t batch,
                                cl_mem info);
/* ---- variable-size batches (potrf_vbatched*.c, dispatch.c) -------------------------- */

/* Parameters of the vbatched fused kernel for this precision, largest n and batch (0: a
 * batch that fills the device). */
void bchol__vbatched_params(bchol_context *ctx, bchol_precision p, int max_n, int64_t batch,
                            bchol_vbatched_params *params, const char **source);
/* Fills the fields of params that are <= 0 from the dispatcher's choice (for the caller's
 * variant where it names one). */
void bchol__complete_vbatched_params(bchol_context *ctx, bchol_precision p, int max_n,
                                     int64_t batch, bchol_vbatched_params *params);
/* Whether a variable-size batch whose schedule is left to the library runs every step in
 * one launch: max_n is at most largest (the smaller of the fused share's crossover and the
 * backend's bound) and the device holds the batch at once (batch * max_n <= compute_units
 * * per_cu; per_cu 0: never). */
static inline int bchol__vbatched_fits_one_launch(unsigned compute_units, int per_cu, int max_n,
                                                  int largest, int64_t batch)
{
    if (per_cu <= 0 || batch <= 0 || max_n <= 0 || max_n > largest) return 0;
    /* batch * max_n <= cap without the product (batch may be near 2^60) */
    return (uint64_t)batch <= (uint64_t)compute_units * (uint64_t)per_cu / (uint64_t)max_n;
}

/* Largest max_n the vbatched fused kernel can hold with these parameters. */
int bchol__vbatched_fused_max_n(const bchol_context *ctx, bchol_precision p,
                                const bchol_vbatched_params *params);
/* Enqueues the factorization steps of a checked batch (info already set by the checks). */
bchol_status bchol__potrf_vbatched_fused(bchol_call *call, bchol_precision p,
                                         const bchol_vbatched_params *params, int upper,
                                         int max_n, cl_mem n, cl_mem lda, cl_mem offsets,
                                         cl_mem A, int64_t batch, cl_mem info);

/* The separate variant on the matrices of a checked batch with n[b] > n_lo (vbatched
 * separate: potrf_vbatched_separate.c); prm gives nb, pb and tile. */
bchol_status bchol__potrf_vbatched_separate(bchol_call *call, bchol_precision p,
                                            const bchol_params *prm, int upper, int n_lo,
                                            int max_n, cl_mem n, cl_mem lda, cl_mem offsets,
                                            cl_mem A, int64_t batch, cl_mem info);
/* Largest n AUTO gives the workitem kernel in a variable-size batch (0: none, the
 * fused/separate split; INT_MAX: all): BCHOL_VBATCHED_VARIANT=workitem|fused, else the
 * backend's vbatched_workitem_to_s/_d. */
int bchol__vbatched_workitem_to(const bchol_context *ctx, bchol_precision p);
/* The workitem kernel on the matrices of a checked batch with n[b] <= n_hi (variable
 * sizes: potrf_workitem.c); prm gives wnb, wvec, wmr and wgroup. */
bchol_status bchol__potrf_vbatched_workitem(bchol_call *call, bchol_precision p,
                                            const bchol_params *prm, int upper, int n_hi,
                                            cl_mem n, cl_mem lda, cl_mem offsets, cl_mem A,
                                            int64_t batch, cl_mem info);
/* Largest n the AUTO split of a batch of largest order max_n gives the fused kernel:
 * params->crossover if > 0, else the backend's fixed-size crossover where max_n is within
 * it and its vbatched crossover above it; never above what the fused kernel holds. */
int bchol__vbatched_crossover(bchol_context *ctx, bchol_precision p, int max_n,
                              const bchol_vbatched_params *params);

/* The common body of bchol_{s,d}potrf_vbatched[_ex]; max_n < 0 with params NULL: the plain
 * form, which computes it on the device. */
bchol_status bchol__potrf_vbatched(bchol_context *ctx, const char *routine, bchol_precision p,
                                   const bchol_vbatched_params *params, char uplo, int max_n,
                                   cl_mem n, cl_mem lda, cl_mem offsets, cl_mem A, int64_t batch,
                                   cl_mem info, cl_event *event);

/* ---- solve, variable sizes (potrs_vbatched.c, posv_vbatched.c, potrs_subst*.c,
 * vbatched_check_rhs.c) ------------------------------------------------------------------ */
/* The variable-size substitution kernel fitted for the largest n and nrhs. */
bchol_status bchol__potrs_subst_vbatched_plan(bchol_context *ctx, bchol_precision p,
                                              const bchol_solve_params *params, int upper,
                                              int max_n, int max_nrhs, bchol_subst_plan *plan);
/* Enqueues the solve of a checked variable-size batch; matrices whose info is not zero
 * are skipped. */
bchol_status bchol__potrs_subst_vbatched(bchol_call *call, const bchol_subst_plan *plan, cl_mem n,
                                         cl_mem nrhs, cl_mem lda, cl_mem ldb, cl_mem offsets_a,
                                         cl_mem A, cl_mem offsets_b, cl_mem B, int64_t batch,
                                         cl_mem info);
/* The factorization of a checked batch (info set by the checks) by the variants prm
 * chooses: fused, separate, or AUTO's split at the crossover (potrf_vbatched.c). */
bchol_status bchol__potrf_vbatched_run(bchol_call *call, bchol_precision p,
                                       const bchol_vbatched_params *prm, int upper, int max_n,
                                       cl_mem n, cl_mem lda, cl_mem offsets, cl_mem A,
                                       int64_t batch, cl_mem info);
/* The common body of bchol_{s,d}potrs_vbatched[_ex] and bchol_{s,d}posv_vbatched[_ex]
 * (factor = 1); params NULL: the plain form, which finds max_n and max_nrhs on the
 * device. */
bchol_status bchol__solve_vbatched(bchol_context *ctx, const char *routine, bchol_precision p,
                                   int factor, const bchol_solve_params *params, char uplo,
                                   int max_n, int max_nrhs, cl_mem n, cl_mem nrhs, cl_mem lda,
                                   cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_b,
                                   cl_mem B, int64_t batch, cl_mem info, cl_event *event);

#endif /* BCHOL_CHOL_H */
