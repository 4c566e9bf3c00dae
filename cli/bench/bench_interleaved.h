/* bchol bench --variant interleaved (cli/bench/bench_interleaved.c). */
#ifndef BCHOL_BENCH_INTERLEAVED_H
#define BCHOL_BENCH_INTERLEAVED_H

/* argv as for cmd_bench; returns the exit code. */
int bench_interleaved(int argc, char **argv);

#endif
