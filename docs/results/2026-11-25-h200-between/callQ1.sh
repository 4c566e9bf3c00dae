#!/usr/bin/env bash
# H200, 2026-11-25, at 1d78b83: (1) the tuner's tests and the interleaved fast-math tests
# on the NVIDIA device (records' times stored as read back, the new between pick, the
# fast-math flag); (2) whole calls at sizes between the H200 file's entries with the
# rechosen file ("new") against the file before ("before", 46b1e22), 3 alternating rounds.
set -u
O=${OUT:-out}
mkdir -p $O
TEST_REGEX='tune_run|tuning|ilv_defaults_fast' timeout 170 tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
export BCHOL_DEVICE=nvidia
SIZES=7,10,20,28,36,40,44,52,60,200,224
end=$((SECONDS + 170))
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="before new"; else order="new before"; fi
  for f in $order; do
    if [ $f = before ]; then F=$PWD/h200-before.json; else F=$PWD/data/tuning/nvidia-h200.json; fi
    for p in s d; do
      [ $SECONDS -lt $end ] || break 3
      echo "== round $round $f $p" >> $O/ab.txt
      BCHOL_TUNING_FILE=$F $B bench --precision $p --n $SIZES --explain >> $O/ab.txt 2>&1
    done
  done
done
grep -E "NVIDIA H|tests passed|Failed|\*\*\*" $O/run.txt | head -12
python3 tools/gpu/ab_rounds.py before new $O/ab.txt
