/* The LU layer's shared interfaces (getrf, and the gesv/getrs/getri that build on it): the
 * common bodies of getrf, its argument checks, its enqueue-only core, the variant choice
 * and the variable-size forms; the solves' in lu_solve.h. It calls the layers below
 * (core, blas); never the Cholesky layer. Never installed. */
#ifndef BCHOL_LU_H
#define BCHOL_LU_H

#include "core/core.h"

/* Positions (1-based, ctx = 1) of getrf's arguments in a routine's signature, so that a
 * routine which factors (gesv) names its own arguments through getrf's checks. 0: the
 * routine has no such argument (m in gesv, where m = n; ipiv, offset_p and stride_p in
 * getrf_nopiv). */
typedef struct {
    int m, n, A, offset_a, lda, stride_a, ipiv, offset_p, stride_p, batch, info;
} bchol_lu_pos;

/* The positions of bchol_{s,d}getrf_batched and bchol_{s,d}getrf_nopiv_batched. */
extern const bchol_lu_pos bchol__getrf_pos, bchol__getrf_nopiv_pos;

/*
 * getrf's argument checks, in argument order: m (where pos->m; else m must equal n),
 * n, lda >= max(1, m), the index span, offset_a, stride_a >= lda*n, offset_p >= 0 and
 * stride_p >= min(m, n) (where pivot), batch >= 0; then the buffers A (where m, n > 0),
 * ipiv (where pivot and min(m, n) > 0) and info (where pos->info) with the sizes the
 * batch needs. Nothing of batch = 0 is a buffer. Not checked here: ctx (check it first),
 * the caller's other arguments, the overlaps between buffers and the precision.
 * uses[0..*nuses-1] receive how getrf uses A, ipiv and info (at most 3), for the
 * caller's bchol__check_buffer_uses together with its own buffers.
 */
bchol_status bchol__check_getrf_args(bchol_context *ctx, const char *routine,
                                     const bchol_lu_pos *pos, bchol_precision p, int pivot,
                                     int m, int n, cl_mem A, int64_t offset_a, int lda,
                                     int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                     int64_t stride_p, int64_t batch, cl_mem info,
                                     bchol_buffer_use *uses, int *nuses);

/* BCHOL_ERR_UNSUPPORTED_SIZE, with a message naming routine and the limit, where no
 * getrf variant factors m-by-n matrices on ctx's device (builds nothing, enqueues
 * nothing): a routine that factors and then solves calls it before it enqueues. */
bchol_status bchol__getrf_check_size(bchol_context *ctx, const char *routine, bchol_precision p,
                                     int m, int n);

/* Largest n of an n-by-n matrix that getrf factors on ctx's device at precision p. */
int bchol__getrf_max_n(const bchol_context *ctx, bchol_precision p);

/*
 * Enqueues getrf (pivot = 1) or getrf_nopiv (pivot = 0; ipiv not used, may be NULL) of
 * a checked batch onto call, no argument checks: batch = 0 enqueues nothing, m = 0 or
 * n = 0 fills info with zeros. Fails with BCHOL_ERR_UNSUPPORTED_SIZE (see
 * bchol__getrf_check_size), BCHOL_ERR_BUILD or an OpenCL status, possibly after some of
 * its commands were enqueued.
 */
bchol_status bchol__getrf_enqueue(bchol_call *call, bchol_precision p, int pivot, int m, int n,
                                  cl_mem A, int64_t offset_a, int lda, int64_t stride_a,
                                  cl_mem ipiv, int64_t offset_p, int64_t stride_p, int64_t batch,
                                  cl_mem info);

/* The common body of bchol_{s,d}getrf_batched (pivot = 1) and bchol_{s,d}getrf_nopiv_batched
 * (pivot = 0; ipiv, offset_p and stride_p unused): checks, quick returns, a call of its
 * own (bchol__call_begin/end) around bchol__getrf_enqueue. */
bchol_status bchol__getrf_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                  int pivot, int m, int n, cl_mem A, int64_t offset_a, int lda,
                                  int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, int64_t batch, cl_mem info, cl_event *event);

/* ---- the fused variant (getrf_fused.c, cl_kernels/lu/getrf_fused.cl) ------------------ */

/* Shape of the fused kernel: lx work-items per matrix, tbc matrices per work-group. A
 * value <= 0 takes the default (bchol__getrf_fused_params). For the blocked variant's
 * panels: row0, the panel's first row in the whole matrix (pivots and info come back
 * relative to the matrix, info merged: see getrf_fused.cl's ROW0), and in_place = 1 to
 * factor in global memory (a panel too tall for local memory). */
typedef struct {
    int lx, tbc;
    int row0, in_place;
} bchol_getrf_params;

/* The default shape for m-by-n matrices on ctx's device, for the fields <= 0 (a
 * getrf-fused tuning entry sets both). */
void bchol__getrf_fused_params(const bchol_context *ctx, bchol_precision p, int m, int n,
                               bchol_getrf_params *prm);
/* Local memory of one matrix in the fused kernel with lx work-items. */
uint64_t bchol__getrf_fused_local_bytes(bchol_precision p, int m, int n, int lx);
/* Enqueues a strided getrf kernel (the fused, regs and workitem kernels take the same
 * arguments: A, offset, lda, stride, ipiv, offset_p, stride_p, info, count, g0) over a
 * batch > 0: per_group matrices in each group of local work-items, in slices of groups
 * (bchol__launch_groups). Where pivot = 0 the kernel gets no ipiv. */
bchol_status bchol__getrf_launch(bchol_call *call, cl_kernel kernel, int pivot, cl_mem A,
                                 int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                 int64_t offset_p, int64_t stride_p, int64_t batch, cl_mem info,
                                 size_t per_group, size_t local);
/* Enqueues the fused getrf of a checked batch with m, n > 0 and batch > 0. */
bchol_status bchol__getrf_fused(bchol_call *call, bchol_precision p, const bchol_getrf_params *prm,
                                int pivot, int m, int n, cl_mem A, int64_t offset_a, int lda,
                                int64_t stride_a, cl_mem ipiv, int64_t offset_p, int64_t stride_p,
                                int64_t batch, cl_mem info);

/* ---- variable sizes (getrf_vbatched.c, getrs_vbatched.c) ------------------------------ */

/* Device checks of the pivot arrays (cl_kernels/lu/vbatched_check_piv.cl) after
 * bchol__vcheck_flag: info[b] = 0 entries get BCHOL_INFO_BAD_OFFSET_P or
 * BCHOL_INFO_OVERLAP_P where their min(m[b], n[b]) pivots at offsets_p[b] leave ipiv
 * (p_elems ints) or meet another's. Square callers pass n as m. */
bchol_status bchol__vcheck_piv(bchol_call *call, cl_mem m, cl_mem n, cl_mem offsets_p,
                               uint64_t p_elems, int64_t batch, cl_mem info);

/* max_n cut to the largest order a well-formed matrix can have in a_elems elements
 * ((n-1)*lda + n >= n*n, and < 2^31); with max_n = INT_MAX the bound of min(m, n). */
int bchol__vbatched_reach(uint64_t a_elems, int max_n);

/* getrf's variant and parameters (BCHOL_GETRF's, a tuning entry's or the backend's): the
 * blocked variant's panel width nb (1..64) and trailing update's GEMM (BCHOL_GEMM_OWN or
 * BCHOL_GEMM_CLBLAST), 0 taking the backend's default; the others' below. */
typedef struct {
    bchol_getrf_variant variant;
    int nb, gemm;
    int ib; /* panels of nb factored as panels of ib within them (0: none; ib must divide nb) */
    int panel_in_place; /* 1: every panel in global memory, even where it fits local (tests) */
    int swaps_each;     /* 1: the left columns' interchanges at every panel, even where
                         * getrf_swap_left could take them after the last (tests, A/B) */
    int lx, tbc;        /* the fused kernel's shape (0: bchol__getrf_fused_params's);
                         * workitem: tbc = matrices (work-items) per work-group (0: 8);
                         * regs: tbc = matrices per work-group (0: the driver's) */
    int wb;             /* workitem: its panel width, BCHOL_GETRF's or the entry's nb else
                         * the backend's (bchol__getrf_choose sets it; 1: unblocked) */
} bchol_getrf_choice;

/* Enqueues the LU of a checked variable-size batch (bounds max_m, max_n, and max_k of
 * min(m, n)): the fused kernel (getrf_vbatched, built for the largest sizes it takes) on
 * the matrices that fit its local memory, the blocked path on the rest; matrices with
 * info[b] != 0 or m[b], n[b] = 0 are skipped. env: BCHOL_GETRF (bchol__getrf_env; its
 * variant workitem sends the whole batch to the workitem kernel, with env's nb as its panel
 * width where given; auto leaves it to the backend). prm: lx, tbc, nb <= 0 take the
 * defaults; fused_max as bchol_lu_params. Square callers pass n as m. */
bchol_status bchol__getrf_vbatched_enqueue(bchol_call *call, bchol_precision p,
                                           const bchol_getrf_choice *env,
                                           const bchol_lu_params *prm, int max_m, int max_n,
                                           int max_k, cl_mem m, cl_mem n, cl_mem lda,
                                           cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                           cl_mem ipiv, int64_t batch, cl_mem info);

/* The blocked path (getrf_vbatched_blocked.c): per nb-wide block column of the largest
 * matrix, panel, interchanges with U12, and A22 -= L21*U12, on the matrices with info[b]
 * >= 0 that are not the fused kernel's (m[b] <= lo_m and n[b] <= lo_n). */
bchol_status bchol__getrf_vbatched_blocked(bchol_call *call, bchol_precision p, int nb,
                                           int lo_m, int lo_n, int max_m, int max_n, int max_k,
                                           cl_mem m, cl_mem n, cl_mem lda, cl_mem offsets_a,
                                           cl_mem A, cl_mem offsets_p, cl_mem ipiv,
                                           int64_t batch, cl_mem info);

/* The common body of bchol_{s,d}getrf_vbatched (params NULL, max_m and max_n unused) and
 * _ex, also run by the host form with the largest m and n it found. */
bchol_status bchol__getrf_vbatched_body(bchol_context *ctx, const char *routine, bchol_precision p,
                                        const bchol_lu_params *params, int max_m, int max_n,
                                        cl_mem m, cl_mem n, cl_mem lda, cl_mem offsets_a, cl_mem A,
                                        cl_mem offsets_p, cl_mem ipiv, int64_t batch, cl_mem info,
                                        cl_event *event);

/* The common body of getrs_vbatched (factor = 0) and gesv_vbatched (factor = 1; trans
 * 'N'), plain (params NULL) and _ex, also run by gesv's host form. */
bchol_status bchol__lu_solve_vbatched(bchol_context *ctx, const char *routine, bchol_precision p,
                                      int factor, const bchol_solve_params *params, char trans,
                                      int max_n, int max_nrhs, cl_mem n, cl_mem nrhs, cl_mem lda,
                                      cl_mem ldb, cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                      cl_mem ipiv, cl_mem offsets_b, cl_mem B, int64_t batch,
                                      cl_mem info, cl_event *event);

/* ---- the blocked variant (getrf_blocked.c, cl_kernels/lu/getrf_blocked.cl) ------------ */

/* Which getrf variant runs: bchol_getrf_variant (bchol.h). */


/* BCHOL_GETRF parsed into c (all zero, variant auto, where unset or empty), the one reader
 * of the variable for every LU routine; BCHOL_ERR_ARGUMENT naming routine where malformed. */
bchol_status bchol__getrf_env(bchol_context *ctx, const char *routine, bchol_getrf_choice *c);
/* One integer field of an environment variable's comma list (BCHOL_GETRF, BCHOL_GETRI): the
 * digits of s[skip, len) as a value in lo..hi into *out; -1 where they are not one. */
int bchol__env_int(const char *s, size_t len, size_t skip, long lo, long hi, int *out);

/*
 * The variant and parameters for m-by-n matrices (getrf_choose.c): BCHOL_GETRF ("fused",
 * "workitem[,tbc=T][,nb=NB]", "regs[,tbc=T]" or
 * "blocked[,nb=NB][,gemm=own|clblast][,panel=global]") where set, else auto; auto takes the
 * tuning table's getrf entry for max(m, n) where its variant can run the size (tuning.h),
 * else the backend's rule: the workitem variant where max(m, n) <= the backend's
 * getrf_workitem_to_s/_d, else the regs variant where max(m, n) <= getrf_regs_to_s/_d and
 * it can run, else the fused kernel where the matrix fits local memory and max(m, n) <= the
 * backend's getrf_crossover_s/_d, the blocked variant otherwise. Fails (nothing enqueued)
 * with BCHOL_ERR_UNSUPPORTED_SIZE where fused or regs is asked for and cannot run,
 * BCHOL_ERR_ARGUMENT on a malformed BCHOL_GETRF or CLBlast asked for without it.
 */
bchol_status bchol__getrf_choose(bchol_context *ctx, const char *routine, bchol_precision p,
                                 int m, int n, bchol_getrf_choice *c);

/* Enqueues the blocked getrf of a checked batch with m, n > 0 and batch > 0:
 * per nb-wide block column j, the panel (getrf_fused.cl on A(j:m, j:j+jb), in local memory
 * where it fits, else in place), the interchanges left and right of it with U12 =
 * L11**-1 A12 (getrf_swap_trsm), and A22 -= L21*U12 (bchol's batched GEMM or CLBlast's). */
bchol_status bchol__getrf_blocked(bchol_call *call, bchol_precision p, const bchol_getrf_choice *c,
                                  int pivot, int m, int n, cl_mem A, int64_t offset_a, int lda,
                                  int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                  int64_t stride_p, int64_t batch, cl_mem info);

/* ---- the workitem variant (getrf_workitem.c, cl_kernels/lu/getrf_workitem.cl) -------- */

/* BCHOL_ERR_UNSUPPORTED_SIZE where the workitem getrf's loops on m-by-n matrices (k =
 * min(m, n), or the largest of a variable-size batch) would outrun the device's loop limit
 * (bchol__check_loops). */
bchol_status bchol__getrf_workitem_loops(bchol_context *ctx, bchol_precision p, int m, int n, int k);
/* The backend's panel width for the workitem getrf of matrices up to max(m, n) = big
 * (getrf_workitem_nb, _nb2 from _nb2_from; 1: unblocked). */
int bchol__getrf_workitem_nb(const bchol_context *ctx, int big);
/* Enqueues the workitem getrf of a variable-size batch after its device checks (matrices
 * with info[b] != 0 or m[b], n[b] = 0 untouched): one work-item a matrix, group per
 * work-group (<= 0: 8), vectors sized for max_m, panels of wb columns (<= 1: unblocked). */
bchol_status bchol__getrf_workitem_vbatched(bchol_call *call, bchol_precision p, int group, int wb,
                                            int max_m, cl_mem m, cl_mem n, cl_mem lda,
                                            cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                            cl_mem ipiv, int64_t batch, cl_mem info);

/* Enqueues the workitem getrf of a checked batch with m, n > 0 and batch > 0: group
 * matrices (one a work-item) per work-group (<= 0: 8), panels of wb columns (<= 0: the
 * driver's; 1: unblocked). */
bchol_status bchol__getrf_workitem(bchol_call *call, bchol_precision p, int group, int wb, int pivot,
                                   int m, int n, cl_mem A, int64_t offset_a, int lda,
                                   int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                   int64_t stride_p, int64_t batch, cl_mem info);

/* ---- the regs variant (getrf_regs.c, cl_kernels/lu/getrf_regs.cl) --------------------- */

/* 1 where the regs kernel can factor m-by-n matrices on ctx's device: m work-items fit a
 * work-group and the pivot keys and row (m + n elements) fit local memory. */
int bchol__getrf_regs_fits(const bchol_context *ctx, bchol_precision p, int m, int n);
/* BCHOL_ERR_UNSUPPORTED_SIZE, naming routine and the limit, where it cannot (builds
 * nothing). */
bchol_status bchol__getrf_regs_check(bchol_context *ctx, const char *routine, bchol_precision p,
                                     int m, int n);
/* Enqueues the regs getrf of a checked batch with m, n > 0 and batch > 0: tbc matrices per
 * work-group (<= 0: about 128 work-items). */
bchol_status bchol__getrf_regs(bchol_call *call, bchol_precision p, int tbc, int pivot, int m,
                               int n, cl_mem A, int64_t offset_a, int lda, int64_t stride_a,
                               cl_mem ipiv, int64_t offset_p, int64_t stride_p, int64_t batch,
                               cl_mem info);

#endif /* BCHOL_LU_H */
