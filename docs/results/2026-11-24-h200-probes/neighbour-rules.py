#!/usr/bin/env python3
"""Offline, from measured sweeps only: how well rules that see only the two neighbouring
grid sizes pick a fused configuration for a size between them. For each off-grid size of
the exhaustive sweeps, each rule picks among the configurations measured at both
neighbours (sweep medians), and the pick's time at the off-grid size is compared with that
size's best. Rules: the best at the size below ("below"), the smallest worse ratio to the
two ends' best ("minimax", what "between" entries hold), the smallest geometric mean of
the two ratios, and the ratios interpolated in log scale by distance. "oracle" is the best
any configuration measured at both neighbours does there: no such rule can do better.
Usage: neighbour-rules.py GRID_OLD OFFGRID_OLD GRID_PROBES OFFGRID_NEW
(GRID_OLD: the H200 file before the probes, with the off-grid sweep at 24, 96, 384;
GRID_PROBES: the file with them, with the off-grid sweep at 20, 28, 40, 80, 160, 320)"""
import gzip, json, math, sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    return json.load(opener(path, "rt"))["devices"][0]["tried"]


def times(tried, p, n):
    return {json.dumps(r["params"], sort_keys=True): r["ms"] for r in tried
            if r["precision"] == p and r["variant"] == "fused" and r["n"] == n and "ms" in r and "failed" not in r}


RULES = {
    "below": lambda ra, rb, w: (ra, rb),
    "minimax": lambda ra, rb, w: max(ra, rb),
    "geomean": lambda ra, rb, w: ra * rb,
    "interp": lambda ra, rb, w: (1 - w) * math.log(ra) + w * math.log(rb),
}
g_old, o_old, g_new, o_new = (load(p) for p in sys.argv[1:5])
cases = [(g_old, o_old, lo, n, hi) for lo, n, hi in ((16, 24, 32), (64, 96, 128), (256, 384, 512))]
cases += [(g_new, o_new, lo, n, hi) for lo, n, hi in
          ((16, 20, 24), (24, 28, 32), (32, 40, 48), (64, 80, 96), (128, 160, 192), (256, 320, 384))]
print("| precision | n | between | " + " | ".join(RULES) + " | oracle |")
print("|---|---:|---|" + "---:|" * (len(RULES) + 1))
found = {r: [] for r in list(RULES) + ["oracle"]}
for p in "sd":
    for grid, off, lo, n, hi in cases:
        a, b, m = times(grid, p, lo), times(grid, p, hi), times(off, p, n)
        both = [k for k in a if k in b and k in m]
        if not both:
            continue
        ma, mb, mm = min(a.values()), min(b.values()), min(m.values())
        w = (n - lo) / (hi - lo)
        row = []
        for name, score in RULES.items():
            k = min(both, key=lambda k: score(a[k] / ma, b[k] / mb, w))
            row.append(m[k] / mm)
            found[name].append(m[k] / mm)
        row.append(min(m[k] for k in both) / mm)
        found["oracle"].append(row[-1])
        print(f"| {p} | {n} | {lo}-{hi} | " + " | ".join(f"{x:.3f}" for x in row) + " |")
for name, xs in found.items():
    gm = math.exp(sum(map(math.log, xs)) / len(xs))
    print(f"{name}: geometric mean {gm:.3f}, worst {max(xs):.3f}, within 5% at {sum(x <= 1.05 for x in xs)} of {len(xs)}")
