/* bchol bench --variant: which variants a run compares, how their parameters print, and
 * the summary of where the separate variant overtakes the fused one. */
#ifndef BCHOL_BENCH_VARIANTS_H
#define BCHOL_BENCH_VARIANTS_H

#include "bchol.h"

#include <stddef.h>

#define BENCH_MAX_VARIANTS 4

/* Parses "fused", "separate", "interleaved", "auto" or a comma-separated list of them; returns the
 * count, or -1 if malformed. */
int bench_parse_variants(const char *text, bchol_variant *out);
const char *bench_variant_name(bchol_variant v);

/* Parses "own" or "clblast" into BCHOL_GEMM_*; -1 if neither. */
int bench_parse_gemm(const char *text);

/* The parameters a run used, e.g. "fused ib8 tbc1 rpt4 fixed" or "separate nb32 pb8 own
 * t64". For auto, the variant the dispatcher chose. */
void bench_params_text(const bchol_params *used, char *text, size_t size);

/* Per size, the Gflop/s of each variant run and the dispatcher's choice; then the
 * summary lines (fastest variant per n, measured crossover, dispatcher's crossover). */
typedef struct {
    int count;
    int n[256];
    double gflops[256][BENCH_MAX_VARIANTS + 1]; /* indexed by bchol_variant */
    bchol_variant chosen[256];                  /* what auto runs at n */
} bench_crossover;

void bench_crossover_add(bench_crossover *c, int n, bchol_variant v, double gflops, bchol_variant chosen);
void bench_crossover_print(const bench_crossover *c);

#endif
