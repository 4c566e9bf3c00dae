/* The dispatcher: which variant and parameters a routine uses on this device.
 *
 * Variant (for BCHOL_VARIANT_AUTO): the tuning table's fastest variant at the nearest
 * measured size below n, within the sizes the table measured and where it measured more
 * than one variant (between a size where fused is fastest and one where separate is, the
 * backend's crossover if it lies between them); beyond them, or without such a table, the
 * backend's choice: interleaved or workitem where its strided_variant says so (the
 * conversions pay off; a CPU's one work-item per matrix), else the fused/separate crossover; the separate variant wherever
 * the fused kernel cannot hold n in local memory.
 * Parameters of that variant: the table's entry for it (tuning.h: vendor -> architecture
 * -> name, nearest measured size below), else the backend's defaults. */
#include "chol/chol.h"
#include "blas/clblast_gemm.h"
#include "tuning/tuning.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text the *_params routines hand out: valid until the next call in this thread. */
static _Thread_local char source_text[1024];

/* Every variant's defaults from the backend (each variant reads only its own fields). */
static void backend_defaults(const bchol_context *ctx, bchol_precision p, int n,
                             bchol_params *params)
{
    *params = (bchol_params){0};
    params->variant = BCHOL_VARIANT_FUSED;
    ctx->backend->fused_defaults((char)p, n, params);
    ctx->backend->separate_defaults((char)p, n, params);
    ctx->backend->interleaved_defaults((char)p, n, params);
    if (ctx->backend->workitem_defaults) ctx->backend->workitem_defaults((char)p, n, params);
    else bchol__backend_generic.workitem_defaults((char)p, n, params);
    if (params->gemm == BCHOL_GEMM_CLBLAST && !bchol__clblast_available()) params->gemm = BCHOL_GEMM_OWN;
}

/* How the source text names where the defaults came from: "backend pocl" (defaults,
 * crossover), or "generic" where BCHOL_DEFAULTS=generic put the generic backend's in place
 * of the device backend's; knob opens the defaults' reason, aside follows a noun. */
typedef struct {
    char who[48];
    const char *knob, *aside;
} origin;

static origin origin_of(const bchol_context *ctx)
{
    origin o = {"generic", "BCHOL_DEFAULTS=generic; ", " (BCHOL_DEFAULTS=generic)"};
    if (!ctx->generic_defaults) {
        snprintf(o.who, sizeof o.who, "backend %s", ctx->backend->family);
        o.knob = o.aside = "";
    }
    return o;
}

/* Largest n the backend gives the fused variant. */
static int crossover(const bchol_context *ctx, bchol_precision p)
{
    return p == BCHOL_D ? ctx->backend->crossover_d : ctx->backend->crossover_s;
}

/* The parameters e gives order n: its "between" ones strictly between its size and the
 * next measured one, where the file has them. */
static const bchol_params *params_at(const bchol_tuning_entry *e, int n)
{
    return n > e->n && n <= e->between_to ? &e->between : &e->params;
}

/* Copies the tuned fields of e's variant for order n into out, leaving the other
 * variants' fields. */
static void take_entry(const bchol_tuning_entry *e, int n, bchol_params *out)
{
    const bchol_params *t = params_at(e, n);
    if (e->variant == BCHOL_VARIANT_FUSED) {
        out->ib = t->ib;
        out->tbc = t->tbc;
        out->rpt = t->rpt;
        out->shape = t->shape;
    } else if (e->variant == BCHOL_VARIANT_SEPARATE) {
        out->nb = t->nb;
        out->pb = t->pb;
        out->gemm = t->gemm;
        out->tile = t->tile;
        out->gb = t->gb;
    } else if (t->variant == BCHOL_VARIANT_INTERLEAVED) { /* interleaved-native ones too */
        out->inb = t->inb;
        out->looking = t->looking;
        out->unroll = t->unroll;
        out->chunking = t->chunking;
        out->chunk = t->chunk;
        out->math = t->math;
    } else if (e->variant == BCHOL_VARIANT_WORKITEM) {
        out->wnb = t->wnb;
        out->wvec = t->wvec;
        out->wmr = t->wmr;
        out->wgroup = t->wgroup;
    }
    out->variant = t->variant; /* the entry's kernel: interleaved for interleaved-native */
}

/* take_entry for order n. The tuner times runs, not builds, and the build of fully
 * unrolled interleaved code grows as n^3 (a fully unrolled n = 48 with 12x12 tiles takes
 * PoCL most of a minute): above its order, an interleaved entry with full unrolling lends
 * its layout (looking, chunking, chunk, math) but not its tile size and unrolling, which
 * stay the backend's. One with loops over tiles, whose code grows with the tile size only,
 * lends them too: with the backend's tiles (8, fully unrolled), the H200's staged entry of
 * double n = 12 ran n = 14 1.45x slower than the fused kernel did before. */
static void take_entry_at(const bchol_tuning_entry *e, int n, bchol_params *out)
{
    const int inb = out->inb, unroll = out->unroll;
    take_entry(e, n, out);
    if (e->params.variant == BCHOL_VARIANT_INTERLEAVED && n > e->n && params_at(e, n)->unroll != BCHOL_UNROLL_TILES) {
        out->inb = inb;
        out->unroll = unroll;
    }
}

/* Whether the section measured more than one variant in precision p: only then has it
 * compared them, and only then does its fastest entry say which variant to run. */
static int compared_variants(const bchol_tuning_section *s, char p)
{
    int first = -1;
    for (int i = 0; i < s->nentries; i++) {
        if (s->entries[i].precision != p || !bchol__variant_is_strided(s->entries[i].variant)) continue;
        if (first < 0) first = s->entries[i].variant;
        else if ((int)s->entries[i].variant != first) return 1;
    }
    return 0;
}

/* The smallest size above n at which the section measured a strided variant in precision p
 * (INT_MAX if none). */
static int next_measured(const bchol_tuning_section *s, char p, int n)
{
    int next = INT_MAX;
    for (int i = 0; i < s->nentries; i++) {
        const bchol_tuning_entry *e = &s->entries[i];
        if (e->precision == p && bchol__variant_is_strided(e->variant) && e->n > n && e->n < next)
            next = e->n;
    }
    return next;
}

/* The variant AUTO runs at n, and why. */
static bchol_variant auto_variant(bchol_context *ctx, const struct bchol_tuning *t, bchol_precision p,
                                  int n, const bchol_params *defaults, char *why, size_t size)
{
    bchol_tuning_pick here = bchol__tuning_lookup(t, &ctx->info, (char)p, BCHOL_VARIANT_AUTO, n);
    bchol_tuning_pick last = bchol__tuning_lookup(t, &ctx->info, (char)p, BCHOL_VARIANT_AUTO, INT_MAX);
    const origin from = origin_of(ctx);
    bchol_variant v;
    if (here.entry && last.entry && n <= last.entry->n && compared_variants(here.section, (char)p)) {
        v = here.entry->variant;
        snprintf(why, size, "variant %s: the fastest in the tuning table at n = %d",
                 bchol__variant_name(v), here.entry->n);
        /* Between two measured sizes whose fastest are fused and separate, the table only says
         * that they cross in between: the backend's crossover, where it lies in between, says
         * where (the H200 table, measured at 256 and 512, ran n = 384 fused at 88% of the
         * separate variant's speed; the backend's 320 picks separate). */
        const int c = crossover(ctx, p), next = next_measured(here.section, (char)p, here.entry->n);
        if (here.entry->n < n && next != INT_MAX && here.entry->n < c && c < next) {
            bchol_tuning_pick above =
                bchol__tuning_lookup(t, &ctx->info, (char)p, BCHOL_VARIANT_AUTO, next);
            const bchol_variant w = above.entry ? above.entry->variant : v;
            if ((v == BCHOL_VARIANT_FUSED && w == BCHOL_VARIANT_SEPARATE) ||
                (v == BCHOL_VARIANT_SEPARATE && w == BCHOL_VARIANT_FUSED)) {
                v = n > c ? BCHOL_VARIANT_SEPARATE : BCHOL_VARIANT_FUSED;
                snprintf(why, size, "variant %s: the tuning table's fastest are %s at n = %d and "
                         "%s at n = %d; the %s crossover%s at n = %d lies between them",
                         bchol__variant_name(v), bchol__variant_name(here.entry->variant),
                         here.entry->n, bchol__variant_name(w), next, from.who, from.aside, c);
            }
        }
    } else if (ctx->backend->strided_variant((char)p, n) == BCHOL_VARIANT_INTERLEAVED) {
        v = BCHOL_VARIANT_INTERLEAVED;
        /* "the backend pocl runs", or "the generic defaults (BCHOL_DEFAULTS=generic) run" (not
         * today: generic's strided_variant is fused) */
        snprintf(why, size,
                 "variant interleaved: the %s%s %s strided batches of n = %d through "
                 "the interleaved layout",
                 ctx->generic_defaults ? "generic defaults" : from.who, from.aside,
                 ctx->generic_defaults ? "run" : "runs", n);
    } else if (ctx->backend->strided_variant((char)p, n) == BCHOL_VARIANT_WORKITEM) {
        v = BCHOL_VARIANT_WORKITEM;
        snprintf(why, size,
                 "variant workitem: the %s%s %s strided batches of n = %d with one work-item "
                 "per matrix",
                 ctx->generic_defaults ? "generic defaults" : from.who, from.aside,
                 ctx->generic_defaults ? "run" : "runs", n);
    } else {
        v = n > crossover(ctx, p) ? BCHOL_VARIANT_SEPARATE : BCHOL_VARIANT_FUSED;
        snprintf(why, size, "variant %s: by the %s crossover%s at n = %d", bchol__variant_name(v),
                 from.who, from.aside, crossover(ctx, p));
    }
    if (v == BCHOL_VARIANT_FUSED && n > bchol__fused_max_n(ctx, p, defaults)) {
        v = BCHOL_VARIANT_SEPARATE;
        snprintf(why, size, "variant separate: the fused kernel cannot hold n = %d in local memory", n);
    }
    return v;
}

/* The choice for `variant` (AUTO: see above), and why (why may be NULL). */
static void choose(bchol_context *ctx, bchol_precision p, int n, bchol_variant variant,
                   bchol_params *out, char *why, size_t size)
{
    char scratch[8], vwhy[256] = "";
    if (!why) {
        why = scratch;
        size = sizeof scratch;
    }
    backend_defaults(ctx, p, n, out);
    const struct bchol_tuning *t = bchol__tuning_for(ctx);
    const int automatic = variant <= BCHOL_VARIANT_AUTO;
    if (automatic) variant = auto_variant(ctx, t, p, n, out, vwhy, sizeof vwhy);
    out->variant = variant;
    /* AUTO fills the other variants' fields from their own tuned entries too, so that a
     * caller who forces a variant with these params gets its tuned values; say which. */
    char others[384] = "";
    if (automatic) {
        for (int w = BCHOL_VARIANT_FUSED; w <= BCHOL_VARIANT_WORKITEM; w++) {
            if (w == (int)variant) continue;
            bchol_tuning_pick o = bchol__tuning_lookup(t, &ctx->info, (char)p, (bchol_variant)w, n);
            if (!o.entry || (w == BCHOL_VARIANT_FUSED && n > bchol__fused_max_n(ctx, p, params_at(o.entry, n))))
                continue;
            take_entry_at(o.entry, n, out);
            out->variant = variant;
            size_t len = strlen(others);
            snprintf(others + len, sizeof others - len, "; %s fields from %s (%c %s entry for n = %d)",
                     bchol__variant_name((bchol_variant)w), o.section->file, o.entry->precision,
                     bchol__variant_name((bchol_variant)w), o.entry->n);
        }
    }
    const char *sep = vwhy[0] ? "; " : "";
    const char *vname = bchol__variant_name(variant);
    const origin from = origin_of(ctx);

    bchol_tuning_pick pick = bchol__tuning_lookup(t, &ctx->info, (char)p, variant, n);
    const bchol_tuning_entry *e = pick.entry;
    if (!e) {
        if (t)
            snprintf(why, size,
                     "%s defaults (%sthe tuning files for this device have no %c %s entry)%s%s%s",
                     from.who, from.knob, (char)p, vname, sep, vwhy, others);
        else
            snprintf(why, size, "%s defaults (%s%s)%s%s%s", from.who, from.knob, ctx->tuning_note,
                     sep, vwhy, others);
        return;
    }
    const bchol_tuning_section *s = pick.section;
    if (e->variant == BCHOL_VARIANT_FUSED && n > bchol__fused_max_n(ctx, p, params_at(e, n))) {
        snprintf(why, size,
                 "%s defaults (%sthe tuned %c %s entry for n = %d in %s needs more local "
                 "memory than the device has at n = %d)%s%s%s",
                 from.who, from.knob, e->precision, vname, e->n, s->file, n, sep, vwhy, others);
        return;
    }
    take_entry_at(e, n, out);
    char measured[128] = "";
    if (e->ms >= 0 && e->default_ms >= 0)
        snprintf(measured, sizeof measured, "; tuned %.4g ms vs %.4g ms with the defaults", e->ms,
                 e->default_ms);
    char where[128];
    if (pick.below_smallest)
        snprintf(where, sizeof where, "the smallest measured size (n = %d is below it)", n);
    else if (e->n == n)
        snprintf(where, sizeof where, "measured at this size");
    else if (params_at(e, n) != &e->params)
        snprintf(where, sizeof where, "its parameters for n = %d..%d, between it and the next measured size",
                 e->n + 1, e->between_to);
    else
        snprintf(where, sizeof where, "the nearest measured size below n = %d", n);
    snprintf(why, size, "tuning file %s, devices[%d] %s/%s/%s%s%s: %c %s entry for n = %d, %s%s%s%s%s",
             s->file, s->index, s->vendor, s->architecture, s->name, s->family[0] ? " family " : "",
             s->family, e->precision, vname, e->n, where, measured, sep, vwhy, others);
}

void bchol__fused_params(bchol_context *ctx, bchol_precision p, int n, bchol_params *params,
                         const char **source)
{
    choose(ctx, p, n, BCHOL_VARIANT_FUSED, params, source ? source_text : NULL, sizeof source_text);
    if (source) *source = source_text;
}

/* The interleaved fields of params that are <= 0 from d. */
static void complete_interleaved_fields(bchol_params *params, const bchol_params *d)
{
    if (params->inb <= 0) params->inb = d->inb;
    if (params->looking <= 0) params->looking = d->looking;
    if (params->unroll <= 0) params->unroll = d->unroll;
    if (params->chunking <= 0) params->chunking = d->chunking;
    if (params->chunk <= 0) params->chunk = d->chunk;
    if (params->math <= 0) params->math = d->math;
}

void bchol__complete_params(bchol_context *ctx, bchol_precision p, int n, bchol_params *params)
{
    bchol_params d;
    choose(ctx, p, n, params->variant, &d, NULL, 0);
    if (params->variant <= BCHOL_VARIANT_AUTO) params->variant = d.variant;
    const int own_ib = params->ib > 0;
    if (params->ib <= 0) params->ib = d.ib;
    if (params->tbc <= 0) {
        /* The table's tbc goes with the table's ib: with the caller's wider panel, put no
         * more matrices in a group than local memory holds (at least one). */
        params->tbc = own_ib ? bchol__fused_fit_tbc(ctx, p, n, params->ib, 0, d.tbc) : d.tbc;
    }
    if (params->rpt <= 0) params->rpt = d.rpt;
    if (params->shape <= 0) params->shape = d.shape;
    if (params->wnb <= 0) params->wnb = d.wnb;
    if (params->wvec <= 0) params->wvec = d.wvec;
    if (params->wmr <= 0) params->wmr = d.wmr;
    if (params->wgroup <= 0) params->wgroup = d.wgroup;
    if (params->nb <= 0) params->nb = d.nb;
    if (params->pb <= 0) params->pb = d.pb;
    if (params->gemm <= 0) params->gemm = d.gemm;
    if (params->tile <= 0) params->tile = d.tile;
    if (params->gb <= 0) params->gb = d.gb;
    complete_interleaved_fields(params, &d);
}

/* The parameter queries' first arguments: ctx, precision and the order (argument 3, named
 * n_name, n_status when negative). */
static bchol_status check_query(bchol_context *ctx, const char *routine, char precision,
                                const char *n_name, int n, bchol_status n_status)
{
    if (!ctx) return bchol__fail(NULL, BCHOL_ERR_CONTEXT, "%s: argument 1 (ctx) is NULL", routine);
    if (precision != 's' && precision != 'd')
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 2 (precision = %d) must be 's' or 'd'",
                           routine, (int)precision);
    if (n < 0)
        return bchol__fail(ctx, n_status, "%s: argument 3 (%s = %d) must be >= 0", routine, n_name, n);
    return BCHOL_SUCCESS;
}

bchol_status bchol_potrf_params(bchol_context *ctx, char precision, int n, bchol_params *params,
                                const char **source)
{
    static const char routine[] = "bchol_potrf_params";
    bchol_status st = check_query(ctx, routine, precision, "n", n, BCHOL_ERR_N);
    if (st) return st;
    if (!params) return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 4 (params) is NULL", routine);
    choose(ctx, (bchol_precision)precision, n, BCHOL_VARIANT_AUTO, params, source_text,
           sizeof source_text);
    if (source) *source = source_text;
    return BCHOL_SUCCESS;
}

/* ---- the interleaved routines on data already interleaved --------------------------
 * The interleaved fields from the table's interleaved-native entry (timed on the
 * factorization alone), else the backend's defaults: not from the interleaved entries,
 * which were timed on strided batches with the conversions (tuning.h). */
static void choose_native(bchol_context *ctx, bchol_precision p, int n, bchol_params *out,
                          char *why, size_t size)
{
    char scratch[8];
    if (!why) {
        why = scratch;
        size = sizeof scratch;
    }
    backend_defaults(ctx, p, n, out);
    out->variant = BCHOL_VARIANT_INTERLEAVED;
    const struct bchol_tuning *t = bchol__tuning_for(ctx);
    const origin from = origin_of(ctx);
    bchol_tuning_pick pick = bchol__tuning_lookup(t, &ctx->info, (char)p, BCHOL__VARIANT_ILV_NATIVE, n);
    const bchol_tuning_entry *e = pick.entry;
    if (!e) {
        if (t)
            snprintf(why, size,
                     "%s defaults (%sthe tuning files for this device have no %c "
                     "interleaved-native entry)",
                     from.who, from.knob, (char)p);
        else
            snprintf(why, size, "%s defaults (%s%s)", from.who, from.knob, ctx->tuning_note);
        return;
    }
    take_entry_at(e, n, out);
    const bchol_tuning_section *s = pick.section;
    snprintf(why, size,
             "tuning file %s, devices[%d] %s/%s/%s: %c interleaved-native entry for n = %d%s",
             s->file, s->index, s->vendor, s->architecture, s->name, e->precision, e->n,
             pick.below_smallest ? " (the smallest measured size)"
             : e->n == n         ? ""
                                 : " (the nearest measured size below)");
}

void bchol__complete_interleaved_params(bchol_context *ctx, bchol_precision p, int n,
                                        bchol_params *params)
{
    bchol_params d;
    choose_native(ctx, p, n, &d, NULL, 0);
    params->variant = BCHOL_VARIANT_INTERLEAVED;
    complete_interleaved_fields(params, &d);
}

bchol_status bchol_potrf_interleaved_params(bchol_context *ctx, char precision, int n,
                                            bchol_params *params, const char **source)
{
    static const char routine[] = "bchol_potrf_interleaved_params";
    bchol_status st = check_query(ctx, routine, precision, "n", n, BCHOL_ERR_N);
    if (st) return st;
    if (!params) return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 4 (params) is NULL", routine);
    choose_native(ctx, (bchol_precision)precision, n, params, source_text, sizeof source_text);
    if (source) *source = source_text;
    return BCHOL_SUCCESS;
}

/* ---- solve (potrs, posv) ----------------------------------------------------------
 * The solve's variant and parameters at (precision, n, nrhs). Two kinds of tuning entries
 * shape it: "solve" entries the substitution kernel's nt, rpt and tbc, "solve-workitem"
 * entries the workitem kernel's nt and vw; both at the nearest measured n below and the
 * closest measured nrhs (tuning.h). The driver narrows nt to nrhs and fits the
 * substitution kernel's work-group to the built kernel whatever the source; a solve entry
 * whose work-group (ceil(n/rpt) * tbc work-items) is larger than the device takes at this
 * n gives way to the defaults, as a fused entry that does not fit local memory does,
 * rather than being reshaped into something never measured. */

/* BCHOL_SOLVE_WORKITEM_VW=1|2|4|8|16 (the tuner's way to time a vector width through the
 * public API), else 0. */
static int forced_vw(void)
{
    const char *s = getenv("BCHOL_SOLVE_WORKITEM_VW");
    if (!s) return 0;
    const int v = atoi(s);
    return bchol__workitem_solve_vw_ok(v) ? v : 0;
}

/* The text of a solve or solve-workitem entry that was taken. */
static void explain_entry(char *why, size_t size, const bchol_tuning_pick *pick, int n, int nrhs,
                          const char *competed)
{
    const bchol_tuning_entry *e = pick->entry;
    const bchol_tuning_section *s = pick->section;
    char measured[128] = "", at_n[96], at_rhs[96];
    if (e->ms >= 0 && e->default_ms >= 0)
        snprintf(measured, sizeof measured, "; tuned %.4g ms vs %.4g ms with the defaults", e->ms, e->default_ms);
    if (pick->below_smallest)
        snprintf(at_n, sizeof at_n, "the smallest measured size (n = %d is below it)", n);
    else if (e->n == n)
        snprintf(at_n, sizeof at_n, "measured at this size");
    else
        snprintf(at_n, sizeof at_n, "the nearest measured size below n = %d", n);
    if (e->nrhs == nrhs)
        snprintf(at_rhs, sizeof at_rhs, "measured at this nrhs");
    else
        snprintf(at_rhs, sizeof at_rhs, "the closest measured nrhs to %d", nrhs);
    snprintf(why, size, "tuning file %.300s, devices[%d] %s/%s/%s%s%s: %c %s entry for n = %d, "
             "nrhs = %d, %s, %s%s%s",
             s->file, s->index, s->vendor, s->architecture, s->name, s->family[0] ? " family " : "", s->family,
             e->precision, bchol__variant_name(e->variant), e->n, e->nrhs, at_n, at_rhs, measured, competed);
}

/* The variant: the caller's (want), else BCHOL_SOLVE_VARIANT=subst|workitem (tests run
 * posv, which takes no parameters, through either), else the tuning table where the
 * device's section measured both solves in this precision (the faster entry at the
 * nearest n and closest nrhs decides), else the backend's. A section that measured one
 * solve only has compared nothing (as compared_variants says for the factorization): its
 * entries shape that solve where it runs. The vbatched solve (vbatched set) takes only
 * solve entries: solve-workitem entries measure the fixed-size kernel. *vw (may be NULL):
 * the workitem kernel's vector width. */
void bchol__solve_params_for(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                             bchol_solve_variant want, int vbatched, bchol_solve_params *params,
                             int *vw, const char **source)
{
    ctx->backend->solve_defaults((char)p, n, nrhs, params);
    if (params->variant <= BCHOL_SOLVE_AUTO) params->variant = BCHOL_SOLVE_SUBST;
    const bchol_solve_variant backend_variant = params->variant;
    int width = BCHOL__WORKITEM_SOLVE_VW;
    const char *force = getenv("BCHOL_SOLVE_VARIANT");
    if (force && strcmp(force, "subst") && strcmp(force, "workitem")) force = NULL;
    if (force) params->variant = !strcmp(force, "subst") ? BCHOL_SOLVE_SUBST : BCHOL_SOLVE_WORKITEM;
    if (want > BCHOL_SOLVE_AUTO) params->variant = want;
    const char *who = want > BCHOL_SOLVE_AUTO ? "the caller's variant" : force ? "BCHOL_SOLVE_VARIANT" : NULL;
    /* the explanation only when asked for (a call's own dispatch does not format it) */
    char scratch[8], *why = source ? source_text : scratch;
    const size_t size = source ? sizeof source_text : sizeof scratch;
    const struct bchol_tuning *t = bchol__tuning_for(ctx);
    const origin from = origin_of(ctx);
    bchol_tuning_pick pick = {0};
    const char *competed = "";
    if (!who && !vbatched) {
        bchol_tuning_pick any = bchol__tuning_lookup_rhs(t, &ctx->info, (char)p, BCHOL__VARIANT_SOLVE_ANY, n, nrhs);
        if (any.entry && bchol__tuning_section_has(any.section, (char)p, BCHOL__VARIANT_SOLVE) &&
            bchol__tuning_section_has(any.section, (char)p, BCHOL__VARIANT_SOLVE_WORKITEM)) {
            /* the table compared the two solves: its faster entry decides */
            pick = any;
            who = "tuning table";
            params->variant =
                any.entry->variant == BCHOL__VARIANT_SOLVE_WORKITEM ? BCHOL_SOLVE_WORKITEM : BCHOL_SOLVE_SUBST;
            const bchol_tuning_pick other = bchol__tuning_lookup_rhs(
                t, &ctx->info, (char)p,
                params->variant == BCHOL_SOLVE_WORKITEM ? BCHOL__VARIANT_SOLVE : BCHOL__VARIANT_SOLVE_WORKITEM, n,
                nrhs);
            competed = other.section == any.section && other.entry && other.entry->n == any.entry->n &&
                               other.entry->nrhs == any.entry->nrhs
                           ? (params->variant == BCHOL_SOLVE_WORKITEM ? "; faster than the solve entry there"
                                                                       : "; faster than the solve-workitem entry there")
                           : "; the only solve measured there";
        }
    }
    const int workitem = params->variant == BCHOL_SOLVE_WORKITEM;
    /* otherwise the entry of the variant's own kind (none for the vbatched workitem solve) */
    if (!pick.entry && !(workitem && vbatched))
        pick = bchol__tuning_lookup_rhs(t, &ctx->info, (char)p,
                                        workitem ? BCHOL__VARIANT_SOLVE_WORKITEM : BCHOL__VARIANT_SOLVE, n, nrhs);
    const bchol_tuning_entry *e = pick.entry;
    char text[sizeof source_text] = "";
    if (!e) {
        if (workitem && vbatched)
            snprintf(text, sizeof text, "%s defaults (solve-workitem entries measure the fixed-size solve)",
                     from.who);
        else if (t)
            snprintf(text, sizeof text, "%s defaults (%sthe tuning files for this device have no %c %s entry)",
                     from.who, from.knob, (char)p, workitem ? "solve-workitem" : "solve");
        else
            snprintf(text, sizeof text, "%s defaults (%s%s)", from.who, from.knob, ctx->tuning_note);
    } else if (!workitem && bchol__solve_group(n, &e->solve) > (long long)ctx->info.max_work_group) {
        snprintf(text, sizeof text,
                 "%s defaults (%sthe tuned %c solve entry for n = %d, nrhs = %d in %.300s needs "
                 "%lld work-items per group at n = %d; the device takes %zu)",
                 from.who, from.knob, e->precision, e->n, e->nrhs, pick.section->file,
                 bchol__solve_group(n, &e->solve), n, ctx->info.max_work_group);
        if (competed[0]) { /* the table's pick does not fit: the backend's, as with no entry */
            params->variant = backend_variant;
            who = NULL;
            competed = "";
        }
        e = NULL;
    } else if (workitem) {
        params->nt = e->solve.nt;
        width = e->vw;
    } else {
        params->nt = e->solve.nt;
        params->rpt = e->solve.rpt;
        params->tbc = e->solve.tbc;
    }
    const int fv = params->variant == BCHOL_SOLVE_WORKITEM && !vbatched ? forced_vw() : 0;
    if (fv) width = fv;
    if (vw) *vw = width;
    if (!source) return;
    if (e) explain_entry(text, sizeof text, &pick, n, nrhs, competed);
    const char *vname = params->variant == BCHOL_SOLVE_WORKITEM ? "the workitem solve" : "the substitution solve";
    /* the substitution solve reads as before (its entry or the defaults) unless the table
     * chose it; the workitem solve's text says who chose it, its nt and vw, and why */
    if (params->variant == BCHOL_SOLVE_WORKITEM)
        snprintf(why, size, "%s: %s, nt = %d%s, vw = %d%s: %s", who ? who : "the backend's variant", vname,
                 params->nt, e ? "" : " (the defaults')", width,
                 fv ? " (BCHOL_SOLVE_WORKITEM_VW)" : e ? "" : " (the kernel's default)", text);
    else if (competed[0]) /* the table chose it over the workitem solve */
        snprintf(why, size, "%s: %s: %s", who, vname, text);
    else
        snprintf(why, size, "%s", text);
    *source = source_text;
}

void bchol__solve_params(bchol_context *ctx, bchol_precision p, int n, int nrhs,
                         bchol_solve_params *params, const char **source)
{
    bchol__solve_params_for(ctx, p, n, nrhs, BCHOL_SOLVE_AUTO, 0, params, NULL, source);
}

void bchol__complete_solve_params(bchol_context *ctx, bchol_precision p, int n, int nrhs, int vbatched,
                                  bchol_solve_params *params, int *vw)
{
    bchol_solve_params d;
    bchol__solve_params_for(ctx, p, n, nrhs, params->variant, vbatched, &d, vw, NULL);
    if (params->variant <= BCHOL_SOLVE_AUTO) params->variant = d.variant;
    if (params->nt <= 0) params->nt = d.nt;
    if (params->rpt <= 0) params->rpt = d.rpt;
    if (params->tbc <= 0) params->tbc = d.tbc;
}

bchol_status bchol_potrs_params(bchol_context *ctx, char precision, int n, int nrhs,
                                bchol_solve_params *params, const char **source)
{
    bchol_status st = check_query(ctx, "bchol_potrs_params", precision, "n", n, BCHOL_ERR_N);
    if (st) return st;
    if (nrhs < 0)
        return bchol__fail(ctx, BCHOL_ERR_NRHS, "bchol_potrs_params: argument 4 (nrhs = %d) must be >= 0", nrhs);
    if (!params)
        return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "bchol_potrs_params: argument 5 (params) is NULL");
    bchol__solve_params(ctx, (bchol_precision)precision, n, nrhs, params, source);
    return BCHOL_SUCCESS;
}

/* ---- variable-size batches -------------------------------------------------------------
 * AUTO splits the batch by size class: the fused kernel takes the matrices up to the
 * crossover, the separate variant the larger ones. A batch whose max_n is within the
 * backend's fused/separate crossover for this precision runs fused alone; one that
 * straddles it is split at the backend's vbatched crossover (lower where the separate
 * launches step through max_n whatever share of the batch they hold, so a long fused share only
 * adds its own launches, or higher where the fused kernel measured faster); both capped
 * at what the fused kernel holds. The fused kernel's parameters are chosen for its share
 * (n up to max_n, or to the vbatched crossover where max_n straddles the fixed one): ib and
 * rpt as for the fixed size, tbc and shape from the backend's vbatched defaults, with the
 * seed's best version (lazy scheduling with ETM-aggressive; Abdelfattah et al. 2016, Fig.
 * 4), unless the tuning table has a vbatched entry for that share's largest order (nearest
 * measured below) that the fused kernel can hold; the separate variant's for max_n, with
 * bchol's own GEMM kernels.
 * Where the backend says so (vbatched_workitem_to: CPUs), AUTO gives the matrices up to
 * that order to the workitem kernel instead (one work-item per matrix, no barriers) and
 * the larger ones to the separate variant; BCHOL_VBATCHED_VARIANT=workitem|fused (tests)
 * puts every matrix there, or keeps the fused/separate split, on any device. */

int bchol__vbatched_workitem_to(const bchol_context *ctx, bchol_precision p)
{
    const char *force = getenv("BCHOL_VBATCHED_VARIANT");
    if (force && !strcmp(force, "workitem")) return INT_MAX;
    if (force && !strcmp(force, "fused")) return 0;
    return p == BCHOL_D ? ctx->backend->vbatched_workitem_to_d
                        : ctx->backend->vbatched_workitem_to_s;
}

int bchol__vbatched_crossover(bchol_context *ctx, bchol_precision p, int max_n,
                              const bchol_vbatched_params *params)
{
    const int hold = bchol__vbatched_fused_max_n(ctx, p, params);
    int c = params->crossover;
    if (c <= 0) {
        const int fixed = crossover(ctx, p) < hold ? crossover(ctx, p) : hold;
        const int vb = p == BCHOL_D ? ctx->backend->vbatched_crossover_d
                                    : ctx->backend->vbatched_crossover_s;
        c = max_n <= fixed ? fixed : vb;
    }
    return c < hold ? c : hold;
}

void bchol__vbatched_params(bchol_context *ctx, bchol_precision p, int max_n, int64_t batch,
                            bchol_vbatched_params *params, const char **source)
{
    bchol_params sep;
    choose(ctx, p, max_n, BCHOL_VARIANT_SEPARATE, &sep, NULL, 0);
    const int c = crossover(ctx, p);
    const int vb = p == BCHOL_D ? ctx->backend->vbatched_crossover_d
                                : ctx->backend->vbatched_crossover_s;
    /* the fused share's largest order (bchol__vbatched_crossover's split, before its cap) */
    const int fn = max_n <= c || max_n <= vb ? max_n : vb > 1 ? vb : 1; /* 0: no fused share */
    bchol__fused_params(ctx, p, fn, &params->fused, source);
    params->fused.variant = BCHOL_VARIANT_AUTO;
    ctx->backend->vbatched_defaults((char)p, fn, params);
    params->fused.nb = sep.nb;
    params->fused.pb = sep.pb;
    params->fused.wnb = sep.wnb; /* the workitem kernel's at max_n, where it runs */
    params->fused.wvec = sep.wvec;
    params->fused.wmr = sep.wmr;
    params->fused.wgroup = sep.wgroup;
    params->fused.tile = sep.tile;
    params->fused.gemm = BCHOL_GEMM_OWN;
    params->fused.gb = 0;
    params->etm = BCHOL_ETM_AGGRESSIVE;
    params->schedule = BCHOL_SCHEDULE_LAZY;
    if (source) {
        size_t len = strlen(source_text);
        const origin from = origin_of(ctx);
        snprintf(source_text + len, sizeof source_text - len,
                 "; tbc %d, shape and order from the %s vbatched defaults%s", params->fused.tbc,
                 from.who, from.aside);
    }
    /* the fused share's parameters from a vbatched entry of the tuning table */
    bchol_tuning_pick pick =
        bchol__tuning_lookup(bchol__tuning_for(ctx), &ctx->info, (char)p, BCHOL__VARIANT_VBATCHED, fn);
    const bchol_tuning_entry *e = pick.entry;
    if (e) {
        bchol_vbatched_params tuned = *params;
        tuned.fused.ib = e->params.ib;
        tuned.fused.rpt = e->params.rpt;
        tuned.fused.shape = e->params.shape;
        /* files from before tbc was tuned have none: the backend's stays */
        if (e->params.tbc > 0) tuned.fused.tbc = e->params.tbc;
        tuned.etm = (bchol_etm)e->etm;
        tuned.schedule = (bchol_schedule)e->schedule;
        if (e->order > 0) tuned.order = (bchol_order)e->order;
        const bchol_tuning_section *s = pick.section;
        if (fn > bchol__vbatched_fused_max_n(ctx, p, &tuned)) {
            if (source) {
                char fused_why[sizeof source_text];
                memcpy(fused_why, source_text, sizeof fused_why);
                snprintf(source_text, sizeof source_text,
                         "%.600s (the tuned %c vbatched entry for n = %d in %.200s needs more local "
                         "memory than the device has at n = %d)",
                         fused_why, e->precision, e->n, s->file, fn);
            }
        } else {
            *params = tuned;
            if (source)
                snprintf(source_text, sizeof source_text,
                         "tuning file %s, devices[%d] %s/%s/%s: %c vbatched entry for n = %d, %s",
                         s->file, s->index, s->vendor, s->architecture, s->name, e->precision, e->n,
                         pick.below_smallest ? "the smallest measured size"
                         : e->n == fn        ? "measured at this size"
                                             : "the nearest measured size below");
        }
    }
    const int work_to = bchol__vbatched_workitem_to(ctx, p);
    if (source && work_to > 0) {
        size_t len = strlen(source_text);
        if (work_to == INT_MAX)
            snprintf(source_text + len, sizeof source_text - len,
                     "; AUTO runs the workitem kernel on every matrix (%s)",
                     getenv("BCHOL_VBATCHED_VARIANT") ? "BCHOL_VBATCHED_VARIANT"
                                                      : origin_of(ctx).who);
        else
            snprintf(source_text + len, sizeof source_text - len,
                     "; AUTO runs the workitem kernel up to n = %d, the separate variant "
                     "above (%s)",
                     work_to, origin_of(ctx).who);
    }
    params->crossover = 0;
    params->crossover = bchol__vbatched_crossover(ctx, p, max_n, params);
    const int per_cu = ctx->one_launch_per_cu >= 0 ? ctx->one_launch_per_cu
                                                   : ctx->backend->vbatched_one_launch_per_cu;
    const int cap = ctx->backend->vbatched_one_launch_max_n;
    const int largest = cap > 0 && cap < params->crossover ? cap : params->crossover;
    if (bchol__vbatched_fits_one_launch(ctx->info.compute_units, per_cu, max_n, largest, batch)) {
        params->schedule = BCHOL_SCHEDULE_ONE_LAUNCH;
        if (source) {
            size_t len = strlen(source_text);
            snprintf(source_text + len, sizeof source_text - len,
                     "; one launch: batch * max_n = %lld fits the device at once (%u compute "
                     "units * %d)",
                     (long long)batch * max_n, ctx->info.compute_units, per_cu);
        }
    }
}

void bchol__complete_vbatched_params(bchol_context *ctx, bchol_precision p, int max_n,
                                     int64_t batch, bchol_vbatched_params *params)
{
    bchol_vbatched_params d;
    bchol__vbatched_params(ctx, p, max_n, batch, &d, NULL);
    if (params->fused.variant <= BCHOL_VARIANT_AUTO) params->fused.variant = d.fused.variant;
    if (params->fused.ib <= 0) params->fused.ib = d.fused.ib;
    if (params->fused.tbc <= 0) params->fused.tbc = d.fused.tbc;
    if (params->fused.rpt <= 0) params->fused.rpt = d.fused.rpt;
    if (params->fused.shape <= 0) params->fused.shape = d.fused.shape;
    if (params->fused.nb <= 0) params->fused.nb = d.fused.nb;
    if (params->fused.pb <= 0) params->fused.pb = d.fused.pb;
    if (params->fused.tile <= 0) params->fused.tile = d.fused.tile;
    if (params->fused.gemm <= 0) params->fused.gemm = d.fused.gemm;
    if (params->fused.wnb <= 0) params->fused.wnb = d.fused.wnb;
    if (params->fused.wvec <= 0) params->fused.wvec = d.fused.wvec;
    if (params->fused.wmr <= 0) params->fused.wmr = d.fused.wmr;
    if (params->fused.wgroup <= 0) params->fused.wgroup = d.fused.wgroup;
    if (params->etm <= BCHOL_ETM_DEFAULT) params->etm = d.etm;
    if (params->schedule <= BCHOL_SCHEDULE_DEFAULT) params->schedule = d.schedule;
    if (params->order <= BCHOL_ORDER_DEFAULT) params->order = d.order;
    /* the fused kernel's ib decides what it holds: cap the crossover with the final ib */
    params->crossover = bchol__vbatched_crossover(ctx, p, max_n, params);
}

bchol_status bchol_potrf_vbatched_params(bchol_context *ctx, char precision, int max_n,
                                         int64_t batch, bchol_vbatched_params *params,
                                         const char **source)
{
    const char *r = "bchol_potrf_vbatched_params";
    bchol_status st = check_query(ctx, r, precision, "max_n", max_n, BCHOL_ERR_MAX_N);
    if (st) return st;
    if (batch < 0)
        return bchol__fail(ctx, BCHOL_ERR_BATCH, "%s: argument 4 (batch = %lld) must be >= 0", r,
                           (long long)batch);
    if (!params) return bchol__fail(ctx, BCHOL_ERR_ARGUMENT, "%s: argument 5 (params) is NULL", r);
    bchol__vbatched_params(ctx, (bchol_precision)precision, max_n, batch, params, source);
    return BCHOL_SUCCESS;
}
