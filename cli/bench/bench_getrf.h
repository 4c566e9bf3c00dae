/* bchol bench --getrf: the LU benchmark mode of `bchol bench` (bench_getrf.c). */
#ifndef BCHOL_BENCH_GETRF_H
#define BCHOL_BENCH_GETRF_H

/* 1 if the bench arguments ask for the LU mode (--getrf). */
int bench_getrf_requested(int argc, char **argv);
/* Runs the LU benchmark; returns the exit code. */
int bench_getrf(int argc, char **argv);

#endif
