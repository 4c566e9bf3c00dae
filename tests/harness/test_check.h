/* A test's failure count and CHECK(cond, printf-style message): a failed condition prints
 * "FAILED (line L): message" on stdout and counts; the test goes on and returns whether
 * anything failed. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("FAILED (line %d): ", __LINE__);                                                \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#endif
