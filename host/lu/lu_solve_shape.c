/* Which LU solve runs and in what shape: the substitution kernel (cl_kernels/lu/getrs.cl)
 * in a shape (nt, rpt, tbc) from BCHOL_LU_SOLVE_SHAPE where set, else the tuning table's
 * getrs entry for (precision, n, nrhs), else the backend's solve defaults; or, where
 * BCHOL_LU_SOLVE_VARIANT or the backend's solve variant says so, the workitem kernel
 * (cl_kernels/lu/getrs_workitem.cl) with the defaults' nt; and bchol_getrs_params, which
 * says which and what runs once fitted. */
#include "lu/lu_solve.h"
#include "tuning/tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text bchol_getrs_params hands out: valid until the next call in this thread. */
static _Thread_local char source_text[1024];

int bchol__lu_solve_shape_env(bchol_solve_params *prm)
{
    const char *s = getenv("BCHOL_LU_SOLVE_SHAPE");
    int nt, rpt, tbc;
    char end;
    if (!s || sscanf(s, "%d,%d,%d%c", &nt, &rpt, &tbc, &end) != 3) return 0;
    if (nt < 1 || nt > 32 || rpt < 1 || rpt > 64 || tbc < 1 || tbc > 64) return 0;
    prm->nt = nt;
    prm->rpt = rpt;
    prm->tbc = tbc;
    return 1;
}

/* BCHOL_LU_SOLVE_VARIANT=subst|workitem: that variant, else AUTO (unset or anything else). */
static bchol_solve_variant variant_env(void)
{
    const char *s = getenv("BCHOL_LU_SOLVE_VARIANT");
    if (s && !strcmp(s, "subst")) return BCHOL_SOLVE_SUBST;
    if (s && !strcmp(s, "workitem")) return BCHOL_SOLVE_WORKITEM;
    return BCHOL_SOLVE_AUTO;
}

/* BCHOL_LU_SOLVE_WORKITEM_VW=1|2|4|8|16, else 0. */
static int vw_env(void)
{
    const char *s = getenv("BCHOL_LU_SOLVE_WORKITEM_VW");
    const int v = s ? atoi(s) : 0;
    return v == 1 || v == 2 || v == 4 || v == 8 || v == 16 ? v : 0;
}

/* The workitem kernel's vector width where nothing names one: 8 for both precisions, the
 * Cholesky workitem solve's; a two-round check of 4, 8 and 16 on the 2-core EPYC found no
 * width faster in both precisions (docs/DEVELOPING.md, LU solves). */
enum { LU_SOLVE_WORKITEM_VW = 8 };

int bchol__lu_solve_workitem_vw(void)
{
    const int v = vw_env();
    return v ? v : LU_SOLVE_WORKITEM_VW;
}

/* The getrs-workitem entry for (n, nrhs), the one lookup of the fixed-size and the vbatched
 * plans. */
static bchol_tuning_pick workitem_pick(bchol_context *ctx, bchol_precision p, int n, int nrhs)
{
    return bchol__tuning_lookup_rhs(bchol__tuning_for(ctx), &ctx->info, (char)p,
                                    BCHOL__VARIANT_GETRS_WORKITEM, n, nrhs);
}

void bchol__lu_solve_workitem_tuned(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                                    int *nt, int *vw)
{
    const bchol_tuning_entry *e = workitem_pick(ctx, p, n, nrhs).entry;
    *nt = e ? e->solve.nt : 0;
    const int forced = vw_env();
    *vw = forced ? forced : e ? e->vw : LU_SOLVE_WORKITEM_VW;
}

bchol_solve_variant bchol__lu_solve_variant(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                                            bchol_solve_variant want)
{
    if (want == BCHOL_SOLVE_SUBST || want == BCHOL_SOLVE_WORKITEM) return want;
    const bchol_solve_variant forced = variant_env();
    if (forced != BCHOL_SOLVE_AUTO) return forced;
    bchol_solve_params d = {0};
    ctx->backend->solve_defaults((char)p, n, nrhs, &d);
    return d.variant == BCHOL_SOLVE_WORKITEM ? BCHOL_SOLVE_WORKITEM : BCHOL_SOLVE_SUBST;
}

/* "tuning file F, devices[i] V/A/N: P KIND entry for n = E, nrhs = R (which n, which
 * nrhs)" for the entry pick found at (n, nrhs). */
static void describe_entry(char *out, size_t size, const bchol_tuning_pick *pick, const char *kind,
                           int n, int nrhs)
{
    const bchol_tuning_section *s = pick->section;
    const bchol_tuning_entry *e = pick->entry;
    snprintf(out, size,
             "tuning file %.300s, devices[%d] %s/%s/%s: %c %s entry for n = %d, nrhs = %d (%s, %s)",
             s->file, s->index, s->vendor, s->architecture, s->name, e->precision, kind, e->n,
             e->nrhs,
             pick->below_smallest ? "the smallest measured n"
             : e->n == n          ? "this n"
                                  : "the nearest n below",
             e->nrhs == nrhs ? "this nrhs" : "the closest nrhs");
}

void bchol__lu_solve_shape(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                           bchol_solve_params *prm, int *vw, char *why, size_t size)
{
    /* the explanation only where asked for (a call's own plan does not format it) */
    *prm = (bchol_solve_params){.variant = BCHOL_SOLVE_SUBST};
    const int forced_vw = vw_env();
    if (vw) *vw = bchol__lu_solve_workitem_vw();
    if (bchol__lu_solve_shape_env(prm)) {
        /* the substitution kernel's shape; with BCHOL_LU_SOLVE_VARIANT=workitem its nt is
         * the workitem kernel's (the tuner's getrs-workitem configurations) */
        if (variant_env() == BCHOL_SOLVE_WORKITEM) prm->variant = BCHOL_SOLVE_WORKITEM;
        if (why) snprintf(why, size, "BCHOL_LU_SOLVE_SHAPE");
        return;
    }
    /* The variant: the environment's, else the backend's solve variant. Getrs entries
     * time the substitution kernel alone: they compared nothing, so they shape that kernel
     * where it runs but do not choose it (as a section with "solve" entries only does not
     * for potrs). */
    const bchol_solve_variant forced = variant_env();
    if (bchol__lu_solve_variant(ctx, p, n, nrhs, BCHOL_SOLVE_AUTO) == BCHOL_SOLVE_WORKITEM) {
        /* its getrs-workitem entry's nt and vw (BCHOL_LU_SOLVE_WORKITEM_VW still names vw),
         * else the defaults' nt and vw 8 */
        const bchol_tuning_pick pick = workitem_pick(ctx, p, n, nrhs);
        const bchol_tuning_entry *e = pick.entry;
        prm->variant = BCHOL_SOLVE_WORKITEM;
        if (e) {
            prm->nt = e->solve.nt;
            if (vw && !forced_vw) *vw = e->vw;
            if (why) {
                snprintf(why, size, "%s: the workitem solve; ",
                         forced ? "BCHOL_LU_SOLVE_VARIANT" : "the backend's variant");
                size_t len = strlen(why);
                describe_entry(why + len, size - len, &pick, "getrs-workitem", n, nrhs);
                len = strlen(why);
                snprintf(why + len, size - len, ", vw = %d%s", forced_vw ? forced_vw : e->vw,
                         forced_vw ? " (BCHOL_LU_SOLVE_WORKITEM_VW)" : "");
            }
            return;
        }
        ctx->backend->solve_defaults((char)p, n, nrhs, prm);
        prm->variant = BCHOL_SOLVE_WORKITEM;
        if (why)
            snprintf(why, size, "%s: the workitem solve, nt = %d (the %s solve defaults'), vw = %d%s",
                     forced ? "BCHOL_LU_SOLVE_VARIANT" : "the backend's variant", prm->nt,
                     ctx->generic_defaults ? "generic" : ctx->backend->family,
                     bchol__lu_solve_workitem_vw(), forced_vw ? " (BCHOL_LU_SOLVE_WORKITEM_VW)" : "");
        return;
    }
    const struct bchol_tuning *t = bchol__tuning_for(ctx);
    const bchol_tuning_pick pick = bchol__tuning_lookup_getrs(t, &ctx->info, (char)p, n, nrhs);
    const bchol_tuning_entry *e = pick.entry;
    if (e && bchol__solve_group(n, &e->solve) <= (long long)ctx->info.max_work_group) {
        prm->nt = e->solve.nt;
        prm->rpt = e->solve.rpt;
        prm->tbc = e->solve.tbc;
        if (why) describe_entry(why, size, &pick, "getrs", n, nrhs);
        return;
    }
    /* an entry whose group the device cannot take at this n is not reshaped into something
     * never measured: the defaults, as for the Cholesky solve's entries */
    ctx->backend->solve_defaults((char)p, n, nrhs, prm);
    prm->variant = BCHOL_SOLVE_SUBST;
    if (!why) return;
    char who[64];
    if (ctx->generic_defaults)
        snprintf(who, sizeof who, "generic defaults (BCHOL_DEFAULTS=generic; ");
    else
        snprintf(who, sizeof who, "backend %s defaults (", ctx->backend->family);
    if (e)
        snprintf(why, size,
                 "%sthe %c getrs entry for n = %d, nrhs = %d in %.300s needs %lld work-items a "
                 "group at n = %d; the device takes %zu)",
                 who, e->precision, e->n, e->nrhs, pick.section->file,
                 bchol__solve_group(n, &e->solve), n, ctx->info.max_work_group);
    else if (t)
        snprintf(why, size, "%sthe tuning files for this device have no %c getrs entry)", who,
                 (char)p);
    else
        snprintf(why, size, "%s%s)", who, ctx->tuning_note);
}

bchol_status bchol_getrs_params(bchol_context *ctx, char precision, char trans, int n, int nrhs,
                                bchol_solve_params *params, const char **source)
{
    static const char routine[] = "bchol_getrs_params";
    bchol_status st;
    if ((st = bchol__check_context(ctx, routine))) return st;
    if (precision != 's' && precision != 'd')
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (precision = %d) must be 's' or 'd'", routine,
                           (int)precision);
    const int tr = trans == 'T' || trans == 't';
    if (!tr && trans != 'N' && trans != 'n')
        return bchol__fail(ctx, BCHOL_ERR_TRANS, "%s: argument 3 (trans = %d) must be 'N' or 'T'", routine,
                           (int)trans);
    if (n < 0) return bchol__fail(ctx, BCHOL_ERR_N, "%s: argument 4 (n = %d) must be >= 0", routine, n);
    if (nrhs < 0) return bchol__fail(ctx, BCHOL_ERR_NRHS, "%s: argument 5 (nrhs = %d) must be >= 0", routine, nrhs);
    if (!params) return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 6 (params) is NULL", routine);
    const bchol_precision p = (bchol_precision)precision;
    bchol__lu_solve_shape(ctx, p, n, nrhs, params, NULL, source_text, sizeof source_text);
    if (n > 0 && nrhs > 0) {
        bchol_lu_solve_plan plan;
        if ((st = bchol__lu_solve_plan(ctx, p, tr, 0, n, nrhs, &plan))) return st;
        *params = plan.prm;
        size_t len = strlen(source_text);
        if (plan.prm.variant == BCHOL_SOLVE_WORKITEM)
            snprintf(source_text + len, sizeof source_text - len, " -> nt=%d vw=%d", plan.prm.nt, plan.vw);
        else
            snprintf(source_text + len, sizeof source_text - len, " -> nt=%d rpt=%d tbc=%d", plan.prm.nt,
                     plan.prm.rpt, plan.prm.tbc);
    }
    if (source) *source = source_text;
    return BCHOL_SUCCESS;
}
