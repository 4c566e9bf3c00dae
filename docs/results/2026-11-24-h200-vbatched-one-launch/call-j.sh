#!/usr/bin/env bash
# H200: the NVIDIA defaults (no tuning file): the default version (lazy) against one launch
# for every step with the same parameters, nmax 4..64 at batch 16384 and 128 at 3000, 4 rounds
set -u
O=$OUT
tools/gpu/device_run.sh devices > $O/devices.txt 2>&1 || { tail -30 $O/build.log; exit 1; }
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=off
for round in 1 2 3 4; do
  for p in s d; do
    for band in 4,8,16,32,64@16384 128@3000; do
      echo "== round $round $p" >> $O/defaults.txt
      $B bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} --no-pad 2>&1 | grep -v warnings >> $O/defaults.txt
    done
  done
done
python3 - $O/defaults.txt <<'P'
import sys, re, statistics as st, collections
d = collections.defaultdict(list); cur = None
for line in open(sys.argv[1]):
    m = re.match(r"== round (\d) (\w)", line)
    if m: cur = m.group(2); continue
    f = line.split()
    if cur and f and f[0].isdigit() and len(f) > 18:
        names = ["greedy-cl", "greedy-ag", "lazy-cl", "lazy-ag"]
        g = dict(zip(names, map(float, f[6:10])))
        g["one-cl"], g["one-ag"] = float(f[17]), float(f[18])
        d[(cur, int(f[0]))].append((g[f[16]], g["one-cl"], g["one-ag"], f[16]))
print("| precision | nmax | default version | its Gflop/s | one-cl | one-ag | best one / default |")
print("|---|---:|---|---:|---:|---:|---:|")
for p in "sd":
    for nm in (4, 8, 16, 32, 64, 128):
        v = d[(p, nm)]
        a, b, c = (st.median(x[i] for x in v) for i in range(3))
        print(f"| {p} | {nm} | {v[0][3]} | {a:.1f} | {b:.1f} | {c:.1f} | {max(b, c) / a:.2f} |")
P
