/* The core layer: what every routine uses whatever it computes -- the context, messages,
 * devices, kernel sources, program and binary caches, launches, workspace, shared argument
 * checks (including the device checks of per-matrix arrays). It calls only the backends
 * (device identity, quirks and defaults) and OpenCL. Nothing here is installed. */
#ifndef BCHOL_CORE_H
#define BCHOL_CORE_H

#include "bchol.h"
#include "backends/backend.h"

#include <pthread.h>
#include <stdarg.h>

/* Scalar type of a routine: the s/d entry points share one implementation. */
typedef enum { BCHOL_S = 's', BCHOL_D = 'd' } bchol_precision;

static inline size_t bchol__elem_size(bchol_precision p) { return p == BCHOL_D ? 8 : 4; }

/* ceil(a / b) for b > 0 (a + b - 1 would overflow for a bound near INT_MAX). */
static inline int bchol__ceil_div(int a, int b) { return a > 0 ? (a - 1) / b + 1 : (a + b - 1) / b; }

/* min(a, b) of ints, for shapes and block sizes. */
static inline int bchol__min_int(int a, int b) { return a < b ? a : b; }

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
    /* Loop iterations a work-item may run before the device ends its loops unasked, or 0:
     * llvmpipe's (Mesa's software device, behind Rusticl) gallivm loop limiter stops them
     * after 65535 (launch.c, bchol__check_loops); BCHOL_LOOP_LIMIT=k when the context was
     * made, for testing on any device. */
    long long loop_limit;
    /* Programs go through bchol's binary cache: the backend's binary_cache, or
     * BCHOL_BINARY_CACHE=on/off when the context was made (binary_cache.c). */
    int binary_cache;

    /* Device scratch memory lent to one call at a time (workspace.c), under lock. */
    cl_mem workspace;
    size_t workspace_bytes;
    int workspace_busy;
    /* Set by the layers above when they hold something the context must release: CLBlast's
     * program cache (which then holds our OpenCL context) and the tuning tables. */
    void (*release_clblast)(void);
    void (*release_tuning)(bchol_context *ctx);
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

/* Launches a kernel of one work-item per matrix over batch matrices, in slices within the
 * launch limit: args[b0_arg] and args[b0_arg + 1] are set to each slice's first matrix and
 * count (cl_ulong), the kernel skipping work-items past count (the last group may be
 * partial); groups of `local` work-items, fewer where the built kernel takes fewer. */
bchol_status bchol__launch_items(bchol_call *call, cl_kernel kernel, bchol_arg *args, int nargs,
                                 int b0_arg, int64_t batch, size_t local);

/* Local memory a work-group may ask for: the device's, less what the driver reserves. */
uint64_t bchol__usable_local_mem(const bchol_context *ctx);

/* Work-group size the kernel accepts on ctx's device (CL_KERNEL_WORK_GROUP_SIZE). */
size_t bchol__kernel_wg_limit(const bchol_context *ctx, cl_kernel kernel);
/* Work-group size any kernel may have on ctx's device before one is built: the device's
 * limit, lowered by BCHOL_KERNEL_WG_LIMIT; never 0. */
size_t bchol__device_wg_limit(const bchol_context *ctx);
/* Work-items of one group of the substitution solves' shape s at order n (potrs' and
 * getrs' kernels): ceil(n / rpt) * tbc, n up to INT_MAX. */
long long bchol__solve_group(int n, const bchol_solve_params *s);
/* Builds the kernel of a substitution solve's shape prm (arg: the caller's other build
 * options). */
typedef bchol_status (*bchol_solve_build)(bchol_context *ctx, const bchol_solve_params *prm,
                                          const void *arg, cl_kernel *kernel);
/* The substitution solves' shape fitted to the kernel build() makes (potrs' and getrs'):
 * nt narrowed to nrhs; where the built kernel takes fewer work-items than
 * ceil(n / rpt) * tbc, fewer units a group, then more rows a work-item (at most 64).
 * Updates prm; on success *kernel is the kernel of the fitted shape. what names the solve
 * in the error when no shape fits. */
bchol_status bchol__solve_fit(bchol_context *ctx, bchol_solve_params *prm, int n, int nrhs,
                              const char *what, bchol_solve_build build, const void *arg,
                              cl_kernel *kernel);

/* ---- argument checks (check.c) ------------------------------------------------------ */

bchol_status bchol__check_context(const bchol_context *ctx, const char *routine);
/* The checks of bchol_solve_params (argument 2 of the solve _ex routines: potrs, posv
 * and their vbatched forms, getrs_vbatched and gesv_vbatched); workitem: whether the
 * routine has the workitem solve (the Cholesky solves; LU's has the substitution kernel
 * only). */
bchol_status bchol__check_solve_params(bchol_context *ctx, const char *routine,
                                       const bchol_solve_params *params, int workitem);
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

/* ---- the piece loop of the host-array forms (host_pieces.c) ---------------------------- */

enum { BCHOL__HOST_ARRAYS_MAX = 3 };

/* One of the caller's arrays of a host form: batch matrices, each stride elements after
 * the one before (stride >= 1), each last elements from its first to its last. Every array
 * goes to the device whole over a piece's span (what lies between the matrices comes back
 * as it was); out: the routine may write it and it comes back (0: read only there). */
typedef struct {
    void *host;
    int64_t stride;
    uint64_t last;
    size_t elem;
    int out;
} bchol__host_array;

/* The device routine on one piece of count matrices: bufs[i] holds array i's piece from
 * offset 0, info (NULL where the form has none) count ints; *event: its last command. */
typedef bchol_status (*bchol__piece_fn)(bchol_context *ctx, void *arg, const cl_mem *bufs,
                                        cl_mem info, int64_t count, cl_event *event);

typedef struct {
    const char *routine; /* names the messages */
    const char *work;    /* names a failed execution of run in its message */
    int halve;           /* out of device memory before anything came back: halve the piece */
    bchol__piece_fn run;
    void *arg;
} bchol__host_job;

/* Runs job on batch matrices of the checked, non-empty host arrays (at most
 * BCHOL__HOST_ARRAYS_MAX) in pieces that one device allocation holds, one set of device
 * buffers reused for every piece; info (batch ints, or NULL) and the arrays marked out
 * change together, a piece at a time, only after its run has finished. Fails
 * BCHOL_ERR_OUT_OF_MEMORY where one matrix exceeds the device's largest allocation. */
bchol_status bchol__host_pieces(bchol_context *ctx, const bchol__host_job *job,
                                const bchol__host_array *arrays, int narrays, int *info,
                                int64_t batch);

/* ---- how a call uses its buffers (check_access.c) ------------------------------------ */

enum { BCHOL__READ = 1, BCHOL__WRITE = 2, BCHOL__MAX_BUFFER_USES = 12 };

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

/* ---- a variable-size solve's buffer arguments (vbatched_solve_args.c) ---------------- */

/* The buffers of potrs/posv_vbatched and getrs/gesv_vbatched, in argument order;
 * offsets_p and ipiv only where the routine has pivots. */
typedef struct {
    cl_mem n, nrhs, lda, ldb, offsets_a, A, offsets_p, ipiv, offsets_b, B, info;
} bchol_vsolve_buffers;

/* batch in [0, 2^60), then for batch > 0 bchol__check_buffer on each buffer in argument
 * order and bchol__check_buffer_uses on all. n is argument pn, the others follow it in the
 * order above (with pivots: offsets_p and ipiv after A), batch after B and info after
 * batch. factor: the call writes A (and ipiv); B and info are always written. */
bchol_status bchol__check_vsolve_buffers(const bchol_context *ctx, const char *routine, int pn,
                                         const bchol_vsolve_buffers *a, int pivots,
                                         int factor, int64_t batch);

/* ---- installation (install_dir.c) ---------------------------------------------------- */

/* The real path of the folder sub (e.g. "tuning") of the data folder (share/bchol) of the
 * installation bchol runs from, in out; NULL if there is none (install_dir.c). */
const char *bchol__installed_dir(const char *sub, char *out, size_t size);

/* ---- workspace (workspace.c), fills and nested calls (launch.c) ----------------------- */

/* Device scratch memory of at least bytes for one call: the context's cached buffer when
 * it is free and large enough, else a new one (kept for later calls when larger). Give it
 * back with bchol__workspace_release once the call's commands are enqueued; commands
 * still queued keep using it safely (OpenCL frees memory after the commands using it). */
bchol_status bchol__workspace_acquire(bchol_context *ctx, size_t bytes, cl_mem *mem);
void bchol__workspace_release(bchol_context *ctx, cl_mem mem);
void bchol__workspace_free(bchol_context *ctx);

/* Fails with BCHOL_ERR_UNSUPPORTED_SIZE, naming what and n, where a work-item of that
 * kernel would run more loop iterations (an estimate from its loop nest) than 0.6 of the
 * device's loop limit (ctx->loop_limit; none: always BCHOL_SUCCESS). Nothing is enqueued. */
bchol_status bchol__check_loops(bchol_context *ctx, const char *what, int n, double iterations);

/* Fills count ints of buffer at element 0 with value; joins the call. */
bchol_status bchol__fill_int(bchol_call *call, cl_mem buffer, int value, int64_t count);

/* ---- waits for the host (queue_wait.c): on their own events, never a blocking read or
 * clFinish, which one implementation ends early while other threads share the queue */

/* Reads bytes of buffer from offset into host after the queue's earlier commands and
 * returns once they are there (or the read failed: its status). event: NULL, or gets the
 * read's event (the caller releases it). */
cl_int bchol__read_wait(cl_command_queue q, cl_mem buffer, size_t offset, size_t bytes, void *host,
                        cl_event *event);
/* Waits for a routine's event and releases it: 0, or the wait's error or the command's
 * negative status (drivers report a failed execution, e.g. memory they could not back,
 * only in its event), so that nothing comes back from a routine that did not run. */
cl_int bchol__wait_ran(cl_event ev);
/* Returns once every command enqueued on q so far has finished (clFinish's promise). */
cl_int bchol__queue_drain(cl_command_queue q);

/* Joins the commands of a nested routine call that handed back event ev (taken) to call:
 * ev becomes the call's last event and, with timing on, the nested call's first event
 * becomes call's first, so that the timed span covers both (posv = potrf + potrs). */
void bchol__call_join(bchol_call *call, cl_event ev);

/* ---- checks of per-matrix arrays on the device (vbatched_check.c, vbatched_check_rhs.c) */

/*
 * Device checks of the per-matrix arrays (cl_kernels/common/vbatched_check.cl), in three steps
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
    cl_mem scratch; /* per block: max end, min start, max m << 32 | max n (cl_ulong); result */
    uint64_t blocks;
} bchol_vcheck;

bchol_status bchol__vcheck_reduce(bchol_call *call, bchol_vcheck *vc, cl_mem n, cl_mem lda,
                                  cl_mem offsets, uint64_t a_elems, int max_n, int64_t batch,
                                  int need_max_n);
bchol_status bchol__vcheck_read_max_n(bchol_call *call, const bchol_vcheck *vc, int *max_n);
/* The _mn forms: m-by-n matrices (per-matrix m with its bound max_m; lda >= max(1, m)).
 * The plain forms above are these with m = n. */
bchol_status bchol__vcheck_reduce_mn(bchol_call *call, bchol_vcheck *vc, cl_mem m, cl_mem n,
                                     cl_mem lda, cl_mem offsets, uint64_t a_elems, int max_m,
                                     int max_n, int64_t batch, int need_max_n);
bchol_status bchol__vcheck_read_max_mn(bchol_call *call, const bchol_vcheck *vc, int *max_m,
                                       int *max_n);
bchol_status bchol__vcheck_flag_mn(bchol_call *call, const bchol_vcheck *vc, cl_mem m, cl_mem n,
                                   cl_mem lda, cl_mem offsets, uint64_t a_elems, int max_m,
                                   int max_n, int64_t batch, cl_mem info);
/* The scan of the block aggregates in scratch between a blocks and a flag kernel (also
 * for the right-hand-side checks); nothing for up to 64 blocks, whose flag kernels take
 * the carries themselves. */
bchol_status bchol__vcheck_scan(bchol_call *call, cl_mem scratch, uint64_t blocks);
bchol_status bchol__vcheck_flag(bchol_call *call, const bchol_vcheck *vc, cl_mem n, cl_mem lda,
                                cl_mem offsets, uint64_t a_elems, int max_n, int64_t batch,
                                cl_mem info);
void bchol__vcheck_release(bchol_vcheck *vc);

/* Device checks of the right-hand-side arrays after bchol__vcheck_flag: info[b] = 0
 * entries get a BCHOL_INFO_* code of the B arrays (overlaps included) or add n[b], nrhs[b]
 * to the maxima in result (2 ints, written here). b_elems is the size of B in elements. */
bchol_status bchol__vcheck_rhs(bchol_call *call, cl_mem n, cl_mem nrhs, cl_mem ldb,
                               cl_mem offsets_b, uint64_t b_elems, int max_nrhs, int64_t batch,
                               cl_mem info, cl_mem result);

#endif /* BCHOL_CORE_H */
