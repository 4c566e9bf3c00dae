/* Cases that cannot run on the device skip visibly: they say why and exit with TEST_SKIP,
 * CTest's SKIP_RETURN_CODE for every case (bchol_test in tests/CMakeLists.txt). */
#ifndef TEST_SKIP_H
#define TEST_SKIP_H

#include "bchol.h"

#include <stdio.h>
#include <string.h>

#define TEST_SKIP 77

/* Whether the default device lacks fp64 (BCHOL_DEVICE_NO_FP64 counts); 0 when no context
 * can be made, so that the case fails on that instead. */
static inline int test_no_fp64(void)
{
    bchol_context *c;
    bchol_device_info d;
    if (bchol_context_create(NULL, &c)) return 0;
    const int none = !bchol_context_device_info(c, &d) && !d.fp64;
    bchol_context_destroy(c);
    return none;
}

/* 1, after printing "skipped: no fp64", when precision 'd' cannot run here. */
static inline int test_skip_precision(char precision)
{
    if (precision != 'd' || !test_no_fp64()) return 0;
    printf("skipped: no fp64\n");
    fflush(stdout);
    return 1;
}

/* For testers whose checks hold in either precision: 'd', or 's' where the device has no
 * fp64 (said once). */
static inline char test_double_or_single(void)
{
    static int said;
    if (!test_no_fp64()) return 'd';
    if (!said++) printf("no fp64: the double parts run in single precision\n");
    return 's';
}

/* 1, after printing "skipped: <why>", where st refuses a size that llvmpipe's limits rule
 * out (BCHOL_ERR_UNSUPPORTED_SIZE on a device named llvmpipe: its 32-work-item kernels, its
 * loop limiter): cases written for larger devices cannot run there. Elsewhere such a
 * refusal stays a failure. */
static inline int test_skip_refusal(bchol_context *ctx, bchol_status st)
{
    bchol_device_info d;
    if (st != BCHOL_ERR_UNSUPPORTED_SIZE || bchol_context_device_info(ctx, &d) ||
        strncmp(d.name, "llvmpipe", 8))
        return 0;
    printf("skipped: %s\n", bchol_last_error(ctx));
    fflush(stdout);
    return 1;
}

#endif
