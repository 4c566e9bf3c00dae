/* Which path getri takes for order n: BCHOL_GETRI where set, else the tuning table's getri
 * entry for n (tuning.h) where its path can run n, else the backend's measured defaults
 * (getri_fused_from/_to, getri_solve_to, getri_nb). bchol_getri_config_for says which and
 * why. */
#include "lu/getri.h"
#include "tuning/tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text bchol_getri_config_for hands out: valid until the next call in this thread. */
static _Thread_local char source_text[1024];

static const char *const path_words[] = {"auto", "solve", "fused", "blocked"};

/* BCHOL_GETRI: "solve", "fused", "auto" or "blocked" followed by ",nb=NB",
 * and ",chunk=M" (blocked only) in any order; -1 where malformed. */
static int parse_env(const char *s, bchol_getri_choice *c)
{
    size_t len = strcspn(s, ",");
    if (len == 5 && !strncmp(s, "solve", 5)) c->path = BCHOL_GETRI_SOLVE;
    else if (len == 5 && !strncmp(s, "fused", 5)) c->path = BCHOL_GETRI_FUSED;
    else if (len == 4 && !strncmp(s, "auto", 4)) c->path = BCHOL_GETRI_AUTO;
    else if (len == 7 && !strncmp(s, "blocked", 7)) c->path = BCHOL_GETRI_BLOCKED;
    else return -1;
    for (s += len; *s == ','; s += len) {
        s++;
        len = strcspn(s, ",");
        if (c->path != BCHOL_GETRI_BLOCKED) return -1;
        if (!strncmp(s, "nb=", 3)) {
            if (bchol__env_int(s, len, 3, 1, 64, &c->nb)) return -1;
        } else if (!strncmp(s, "chunk=", 6)) {
            if (bchol__env_int(s, len, 6, 1, 1 << 30, &c->chunk)) return -1;
        } else {
            return -1;
        }
    }
    return *s ? -1 : 0;
}

/* The table's getri entry for (p, n) put into c where its path can run n; returns 1 if
 * taken. why: which entry, or why none. */
static int take_tuned(bchol_context *ctx, bchol_precision p, int n, bchol_getri_choice *c,
                      char *why, size_t size)
{
    const struct bchol_tuning *t = bchol__tuning_for(ctx);
    const bchol_tuning_pick pick = bchol__tuning_lookup(t, &ctx->info, (char)p, BCHOL__VARIANT_GETRI, n);
    const bchol_tuning_entry *e = pick.entry;
    const char *who = ctx->backend->family;
    if (!e) {
        if (t)
            snprintf(why, size,
                     "backend %s defaults (the tuning files for this device have no %c getri entry)",
                     who, (char)p);
        else
            snprintf(why, size, "backend %s defaults (%s)", who, ctx->tuning_note);
        return 0;
    }
    const bchol_tuning_section *s = pick.section;
    if (e->getri.path == BCHOL_GETRI_FUSED && n > BCHOL_GETRI_FUSED_MAX) {
        snprintf(why, size,
                 "backend %s defaults (the tuned %c getri entry for n = %d in %s names the fused "
                 "kernel, which takes n <= %d)",
                 who, e->precision, e->n, s->file, BCHOL_GETRI_FUSED_MAX);
        return 0;
    }
    c->path = (bchol_getri_path)e->getri.path;
    if (c->path == BCHOL_GETRI_BLOCKED) c->nb = e->getri.nb;
    bchol__tuning_describe(why, size, &pick, "getri", "n", n);
    return 1;
}

/* The choice for order n > 0, and why (why may be NULL). */
static bchol_status choose(bchol_context *ctx, const char *routine, bchol_precision p, int n,
                           bchol_getri_choice *c, char *why, size_t size)
{
    char scratch[8];
    if (!why) {
        why = scratch;
        size = sizeof scratch;
    }
    *c = (bchol_getri_choice){0};
    const char *env = getenv("BCHOL_GETRI");
    if (env && *env && parse_env(env, c))
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: BCHOL_GETRI = \"%s\": expected solve, fused, auto or "
                           "blocked[,nb=1..64][,chunk=M]", routine, env);
    const bchol_backend *be = ctx->backend;
    const int dbl = p == BCHOL_D;
    if (c->path != BCHOL_GETRI_AUTO) {
        snprintf(why, size, "BCHOL_GETRI = \"%s\" (overrides the tuning files and the defaults)", env);
    } else if (!take_tuned(ctx, p, n, c, why, size)) {
        const int solve_to = dbl ? be->getri_solve_to_d : be->getri_solve_to_s;
        int fused_to = dbl ? be->getri_fused_to_d : be->getri_fused_to_s;
        if (fused_to > BCHOL_GETRI_FUSED_MAX) fused_to = BCHOL_GETRI_FUSED_MAX;
        const size_t len = strlen(why);
        if (n >= be->getri_fused_from && n <= fused_to) {
            c->path = BCHOL_GETRI_FUSED;
            snprintf(why + len, size - len, "; path fused: %d <= n <= %d, the backend's fused range",
                     be->getri_fused_from, fused_to);
        } else if (n <= solve_to) {
            c->path = BCHOL_GETRI_SOLVE;
            snprintf(why + len, size - len, "; path solve: n <= %d, the backend's solve bound",
                     solve_to);
        } else {
            c->path = BCHOL_GETRI_BLOCKED;
            snprintf(why + len, size - len, "; path blocked: n above the backend's solve bound %d",
                     solve_to);
        }
    }
    if (c->path == BCHOL_GETRI_FUSED && n > BCHOL_GETRI_FUSED_MAX)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: the fused getri kernel was asked for (BCHOL_GETRI) at n = %d; it "
                           "takes n <= %d", routine, n, BCHOL_GETRI_FUSED_MAX);
    const int nb = dbl ? be->getri_nb_d : be->getri_nb_s;
    if (c->nb <= 0) c->nb = nb > 0 ? nb : 32;
    /* bchol's GEMM: CLBlast's ran within 4% of it on the H200 and inverted wrong on PoCL
     * 5.0 (getri_blk_clblast_d_n70, 2026-11-27, cause not found), so getri has no CLBlast */
    c->gemm = BCHOL_GEMM_OWN;
    return BCHOL_SUCCESS;
}

bchol_status bchol__getri_choose(bchol_context *ctx, const char *routine, bchol_precision p,
                                 int n, bchol_getri_choice *c)
{
    return choose(ctx, routine, p, n, c, NULL, 0);
}

bchol_status bchol_getri_config_for(bchol_context *ctx, char precision, int n,
                                    bchol_getri_config *config, const char **source)
{
    static const char routine[] = "bchol_getri_config_for";
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (precision != 's' && precision != 'd')
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (precision = %d) must be 's' or 'd'", routine,
                           (int)precision);
    if (n < 1)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 3 (n = %d) must be >= 1", routine, n);
    if (!config)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 4 (config) is NULL", routine);
    bchol_getri_choice c;
    if ((st = choose(ctx, routine, (bchol_precision)precision, n, &c, source_text,
                     sizeof source_text)))
        return st;
    *config = (bchol_getri_config){c.path, c.path == BCHOL_GETRI_BLOCKED ? c.nb : 0};
    const size_t len = strlen(source_text);
    if (c.path == BCHOL_GETRI_BLOCKED)
        snprintf(source_text + len, sizeof source_text - len, " -> blocked nb=%d", c.nb);
    else
        snprintf(source_text + len, sizeof source_text - len, " -> %s", path_words[c.path]);
    if (source) *source = source_text;
    return BCHOL_SUCCESS;
}
