/* What the variable-size benchmarks (bench_vbatched.c, bench_solve_vbatched.c,
 * bench_lu_vbatched.c) share: the batch's allocation bound and the drawing of its orders. */
#ifndef BCHOL_BENCH_VB_H
#define BCHOL_BENCH_VB_H

#include "bchol.h"
#include "bchol_util.h"

/* 0 where batch arrays of nmax-by-cols elements of es bytes (cols >= nmax: B's right-hand
 * sides; cols = nmax: the matrices) fit one device allocation; else says so on stderr,
 * "<cmd>: --batch <batch> <what> of up to nmax = ...", and returns -1. */
int bench_vb_fits(bchol_context *ctx, const char *cmd, const char *what, long long batch, int nmax,
                  int cols, size_t es);

/* Draws batch orders n[] in [1, nmax] (dist, from rng; nothing else from rng, so what the
 * caller draws next is as before); returns the largest. */
int bench_vb_orders(util_dist dist, int nmax, long long batch, util_rng *rng, int *n);

#endif
