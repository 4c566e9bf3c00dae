/* Program cache: (source text, sorted build options) -> built program and its kernels,
 * once per context. A failed build keeps its log in the error message. */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 8

struct bchol_program_entry {
    struct bchol_program_entry *next;
    char *text;
    char *options;
    cl_program program;
    int nkernels;
    char kernel_name[MAX_KERNELS][64];
    cl_kernel kernel[MAX_KERNELS];
};

void bchol__options_init(bchol_options *o) { o->count = 0; }

void bchol__options_add(bchol_options *o, const char *fmt, ...)
{
    if (o->count >= BCHOL_MAX_OPTIONS) return; /* callers stay far below the limit */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->opt[o->count], sizeof o->opt[0], fmt, ap);
    va_end(ap);
    o->count++;
}

void bchol__options_precision(bchol_options *o, bchol_precision p)
{
    bchol__options_add(o, "-D REAL=%s", p == BCHOL_D ? "double" : "float");
    bchol__options_add(o, "-D PRECISION_DOUBLE=%d", p == BCHOL_D);
}

static int cmp_opt(const void *a, const void *b) { return strcmp(a, b); }

/* Sorted so that the same macros in another order hit the same cache entry. */
static char *options_string(const bchol_context *ctx, const bchol_options *opts)
{
    bchol_options sorted = *opts;
    qsort(sorted.opt, (size_t)sorted.count, sizeof sorted.opt[0], cmp_opt);
    size_t len = strlen(ctx->backend->build_options) + 16;
    for (int i = 0; i < sorted.count; i++) len += strlen(sorted.opt[i]) + 1;
    char *s = malloc(len);
    if (!s) return NULL;
    snprintf(s, len, "-cl-std=CL1.2%s%s", *ctx->backend->build_options ? " " : "",
             ctx->backend->build_options);
    for (int i = 0; i < sorted.count; i++) {
        strcat(s, " ");
        strcat(s, sorted.opt[i]);
    }
    return s;
}

static bchol_status build_failed(bchol_context *ctx, cl_program program, cl_int err,
                                 const char *options)
{
    size_t size = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) ==
            CL_SUCCESS &&
        (log = malloc(size + 1))) {
        if (clGetProgramBuildInfo(program, ctx->device, CL_PROGRAM_BUILD_LOG, size, log, NULL))
            size = 0;
        log[size] = 0;
    }
    bchol_status st = bchol__fail(ctx, BCHOL_ERR_BUILD,
                                  "kernel build failed: %s (%d) with options \"%s\"; build log:\n%s",
                                  bchol__cl_error_name(err), (int)err, options, log ? log : "");
    free(log);
    return st;
}

static bchol_status build(bchol_context *ctx, const char *text, const char *options,
                          cl_program *out, char *warning, size_t size)
{
    char key[33];
    cl_int err;
    if (ctx->binary_cache) {
        bchol__build_key(ctx, text, options, key);
        if ((*out = bchol__binary_cache_load(ctx, key, warning, size))) return BCHOL_SUCCESS;
    }
    cl_program program = clCreateProgramWithSource(ctx->cl_ctx, 1, &text, NULL, &err);
    if (!program) return bchol__fail_cl(ctx, err, "clCreateProgramWithSource");
    err = clBuildProgram(program, 1, &ctx->device, options, NULL, NULL);
    if (err) {
        bchol_status st = build_failed(ctx, program, err, options);
        clReleaseProgram(program);
        return st;
    }
    if (ctx->binary_cache) bchol__binary_cache_store(ctx, key, program, warning, size);
    *out = program;
    return BCHOL_SUCCESS;
}

static bchol_status kernel_of(bchol_context *ctx, struct bchol_program_entry *e,
                              const char *name, cl_kernel *kernel)
{
    for (int i = 0; i < e->nkernels; i++)
        if (!strcmp(e->kernel_name[i], name)) {
            *kernel = e->kernel[i];
            return BCHOL_SUCCESS;
        }
    if (e->nkernels == MAX_KERNELS || strlen(name) >= sizeof e->kernel_name[0])
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "too many kernels in one program");
    cl_int err;
    cl_kernel k = clCreateKernel(e->program, name, &err);
    if (!k) return bchol__fail_cl(ctx, err, "clCreateKernel");
    snprintf(e->kernel_name[e->nkernels], sizeof e->kernel_name[0], "%s", name);
    e->kernel[e->nkernels++] = k;
    *kernel = k;
    return BCHOL_SUCCESS;
}

bchol_status bchol__get_kernel_from_text(bchol_context *ctx, const char *text,
                                         const bchol_options *opts, const char *name,
                                         cl_kernel *kernel)
{
    char *options = options_string(ctx, opts);
    if (!options) return bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "no memory for build options");
    bchol_status st = BCHOL_SUCCESS;
    char warning[1024] = "";
    pthread_mutex_lock(&ctx->lock);
    struct bchol_program_entry *e;
    for (e = ctx->programs; e; e = e->next)
        if (!strcmp(e->options, options) && !strcmp(e->text, text)) break;
    if (!e) {
        /* Built under the lock: a second thread asking for the same program waits for it
         * instead of building it again. */
        cl_program program;
        st = build(ctx, text, options, &program, warning, sizeof warning);
        if (!st) {
            if (!(e = calloc(1, sizeof *e)) || !(e->text = strdup(text))) {
                if (e) free(e);
                clReleaseProgram(program);
                st = bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "no memory for the program cache");
                e = NULL;
            } else {
                e->options = options;
                options = NULL;
                e->program = program;
                e->next = ctx->programs;
                ctx->programs = e;
            }
        }
    }
    if (e) st = kernel_of(ctx, e, name, kernel);
    pthread_mutex_unlock(&ctx->lock);
    /* after the unlock: the message channel takes the lock itself */
    if (*warning) bchol__warn(ctx, "%s", warning);
    free(options);
    return st;
}

bchol_status bchol__get_kernel(bchol_context *ctx, const char *const *files,
                               const bchol_options *opts, const char *name, cl_kernel *kernel)
{
    size_t len = 1;
    char *parts[8];
    int n = 0;
    bchol_status st = BCHOL_SUCCESS;
    for (; files[n]; n++) {
        if (n == 8 || (st = bchol__kernel_source(ctx, files[n], &parts[n]))) {
            if (n == 8) st = bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "too many kernel files");
            break;
        }
        len += strlen(parts[n]) + strlen(files[n]) + 32;
    }
    char *text = st ? NULL : malloc(len);
    if (!st && !text) st = bchol__fail(ctx, BCHOL_ERR_OUT_OF_MEMORY, "no memory for kernel text");
    if (!st) {
        text[0] = 0;
        for (int i = 0; i < n; i++) {
            /* #line keeps build-log positions pointing into the right file. */
            char line[128];
            snprintf(line, sizeof line, "#line 1 \"%s\"\n", files[i]);
            strcat(text, line);
            strcat(text, parts[i]);
            strcat(text, "\n");
        }
        st = bchol__get_kernel_from_text(ctx, text, opts, name, kernel);
    }
    for (int i = 0; i < n && i < 8; i++) free(parts[i]);
    free(text);
    return st;
}

void bchol__program_cache_release(bchol_context *ctx)
{
    struct bchol_program_entry *e = ctx->programs, *next;
    for (; e; e = next) {
        next = e->next;
        for (int i = 0; i < e->nkernels; i++) clReleaseKernel(e->kernel[i]);
        clReleaseProgram(e->program);
        free(e->text);
        free(e->options);
        free(e);
    }
    ctx->programs = NULL;
}
