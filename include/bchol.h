/*
 * bchol: batched Cholesky factorization of small symmetric positive definite matrices
 * through OpenCL.
 *
 * Conventions (LAPACK's, with MAGMA's batched layout):
 *  - Matrices are column-major. A fixed-size batch lives in one cl_mem: matrix b starts at
 *    element offset + b*stride and has leading dimension lda.
 *  - uplo is 'L' (A = L*L**T, L lower) or 'U' (A = U**T*U, U upper); only that triangle
 *    of each matrix is read and written.
 *  - info[b] = 0 on success, or k > 0 when the k-th pivot (1-based) is not positive, is
 *    NaN, or is infinite: the leading minor of order k is not positive definite and the
 *    factorization of that matrix stopped. Other matrices of the batch are unaffected.
 *  - Routines on device buffers only enqueue work on the context's queue; they never wait.
 *    If event is not NULL it receives an event for the last command enqueued (release it
 *    with clReleaseEvent), or NULL when nothing was enqueued.
 *  - Every argument is checked before anything is enqueued; a bad one returns a negative
 *    status naming it, and bchol_last_error() says which value was wrong and why.
 *  - The library never prints and never aborts.
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
    BCHOL_ERR_MAX_N = -19,         /* max_n < 0, or smaller than a size in the batch */
    BCHOL_ERR_N_ARRAY = -20,       /* per-matrix n array missing or too small */
    BCHOL_ERR_LDA_ARRAY = -21,     /* per-matrix lda array missing or too small */
    BCHOL_ERR_OFFSETS_A = -22,     /* per-matrix offsets of A missing or too small */
    BCHOL_ERR_NRHS_ARRAY = -23,    /* per-matrix nrhs array missing or too small */
    BCHOL_ERR_LDB_ARRAY = -24,     /* per-matrix ldb array missing or too small */
    BCHOL_ERR_OFFSETS_B = -25,     /* per-matrix offsets of B missing or too small */
    BCHOL_ERR_ARGUMENT = -26,      /* another argument is invalid (see bchol_last_error) */
    BCHOL_ERR_DEVICE_SPEC = -27,   /* the device spec names no device */

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
 * P, both 0-based, in the order `bchol devices` lists them).
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
 * Warnings (e.g. a tuning file that could not be used) go to this handler; by default
 * they are kept and bchol_last_warning returns the latest ("" if none).
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
 * changes in A.
 */
BCHOL_API bchol_status bchol_spotrf_batched_host(bchol_context *ctx, char uplo, int n,
                                                 float *A, int lda, int64_t stride,
                                                 int64_t batch, int *info);
BCHOL_API bchol_status bchol_dpotrf_batched_host(bchol_context *ctx, char uplo, int n,
                                                 double *A, int lda, int64_t stride,
                                                 int64_t batch, int *info);

/* ---- expert interface: explicit variant and parameters (for tuners and benchmarks) -- */

typedef enum bchol_variant {
    BCHOL_VARIANT_AUTO = 0,  /* what the dispatcher picks for this device and size */
    BCHOL_VARIANT_FUSED = 1, /* fused left-looking, one launch per ib-wide panel */
    BCHOL_VARIANT_INTERLEAVED = 2 /* strided batches: convert to interleaved, factor with a
                                     generated kernel (one work-item per matrix), convert back */
} bchol_variant;

typedef struct bchol_params {
    bchol_variant variant;
    int ib;    /* fused: panel width (1..32) */
    int tbc;   /* fused: matrices per work-group (1..64) */
    int rpt;   /* fused: panel rows per work-item (>= 1) */
    int shape; /* fused: BCHOL_SHAPE_FIXED or BCHOL_SHAPE_SHRINK work-groups */
    /* interleaved (see bchol_spotrf_interleaved): */
    int nb;        /* tile size (1..n; corner tiles when nb does not divide n) */
    int looking;   /* BCHOL_LOOKING_LEFT, _RIGHT or _TOP: order of the tile operations */
    int unroll;    /* BCHOL_UNROLL_TILES (loops over tiles) or BCHOL_UNROLL_FULL */
    int chunking;  /* layout of the internal copy of a strided batch: BCHOL_CHUNKED or
                      BCHOL_SIMPLE (one chunk of the whole batch) */
    int chunk;     /* matrices per chunk of the internal copy, and work-items per
                      work-group (1..1024) */
    int math;      /* BCHOL_MATH_IEEE (default) or BCHOL_MATH_FAST (-cl-fast-relaxed-math) */
} bchol_params;

/* Values of the interleaved fields of bchol_params (0 takes the default). */
enum {
    BCHOL_LOOKING_LEFT = 1,  /* lazy: update a block column from the left, then factor it */
    BCHOL_LOOKING_RIGHT = 2, /* eager: factor a block column, then update the trailing matrix */
    BCHOL_LOOKING_TOP = 3,   /* laziest: a block row from above, then its diagonal tile */
    BCHOL_UNROLL_TILES = 1,  /* tile operations unrolled, loops over the tiles */
    BCHOL_UNROLL_FULL = 2,   /* the whole factorization as straight-line code */
    BCHOL_CHUNKED = 1,
    BCHOL_SIMPLE = 2,
    BCHOL_MATH_IEEE = 1,
    BCHOL_MATH_FAST = 2 /* faster sqrt and division, not IEEE; info still sees NaN and Inf */
};

/* Work-group shape of the fused kernel over its steps. */
enum {
    BCHOL_SHAPE_DEFAULT = 0,
    BCHOL_SHAPE_FIXED = 1, /* the same size at every step (one PoCL specialization) */
    BCHOL_SHAPE_SHRINK = 2 /* sized to the remaining rows at each step (the seed's choice) */
};

/*
 * The parameters bchol_{s,d}potrf_batched would use for this precision ('s' or 'd') and
 * n on ctx's device, and where they came from (a short text, e.g. "backend pocl
 * defaults").
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

#ifdef __cplusplus
}
#endif
#endif /* BCHOL_H */
