/* bchol bench --solve: the solve benchmark mode of `bchol bench` (bench_solve.c). */
#ifndef BCHOL_BENCH_SOLVE_H
#define BCHOL_BENCH_SOLVE_H

/* 1 if the bench arguments ask for the solve mode (--solve). */
int bench_solve_requested(int argc, char **argv);
/* Runs the solve benchmark; returns the exit code. */
int bench_solve(int argc, char **argv);

#endif
