/* The host-side checks of a variable-size solve's buffer arguments, shared by
 * potrs/posv_vbatched (chol) and getrs/gesv_vbatched (lu): batch, then each buffer in
 * argument order (present, of ctx, large enough), then how the call uses them. One table
 * drives both passes, so the positions, names and statuses cannot drift apart. */
#include "core/core.h"

bchol_status bchol__check_vsolve_buffers(const bchol_context *ctx, const char *routine, int pn,
                                         const bchol_vsolve_buffers *a, int pivots, int factor,
                                         int64_t batch) {
    /* the pivot arrays, where there are any, stand between A and offsets_b */
    const int pb = pn + (pivots ? 8 : 6);
    if (batch < 0 || batch > INT64_MAX / 8)
        return bchol__fail(ctx, BCHOL_ERR_BATCH,
                           "%s: argument %d (batch = %lld) must be in [0, 2^60)", routine, pb + 2,
                           (long long)batch);
    if (batch == 0) return BCHOL_SUCCESS; /* no buffer is read: NULL ones may pass */
    const uint64_t ints = (uint64_t)batch * sizeof(cl_int);
    const uint64_t longs = (uint64_t)batch * sizeof(cl_long);
    /* the factorizations write A (and ipiv); which bytes of A, ipiv and B an entry uses is
     * on the device: each is all of its buffer (need 0) */
    const int rw = BCHOL__READ | BCHOL__WRITE, af = factor ? rw : BCHOL__READ;
    const struct {
        int pos;
        const char *name;
        cl_mem buffer;
        uint64_t need;
        int access;
        bchol_status bad, small;
    } arg[] = {
        {pn, "n", a->n, ints, BCHOL__READ, BCHOL_ERR_N_ARRAY, BCHOL_ERR_N_ARRAY},
        {pn + 1, "nrhs", a->nrhs, ints, BCHOL__READ, BCHOL_ERR_NRHS_ARRAY, BCHOL_ERR_NRHS_ARRAY},
        {pn + 2, "lda", a->lda, ints, BCHOL__READ, BCHOL_ERR_LDA_ARRAY, BCHOL_ERR_LDA_ARRAY},
        {pn + 3, "ldb", a->ldb, ints, BCHOL__READ, BCHOL_ERR_LDB_ARRAY, BCHOL_ERR_LDB_ARRAY},
        {pn + 4, "offsets_a", a->offsets_a, longs, BCHOL__READ, BCHOL_ERR_OFFSETS_A,
         BCHOL_ERR_OFFSETS_A},
        {pn + 5, "A", a->A, 0, af, BCHOL_ERR_A, BCHOL_ERR_A_SIZE},
        {pn + 6, "offsets_p", a->offsets_p, longs, BCHOL__READ, BCHOL_ERR_OFFSETS_P,
         BCHOL_ERR_OFFSETS_P},
        {pn + 7, "ipiv", a->ipiv, 0, af, BCHOL_ERR_IPIV, BCHOL_ERR_IPIV_SIZE},
        {pb, "offsets_b", a->offsets_b, longs, BCHOL__READ, BCHOL_ERR_OFFSETS_B,
         BCHOL_ERR_OFFSETS_B},
        {pb + 1, "B", a->B, 0, rw, BCHOL_ERR_B, BCHOL_ERR_B_SIZE},
        {pb + 3, "info", a->info, ints, rw, BCHOL_ERR_INFO, BCHOL_ERR_INFO_SIZE}};
    enum { ARGS = sizeof arg / sizeof arg[0] };
    bchol_buffer_use uses[ARGS];
    int count = 0;
    bchol_status st;
    for (int i = 0; i < ARGS; i++) {
        if (!pivots && (i == 6 || i == 7)) continue; /* offsets_p, ipiv: LU only */
        if ((st = bchol__check_buffer(ctx, routine, arg[i].pos, arg[i].name, arg[i].buffer,
                                      arg[i].need, arg[i].bad, arg[i].small)))
            return st;
        const bchol_buffer_use u = {arg[i].pos,  arg[i].name,   arg[i].buffer, 0,
                                    arg[i].need, arg[i].access, arg[i].bad};
        uses[count++] = u;
    }
    return bchol__check_buffer_uses(ctx, routine, uses, count);
}
