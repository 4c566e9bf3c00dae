#!/usr/bin/env bash
# H200: the whole CTest suite on the NVIDIA device; then whole calls at the grid's sizes
# with the shipped file (probes) against the file before ("before"), 3 alternating rounds.
set -u
O=${OUT:-out}
mkdir -p $O
tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
export BCHOL_DEVICE=nvidia
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="before probe"; else order="probe before"; fi
  for f in $order; do
    if [ $f = before ]; then F=$PWD/h200-before.json; else F=$PWD/data/tuning/nvidia-h200.json; fi
    for p in s d; do
      echo "== round $round $f $p" >> $O/ab.txt
      BCHOL_TUNING_FILE=$F $B bench --precision $p --n 4,8,16,32,64,128,256,512 --explain >> $O/ab.txt 2>&1
    done
  done
done
grep -E "NVIDIA H|tests passed|Failed|\*\*\*" $O/run.txt | head -12
python3 tools/gpu/ab_rounds.py before probe $O/ab.txt
