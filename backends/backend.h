/* What differs per device family: identity normalization, build quirks and default
 * parameters. One file per family; registry.c lists them in matching order. */
#ifndef BCHOL_BACKEND_H
#define BCHOL_BACKEND_H

#include "bchol.h"

typedef struct bchol_backend {
    const char *family;
    /* 1 if this backend drives the device (raw fields of info are filled). */
    int (*matches)(cl_platform_id platform, cl_device_id device, const bchol_device_info *info);
    /* Normalizes info->vendor, ->architecture and ->name in place. */
    void (*identify)(cl_device_id device, bchol_device_info *info);
    /* Extra OpenCL C build options this family always wants ("" if none). */
    const char *build_options;
    /* 1: keep built binaries in bchol's on-disk cache (drivers without their own). */
    int binary_cache;
    /* Defaults for the fused kernel at this precision ('s'/'d') and n. */
    void (*fused_defaults)(char precision, int n, bchol_params *params);
    /* Bytes of local memory per work-group the driver keeps for itself (NVIDIA reserves
     * 1 KiB per block from sm_80 on: a kernel asking for all 48 KiB fails at launch). */
    int local_mem_reserve;
    /* A panel width (ib) whose double fused kernels the device's compiler aborts on (PoCL
     * 3.1: 2), refused with BCHOL_ERR_BUILD instead of taking the process down; 0: none. */
    int broken_fused_ib_d;
    /* Most work-groups one launch may hold (grid limits of the driver). */
    int64_t max_groups_per_launch;
    /* Defaults for the solve at this precision ('s'/'d'), n and nrhs. */
    void (*solve_defaults)(char precision, int n, int nrhs, bchol_solve_params *params);
    /* Defaults for the separate variant at this precision and n (nb, pb, gemm, tile, gb). */
    void (*separate_defaults)(char precision, int n, bchol_params *params);
    /* Largest n the dispatcher gives the fused variant, per precision; above it (or where
     * the fused kernel cannot hold n) it runs the separate variant. */
    int crossover_s, crossover_d;
    /* getrf: the largest max(m, n) the dispatcher gives the fused LU kernel (where the
     * matrix fits local memory), per precision; above it the blocked variant, with panels
     * of getrf_nb columns. */
    int getrf_crossover_s, getrf_crossover_d, getrf_nb;
    /* getrf: the smallest max(m, n) from which the blocked variant's double trailing update
     * goes through CLBlast's GEMM where bchol has it (0: never; float always bchol's). */
    int getrf_clblast_d_from;
    /* getrf: work-items the fused kernel's groups aim at (matrices of lx work-items each
     * share one); 0: 32. */
    int getrf_group;
    /* getrf: the largest max(m, n) the dispatcher gives the workitem variant (one work-item
     * per matrix, cl_kernels/lu/getrf_workitem.cl), per precision; 0: never. */
    int getrf_workitem_to_s, getrf_workitem_to_d;
    /* getrf: the workitem variant's panel width (its getf2 blocked within the work-item):
     * getrf_workitem_nb below max(m, n) = getrf_workitem_nb2_from, getrf_workitem_nb2 from
     * there (0: 1, unblocked), both precisions. */
    int getrf_workitem_nb, getrf_workitem_nb2, getrf_workitem_nb2_from;
    /* getrf: the largest max(m, n) the dispatcher gives the regs variant (a work-item per
     * row, cl_kernels/lu/getrf_regs.cl) where the workitem variant does not take it, per
     * precision; 0: never. */
    int getrf_regs_to_s, getrf_regs_to_d;
    /* getri (host/lu/getri_batched.c): the fused dgetri kernel for getri_fused_from <= n <=
     * getri_fused_to_s/_d (capped at BCHOL_GETRI_FUSED_MAX), else the solve of A*C = I up
     * to getri_solve_to_s/_d, else the blocked dgetri with block columns of getri_nb_s/_d
     * (0: 32), per precision. */
    int getri_fused_from, getri_fused_to_s, getri_fused_to_d;
    /* getrf_vbatched (host/lu/getrf_vbatched.c) where the largest matrix does not fit the
     * fused kernel: 1 sends every matrix to the blocked path, 0 keeps the fused kernel for
     * those that fit it; the blocked path's panel width (0: getrf_nb). */
    int getrf_vb_all_blocked, getrf_vb_nb;
    /* getrf_vbatched: 1 runs the workitem kernel (a work-item per matrix, no barriers) on
     * the whole batch where params ask for nothing else (CPUs). */
    int getrf_vb_workitem;
    int getri_solve_to_s, getri_solve_to_d, getri_nb_s, getri_nb_d;
    /* Variable-size batches: the fused kernel's tbc, shape and order for a fused share of
     * largest order n (its ib and rpt are fused_defaults'), and the largest n of that share
     * when a batch's max_n is above crossover_s/_d (the split of a batch that straddles it;
     * 0: the separate variant takes every matrix). */
    void (*vbatched_defaults)(char precision, int n, bchol_vbatched_params *params);
    int vbatched_crossover_s, vbatched_crossover_d;
    /* Variable sizes, variant AUTO: the largest n[b] the workitem kernel takes (one
     * work-item per matrix, cl_kernels/chol/potrf_workitem.cl), the separate variant the
     * larger ones, in place of the fused kernel's share; 0: never (GPUs). */
    int vbatched_workitem_to_s, vbatched_workitem_to_d;
    /* Variable sizes, schedule left to the library: a batch the device holds at once
     * (batch * max_n at most this many per compute unit) runs every step in one launch
     * (BCHOL_SCHEDULE_ONE_LAUNCH), where a launch per step adds only its gaps; 0: never.
     * Only up to max_n = vbatched_one_launch_max_n (0: up to the fused share's crossover). */
    int vbatched_one_launch_per_cu, vbatched_one_launch_max_n;
    /* Interleaved variant: defaults of its fields (nb, looking, unroll, chunking, chunk,
     * math) at this precision and n, and the variant strided batches use. */
    void (*interleaved_defaults)(char precision, int n, bchol_params *params);
    bchol_variant (*strided_variant)(char precision, int n);
    /* Workitem variant (cl_kernels/chol/potrf_workitem.cl): defaults of its fields (wnb,
     * wvec, wmr, wgroup); NULL: the generic backend's. */
    void (*workitem_defaults)(char precision, int n, bchol_params *params);
    /* Interleaved solve (cl_kernels/chol/potrs_interleaved.cl): rows per register block at this
     * precision and n, or 0 to keep the whole right-hand-side tile in private memory. */
    int (*interleaved_solve_block)(char precision, int n);
    /* 1: the variable-size separate kernels run their barrier loops to a bound fixed at
     * build time (-D UNIFORM_LOOPS=1, cl_kernels/blas/gemm_tile.cl), not to the order each
     * work-group reads from memory. */
    int uniform_barrier_loops;
    /* What the driver must be told through the process environment before bchol builds
     * anything on it (NULL: nothing). Called at every context creation on such a device. */
    void (*prepare_driver)(const bchol_device_info *info);
} bchol_backend;

/* The backend for a device (the generic one if no other matches). */
const bchol_backend *bchol__backend_for(cl_platform_id platform, cl_device_id device,
                                        const bchol_device_info *info);

/* Shared helpers for identify(): normalized vendor name from CL_DEVICE_VENDOR. */
void bchol__normalize_vendor(char *vendor, size_t size);

extern const bchol_backend bchol__backend_nvidia;
extern const bchol_backend bchol__backend_pocl;
extern const bchol_backend bchol__backend_generic;

#endif
