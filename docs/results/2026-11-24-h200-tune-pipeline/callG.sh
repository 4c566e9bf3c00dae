#!/usr/bin/env bash
# H100: the rechosen shipped H100 file (entries with "between" parameters) against the file
# before: float n = 16..32, double n = 16..64, 5 alternating rounds (bench, the library's
# own choice, batch 16384).
set -u
O=${OUT:-out}
mkdir -p $O
tools/gpu/device_run.sh devices > $O/run.txt 2>&1
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
for round in 1 2 3 4 5; do
  if [ $((round % 2)) = 1 ]; then order="before after"; else order="after before"; fi
  for f in $order; do
    if [ $f = before ]; then F=$PWD/h100-before.json; else F=$PWD/data/tuning/nvidia-h100.json; fi
    echo "== round $round $f s" >> $O/ab.txt
    BCHOL_TUNING_FILE=$F $B bench --precision s --n 17,24 --batch 16384 --explain >> $O/ab.txt 2>&1
    echo "== round $round $f d" >> $O/ab.txt
    BCHOL_TUNING_FILE=$F $B bench --precision d --n 33,40,48,56,63 --batch 16384 --explain >> $O/ab.txt 2>&1
  done
done
head -3 $O/run.txt
python3 - $O/ab.txt <<'P'
import sys, re, statistics as st, collections
d = collections.defaultdict(list); cur = None
for line in open(sys.argv[1]):
    m = re.match(r"== round (\d) (\w+) (\w)", line)
    if m: cur = (m.group(2), m.group(3)); continue
    f = line.split()
    if cur and len(f) > 5 and f[0].isdigit() and f[1].isdigit():
        d[(cur[1], int(f[0]), cur[0])].append(float(f[2]))
print("| precision | n | before ms | after ms | after/before |")
print("|---|---:|---:|---:|---:|")
for (p, n, w) in sorted(k for k in d if k[2] == "before"):
    a = st.median(d[(p, n, "before")]); b = st.median(d[(p, n, "after")])
    print(f"| {p} | {n} | {a:.4f} | {b:.4f} | {b/a:.3f} |")
P
