/* What the library tells a driver through the process environment (backends' prepare_driver):
 * PoCL from version 4 on gets POCL_WORK_GROUP_METHOD=cbs at the first context, because PoCL
 * 5.0's default method miscompiles the fused and variable-size kernels (backends/pocl.c);
 * a value the caller set is kept; other drivers and PoCL 3 get nothing.
 * Usage: test_driver_env [keep]   (keep: the test sets the variable to "loops" first) */
#include <bchol.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const int keep = argc > 1 && !strcmp(argv[1], "keep");
    if (keep) setenv("POCL_WORK_GROUP_METHOD", "loops", 1);
    else unsetenv("POCL_WORK_GROUP_METHOD");
    bchol_context *ctx;
    if (bchol_context_create(NULL, &ctx)) {
        fprintf(stderr, "no context: %s\n", bchol_last_error(NULL));
        return 1;
    }
    bchol_device_info info;
    bchol_context_device_info(ctx, &info);
    const char *got = getenv("POCL_WORK_GROUP_METHOD");
    const char *want = keep ? "loops"
                            : (!strcmp(info.family, "pocl") && atoi(info.driver) >= 4 ? "cbs" : NULL);
    printf("%s %s, driver %s: POCL_WORK_GROUP_METHOD=%s (expected %s)\n", info.family, info.name,
           info.driver, got ? got : "(unset)", want ? want : "(unset)");
    const int ok = want ? got && !strcmp(got, want) : got == NULL;
    bchol_context_destroy(ctx);
    puts(ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
