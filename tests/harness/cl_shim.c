/* cl_shim: counting, fault-injecting OpenCL interposer for the tests (see cl_shim.h).
 * Each wrapper forwards to the next definition of the same name (the ICD loader), found
 * with dlsym(RTLD_NEXT). */
#define _GNU_SOURCE
#include "cl_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the real entry points ---------------------------------------------------------- */

// clang-format off
#define REAL_FUNCTIONS(X) \
    X(clCreateContext) X(clRetainContext) X(clReleaseContext) X(clCreateCommandQueue)             \
    X(clRetainCommandQueue) X(clReleaseCommandQueue) X(clCreateBuffer) X(clCreateSubBuffer)       \
    X(clRetainMemObject) X(clReleaseMemObject) X(clCreateProgramWithSource)                       \
    X(clCreateProgramWithBinary) X(clRetainProgram) X(clReleaseProgram) X(clBuildProgram)         \
    X(clCreateKernel) X(clRetainKernel) X(clReleaseKernel) X(clSetKernelArg)                      \
    X(clEnqueueNDRangeKernel) X(clEnqueueWriteBuffer) X(clEnqueueReadBuffer)                      \
    X(clEnqueueFillBuffer) X(clEnqueueCopyBuffer) X(clRetainEvent) X(clReleaseEvent)              \
    X(clWaitForEvents) X(clFinish) X(clGetPlatformIDs) X(clGetDeviceIDs) X(clGetDeviceInfo)       \
    X(clGetKernelWorkGroupInfo) X(clGetMemObjectInfo) X(clGetProgramBuildInfo)                    \
    X(clGetProgramInfo) X(clGetEventProfilingInfo) X(clGetEventInfo) X(clGetCommandQueueInfo)
// clang-format on

static struct {
#define X(name) __typeof__(name) *name;
    REAL_FUNCTIONS(X)
#undef X
} real;

/* ---- state ------------------------------------------------------------------------------ */

enum {
    OBJ_CONTEXT = SHIM_OBJ_CONTEXT,
    OBJ_QUEUE = SHIM_OBJ_QUEUE,
    OBJ_MEM = SHIM_OBJ_BUFFER,
    OBJ_PROGRAM = SHIM_OBJ_PROGRAM,
    OBJ_KERNEL = SHIM_OBJ_KERNEL,
    OBJ_EVENT = SHIM_OBJ_EVENT,
    OBJ_KINDS = SHIM_OBJ_KINDS
};
static const char *const obj_names[OBJ_KINDS] = {"context", "queue",  "buffer",
                                                 "program", "kernel", "event"};

typedef struct node {
    struct node *next;
    const void *object;
    int kind;
    long refs;
} node;

#define BUCKETS 4096

static struct {
    pthread_mutex_t lock;
    node *bucket[BUCKETS];
    long calls[SHIM_KINDS];
    long launches;
    long binary_programs, source_programs; /* made by clCreateProgramWithBinary / Source */
    double work_items; /* of the successful launches */
    size_t last_local; /* work-items per group of the last one */
    shim_kind fail_kind;
    long fail_nth, fail_times, fail_seen, fired;
    cl_int fail_error;
    size_t wg_limit;
    unsigned long long max_groups; /* per launch, 0: any (CLSHIM_MAX_GROUPS) */
    cl_ulong max_alloc;
    int no_fp64;
    int leak_check;
} S = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void check_at_exit(void);

static void init(void) {
#define X(name)                                                                                    \
    if (!(real.name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name))) {                              \
        fprintf(stderr, "cl_shim: no next definition of %s\n", #name);                             \
        _exit(2);                                                                                  \
    }
    REAL_FUNCTIONS(X)
#undef X
    const char *v;
    S.leak_check = !((v = getenv("CLSHIM_LEAKS")) && !strcmp(v, "0"));
    if ((v = getenv("CLSHIM_WG_LIMIT")) && *v) S.wg_limit = strtoull(v, NULL, 10);
    if ((v = getenv("CLSHIM_MAX_GROUPS")) && *v) S.max_groups = strtoull(v, NULL, 10);
    if ((v = getenv("CLSHIM_MAX_ALLOC")) && *v) S.max_alloc = strtoull(v, NULL, 10);
    if ((v = getenv("CLSHIM_NO_FP64")) && *v && strcmp(v, "0")) S.no_fp64 = 1;
    atexit(check_at_exit);
}

#define INIT() pthread_once(&once, init)

static size_t hash(const void *p) { return ((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ULL >> 52; }

static node **find(const void *object) {
    node **at = &S.bucket[hash(object) % BUCKETS];
    while (*at && (*at)->object != object)
        at = &(*at)->next;
    return at;
}

/* A new object with one reference (the API hands one to the caller). */
static void made(const void *object, int kind) {
    if (!object) return;
    pthread_mutex_lock(&S.lock);
    node **at = find(object);
    if (*at) {
        (*at)->refs++; /* a driver may hand out the same handle again after a release */
    } else if ((*at = calloc(1, sizeof **at))) {
        (*at)->object = object;
        (*at)->kind = kind;
        (*at)->refs = 1;
    }
    pthread_mutex_unlock(&S.lock);
}

/* Retain (+1) or release (-1) of an object; objects not made through the API are ignored. */
static void refs(const void *object, long delta) {
    pthread_mutex_lock(&S.lock);
    node **at = find(object);
    if (*at && ((*at)->refs += delta) <= 0) {
        node *gone = *at;
        *at = gone->next;
        free(gone);
    }
    pthread_mutex_unlock(&S.lock);
}

/* Counts a call; returns the error to inject, or CL_SUCCESS. */
static cl_int fault(shim_kind kind) {
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&S.lock);
    S.calls[kind]++;
    S.calls[SHIM_ANY]++;
    if (S.fail_nth > 0 && (S.fail_kind == SHIM_ANY || S.fail_kind == kind) &&
        ++S.fail_seen >= S.fail_nth && (S.fail_times < 0 || S.fired < S.fail_times)) {
        S.fired++;
        err = S.fail_error;
    }
    pthread_mutex_unlock(&S.lock);
    return err;
}

static void event_made(cl_int err, cl_event *event) {
    if (err == CL_SUCCESS && event) made(*event, OBJ_EVENT);
}

/* ---- control -------------------------------------------------------------------------- */

const char *shim_kind_name(shim_kind kind) {
    static const char *const names[SHIM_KINDS] = {"any",   "context", "queue",  "buffer", "program",
                                                  "build", "kernel",  "setarg", "launch", "write",
                                                  "read",  "wait",    "query"};
    return kind >= 0 && kind < SHIM_KINDS ? names[kind] : "?";
}

void shim_fail(shim_kind kind, long nth, long times, cl_int error) {
    INIT();
    pthread_mutex_lock(&S.lock);
    S.fail_kind = kind;
    S.fail_nth = nth;
    S.fail_times = times;
    S.fail_seen = 0;
    S.fail_error = error;
    S.fired = 0;
    pthread_mutex_unlock(&S.lock);
}

long shim_faults(void) {
    pthread_mutex_lock(&S.lock);
    long fired = S.fired;
    pthread_mutex_unlock(&S.lock);
    return fired;
}

long shim_calls(shim_kind kind) {
    pthread_mutex_lock(&S.lock);
    long n = S.calls[kind];
    pthread_mutex_unlock(&S.lock);
    return n;
}

long shim_programs(int binary) {
    pthread_mutex_lock(&S.lock);
    long n = binary ? S.binary_programs : S.source_programs;
    pthread_mutex_unlock(&S.lock);
    return n;
}

long shim_launches(void) {
    pthread_mutex_lock(&S.lock);
    long n = S.launches;
    pthread_mutex_unlock(&S.lock);
    return n;
}

size_t shim_last_local(void) {
    pthread_mutex_lock(&S.lock);
    size_t n = S.last_local;
    pthread_mutex_unlock(&S.lock);
    return n;
}

double shim_work_items(void) {
    pthread_mutex_lock(&S.lock);
    double n = S.work_items;
    pthread_mutex_unlock(&S.lock);
    return n;
}

long shim_live(char *report, size_t size) {
    long count[OBJ_KINDS] = {0}, total = 0;
    pthread_mutex_lock(&S.lock);
    for (int b = 0; b < BUCKETS; b++)
        for (node *n = S.bucket[b]; n; n = n->next) {
            count[n->kind]++;
            total++;
        }
    pthread_mutex_unlock(&S.lock);
    if (report && size) {
        size_t used = 0;
        report[0] = 0;
        for (int k = 0; k < OBJ_KINDS && used < size; k++)
            if (count[k])
                used += (size_t)snprintf(report + used, size - used, "%s%ld %s", used ? ", " : "",
                                         count[k], obj_names[k]);
    }
    return total;
}

long shim_live_of(shim_object kind) {
    long n = 0;
    pthread_mutex_lock(&S.lock);
    for (int b = 0; b < BUCKETS; b++)
        for (node *e = S.bucket[b]; e; e = e->next)
            n += e->kind == (int)kind;
    pthread_mutex_unlock(&S.lock);
    return n;
}

void shim_set_wg_limit(size_t limit) {
    INIT();
    S.wg_limit = limit;
}

void shim_set_max_alloc(cl_ulong bytes) {
    INIT();
    S.max_alloc = bytes;
}

void shim_set_no_fp64(int on) {
    INIT();
    S.no_fp64 = on;
}

static void check_at_exit(void) {
    char report[256];
    if (!S.leak_check) return;
    long live = shim_live(report, sizeof report);
    if (live) {
        fprintf(stderr, "cl_shim: FAILED: %ld OpenCL objects still held at exit (%s)\n", live,
                report);
        /* _exit skips stdio's flush: the test's own report (stdout, buffered in a pipe)
         * would be lost, leaving only this line */
        fflush(NULL);
        _exit(1);
    }
}

/* ---- wrappers: objects ---------------------------------------------------------------- */

#define FAIL_CREATE(kind)                                                                          \
    cl_int injected_ = fault(kind);                                                                \
    if (injected_) {                                                                               \
        if (errcode_ret) *errcode_ret = injected_;                                                 \
        return NULL;                                                                               \
    }
#define FAIL_CALL(kind)                                                                            \
    cl_int injected_ = fault(kind);                                                                \
    if (injected_) return injected_;

cl_context clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                           const cl_device_id *devices,
                           void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t,
                                                         void *),
                           void *user_data, cl_int *errcode_ret) {
    INIT();
    FAIL_CREATE(SHIM_CONTEXT);
    cl_context c =
        real.clCreateContext(properties, num_devices, devices, pfn_notify, user_data, errcode_ret);
    made(c, OBJ_CONTEXT);
    return c;
}

cl_int clRetainContext(cl_context c) {
    INIT();
    cl_int err = real.clRetainContext(c);
    if (!err) refs(c, 1);
    return err;
}

cl_int clReleaseContext(cl_context c) {
    INIT();
    cl_int err = real.clReleaseContext(c);
    if (!err) refs(c, -1);
    return err;
}

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue_properties properties, cl_int *errcode_ret) {
    INIT();
    FAIL_CREATE(SHIM_QUEUE);
    cl_command_queue q = real.clCreateCommandQueue(context, device, properties, errcode_ret);
    made(q, OBJ_QUEUE);
    return q;
}

cl_int clRetainCommandQueue(cl_command_queue q) {
    INIT();
    cl_int err = real.clRetainCommandQueue(q);
    if (!err) refs(q, 1);
    return err;
}

cl_int clReleaseCommandQueue(cl_command_queue q) {
    INIT();
    cl_int err = real.clReleaseCommandQueue(q);
    if (!err) refs(q, -1);
    return err;
}

cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                      cl_int *errcode_ret) {
    INIT();
    FAIL_CREATE(SHIM_BUFFER);
    if (S.max_alloc && size > S.max_alloc) {
        if (errcode_ret) *errcode_ret = CL_INVALID_BUFFER_SIZE;
        return NULL;
    }
    cl_mem m = real.clCreateBuffer(context, flags, size, host_ptr, errcode_ret);
    made(m, OBJ_MEM);
    return m;
}

cl_mem clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
                         const void *info, cl_int *errcode_ret) {
    INIT();
    FAIL_CREATE(SHIM_BUFFER);
    cl_mem m = real.clCreateSubBuffer(buffer, flags, type, info, errcode_ret);
    made(m, OBJ_MEM);
    return m;
}

cl_int clRetainMemObject(cl_mem m) {
    INIT();
    cl_int err = real.clRetainMemObject(m);
    if (!err) refs(m, 1);
    return err;
}

cl_int clReleaseMemObject(cl_mem m) {
    INIT();
    cl_int err = real.clReleaseMemObject(m);
    if (!err) refs(m, -1);
    return err;
}

cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char **strings,
                                     const size_t *lengths, cl_int *errcode_ret) {
    INIT();
    FAIL_CREATE(SHIM_PROGRAM);
    cl_program p = real.clCreateProgramWithSource(context, count, strings, lengths, errcode_ret);
    made(p, OBJ_PROGRAM);
    if (p) {
        pthread_mutex_lock(&S.lock);
        S.source_programs++;
        pthread_mutex_unlock(&S.lock);
    }
    return p;
}

cl_program clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                     const cl_device_id *device_list, const size_t *lengths,
                                     const unsigned char **binaries, cl_int *binary_status,
                                     cl_int *errcode_ret) {
    INIT();
    FAIL_CREATE(SHIM_PROGRAM);
    cl_program p = real.clCreateProgramWithBinary(context, num_devices, device_list, lengths,
                                                  binaries, binary_status, errcode_ret);
    made(p, OBJ_PROGRAM);
    if (p) {
        pthread_mutex_lock(&S.lock);
        S.binary_programs++;
        pthread_mutex_unlock(&S.lock);
    }
    return p;
}

cl_int clRetainProgram(cl_program p) {
    INIT();
    cl_int err = real.clRetainProgram(p);
    if (!err) refs(p, 1);
    return err;
}

cl_int clReleaseProgram(cl_program p) {
    INIT();
    cl_int err = real.clReleaseProgram(p);
    if (!err) refs(p, -1);
    return err;
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                      const char *options, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                      void *user_data) {
    INIT();
    FAIL_CALL(SHIM_BUILD);
    return real.clBuildProgram(program, num_devices, device_list, options, pfn_notify, user_data);
}

cl_kernel clCreateKernel(cl_program program, const char *name, cl_int *errcode_ret) {
    INIT();
    FAIL_CREATE(SHIM_KERNEL);
    cl_kernel k = real.clCreateKernel(program, name, errcode_ret);
    made(k, OBJ_KERNEL);
    return k;
}

cl_int clRetainKernel(cl_kernel k) {
    INIT();
    cl_int err = real.clRetainKernel(k);
    if (!err) refs(k, 1);
    return err;
}

cl_int clReleaseKernel(cl_kernel k) {
    INIT();
    cl_int err = real.clReleaseKernel(k);
    if (!err) refs(k, -1);
    return err;
}

cl_int clSetKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void *value) {
    INIT();
    FAIL_CALL(SHIM_SET_ARG);
    return real.clSetKernelArg(kernel, index, size, value);
}

cl_int clRetainEvent(cl_event e) {
    INIT();
    cl_int err = real.clRetainEvent(e);
    if (!err) refs(e, 1);
    return err;
}

cl_int clReleaseEvent(cl_event e) {
    INIT();
    cl_int err = real.clReleaseEvent(e);
    if (!err) refs(e, -1);
    return err;
}

/* ---- wrappers: commands ------------------------------------------------------------- */

cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel kernel, cl_uint dims,
                              const size_t *offset, const size_t *global, const size_t *local,
                              cl_uint nwait, const cl_event *wait, cl_event *event) {
    INIT();
    FAIL_CALL(SHIM_LAUNCH);
    /* as a driver must, refuse work-groups above the limit the kernel reports */
    size_t items = 1;
    for (cl_uint d = 0; local && d < dims; d++)
        items *= local[d];
    if (S.wg_limit && local && items > S.wg_limit) return CL_INVALID_WORK_GROUP_SIZE;
    /* a test that caps the groups of a launch (BCHOL_MAX_GROUPS_PER_LAUNCH) sets the same
     * cap here, so a launch that ignores it fails */
    double groups = 1;
    for (cl_uint d = 0; local && d < dims; d++)
        groups *= (double)global[d] / (double)local[d];
    if (S.max_groups && local && groups > (double)S.max_groups) {
        fprintf(stderr, "cl_shim: a launch of %.0f work-groups, above CLSHIM_MAX_GROUPS = %llu\n",
                groups, S.max_groups);
        return CL_INVALID_GLOBAL_WORK_SIZE;
    }
    cl_int err =
        real.clEnqueueNDRangeKernel(q, kernel, dims, offset, global, local, nwait, wait, event);
    event_made(err, event);
    if (!err) {
        double all = 1;
        for (cl_uint d = 0; d < dims; d++)
            all *= (double)global[d];
        pthread_mutex_lock(&S.lock);
        S.launches++;
        S.work_items += all;
        S.last_local = local ? items : 0;
        pthread_mutex_unlock(&S.lock);
    }
    return err;
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                            size_t size, const void *ptr, cl_uint nwait, const cl_event *wait,
                            cl_event *event) {
    INIT();
    FAIL_CALL(SHIM_WRITE);
    cl_int err =
        real.clEnqueueWriteBuffer(q, buffer, blocking, offset, size, ptr, nwait, wait, event);
    event_made(err, event);
    return err;
}

cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                           size_t size, void *ptr, cl_uint nwait, const cl_event *wait,
                           cl_event *event) {
    INIT();
    FAIL_CALL(SHIM_READ);
    cl_int err =
        real.clEnqueueReadBuffer(q, buffer, blocking, offset, size, ptr, nwait, wait, event);
    event_made(err, event);
    return err;
}

cl_int clEnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void *pattern,
                           size_t pattern_size, size_t offset, size_t size, cl_uint nwait,
                           const cl_event *wait, cl_event *event) {
    INIT();
    FAIL_CALL(SHIM_WRITE);
    cl_int err = real.clEnqueueFillBuffer(q, buffer, pattern, pattern_size, offset, size, nwait,
                                          wait, event);
    event_made(err, event);
    return err;
}

cl_int clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                           size_t dst_offset, size_t size, cl_uint nwait, const cl_event *wait,
                           cl_event *event) {
    INIT();
    FAIL_CALL(SHIM_WRITE);
    cl_int err =
        real.clEnqueueCopyBuffer(q, src, dst, src_offset, dst_offset, size, nwait, wait, event);
    event_made(err, event);
    return err;
}

cl_int clWaitForEvents(cl_uint num_events, const cl_event *events) {
    INIT();
    FAIL_CALL(SHIM_WAIT);
    return real.clWaitForEvents(num_events, events);
}

cl_int clFinish(cl_command_queue q) {
    INIT();
    FAIL_CALL(SHIM_WAIT);
    return real.clFinish(q);
}

/* ---- wrappers: queries ---------------------------------------------------------------- */

cl_int clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    return real.clGetPlatformIDs(num_entries, platforms, num_platforms);
}

cl_int clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                      cl_device_id *devices, cl_uint *num_devices) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    return real.clGetDeviceIDs(platform, type, num_entries, devices, num_devices);
}

cl_int clGetDeviceInfo(cl_device_id device, cl_device_info param, size_t size, void *value,
                       size_t *size_ret) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    cl_int err = real.clGetDeviceInfo(device, param, size, value, size_ret);
    if (err || !value) return err;
    if (param == CL_DEVICE_DOUBLE_FP_CONFIG && S.no_fp64 && size >= sizeof(cl_device_fp_config))
        *(cl_device_fp_config *)value = 0;
    if (param == CL_DEVICE_MAX_MEM_ALLOC_SIZE && S.max_alloc && size >= sizeof(cl_ulong) &&
        *(cl_ulong *)value > S.max_alloc)
        *(cl_ulong *)value = S.max_alloc;
    return err;
}

cl_int clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                cl_kernel_work_group_info param, size_t size, void *value,
                                size_t *size_ret) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    cl_int err = real.clGetKernelWorkGroupInfo(kernel, device, param, size, value, size_ret);
    if (!err && value && param == CL_KERNEL_WORK_GROUP_SIZE && S.wg_limit &&
        size >= sizeof(size_t) && *(size_t *)value > S.wg_limit)
        *(size_t *)value = S.wg_limit;
    return err;
}

cl_int clGetMemObjectInfo(cl_mem m, cl_mem_info param, size_t size, void *value, size_t *size_ret) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    return real.clGetMemObjectInfo(m, param, size, value, size_ret);
}

cl_int clGetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param,
                             size_t size, void *value, size_t *size_ret) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    return real.clGetProgramBuildInfo(program, device, param, size, value, size_ret);
}

cl_int clGetProgramInfo(cl_program program, cl_program_info param, size_t size, void *value,
                        size_t *size_ret) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    return real.clGetProgramInfo(program, param, size, value, size_ret);
}

cl_int clGetEventProfilingInfo(cl_event event, cl_profiling_info param, size_t size, void *value,
                               size_t *size_ret) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    return real.clGetEventProfilingInfo(event, param, size, value, size_ret);
}

cl_int clGetEventInfo(cl_event event, cl_event_info param, size_t size, void *value,
                      size_t *size_ret) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    return real.clGetEventInfo(event, param, size, value, size_ret);
}

cl_int clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param, size_t size,
                             void *value, size_t *size_ret) {
    INIT();
    FAIL_CALL(SHIM_QUERY);
    return real.clGetCommandQueueInfo(q, param, size, value, size_ret);
}
