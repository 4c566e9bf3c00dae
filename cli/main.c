/* bchol: the command-line front end (devices, bench, tune). */
#include "bchol_util.h"
#include "commands.h"

#include <stdio.h>
#include <string.h>

static int usage(FILE *f)
{
    fprintf(f, "usage: bchol <command> [options]\n"
               "commands:\n"
               "  devices   list OpenCL platforms and devices with their normalized identity\n"
               "  bench     time batched Cholesky on a device (bchol bench --help)\n"
               "  tune      measure the parameter space and write a tuning file (bchol tune --help)\n"
               "  als       alternating least squares on generated ratings with posv_vbatched\n"
               "The device is chosen by --device or BCHOL_DEVICE: nvidia, pocl, gpu, cpu or P:D.\n");
    return f == stderr ? 2 : 0;
}

int main(int argc, char **argv)
{
    util_icd_env_save(); /* before any OpenCL call (see bchol_util.h) */
    if (argc < 2) return usage(stderr);
    if (!strcmp(argv[1], "devices")) return cmd_devices(argc - 1, argv + 1);
    if (!strcmp(argv[1], "bench")) return cmd_bench(argc - 1, argv + 1);
    if (!strcmp(argv[1], "tune")) return cmd_tune(argc - 1, argv + 1);
    if (!strcmp(argv[1], "als")) return cmd_als(argc - 1, argv + 1);
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return usage(stdout);
    fprintf(stderr, "bchol: unknown command \"%s\"\n", argv[1]);
    return usage(stderr);
}
