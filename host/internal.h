/* Internal interfaces shared by the host layer: context, messages, program cache,
 * launches and argument checks. Nothing here is installed. */
#ifndef BCHOL_INTERNAL_H
#define BCHOL_INTERNAL_H

#include "bchol.h"
#include "backend.h"

#include <pthread.h>
#include <stdarg.h>

/* Scalar type of a routine: the s/d entry points share one implementation. */
typedef enum { BCHOL_S = 's', BCHOL_D = 'd' } bchol_precision;

static inline size_t bchol__elem_size(bchol_precision p) { return p == BCHOL_D ? 8 : 4; }

struct bchol_program_entry; /* program_cache.c */
struct bchol_tuning;        /* tuning.h */

struct bchol_context {
    cl_platform_id platform;
    cl_device_id device;
    cl_context cl_ctx;
    cl_command_queue queue;
    bchol_device_info info;
    /* The device's backend, or backend_copy: BCHOL_DEFAULTS=generic (defaults.c) sets
     * generic_defaults and puts the generic backend's defaults in a copy of it. */
    const bchol_backend *backend;
    bchol_backend backend_copy;
    int generic_defaults;
    /* A bad BCHOL_DEFAULTS, sent with the tuning tables' first load ("" once sent). */
    char defaults_warning[256];

    /* Guards the program cache and the set-arguments-then-enqueue of shared kernels. */
    pthread_mutex_t lock;
    struct bchol_program_entry *programs;

    bchol_message_handler handler;
    void *handler_user;
    char last_warning[1024];

    int timing;
    cl_event timed_first, timed_last;
    /* BCHOL_TRACE was set when the context was made (launch.c). */
    int trace;
    /* BCHOL_MAX_GROUPS_PER_LAUNCH when the context was made, or 0 (launch.c). */
    long long max_groups_per_launch;
    /* BCHOL_VBATCHED_ONE_LAUNCH_PER_CU when the context was made, or -1: the backend's
     * vbatched_one_launch_per_cu (dispatch.c). */
    int one_launch_per_cu;
    /* BCHOL_KERNEL_WG_LIMIT when the context was made, or 0: an upper bound on every
     * kernel's work-group size (launch.c), as some drivers report (Rusticl: 32). */
    size_t kernel_wg_limit;
    /* Programs go through bchol's binary cache: the backend's binary_cache, or
     * BCHOL_BINARY_CACHE=on/off when the context was made (binary_cache.c). */
    int binary_cache;

    /* Device scratch memory lent to one call at a time (workspace.c), under lock. */
    cl_mem workspace;
    size_t workspace_bytes;
    int workspace_busy;
    /* CLBlast ran on this context: its program cache holds our OpenCL context. */
    int used_clblast;
    /* Tuning tables for this device, read at the first call that needs parameters. */
    int tuning_loaded;
    struct bchol_tuning *tuning; /* NULL: none applies (tuning_note says why) */
    char tuning_note[512];
};

/* ---- messages (message.c) ----------------------------------------------------------- */

/* Records a formatted error message for this thread and ctx; returns status. */
bchol_status bchol__fail(const bchol_context *ctx, bchol_status status, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* As bchol__fail for an OpenCL error code: "<what>: CL_OUT_OF_RESOURCES (-5)". */
bchol_status bchol__fail_cl(const bchol_context *ctx, cl_int err, const char *what);
/* Maps an OpenCL error to a status (out-of-memory codes to BCHOL_ERR_OUT_OF_MEMORY). */
bchol_status bchol__status_of_cl(cl_int err);
const char *bchol__cl_error_name(cl_int err);
/* Sends a warning through the context's message channel. */
void bchol__warn(bchol_context *ctx, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- default parameters (defaults.c) ------------------------------------------------ */

/* Sets ctx->backend from device_backend and BCHOL_DEFAULTS (see defaults.c). */
void bchol__defaults_select(bchol_context *ctx, const bchol_backend *device_backend);

/* ---- devices (device.c) ------------------------------------------------------------- */

/* Fills info (identity normalized by the matching backend) for one device. */
bchol_status bchol__query_device(cl_platform_id platform, cl_device_id device,
                                 bchol_device_info *info);
/* Finds the device named by spec (see bchol_context_create). */
bchol_status bchol__select_device(const char *spec, cl_platform_id *platform,
                                  cl_device_id *device, int *pindex, int *dindex);

/* ---- kernel sources (kernel_source.c) ---------------------------------------------- */

/* The text of cl_kernels/<name> (name relative to cl_kernels/, e.g. "lu/getrs.cl"):
 * from $BCHOL_KERNEL_DIR if set, else embedded. The
 * caller frees *text. */
bchol_status bchol__kernel_source(const bchol_context *ctx, const char *name, char **text);

/* ---- program cache (program_cache.c, binary_cache.c) -------------------------------- */

#define BCHOL_MAX_OPTIONS 24

/* Build options as a list of "-D NAME=VALUE" (or other) strings; sorted on use. */
typedef struct {
    int count;
    char opt[BCHOL_MAX_OPTIONS][64];
} bchol_options;

void bchol__options_init(bchol_options *o);
void bchol__options_add(bchol_options *o, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The -D macros that fix the scalar type. */
void bchol__options_precision(bchol_options *o, bchol_precision p);

/*
 * The kernel `name` of the program built from the concatenation of the named kernel
 * files (NULL-terminated list) with the given options, built once per context. The
 * kernel belongs to the cache: do not release it. Setting its arguments and enqueueing
 * must happen under ctx->lock (bchol__launch does this).
 */
bchol_status bchol__get_kernel(bchol_context *ctx, const char *const *files,
                               const bchol_options *opts, const char *name, cl_kernel *kernel);
/* The same for a program built from source text made by the host (a generator). */
bchol_status bchol__get_kernel_from_text(bchol_context *ctx, const char *text,
                                         const bchol_options *opts, const char *name,
                                         cl_kernel *kernel);
void bchol__program_cache_release(bchol_context *ctx);

/* On-disk binary cache for drivers without their own, or all with BCHOL_BINARY_CACHE=on
 * (binary_cache.c). Called under ctx->lock: a warning comes back in warning (left as it
 * is if none), for the caller to send after the unlock. */
cl_program bchol__binary_cache_load(bchol_context *ctx, const char *key, char *warning,
                                    size_t size);
void bchol__binary_cache_store(bchol_context *ctx, const char *key, cl_program program,
                               char *warning, size_t size);
/* 32 hex digits naming the build of text+options on ctx's device and driver. */
void bchol__build_key(const bchol_context *ctx, const char *text, const char *options,
                      char key[33]);

/* ---- launches (launch.c) ------------------------------------------------------------ */

/* One public routine call: chains its commands and hands the last event back. */
typedef struct {
    bchol_context *ctx;
    cl_event first, last;
    int launches;
} bchol_call;

typedef struct {
    size_t size;
    const void *value; /* NULL with size > 0: local memory of that many bytes */
} bchol_arg;

#define BCHOL_ARG(x) ((bchol_arg){sizeof(x), &(x)})
#define BCHOL_LOCAL(bytes) ((bchol_arg){(bytes), NULL})

void bchol__call_begin(bchol_call *call, bchol_context *ctx);
/* Sets the arguments and enqueues kernel; the event joins the call. */
bchol_status bchol__launch(bchol_call *call, cl_kernel kernel, int nargs, const bchol_arg *args,
                           cl_uint dims, const size_t *global, const size_t *local);
/* Records an event made outside bchol__launch (a copy or fill) in the call; takes it. */
void bchol__call_add_event(bchol_call *call, cl_event ev);
/* Ends the call: *event (if not NULL) gets the last event; timing is recorded. On failure
 * (status != 0) the events are dropped. Returns status. */
bchol_status bchol__call_end(bchol_call *call, bchol_status status, cl_event *event);

/* Matrices one launch may cover, given the matrices per work-group and the work-group
 * size: huge batches are split so that no launch exceeds the driver's grid limits
 * (BCHOL_MAX_GROUPS_PER_LAUNCH lowers the limit, so that tests can exercise splitting). */
int64_t bchol__launch_batch_limit(const bchol_context *ctx, int64_t per_group, size_t local);
/* Launches groups work-groups of local work-items of kernel (1-D) in slices within that
 * limit; args[g0_arg] is set to each slice's first group (a cl_ulong), from which the
 * kernel finds its work (matrices, element blocks, tiles of right-hand sides). */
bchol_status bchol__launch_groups(bchol_call *call, cl_kernel kernel, bchol_arg *args, int nargs,
                                  int g0_arg, uint64_t groups, size_t local);

/* Local memory a work-group may ask for: the device's, less what the driver reserves. */
uint64_t bchol__usable_local_mem(const bchol_context *ctx);

/* Work-group size the kernel accepts on ctx's device (CL_KERNEL_WORK_GROUP_SIZE). */
size_t bchol__kernel_wg_limit(const bchol_context *ctx, cl_kernel kernel);

/* ---- argument checks (check.c) ------------------------------------------------------ */

bchol_status bchol__check_context(const bchol_context *ctx, const char *routine);
bchol_status bchol__check_uplo(const bchol_context *ctx, const char *routine, int pos,
                               char uplo, int *upper);
bchol_status bchol__check_precision(const bchol_context *ctx, const char *routine,
                                    bchol_precision p);
/* The kernels index a matrix with ints: (n-1)*lda + n must stay below 2^31 (n is
 * argument pos). */
bchol_status bchol__check_index_span(const bchol_context *ctx, const char *routine, int pos, int n,
                                     int lda);
/* buffer must be a cl_mem of ctx holding at least need bytes. */
bchol_status bchol__check_buffer(const bchol_context *ctx, const char *routine, int pos,
                                 const char *name, cl_mem buffer, uint64_t need,
                                 bchol_status bad, bchol_status small);
/* Bytes of an info array of batch ints (batch >= 0); UINT64_MAX when that does not fit in
 * 64 bits, which no buffer holds (batch * 4 wrapped to a small need for batch >= 2^62). */
uint64_t bchol__info_bytes(int64_t batch);
/* Elements spanned by a strided batch: offset + (batch-1)*stride + (n-1)*ld + rows;
 * returns 0 and sets *span, or -1 on overflow. */
int bchol__batch_span(int64_t offset, int64_t stride, int64_t batch, int ld, int rows,
                      int cols, uint64_t *span);
/* A host array of elems elements of es bytes at ptr must lie within the address space;
 * otherwise fails with bad and "<routine>: <what> spans ...". The host forms check every
 * array they index before they touch one. */
bchol_status bchol__check_host_span(const bchol_context *ctx, const char *routine,
                                    bchol_status bad, const char *what, const void *ptr,
                                    uint64_t elems, size_t es);

/* ---- how a call uses its buffers (check_access.c) ------------------------------------ */

enum { BCHOL__READ = 1, BCHOL__WRITE = 2, BCHOL__MAX_BUFFER_USES = 10 };

/* One buffer argument of a call: bytes [begin, end) of buffer are what the call may touch
 * (end = 0: up to the buffer's end), access says how; buffer NULL when not used. */
typedef struct {
    int pos;
    const char *name;
    cl_mem buffer;
    uint64_t begin, end;
    int access;
    bchol_status bad; /* the status that names this argument */
} bchol_buffer_use;

/* Every device routine, once each buffer passed bchol__check_buffer: a written buffer
 * must not be CL_MEM_READ_ONLY, a read one not CL_MEM_WRITE_ONLY, and no two arguments may
 * share bytes (one buffer, or sub-buffers of one) where either is written; the later
 * argument is named. At most BCHOL__MAX_BUFFER_USES uses. */
bchol_status bchol__check_buffer_uses(const bchol_context *ctx, const char *routine,
                                      const bchol_buffer_use *use, int count);

/* ---- dispatch (dispatch.c) ---------------------------------------------------------- */

/* Parameters for the fused kernel at this precision and n; *source says where from. */
void bchol__fused_params(bchol_context *ctx, bchol_precision p, int n, bchol_params *params,
                         const char **source);
/* Fills the fields of params that are <= 0 from the dispatcher's choice. */
void bchol__complete_params(bchol_context *ctx, bchol_precision p, int n, bchol_params *params);
/* The same for the interleaved routines on data already interleaved: the interleaved
 * fields from bchol_potrf_interleaved_params's choice; variant becomes interleaved. */
void bchol__complete_interleaved_params(bchol_context *ctx, bchol_precision p, int n,
                                        bchol_params *params);

/* ---- tuning files (tuning_load.c; the tables are in tuning.h) ------------------------- */

/* The tuning tables that apply to ctx's device (NULL if none), read once; a file that
 * cannot be used gives one warning through bchol__warn. */
const struct bchol_tuning *bchol__tuning_for(bchol_context *ctx);
void bchol__tuning_release(bchol_context *ctx);
/* The real path of the folder sub (e.g. "tuning") of the data folder (share/bchol) of the
 * installation bchol runs from, in out; NULL if there is none (install_dir.c). */
const char *bchol__installed_dir(const char *sub, char *out, size_t size);

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

/* ---- separate variant (potrf_separate.c, workspace.c) -------------------------------- */

/* Enqueues the right-looking blocked factorization (panel POTF2+TRTRI, TRSM, trailing
 * update per nb-wide step) of a checked, non-empty batch; params are complete. */
bchol_status bchol__potrf_separate(bchol_call *call, bchol_precision p, const bchol_params *params,
                                   int upper, int n, cl_mem A, int64_t offset, int lda,
                                   int64_t stride, int64_t batch, cl_mem info);

/* Device scratch memory of at least bytes for one call: the context's cached buffer when
 * it is free and large enough, else a new one (kept for later calls when larger). Give it
 * back with bchol__workspace_release once the call's commands are enqueued; commands
 * still queued keep using it safely (OpenCL frees memory after the commands using it). */
bchol_status bchol__workspace_acquire(bchol_context *ctx, size_t bytes, cl_mem *mem);
void bchol__workspace_release(bchol_context *ctx, cl_mem mem);
void bchol__workspace_free(bchol_context *ctx);
/* The checks of bchol_params (argument 2 of the _ex routines and of bchol_potrf_prepare). */
bchol_status bchol__check_params(bchol_context *ctx, const char *routine, const bchol_params *params);

/* Fills count ints of buffer at element 0 with value; joins the call. */
bchol_status bchol__fill_int(bchol_call *call, cl_mem buffer, int value, int64_t count);

/* ---- solve (potrs_batched.c, posv_batched.c, potrs_subst.c, dispatch.c) ------------- */

/* Joins the commands of a nested routine call that handed back event ev (taken) to call:
 * ev becomes the call's last event and, with timing on, the nested call's first event
 * becomes call's first, so that the timed span covers both (posv = potrf + potrs). */
void bchol__call_join(bchol_call *call, cl_event ev);

/* Solve parameters at this precision, n and nrhs (the tuning table's solve entry, else the
 * backend's defaults); *source says where from. */
void bchol__solve_params(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                         bchol_solve_params *params, const char **source);
/* Fills the fields of params that are <= 0 from the dispatcher's choice. */
void bchol__complete_solve_params(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                                  bchol_solve_params *params);

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
} bchol_subst_plan;

bchol_status bchol__potrs_subst_plan(bchol_context *ctx, bchol_precision p,
                                     const bchol_solve_params *params, int upper, int n,
                                     int nrhs, bchol_subst_plan *plan);
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
/* ---- variable-size batches (potrf_vbatched*.c, vbatched_check.c, dispatch.c) -------- */

/* Parameters of the vbatched fused kernel for this precision, largest n and batch (0: a
 * batch that fills the device). */
void bchol__vbatched_params(bchol_context *ctx, bchol_precision p, int max_n, int64_t batch,
                            bchol_vbatched_params *params, const char **source);
/* Fills the fields of params that are <= 0 from the dispatcher's choice. */
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

/*
 * Device checks of the per-matrix arrays (cl_kernels/vbatched_check.cl), in three steps
 * that share scratch memory: reduce (per-block aggregates of the well-formed matrices and
 * the largest n; need_max_n = 0 when it will not be read, which lets a one-block batch
 * skip this step), optionally read that n back (blocking), then flag (info[b] = 0 or a
 * BCHOL_INFO_* code for every matrix). max_n bounds n[b]; a_elems is the size of A in
 * elements. Release the scratch with bchol__vcheck_release whatever happened.
 */
/* The check kernels' block layout (vbatched_check.cl; its _rhs twin shares it): groups of
 * 32 work-items (the least a kernel takes on the devices seen: Rusticl's limit) of 32
 * matrices, 1024 a block; past 32 blocks a one-group scan. */
#define BCHOL__CHECK_WG 32
#define BCHOL__CHECK_PER_ITEM 32
/* The build options of vbatched_check.cl: the layout and the matrix checks' codes. */
void bchol__vcheck_options(bchol_options *o);
/* BCHOL_ERR_RESOURCES, naming the kernel, where k cannot run groups of CHECK_WG. */
bchol_status bchol__vcheck_fits(bchol_context *ctx, const char *name, cl_kernel k);

typedef struct {
    cl_mem scratch; /* per block: max end, min start (cl_ulong), max n (int); result */
    uint64_t blocks;
} bchol_vcheck;

bchol_status bchol__vcheck_reduce(bchol_call *call, bchol_vcheck *vc, cl_mem n, cl_mem lda,
                                  cl_mem offsets, uint64_t a_elems, int max_n, int64_t batch,
                                  int need_max_n);
bchol_status bchol__vcheck_read_max_n(bchol_call *call, const bchol_vcheck *vc, int *max_n);
/* The scan of the block aggregates in scratch between a blocks and a flag kernel (also
 * for the right-hand-side checks); nothing for up to 64 blocks, whose flag kernels take
 * the carries themselves. */
bchol_status bchol__vcheck_scan(bchol_call *call, cl_mem scratch, uint64_t blocks);
bchol_status bchol__vcheck_flag(bchol_call *call, const bchol_vcheck *vc, cl_mem n, cl_mem lda,
                                cl_mem offsets, uint64_t a_elems, int max_n, int64_t batch,
                                cl_mem info);
void bchol__vcheck_release(bchol_vcheck *vc);

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
/* The checks of bchol_solve_params (argument 2 of the solve _ex routines). */
bchol_status bchol__check_solve_params(bchol_context *ctx, const char *routine,
                                       const bchol_solve_params *params);
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
/* Device checks of the right-hand-side arrays after bchol__vcheck_flag: info[b] = 0
 * entries get a BCHOL_INFO_* code of the B arrays (overlaps included) or add n[b], nrhs[b]
 * to the maxima in result (2 ints, written here). b_elems is the size of B in elements. */
bchol_status bchol__vcheck_rhs(bchol_call *call, cl_mem n, cl_mem nrhs, cl_mem ldb,
                               cl_mem offsets_b, uint64_t b_elems, int max_nrhs, int64_t batch,
                               cl_mem info, cl_mem result);
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

#endif /* BCHOL_INTERNAL_H */
