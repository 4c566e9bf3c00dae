/*
 * bchol: batched factorizations and solves of small dense matrices through OpenCL:
 * Cholesky (potrf, potrs, posv) and LU with partial pivoting (getrf, getrs, gesv, getri).
 *
 * Conventions (LAPACK's, with MAGMA's batched layout):
 *  - Matrices are column-major. A fixed-size batch lives in one cl_mem: matrix b starts at
 *    element offset + b*stride and has leading dimension lda.
 *  - uplo is 'L' (A = L*L**T, L lower) or 'U' (A = U**T*U, U upper); only that triangle
 *    of each matrix is read and written.
 *  - info[b] = 0 on success, or k > 0 when the k-th pivot (1-based) is not positive, is
 *    NaN, or is infinite: the leading minor of order k is not positive definite and the
 *    factorization of that matrix stopped. Other matrices of the batch are unaffected.
 *    What such a matrix's stored triangle then holds differs from LAPACK's potrf, which
 *    leaves the leading block of order k-1 factored: bchol stops at the block that holds
 *    pivot k (the fused variant's panel of ib columns, the separate variant's panel of nb,
 *    the interleaved variant's tile of nb), so only the leading block of order j, the start
 *    of that block (j <= k-1, and j = 0 when k falls in the first block), is factored (the
 *    interleaved variant may instead leave it as it was); the rest holds the input or
 *    intermediate values. Refactor a failed matrix with LAPACK where
 *    its partial factor is needed.
 *  - Routines on device buffers only enqueue work on the context's queue; they never wait.
 *    If event is not NULL it receives an event for the last command enqueued (release it
 *    with clReleaseEvent), or NULL when nothing was enqueued.
 *  - Every argument is checked before anything is enqueued; a bad one returns a negative
 *    status naming it, and bchol_last_error() says which value was wrong and why.
 *  - Buffers: one the call writes (A of potrf/posv, B of the solves, info, the target of a
 *    layout conversion) must not be CL_MEM_READ_ONLY, one it reads not CL_MEM_WRITE_ONLY;
 *    and no two arguments may share bytes of one buffer where either is written. An
 *    argument's bytes run from its first to its last element (for a variable-size batch,
 *    A and B are the whole buffer). Two different memory objects of one buffer (a buffer
 *    and its sub-buffer, overlapping sub-buffers) may not be passed where either is
 *    written, whichever bytes the call uses: OpenCL leaves that undefined. Otherwise the
 *    later argument's status (BCHOL_ERR_A, _B, _INFO, _N_ARRAY, ...) says which.
 *  - Host forms: every array a call indexes (A + its last element, info + batch) must lie
 *    in the address space; a stride or offset that reaches past it is its argument's
 *    status (BCHOL_ERR_STRIDE_A/B, BCHOL_ERR_OFFSETS_A/B, or BCHOL_ERR_BATCH for info).
 *  - What can stop a valid call (no fp64, a size no variant fits, a kernel that does not
 *    build or does not fit the device) is also found before anything is enqueued, and a
 *    refused first launch (e.g. memory a driver backs lazily) leaves nothing enqueued:
 *    the buffers stay as they were. Only a device failing after the work has started
 *    can leave A partly factored.
 *  - A double routine on a device without fp64 checks its arguments first (a bad one is
 *    named as above), then returns BCHOL_ERR_NO_FP64, also where a valid call would
 *    have returned at once (batch = 0).
 *  - A kernel's own work-group limit (CL_KERNEL_WORK_GROUP_SIZE, 32 on Mesa Rusticl)
 *    below the shape a variant wants makes the variant run smaller work-groups; only
 *    parameters that cannot be (the separate variant's nb above the limit) fail, with
 *    BCHOL_ERR_RESOURCES naming them.
 *  - The library never prints and never aborts.
 *  - A context may be used by several threads at once (docs/DEVELOPING.md, "Thread
 *    safety", says what the caller must order).
 */
#ifndef BCHOL_H
#define BCHOL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

#if defined(BCHOL_BUILDING) && defined(__GNUC__)
#define BCHOL_API __attribute__((visibility("default")))
#else
#define BCHOL_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status ---------------------------------------------------------------------- */

typedef enum bchol_status {
    BCHOL_SUCCESS = 0,

    /* A bad argument: the status names it. */
    BCHOL_ERR_CONTEXT = -1,        /* ctx is NULL */
    BCHOL_ERR_UPLO = -2,           /* uplo is not 'L', 'l', 'U' or 'u' */
    BCHOL_ERR_N = -3,              /* n < 0, or too large for the index arithmetic */
    BCHOL_ERR_NRHS = -4,           /* nrhs < 0 */
    BCHOL_ERR_A = -5,              /* A is not a valid buffer of this context */
    BCHOL_ERR_OFFSET_A = -6,       /* offset of A < 0 */
    BCHOL_ERR_LDA = -7,            /* lda < max(1, n) */
    BCHOL_ERR_STRIDE_A = -8,       /* stride of A < lda*n */
    BCHOL_ERR_B = -9,              /* B is not a valid buffer of this context */
    BCHOL_ERR_OFFSET_B = -10,      /* offset of B < 0 */
    BCHOL_ERR_LDB = -11,           /* ldb < max(1, n) */
    BCHOL_ERR_STRIDE_B = -12,      /* stride of B < ldb*nrhs */
    BCHOL_ERR_BATCH = -13,         /* batch < 0 */
    BCHOL_ERR_INFO = -14,          /* info is not a valid buffer of this context */
    BCHOL_ERR_A_SIZE = -15,        /* buffer A is smaller than the batch needs */
    BCHOL_ERR_B_SIZE = -16,        /* buffer B is smaller than the batch needs */
    BCHOL_ERR_INFO_SIZE = -17,     /* buffer info is smaller than batch ints */
    BCHOL_ERR_CHUNK = -18,         /* interleaved chunk size < 1 */
    BCHOL_ERR_MAX_N = -19,         /* max_n (max_m, max_nrhs) < 0, or smaller than a size */
    BCHOL_ERR_N_ARRAY = -20,       /* per-matrix n array missing or too small */
    BCHOL_ERR_LDA_ARRAY = -21,     /* per-matrix lda array missing or too small */
    BCHOL_ERR_OFFSETS_A = -22,     /* per-matrix offsets of A missing or too small */
    BCHOL_ERR_NRHS_ARRAY = -23,    /* per-matrix nrhs array missing or too small */
    BCHOL_ERR_LDB_ARRAY = -24,     /* per-matrix ldb array missing or too small */
    BCHOL_ERR_OFFSETS_B = -25,     /* per-matrix offsets of B missing or too small */
    BCHOL_ERR_ARGUMENT = -26,      /* another argument is invalid (see bchol_last_error) */
    BCHOL_ERR_DEVICE_SPEC = -27,   /* the device spec names no device */
    BCHOL_ERR_M = -28,             /* m < 0, or too large for the index arithmetic */
    BCHOL_ERR_TRANS = -29,         /* trans is not 'N', 'n', 'T' or 't' */
    BCHOL_ERR_IPIV = -30,          /* ipiv is not a valid buffer of this context */
    BCHOL_ERR_OFFSET_P = -31,      /* offset of ipiv < 0 */
    BCHOL_ERR_STRIDE_P = -32,      /* stride of ipiv < min(m, n) */
    BCHOL_ERR_IPIV_SIZE = -33,     /* buffer ipiv is smaller than the batch needs */
    BCHOL_ERR_C = -34,             /* C (getri's inverse) is not a valid buffer */
    BCHOL_ERR_OFFSET_C = -35,      /* offset of C < 0 */
    BCHOL_ERR_LDC = -36,           /* ldc < max(1, n) */
    BCHOL_ERR_STRIDE_C = -37,      /* stride of C < ldc*n */
    BCHOL_ERR_C_SIZE = -38,        /* buffer C is smaller than the batch needs */
    BCHOL_ERR_OFFSETS_P = -39,     /* per-matrix offsets of ipiv missing or too small */
    BCHOL_ERR_M_ARRAY = -40,       /* per-matrix m array missing or too small */

    /* The request is valid but cannot be done here. */
    BCHOL_ERR_NO_FP64 = -100,          /* double precision on a device without fp64 */
    BCHOL_ERR_UNSUPPORTED_SIZE = -101, /* no variant can factor this size on this device */
    BCHOL_ERR_NO_DEVICE = -102,        /* no OpenCL device found */
    BCHOL_ERR_QUEUE = -103,            /* the queue is invalid or out of order */
    BCHOL_ERR_BUILD = -104,            /* a kernel failed to build; the log is kept */
    BCHOL_ERR_OUT_OF_MEMORY = -105,    /* host or device memory ran out */
    BCHOL_ERR_OPENCL = -106,           /* an OpenCL call failed (code in the message) */
    BCHOL_ERR_KERNEL_SOURCE = -107,    /* a kernel source file could not be read */
    BCHOL_ERR_RESOURCES = -108         /* the kernel needs more than the device gives */
} bchol_status;

/* A short constant description of a status, e.g. "bad argument: lda". */
BCHOL_API const char *bchol_status_string(bchol_status status);

/* ---- context --------------------------------------------------------------------- */

typedef struct bchol_context bchol_context;

/*
 * Creates a context on one OpenCL device with its own in-order queue (profiling on).
 * device_spec selects the device; NULL or "" means the environment variable
 * BCHOL_DEVICE, and if that is unset the first GPU, else the first CPU device. A spec is
 * "nvidia", "pocl", "gpu", "cpu" (first matching device), or "P:D" (device D of platform
 * P, both 0-based decimal numbers up to 65535, in the order `bchol devices` lists them);
 * anything else, a sign or an index out of range included, is BCHOL_ERR_DEVICE_SPEC.
 */
BCHOL_API bchol_status bchol_context_create(const char *device_spec, bchol_context **ctx);

/*
 * Creates a context that enqueues on the caller's queue. The queue must be in order. The
 * context retains the queue (and its OpenCL context and device) until destroyed.
 */
BCHOL_API bchol_status bchol_context_create_from_queue(cl_command_queue queue,
                                                       bchol_context **ctx);

/* Releases every OpenCL object the context made. NULL is allowed. Does not wait. */
BCHOL_API void bchol_context_destroy(bchol_context *ctx);

BCHOL_API cl_command_queue bchol_context_queue(const bchol_context *ctx);
BCHOL_API cl_context bchol_context_cl_context(const bchol_context *ctx);
BCHOL_API cl_device_id bchol_context_device_id(const bchol_context *ctx);

/*
 * The message of the last call that failed in this thread on ctx (with ctx NULL: on any
 * context, including a failed bchol_context_create). It names the routine, the argument
 * and its value, or holds the build log of a kernel that failed to build. Never NULL.
 */
BCHOL_API const char *bchol_last_error(const bchol_context *ctx);

/*
 * Warnings (e.g. a tuning file that could not be used, or a binary cache folder or entry
 * that is not the user's alone: once per process) go to this handler; by default they
 * are kept and bchol_last_warning returns the latest ("" if none).
 */
typedef void (*bchol_message_handler)(const char *message, void *user);
BCHOL_API void bchol_set_message_handler(bchol_context *ctx, bchol_message_handler handler,
                                         void *user);
BCHOL_API const char *bchol_last_warning(const bchol_context *ctx);

/* ---- device identity ------------------------------------------------------------- */

typedef struct bchol_device_info {
    char family[16];        /* backend: "nvidia", "pocl" or "generic" */
    char vendor[64];        /* normalized vendor: "NVIDIA", "Intel", "AMD", ... */
    char architecture[64];  /* "SM9.0" on NVIDIA, the CPU name on PoCL ("haswell"), or "" */
    char name[128];         /* device name, PoCL's "pthread-"/"cpu-<arch>-" prefixes removed */
    char raw_name[128];     /* CL_DEVICE_NAME as reported */
    char driver[64];        /* CL_DRIVER_VERSION */
    char platform[128];     /* CL_PLATFORM_NAME */
    char platform_version[128];
    cl_device_type type;
    int fp64;               /* CL_DEVICE_DOUBLE_FP_CONFIG is non-zero */
    unsigned compute_units;
    uint64_t global_mem;    /* bytes */
    uint64_t max_alloc;     /* bytes */
    uint64_t local_mem;     /* bytes */
    uint64_t local_mem_usable; /* bytes a kernel may ask for: local_mem less what the driver
                                  keeps per work-group (1 KiB on NVIDIA from sm_80) */
    size_t max_work_group;
    int platform_index, device_index;
} bchol_device_info;

BCHOL_API bchol_status bchol_context_device_info(const bchol_context *ctx,
                                                 bchol_device_info *info);

/* Number of devices over all platforms, and the identity of the i-th (0-based). */
BCHOL_API int bchol_device_count(void);
BCHOL_API bchol_status bchol_device_info_at(int index, bchol_device_info *info);

/* ---- timing ---------------------------------------------------------------------- */

/*
 * With timing on, each routine keeps the events of its first and last commands;
 * bchol_last_call_ms waits for that call and returns the device time from the start of
 * its first command to the end of its last (OpenCL profiling; the queue must have
 * profiling enabled). Meant for benchmarks on a context used by one thread.
 */
BCHOL_API void bchol_context_set_timing(bchol_context *ctx, int on);
BCHOL_API bchol_status bchol_last_call_ms(bchol_context *ctx, double *ms);

/* ---- Cholesky factorization, fixed size ------------------------------------------ */

/*
 * bchol_{s,d}potrf_batched: factors batch symmetric positive definite n-by-n matrices
 * stored in buffer A, matrix b at element offset + b*stride with leading dimension lda.
 *
 *   uplo    'L': A = L*L**T, the strictly upper part is not referenced;
 *           'U': A = U**T*U, the strictly lower part is not referenced.
 *   n       order of each matrix, n >= 0.
 *   A       cl_mem of float/double, at least offset + (batch-1)*stride + (n-1)*lda + n
 *           elements when batch > 0 and n > 0; overwritten by the factors.
 *   offset  element offset of matrix 0, offset >= 0.
 *   lda     leading dimension, lda >= max(1, n).
 *   stride  elements between consecutive matrices, stride >= lda*n.
 *   batch   number of matrices, batch >= 0.
 *   info    cl_mem of at least batch ints; info[b] as described at the top of this file.
 *   event   NULL, or receives the event of the last command enqueued.
 *
 * Returns BCHOL_SUCCESS once the work is enqueued, or a negative status (nothing
 * enqueued). n = 0 only sets info to zero; batch = 0 returns at once.
 */
BCHOL_API bchol_status bchol_spotrf_batched(bchol_context *ctx, char uplo, int n, cl_mem A,
                                            int64_t offset, int lda, int64_t stride,
                                            int64_t batch, cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dpotrf_batched(bchol_context *ctx, char uplo, int n, cl_mem A,
                                            int64_t offset, int lda, int64_t stride,
                                            int64_t batch, cl_mem info, cl_event *event);

/*
 * Synchronous conveniences on host arrays: copy to the device (in pieces if the batch is
 * larger than one device allocation), factor, copy back, wait. Matrix b starts at
 * A + b*stride. info must hold batch ints. Only the referenced triangle of each matrix
 * changes in A. When the device runs out of memory before anything has come back, the
 * pieces are halved and tried again. A piece is copied back only once factored, with its
 * info: after a failure each matrix and its info are either as they were or factored.
 */
BCHOL_API bchol_status bchol_spotrf_batched_host(bchol_context *ctx, char uplo, int n,
                                                 float *A, int lda, int64_t stride,
                                                 int64_t batch, int *info);
BCHOL_API bchol_status bchol_dpotrf_batched_host(bchol_context *ctx, char uplo, int n,
                                                 double *A, int lda, int64_t stride,
                                                 int64_t batch, int *info);

/* ---- expert interface: explicit variant and parameters (for tuners and benchmarks) -- */

typedef enum bchol_variant {
    BCHOL_VARIANT_AUTO = 0,        /* what the dispatcher picks for this device and size */
    BCHOL_VARIANT_FUSED = 1,       /* fused left-looking, one launch per ib-wide panel */
    BCHOL_VARIANT_SEPARATE = 2,    /* right-looking blocked: per nb-wide step, batched POTF2 +
                                      TRTRI of the diagonal block, TRSM, and the trailing
                                      update as GEMM tiles (any n) */
    BCHOL_VARIANT_INTERLEAVED = 3, /* strided batches: convert to interleaved, factor with a
                                      generated kernel (one work-item per matrix), convert back;
                                      with chunking = BCHOL_STAGED, one kernel whose work-groups
                                      do the three through local memory */
    BCHOL_VARIANT_WORKITEM = 4     /* one work-item per matrix, one launch: a blocked
                                      left-looking Cholesky on the strided matrix in place,
                                      no barriers, no local memory, inner loops as vectors
                                      along contiguous memory (for CPUs; any n, any device) */
} bchol_variant;

typedef struct bchol_params {
    bchol_variant variant;
    int ib;    /* fused: panel width (1..32) */
    int tbc;   /* fused: matrices per work-group (1..64) */
    int rpt;   /* fused: panel rows per work-item (>= 1) */
    int shape; /* fused: BCHOL_SHAPE_FIXED or BCHOL_SHAPE_SHRINK work-groups (vbatched
                  also BCHOL_SHAPE_PACK) */
    /* separate variant (fields after shape, so older initializers leave them 0) */
    int nb;    /* separate: block size of the right-looking loop (1..64; at most the
                  kernels' work-group limit) */
    int pb;    /* separate: inner block of the panel's POTF2 (1..64; >= nb: unblocked) */
    int gemm;  /* separate: BCHOL_GEMM_OWN or BCHOL_GEMM_CLBLAST trailing update */
    int tile;  /* separate: tile order of bchol's GEMM kernels (16, 32, 64 or 128) */
    int gb;    /* separate with CLBlast: order of the diagonal blocks left to bchol's SYRK
                  kernel, CLBlast updating the block columns below them (rounded up to a
                  multiple of tile) */
    /* interleaved (see bchol_spotrf_interleaved): */
    int inb;       /* tile size (1..n; corner tiles when inb does not divide n) */
    int looking;   /* BCHOL_LOOKING_LEFT, _RIGHT or _TOP: order of the tile operations */
    int unroll;    /* BCHOL_UNROLL_TILES (loops over tiles) or BCHOL_UNROLL_FULL */
    int chunking;  /* layout of the internal copy of a strided batch: BCHOL_CHUNKED,
                      BCHOL_SIMPLE (one chunk of the whole batch) or BCHOL_STAGED (no
                      copy: each work-group stages its matrices in local memory) */
    int chunk;     /* matrices per chunk of the internal copy, and work-items per
                      work-group (1..1024); staged: matrices per work-group (as many
                      as local memory holds at most) */
    int math;      /* BCHOL_MATH_IEEE (default) or BCHOL_MATH_FAST (-cl-mad-enable
                      -cl-no-signed-zeros; never changes info, see below) */
    /* workitem variant (fields last, so older initializers leave them 0): */
    int wnb;    /* block width of the left-looking loop (1..32) */
    int wvec;   /* elements per vector of the inner loops: 1, 2, 4, 8 or 16 */
    int wmr;    /* vectors (lower) or rows (upper) of the update's register tile: 1 or 2 */
    int wgroup; /* matrices (work-items) per work-group (1..256) */
} bchol_params;

/* GEMM of the separate variant's trailing update. CLBlast is available only when bchol
 * was built with it (CMake option BCHOL_WITH_CLBLAST); asking for it otherwise is
 * BCHOL_ERR_ARGUMENT. */
enum { BCHOL_GEMM_DEFAULT = 0, BCHOL_GEMM_OWN = 1, BCHOL_GEMM_CLBLAST = 2 };

/* Values of the interleaved fields of bchol_params (0 takes the default). */
enum {
    BCHOL_LOOKING_LEFT = 1,  /* lazy: update a block column from the left, then factor it */
    BCHOL_LOOKING_RIGHT = 2, /* eager: factor a block column, then update the trailing matrix */
    BCHOL_LOOKING_TOP = 3,   /* laziest: a block row from above, then its diagonal tile */
    BCHOL_UNROLL_TILES = 1,  /* tile operations unrolled, loops over the tiles */
    BCHOL_UNROLL_FULL = 2,   /* the whole factorization as straight-line code */
    BCHOL_CHUNKED = 1,
    BCHOL_SIMPLE = 2,
    BCHOL_STAGED = 3, /* strided batches: one kernel, each work-group copies its chunk
                         matrices into local memory, factors them and copies them back */
    BCHOL_MATH_IEEE = 1,
    BCHOL_MATH_FAST = 2 /* the parts of -cl-unsafe-math-optimizations that keep subnormals
                           and NaN/Inf: info is LAPACK's with either math (a positive
                           subnormal pivot passes). The whole option let drivers flush
                           subnormals to zero, and such a pivot gave info = its column. */
};

/* Work-group shape of the fused kernel over its steps. */
enum {
    BCHOL_SHAPE_DEFAULT = 0,
    BCHOL_SHAPE_FIXED = 1,  /* the same size at every step (one PoCL specialization) */
    BCHOL_SHAPE_SHRINK = 2, /* sized to the remaining rows at each step (the seed's choice) */
    BCHOL_SHAPE_PACK = 3    /* variable sizes only: each launch's work-groups keep about the
                               first launch's tbc*ceil(max_n/rpt) work-items; the work-items
                               per matrix shrink with the rows left, the matrices per group
                               grow (up to 64) */
};

/*
 * The parameters bchol_{s,d}potrf_batched would use for this precision ('s' or 'd') and
 * n on ctx's device, and where they came from. The variant is the dispatcher's choice (the
 * tuning table where it compared variants, else the backend's: interleaved, workitem,
 * fused or separate); every variant's fields are filled, each from the tuning table's entry for
 * that variant where it has one, else the backend defaults, so that params with a forced
 * variant run that variant's tuned values. *source is a text naming the tuning file,
 * device section and entry, or saying why the backend defaults apply (e.g. "backend pocl
 * defaults (BCHOL_TUNING_FILE=off)"); it stays valid until the next call of this function
 * in the same thread.
 */
BCHOL_API bchol_status bchol_potrf_params(bchol_context *ctx, char precision, int n,
                                          bchol_params *params, const char **source);

/* As bchol_{s,d}potrf_batched with explicit parameters; fields <= 0 take the default. */
BCHOL_API bchol_status bchol_spotrf_batched_ex(bchol_context *ctx, const bchol_params *params,
                                               char uplo, int n, cl_mem A, int64_t offset,
                                               int lda, int64_t stride, int64_t batch,
                                               cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dpotrf_batched_ex(bchol_context *ctx, const bchol_params *params,
                                               char uplo, int n, cl_mem A, int64_t offset,
                                               int lda, int64_t stride, int64_t batch,
                                               cl_mem info, cl_event *event);

/* ---- Cholesky solve, fixed size (potrs, posv) ------------------------------------- */

/*
 * bchol_{s,d}potrs_batched: solves A*X = B for batch matrices with the Cholesky factors
 * that bchol_{s,d}potrf_batched left in A: A = L*L**T ('L') or A = U**T*U ('U').
 *
 *   uplo      'L' or 'U': the triangle of A that holds the factor; the other triangle
 *             is not referenced.
 *   n         order of each matrix, n >= 0.
 *   nrhs      right-hand sides per matrix (columns of B), nrhs >= 0.
 *   A         cl_mem of float/double; factor b at element offset_a + b*stride_a with
 *             leading dimension lda. Only read.
 *   offset_a  >= 0.  lda >= max(1, n).  stride_a >= lda*n.
 *   B         cl_mem of the same type; the n-by-nrhs right-hand sides of matrix b at
 *             element offset_b + b*stride_b with leading dimension ldb, overwritten by
 *             the solution X. Nothing else in B is written.
 *   offset_b  >= 0.  ldb >= max(1, n).  stride_b >= ldb*nrhs.
 *   batch     number of systems, batch >= 0.
 *   event     NULL, or receives the event of the last command enqueued.
 *
 * Returns BCHOL_SUCCESS once the work is enqueued, or a negative status (nothing
 * enqueued). n = 0, nrhs = 0 or batch = 0 return at once (no event). Sizes up to the
 * largest n that bchol_{s,d}potrf_batched factors on the device are supported.
 */
BCHOL_API bchol_status bchol_spotrs_batched(bchol_context *ctx, char uplo, int n, int nrhs,
                                            cl_mem A, int64_t offset_a, int lda,
                                            int64_t stride_a, cl_mem B, int64_t offset_b,
                                            int ldb, int64_t stride_b, int64_t batch,
                                            cl_event *event);
BCHOL_API bchol_status bchol_dpotrs_batched(bchol_context *ctx, char uplo, int n, int nrhs,
                                            cl_mem A, int64_t offset_a, int lda,
                                            int64_t stride_a, cl_mem B, int64_t offset_b,
                                            int ldb, int64_t stride_b, int64_t batch,
                                            cl_event *event);

/*
 * bchol_{s,d}posv_batched: factors each A (as bchol_{s,d}potrf_batched) and solves
 * A*X = B with the factor (as bchol_{s,d}potrs_batched), in one call. Arguments as for
 * potrs, plus
 *   info      cl_mem of at least batch ints: info[b] as for potrf. A matrix whose
 *             factorization failed (info[b] > 0) keeps its B untouched; its A holds what
 *             potrf leaves (top of this file).
 * n = 0 sets info to zero; nrhs = 0 only factors; batch = 0 returns at once.
 */
BCHOL_API bchol_status bchol_sposv_batched(bchol_context *ctx, char uplo, int n, int nrhs,
                                           cl_mem A, int64_t offset_a, int lda,
                                           int64_t stride_a, cl_mem B, int64_t offset_b,
                                           int ldb, int64_t stride_b, int64_t batch,
                                           cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dposv_batched(bchol_context *ctx, char uplo, int n, int nrhs,
                                           cl_mem A, int64_t offset_a, int lda,
                                           int64_t stride_a, cl_mem B, int64_t offset_b,
                                           int ldb, int64_t stride_b, int64_t batch,
                                           cl_mem info, cl_event *event);

/*
 * Synchronous conveniences on host arrays: copy to the device (in pieces if the batch is
 * larger than one device allocation), solve, copy back, wait. Matrix b starts at
 * A + b*stride_a and its right-hand sides at B + b*stride_b. Only the n-by-nrhs block of
 * each matrix changes in B, and for posv only the referenced triangle in A; posv's info
 * must hold batch ints. A piece is copied back only once its work has run; a device out
 * of memory fails the call (the pieces are not halved, unlike potrf's).
 */
BCHOL_API bchol_status bchol_spotrs_batched_host(bchol_context *ctx, char uplo, int n,
                                                 int nrhs, const float *A, int lda,
                                                 int64_t stride_a, float *B, int ldb,
                                                 int64_t stride_b, int64_t batch);
BCHOL_API bchol_status bchol_dpotrs_batched_host(bchol_context *ctx, char uplo, int n,
                                                 int nrhs, const double *A, int lda,
                                                 int64_t stride_a, double *B, int ldb,
                                                 int64_t stride_b, int64_t batch);
BCHOL_API bchol_status bchol_sposv_batched_host(bchol_context *ctx, char uplo, int n,
                                                int nrhs, float *A, int lda, int64_t stride_a,
                                                float *B, int ldb, int64_t stride_b,
                                                int64_t batch, int *info);
BCHOL_API bchol_status bchol_dposv_batched_host(bchol_context *ctx, char uplo, int n,
                                                int nrhs, double *A, int lda, int64_t stride_a,
                                                double *B, int ldb, int64_t stride_b,
                                                int64_t batch, int *info);

/* Expert interface of the solve: explicit variant and parameters. */
typedef enum bchol_solve_variant {
    BCHOL_SOLVE_AUTO = 0, /* what the dispatcher picks for this device, n and nrhs */
    BCHOL_SOLVE_SUBST = 1, /* forward and back substitution in one launch, B in registers */
    BCHOL_SOLVE_WORKITEM = 2 /* one work-item per system, substitution on B in place along
                              * contiguous columns as vectors, no barriers (for CPUs; fixed
                              * and variable sizes) */
} bchol_solve_variant;

typedef struct bchol_solve_params {
    bchol_solve_variant variant;
    int nt;  /* subst: right-hand sides per tile (1..32); workitem: per pass (the rest one
              * by one) */
    int rpt; /* subst: rows per work-item (1..64; raised until the work-group fits) */
    int tbc; /* subst: tiles per work-group (1..64) */
} bchol_solve_params;

/* The parameters bchol_{s,d}potrs_batched would use for this precision ('s' or 'd'), n
 * and nrhs on ctx's device, and where they came from. The variant: the environment
 * variable BCHOL_SOLVE_VARIANT=subst|workitem, else a tuning file whose section for the
 * device measured both solves (its faster entry at the nearest measured n below and the
 * closest measured nrhs; see the tuning section below), else the backend's
 * (BCHOL_SOLVE_WORKITEM on PoCL CPUs, else BCHOL_SOLVE_SUBST). Its parameters: for the
 * substitution kernel a "solve" entry's, for the workitem solve a "solve-workitem"
 * entry's nt (and its vector width, which params has no field for: source names it), else
 * the backend's defaults. posv takes the same; the vbatched solve takes the variant as
 * above without the table, and "solve" entries only, at the batch's largest n and nrhs.
 * source (may be NULL) is valid until this thread's next call. */
BCHOL_API bchol_status bchol_potrs_params(bchol_context *ctx, char precision, int n, int nrhs,
                                          bchol_solve_params *params, const char **source);

/*
 * Builds the solve kernel (substitution or workitem) that bchol_{s,d}potrs_batched_ex
 * would use with params (NULL or fields <= 0: the dispatcher's choice) for precision 's'
 * or 'd', uplo, n and nrhs, so that a later call does not pay for the build, and returns
 * in *effective the parameters that will run: nt narrowed to nrhs, and for the
 * substitution kernel the work-group fitted to what the built kernel accepts
 * (CL_KERNEL_WORK_GROUP_SIZE), which may lower tbc or raise rpt.
 * n = 0 or nrhs = 0 builds nothing. Enqueues nothing. Fails with
 * BCHOL_ERR_UNSUPPORTED_SIZE when no work-group fits, or BCHOL_ERR_BUILD; bchol_last_error
 * says why.
 */
BCHOL_API bchol_status bchol_potrs_prepare(bchol_context *ctx, const bchol_solve_params *params,
                                           char precision, char uplo, int n, int nrhs,
                                           bchol_solve_params *effective);

/* As bchol_{s,d}potrs_batched with explicit parameters; fields <= 0 take the default.
 * params counts as argument 2: the others move one position on. */
BCHOL_API bchol_status bchol_spotrs_batched_ex(bchol_context *ctx,
                                               const bchol_solve_params *params, char uplo,
                                               int n, int nrhs, cl_mem A, int64_t offset_a,
                                               int lda, int64_t stride_a, cl_mem B,
                                               int64_t offset_b, int ldb, int64_t stride_b,
                                               int64_t batch, cl_event *event);
BCHOL_API bchol_status bchol_dpotrs_batched_ex(bchol_context *ctx,
                                               const bchol_solve_params *params, char uplo,
                                               int n, int nrhs, cl_mem A, int64_t offset_a,
                                               int lda, int64_t stride_a, cl_mem B,
                                               int64_t offset_b, int ldb, int64_t stride_b,
                                               int64_t batch, cl_event *event);
/* ---- Cholesky solve, variable sizes (potrs, posv) --------------------------------- */

/*
 * Per-matrix info values of the vbatched solve for a bad right-hand-side entry, after the
 * codes of the matrix arrays (BCHOL_INFO_BAD_N .. BCHOL_INFO_OVERLAP, below), which are
 * checked first. Such a matrix is left untouched (A and B) and the others are solved.
 */
enum {
    BCHOL_INFO_BAD_NRHS = -6,      /* nrhs[b] < 0 */
    BCHOL_INFO_BAD_LDB = -7,       /* ldb[b] < max(1, n[b]) */
    BCHOL_INFO_BAD_OFFSET_B = -8,  /* offsets_b[b] < 0, or the block runs past the end of B */
    BCHOL_INFO_ABOVE_MAX_NRHS = -9, /* nrhs[b] > max_nrhs given to the _ex form */
    BCHOL_INFO_OVERLAP_B = -10      /* the block overlaps another's (decided as for A) */
};

/*
 * bchol_{s,d}potrs_vbatched: solves A_b*X_b = B_b for batch matrices of different orders
 * and right-hand-side counts, with the Cholesky factors that bchol_{s,d}potrf_vbatched
 * left in A.
 *
 *   uplo       'L' or 'U': the triangle of each A_b that holds the factor.
 *   n          cl_mem of batch ints: order of matrix b (n[b] = 0 is skipped).
 *   nrhs       cl_mem of batch ints: right-hand sides of matrix b (nrhs[b] = 0 is skipped).
 *   lda        cl_mem of batch ints: lda[b] >= max(1, n[b]).
 *   ldb        cl_mem of batch ints: ldb[b] >= max(1, n[b]).
 *   offsets_a  cl_mem of batch int64 (cl_long): factor b starts at element offsets_a[b]
 *              of A. Footprints as for bchol_{s,d}potrf_vbatched (overlaps rejected).
 *   A          cl_mem of float/double holding the factors. Only read.
 *   offsets_b  cl_mem of batch int64: the n[b]-by-nrhs[b] block B_b starts at element
 *              offsets_b[b] of B with leading dimension ldb[b].
 *   B          cl_mem of the same type; each B_b is overwritten by X_b, nothing else in B
 *              is written. The footprint of B_b is [offsets_b[b], offsets_b[b] +
 *              (nrhs[b]-1)*ldb[b] + n[b]); overlaps are rejected in index order as for A.
 *   batch      number of systems, batch >= 0.
 *   info       cl_mem of at least batch ints: 0, or the BCHOL_INFO_* code of the first
 *              bad entry of matrix b (matrix codes, then the ones above); such a matrix
 *              is not solved.
 *   event      NULL, or receives the event of the last command enqueued.
 *
 * As for potrf_vbatched, the plain form finds the largest n and nrhs on the device and
 * reads those two numbers back (waiting for the work already in the queue); the _ex form
 * takes them from the caller and reads nothing back. Returns BCHOL_SUCCESS once enqueued,
 * a negative status for a bad argument (nothing enqueued), or BCHOL_ERR_UNSUPPORTED_SIZE
 * when no work-group of the substitution kernel fits the largest n (the workitem solve
 * has no such limit; A and B untouched;
 * from the plain form, which learns the largest n from the checks, info then already
 * holds their codes).
 */
BCHOL_API bchol_status bchol_spotrs_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem nrhs,
                                             cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                             cl_mem offsets_b, cl_mem B, int64_t batch,
                                             cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dpotrs_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem nrhs,
                                             cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                             cl_mem offsets_b, cl_mem B, int64_t batch,
                                             cl_mem info, cl_event *event);

/*
 * bchol_{s,d}posv_vbatched: factors each A_b (as bchol_{s,d}potrf_vbatched) and solves
 * A_b*X_b = B_b with the factor, in one call. Arguments as for potrs_vbatched; A is
 * overwritten by the factors. info[b] is 0, k > 0 (pivot k failed: B_b stays untouched,
 * A_b holds the partial factor) or a BCHOL_INFO_* code (A_b and B_b untouched). A matrix
 * with nrhs[b] = 0 is only factored. BCHOL_ERR_UNSUPPORTED_SIZE also when the largest n is
 * above what the vbatched factorization holds.
 */
BCHOL_API bchol_status bchol_sposv_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem nrhs,
                                            cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                            cl_mem offsets_b, cl_mem B, int64_t batch,
                                            cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dposv_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem nrhs,
                                            cl_mem lda, cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                            cl_mem offsets_b, cl_mem B, int64_t batch,
                                            cl_mem info, cl_event *event);

/*
 * As above with explicit solve parameters (NULL or fields <= 0 take the defaults) and the
 * caller's bounds max_n >= 0 of n[b] and max_nrhs >= 0 of nrhs[b]: nothing is read back.
 * A matrix above a bound gets BCHOL_INFO_ABOVE_MAX_N or BCHOL_INFO_ABOVE_MAX_NRHS. params
 * counts as argument 2 and max_n, max_nrhs as 4 and 5: the others move three positions
 * on. posv's factorization takes the parameters bchol_potrf_vbatched_params gives for the
 * batch.
 */
BCHOL_API bchol_status bchol_spotrs_vbatched_ex(bchol_context *ctx,
                                                const bchol_solve_params *params, char uplo,
                                                int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                                cl_mem lda, cl_mem ldb, cl_mem offsets_a,
                                                cl_mem A, cl_mem offsets_b, cl_mem B,
                                                int64_t batch, cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dpotrs_vbatched_ex(bchol_context *ctx,
                                                const bchol_solve_params *params, char uplo,
                                                int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                                cl_mem lda, cl_mem ldb, cl_mem offsets_a,
                                                cl_mem A, cl_mem offsets_b, cl_mem B,
                                                int64_t batch, cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_sposv_vbatched_ex(bchol_context *ctx,
                                               const bchol_solve_params *params, char uplo,
                                               int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                               cl_mem lda, cl_mem ldb, cl_mem offsets_a,
                                               cl_mem A, cl_mem offsets_b, cl_mem B,
                                               int64_t batch, cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dposv_vbatched_ex(bchol_context *ctx,
                                               const bchol_solve_params *params, char uplo,
                                               int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                               cl_mem lda, cl_mem ldb, cl_mem offsets_a,
                                               cl_mem A, cl_mem offsets_b, cl_mem B,
                                               int64_t batch, cl_mem info, cl_event *event);

/*
 * Synchronous conveniences on host arrays: every array holds batch entries, matrix b
 * starts at A + offsets_a[b] and its right-hand sides at B + offsets_b[b]; A and B must
 * hold everything the arrays describe. The spans of the well-formed matrices and blocks
 * are copied to the device and back (each must fit one allocation, else
 * BCHOL_ERR_OUT_OF_MEMORY). info gets the same values as on the device. Only the solved
 * blocks change in B, and for posv only the referenced triangles in A.
 */
BCHOL_API bchol_status bchol_spotrs_vbatched_host(bchol_context *ctx, char uplo, const int *n,
                                                  const int *nrhs, const int *lda,
                                                  const int *ldb, const int64_t *offsets_a,
                                                  const float *A, const int64_t *offsets_b,
                                                  float *B, int64_t batch, int *info);
BCHOL_API bchol_status bchol_dpotrs_vbatched_host(bchol_context *ctx, char uplo, const int *n,
                                                  const int *nrhs, const int *lda,
                                                  const int *ldb, const int64_t *offsets_a,
                                                  const double *A, const int64_t *offsets_b,
                                                  double *B, int64_t batch, int *info);
BCHOL_API bchol_status bchol_sposv_vbatched_host(bchol_context *ctx, char uplo, const int *n,
                                                 const int *nrhs, const int *lda, const int *ldb,
                                                 const int64_t *offsets_a, float *A,
                                                 const int64_t *offsets_b, float *B,
                                                 int64_t batch, int *info);
BCHOL_API bchol_status bchol_dposv_vbatched_host(bchol_context *ctx, char uplo, const int *n,
                                                 const int *nrhs, const int *lda, const int *ldb,
                                                 const int64_t *offsets_a, double *A,
                                                 const int64_t *offsets_b, double *B,
                                                 int64_t batch, int *info);

/* ---- Cholesky factorization, variable sizes ------------------------------------- */

/*
 * Per-matrix info values of the vbatched routines for a matrix whose own entry in the
 * arrays is invalid. The device checks each entry; such a matrix is left untouched and the
 * others are factored. A matrix gets the first code that applies:
 */
enum {
    BCHOL_INFO_BAD_N = -1,       /* n[b] < 0 */
    BCHOL_INFO_BAD_LDA = -2,     /* lda[b] < max(1, n[b]), or (n[b]-1)*lda[b] + n[b] > 2^31-1 */
    BCHOL_INFO_BAD_OFFSET = -3,  /* offsets[b] < 0, or the matrix runs past the end of A */
    BCHOL_INFO_ABOVE_MAX_N = -4, /* n[b] > max_n given to the _ex form */
    BCHOL_INFO_OVERLAP = -5      /* the footprint overlaps another matrix's (see below) */
};

/*
 * bchol_{s,d}potrf_vbatched: factors batch symmetric positive definite matrices of
 * different orders stored in one buffer A.
 *
 *   uplo     'L' or 'U' as for the fixed size.
 *   n        cl_mem of batch ints: n[b] is the order of matrix b (n[b] = 0 is skipped).
 *   lda      cl_mem of batch ints: leading dimension of matrix b, lda[b] >= max(1, n[b]).
 *   offsets  cl_mem of batch int64 (cl_long): matrix b starts at element offsets[b] of A.
 *   A        cl_mem of float/double holding every matrix; overwritten by the factors.
 *   batch    number of matrices, batch >= 0.
 *   info     cl_mem of at least batch ints: 0, k > 0 (pivot k failed, as for the fixed
 *            size), or a BCHOL_INFO_* code above.
 *   event    NULL, or receives the event of the last command enqueued.
 *
 * The footprint of matrix b is the elements [offsets[b], offsets[b] + (n[b]-1)*lda[b] +
 * n[b]) of A. Footprints must not overlap; the device decides it in index order: matrix b
 * is rejected (BCHOL_INFO_OVERLAP) if its footprint starts before the end of an earlier
 * matrix's or ends after the start of a later matrix's. That catches every overlap in
 * O(batch) and is exact for the usual layout (matrices in memory in index order, gaps
 * allowed); matrices laid out in another order are rejected even if disjoint. Entries
 * with n[b] = 0, or rejected for another reason, have no footprint.
 *
 * The sizes live on the device, so the plain form finds the largest n with a reduction
 * kernel and reads that one number back (it waits for the work already in the queue);
 * the _ex form takes max_n from the caller and reads nothing back. Matrices up to the
 * device's fused/separate crossover run the fused kernel, larger ones the separate
 * (right-looking blocked) variant, in the same call. Returns BCHOL_SUCCESS once enqueued,
 * or a negative status for a bad argument (nothing enqueued).
 */
BCHOL_API bchol_status bchol_spotrf_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem lda,
                                             cl_mem offsets, cl_mem A, int64_t batch, cl_mem info,
                                             cl_event *event);
BCHOL_API bchol_status bchol_dpotrf_vbatched(bchol_context *ctx, char uplo, cl_mem n, cl_mem lda,
                                             cl_mem offsets, cl_mem A, int64_t batch, cl_mem info,
                                             cl_event *event);

/* Early termination of idle work (Abdelfattah et al. 2016, Sec. 4). */
typedef enum bchol_etm {
    BCHOL_ETM_DEFAULT = 0,
    BCHOL_ETM_CLASSIC = 1,   /* work-groups without work leave (kept on PoCL, which hangs) */
    BCHOL_ETM_AGGRESSIVE = 2 /* also work-items without rows skip all work (barriers only) */
} bchol_etm;

/* When each matrix starts: launches are sized for the largest one. */
typedef enum bchol_schedule {
    BCHOL_SCHEDULE_DEFAULT = 0,
    BCHOL_SCHEDULE_GREEDY = 1,    /* every matrix at the first launch */
    BCHOL_SCHEDULE_LAZY = 2,      /* each as late as possible: all finish on the last launch */
    BCHOL_SCHEDULE_ONE_LAUNCH = 3 /* loop-inclusive: one launch in which each work-group runs
                                     all steps of its matrices (work-groups sized for the
                                     largest; the shape is not used) */
} bchol_schedule;

/* Which matrices share a work-group of the fused kernel (with tbc > 1 or the PACK shape). */
typedef enum bchol_order {
    BCHOL_ORDER_DEFAULT = 0,
    BCHOL_ORDER_INDEX = 1, /* consecutive matrices of the batch */
    BCHOL_ORDER_STEPS = 2  /* matrices with the same number of ib-wide panels (a counting sort
                              on the device per call, no read-back): they start and finish
                              on the same launches, so a group's loops are its matrices' own */
} bchol_order;

typedef struct bchol_vbatched_params {
    bchol_params fused; /* variant: AUTO (split by size class at the crossover; on CPUs
                           whose backend says so, the workitem kernel up to its bound in
                           place of the fused kernel; BCHOL_VBATCHED_VARIANT=workitem|fused
                           overrides that choice), FUSED, SEPARATE or WORKITEM (every matrix
                           through that variant; INTERLEAVED is BCHOL_ERR_ARGUMENT); ib, tbc,
                           rpt, shape of the fused kernel (tbc: matrices per work-group, fewer
                           where their panels would not fit local memory; shape also PACK);
                           nb, pb, tile of the separate variant (its own GEMM kernels: gemm
                           must be 0 or BCHOL_GEMM_OWN); wnb, wvec, wmr, wgroup of the
                           workitem kernel */
    bchol_etm etm;      /* of the fused kernel (the separate one's groups always leave) */
    bchol_schedule schedule;
    int crossover;      /* AUTO: matrices with n[b] <= crossover run the fused kernel, the
                           larger ones the separate variant, both in the same call (<= 0: the
                           device's: its fixed-size crossover for a batch whose max_n is within
                           it, its lower vbatched one for a batch that straddles it; capped at
                           what the fused kernel holds) */
    bchol_order order;  /* of the fused kernel's work-groups */
} bchol_vbatched_params;

/* The parameters the vbatched routines use for this precision, largest n and batch:
 * variant AUTO with the crossover filled in, the fused fields for the fused share (n up to
 * the crossover), the separate fields for max_n. The batch decides only the schedule: a
 * batch the device holds at once, with every matrix in the fused share, runs ONE_LAUNCH on
 * devices whose backend says so (NVIDIA: batch * max_n <= 1536 per compute unit, max_n <=
 * 192); batch = 0 asks for a batch that fills the device. batch < 0 is BCHOL_ERR_BATCH. */
BCHOL_API bchol_status bchol_potrf_vbatched_params(bchol_context *ctx, char precision, int max_n,
                                                   int64_t batch,
                                                   bchol_vbatched_params *params,
                                                   const char **source);

/*
 * As bchol_{s,d}potrf_vbatched with explicit parameters (NULL or fields <= 0 take the
 * defaults) and the caller's max_n >= 0, an upper bound of n[b]: nothing is read back.
 * A matrix with n[b] > max_n gets BCHOL_INFO_ABOVE_MAX_N. With params->fused.variant =
 * FUSED, max_n above what the fused kernel holds in local memory returns
 * BCHOL_ERR_UNSUPPORTED_SIZE (nothing enqueued).
 */
BCHOL_API bchol_status bchol_spotrf_vbatched_ex(bchol_context *ctx,
                                                const bchol_vbatched_params *params, char uplo,
                                                int max_n, cl_mem n, cl_mem lda, cl_mem offsets,
                                                cl_mem A, int64_t batch, cl_mem info,
                                                cl_event *event);
BCHOL_API bchol_status bchol_dpotrf_vbatched_ex(bchol_context *ctx,
                                                const bchol_vbatched_params *params, char uplo,
                                                int max_n, cl_mem n, cl_mem lda, cl_mem offsets,
                                                cl_mem A, int64_t batch, cl_mem info,
                                                cl_event *event);

/*
 * Synchronous conveniences on host arrays: n, lda, offsets and info hold batch entries,
 * matrix b starts at A + offsets[b], and A must hold every matrix the arrays describe (its
 * size is unknown here). The matrices' span (lowest offset to highest end among
 * well-formed entries) is copied to one device allocation and back; it must fit one (else
 * BCHOL_ERR_OUT_OF_MEMORY). Invalid entries get the same info codes as on the device, and
 * the largest n is found on the host. Only the referenced triangles of the factored
 * matrices change in A.
 */
BCHOL_API bchol_status bchol_spotrf_vbatched_host(bchol_context *ctx, char uplo, const int *n,
                                                  const int *lda, const int64_t *offsets,
                                                  float *A, int64_t batch, int *info);
BCHOL_API bchol_status bchol_dpotrf_vbatched_host(bchol_context *ctx, char uplo, const int *n,
                                                  const int *lda, const int64_t *offsets,
                                                  double *A, int64_t batch, int *info);
/* ---- tuning ---------------------------------------------------------------------- */

/*
 * The routines take their variant and parameters from a tuning file (JSON, written by
 * `bchol tune`) when one has an entry for the device: matched by vendor, then
 * architecture, then normalized name (bchol_device_info), each level exact before a
 * "default" entry; a size between measured sizes takes the nearest measured size below.
 * The solve's entries ("solve": the substitution kernel of potrs, posv and the vbatched
 * solve; "solve-workitem": the workitem solve of potrs and posv; not the interleaved
 * solve) were measured at one nrhs each: among the entries of that size, the one whose
 * nrhs is closest to the call's by ratio serves it (a tie: the larger nrhs); where both
 * kinds were measured there, the faster decides which solve runs.
 * The files come from $BCHOL_TUNING_FILE if set ("off" uses none), else every *.json in
 * $BCHOL_TUNING_DIR if set, else those shipped with bchol (share/bchol/tuning of the
 * installation the library runs from, also after the installed tree was moved to another
 * prefix; else the source tree's data/tuning). They are read at the first call
 * on a context that needs parameters. A file that cannot be used (unreadable, not JSON,
 * truncated, missing or mistyped fields, or a BCHOL_TUNING_FILE with nothing for this
 * device) gives one warning (bchol_set_message_handler, bchol_last_warning) and the
 * built-in defaults apply; so do a BCHOL_TUNING_DIR that is not a folder (which reads no
 * file, the shipped ones neither) and memory running out while the files are read. The built-in defaults are the device backend's; with
 * BCHOL_DEFAULTS=generic (read when a context is created) they are those bchol uses on a
 * device it does not know, whatever the device ("device", the default, or unset: the
 * backend's; another value gives one warning at the first call that needs parameters).
 */

/*
 * Builds the kernels that bchol_{s,d}potrf_batched_ex would use with params (NULL or
 * fields <= 0: the dispatcher's choice) for precision 's' or 'd', uplo and order n, so
 * that a later call does not pay for the build, and returns in *effective the parameters
 * that will run: the work-group is fitted to what the built kernel accepts
 * (CL_KERNEL_WORK_GROUP_SIZE), which may change tbc or rpt. Every variant's kernels are
 * built, except CLBlast's GEMM (built at its first call); for the interleaved variant,
 * those that batches of more than one work-group (params chunk) of matrices run.
 * Enqueues nothing. Fails with
 * BCHOL_ERR_UNSUPPORTED_SIZE when n does not fit local memory, BCHOL_ERR_RESOURCES when no
 * work-group fits, or BCHOL_ERR_BUILD; bchol_last_error says why.
 */
BCHOL_API bchol_status bchol_potrf_prepare(bchol_context *ctx, const bchol_params *params,
                                           char precision, char uplo, int n,
                                           bchol_params *effective);
/* ---- interleaved batches ---------------------------------------------------------- */

/*
 * Interleaved layout: the matrix index runs fastest. Element (i, j) of matrix b of a batch
 * with chunk size chunk is at element
 *
 *     ((b / chunk) * n*n + j*n + i) * chunk + b % chunk
 *
 * so that consecutive work-items (one per matrix) read consecutive addresses. chunk >=
 * batch is the simple layout (one chunk of the whole batch). A buffer holds at least
 * ((nchunks*n*n - 1) * chunk + (batch-1) % chunk + 1) elements, nchunks = ceil(batch /
 * chunk): the lanes of a last, partial chunk past the batch need not exist. Their values
 * never change. A buffer of whole chunks (nchunks*chunk*n*n elements) whose chunk is a
 * multiple of the work-group size (params chunk), or at least the batch rounded up to it,
 * lets the faster kernel run, which reads those lanes and, on CPU devices, writes their
 * own values back.
 */

/*
 * bchol_{s,d}potrf_interleaved: factors batch n-by-n SPD matrices stored interleaved in A
 * (layout above), with uplo, n, info and event as for bchol_{s,d}potrf_batched. Only the
 * stored triangle of each matrix is read and written (upper storage is native: U(i,j)
 * at (i,j)). A matrix whose pivot fails stops: its later tiles are not written.
 *
 *   chunk   matrices per chunk, chunk >= 1 (BCHOL_ERR_CHUNK otherwise).
 *
 * Returns as bchol_{s,d}potrf_batched. The _ex forms take explicit parameters (fields
 * <= 0 take the default; the layout is the caller's, so chunking is not used and chunk
 * is only the work-group size).
 */
BCHOL_API bchol_status bchol_spotrf_interleaved(bchol_context *ctx, char uplo, int n, cl_mem A,
                                                int64_t batch, int64_t chunk, cl_mem info,
                                                cl_event *event);
BCHOL_API bchol_status bchol_dpotrf_interleaved(bchol_context *ctx, char uplo, int n, cl_mem A,
                                                int64_t batch, int64_t chunk, cl_mem info,
                                                cl_event *event);
BCHOL_API bchol_status bchol_spotrf_interleaved_ex(bchol_context *ctx, const bchol_params *params,
                                                   char uplo, int n, cl_mem A, int64_t batch,
                                                   int64_t chunk, cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dpotrf_interleaved_ex(bchol_context *ctx, const bchol_params *params,
                                                   char uplo, int n, cl_mem A, int64_t batch,
                                                   int64_t chunk, cl_mem info, cl_event *event);

/*
 * bchol_potrf_interleaved_params: the interleaved fields (inb, looking, unroll, math, and
 * chunk as the work-group size) that bchol_{s,d}potrf_interleaved and posv_interleaved run
 * at order n, with the layout the tuner timed them on (chunking, chunk): the tuning
 * files' "interleaved-native" entry, measured on data already interleaved, else the
 * backend's defaults. bchol_potrf_params's interleaved fields are for strided batches
 * (conversions included) and may differ. variant is BCHOL_VARIANT_INTERLEAVED, the other
 * variants' fields their defaults; *source as for bchol_potrf_params. Returns
 * BCHOL_ERR_CONTEXT, BCHOL_ERR_ARGUMENT (precision, params) or BCHOL_ERR_N (n < 0).
 */
BCHOL_API bchol_status bchol_potrf_interleaved_params(bchol_context *ctx, char precision, int n,
                                                      bchol_params *params, const char **source);

/*
 * bchol_{s,d}interleave: copies a strided batch A (offset, lda, stride as for
 * bchol_{s,d}potrf_batched) into the interleaved buffer B with chunk size chunk.
 * bchol_{s,d}deinterleave: the inverse copy, from interleaved B into strided A.
 *
 *   uplo    'L' or 'U': copy only that triangle of each matrix; 'A': the whole matrix.
 *           Nothing else of the destination is written (not the other triangle, not the
 *           rows between n and lda, not the lanes past the batch).
 *
 * The copies are exact (bit for bit). Returns as bchol_{s,d}potrf_batched.
 */
BCHOL_API bchol_status bchol_sinterleave(bchol_context *ctx, char uplo, int n, cl_mem A,
                                         int64_t offset, int lda, int64_t stride, int64_t batch,
                                         cl_mem B, int64_t chunk, cl_event *event);
BCHOL_API bchol_status bchol_dinterleave(bchol_context *ctx, char uplo, int n, cl_mem A,
                                         int64_t offset, int lda, int64_t stride, int64_t batch,
                                         cl_mem B, int64_t chunk, cl_event *event);
BCHOL_API bchol_status bchol_sdeinterleave(bchol_context *ctx, char uplo, int n, cl_mem B,
                                           int64_t batch, int64_t chunk, cl_mem A, int64_t offset,
                                           int lda, int64_t stride, cl_event *event);
BCHOL_API bchol_status bchol_ddeinterleave(bchol_context *ctx, char uplo, int n, cl_mem B,
                                           int64_t batch, int64_t chunk, cl_mem A, int64_t offset,
                                           int lda, int64_t stride, cl_event *event);

/* ---- interleaved batches: solve (potrs, posv) -- */

/*
 * Interleaved right-hand sides: element (i, r) of the n-by-nrhs right-hand sides of matrix
 * b (chunk size chunk, as the matrices' layout above) is at element
 *
 *     ((b / chunk) * n*nrhs + r*n + i) * chunk + b % chunk
 *
 * A buffer holds at least ((nchunks*n*nrhs - 1) * chunk + (batch-1) % chunk + 1) elements,
 * nchunks = ceil(batch / chunk); lanes past the batch need not exist and are never touched.
 */

/*
 * bchol_{s,d}potrs_interleaved: solves A*X = B for batch systems whose Cholesky factors
 * (from bchol_{s,d}potrf_interleaved) are interleaved in A and whose right-hand sides are
 * interleaved in B, both with chunk size chunk; X overwrites B.
 *
 *   uplo   'L' or 'U': the triangle of A that holds the factor (the other is not read).
 *   n      order, n >= 0.   nrhs   right-hand sides per matrix, nrhs >= 0.
 *   A      cl_mem of float/double (interleaved layout, order n). Only read.
 *   B      cl_mem of the same type (interleaved right-hand sides above).
 *   batch  >= 0.   chunk  >= 1 (BCHOL_ERR_CHUNK otherwise).
 *   event  NULL, or receives the event of the last command enqueued.
 *
 * Returns as bchol_{s,d}potrs_batched; n = 0, nrhs = 0 or batch = 0 return at once.
 * The _ex forms take params (argument 2): nt right-hand sides per work-item (1..32), tbc
 * matrices per work-group (1..64); rpt is not used; fields <= 0 take the default.
 */
BCHOL_API bchol_status bchol_spotrs_interleaved(bchol_context *ctx, char uplo, int n, int nrhs,
                                                cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                                cl_event *event);
BCHOL_API bchol_status bchol_dpotrs_interleaved(bchol_context *ctx, char uplo, int n, int nrhs,
                                                cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                                cl_event *event);
BCHOL_API bchol_status bchol_spotrs_interleaved_ex(bchol_context *ctx,
                                                   const bchol_solve_params *params, char uplo,
                                                   int n, int nrhs, cl_mem A, cl_mem B,
                                                   int64_t batch, int64_t chunk, cl_event *event);
BCHOL_API bchol_status bchol_dpotrs_interleaved_ex(bchol_context *ctx,
                                                   const bchol_solve_params *params, char uplo,
                                                   int n, int nrhs, cl_mem A, cl_mem B,
                                                   int64_t batch, int64_t chunk, cl_event *event);

/*
 * bchol_{s,d}posv_interleaved: factors each A (as bchol_{s,d}potrf_interleaved) and
 * solves A*X = B (as bchol_{s,d}potrs_interleaved) in one call. Arguments as for potrs,
 * plus info (argument 9): cl_mem of at least batch ints, info[b] as for potrf. A matrix
 * whose factorization failed keeps its B untouched. n = 0 sets info to zero; nrhs = 0
 * only factors. The _ex forms take the factorization's params (argument 2) as
 * bchol_{s,d}potrf_interleaved_ex.
 */
BCHOL_API bchol_status bchol_sposv_interleaved(bchol_context *ctx, char uplo, int n, int nrhs,
                                               cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                               cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dposv_interleaved(bchol_context *ctx, char uplo, int n, int nrhs,
                                               cl_mem A, cl_mem B, int64_t batch, int64_t chunk,
                                               cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_sposv_interleaved_ex(bchol_context *ctx, const bchol_params *params,
                                                  char uplo, int n, int nrhs, cl_mem A, cl_mem B,
                                                  int64_t batch, int64_t chunk, cl_mem info,
                                                  cl_event *event);
BCHOL_API bchol_status bchol_dposv_interleaved_ex(bchol_context *ctx, const bchol_params *params,
                                                  char uplo, int n, int nrhs, cl_mem A, cl_mem B,
                                                  int64_t batch, int64_t chunk, cl_mem info,
                                                  cl_event *event);

/*
 * Synchronous conveniences on host arrays in the interleaved layout (the matrices' above,
 * the right-hand sides' likewise, with the same chunk): copy to the device, factor and/or
 * solve, copy back, wait. Arguments in the order of the device forms, with host pointers
 * for A and B and a host array of batch ints for info. The arrays need only the spans
 * given above; the lanes past the batch never change. The batch goes to the device in
 * pieces of whole chunks, as many as one device allocation holds (a batch whose one
 * chunk does not fit fails with BCHOL_ERR_OUT_OF_MEMORY: a smaller chunk splits); when the
 * device runs out of memory before anything has come back, the pieces are halved and
 * tried again. A piece is copied back only once its work has run: after a failure each
 * matrix with its right-hand sides and info is either as it was or done (factored,
 * solved; posv: a matrix whose factorization failed keeps its B). Quick returns as the
 * device forms: n = 0 sets info to zero (potrf, posv), nrhs = 0 returns (potrs) or only
 * factors (posv); a pointer the call does not use may be NULL.
 */
BCHOL_API bchol_status bchol_spotrf_interleaved_host(bchol_context *ctx, char uplo, int n,
                                                     float *A, int64_t batch, int64_t chunk,
                                                     int *info);
BCHOL_API bchol_status bchol_dpotrf_interleaved_host(bchol_context *ctx, char uplo, int n,
                                                     double *A, int64_t batch, int64_t chunk,
                                                     int *info);
BCHOL_API bchol_status bchol_spotrs_interleaved_host(bchol_context *ctx, char uplo, int n,
                                                     int nrhs, const float *A, float *B,
                                                     int64_t batch, int64_t chunk);
BCHOL_API bchol_status bchol_dpotrs_interleaved_host(bchol_context *ctx, char uplo, int n,
                                                     int nrhs, const double *A, double *B,
                                                     int64_t batch, int64_t chunk);
BCHOL_API bchol_status bchol_sposv_interleaved_host(bchol_context *ctx, char uplo, int n,
                                                    int nrhs, float *A, float *B, int64_t batch,
                                                    int64_t chunk, int *info);
BCHOL_API bchol_status bchol_dposv_interleaved_host(bchol_context *ctx, char uplo, int n,
                                                    int nrhs, double *A, double *B,
                                                    int64_t batch, int64_t chunk, int *info);

/*
 * bchol_{s,d}interleave_rhs: copies strided right-hand sides B (matrix b's n-by-nrhs block
 * at offset + b*stride, leading dimension ldb >= max(1, n), stride >= ldb*nrhs) into the
 * interleaved buffer Bi (layout above). bchol_{s,d}deinterleave_rhs: the inverse copy.
 * Only the n-by-nrhs blocks of the destination are written; the copies are exact.
 * Returns as bchol_{s,d}interleave.
 */
BCHOL_API bchol_status bchol_sinterleave_rhs(bchol_context *ctx, int n, int nrhs, cl_mem B,
                                             int64_t offset, int ldb, int64_t stride,
                                             int64_t batch, cl_mem Bi, int64_t chunk,
                                             cl_event *event);
BCHOL_API bchol_status bchol_dinterleave_rhs(bchol_context *ctx, int n, int nrhs, cl_mem B,
                                             int64_t offset, int ldb, int64_t stride,
                                             int64_t batch, cl_mem Bi, int64_t chunk,
                                             cl_event *event);
BCHOL_API bchol_status bchol_sdeinterleave_rhs(bchol_context *ctx, int n, int nrhs, cl_mem Bi,
                                               int64_t batch, int64_t chunk, cl_mem B,
                                               int64_t offset, int ldb, int64_t stride,
                                               cl_event *event);
BCHOL_API bchol_status bchol_ddeinterleave_rhs(bchol_context *ctx, int n, int nrhs, cl_mem Bi,
                                               int64_t batch, int64_t chunk, cl_mem B,
                                               int64_t offset, int ldb, int64_t stride,
                                               cl_event *event);

/* ---- LU factorization with partial pivoting, fixed size --------------------------- */

/*
 * bchol_{s,d}getrf_batched: P*A = L*U for batch general m-by-n matrices (LAPACK getrf):
 * L unit lower triangular (trapezoidal if m > n), U upper triangular (trapezoidal if
 * m < n), both stored over A (the unit diagonal of L is not stored).
 *
 *   m, n     rows and columns of each matrix, >= 0.
 *   A        cl_mem of float/double; matrix b at element offset_a + b*stride_a, leading
 *            dimension lda >= max(1, m), stride_a >= lda*n. Overwritten by L and U;
 *            nothing outside the m-by-n block of each matrix is written.
 *   ipiv     cl_mem of int32; the min(m, n) pivots of matrix b at element
 *            offset_p + b*stride_p (stride_p >= min(m, n)): 1-based as LAPACK's, row i
 *            was interchanged with row ipiv[i].
 *   info     cl_mem of at least batch ints: info[b] = 0, or k > 0 for the smallest k
 *            where U(k,k) is exactly zero (LAPACK: the factorization was completed, U is
 *            singular) or is not finite (bchol's extension, as for potrf: a NaN or an
 *            infinity reached the pivot; what A then holds is not meaningful). The pivot
 *            search orders |a| as LAPACK's idamax (the first of equal values) but takes a
 *            NaN or an infinity as larger than every finite value, so that a non-finite
 *            value in column k becomes that column's pivot (LAPACK's idamax passes over a
 *            NaN). Where |U(k,k)| is below the smallest normal number, column k of L is
 *            divided by it rather than scaled by its reciprocal, as LAPACK's dgetf2.
 *   event    NULL, or receives the event of the last command enqueued.
 *
 * m = 0 or n = 0 only sets info to zero; batch = 0 returns at once.
 *
 * Sizes: any. Two general variants, chosen per call: the fused kernel factors each matrix whole
 * in the local memory of one work-group (m*n elements plus one element and one int per
 * work-item, at most 64 a matrix: square matrices up to n = 511 float and 361 double on
 * PoCL's CPU device, 1 MiB; 109 and 76 on NVIDIA GPUs, 48 KiB less 1 KiB left to the
 * driver); the blocked variant (right-looking, nb-wide panels: panel factorization with
 * partial pivoting, the interchanges on the other columns, a triangular solve for U's
 * block row and a GEMM update of the trailing matrix, each batched over the whole batch)
 * takes every size. The fused kernel runs where the matrix fits and max(m, n) is at most
 * the device family's crossover (PoCL 192, NVIDIA 64, others wherever it fits), the
 * blocked variant otherwise. Pivots, info and the untouched memory are the same in both;
 * the factors differ by rounding. Two more take small orders first: workitem (one
 * work-item per matrix, for CPUs: PoCL up to max(m, n) = 512) and regs (a work-item per
 * row holding it in registers, for GPUs: NVIDIA up to max(m, n) = 96 float, 64 double;
 * it needs m work-items in one work-group). Where a tuning file (bchol tune --variants
 * getrf) has getrf entries for the device, the nearest measured size at or below max(m, n)
 * picks the variant and its parameters instead (bchol_getrf_config_for); an entry whose
 * variant cannot run the size (fused past local memory, regs past its work-group or local
 * memory) leaves the choice to the defaults.
 * The environment variable BCHOL_GETRF ("fused", "auto", "workitem[,tbc=T][,nb=1..64]",
 * "regs[,tbc=T]" or
 * "blocked[,nb=1..64][,gemm=own|clblast][,panel=global]", any with ",lx=LX,tbc=TBC" for the
 * fused kernel's shape) overrides both (tests, benchmarks, the tuner); "fused" on a matrix
 * that does not fit, or "regs" where it cannot run, fails with BCHOL_ERR_UNSUPPORTED_SIZE
 * before anything is enqueued. The same holds for getrf_nopiv, gesv and the host forms.
 */
BCHOL_API bchol_status bchol_sgetrf_batched(bchol_context *ctx, int m, int n, cl_mem A,
                                            int64_t offset_a, int lda, int64_t stride_a,
                                            cl_mem ipiv, int64_t offset_p, int64_t stride_p,
                                            int64_t batch, cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dgetrf_batched(bchol_context *ctx, int m, int n, cl_mem A,
                                            int64_t offset_a, int lda, int64_t stride_a,
                                            cl_mem ipiv, int64_t offset_p, int64_t stride_p,
                                            int64_t batch, cl_mem info, cl_event *event);

/* getrf's variants: the fused kernel (the matrix whole in one work-group's local memory),
 * blocked (right-looking, nb-wide panels) and workitem (one work-item per matrix, for
 * CPUs). AUTO: the dispatcher's choice. */
typedef enum {
    BCHOL_GETRF_AUTO = 0,
    BCHOL_GETRF_FUSED = 1,
    BCHOL_GETRF_BLOCKED = 2,
    BCHOL_GETRF_WORKITEM = 3,
    BCHOL_GETRF_REGS = 4
} bchol_getrf_variant;

/* getrf's variant and its parameters; fields of the other variants are 0.
 *   fused     lx work-items per matrix, tbc matrices per work-group
 *   blocked   nb panel width, gemm BCHOL_GEMM_OWN or BCHOL_GEMM_CLBLAST, ib the inner
 *             panels' width (0: none; used where it divides nb)
 *   workitem  tbc matrices (work-items) per work-group, nb its panel width (1: unblocked)
 *   regs      tbc matrices per work-group (0: the driver's) */
typedef struct bchol_getrf_config {
    bchol_getrf_variant variant;
    int lx, tbc, nb, gemm;
    int ib;
} bchol_getrf_config;

/*
 * What bchol_{s,d}getrf_batched (and gesv, getri's callers, the host forms) would run for
 * m-by-n matrices of precision 's' or 'd' on ctx's device: BCHOL_GETRF's choice where set,
 * else the tuning table's getrf entry for max(m, n), else the backend's defaults; the
 * fused shape fields (lx, tbc) as the kernel would be launched before the built kernel's
 * work-group limit is applied. *source (may be NULL) names the tuning file, device
 * section and entry, or why the defaults apply; it stays valid until the next call of
 * this function in the same thread. Returns BCHOL_SUCCESS, BCHOL_ERR_ARGUMENT (precision,
 * m or n < 0, a malformed BCHOL_GETRF), or BCHOL_ERR_UNSUPPORTED_SIZE where BCHOL_GETRF
 * forces the fused kernel on a size it cannot hold.
 */
BCHOL_API bchol_status bchol_getrf_config_for(bchol_context *ctx, char precision, int m, int n,
                                              bchol_getrf_config *config, const char **source);

/*
 * bchol_{s,d}getrf_nopiv_batched: A = L*U without row interchanges. Only safe where every
 * leading minor is well conditioned (e.g. diagonally dominant by columns): on other
 * matrices it can lose all accuracy without any sign. info[b] = k for the first U(k,k)
 * that is zero or not finite; arguments as getrf's.
 */
BCHOL_API bchol_status bchol_sgetrf_nopiv_batched(bchol_context *ctx, int m, int n, cl_mem A,
                                                  int64_t offset_a, int lda, int64_t stride_a,
                                                  int64_t batch, cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dgetrf_nopiv_batched(bchol_context *ctx, int m, int n, cl_mem A,
                                                  int64_t offset_a, int lda, int64_t stride_a,
                                                  int64_t batch, cl_mem info, cl_event *event);

/*
 * bchol_{s,d}getrs_batched: solves A*X = B (trans 'N') or A**T*X = B (trans 'T') with the
 * factors and pivots of getrf (n-by-n). B (n-by-nrhs, ldb >= max(1, n), stride_b >=
 * ldb*nrhs) is overwritten by X; A and ipiv are only read. As LAPACK's getrs, a singular
 * U is not checked: call it only for info[b] = 0.
 *
 *   trans    'N' or 'T' (either case); 'C' is not accepted (BCHOL_ERR_TRANS).
 *   A, ipiv  as getrf's output with m = n: matrix b at element offset_a + b*stride_a,
 *            stride_a >= lda*n; its n pivots (1-based) at offset_p + b*stride_p, stride_p
 *            >= n. A pivot outside [k, n] at position k (1-based) is taken as no interchange.
 *   B        matrix b at element offset_b + b*stride_b; only its n-by-nrhs block is
 *            written. B must share no byte with A or ipiv.
 *
 * n = 0, nrhs = 0 or batch = 0 returns at once (no buffer is checked then). Any nrhs;
 * n up to 64 times the kernel's work-group limit (BCHOL_ERR_UNSUPPORTED_SIZE beyond).
 */
BCHOL_API bchol_status bchol_sgetrs_batched(bchol_context *ctx, char trans, int n, int nrhs,
                                            cl_mem A, int64_t offset_a, int lda,
                                            int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                            int64_t stride_p, cl_mem B, int64_t offset_b,
                                            int ldb, int64_t stride_b, int64_t batch,
                                            cl_event *event);
BCHOL_API bchol_status bchol_dgetrs_batched(bchol_context *ctx, char trans, int n, int nrhs,
                                            cl_mem A, int64_t offset_a, int lda,
                                            int64_t stride_a, cl_mem ipiv, int64_t offset_p,
                                            int64_t stride_p, cl_mem B, int64_t offset_b,
                                            int ldb, int64_t stride_b, int64_t batch,
                                            cl_event *event);

/*
 * The solve that getrs of precision 's' or 'd', trans 'N' or 'T', n and nrhs runs, and in
 * *source (may be NULL; valid until this thread's next call) why. The variant: the
 * substitution kernel (BCHOL_SOLVE_SUBST) where BCHOL_LU_SOLVE_SHAPE is set, else
 * BCHOL_LU_SOLVE_VARIANT=subst|workitem, else the backend's (BCHOL_SOLVE_WORKITEM, one
 * work-item per system, on PoCL CPUs; else BCHOL_SOLVE_SUBST). The substitution kernel's
 * shape (nt, rpt, tbc): BCHOL_LU_SOLVE_SHAPE="nt,rpt,tbc", else the tuning file's "getrs"
 * entry (bchol tune --variants getrs; the nearest measured n at or below n, then the
 * closest measured nrhs by ratio, as potrs' solve entries), else the backend's defaults;
 * the workitem solve's nt (right-hand sides a pass) from the backend's defaults and its
 * vector width (source names it) from BCHOL_LU_SOLVE_WORKITEM_VW=1|2|4|8|16, else 8.
 * gesv takes the same; getri's solve path asks with nrhs = n. With n, nrhs > 0 the kernel
 * is built and the shape fitted to it (nt narrowed to nrhs; for the substitution kernel
 * tbc lowered or rpt raised to the work-group the built kernel takes), as the call would:
 * a later getrs does not pay for the build. Enqueues nothing.
 */
BCHOL_API bchol_status bchol_getrs_params(bchol_context *ctx, char precision, char trans, int n,
                                          int nrhs, bchol_solve_params *params,
                                          const char **source);

/*
 * bchol_{s,d}gesv_batched: getrf then getrs ('N') in one call. A matrix with info[b] > 0
 * keeps its B untouched (A and ipiv hold getrf's output). Arguments as getrf's (m = n) and
 * getrs's; info as getrf's. n = 0 only sets info to zero, nrhs = 0 only factors, batch = 0
 * returns at once. Sizes: getrf's (any) and getrs's (n up to 64 times the solve kernel's
 * work-group limit, e.g. 65536 on NVIDIA); beyond them BCHOL_ERR_UNSUPPORTED_SIZE before
 * anything is enqueued (A untouched).
 */
BCHOL_API bchol_status bchol_sgesv_batched(bchol_context *ctx, int n, int nrhs, cl_mem A,
                                           int64_t offset_a, int lda, int64_t stride_a,
                                           cl_mem ipiv, int64_t offset_p, int64_t stride_p,
                                           cl_mem B, int64_t offset_b, int ldb,
                                           int64_t stride_b, int64_t batch, cl_mem info,
                                           cl_event *event);
BCHOL_API bchol_status bchol_dgesv_batched(bchol_context *ctx, int n, int nrhs, cl_mem A,
                                           int64_t offset_a, int lda, int64_t stride_a,
                                           cl_mem ipiv, int64_t offset_p, int64_t stride_p,
                                           cl_mem B, int64_t offset_b, int ldb,
                                           int64_t stride_b, int64_t batch, cl_mem info,
                                           cl_event *event);

/*
 * bchol_{s,d}getri_batched: C = inv(A) from getrf's factors and pivots of A (n-by-n), out
 * of place (A and ipiv only read, laid out as for getrs; C: matrix b at element offset_c +
 * b*stride_c, ldc >= max(1, n), stride_c >= ldc*n, only its n-by-n block written; C and
 * info must share no byte with A, ipiv or each other). info[b] = k > 0 for the smallest k
 * where U(k,k) is zero or not finite, else 0: C of that matrix is left untouched.
 * n = 0 only sets info to zero; batch = 0 returns at once. LAPACK's dgetri (inv(U), then
 * the solve with L, then the column interchanges) or, for small n, the solve of A*C = I,
 * as the device's defaults choose; dgetri's blocked form (larger n) takes device scratch
 * memory of n*n elements a matrix, up to 1 GiB at a time (the batch in pieces). Sizes: any
 * n whose n-by-n scratch one allocation holds.
 */
BCHOL_API bchol_status bchol_sgetri_batched(bchol_context *ctx, int n, cl_mem A,
                                            int64_t offset_a, int lda, int64_t stride_a,
                                            cl_mem ipiv, int64_t offset_p, int64_t stride_p,
                                            cl_mem C, int64_t offset_c, int ldc,
                                            int64_t stride_c, int64_t batch, cl_mem info,
                                            cl_event *event);
BCHOL_API bchol_status bchol_dgetri_batched(bchol_context *ctx, int n, cl_mem A,
                                            int64_t offset_a, int lda, int64_t stride_a,
                                            cl_mem ipiv, int64_t offset_p, int64_t stride_p,
                                            cl_mem C, int64_t offset_c, int ldc,
                                            int64_t stride_c, int64_t batch, cl_mem info,
                                            cl_event *event);

/* getri's paths: the solve of A*C = I with getrs' kernel (2n^3 flops), dgetri's steps row
 * by row in one launch (n <= 64), and dgetri blocked (GEMMs between row-wise triangular
 * solves, panels nb wide). AUTO: the dispatcher's choice. */
typedef enum {
    BCHOL_GETRI_AUTO = 0,
    BCHOL_GETRI_SOLVE = 1,
    BCHOL_GETRI_FUSED = 2,
    BCHOL_GETRI_BLOCKED = 3
} bchol_getri_path;

/* getri's path and, for the blocked path, its panel width nb (else 0). */
typedef struct bchol_getri_config {
    bchol_getri_path path;
    int nb;
} bchol_getri_config;

/*
 * What bchol_{s,d}getri_batched would run for order n > 0 in precision 's' or 'd' on ctx's
 * device: BCHOL_GETRI's choice where set, else the tuning table's getri entry for n (the
 * nearest measured n at or below it) where its path can run n, else the backend's
 * defaults. *source (may be NULL) names the tuning file, device section and entry, or why
 * the defaults apply; valid until the next call of this function in the same thread.
 * Returns BCHOL_SUCCESS or BCHOL_ERR_ARGUMENT (precision, n < 1, a malformed BCHOL_GETRI,
 * the fused path forced above n = 64).
 */
BCHOL_API bchol_status bchol_getri_config_for(bchol_context *ctx, char precision, int n,
                                              bchol_getri_config *config, const char **source);

/* ---- LU on interleaved batches (tiny n) ---------------------------------------------- */

/*
 * bchol_{s,d}getrf_interleaved: P*A = L*U (as bchol_{s,d}getrf_batched, m = n) for batch
 * n-by-n matrices stored interleaved in A: the layout of bchol_{s,d}potrf_interleaved
 * (element (i, j) of matrix b at ((b / chunk) * n*n + j*n + i) * chunk + b % chunk), the
 * whole matrix read and overwritten by L (unit, not stored) and U. bchol_{s,d}interleave
 * and deinterleave with uplo 'A' convert whole matrices from and to strided batches.
 *
 *   n       order, 0 <= n <= 32: each matrix is factored by one work-item in its private
 *           memory; n > 32 is BCHOL_ERR_UNSUPPORTED_SIZE (use bchol_{s,d}getrf_batched).
 *   A       cl_mem of float/double, the interleaved layout (buffer size as there).
 *   ipiv    cl_mem of int32, interleaved the same way with n elements per matrix: pivot i
 *           (0-based position) of matrix b at ((b / chunk) * n + i) * chunk + b % chunk,
 *           1-based as LAPACK's (row i+1 was interchanged with row ipiv). The buffer holds
 *           at least ((nchunks*n - 1) * chunk + (batch-1) % chunk + 1) ints.
 *   batch   >= 0.   chunk   matrices per chunk, >= 1 (BCHOL_ERR_CHUNK otherwise).
 *   info    cl_mem of at least batch ints, as getrf's: 0, or the first k (1-based) where
 *           U(k,k) is exactly zero (factorization completed) or not finite. The pivot
 *           search is bchol_{s,d}getrf_batched's (the first of equal |a|, a NaN or an
 *           infinity above every finite value; |U(k,k)| below the smallest normal number
 *           divides rather than scales).
 *   event   NULL, or receives the event of the last command enqueued.
 *
 * Lanes past the batch (of a last, partial chunk) are neither read nor written. n = 0
 * only sets info to zero; batch = 0 returns at once. Returns as getrf_batched.
 */
BCHOL_API bchol_status bchol_sgetrf_interleaved(bchol_context *ctx, int n, cl_mem A, cl_mem ipiv,
                                                int64_t batch, int64_t chunk, cl_mem info,
                                                cl_event *event);
BCHOL_API bchol_status bchol_dgetrf_interleaved(bchol_context *ctx, int n, cl_mem A, cl_mem ipiv,
                                                int64_t batch, int64_t chunk, cl_mem info,
                                                cl_event *event);

/*
 * bchol_{s,d}getrs_interleaved: solves A*X = B (trans 'N') or A**T*X = B ('T') with the
 * factors and pivots of bchol_{s,d}getrf_interleaved (A, ipiv as its output, only read;
 * same n and chunk). B holds the right-hand sides interleaved as for
 * bchol_{s,d}potrs_interleaved (element (i, r) of matrix b's n-by-nrhs block at
 * ((b / chunk) * n*nrhs + r*n + i) * chunk + b % chunk; bchol_{s,d}interleave_rhs) and is
 * overwritten by X; B must share no byte with A or ipiv. As LAPACK's getrs, a singular U
 * is not checked: call it only for info[b] = 0. A pivot outside [i+1, n] at position i
 * swaps nothing. Lanes past the batch are never touched.
 *
 *   trans   'N' or 'T' (either case), BCHOL_ERR_TRANS otherwise.
 *   n       0 <= n <= 32 (BCHOL_ERR_UNSUPPORTED_SIZE beyond).   nrhs  >= 0.
 *   batch   >= 0.   chunk   >= 1.
 *
 * n = 0, nrhs = 0 or batch = 0 return at once (no buffer is checked then).
 */
BCHOL_API bchol_status bchol_sgetrs_interleaved(bchol_context *ctx, char trans, int n, int nrhs,
                                                cl_mem A, cl_mem ipiv, cl_mem B, int64_t batch,
                                                int64_t chunk, cl_event *event);
BCHOL_API bchol_status bchol_dgetrs_interleaved(bchol_context *ctx, char trans, int n, int nrhs,
                                                cl_mem A, cl_mem ipiv, cl_mem B, int64_t batch,
                                                int64_t chunk, cl_event *event);

/*
 * Synchronous conveniences on host arrays (copy in, compute, copy back, wait), as the
 * Cholesky _host forms: matrix b at A + b*stride_a, its pivots at ipiv + b*stride_p, its
 * right-hand sides at B + b*stride_b; only what the device routine may write changes.
 * getrf halves its pieces on out of memory as potrf does; gesv, as posv, does not.
 */
BCHOL_API bchol_status bchol_sgetrf_batched_host(bchol_context *ctx, int m, int n, float *A,
                                                 int lda, int64_t stride_a, int *ipiv,
                                                 int64_t stride_p, int64_t batch, int *info);
BCHOL_API bchol_status bchol_dgetrf_batched_host(bchol_context *ctx, int m, int n, double *A,
                                                 int lda, int64_t stride_a, int *ipiv,
                                                 int64_t stride_p, int64_t batch, int *info);
BCHOL_API bchol_status bchol_sgesv_batched_host(bchol_context *ctx, int n, int nrhs, float *A,
                                                int lda, int64_t stride_a, int *ipiv,
                                                int64_t stride_p, float *B, int ldb,
                                                int64_t stride_b, int64_t batch, int *info);
BCHOL_API bchol_status bchol_dgesv_batched_host(bchol_context *ctx, int n, int nrhs, double *A,
                                                int lda, int64_t stride_a, int *ipiv,
                                                int64_t stride_p, double *B, int ldb,
                                                int64_t stride_b, int64_t batch, int *info);

/* ---- LU with partial pivoting, variable sizes (getrf, getrs, gesv vbatched) -------- */

/*
 * Per-matrix info values of the LU vbatched routines for a bad pivot entry, checked after
 * the matrix codes (BCHOL_INFO_BAD_N .. BCHOL_INFO_OVERLAP) and before the right-hand-side
 * codes (BCHOL_INFO_BAD_NRHS .. BCHOL_INFO_OVERLAP_B). Such a matrix is left untouched (A,
 * ipiv and B) and the others are done.
 */
enum {
    BCHOL_INFO_BAD_OFFSET_P = -11, /* offsets_p[b] < 0, or the min(m[b], n[b]) pivots run
                                      past the end of ipiv */
    BCHOL_INFO_OVERLAP_P = -12,    /* the pivots overlap another matrix's (decided in index
                                      order, as for A) */
    BCHOL_INFO_BAD_M = -13,        /* getrf_vbatched: m[b] < 0 (checked after n[b] < 0) */
    BCHOL_INFO_ABOVE_MAX_M = -14   /* getrf_vbatched_ex: m[b] > max_m (after n[b] > max_n) */
};

/*
 * bchol_{s,d}getrf_vbatched: P_b*A_b = L_b*U_b for batch m[b]-by-n[b] matrices of
 * different sizes stored in one buffer A (as bchol_{s,d}getrf_batched per matrix; MAGMA's
 * magma_?getrf_vbatched takes m and n arrays the same way).
 *
 *   m          cl_mem of batch ints: rows of matrix b (m[b] = 0 is skipped, info 0).
 *   n          cl_mem of batch ints: columns of matrix b (n[b] = 0 is skipped, info 0).
 *   lda        cl_mem of batch ints: lda[b] >= max(1, m[b]).
 *   offsets_a  cl_mem of batch int64 (cl_long): matrix b starts at element offsets_a[b]
 *              of A; its footprint is [offsets_a[b], offsets_a[b] + (n[b]-1)*lda[b] +
 *              m[b]) (empty for m[b] or n[b] = 0). Footprints and overlaps as for
 *              bchol_{s,d}potrf_vbatched.
 *   A          cl_mem of float/double; each matrix is overwritten by L and U, nothing
 *              else in A is written.
 *   offsets_p  cl_mem of batch int64: the min(m[b], n[b]) pivots of matrix b (int32,
 *              1-based as LAPACK's) go to elements [offsets_p[b], offsets_p[b] +
 *              min(m[b], n[b])) of ipiv; these footprints must not overlap (decided in
 *              index order as for A).
 *   ipiv       cl_mem of int32; nothing outside the pivots of the factored matrices is
 *              written.
 *   batch      number of matrices, batch >= 0.
 *   info       cl_mem of at least batch ints: 0, k > 0 (U(k,k) zero or not finite, as
 *              for the fixed size), or the BCHOL_INFO_* code of the first bad entry of
 *              matrix b (matrix codes, BCHOL_INFO_BAD_M after BCHOL_INFO_BAD_N and
 *              BCHOL_INFO_ABOVE_MAX_M after BCHOL_INFO_ABOVE_MAX_N, then the pivot
 *              codes); such a matrix is not touched.
 *   event      NULL, or receives the event of the last command enqueued.
 *
 * As for potrf_vbatched, the plain form finds the largest m and n on the device and reads
 * those numbers back (waiting for the work already in the queue); the _ex form takes
 * max_m and max_n from the caller (an entry above them gets BCHOL_INFO_ABOVE_MAX_N or
 * _M) and reads nothing back.
 *
 * Sizes: every size is factored. Where the largest matrix fits the local memory of
 * getrf's fused kernel (as for bchol_{s,d}getrf_batched: square n up to 511/361 on
 * PoCL's CPU device, 109/76 on NVIDIA GPUs, float/double) one launch of it, built for
 * the largest m and n, factors the batch. Otherwise the fused kernel, built for the
 * largest square order that fits, takes the matrices within it, and a blocked path
 * (panel, interchanges with the triangular solve, GEMM update per nb-wide block column,
 * sizes read on the device) the others, with one launch sequence per block column of the
 * largest matrix.
 *
 * Returns BCHOL_SUCCESS once enqueued, or a negative status for a bad argument (nothing
 * enqueued).
 */
BCHOL_API bchol_status bchol_sgetrf_vbatched(bchol_context *ctx, cl_mem m, cl_mem n, cl_mem lda,
                                             cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                             cl_mem ipiv, int64_t batch, cl_mem info,
                                             cl_event *event);
BCHOL_API bchol_status bchol_dgetrf_vbatched(bchol_context *ctx, cl_mem m, cl_mem n, cl_mem lda,
                                             cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                             cl_mem ipiv, int64_t batch, cl_mem info,
                                             cl_event *event);

/* Shape and split of the vbatched LU (_ex form). A field <= 0 takes the default.
 *   lx         work-items per matrix of the fused kernel (1..64; cut to its M; default
 *              min(M, 64))
 *   tbc        matrices per work-group of the fused kernel (1..64; cut to what local
 *              memory holds; default about 32 work-items a group)
 *   nb         panel width of the blocked path (1..64; default the backend's getrf nb)
 *   fused_max  0: the split above; k > 0: the fused kernel takes only matrices with
 *              m[b], n[b] <= k (and within local memory), the blocked path the rest;
 *              -1: every matrix takes the blocked path. */
typedef struct bchol_lu_params {
    int lx;
    int tbc;
    int nb;
    int fused_max;
} bchol_lu_params;

/* As bchol_{s,d}getrf_vbatched with the largest m and n from the caller and, where params
 * is not NULL, the shape and split. params counts as argument 2, max_m as argument 3 and
 * max_n as argument 4: the others move three positions on. */
BCHOL_API bchol_status bchol_sgetrf_vbatched_ex(bchol_context *ctx, const bchol_lu_params *params,
                                                int max_m, int max_n, cl_mem m, cl_mem n,
                                                cl_mem lda, cl_mem offsets_a, cl_mem A,
                                                cl_mem offsets_p, cl_mem ipiv, int64_t batch,
                                                cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dgetrf_vbatched_ex(bchol_context *ctx, const bchol_lu_params *params,
                                                int max_m, int max_n, cl_mem m, cl_mem n,
                                                cl_mem lda, cl_mem offsets_a, cl_mem A,
                                                cl_mem offsets_p, cl_mem ipiv, int64_t batch,
                                                cl_mem info, cl_event *event);

/*
 * bchol_{s,d}getrs_vbatched: solves A_b*X_b = B_b (trans 'N') or A_b**T*X_b = B_b ('T')
 * with the factors and pivots of getrf_vbatched (or getrf per matrix), for matrices of
 * different orders and right-hand-side counts.
 *
 *   trans      'N' or 'T' (either case); 'C' is not accepted (BCHOL_ERR_TRANS).
 *   n, nrhs, lda, ldb, offsets_a, offsets_b, B   as for bchol_{s,d}potrs_vbatched.
 *   A          the factors, as getrf_vbatched left them. Only read.
 *   offsets_p, ipiv  the pivots, as getrf_vbatched's. Only read; a pivot outside [k, n[b]]
 *              at position k is taken as no interchange (as getrs_batched).
 *   info       cl_mem of at least batch ints: 0, or the BCHOL_INFO_* code of the first
 *              bad entry of matrix b (matrix codes, pivot codes, then right-hand-side
 *              codes); such a matrix is not solved (B_b untouched). LAPACK's getrs has no
 *              info; here it reports bad entries. As LAPACK's, a singular U is not
 *              checked: solve only matrices that getrf left with info 0.
 *
 * n[b] = 0 or nrhs[b] = 0 solves nothing for that matrix (info 0). The plain form finds the
 * largest n and nrhs on the device and reads them back; the _ex form takes them from the
 * caller (BCHOL_INFO_ABOVE_MAX_N / _NRHS above them) and reads nothing back. Sizes as
 * getrs_batched's (n up to 64 times the substitution kernel's work-group limit, else
 * BCHOL_ERR_UNSUPPORTED_SIZE); each work-group solves one tile of one matrix.
 */
BCHOL_API bchol_status bchol_sgetrs_vbatched(bchol_context *ctx, char trans, cl_mem n,
                                             cl_mem nrhs, cl_mem lda, cl_mem ldb,
                                             cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                             cl_mem ipiv, cl_mem offsets_b, cl_mem B,
                                             int64_t batch, cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dgetrs_vbatched(bchol_context *ctx, char trans, cl_mem n,
                                             cl_mem nrhs, cl_mem lda, cl_mem ldb,
                                             cl_mem offsets_a, cl_mem A, cl_mem offsets_p,
                                             cl_mem ipiv, cl_mem offsets_b, cl_mem B,
                                             int64_t batch, cl_mem info, cl_event *event);

/*
 * bchol_{s,d}gesv_vbatched: getrf_vbatched then getrs_vbatched ('N') in one call, with the
 * arguments of getrs_vbatched less trans; A and ipiv receive the factors and pivots. All
 * entries are checked before anything is factored: a matrix with any bad entry (its B's
 * included) gets its code and is not touched. info[b] = k > 0: U(k,k) is zero or not
 * finite, A_b and its pivots hold getrf's output and B_b is untouched. nrhs[b] = 0 only
 * factors. Sizes as getrf_vbatched's (every order: fused kernel and blocked path).
 */
BCHOL_API bchol_status bchol_sgesv_vbatched(bchol_context *ctx, cl_mem n, cl_mem nrhs, cl_mem lda,
                                            cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                            cl_mem offsets_p, cl_mem ipiv, cl_mem offsets_b,
                                            cl_mem B, int64_t batch, cl_mem info,
                                            cl_event *event);
BCHOL_API bchol_status bchol_dgesv_vbatched(bchol_context *ctx, cl_mem n, cl_mem nrhs, cl_mem lda,
                                            cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                            cl_mem offsets_p, cl_mem ipiv, cl_mem offsets_b,
                                            cl_mem B, int64_t batch, cl_mem info,
                                            cl_event *event);

/* The _ex forms: the largest n and nrhs from the caller, nothing read back; params (NULL or
 * fields <= 0: the defaults) names the solve: variant BCHOL_SOLVE_SUBST or
 * BCHOL_SOLVE_WORKITEM (AUTO: BCHOL_LU_SOLVE_VARIANT, else the backend's, as getrs_batched),
 * the substitution kernel's shape (nt, rpt; tbc is not used: one tile per work-group) or
 * the workitem solve's nt; gesv's factorization takes getrf_vbatched's defaults. params counts
 * as argument 2, then trans (getrs only), max_n and max_nrhs; the others move on. */
BCHOL_API bchol_status bchol_sgetrs_vbatched_ex(bchol_context *ctx,
                                                const bchol_solve_params *params, char trans,
                                                int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                                cl_mem lda, cl_mem ldb, cl_mem offsets_a,
                                                cl_mem A, cl_mem offsets_p, cl_mem ipiv,
                                                cl_mem offsets_b, cl_mem B, int64_t batch,
                                                cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_dgetrs_vbatched_ex(bchol_context *ctx,
                                                const bchol_solve_params *params, char trans,
                                                int max_n, int max_nrhs, cl_mem n, cl_mem nrhs,
                                                cl_mem lda, cl_mem ldb, cl_mem offsets_a,
                                                cl_mem A, cl_mem offsets_p, cl_mem ipiv,
                                                cl_mem offsets_b, cl_mem B, int64_t batch,
                                                cl_mem info, cl_event *event);
BCHOL_API bchol_status bchol_sgesv_vbatched_ex(bchol_context *ctx,
                                               const bchol_solve_params *params, int max_n,
                                               int max_nrhs, cl_mem n, cl_mem nrhs, cl_mem lda,
                                               cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                               cl_mem offsets_p, cl_mem ipiv, cl_mem offsets_b,
                                               cl_mem B, int64_t batch, cl_mem info,
                                               cl_event *event);
BCHOL_API bchol_status bchol_dgesv_vbatched_ex(bchol_context *ctx,
                                               const bchol_solve_params *params, int max_n,
                                               int max_nrhs, cl_mem n, cl_mem nrhs, cl_mem lda,
                                               cl_mem ldb, cl_mem offsets_a, cl_mem A,
                                               cl_mem offsets_p, cl_mem ipiv, cl_mem offsets_b,
                                               cl_mem B, int64_t batch, cl_mem info,
                                               cl_event *event);

/*
 * Synchronous conveniences on host arrays, as bchol_{s,d}potrf_vbatched_host: every array
 * holds batch entries; matrix b starts at A + offsets_a[b], its pivots at ipiv +
 * offsets_p[b], its right-hand sides at B + offsets_b[b], and A, ipiv and B must hold
 * everything the arrays describe (their sizes are unknown here). The span of the matrices
 * (of the pivots, of the right-hand-side blocks) among entries the device could accept is
 * copied to one device allocation and back; each must fit one (else
 * BCHOL_ERR_OUT_OF_MEMORY). Invalid entries get the same info codes as on the device
 * (BCHOL_INFO_BAD_OFFSET, _BAD_OFFSET_P and _BAD_OFFSET_B only for negative offsets); the
 * largest m, n and nrhs are found on the host. Only the factored matrices, their pivots
 * and the solved blocks change. getrf's host form takes m before n (positions as the
 * device form's); gesv's is square.
 */
BCHOL_API bchol_status bchol_sgetrf_vbatched_host(bchol_context *ctx, const int *m, const int *n,
                                                  const int *lda,
                                                  const int64_t *offsets_a, float *A,
                                                  const int64_t *offsets_p, int *ipiv,
                                                  int64_t batch, int *info);
BCHOL_API bchol_status bchol_dgetrf_vbatched_host(bchol_context *ctx, const int *m, const int *n,
                                                  const int *lda,
                                                  const int64_t *offsets_a, double *A,
                                                  const int64_t *offsets_p, int *ipiv,
                                                  int64_t batch, int *info);
BCHOL_API bchol_status bchol_sgesv_vbatched_host(bchol_context *ctx, const int *n, const int *nrhs,
                                                 const int *lda, const int *ldb,
                                                 const int64_t *offsets_a, float *A,
                                                 const int64_t *offsets_p, int *ipiv,
                                                 const int64_t *offsets_b, float *B,
                                                 int64_t batch, int *info);
BCHOL_API bchol_status bchol_dgesv_vbatched_host(bchol_context *ctx, const int *n, const int *nrhs,
                                                 const int *lda, const int *ldb,
                                                 const int64_t *offsets_a, double *A,
                                                 const int64_t *offsets_p, int *ipiv,
                                                 const int64_t *offsets_b, double *B,
                                                 int64_t batch, int *info);

#ifdef __cplusplus
}
#endif
#endif /* BCHOL_H */
