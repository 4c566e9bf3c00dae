#!/usr/bin/env bash
# H100: probes between the shipped H100 file's grid sizes (--probes-only --probe-between 4)
# into a copy of it; then whole calls with that copy ("probe") against the shipped file
# ("shipped"), 3 alternating rounds, bench with the library's choice, at sizes between the
# grid's and at the grid's own.
set -u
O=${OUT:-out}
mkdir -p $O
TUNE_FILE=$PWD/probe-h100.json PROBE_MINUTES=4 tools/gpu/device_run.sh devices tune-probe > $O/run.txt 2>&1
cp probe-h100.json $O/
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
export BCHOL_DEVICE=nvidia
SIZES=4,6,8,12,16,20,24,28,32,40,48,64,80,96,128,160,192,256,320,384,512
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="shipped probe"; else order="probe shipped"; fi
  for f in $order; do
    if [ $f = shipped ]; then F=$PWD/h100-before.json; else F=$PWD/probe-h100.json; fi
    for p in s d; do
      echo "== round $round $f $p" >> $O/ab.txt
      BCHOL_TUNING_FILE=$F $B bench --precision $p --n $SIZES --explain >> $O/ab.txt 2>&1
    done
  done
done
grep -E "NVIDIA H|exit status|configurations in" $O/run.txt | head -5
python3 tools/gpu/ab_rounds.py shipped probe $O/ab.txt
