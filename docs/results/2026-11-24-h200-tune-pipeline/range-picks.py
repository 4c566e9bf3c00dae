#!/usr/bin/env python3
"""Offline, from measured sweeps only: what a tuning entry chosen for the sizes between two
grid points would pick. Among the fused configurations measured at both ends (16 and 32,
64 and 128, 256 and 512) in the shipped H200 file, take the one whose worse ratio to its
end's best is smallest (minimax); then look it up in the exhaustive off-grid sweep
(24, 96, 384) and compare it with that size's best. Sweep medians (ms), not confirmation
rounds. Usage: range-picks.py SHIPPED.json OFFGRID.json[.gz]"""
import gzip, json, sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    return json.load(opener(path, "rt"))["devices"][0]["tried"]


def times(tried, p, n):
    return {json.dumps(r["params"], sort_keys=True): r["ms"] for r in tried
            if r["precision"] == p and r["variant"] == "fused" and r["n"] == n and "ms" in r}


ship, off = load(sys.argv[1]), load(sys.argv[2])
print("| precision | range | off-grid n | minimax pick | ratio at the ends | ratio at n |")
print("|---|---|---:|---|---|---:|")
for p in "sd":
    for lo, hi, mid in ((16, 32, 24), (64, 128, 96), (256, 512, 384)):
        a, b, m = times(ship, p, lo), times(ship, p, hi), times(off, p, mid)
        best = None
        for k in a:
            if k not in b:
                continue
            ra, rb = a[k] / min(a.values()), b[k] / min(b.values())
            if best is None or max(ra, rb) < best[0]:
                best = (max(ra, rb), k, ra, rb)
        _, k, ra, rb = best
        at = "%.3f" % (m[k] / min(m.values())) if k in m else "not measured"
        print(f"| {p} | {lo}-{hi} | {mid} | {k} | {ra:.3f}, {rb:.3f} | {at} |")
