/* bchol bench --routine getrf|getrs|gesv|getri: the LU benchmark mode of `bchol bench`
 * (bench_lu.c). */
#ifndef BCHOL_BENCH_LU_H
#define BCHOL_BENCH_LU_H

/* 1 if the bench arguments name an LU routine (--routine getrf, getrs, gesv or getri). */
int bench_lu_requested(int argc, char **argv);
/* Runs the LU benchmark; returns the exit code. */
int bench_lu(int argc, char **argv);

#endif
