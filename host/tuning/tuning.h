/* Tuning tables: what a tuning file (JSON, written by `bchol tune`) tells the dispatcher,
 * parsed into plain structs (tuning_file.c), matched to a device and a size
 * (tuning_lookup.c), and loaded once per context (tuning_load.c). The first two are pure
 * functions of their inputs (no OpenCL, no context) so that tests can run them alone. */
#ifndef BCHOL_TUNING_H
#define BCHOL_TUNING_H

#include "bchol.h"

#include <stddef.h>

/* Entries of the vbatched routines ("vbatched" in files): the fused kernel's ib, tbc, rpt and
 * shape in params, with etm, schedule and order; timed on orders up to n, so they serve the
 * vbatched routines' largest order and never compete with the strided variants. */
#define BCHOL__VARIANT_VBATCHED ((bchol_variant)100)
/* Entries of the substitution solve ("solve" in files): nt, rpt and tbc of the fixed-size
 * potrs (also used by posv and the vbatched solve), measured at one n and one nrhs each;
 * they never compete with the factorization's variants either. */
#define BCHOL__VARIANT_SOLVE ((bchol_variant)101)
/* Entries of the interleaved routines on data already interleaved ("interleaved-native"
 * in files): the interleaved variant's fields, timed on the factorization alone. The
 * "interleaved" entries are timed on strided batches, conversions included (the
 * strided<->interleaved crossover), which says little about the kernel: on the H200 their
 * picks ran native calls at 0.64x (float) and 0.84x (double) the defaults' speed. They do
 * not compete with the strided variants either. */
#define BCHOL__VARIANT_ILV_NATIVE ((bchol_variant)102)

/* Entries of getrf ("getrf-fused", "getrf-blocked", "getrf-workitem", "getrf-regs" in
 * files): one per
 * variant, precision and measured n (= max(m, n) of the calls it serves), its parameters in
 * the entry's getrf field; among the variants measured at a size the fastest runs. They
 * never compete with the Cholesky variants. Each getrf variant has its own number from
 * BCHOL__VARIANT_GETRF_FIRST on (a new one takes the next, and its row in tuning_file.c);
 * a bchol that does not know a variant's name skips its entries. BCHOL__VARIANT_GETRF asks
 * bchol__tuning_lookup for the fastest of them. */
#define BCHOL__VARIANT_GETRF ((bchol_variant)103)
#define BCHOL__VARIANT_GETRF_FIRST 104
#define BCHOL__VARIANT_GETRF_MAX 8 /* numbers FIRST .. FIRST + MAX - 1 */
#define BCHOL__VARIANT_GETRF_FUSED ((bchol_variant)104)
#define BCHOL__VARIANT_GETRF_BLOCKED ((bchol_variant)105)
#define BCHOL__VARIANT_GETRF_WORKITEM ((bchol_variant)106)
#define BCHOL__VARIANT_GETRF_REGS ((bchol_variant)107)

/* Entries of the LU solve ("getrs" in files): nt, rpt and tbc of the substitution kernel
 * cl_kernels/lu/getrs.cl (getrs, gesv, getri's solve path), measured at one n and one nrhs
 * as the Cholesky solve's; its own number, since the two kernels differ (pivots, two
 * triangles) and their best shapes need not agree. Never part of AUTO. */
#define BCHOL__VARIANT_GETRS ((bchol_variant)112) /* after GETRF_FIRST + GETRF_MAX - 1 */

/* Entries of the workitem solve ("solve-workitem" in files): nt (right-hand sides per
 * pass) and vw (vector width) of cl_kernels/chol/potrs_workitem.cl, measured at one n and
 * one nrhs as the substitution solve's "solve" entries, with which they compete: at the
 * chosen n and nrhs the faster of the two kinds decides which solve potrs and posv run
 * (bchol__tuning_lookup_rhs with BCHOL__VARIANT_SOLVE_ANY). */
#define BCHOL__VARIANT_SOLVE_WORKITEM ((bchol_variant)113)
/* A request, never an entry's kind: the "solve" and "solve-workitem" entries together. */
#define BCHOL__VARIANT_SOLVE_ANY ((bchol_variant)114)

/* Entries of the workitem LU solve ("getrs-workitem" in files): nt and vw of
 * cl_kernels/lu/getrs_workitem.cl (getrs, gesv and getri's solve path where the backend or
 * BCHOL_LU_SOLVE_VARIANT runs it), measured at one n and one nrhs. Like "getrs" entries
 * they shape their kernel where it runs and choose nothing. */
#define BCHOL__VARIANT_GETRS_WORKITEM ((bchol_variant)115)

/* Entries of getri ("getri" in files): the path (bchol_getri_path: solve, fused, blocked)
 * and the blocked path's nb, one entry per precision and measured n, timed on getri alone.
 * They compete with nothing: the entry at the nearest measured n at or below the call's
 * chooses getri's path where that path can run the call's n. */
#define BCHOL__VARIANT_GETRI ((bchol_variant)116)

/* Whether entries of v carry an nrhs (one entry per n and nrhs). */
static inline int bchol__variant_has_nrhs(bchol_variant v)
{
    return v == BCHOL__VARIANT_SOLVE || v == BCHOL__VARIANT_GETRS || v == BCHOL__VARIANT_SOLVE_WORKITEM ||
           v == BCHOL__VARIANT_SOLVE_ANY || v == BCHOL__VARIANT_GETRS_WORKITEM;
}

static inline int bchol__variant_is_getrf(bchol_variant v)
{
    return (int)v >= BCHOL__VARIANT_GETRF_FIRST && (int)v < BCHOL__VARIANT_GETRF_FIRST + BCHOL__VARIANT_GETRF_MAX;
}

/* Whether entries of v are the strided factorization's (fused, separate, interleaved):
 * the variants that BCHOL_VARIANT_AUTO chooses among. */
static inline int bchol__variant_is_strided(bchol_variant v)
{
    return v == BCHOL_VARIANT_FUSED || v == BCHOL_VARIANT_SEPARATE || v == BCHOL_VARIANT_INTERLEAVED ||
           v == BCHOL_VARIANT_WORKITEM;
}

/* The chosen parameters of one variant at one measured size. */
typedef struct bchol_tuning_entry {
    char precision; /* 's' or 'd' */
    bchol_variant variant;
    int n;               /* the measured size; the entry serves n up to the next one */
    int nrhs;            /* solve, solve-workitem and getrs entries: the measured number of
                            right-hand sides (else 0) */
    bchol_params params; /* params.variant == variant (FUSED for vbatched entries) */
    int etm, schedule;   /* vbatched entries only: bchol_etm and bchol_schedule values (ints, as
                            the parser writes every field) */
    bchol_solve_params solve; /* solve and getrs entries (variant BCHOL_SOLVE_SUBST: nt, rpt, tbc);
                                 solve-workitem and getrs-workitem entries
                                 (BCHOL_SOLVE_WORKITEM: nt) */
    int vw;              /* solve-workitem and getrs-workitem entries only: the vector width
                            (1, 2, 4, 8, 16) */
    bchol_getrf_config getrf; /* getrf entries only (getrf.variant set from the entry's) */
    bchol_getri_config getri; /* getri entries only (nb 0 unless the path is blocked) */
    int order;           /* vbatched entries only: bchol_order, 0 where the file has none */
    int between_to;      /* fused and separate entries: sizes n + 1 .. between_to (the next
                            measured size - 1) take `between` instead of params; 0: none */
    bchol_params between;
    double ms;           /* median time when tuned, or -1 if the file does not say */
    double default_ms;   /* the backend defaults' time at the same size, or -1 */
    int index;           /* its position in the section's "chosen" array */
} bchol_tuning_entry;

/* One device section of a file: the identity it applies to ("default" matches any value
 * at that level; an empty family matches any family) and its entries. */
typedef struct bchol_tuning_section {
    char family[16], vendor[64], architecture[64], name[128], driver[64];
    const char *file; /* the path it came from (owned by the table) */
    int index;        /* position in the file's "devices" array */
    int nentries;
    bchol_tuning_entry *entries; /* sorted by precision, variant, n, nrhs (each key once) */
} bchol_tuning_section;

typedef struct bchol_tuning {
    int nsections, sections_cap;
    bchol_tuning_section *sections;
    int nfiles, files_cap;
    char **files;
} bchol_tuning;

/* The tuning file format version this bchol reads and writes. */
#define BCHOL_TUNING_FORMAT_VERSION 1

/*
 * Parses the text of one tuning file and appends its sections to t. Returns 0, or -1 with
 * a message in why (naming the JSON path at fault) and t unchanged. Entries of variants
 * this bchol does not know are skipped, so that newer files still load; anything else
 * that is missing, of the wrong type or out of range rejects the whole file.
 */
int bchol__tuning_parse(bchol_tuning *t, const char *text, size_t length, const char *path,
                        char *why, size_t why_size);
/* Frees what t holds and empties it (t itself is the caller's). */
void bchol__tuning_free(bchol_tuning *t);

/*
 * How well a section matches a device: -1 if not at all, else a score that orders
 * vendor before architecture before name, an exact value before "default".
 */
int bchol__tuning_match(const bchol_tuning_section *s, const bchol_device_info *dev);

typedef struct {
    const bchol_tuning_entry *entry;     /* NULL: no section has an entry for the request */
    const bchol_tuning_section *section; /* the section the entry came from */
    int matched;                         /* number of sections that match the device */
    int below_smallest;                  /* n is below every measured size: the smallest used */
} bchol_tuning_pick;

/*
 * The entry for (precision, variant, n) on dev: the best-matching section that has any
 * entry for the precision and variant (BCHOL_VARIANT_AUTO: any strided variant, not
 * BCHOL__VARIANT_VBATCHED or BCHOL__VARIANT_SOLVE), then its nearest
 * measured size at or below n (the smallest when n is below all), then among the variants
 * measured at that size the fastest one (the crossover between variants).
 * BCHOL__VARIANT_GETRF: the same over getrf's variants.
 */
bchol_tuning_pick bchol__tuning_lookup(const bchol_tuning *t, const bchol_device_info *dev,
                                       char precision, bchol_variant variant, int n);

/*
 * The solve entry for (precision, n, nrhs) on dev: the best-matching section that has any
 * solve entry for the precision, its nearest measured n at or below n (the smallest when n
 * is below all), then among the entries measured at that n the one whose nrhs is closest
 * to nrhs by ratio (max/min; a tie goes to the larger nrhs, whose tile the solve narrows to
 * nrhs, rather than splitting the right-hand sides into more tiles that each read the
 * factor again). With nrhs 1 and 16 measured: nrhs 1..3 take the 1 entry, 4 and more the
 * 16 entry.
 */
bchol_tuning_pick bchol__tuning_lookup_solve(const bchol_tuning *t, const bchol_device_info *dev,
                                             char precision, int n, int nrhs);
/* The same rule over the "getrs" entries (the LU solve's). */
bchol_tuning_pick bchol__tuning_lookup_getrs(const bchol_tuning *t, const bchol_device_info *dev,
                                             char precision, int n, int nrhs);
/*
 * The same rule over the entries of one kind with an nrhs (BCHOL__VARIANT_SOLVE,
 * BCHOL__VARIANT_SOLVE_WORKITEM, BCHOL__VARIANT_GETRS), or over the "solve" and
 * "solve-workitem" entries together (BCHOL__VARIANT_SOLVE_ANY): the best-matching section
 * with an entry of either kind for the precision, its nearest measured n at or below n
 * over both kinds, the closest measured nrhs at that n over both kinds (the same tie
 * rule), and among the entries at that n and nrhs the faster (unknown times rank last; a
 * tie goes to the solve entry). As the strided variants compete under AUTO.
 */
bchol_tuning_pick bchol__tuning_lookup_rhs(const bchol_tuning *t, const bchol_device_info *dev, char precision,
                                           bchol_variant variant, int n, int nrhs);
/* "tuning file F, devices[i] V/A/N family X: P KIND entry for n = E, measured at this size;
 * tuned T ms vs D ms with the defaults" for a pick with an entry: which file, section and
 * entry, whether it was measured at the asked size (named size_name = n: "max(m, n) = 70")
 * or is the nearest below or the smallest, and its times where the file has them. */
void bchol__tuning_describe(char *out, size_t size, const bchol_tuning_pick *pick,
                            const char *kind, const char *size_name, int n);
/* Whether section s has an entry of kind variant for the precision. */
int bchol__tuning_section_has(const bchol_tuning_section *s, char precision, bchol_variant variant);

/* The name a variant has in tuning files ("fused"), or NULL. */
const char *bchol__variant_name(bchol_variant variant);

/* ---- loading (tuning_load.c) ---------------------------------------------------------- */

/* The tuning tables that apply to ctx's device (NULL if none), read once; a file that
 * cannot be used gives one warning through bchol__warn. */
const struct bchol_tuning *bchol__tuning_for(bchol_context *ctx);
void bchol__tuning_release(bchol_context *ctx);

#endif
