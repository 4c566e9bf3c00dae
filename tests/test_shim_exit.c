/* cl_shim's exit check on a test that leaks: it must fail the process (exit 1) and keep
 * what the test printed before (tests/harness/shim_exit_check.sh runs it with stdout in a pipe). */
#include <CL/cl.h>
#include <stdio.h>

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL))
        return 2;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (!ctx) return 2;
    printf("report of the test: leaked one context\n"); /* buffered: stdout is a pipe */
    return 0; /* the context is never released */
}
