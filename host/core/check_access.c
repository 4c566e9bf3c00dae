/* How a call uses its buffers, checked against what OpenCL lets us query: a kernel may
 * write only a buffer not made CL_MEM_READ_ONLY and read only one not made
 * CL_MEM_WRITE_ONLY, and no two arguments may share bytes where one of them is written
 * (the same buffer with overlapping ranges), nor be overlapping memory objects of one
 * buffer (a buffer and its sub-buffer, overlapping sub-buffers) where one is written: the
 * kernels assume they do not alias, so A and info in one buffer gave info the bits of the
 * factor. */
#include "core/core.h"

#include <stdio.h>

typedef struct {
    cl_mem root;   /* the buffer itself, or a sub-buffer's parent */
    uint64_t a, b; /* bytes [a, b) of root */
    uint64_t lo, hi; /* the memory object's own bytes [lo, hi) of root */
} placed;

static bchol_status query(const bchol_context *ctx, const char *routine, const bchol_buffer_use *u,
                          cl_mem_info what, size_t size, void *value)
{
    cl_int err = clGetMemObjectInfo(u->buffer, what, size, value, NULL);
    if (!err) return BCHOL_SUCCESS;
    char where[160];
    snprintf(where, sizeof where, "%s: argument %d (%s): clGetMemObjectInfo", routine, u->pos,
             u->name);
    return bchol__fail_cl(ctx, err, where);
}

/* Which of two arguments sharing memory the call writes, for the message. */
static const char *written(const bchol_buffer_use *a, const bchol_buffer_use *b)
{
    if (a->access & b->access & BCHOL__WRITE) return "both";
    return (b->access & BCHOL__WRITE) ? b->name : a->name;
}

bchol_status bchol__check_buffer_uses(const bchol_context *ctx, const char *routine,
                                      const bchol_buffer_use *use, int count)
{
    placed at[BCHOL__MAX_BUFFER_USES];
    bchol_status st;
    if (count > BCHOL__MAX_BUFFER_USES) count = BCHOL__MAX_BUFFER_USES;
    for (int i = 0; i < count; i++) {
        const bchol_buffer_use *u = &use[i];
        cl_mem_flags flags = 0;
        cl_mem parent = NULL;
        size_t origin = 0, size = 0;
        at[i].root = NULL;
        if (!u->buffer) continue;
        if ((st = query(ctx, routine, u, CL_MEM_FLAGS, sizeof flags, &flags)) ||
            (st = query(ctx, routine, u, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent)) ||
            (st = query(ctx, routine, u, CL_MEM_OFFSET, sizeof origin, &origin)) ||
            (st = query(ctx, routine, u, CL_MEM_SIZE, sizeof size, &size)))
            return st;
        if ((u->access & BCHOL__WRITE) && (flags & CL_MEM_READ_ONLY))
            return bchol__fail(ctx, u->bad,
                               "%s: argument %d (%s) is CL_MEM_READ_ONLY; the call writes it",
                               routine, u->pos, u->name);
        if ((u->access & BCHOL__READ) && (flags & CL_MEM_WRITE_ONLY))
            return bchol__fail(ctx, u->bad,
                               "%s: argument %d (%s) is CL_MEM_WRITE_ONLY; the call reads it",
                               routine, u->pos, u->name);
        at[i].root = parent ? parent : u->buffer;
        at[i].a = (uint64_t)origin + u->begin;
        at[i].b = (uint64_t)origin + (u->end ? u->end : (uint64_t)size);
        at[i].lo = (uint64_t)origin;
        at[i].hi = (uint64_t)origin + (uint64_t)size;
    }
    /* Each argument against the earlier ones; the later argument is named as the bad one. */
    for (int j = 0; j < count; j++)
        for (int i = 0; i < j; i++) {
            if (!at[i].root || at[i].root != at[j].root) continue;
            if (!((use[i].access | use[j].access) & BCHOL__WRITE)) continue;
            /* Two memory objects of one buffer (a buffer and its sub-buffer, or overlapping
             * sub-buffers): OpenCL 1.2 (5.2.1) leaves writing one while the other is in use
             * undefined, whichever bytes the call touches; NVIDIA's driver crashed later,
             * in clReleaseMemObject, after a kernel wrote two such sub-buffers. */
            if (use[i].buffer != use[j].buffer && at[i].lo < at[j].hi && at[j].lo < at[i].hi)
                return bchol__fail(ctx, use[j].bad,
                                   "%s: argument %d (%s) and argument %d (%s) are overlapping "
                                   "memory objects of one buffer (bytes [%llu, %llu) and [%llu, "
                                   "%llu)), and the call writes %s: OpenCL leaves that undefined",
                                   routine, use[j].pos, use[j].name, use[i].pos, use[i].name,
                                   (unsigned long long)at[j].lo, (unsigned long long)at[j].hi,
                                   (unsigned long long)at[i].lo, (unsigned long long)at[i].hi,
                                   written(&use[i], &use[j]));
            if (at[i].a >= at[j].b || at[j].a >= at[i].b) continue;
            return bchol__fail(ctx, use[j].bad,
                               "%s: argument %d (%s) overlaps argument %d (%s): bytes [%llu, %llu) "
                               "and [%llu, %llu) of one buffer, and the call writes %s",
                               routine, use[j].pos, use[j].name, use[i].pos, use[i].name,
                               (unsigned long long)at[j].a, (unsigned long long)at[j].b,
                               (unsigned long long)at[i].a, (unsigned long long)at[i].b,
                               written(&use[i], &use[j]));
        }
    return BCHOL_SUCCESS;
}
