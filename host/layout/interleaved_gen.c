/*
 * Generator of the interleaved factorization kernels (Kurzak, Gates et al., "Autotuning
 * batch Cholesky factorization in CUDA with interleaved layout of matrices", Figs. 9-12).
 *
 * One work-item factors one matrix. The matrix is cut into nb-by-nb tiles (the last tile
 * row and column are smaller when nb does not divide n); a tile lives in private scalars
 * named <tile>_<row>_<col>, and every tile operation -- load and store of full and lower
 * tiles, POTRF, TRSM, SYRK, GEMM -- is emitted as straight-line code. The order of the
 * tile operations is left-, right- or top-looking; the loops over tiles are either
 * emitted as loops (tile operations unrolled, the corner tile peeled after each loop
 * that reaches it) or unrolled here into one block of straight-line code.
 *
 * The lower factor L is computed in place of the stored triangle: element (i, j) of L is
 * read at (i, j) for lower storage and at (j, i) for upper storage (U = L**T), through the
 * AT(i, j) macro of the generated text. A failed pivot (PIVOT_OK of common.cl) sets info
 * to its 1-based column; from then on the matrix's stores are skipped (it stops), and the
 * arithmetic goes on harmlessly so that the code has no branches per matrix.
 */
#include "layout/layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *text;
    size_t len, cap;
    int oom;
    int indent;
    const bchol_ilv_config *cfg;
    int nb, nt, nfull, last; /* tile size; tiles; full tiles; order of the last tile */
} gen;

static void emit(gen *g, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void emit(gen *g, const char *fmt, ...)
{
    if (g->oom) return;
    for (int pass = 0; pass < 2; pass++) {
        size_t room = g->cap - g->len;
        int head = g->indent * 4;
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(g->text + g->len + head, room > (size_t)head ? room - (size_t)head : 0,
                          fmt, ap);
        va_end(ap);
        if (w < 0) {
            g->oom = 1;
            return;
        }
        size_t need = (size_t)head + (size_t)w + 2;
        if (need < room) {
            memset(g->text + g->len, ' ', (size_t)head);
            g->len += (size_t)head + (size_t)w;
            g->text[g->len++] = '\n';
            g->text[g->len] = 0;
            return;
        }
        size_t cap = g->cap * 2 > g->len + need ? g->cap * 2 : g->len + need + 4096;
        char *t = realloc(g->text, cap);
        if (!t) {
            g->oom = 1;
            return;
        }
        g->text = t;
        g->cap = cap;
    }
}

/* ---- tile indices: a constant, or a loop variable of the generated code ---------------- */

typedef struct {
    const char *var; /* NULL: the constant c */
    int c;
} tidx;

static tidx constant(int c) { return (tidx){NULL, c}; }

/* Order of tile t: loops run over full tiles only; a constant may name the corner. */
static int tile_order(const gen *g, tidx t) { return t.var || t.c < g->nfull ? g->nb : g->last; }

/* Row (or column) off of tile t as text: a number, or "kk * nb + off". */
static const char *pos(const gen *g, tidx t, int off, char *buf, size_t size)
{
    if (!t.var)
        snprintf(buf, size, "%d", t.c * g->nb + off);
    else if (off)
        snprintf(buf, size, "%s * %d + %d", t.var, g->nb, off);
    else
        snprintf(buf, size, "%s * %d", t.var, g->nb);
    return buf;
}

/* ---- tile loops ------------------------------------------------------------------------ */

#define LEVELS 3
typedef void (*tile_body)(gen *g, tidx *ix);

/*
 * body for ix[level] = lo, lo+1, ... below *hi, or through the last tile when hi is NULL.
 * Fully unrolled: expanded here with constants. Otherwise a loop over the full tiles, and
 * when it can reach the corner tile, the body once more after it for the corner (its
 * tile operations have other sizes, so they are separate code).
 */
static void tile_loop(gen *g, int level, const char *name, tidx lo, int lo_plus, const tidx *hi,
                      tile_body body, tidx *ix)
{
    if (g->cfg->unroll == BCHOL_UNROLL_FULL) {
        const int end = hi ? hi->c : g->nt;
        for (int v = lo.c + lo_plus; v < end; v++) {
            ix[level] = constant(v);
            body(g, ix);
        }
        return;
    }
    const int loop_end = hi ? -1 : g->nfull; /* -1: the bound is *hi */
    int runs = 1;
    if (!lo.var && hi && !hi->var && lo.c + lo_plus >= hi->c) runs = 0;
    if (!lo.var && !hi && lo.c + lo_plus >= g->nfull) runs = 0;
    if (runs) {
        char from[32], to[32];
        if (lo.var)
            snprintf(from, sizeof from, lo_plus ? "%s + %d" : "%s", lo.var, lo_plus);
        else
            snprintf(from, sizeof from, "%d", lo.c + lo_plus);
        if (loop_end >= 0)
            snprintf(to, sizeof to, "%d", loop_end);
        else if (hi->var)
            snprintf(to, sizeof to, "%s", hi->var);
        else
            snprintf(to, sizeof to, "%d", hi->c);
        /* The loops are the point of this mode: keep the compiler from unrolling them. */
        emit(g, "#pragma unroll 1");
        emit(g, "for (int %s = %s; %s < %s; %s++) {", name, from, name, to, name);
        g->indent++;
        ix[level] = (tidx){name, 0};
        body(g, ix);
        g->indent--;
        emit(g, "}");
    }
    const int corner = g->nt > g->nfull;
    if (!hi && corner && (lo.var || lo.c + lo_plus <= g->nfull)) {
        ix[level] = constant(g->nfull);
        body(g, ix);
    }
}

/* ---- memory operations (Fig. 10) ------------------------------------------------------- */

/* Tile t(ti, tj) from memory: the lower triangle of a diagonal tile, or the full tile. */
static void load(gen *g, char t, tidx ti, tidx tj, int lower)
{
    const int rows = tile_order(g, ti), cols = tile_order(g, tj);
    char r[48], c[48];
    for (int j = 0; j < cols; j++)
        for (int i = lower ? j : 0; i < rows; i++)
            emit(g, "%c_%d_%d = LD(%s, %s);", t, i, j, pos(g, ti, i, r, sizeof r),
                 pos(g, tj, j, c, sizeof c));
}

/* Tile t back to memory, unless this matrix has failed (or the lane is padding): the
 * stores are skipped, or (blend) write the old value back. */
static void store(gen *g, char t, tidx ti, tidx tj, int lower)
{
    const int rows = tile_order(g, ti), cols = tile_order(g, tj);
    char r[48], c[48];
    if (!g->cfg->blend) {
        emit(g, "if (info == 0) {");
        g->indent++;
    }
    for (int j = 0; j < cols; j++)
        for (int i = lower ? j : 0; i < rows; i++) {
            pos(g, ti, i, r, sizeof r);
            pos(g, tj, j, c, sizeof c);
            if (g->cfg->blend)
                emit(g, "AT(%s, %s) = info == 0 ? %c_%d_%d : AT(%s, %s);", r, c, t, i, j, r, c);
            else
                emit(g, "AT(%s, %s) = %c_%d_%d;", r, c, t, i, j);
        }
    if (!g->cfg->blend) {
        g->indent--;
        emit(g, "}");
    }
}

/* ---- tile operations (Fig. 9), all on the lower factor --------------------------------- */

/* t = chol(t) of the diagonal tile tk; the first pivot that fails sets info. */
static void potrf_tile(gen *g, char t, tidx tk)
{
    const int s = tile_order(g, tk);
    char col[48];
    for (int k = 0; k < s; k++) {
        emit(g, "info = (info == 0 && !PIVOT_OK(%c_%d_%d)) ? %s : info;", t, k, k,
             pos(g, tk, k + 1, col, sizeof col));
        emit(g, "%c_%d_%d = sqrt(%c_%d_%d);", t, k, k, t, k, k);
        if (k + 1 < s) emit(g, "r = (REAL)1 / %c_%d_%d;", t, k, k);
        for (int m = k + 1; m < s; m++) emit(g, "%c_%d_%d *= r;", t, m, k);
        for (int n = k + 1; n < s; n++)
            for (int m = n; m < s; m++)
                emit(g, "%c_%d_%d = mad(-%c_%d_%d, %c_%d_%d, %c_%d_%d);", t, m, n, t, m, k, t, n, k,
                     t, m, n);
    }
}

/* x = x * t**-T: x is rows-by-cols, t the lower factor of order cols. */
static void trsm_tile(gen *g, char t, char x, int rows, int cols)
{
    for (int k = 0; k < cols; k++) {
        emit(g, "r = (REAL)1 / %c_%d_%d;", t, k, k);
        for (int m = 0; m < rows; m++) emit(g, "%c_%d_%d *= r;", x, m, k);
        for (int n = k + 1; n < cols; n++)
            for (int m = 0; m < rows; m++)
                emit(g, "%c_%d_%d = mad(-%c_%d_%d, %c_%d_%d, %c_%d_%d);", x, m, n, x, m, k, t, n, k,
                     x, m, n);
    }
}

/* c -= a * a**T on the lower triangle of c (order rows); a is rows-by-w. */
static void syrk_tile(gen *g, char a, char c, int rows, int w)
{
    for (int k = 0; k < w; k++)
        for (int n = 0; n < rows; n++)
            for (int m = n; m < rows; m++)
                emit(g, "%c_%d_%d = mad(-%c_%d_%d, %c_%d_%d, %c_%d_%d);", c, m, n, a, m, k, a, n, k,
                     c, m, n);
}

/* x -= a * b**T: x is rows-by-cols, a rows-by-w, b cols-by-w. */
static void gemm_tile(gen *g, char a, char b, char x, int rows, int cols, int w)
{
    for (int k = 0; k < w; k++)
        for (int n = 0; n < cols; n++)
            for (int m = 0; m < rows; m++)
                emit(g, "%c_%d_%d = mad(-%c_%d_%d, %c_%d_%d, %c_%d_%d);", x, m, n, a, m, k, b, n, k,
                     x, m, n);
}

/* ---- top-looking (Fig. 11): block row kk from above, then its diagonal tile ------------ */

static void top_gemm(gen *g, tidx *ix) /* x(kk,nn) -= A(kk,mm) * A(nn,mm)**T */
{
    load(g, 'a', ix[0], ix[2], 0);
    load(g, 'b', ix[1], ix[2], 0);
    gemm_tile(g, 'a', 'b', 'x', tile_order(g, ix[0]), tile_order(g, ix[1]), tile_order(g, ix[2]));
}

static void top_offdiag(gen *g, tidx *ix) /* A(kk,nn) = (A(kk,nn) - sum) * L(nn,nn)**-T */
{
    load(g, 'x', ix[0], ix[1], 0);
    tile_loop(g, 2, "mm", constant(0), 0, &ix[1], top_gemm, ix);
    load(g, 't', ix[1], ix[1], 1);
    trsm_tile(g, 't', 'x', tile_order(g, ix[0]), tile_order(g, ix[1]));
    store(g, 'x', ix[0], ix[1], 0);
}

static void top_syrk(gen *g, tidx *ix) /* c -= A(kk,nn) * A(kk,nn)**T */
{
    load(g, 'a', ix[0], ix[1], 0);
    syrk_tile(g, 'a', 'c', tile_order(g, ix[0]), tile_order(g, ix[1]));
}

static void top_row(gen *g, tidx *ix)
{
    tile_loop(g, 1, "nn", constant(0), 0, &ix[0], top_offdiag, ix);
    load(g, 'c', ix[0], ix[0], 1);
    tile_loop(g, 1, "nn", constant(0), 0, &ix[0], top_syrk, ix);
    potrf_tile(g, 'c', ix[0]);
    store(g, 'c', ix[0], ix[0], 1);
}

/* ---- left-looking (Fig. 6): block column kk updated from the left, then factored ------- */

static void left_syrk(gen *g, tidx *ix) /* c -= A(kk,nn) * A(kk,nn)**T */
{
    load(g, 'a', ix[0], ix[1], 0);
    syrk_tile(g, 'a', 'c', tile_order(g, ix[0]), tile_order(g, ix[1]));
}

static void left_gemm(gen *g, tidx *ix) /* x(mm,kk) -= A(mm,nn) * A(kk,nn)**T */
{
    load(g, 'a', ix[1], ix[2], 0);
    load(g, 'b', ix[0], ix[2], 0);
    gemm_tile(g, 'a', 'b', 'x', tile_order(g, ix[1]), tile_order(g, ix[0]), tile_order(g, ix[2]));
}

static void left_panel(gen *g, tidx *ix) /* A(mm,kk) = (A(mm,kk) - sum) * L(kk,kk)**-T */
{
    load(g, 'x', ix[1], ix[0], 0);
    tile_loop(g, 2, "nn", constant(0), 0, &ix[0], left_gemm, ix);
    load(g, 't', ix[0], ix[0], 1);
    trsm_tile(g, 't', 'x', tile_order(g, ix[1]), tile_order(g, ix[0]));
    store(g, 'x', ix[1], ix[0], 0);
}

static void left_column(gen *g, tidx *ix)
{
    load(g, 'c', ix[0], ix[0], 1);
    tile_loop(g, 1, "nn", constant(0), 0, &ix[0], left_syrk, ix);
    potrf_tile(g, 'c', ix[0]);
    store(g, 'c', ix[0], ix[0], 1);
    tile_loop(g, 1, "mm", ix[0], 1, NULL, left_panel, ix);
}

/* ---- right-looking (Fig. 3): factor block column kk, then update everything right of it - */

static void right_trsm(gen *g, tidx *ix) /* A(mm,kk) = A(mm,kk) * L(kk,kk)**-T, c = L(kk,kk) */
{
    load(g, 'x', ix[1], ix[0], 0);
    trsm_tile(g, 'c', 'x', tile_order(g, ix[1]), tile_order(g, ix[0]));
    store(g, 'x', ix[1], ix[0], 0);
}

static void right_gemm(gen *g, tidx *ix) /* A(mm,nn) -= A(mm,kk) * A(nn,kk)**T, b = A(nn,kk) */
{
    load(g, 'a', ix[2], ix[0], 0);
    load(g, 'x', ix[2], ix[1], 0);
    gemm_tile(g, 'a', 'b', 'x', tile_order(g, ix[2]), tile_order(g, ix[1]), tile_order(g, ix[0]));
    store(g, 'x', ix[2], ix[1], 0);
}

static void right_update(gen *g, tidx *ix) /* block column nn of the trailing matrix */
{
    load(g, 'b', ix[1], ix[0], 0);
    load(g, 't', ix[1], ix[1], 1);
    syrk_tile(g, 'b', 't', tile_order(g, ix[1]), tile_order(g, ix[0]));
    store(g, 't', ix[1], ix[1], 1);
    tile_loop(g, 2, "mm", ix[1], 1, NULL, right_gemm, ix);
}

static void right_step(gen *g, tidx *ix)
{
    load(g, 'c', ix[0], ix[0], 1);
    potrf_tile(g, 'c', ix[0]);
    store(g, 'c', ix[0], ix[0], 1);
    tile_loop(g, 1, "mm", ix[0], 1, NULL, right_trsm, ix);
    tile_loop(g, 1, "nn", ix[0], 1, NULL, right_update, ix);
}

/* ---- the kernel ------------------------------------------------------------------------ */

uint64_t bchol__ilv_staged_local_bytes(int n, int wg, size_t elem_size)
{
    return (uint64_t)n * (uint64_t)(n + 1) / 2 * (uint64_t)(wg + 1) * elem_size;
}

/* The kernel of an interleaved batch in global memory: the lanes' matrices lie chunk
 * (LS) elements apart. */
static void global_head(gen *g)
{
    const bchol_ilv_config *cfg = g->cfg;
    const int n = cfg->n;
    /* LS: elements between consecutive entries of one matrix (the chunk size). */
    if (cfg->chunk <= 0)
        emit(g, "#define LS chunk");
    else if ((uint64_t)n * (uint64_t)n * (uint64_t)cfg->chunk < (1u << 31))
        emit(g, "#define LS %lld", (long long)cfg->chunk);
    else
        emit(g, "#define LS %lldUL", (long long)cfg->chunk);
    if (cfg->upper)
        emit(g, "#define AT(i, j) Ab[((j) + (i) * N) * LS] /* L(i,j) = U(j,i) */");
    else
        emit(g, "#define AT(i, j) Ab[((i) + (j) * N) * LS]");
    /* Loads: a lane past the batch whose index is clamped to the last matrix would read
     * what that matrix's own lane is writing; it factors the identity instead. */
    if (cfg->aligned)
        emit(g, "#define LD(i, j) AT(i, j)");
    else
        emit(g, "#define LD(i, j) (b < batch ? AT(i, j) : (REAL)((i) == (j)))");
    emit(g, "%s", "");
    emit(g, "__attribute__((reqd_work_group_size(%d, 1, 1)))", cfg->wg);
    emit(g, "__kernel void " BCHOL_ILV_KERNEL "(__global REAL *restrict A, const ulong chunk,");
    emit(g, "                                const ulong batch, const ulong b0,");
    emit(g, "                                __global int *restrict info_out, const ulong info0)");
    emit(g, "{");
    g->indent = 1;
    if (cfg->aligned) {
        emit(g, "/* The group's lanes are consecutive in one chunk, padding lanes included. */");
        emit(g, "const ulong g0 = b0 + get_group_id(0) * %d, b = g0 + get_local_id(0);", cfg->wg);
        emit(g, "__global REAL *Ab = A + (g0 / LS) * ((ulong)N * N * LS) + g0 %% LS + get_local_id(0);");
    } else {
        emit(g, "const ulong b = b0 + get_global_id(0);");
        emit(g, "/* A lane past the batch reads the last matrix (and writes nothing). */");
        emit(g, "const ulong bl = b < batch ? b : batch - 1;");
        emit(g, "__global REAL *Ab = A + (bl / LS) * ((ulong)N * N * LS) + bl %% LS;");
    }
    emit(g, "/* info = -1 marks a lane past the batch: like a failed matrix, it stores nothing. */");
    emit(g, "int info = b < batch ? 0 : -1;");
}

/* Work-items of the staged kernel's copies (see stage_copy): CWE element slots of R
 * matrices at a time, about cap of them, at least wg. */
static void staged_shape(int n, int wg, int cap, int *cwe, int *r)
{
    const int e = n * n;
    *cwe = e < cap ? e : cap;
    *r = cap / *cwe;
    if (*cwe * *r < wg) *r = (wg + *cwe - 1) / *cwe;
}

int bchol__ilv_staged_items(int n, int wg, int cap)
{
    int cwe, r;
    staged_shape(n, wg, cap, &cwe, &r);
    return cwe * r;
}

/* The staged kernel's copy of the group's matrices into Ls (in = 1) or back. Work-item
 * lane owns the element slots e = lane % CWE + q*CWE (q < Q) of every R-th matrix from
 * lane / CWE: each slot's place in a matrix (i, j, its packed PK and whether it is stored)
 * is worked out once, and consecutive work-items read and write consecutive addresses of
 * A. A batch of 16384 matrices has only about 4 warps of factoring work-items per
 * multiprocessor of an H200: with those alone, walking the elements with the index
 * arithmetic per element, the copies took twice the factorization at n = 16. The copy in
 * issues STAGE_BATCH loads before it stores any. */
#define STAGE_BATCH 8

static void stage_copy(gen *g, int in)
{
    emit(g, "#pragma unroll");
    emit(g, "for (int q = 0; q < Q; q++) {");
    g->indent++;
    emit(g, "const int e = lane %% CWE + q * CWE, i = e %% N, j = e / N;");
    emit(g, "const int stored = e < N * N && %s;", g->cfg->upper ? "i <= j" : "i >= j");
    emit(g, "const int to = (stored ? %s : 0) * LS;", g->cfg->upper ? "PK(j, i)" : "PK(i, j)");
    emit(g, "const int m0 = lane / CWE;");
    emit(g, "__global REAL *p = A + offset + (g0 + m0) * stride + (ulong)i + (ulong)j * (ulong)lda;");
    emit(g, "const ulong step = (ulong)R * stride;");
    if (in) {
        emit(g, "for (int k0 = 0; k0 < MSTEPS; k0 += %d, p += %d * step) {", STAGE_BATCH, STAGE_BATCH);
        g->indent++;
        emit(g, "REAL v[%d];", STAGE_BATCH);
        emit(g, "#pragma unroll");
        emit(g, "for (int u = 0; u < %d; u++) {", STAGE_BATCH);
        emit(g, "    const int m = m0 + (k0 + u) * R;");
        emit(g, "    v[u] = stored && m < WG && g0 + m < batch ? p[u * step] : (REAL)0;");
        emit(g, "}");
        emit(g, "#pragma unroll");
        emit(g, "for (int u = 0; u < %d; u++) {", STAGE_BATCH);
        emit(g, "    const int m = m0 + (k0 + u) * R;");
        /* a lane past the batch factors the identity (no lane reads what nobody wrote) */
        emit(g, "    if (stored && m < WG) Ls[to + m] = g0 + m < batch ? v[u] : (REAL)(i == j);");
        emit(g, "}");
    } else {
        emit(g, "for (int k = 0; k < MSTEPS; k++, p += step) {");
        g->indent++;
        emit(g, "const int m = m0 + k * R;");
        emit(g, "if (stored && m < WG && g0 + m < batch) *p = Ls[to + m];");
    }
    g->indent--;
    emit(g, "}");
    g->indent--;
    emit(g, "}");
}

/* The staged kernel: the group's WG matrices of the strided batch are copied into local
 * memory, lane (matrix) index fastest: the lanes of the factorization read consecutive
 * local addresses. Only the lower factor is kept, packed by columns (PK), LS = WG + 1
 * elements apart so that the copies' elements of consecutive matrices fall in different
 * banks. A failed matrix is copied back as far as its factorization got, as the other
 * kernels leave it. */
static void staged_head(gen *g)
{
    const bchol_ilv_config *cfg = g->cfg;
    int cwe, r;
    staged_shape(cfg->n, cfg->wg, cfg->copy_items, &cwe, &r);
    emit(g, "#define WG %d /* matrices per group, one factoring work-item each */", cfg->wg);
    emit(g, "#define CWE %d /* element slots of the copies */", cwe);
    emit(g, "#define R %d /* matrices at a time in the copies */", r);
    emit(g, "#define Q ((N * N + CWE - 1) / CWE)");
    emit(g, "#define MSTEPS ((WG + R - 1) / R)");
    emit(g, "#define LS (WG + 1)");
    emit(g, "#define PK(i, j) ((j) * (2 * N - (j) - 1) / 2 + (i))");
    emit(g, "#define AT(i, j) Ls[PK(i, j) * LS + lane]");
    emit(g, "#define LD(i, j) AT(i, j)");
    emit(g, "%s", "");
    emit(g, "__attribute__((reqd_work_group_size(CWE * R, 1, 1)))");
    emit(g, "__kernel void " BCHOL_ILV_STAGED_KERNEL "(__global REAL *restrict A, const ulong offset,");
    emit(g, "                                const int lda, const ulong stride, const ulong batch,");
    emit(g, "                                __global int *restrict info_out, const ulong group0)");
    emit(g, "{");
    g->indent = 1;
    emit(g, "__local REAL Ls[N * (N + 1) / 2 * LS];");
    emit(g, "const int lane = (int)get_local_id(0);");
    emit(g, "const ulong g0 = (group0 + get_group_id(0)) * WG, b = g0 + lane;");
    stage_copy(g, 1);
    emit(g, "barrier(CLK_LOCAL_MEM_FENCE);");
    emit(g, "/* info = -1 marks a lane past the batch: like a failed matrix, it stores nothing. */");
    emit(g, "if (lane < WG) {");
    g->indent++;
    emit(g, "int info = b < batch ? 0 : -1;");
}

static const char *looking_name(int looking)
{
    return looking == BCHOL_LOOKING_LEFT ? "left" : looking == BCHOL_LOOKING_RIGHT ? "right" : "top";
}

static void declare_tiles(gen *g, const char *names)
{
    for (const char *t = names; *t; t++) {
        char line[80];
        int used = snprintf(line, sizeof line, "REAL ");
        for (int j = 0; j < g->nb; j++)
            for (int i = 0; i < g->nb; i++) {
                const int last = i == g->nb - 1 && j == g->nb - 1;
                char name[40];
                snprintf(name, sizeof name, "%c_%d_%d%s", *t, i, j, last ? ";" : ", ");
                if (used + strlen(name) > 76) {
                    emit(g, "%s", line);
                    used = snprintf(line, sizeof line, "     ");
                }
                used += snprintf(line + used, sizeof line - (size_t)used, "%s", name);
            }
        emit(g, "%s", line);
    }
}

char *bchol__interleaved_source(const bchol_ilv_config *cfg)
{
    gen g = {0};
    g.cfg = cfg;
    g.nb = cfg->nb;
    g.nfull = cfg->n / cfg->nb;
    g.nt = (cfg->n + cfg->nb - 1) / cfg->nb;
    g.last = cfg->n - (g.nt - 1) * cfg->nb;
    g.cap = 1 << 16;
    if (!(g.text = malloc(g.cap))) return NULL;
    g.text[0] = 0;

    const int n = cfg->n;
    const int chunked = cfg->chunk > 0;
    emit(&g, "/* Generated by bchol (host/layout/interleaved_gen.c): n = %d, nb = %d, %s-looking, %s, %s "
             "layout, %s storage, %s lanes, %s stores. */",
         n, cfg->nb, looking_name(cfg->looking),
         cfg->unroll == BCHOL_UNROLL_FULL ? "fully unrolled" : "tile operations unrolled",
         cfg->staged ? "staged" : chunked ? "chunked" : "simple", cfg->upper ? "upper" : "lower",
         cfg->aligned ? "aligned" : "clamped", cfg->blend ? "blended" : "predicated");
    emit(&g, "#define N %d", n);
    if (cfg->staged)
        staged_head(&g);
    else
        global_head(&g);
    emit(&g, "REAL r;");
    declare_tiles(&g, "abctx");
    tidx ix[LEVELS] = {{0}};
    tile_body step = cfg->looking == BCHOL_LOOKING_LEFT    ? left_column
                     : cfg->looking == BCHOL_LOOKING_RIGHT ? right_step
                                                           : top_row;
    tile_loop(&g, 0, "kk", constant(0), 0, NULL, step, ix);
    emit(&g, cfg->staged ? "if (b < batch) info_out[b] = info;" : "if (b < batch) info_out[info0 + b] = info;");
    if (cfg->staged) {
        g.indent--;
        emit(&g, "}");
        emit(&g, "barrier(CLK_LOCAL_MEM_FENCE);");
        stage_copy(&g, 0);
    }
    g.indent = 0;
    emit(&g, "}");
    if (g.oom) {
        free(g.text);
        return NULL;
    }
    return g.text;
}
