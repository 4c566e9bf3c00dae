#!/usr/bin/env bash
# H200, 2026-11-25 (session 23), at 6d79d23: the shipped file against fresh3 (the plan with
# dense probes from an empty file) on the bench grid's 13 sizes, 2 alternating rounds;
# ratio = shipped ms / fresh3 ms (> 1: fresh3 faster)
set -u
O=${OUT:-out}
mkdir -p $O
T0=$(date +%s)
gunzip -c docs/results/2026-11-25-h200-dense-probes/fresh3-h200.json.gz > /tmp/fresh3-h200.json
tools/gpu/device_run.sh devices > $O/run-devices.txt 2>&1
SIZES=4,8,16,24,32,48,64,96,128,192,256,384,512
: > $O/compare-ratios.txt
for p in s d; do
  : > $O/bench-shipped-$p.txt; : > $O/bench-fresh3-$p.txt
  for round in 1 2; do
    BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=data/tuning/nvidia-h200.json build-gpu/tools/bchol bench --precision $p \
      --n $SIZES --explain >> $O/bench-shipped-$p.txt 2>&1
    BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=/tmp/fresh3-h200.json build-gpu/tools/bchol bench --precision $p \
      --n $SIZES --explain >> $O/bench-fresh3-$p.txt 2>&1
  done
  python3 tools/gpu/rounds_ratio.py $p n 3 $O/bench-shipped-$p.txt $O/bench-fresh3-$p.txt | tee $O/compare-$p.txt
  grep " n=" $O/compare-$p.txt >> $O/compare-ratios.txt
done
awk '{ r = $(NF-2); sub(/x$/, "", r); s += log(r); k++ }
     END { if (k) printf "s and d geometric mean shipped/fresh3 %.3fx over %d sizes\n", exp(s / k), k }' \
  $O/compare-ratios.txt | tee $O/compare.txt
echo "total $(( $(date +%s) - T0 )) s"
