/* What the LU solvers share (getrs, gesv, getri and the gesv host form): the substitution
 * kernel of cl_kernels/lu/getrs.cl or the workitem one of cl_kernels/lu/getrs_workitem.cl,
 * planned then enqueued, and the checks of the arguments they have in common. Never
 * installed. */
#ifndef BCHOL_LU_SOLVE_H
#define BCHOL_LU_SOLVE_H

#include "lu/lu.h"

/* The getrs or getri kernel, built and fitted to the device for one problem shape; made
 * before anything is enqueued, so that gesv fails before it factors. */
typedef struct {
    cl_kernel kernel;
    bchol_solve_params prm; /* as fitted: nt halves to nrhs, rpt may grow, tbc shrink;
                               variant BCHOL_SOLVE_WORKITEM: the workitem kernel's */
    int n, nrhs;
    int vw; /* the workitem kernel's vector width */
} bchol_lu_solve_plan;

/* BCHOL_LU_SOLVE_SHAPE="nt,rpt,tbc" (each 1..32, 1..64, 1..64) into prm's nt, rpt, tbc:
 * 1, else 0 (unset or malformed) with prm untouched. Tests use it to reach every shape. */
int bchol__lu_solve_shape_env(bchol_solve_params *prm);
/* The variant and shape the LU solve starts from for (n, nrhs), before fitting:
 * BCHOL_LU_SOLVE_SHAPE (the substitution kernel in that shape; the workitem kernel with
 * its nt where BCHOL_LU_SOLVE_VARIANT=workitem), else BCHOL_LU_SOLVE_VARIANT=subst|workitem,
 * else the backend's solve variant (solve_defaults: the workitem kernel on PoCL); the
 * substitution kernel's shape from the tuning table's getrs entry (one whose group the
 * device takes at n), else the backend's solve defaults; the workitem kernel's nt and vw
 * from its getrs-workitem entry, else the defaults' nt. *vw: the workitem kernel's vector
 * width (BCHOL_LU_SOLVE_WORKITEM_VW=1|2|4|8|16, else the entry's, else 8). why (may be
 * NULL) says which (lu_solve_shape.c). */
void bchol__lu_solve_shape(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                           bchol_solve_params *prm, int *vw, char *why, size_t size);

/* The variant the LU solve runs: want where it names one (a caller's params), else
 * BCHOL_LU_SOLVE_VARIANT=subst|workitem, else the backend's solve variant at (n, nrhs). */
bchol_solve_variant bchol__lu_solve_variant(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                                            bchol_solve_variant want);
/* The workitem kernel's vector width: BCHOL_LU_SOLVE_WORKITEM_VW=1|2|4|8|16, else 8. */
int bchol__lu_solve_workitem_vw(void);
/* The workitem kernel's getrs-workitem entry at (n, nrhs): *nt its nt (0 without an entry)
 * and *vw BCHOL_LU_SOLVE_WORKITEM_VW, else the entry's, else 8 (the vbatched solve's, at
 * the largest n and nrhs; the fixed-size solve's through bchol__lu_solve_shape). */
void bchol__lu_solve_workitem_tuned(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                                    int *nt, int *vw);

/* The workitem solve (getrs_workitem.c): one work-item per system, no barriers (CPUs).
 * kernel: "getrs_workitem", "getri_workitem" (trans 0, nrhs = n) or
 * "getrs_workitem_vbatched" (n and nrhs the largest); prm->nt right-hand sides a pass
 * (narrowed to nrhs), vector width vw. */
bchol_status bchol__getrs_workitem_plan(bchol_context *ctx, bchol_precision p,
                                        const bchol_solve_params *prm, int vw, int trans,
                                        const char *kernel, int n, int nrhs,
                                        bchol_lu_solve_plan *plan);
/* Enqueues a workitem plan on a checked batch: getrs (info not NULL: skip info != 0) or,
 * with getri set, getri (info written). */
bchol_status bchol__getrs_workitem_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan,
                                           int getri, cl_mem A, int64_t offset_a, int lda,
                                           int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                           int64_t stride_p, cl_mem B, int64_t offset_b, int ldb,
                                           int64_t stride_b, int64_t batch, cl_mem info);
/* The same for the variable-size plan (systems with info[b] != 0, n[b] = 0 or nrhs[b] = 0
 * keep B_b). */
bchol_status bchol__getrs_workitem_vbatched_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan,
                                                    cl_mem n, cl_mem nrhs, cl_mem lda, cl_mem ldb,
                                                    cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                                    cl_mem ipiv, cl_mem offsets_b, cl_mem B,
                                                    int64_t batch, cl_mem info);

/* The plan of getrs (trans 0/1, nrhs right-hand sides) or, with getri = 1, of getri
 * (nrhs = n, trans 0), from bchol__lu_solve_shape's shape fitted to the built kernel. */
bchol_status bchol__lu_solve_plan(bchol_context *ctx, bchol_precision p, int trans, int getri,
                                  int n, int nrhs, bchol_lu_solve_plan *plan);

/* The plan of the variable-size solve for the largest n and nrhs: the variant as
 * bchol__lu_solve_variant says (params' where it names one); the substitution kernel
 * (getrs_vbatched, one tile a work-group) takes nt and rpt from params (may be NULL;
 * fields <= 0 take the defaults), BCHOL_LU_SOLVE_SHAPE overrides both and the variant;
 * the workitem kernel takes params' nt. max_n, max_nrhs > 0. */
bchol_status bchol__getrs_vbatched_plan(bchol_context *ctx, bchol_precision p,
                                        const bchol_solve_params *params, int trans, int max_n,
                                        int max_nrhs, bchol_lu_solve_plan *plan);
/* Enqueues the variable-size solve of a checked batch (either variant): matrices with
 * info[b] != 0, n[b] = 0 or nrhs[b] = 0 are skipped (B_b untouched). */
bchol_status bchol__getrs_vbatched_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan,
                                           cl_mem n, cl_mem nrhs, cl_mem lda, cl_mem ldb,
                                           cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                           cl_mem ipiv, cl_mem offsets_b, cl_mem B, int64_t batch,
                                           cl_mem info);

/* Enqueues the getrs solve of a checked batch with n, nrhs, batch > 0. With info not NULL
 * (gesv), a matrix whose info is not zero keeps its B. */
bchol_status bchol__getrs_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan, cl_mem A,
                                  int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                  int64_t offset_p, int64_t stride_p, cl_mem B, int64_t offset_b,
                                  int ldb, int64_t stride_b, int64_t batch, cl_mem info);

/* Enqueues getri (C = inv(A), info from U's diagonal) of a checked batch, n, batch > 0. */
bchol_status bchol__getri_enqueue(bchol_call *call, const bchol_lu_solve_plan *plan, cl_mem A,
                                  int64_t offset_a, int lda, int64_t stride_a, cl_mem ipiv,
                                  int64_t offset_p, int64_t stride_p, cl_mem C, int64_t offset_c,
                                  int ldc, int64_t stride_c, int64_t batch, cl_mem info);

/* Checks of a strided batch of pivots (n per matrix; positions of offset_p and stride_p):
 * offset_p >= 0 and stride_p >= n. */
bchol_status bchol__check_pivot_args(bchol_context *ctx, const char *routine, int pos_offset,
                                     int n, int64_t offset_p, int64_t stride_p);
/* Bytes the pivots of a batch span (0 where n = 0 or batch = 0; UINT64_MAX on overflow). */
uint64_t bchol__pivot_bytes(int n, int64_t offset_p, int64_t stride_p, int64_t batch);

/* The common body of bchol_{s,d}gesv_batched, also run by the host form on its pieces. */
bchol_status bchol__gesv_batched(bchol_context *ctx, const char *routine, bchol_precision p,
                                 int n, int nrhs, cl_mem A, int64_t offset_a, int lda,
                                 int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                 int64_t stride_p, cl_mem B, int64_t offset_b, int ldb,
                                 int64_t stride_b, int64_t batch, cl_mem info, cl_event *event);

#endif /* BCHOL_LU_SOLVE_H */
