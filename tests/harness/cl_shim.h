/*
 * cl_shim: an OpenCL interposer for the tests. A test executable that links it (and
 * exports its symbols: ENABLE_EXPORTS in CMake) defines the OpenCL entry points that bchol
 * and the test call; the dynamic linker binds libbchol's calls to them, and they forward to
 * the ICD loader. On the way the shim
 *   - counts the references of every context, queue, buffer, program, kernel and event
 *     made through the API, and at exit fails the process (exit code 1, the live objects
 *     on stderr) if any is still held: a leak check of OpenCL objects;
 *   - makes the k-th call of a kind fail with a chosen error (fault injection);
 *   - lowers what the device reports (work-group size of kernels, largest allocation,
 *     fp64), to stand in for smaller devices.
 * Environment (read once, at the first call):
 *   CLSHIM_LEAKS=0             no leak check at exit
 *   CLSHIM_WG_LIMIT=W          CL_KERNEL_WORK_GROUP_SIZE reports at most W, and larger
 *                              work-groups fail with CL_INVALID_WORK_GROUP_SIZE
 *   CLSHIM_MAX_GROUPS=G        a launch of more than G work-groups fails (with
 *                              BCHOL_MAX_GROUPS_PER_LAUNCH=G: every launch honours it)
 *   CLSHIM_MAX_ALLOC=BYTES     CL_DEVICE_MAX_MEM_ALLOC_SIZE reports at most BYTES, and
 *                              buffers above it fail with CL_INVALID_BUFFER_SIZE
 *   CLSHIM_NO_FP64=1           CL_DEVICE_DOUBLE_FP_CONFIG reports 0
 */
#ifndef CL_SHIM_H
#define CL_SHIM_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>

/* Kinds of calls that faults can be injected into. SHIM_ANY counts every call of the
 * other kinds, so that a sweep can fail each call of a routine in turn. */
typedef enum {
    SHIM_ANY,
    SHIM_CONTEXT, /* clCreateContext */
    SHIM_QUEUE,   /* clCreateCommandQueue */
    SHIM_BUFFER,  /* clCreateBuffer, clCreateSubBuffer */
    SHIM_PROGRAM, /* clCreateProgramWithSource / WithBinary */
    SHIM_BUILD,   /* clBuildProgram */
    SHIM_KERNEL,  /* clCreateKernel */
    SHIM_SET_ARG, /* clSetKernelArg */
    SHIM_LAUNCH,  /* clEnqueueNDRangeKernel */
    SHIM_WRITE,   /* clEnqueueWriteBuffer, clEnqueueFillBuffer, clEnqueueCopyBuffer */
    SHIM_READ,    /* clEnqueueReadBuffer */
    SHIM_WAIT,    /* clFinish, clWaitForEvents */
    SHIM_QUERY,   /* clGet*Info */
    SHIM_KINDS
} shim_kind;

const char *shim_kind_name(shim_kind kind);

/* From now on, calls nth .. nth+times-1 (1-based) of kind fail with error (times < 0: every
 * call from the nth on); nth = 0 disarms. Counting starts at this call. */
void shim_fail(shim_kind kind, long nth, long times, cl_int error);
/* Faults injected since the last shim_fail. */
long shim_faults(void);
/* Calls of kind since the start (all threads). */
long shim_calls(shim_kind kind);
/* Successful kernel launches since the start. */
long shim_launches(void);
/* Programs made from binaries (binary = 1: bchol's binary cache) or from source (0)
 * since the start. */
long shim_programs(int binary);
/* Work-items of those launches (the product of the global sizes, summed). */
double shim_work_items(void);
/* Work-items per group of the last successful launch (the product of the local sizes;
 * 0 if it left them to the driver or none was made). */
size_t shim_last_local(void);

/* Live objects (references held through the API); writes a short list into report. */
long shim_live(char *report, size_t size);
/* Live objects of one kind. */
typedef enum {
    SHIM_OBJ_CONTEXT,
    SHIM_OBJ_QUEUE,
    SHIM_OBJ_BUFFER,
    SHIM_OBJ_PROGRAM,
    SHIM_OBJ_KERNEL,
    SHIM_OBJ_EVENT,
    SHIM_OBJ_KINDS
} shim_object;
long shim_live_of(shim_object kind);

/* Overrides of what the device reports (0 = none); same as the environment variables. */
void shim_set_wg_limit(size_t limit);
void shim_set_max_alloc(cl_ulong bytes);
void shim_set_no_fp64(int on);

#endif
