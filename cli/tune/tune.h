/* bchol tune: the pieces of the tuner, one file each.
 *   tune_<variant>.c  a variant's search space: parameter names, candidate values, pruning
 *                     rules, how to build and run one candidate (listed in tune_variants.c):
 *                     the Cholesky variants (fused, separate, interleaved, workitem,
 *                     vbatched), the solves (solve, solve_workitem), getrf's (getrf), the
 *                     LU solves (getrs, getrs_workitem) and getri's path and nb (getri)
 *   tune_workload.c   a strided batch on the device, its reference results and checks
 *   tune_file.c       the tuning file as a cJSON document: tried records, chosen entries,
 *                     atomic saves every few seconds (so a killed run resumes)
 *   tune_output.c     the output's lock (one tuner per file), write check, temporary files
 *   tune_check.c      strict values shared by the command line and files; records' checks
 *   tune_prebuild.c   builds in child processes: ahead of the timing, under a time limit
 *   tune_report.c     bchol tune --report
 *   cmd_tune.c        options, the sweep, progress and ETA on stderr
 */
#ifndef BCHOL_TUNE_H
#define BCHOL_TUNE_H

#include "bchol.h"

#include <cjson/cJSON.h>
#include <signal.h>
#include <stddef.h>

#define TUNE_MAX_PARAMS 8
#define TUNE_MAX_VALUES 32
#define BCHOL_TUNING_FILE_VERSION 1 /* the format the library reads (host/tuning/tuning.h) */

/* What candidate lists and pruning rules may depend on: the device and the problem. */
typedef struct {
    bchol_device_info dev;
    char precision; /* 's' or 'd' */
    int n;
    bchol_params defaults; /* the backend's (bchol_potrf_params without a tuning file) */
    int vb_crossover;      /* vbatched: the largest order its fused kernel takes */
    int nrhs;              /* the solve: right-hand sides per matrix (0 for the factorizations) */
} tune_target;

/* Small helpers the variants' search spaces share. */
static inline int tune_is_gpu(const tune_target *t) { return (t->dev.type & CL_DEVICE_TYPE_GPU) != 0; }
static inline int tune_elem(const tune_target *t) { return t->precision == 'd' ? 8 : 4; }
static inline int tune_ceil_div(int a, int b) { return (a + b - 1) / b; }
/* Copies up to max of the count values of list into out; returns how many. */
static inline int tune_copy_list(const int *list, int count, int *out, int max)
{
    int k = 0;
    for (int i = 0; i < count && k < max; i++) out[k++] = list[i];
    return k;
}

/* ---- variants (tune_<variant>.c) ------------------------------------------------- */

struct tune_workload;

/* What one configuration runs: the fixed-size variants read p; vbatched also its early
 * termination, schedule and order (with p's fused fields); the solve reads solve only. */
typedef struct {
    bchol_params p;
    bchol_etm etm;
    bchol_schedule schedule;
    bchol_order order;
    bchol_solve_params solve;
    int solve_vw;             /* the workitem solve's vector width (solve.variant WORKITEM) */
    bchol_getrf_config getrf; /* getrf's variants */
    bchol_getri_config getri; /* getri's path and nb */
} tune_params;

typedef struct tune_variant {
    const char *name; /* as in tuning files and bchol_potrf_params: "fused" */
    bchol_variant variant;
    /* 1: times the workload's variable sizes (vbatched), so it competes with no other
     * variant; 0: the strided batch of order n */
    int variable_sizes;
    /* 1: times the solve (potrs) with the workload's factors and right-hand sides, once per
     * nrhs of the sweep (--nrhs), which is part of the problem: records and entries carry
     * it, and it competes with no other variant */
    int solve;
    /* 1: times the routine on data already interleaved (the factorization alone), which
     * competes with no other variant either: the entries the native routines run */
    int native;
    /* 1: times getrf (tune_getrf.c) on the workload's LU batch, checked as LU; its variants
     * compete with each other only, and are swept only where --variants names them
     * ("getrf" names them all). With solve or own_round, another LU routine on getrf's
     * factors of that batch (getrs, getrs-workitem, getri), likewise only where named. */
    int lu;
    /* 1: competes with no other variant, not even at the same nrhs (another routine, or
     * entries that shape another kernel: getrs, getrs-workitem, getri): its finalists are
     * confirmed in a round of their own per size and nrhs (cmd_tune.c, variant_round), so
     * that sweeping it re-times no other variant's finalists, and it is in no crossover
     * (tune_report.c) */
    int own_round;
    /* 1: on CPUs swept only where --variants names it. There the library runs the
     * workitem kernels on its own (strided and variable-size batches, the solve, up to
     * n = 512; PoCL's backend), so the fused, separate, vbatched and substitution-solve
     * entries shape kernels a CPU runs only when a caller asks for them; the interleaved
     * routines' own entries (interleaved-native) take the backend's defaults there. A
     * CPU's default plan (workitem, interleaved, solve-workitem) then takes minutes. */
    int gpu_default;
    /* 1: in the default plan (no --variants) on CPUs only; GPUs sweep it only where named
     * (the workitem solve, which the backends run on CPUs) */
    int cpu_default;
    /* The dense probes (--probe-every-to): how many fastest configurations of each of the
     * nearest measured sizes every size between the grid's measures (0: none). The fused
     * kernel's best configuration changes irregularly from one size to the next (on the
     * H200, float tbc 8 is best at 28, tbc 2 at 30 by 16%), which no rule on the grid's
     * sizes predicted (docs/results/2026-11-25-h200-probe-points); fused takes 2, the
     * others their fastest, so that each size compares the variants on its own times.
     * Measured on the H200 with full fused sweeps at the grid's sizes: 40 of 41 held-out
     * picks within 5% of an exhaustive search; float 28's best (7.6% ahead) is slow at
     * every size around it, so no candidate rule finds it
     * (docs/results/2026-11-25-h200-dense-probes). */
    int probe_every_k;
    int nparams;
    const char *const *param_names; /* keys of "params" in tuning files */
    /* Bit i set: parameter i is a launch argument, not part of any program the prepare
     * builds, so configurations that differ only there share their builds (the build
     * processes build one of them: tune_prebuild.c). */
    unsigned launch_params;
    /* Bit i set: 0 is one of parameter i's values of its own (getri's nb: a path without
     * panels; getrf-blocked's ib: no inner panels), which --set may name; other parameters'
     * values start at 1, and a --set 0 leaves them out of this variant's plan. */
    unsigned zero_params;
    /* Bit i set: records written before parameter i existed lack it; read as 0. */
    unsigned optional_params;
    /* labels[i]: NULL if parameter i is a plain integer, else a NULL-terminated list: value v
     * is written labels[i][v] */
    const char *const *const *labels;
    /* Candidate values of parameter i for the target, in sweep order; returns the count. */
    int (*values)(int param, const tune_target *t, int *out, int max);
    /* NULL if the configuration can run; else a short category ("local memory", ...) and
     * the details in why. Configurations pruned here are only counted, never built. */
    const char *(*prune)(const int *cfg, const tune_target *t, char *why, size_t size);
    void (*to_params)(const int *cfg, tune_params *p);
    void (*from_params)(const tune_params *p, int *cfg);
    /* The configuration the untuned library runs (the backend's defaults). */
    void (*defaults)(bchol_context *ctx, const tune_target *t, int *cfg);
    /* Builds what a run needs; the parameters that will actually run in *effective. */
    bchol_status (*prepare)(bchol_context *ctx, const tune_target *t, char uplo,
                            const tune_params *p, tune_params *effective);
    /* Enqueues one run on the workload's batch; the timed call is its last library call. */
    bchol_status (*run)(bchol_context *ctx, const tune_target *t, struct tune_workload *w,
                        const tune_params *p);
    /* NULL, or what follows a run before its results are checked (not timed). */
    bchol_status (*after)(bchol_context *ctx, const tune_target *t, struct tune_workload *w,
                          const tune_params *p);
    /* NULL, or the check of the first run's results (0, or -1 with why) in place of the one
     * the flags imply (tune_measure: verify_getrs, verify_solve, verify_lu, verify) */
    int (*verify)(struct tune_workload *w, const tune_target *t, char *why, size_t size);
} tune_variant;

extern const tune_variant *const tune_variants[]; /* NULL-terminated */
/* At most this many variants (tune_variants.c checks it when compiled): per-variant tables
 * of the plan and the report are this long. */
#define TUNE_MAX_VARIANTS 32
/* The substitution solve's space (tune_solve.c), which the LU solve's variant
 * (tune_getrs.c) shares: parameters nt, rpt, tbc in that order, their names, candidates,
 * pruning and conversions to and from the solve's params. */
extern const char *const tune_solve_names[];
extern const char *const *const tune_solve_labels[];
int tune_solve_values(int param, const tune_target *t, int *out, int max);
const char *tune_solve_prune(const int *cfg, const tune_target *t, char *why, size_t size);
void tune_solve_to_params(const int *cfg, tune_params *t);
void tune_solve_from_params(const tune_params *t, int *cfg);
/* bchol_potrs_prepare and bchol_{s,d}potrs_batched_ex with the configuration's params on
 * the workload's factors and right-hand sides (the workitem solve's variant wraps them) */
bchol_status tune_solve_prepare(bchol_context *ctx, const tune_target *t, char uplo, const tune_params *p,
                                tune_params *effective);
bchol_status tune_solve_run(bchol_context *ctx, const tune_target *t, struct tune_workload *w,
                            const tune_params *p);
/* The workitem solve's space (tune_solve_workitem.c), which the workitem LU solve's
 * variant (tune_getrs_workitem.c) shares: nt and vw in that order. */
extern const char *const tune_solve_workitem_names[];
extern const char *const *const tune_solve_workitem_labels[];
int tune_solve_workitem_values(int param, const tune_target *t, int *out, int max);
const char *tune_solve_workitem_prune(const int *cfg, const tune_target *t, char *why, size_t size);
void tune_solve_workitem_to_params(const int *cfg, tune_params *t);
void tune_solve_workitem_from_params(const tune_params *t, int *cfg);
/* bchol_{s,d}getrs_batched ('N') on the workload's LU factors and right-hand sides (made
 * on first use), as the library's overrides then say: the LU solves' runs */
bchol_status tune_getrs_call(bchol_context *ctx, const tune_target *t, struct tune_workload *w);
const tune_variant *tune_variant_named(const char *name);

/* prepare and run of the variants that factor strided batches (fused, separate,
 * interleaved): bchol_potrf_prepare and bchol_{s,d}potrf_batched_ex with the candidate's
 * params, so that what is timed is what the dispatcher would run (conversions included). */
bchol_status tune_strided_prepare(bchol_context *ctx, const tune_target *t, char uplo,
                                  const tune_params *p, tune_params *effective);
bchol_status tune_strided_run(bchol_context *ctx, const tune_target *t, struct tune_workload *w,
                              const tune_params *p);

/* "ib=8 tbc=1 rpt=4 shape=fixed" */
void tune_format_config(const tune_variant *v, const int *cfg, char *out, size_t size);
/* The params object of a tuning file for cfg; and back (-1 if a key is missing or bad). */
cJSON *tune_config_json(const tune_variant *v, const int *cfg);
int tune_config_from_json(const tune_variant *v, const cJSON *params, int *cfg);

/* ---- workload (tune_workload.c) --------------------------------------------------- */

#define TUNE_SAMPLES 5

/* A strided batch of random SPD matrices (lda = n, stride = n*n) with one matrix broken
 * at a known pivot, its pristine copy on the device, and reference results for a sample.
 * For the solve (max_nrhs > 0) also the batch's factors (the broken matrix's partial) and
 * random right-hand sides: a pristine copy and a working one, each of batch*n*max_nrhs
 * elements; a run with nrhs right-hand sides reads the first batch*n*nrhs of them (ldb n,
 * stride n*nrhs). */
typedef struct tune_workload {
    bchol_context *ctx;
    char precision, uplo;
    int n;
    long long batch;
    size_t elem;
    cl_mem A0, A, info; /* pristine input, the working copy, info */
    int nsample;
    long long sample[TUNE_SAMPLES];
    int sample_info[TUNE_SAMPLES]; /* reference info of each sampled matrix */
    void *sample_in, *sample_out;  /* their input, and scratch for the output */
    int *info_host;
    /* The same matrices as a variable-size batch (vbatched): matrix b is the leading
     * vn[b]-by-vn[b] block of its n-by-n matrix, vn uniform in [1, n] (the broken one n). */
    cl_mem vn, vlda, voff; /* int, int, int64_t per matrix */
    int *vn_host;
    int max_nrhs;       /* 0: no solve buffers */
    cl_mem F, B0, B;    /* factors, pristine and working right-hand sides */
    cl_mem ilv;         /* the batch interleaved (interleaved-native; made at its first use) */
    size_t ilv_bytes;
    /* getrf's batch (made at its first use: tune_workload_lu): general matrices, uniform in
     * [-1, 1) so that the pivot search interchanges rows, but one with column n/2 zero
     * (info n/2 + 1), the sample's input, and the pivots */
    cl_mem lu0, ipiv;
    long long lu_batch; /* its matrices: batch, fewer on CPUs (tune_lu_batch) */
    int lu_nsample;
    long long lu_sample[TUNE_SAMPLES];
    void *lu_sample_in;
    int *ipiv_host;
    /* getrs' factors and pivots of getrf's batch (made at its first use:
     * tune_workload_getrs), apart from A and ipiv, which getrf's runs overwrite */
    cl_mem lu_f, lu_p;
} tune_workload;

/* The batch the tuner times at n: the bench's on GPUs, smaller on CPUs (a few tens of ms). */
long long tune_default_batch(const bchol_device_info *dev, char precision, int n);
int tune_workload_init(tune_workload *w, bchol_context *ctx, char precision, char uplo, int n,
                       long long batch, int max_nrhs, char *why, size_t size);
void tune_workload_free(tune_workload *w);
/* w->ilv of at least bytes (kept, or made again larger). 0, or -1. */
int tune_workload_ilv(tune_workload *w, size_t bytes);
/* The matrices getrf is timed on out of a workload of batch: batch on GPUs; on CPUs at most
 * about 1.5e8 * cores / n^3 (a run of some 1e8 flops a core, tens of ms for the good
 * configurations), at least 16 and 4 a core, so that every core has matrices (a batch of
 * 16 at n = 512 left 14 of the 16-core Xeon's cores idle and chose the blocked variant
 * there) and the slow configurations (the fused kernel on a CPU ran n = 64 at 4x the
 * workitem variant's time) do not dominate: PoCL's plan of n = 4..512, s and d (156
 * configurations) measured in 16 minutes on a 2-core EPYC loaded by other jobs. */
long long tune_lu_batch(const bchol_device_info *dev, int n, long long batch);
/* getrf's batch and pivots (kept once made). 0, or -1 with why. */
int tune_workload_lu(tune_workload *w, char *why, size_t size);
/* Copies getrf's pristine batch over the working copy (before a getrf run, not timed). */
int tune_workload_reset_lu(tune_workload *w);
/* Copies the pristine input over the working copy (not part of the timed call). */
int tune_workload_reset(tune_workload *w);
/* After a run: every info against the reference (all 0 but the broken matrix), and the
 * backward error of the sampled matrices (<= 30), of their leading vn-by-vn blocks when
 * variable_sizes. 0, or -1 with the first mismatch. */
int tune_workload_verify(tune_workload *w, int variable_sizes, char *why, size_t size);
/* After a getrf run on getrf's batch: every info (0, the singular matrix's n/2 + 1), and
 * LAPACK's xGET01 ratio ||P*A - L*U|| / (n ||A|| eps) of the sampled matrices with info 0
 * (<= 30). 0, or -1 with the first mismatch. */
int tune_workload_verify_lu(tune_workload *w, char *why, size_t size);
/* After a solve run with nrhs right-hand sides: the residual ||A*X - B|| / (||A|| ||X|| n
 * eps) of the sampled systems (<= 30; the broken matrix is not checked). 0, or -1. */
int tune_workload_verify_solve(tune_workload *w, int nrhs, char *why, size_t size);
/* getrs' factors: getrf's batch factored once by the library's own choice (kept once made).
 * 0, or -1 with why. */
int tune_workload_getrs(tune_workload *w, char *why, size_t size);
/* After a getrs run with nrhs right-hand sides on those factors: ||B - A*X|| / (||A|| ||X||
 * eps) of the sampled systems (<= 30; the singular matrix is not checked). 0, or -1. */
int tune_workload_verify_getrs(tune_workload *w, int nrhs, char *why, size_t size);
/* After a getri run on those factors (C in A, lda n, stride n*n): every info (0, the
 * singular matrix's n/2 + 1: its U(n/2+1, n/2+1) is the first zero), and ||I - A*C||_1 /
 * (n ||A||_1 ||C||_1 eps) of the sampled non-singular matrices (<= 30). 0, or -1 with the
 * first mismatch. */
int tune_workload_verify_getri(tune_workload *w, char *why, size_t size);

/* ---- the tuning file (tune_file.c) ------------------------------------------------- */

typedef struct {
    char path[4096];
    cJSON *root;
    cJSON *section; /* the section of the device being tuned */
    cJSON *tried;   /* its "tried" array */
    char **keys;    /* tune_record_key of each tried record, in order */
    unsigned char *in_space; /* per record: 1 if it may be chosen (tune_file_restrict) */
    int nkeys, cap;
} tune_file;

/* Opens path for the device: with resume, continues the file if it exists (the section of
 * this exact device, made if missing); without, refuses an existing file. */
int tune_file_open(tune_file *f, const char *path, int resume, const bchol_device_info *dev,
                   char *why, size_t size);
void tune_file_close(tune_file *f);
/* The identity key of a tried record ("s fused 16 {params}", "s solve 16 nrhs=1 {params}")
 * into out; everything before " {" names its group (precision, variant, size, nrhs). */
void tune_record_key(const cJSON *record, char *out, size_t size);
void tune_key(char precision, const char *variant, int n, int nrhs, const cJSON *params, char *out,
              size_t size);
/* A record's "nrhs" (solve records), else 0. */
int tune_record_nrhs(const cJSON *record);
/* The tried record with this key, or NULL. */
cJSON *tune_file_find(const tune_file *f, const char *key);
/* Appends a tried record (takes it). */
int tune_file_add(tune_file *f, cJSON *record);
/* Which records may be chosen: in_space(key) for each; records added later may. Records
 * of configurations the current space leaves out (an earlier run's) stay in the file but
 * no longer compete. */
void tune_file_restrict(tune_file *f, int (*in_space)(const char *key, void *user), void *user);
/* Whether record i (in the order of "tried") may be chosen. */
int tune_file_in_space(const tune_file *f, int i);
/* The measured records (a time, no failure) of a precision, variant, size and nrhs that
 * may be chosen, in the order of "tried", into out; returns how many (at most max). */
int tune_file_measured(const tune_file *f, char precision, const char *variant, int n, int nrhs,
                       const cJSON **out, int max);
/* Recomputes "chosen" of the device section (and of the derived "default" section that
 * --also-default asks for: level "architecture", "vendor" or "family"; NULL for none). */
void tune_file_update_chosen(tune_file *f, const char *also_default);
/* Chooses the entries of every device section of the file at path again from its tried
 * records (all of them: the file keeps no plan), and its derived default sections, and
 * saves it: for a file tuned before a change of how entries are chosen. 0, or -1 with why. */
int tune_file_rechoose(const char *path, char *why, size_t size);
/* Writes the document: a temporary file, then rename (a killed run leaves a whole file). */
int tune_file_save(const tune_file *f, char *why, size_t size);
/* Loads and parses any JSON file (NULL with why on failure). */
cJSON *tune_json_load(const char *path, char *why, size_t size);

/* ---- checks shared by the command line and the files (tune_check.c) ------------------ */

#define TUNE_MAX_N (1 << 20)      /* sizes and right-hand sides (--n, --nrhs, records) */
#define TUNE_MAX_BATCH 0x7fffffff /* --batch, records' batch */
#define TUNE_MAX_REPS 10000       /* --reps, --warmup */

/* text: an integer written as one (digits, an optional sign) within [lo, hi]: 0 with *out,
 * or -1. */
int tune_text_int(const char *text, long long lo, long long hi, long long *out);
/* text: a finite number, nothing after it: 0 with *out, or -1. */
int tune_text_real(const char *text, double *out);
/* v: a JSON number that is an integer within [lo, hi] (checked before any conversion): 0
 * with *out, or -1. */
int tune_json_int(const cJSON *v, long long lo, long long hi, long long *out);
/* v as the command line would write it ("4", "1.5", "s"), for messages and for checking a
 * file's value as the option's text. */
void tune_json_text(const cJSON *v, char *out, size_t size);
/* Every record of the file's "tried" and "chosen" lists: an object with precision "s" or "d",
 * a variant's name, n and nrhs (if any) in 1..TUNE_MAX_N, batch in 1..TUNE_MAX_BATCH, times
 * finite and >= 0. 0, or -1 with why (naming the file and the record's path). */
int tune_records_check(const cJSON *root, const char *path, char *why, size_t size);

/* ---- the output as a shared place (tune_output.c) --------------------------------- */

/* Takes OUTPUT.lock (beside the output, made if missing, no link followed) for this process
 * until tune_output_unlock or exit (which remove it): 0; -1 with why, *held = 1 when another
 * process holds it (why names its pid). One output per process. */
int tune_output_lock(const char *output, int *held, char *why, size_t size);
void tune_output_unlock(void);
/* Whether output can be saved: a new file can be made in its folder and it is no folder
 * itself. 0, or -1 with why. */
int tune_output_writable(const char *output, char *why, size_t size);
/* A new temporary file in output's folder (.NAME.tmp.XXXXXX, created exclusively by mkstemp,
 * no link followed) with the mode output has, or a new file's: its descriptor, with its path
 * in tmp; -1 with errno. */
int tune_output_temp(const char *output, char *tmp, size_t size);

/* ---- the sweep (tune_plan.c, tune_measure.c, tune_prebuild.c, cmd_tune.c) -------------- */

#define TUNE_MAX_SIZES 128
#define TUNE_MAX_SETS 16

/* --set NAME=LIST: a parameter's candidates instead of the variant's own. */
typedef struct {
    char name[32];
    int count;
    int values[TUNE_MAX_VALUES];
} tune_value_set;

/* What is swept. */
typedef struct {
    int sizes[TUNE_MAX_SIZES], nsizes;
    char precisions[3]; /* "s", "d" or "sd" */
    char variants[128]; /* comma-separated names */
    int nrhs[TUNE_MAX_SIZES], nnrhs; /* the solve's right-hand-side counts (--nrhs) */
    double fraction;    /* of each size's configurations, drawn with seed */
    unsigned long long seed;
    tune_value_set sets[TUNE_MAX_SETS];
    int nsets;
    /* --full-to VARIANT=N: every configuration of that variant at the sizes up to N,
     * whatever the fraction (full_variant empty: none) */
    char full_variant[32];
    int full_to;
    /* --probe-full-to N: that variant's every configuration at the probed sizes up to N
     * too (the midpoints and the dense probes), in place of the probes' candidates */
    int probe_full_to;
} tune_space;

/* How each configuration is run and timed. */
typedef struct {
    char uplo;
    int reps, warmup;
    int use_min; /* the fastest timed run counts instead of the median */
} tune_timing;

/* One configuration to measure. */
typedef struct {
    char precision;
    int n;
    const tune_variant *v;
    int nrhs; /* the solve's (0 for the factorizations) */
    int cfg[TUNE_MAX_PARAMS];
    int is_default; /* the backend defaults: what the untuned library runs */
    char key[512];  /* tune_key: identifies its record in the file */
} tune_item;

typedef struct {
    tune_item *items;
    int count, cap;
} tune_plan;

/* Appends every configuration of the space on this device (ctx gives the backend
 * defaults); pruned ones are counted into the array pruned, replacing earlier counts of
 * the same precision, variant and size. */
int tune_plan_make(tune_plan *p, const tune_space *space, bchol_context *ctx,
                   const bchol_device_info *dev, cJSON *pruned);
/*
 * The probes between the grid's sizes (--probe-between k), planned once the grid is
 * measured: for each two neighbouring sizes lo < hi of the space (hi - lo >= 2), each
 * precision and each variant that factors strided batches (not vbatched, not the solve)
 * measured at both, the size halfway between with the configurations that did best at the
 * ends by the sweep's times: the k fastest at each end, k more among those measured at
 * both (the smallest worse ratio to the two ends' best first), and the defaults. So that
 * size gets entries of its own at a few configurations' cost. Appends them to p in sweep
 * order; returns how many, or -1.
 */
int tune_plan_probes(tune_plan *p, const tune_space *space, const tune_file *f, bchol_context *base,
                     const bchol_device_info *dev, int k);
/* The dense probes (--probe-every-to), planned once the midpoints are measured: every
 * other size strictly between two neighbouring grid sizes lo < hi <= every_to, between
 * its nearest measured sizes (lo or the midpoint below it, the midpoint or hi above), with
 * each variant's probe_every_k (the midpoint's rule with k = probe_every_k, without the
 * defaults: they are measured at the grid's sizes and the midpoints). A variant whose best
 * at both ends is over TUNE_PROBE_EVERY_SLACK times the fastest strided variant's is not
 * probed there. Returns how many, or -1. */
int tune_plan_probes_every(tune_plan *p, const tune_space *space, const tune_file *f, bchol_context *base,
                           const bchol_device_info *dev, int every_to);
#define TUNE_PROBE_EVERY_SLACK 1.5
void tune_plan_free(tune_plan *p);

/* Builds, verifies and times one configuration; the record for the file. */
cJSON *tune_measure(const tune_timing *timing, bchol_context *ctx, const tune_target *t,
                    tune_workload *w, const tune_item *it);

/*
 * The confirmation round of a size: its fastest configurations and the defaults are timed
 * again in interleaved rounds (--reps of them), so that load that came and went during
 * the sweep hits all of them alike; "confirm_ms" in their records then decides the
 * chosen entry. 0, or -1 with why.
 */
#define TUNE_CONFIRM_BEST 3
#define TUNE_CONFIRM_MAX 16
int tune_confirm(const tune_timing *timing, bchol_context *ctx, const tune_target *t,
                 tune_workload *w, cJSON *const *records, int count, char *why, size_t size);

/* The record of a configuration that was not measured because its build failed (why). */
cJSON *tune_record_failed(const tune_workload *w, const tune_item *it, const char *why, double seconds);

/*
 * Builds in child processes (tune_prebuild.c): each configuration of the sweep is built by
 * a build process with a time limit, up to jobs - 1 of them at once ahead of the one being
 * timed (one at a time with jobs = 1), so that the parent's own build is a load from the
 * on-disk caches. A build process builds one configuration after another. Used when
 * timeout_s > 0 or jobs > 1; otherwise the caller builds.
 */
typedef struct {
    int jobs;
    double timeout_s;                  /* 0: none */
    const char *device;                /* the device spec children take (NULL: the default) */
    volatile const sig_atomic_t *stop; /* set by a signal: waits give up */
} tune_build_options;

/* Starts building items[todo[0..count-1]] (the sweep's configurations, in its order). */
void tune_prebuild_start(const tune_build_options *o, char uplo, const tune_item *items,
                         const int *todo, int count);
/* Waits for the build of todo[k] (called for k = 0, 1, ... in turn). 0: built (*seconds:
 * its build time); 1: failed or too slow, why says it (*seconds: how long it ran); -1: not
 * built in a child (the caller builds it); -2: a stop was requested. */
int tune_prebuild_wait(int k, char *why, size_t size, double *seconds);
/* Ends the sweep's builds (the build processes are killed). */
void tune_prebuild_stop(void);
/* The hidden mode `bchol tune --build-server ...` that a build process runs (argv[0] is
 * "--build-server"); its exit status. */
int tune_build_server(int argc, char **argv);

/* ---- report (tune_report.c) --------------------------------------------------------- */

/* Prints the report of a tuning file; with against (or NULL), how its picks fare here. */
int tune_report(const char *path, const char *against);

#endif
