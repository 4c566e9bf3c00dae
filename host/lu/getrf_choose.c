/* Which getrf variant and parameters run m-by-n matrices: BCHOL_GETRF where set, else the
 * tuning table's getrf entry for max(m, n) (tuning.h) where its variant can run the size,
 * else the backend's measured defaults (getrf_workitem_to_s/_d, getrf_crossover_s/_d,
 * getrf_nb, getrf_clblast_d_from). bchol_getrf_config_for says which and why. */
#include "blas/clblast_gemm.h"
#include "lu/lu.h"
#include "tuning/tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text bchol_getrf_config_for hands out: valid until the next call in this thread. */
static _Thread_local char source_text[1024];

/* Local memory of tbc matrices in the fused kernel with lx work-items each (lx cut to m, as
 * the launch does). */
static uint64_t fused_bytes(bchol_precision p, int m, int n, int lx, int tbc) {
    if (lx > m) lx = m;
    return (uint64_t)tbc * bchol__getrf_fused_local_bytes(p, m, n, lx);
}

/* The fused kernel holds a matrix whole in local memory (with the default shape). */
static int fits(const bchol_context *ctx, bchol_precision p, int m, int n) {
    bchol_getrf_params prm = {0};
    bchol__getrf_fused_params(ctx, p, m, n, &prm);
    return bchol__getrf_fused_local_bytes(p, m, n, prm.lx) <= bchol__usable_local_mem(ctx);
}

int bchol__getrf_max_n(const bchol_context *ctx, bchol_precision p) {
    int n = 1;
    if (!fits(ctx, p, 1, 1)) return 0;
    while (n < (1 << 20) && fits(ctx, p, 2 * n, 2 * n))
        n *= 2;
    for (int step = n / 2; step > 0; step /= 2)
        if (fits(ctx, p, n + step, n + step)) n += step;
    return n;
}

int bchol__env_int(const char *s, size_t len, size_t skip, long lo, long hi, int *out) {
    char *end;
    const long v = strtol(s + skip, &end, 10);
    if (end == s + skip || end != s + len || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}

/* BCHOL_GETRF: "fused", "auto", "workitem", "regs" or "blocked" followed by ",nb=NB",
 * ",ib=IB", ",gemm=own|clblast", ",panel=global", ",swaps=each", ",lx=LX", ",tbc=TBC" (the fused kernel's shape;
 * regs' and workitem's matrices per group) in any order; -1 where malformed. */
static int parse_env(const char *s, bchol_getrf_choice *c) {
    size_t len = strcspn(s, ",");
    if (len == 5 && !strncmp(s, "fused", 5))
        c->variant = BCHOL_GETRF_FUSED;
    else if (len == 4 && !strncmp(s, "auto", 4))
        c->variant = BCHOL_GETRF_AUTO;
    else if (len == 7 && !strncmp(s, "blocked", 7))
        c->variant = BCHOL_GETRF_BLOCKED;
    else if (len == 8 && !strncmp(s, "workitem", 8))
        c->variant = BCHOL_GETRF_WORKITEM;
    else if (len == 4 && !strncmp(s, "regs", 4))
        c->variant = BCHOL_GETRF_REGS;
    else
        return -1;
    for (s += len; *s == ','; s += len) {
        s++;
        len = strcspn(s, ",");
        if (!strncmp(s, "nb=", 3)) {
            if (bchol__env_int(s, len, 3, 1, 64, &c->nb)) return -1;
        } else if (!strncmp(s, "ib=", 3)) {
            if (bchol__env_int(s, len, 3, 1, 64, &c->ib)) return -1;
        } else if (!strncmp(s, "lx=", 3)) {
            if (bchol__env_int(s, len, 3, 1, 1024, &c->lx)) return -1;
        } else if (!strncmp(s, "tbc=", 4)) {
            if (bchol__env_int(s, len, 4, 1, 64, &c->tbc)) return -1;
        } else if (len == 12 && !strncmp(s, "panel=global", 12)) {
            c->panel_in_place = 1;
        } else if (len == 10 && !strncmp(s, "swaps=each", 10)) {
            c->swaps_each = 1;
        } else if (len == 8 && !strncmp(s, "gemm=own", 8)) {
            c->gemm = BCHOL_GEMM_OWN;
        } else if (len == 12 && !strncmp(s, "gemm=clblast", 12)) {
            c->gemm = BCHOL_GEMM_CLBLAST;
        } else {
            return -1;
        }
    }
    return *s ? -1 : 0;
}

static const char *variant_word(bchol_getrf_variant v) {
    return v == BCHOL_GETRF_FUSED      ? "fused"
           : v == BCHOL_GETRF_BLOCKED  ? "blocked"
           : v == BCHOL_GETRF_WORKITEM ? "workitem"
           : v == BCHOL_GETRF_REGS     ? "regs"
                                       : "auto";
}

/* Why a tuned entry's variant cannot run m-by-n here (into why), or 0 where it can. */
static int cannot_run(const bchol_context *ctx, bchol_precision p, int m, int n,
                      const bchol_getrf_config *g, char *why, size_t size) {
    if (g->variant == BCHOL_GETRF_FUSED &&
        fused_bytes(p, m, n, g->lx, g->tbc) > bchol__usable_local_mem(ctx)) {
        snprintf(why, size,
                 "its fused kernel (lx = %d, tbc = %d) needs more local memory than the device has "
                 "for %d-by-%d",
                 g->lx, g->tbc, m, n);
        return 1;
    }
    /* regs is tuned on GPUs at sizes it runs; a file from another device may name it where
     * it cannot, and forcing it would fail the call */
    if (g->variant == BCHOL_GETRF_REGS && !bchol__getrf_regs_fits(ctx, p, m, n)) {
        snprintf(why, size,
                 "its regs kernel cannot run %d-by-%d here (a work-item per row must fit "
                 "one work-group, the pivot keys and row local memory)",
                 m, n);
        return 1;
    }
    if (g->variant == BCHOL_GETRF_BLOCKED && g->gemm == BCHOL_GEMM_CLBLAST &&
        !bchol__clblast_available()) {
        snprintf(why, size, "it names CLBlast's GEMM; this bchol was built without CLBlast");
        return 1;
    }
    return 0;
}

/* The table's getrf entry for (p, big) put into c where its variant can run m-by-n (fields
 * BCHOL_GETRF gave stay); returns 1 if taken. why: which entry, or why none. */
static int take_tuned(bchol_context *ctx, bchol_precision p, int m, int n, int big,
                      bchol_getrf_choice *c, char *why, size_t size) {
    const struct bchol_tuning *t = bchol__tuning_for(ctx);
    bchol_tuning_pick pick =
        bchol__tuning_lookup(t, &ctx->info, (char)p, BCHOL__VARIANT_GETRF, big);
    const bchol_tuning_entry *e = pick.entry;
    const char *who = ctx->backend->family;
    if (!e) {
        if (t)
            snprintf(
                why, size,
                "backend %s defaults (the tuning files for this device have no %c getrf entry)",
                who, (char)p);
        else
            snprintf(why, size, "backend %s defaults (%s)", who, ctx->tuning_note);
        return 0;
    }
    const bchol_tuning_section *s = pick.section;
    const char *vname = bchol__variant_name(e->variant);
    char cant[256];
    if (cannot_run(ctx, p, m, n, &e->getrf, cant, sizeof cant)) {
        snprintf(why, size, "backend %s defaults (the tuned %c %s entry for n = %d in %s: %s)", who,
                 e->precision, vname, e->n, s->file, cant);
        return 0;
    }
    c->variant = e->getrf.variant;
    if (c->lx <= 0) c->lx = e->getrf.lx;
    if (c->tbc <= 0) c->tbc = e->getrf.tbc;
    if (c->nb <= 0) c->nb = e->getrf.nb;
    if (c->gemm <= 0) c->gemm = e->getrf.gemm;
    if (c->ib <= 0) c->ib = e->getrf.ib;
    bchol__tuning_describe(why, size, &pick, vname, "max(m, n)", big);
    return 1;
}

bchol_status bchol__getrf_env(bchol_context *ctx, const char *routine, bchol_getrf_choice *c) {
    *c = (bchol_getrf_choice){0};
    const char *env = getenv("BCHOL_GETRF");
    if (env && *env && parse_env(env, c))
        return bchol__fail(
            ctx, BCHOL_ERR_ARGUMENT,
            "%s: BCHOL_GETRF = \"%s\": expected fused, auto, workitem, regs or "
            "blocked[,nb=1..64][,ib=1..64][,gemm=own|clblast][,panel=global][,swaps=each][,lx=1..1024][,tbc=1..64]",
            routine, env);
    return BCHOL_SUCCESS;
}

/* The choice, and why (why may be NULL). */
static bchol_status choose(bchol_context *ctx, const char *routine, bchol_precision p, int m, int n,
                           bchol_getrf_choice *c, char *why, size_t size) {
    char scratch[8];
    if (!why) {
        why = scratch;
        size = sizeof scratch;
    }
    bchol_status st = bchol__getrf_env(ctx, routine, c);
    if (st) return st;
    const char *env = getenv("BCHOL_GETRF");
    const int big = m > n ? m : n;
    const char *who = ctx->backend->family;
    int tuned = 0;
    if (c->variant != BCHOL_GETRF_AUTO)
        snprintf(why, size, "BCHOL_GETRF = \"%s\" (overrides the tuning files and the defaults)",
                 env);
    else if (m > 0 && n > 0)
        tuned = take_tuned(ctx, p, m, n, big, c, why, size);
    else
        snprintf(why, size, "backend %s defaults (nothing to factor)", who);
    const int cross =
        p == BCHOL_D ? ctx->backend->getrf_crossover_d : ctx->backend->getrf_crossover_s;
    const int fit = m <= 0 || n <= 0 || fits(ctx, p, m, n);
    const int wi_to =
        p == BCHOL_D ? ctx->backend->getrf_workitem_to_d : ctx->backend->getrf_workitem_to_s;
    const int regs_to =
        p == BCHOL_D ? ctx->backend->getrf_regs_to_d : ctx->backend->getrf_regs_to_s;
    if (!tuned && c->variant == BCHOL_GETRF_AUTO) {
        size_t len = strlen(why);
        if (big <= wi_to) {
            c->variant = BCHOL_GETRF_WORKITEM;
            snprintf(why + len, size - len,
                     "; variant workitem: max(m, n) = %d <= the backend's workitem bound %d", big,
                     wi_to);
        } else if (big <= regs_to && bchol__getrf_regs_fits(ctx, p, m, n)) {
            c->variant = BCHOL_GETRF_REGS;
            snprintf(why + len, size - len,
                     "; variant regs: max(m, n) = %d <= the backend's regs bound %d", big,
                     regs_to);
        } else if (fit && big <= cross) {
            c->variant = BCHOL_GETRF_FUSED;
            snprintf(why + len, size - len,
                     "; variant fused: max(m, n) = %d <= the backend's crossover %d", big, cross);
        } else {
            c->variant = BCHOL_GETRF_BLOCKED;
            snprintf(why + len, size - len, "; variant blocked: %s",
                     fit ? "max(m, n) above the backend's crossover"
                         : "the fused kernel cannot hold it");
        }
    }
    if (c->variant == BCHOL_GETRF_REGS && m > 0 && n > 0) {
        bchol_status st = bchol__getrf_regs_check(ctx, routine, p, m, n);
        if (st) return st;
    }
    if (c->variant == BCHOL_GETRF_FUSED && !fit && !tuned)
        return bchol__fail(ctx, BCHOL_ERR_UNSUPPORTED_SIZE,
                           "%s: %d-by-%d matrices do not fit the fused LU kernel's local memory on "
                           "this device (%llu bytes usable; square matrices up to n = %d)",
                           routine, m, n, (unsigned long long)bchol__usable_local_mem(ctx),
                           bchol__getrf_max_n(ctx, p));
    if (c->variant == BCHOL_GETRF_WORKITEM) {
        /* its own panel width: BCHOL_GETRF's or the entry's nb, else the backend's */
        c->wb = c->nb > 0 ? c->nb : bchol__getrf_workitem_nb(ctx, big);
        c->nb = c->wb;
    }
    if (c->nb <= 0) c->nb = ctx->backend->getrf_nb > 0 ? ctx->backend->getrf_nb : 16;
    if (c->gemm <= 0) {
        const int from = ctx->backend->getrf_clblast_d_from;
        c->gemm = p == BCHOL_D && from > 0 && big >= from && bchol__clblast_available()
                      ? BCHOL_GEMM_CLBLAST
                      : BCHOL_GEMM_OWN;
    }
    if (c->gemm == BCHOL_GEMM_CLBLAST && !bchol__clblast_available())
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: the blocked getrf's CLBlast GEMM was asked for (BCHOL_GETRF); this "
                           "bchol was built without CLBlast",
                           routine);
    return BCHOL_SUCCESS;
}

bchol_status bchol__getrf_choose(bchol_context *ctx, const char *routine, bchol_precision p, int m,
                                 int n, bchol_getrf_choice *c) {
    return choose(ctx, routine, p, m, n, c, NULL, 0);
}

bchol_status bchol_getrf_config_for(bchol_context *ctx, char precision, int m, int n,
                                    bchol_getrf_config *config, const char **source) {
    static const char routine[] = "bchol_getrf_config_for";
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (precision != 's' && precision != 'd')
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT,
                           "%s: argument 2 (precision = %d) must be 's' or 'd'", routine,
                           (int)precision);
    if (m < 0)
        return bchol__fail(ctx, BCHOL_ERR_M, "%s: argument 3 (m = %d) must be >= 0", routine, m);
    if (n < 0)
        return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 4 (n = %d) must be >= 0", routine, n);
    if (!config)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 5 (config) is NULL", routine);
    const bchol_precision p = (bchol_precision)precision;
    bchol_getrf_choice c;
    if ((st = choose(ctx, routine, p, m, n, &c, source_text, sizeof source_text))) return st;
    *config = (bchol_getrf_config){.variant = c.variant};
    if (c.variant == BCHOL_GETRF_FUSED) {
        bchol_getrf_params prm = {c.lx, c.tbc, 0, 0};
        if (m > 0 && n > 0) bchol__getrf_fused_params(ctx, p, m, n, &prm);
        config->lx = prm.lx > m && m > 0 ? m : prm.lx;
        config->tbc = prm.tbc;
    } else if (c.variant == BCHOL_GETRF_BLOCKED) {
        config->nb = c.nb;
        config->gemm = c.gemm;
        config->ib = c.ib;
    } else if (c.variant == BCHOL_GETRF_REGS) {
        config->tbc = c.tbc; /* 0: the driver's (about 128 work-items a group) */
    } else {
        config->tbc = c.tbc > 0 ? c.tbc : 8; /* bchol__getrf_workitem's default group */
        config->nb = c.wb; /* workitem: its panel width (auto, nothing to factor: 0) */
    }
    size_t len = strlen(source_text);
    char ib[24] = ""; /* the blocked variant's inner panels, where any */
    if (config->ib > 0) snprintf(ib, sizeof ib, " ib=%d", config->ib);
    if (c.variant == BCHOL_GETRF_FUSED)
        snprintf(source_text + len, sizeof source_text - len, " -> fused lx=%d tbc=%d", config->lx,
                 config->tbc);
    else if (c.variant == BCHOL_GETRF_BLOCKED)
        snprintf(source_text + len, sizeof source_text - len, " -> blocked nb=%d gemm=%s%s",
                 config->nb, config->gemm == BCHOL_GEMM_CLBLAST ? "clblast" : "own", ib);
    else if (c.variant == BCHOL_GETRF_WORKITEM)
        snprintf(source_text + len, sizeof source_text - len, " -> workitem tbc=%d nb=%d",
                 config->tbc, config->nb);
    else
        snprintf(source_text + len, sizeof source_text - len, " -> %s tbc=%d",
                 variant_word(c.variant), config->tbc);
    if (source) *source = source_text;
    return BCHOL_SUCCESS;
}
