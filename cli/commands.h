/* Subcommands of the bchol command, one file each. */
#ifndef BCHOL_COMMANDS_H
#define BCHOL_COMMANDS_H

int cmd_devices(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* bchol bench --vbatched (bench_vbatched.c) */
int bench_vbatched(int argc, char **argv);
int cmd_tune(int argc, char **argv);
/* bchol bench --solve --vbatched (bench_solve_vbatched.c) */
int bench_solve_vbatched(int argc, char **argv);
/* bchol bench --routine getrf --vbatched (bench_lu_vbatched.c) */
int bench_lu_vbatched(int argc, char **argv);
/* bchol als: alternating least squares with posv_vbatched (cmd_als.c) */
int cmd_als(int argc, char **argv);

#endif
