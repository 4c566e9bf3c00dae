/* bchol bench --variant (see bench_variants.h). */
#include "bench_variants.h"
#include "params_text.h"

#include <stdio.h>
#include <string.h>

static const char *const names[] = {"auto", "fused", "separate", "interleaved", "workitem"};

const char *bench_variant_name(bchol_variant v)
{
    return v >= BCHOL_VARIANT_AUTO && v <= BCHOL_VARIANT_WORKITEM ? names[v] : "?";
}

int bench_parse_variants(const char *text, bchol_variant *out)
{
    int count = 0;
    const char *s = text;
    while (*s) {
        size_t len = strcspn(s, ",");
        int found = -1;
        for (int v = 0; v <= BCHOL_VARIANT_WORKITEM; v++)
            if (strlen(names[v]) == len && !strncmp(s, names[v], len)) found = v;
        if (found < 0 || count == BENCH_MAX_VARIANTS) return -1;
        out[count++] = (bchol_variant)found;
        s += len;
        if (*s == ',') s++;
    }
    return count ? count : -1;
}

int bench_parse_gemm(const char *text)
{
    if (!strcmp(text, "own")) return BCHOL_GEMM_OWN;
    if (!strcmp(text, "clblast")) return BCHOL_GEMM_CLBLAST;
    return -1;
}

void bench_params_text(const bchol_params *u, char *text, size_t size)
{
    if (u->variant == BCHOL_VARIANT_SEPARATE)
        snprintf(text, size, "separate nb%d pb%d %s t%d", u->nb, u->pb,
                 u->gemm == BCHOL_GEMM_CLBLAST ? "clblast" : "own", u->tile);
    else if (u->variant == BCHOL_VARIANT_WORKITEM)
        snprintf(text, size, "workitem nb%d v%d mr%d g%d", u->wnb, u->wvec, u->wmr, u->wgroup);
    else if (u->variant == BCHOL_VARIANT_INTERLEAVED)
        snprintf(text, size, "interleaved nb%d %s %s c%d", u->inb, util_param_name("looking", u->looking),
                 util_param_name("unroll", u->unroll), u->chunk);
    else
        snprintf(text, size, "fused ib%d tbc%d rpt%d %s", u->ib, u->tbc, u->rpt,
                 u->shape == BCHOL_SHAPE_FIXED ? "fixed" : "shrink");
    if (u->variant == BCHOL_VARIANT_SEPARATE && u->gemm == BCHOL_GEMM_CLBLAST) {
        size_t len = strlen(text);
        snprintf(text + len, size - len, " gb%d", u->gb);
    }
}

void bench_crossover_add(bench_crossover *c, int n, bchol_variant v, double gflops, bchol_variant chosen)
{
    int i = c->count - 1;
    if (i < 0 || c->n[i] != n) {
        if (c->count == 256) return;
        i = c->count++;
        c->n[i] = n;
        for (int k = 0; k <= BENCH_MAX_VARIANTS; k++) c->gflops[i][k] = 0;
    }
    c->gflops[i][v] = gflops;
    c->chosen[i] = chosen;
}

void bench_crossover_print(const bench_crossover *c)
{
    const int F = BCHOL_VARIANT_FUSED, S = BCHOL_VARIANT_SEPARATE, A = BCHOL_VARIANT_AUTO;
    int both = 0, first_sep = -1, last_fused = -1, have_auto = 0;
    printf("# faster variant per n:");
    for (int i = 0; i < c->count; i++) {
        if (c->gflops[i][A] > 0) have_auto = 1;
        if (c->gflops[i][F] <= 0 || c->gflops[i][S] <= 0) continue;
        both = 1;
        int sep = c->gflops[i][S] > c->gflops[i][F];
        printf(" %d %s (%.2fx)", c->n[i], sep ? "separate" : "fused",
               sep ? c->gflops[i][S] / c->gflops[i][F] : c->gflops[i][F] / c->gflops[i][S]);
        if (sep && first_sep < 0) first_sep = c->n[i];
        if (!sep) last_fused = c->n[i];
    }
    if (!both) printf(" (run both fused and separate to compare)");
    printf("\n");
    if (both) {
        if (first_sep < 0)
            printf("# measured crossover: fused is faster at every n measured\n");
        else
            printf("# measured crossover: separate is first faster at n = %d (fused last faster at %s%d)\n",
                   first_sep, last_fused < 0 ? "none; " : "n = ", last_fused < 0 ? 0 : last_fused);
    }
    printf("# dispatcher (auto):");
    for (int i = 0; i < c->count; i++) printf(" %d %s", c->n[i], bench_variant_name(c->chosen[i]));
    printf("\n");
    if (have_auto && both) {
        /* how far auto is from the better of the two variants */
        double worst = 1;
        int at = 0;
        for (int i = 0; i < c->count; i++) {
            double best = c->gflops[i][F] > c->gflops[i][S] ? c->gflops[i][F] : c->gflops[i][S];
            if (c->gflops[i][A] > 0 && best > 0 && c->gflops[i][A] / best < worst) {
                worst = c->gflops[i][A] / best;
                at = c->n[i];
            }
        }
        printf("# auto vs the better variant: worst %.1f%% at n = %d\n", 100 * worst, at);
    }
}
