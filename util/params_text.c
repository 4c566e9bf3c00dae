#include "params_text.h"

#include "bchol.h"

#include <string.h>

static const struct {
    const char *field, *name;
    int value;
} names[] = {
    {"variant", "auto", BCHOL_VARIANT_AUTO},
    {"variant", "fused", BCHOL_VARIANT_FUSED},
    {"variant", "separate", BCHOL_VARIANT_SEPARATE},
    {"variant", "interleaved", BCHOL_VARIANT_INTERLEAVED},
    {"variant", "workitem", BCHOL_VARIANT_WORKITEM},
    {"gemm", "own", BCHOL_GEMM_OWN},
    {"gemm", "clblast", BCHOL_GEMM_CLBLAST},
    {"looking", "left", BCHOL_LOOKING_LEFT},
    {"looking", "right", BCHOL_LOOKING_RIGHT},
    {"looking", "top", BCHOL_LOOKING_TOP},
    {"unroll", "tiles", BCHOL_UNROLL_TILES},
    {"unroll", "full", BCHOL_UNROLL_FULL},
    {"chunking", "chunked", BCHOL_CHUNKED},
    {"chunking", "simple", BCHOL_SIMPLE},
    {"chunking", "staged", BCHOL_STAGED},
    {"math", "ieee", BCHOL_MATH_IEEE},
    {"math", "fast", BCHOL_MATH_FAST},
    {"shape", "fixed", BCHOL_SHAPE_FIXED},
    {"shape", "shrink", BCHOL_SHAPE_SHRINK},
};

int util_param_value(const char *field, const char *text)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i].field, field) && !strcmp(names[i].name, text)) return names[i].value;
    return -1;
}

const char *util_param_name(const char *field, int value)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i].field, field) && names[i].value == value) return names[i].name;
    return "?";
}
