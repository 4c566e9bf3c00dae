/* The tuner's getrf-regs search space (cli/tune/tune_getrf.c) on made-up devices: a GPU at
 * the orders regs runs, nothing on CPUs or past its orders, groups pruned past the
 * work-group limit or local memory. The GPU sweep itself needs a GPU; these are its rules.
 * Also the interleaved space's pruning of full unrolling (cli/tune/tune_interleaved.c),
 * which must hold for values from --set: on CPUs above n = 32 (PoCL compiles at the first
 * launch, beyond the build limit), anywhere above 64.
 * Usage: test_tune_space */
#include "tune/tune.h"

#include <stdio.h>
#include <string.h>

#include "test_check.h"

/* tune_getrf.c's run needs the workload; nothing here runs a configuration. */
int tune_workload_lu(tune_workload *w, char *why, size_t size)
{
    (void)w;
    snprintf(why, size, "no workload in this test");
    return -1;
}

int tune_workload_reset_lu(tune_workload *w)
{
    (void)w;
    return -1;
}

/* tune_interleaved.c's runs: nothing here runs a configuration either. */
int tune_workload_ilv(tune_workload *w, size_t bytes)
{
    (void)w;
    (void)bytes;
    return -1;
}

bchol_status tune_strided_prepare(bchol_context *ctx, const tune_target *t, char uplo, const tune_params *p,
                                  tune_params *effective)
{
    (void)ctx, (void)t, (void)uplo, (void)p, (void)effective;
    return BCHOL_ERR_OPENCL;
}

bchol_status tune_strided_run(bchol_context *ctx, const tune_target *t, struct tune_workload *w,
                              const tune_params *p)
{
    (void)ctx, (void)t, (void)w, (void)p;
    return BCHOL_ERR_OPENCL;
}

extern const tune_variant tune_getrf_regs, tune_interleaved;

static tune_target target(cl_device_type type, size_t wg, unsigned long long local, char precision, int n)
{
    tune_target t = {0};
    t.dev.type = type;
    t.dev.max_work_group = wg;
    t.dev.local_mem_usable = local;
    t.precision = precision;
    t.n = n;
    return t;
}

/* The tbc values offered at t and those of them not pruned, as "1 2 4" texts. */
static void sweep(const tune_target *t, char *offered, char *kept, size_t size)
{
    const tune_variant *v = &tune_getrf_regs;
    int vals[TUNE_MAX_VALUES];
    const int k = v->values(0, t, vals, TUNE_MAX_VALUES);
    offered[0] = kept[0] = 0;
    for (int i = 0; i < k; i++) {
        char why[200];
        snprintf(offered + strlen(offered), size - strlen(offered), "%s%d", i ? " " : "", vals[i]);
        if (!v->prune(&vals[i], t, why, sizeof why))
            snprintf(kept + strlen(kept), size - strlen(kept), "%s%d", kept[0] ? " " : "", vals[i]);
    }
}

int main(void)
{
    const cl_device_type gpu = CL_DEVICE_TYPE_GPU, cpu = CL_DEVICE_TYPE_CPU;
    const struct {
        const char *what;
        tune_target t;
        const char *offered, *kept;
    } cases[] = {
        {"GPU s n = 8", target(gpu, 1024, 48 << 10, 's', 8), "1 2 4 8 16 32", "1 2 4 8 16 32"},
        {"GPU s n = 64: 32 groups of 64 too many", target(gpu, 1024, 48 << 10, 's', 64), "1 2 4 8 16 32",
         "1 2 4 8 16"},
        {"GPU d n = 128", target(gpu, 1024, 48 << 10, 'd', 128), "1 2 4 8 16 32", "1 2 4 8"},
        {"GPU d n = 64, 2 KiB local: two matrices' keys and rows", target(gpu, 1024, 2048, 'd', 64),
         "1 2 4 8 16 32", "1 2"},
        {"GPU s n = 129: past regs' orders", target(gpu, 1024, 48 << 10, 's', 129), "", ""},
        {"GPU s n = 96, groups of 64: a matrix too many", target(gpu, 64, 48 << 10, 's', 96), "", ""},
        {"GPU d n = 64, 1 KiB local: no matrix fits", target(gpu, 1024, 1000, 'd', 64), "", ""},
        {"CPU s n = 8: GPUs only", target(cpu, 4096, 1 << 20, 's', 8), "", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char offered[200], kept[200];
        sweep(&cases[i].t, offered, kept, sizeof offered);
        CHECK(!strcmp(offered, cases[i].offered) && !strcmp(kept, cases[i].kept),
              "%s: offered \"%s\", kept \"%s\"; wanted \"%s\", \"%s\"", cases[i].what, offered, kept,
              cases[i].offered, cases[i].kept);
        printf("%-50s offered {%s} kept {%s}\n", cases[i].what, offered, kept);
    }
    /* a configuration is a regs config with its tbc, 0 (the driver's group) included */
    for (int tbc = 0; tbc <= 32; tbc += 16) {
        tune_params p;
        int back = -1;
        tune_getrf_regs.to_params(&tbc, &p);
        tune_getrf_regs.from_params(&p, &back);
        CHECK(p.getrf.variant == BCHOL_GETRF_REGS && p.getrf.tbc == tbc && back == tbc,
              "tbc %d: variant %d tbc %d, back %d", tbc, p.getrf.variant, p.getrf.tbc, back);
    }
    CHECK(!strcmp(tune_getrf_regs.name, "getrf-regs") && tune_getrf_regs.lu && tune_getrf_regs.nparams == 1 &&
              !strcmp(tune_getrf_regs.param_names[0], "tbc"),
          "the variant's name, kind or parameter");
    /* interleaved, unroll = full (the other parameters a configuration that nothing else
     * prunes: inb 8, left-looking, chunked by 64, IEEE math) */
    const struct {
        const char *what;
        tune_target t;
        int pruned;
    } full[] = {
        {"CPU s n = 32: full unrolling kept", target(cpu, 4096, 1 << 20, 's', 32), 0},
        {"CPU s n = 33: full unrolling pruned", target(cpu, 4096, 1 << 20, 's', 33), 1},
        {"CPU d n = 64: full unrolling pruned", target(cpu, 4096, 1 << 20, 'd', 64), 1},
        {"GPU s n = 64: full unrolling kept", target(gpu, 1024, 48 << 10, 's', 64), 0},
        {"GPU s n = 65: full unrolling pruned", target(gpu, 1024, 48 << 10, 's', 65), 1},
    };
    for (size_t i = 0; i < sizeof full / sizeof full[0]; i++) {
        tune_params p;
        int c[6];
        p.p = (bchol_params){.variant = BCHOL_VARIANT_INTERLEAVED, .inb = 8, .looking = BCHOL_LOOKING_LEFT,
                             .unroll = BCHOL_UNROLL_FULL, .chunking = BCHOL_CHUNKED, .chunk = 64,
                             .math = BCHOL_MATH_IEEE};
        tune_interleaved.from_params(&p, c);
        char why[200] = "";
        const char *reason = tune_interleaved.prune(c, &full[i].t, why, sizeof why);
        CHECK(!!reason == full[i].pruned, "%s: %s", full[i].what, reason ? why : "not pruned");
        printf("%-50s %s\n", full[i].what, reason ? why : "kept");
        /* the same configuration with loops over tiles is kept everywhere */
        p.p.unroll = BCHOL_UNROLL_TILES;
        tune_interleaved.from_params(&p, c);
        CHECK(!tune_interleaved.prune(c, &full[i].t, why, sizeof why), "%s, unroll = tiles: %s", full[i].what, why);
    }
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
