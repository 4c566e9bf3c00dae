#!/usr/bin/env bash
# H200: (1) the rest of the exhaustive off-grid sweep (20, 28, 40, 80, 160, 320) reported
# against the file with probes; (2) the tuning tests on the NVIDIA device; (3) whole calls
# with the file with probes ("probe") against the shipped file ("shipped"), 3 alternating
# rounds, bench with the library's choice at sizes between the old grid's.
set -u
O=${OUT:-out}
mkdir -p $O
OFFGRID_FILE=$PWD/offgrid2-h200.json OFFGRID_SIZES=20,28,40,80,160,320 TUNE_FILE=$PWD/probe-h200.json \
  TUNE_MINUTES=${TUNE_MINUTES:-4.8} TEST_REGEX='tuning|tune_run' tools/gpu/device_run.sh tune-offgrid test > $O/run.txt 2>&1
cp offgrid2-h200.json $O/
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
$B tune --report offgrid2-h200.json --against data/tuning/nvidia-h200.json > $O/offgrid2-vs-shipped.txt 2>&1
export BCHOL_DEVICE=nvidia
SIZES=6,12,20,24,28,40,48,80,96,160,192,320,384
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="shipped probe"; else order="probe shipped"; fi
  for f in $order; do
    if [ $f = shipped ]; then F=$PWD/data/tuning/nvidia-h200.json; else F=$PWD/probe-h200.json; fi
    for p in s d; do
      echo "== round $round $f $p" >> $O/ab.txt
      BCHOL_TUNING_FILE=$F $B bench --precision $p --n $SIZES --explain >> $O/ab.txt 2>&1
    done
  done
done
grep -E "exit status|configurations in|tests passed|Failed" $O/run.txt | head -8
grep -A9 "picks of" $O/offgrid2-vs-shipped.txt | grep -E "^ +[0-9]+ +[0-9]+ |within" | head -20
python3 - $O/ab.txt <<'P'
import sys, re, statistics as st, collections
d = collections.defaultdict(list); cur = None
for line in open(sys.argv[1]):
    m = re.match(r"== round (\d) (\w+) (\w)", line)
    if m: cur = (m.group(2), m.group(3)); continue
    f = line.split()
    if cur and len(f) > 5 and f[0].isdigit() and f[1].isdigit():
        d[(cur[1], int(f[0]), cur[0])].append(float(f[2]))
print("| precision | n | shipped ms | probe ms | probe/shipped |")
print("|---|---:|---:|---:|---:|")
for (p, n, w) in sorted(k for k in d if k[2] == "shipped"):
    a = st.median(d[(p, n, "shipped")]); b = st.median(d[(p, n, "probe")])
    print(f"| {p} | {n} | {a:.4f} | {b:.4f} | {b/a:.3f} |")
P
