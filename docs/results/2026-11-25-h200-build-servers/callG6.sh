#!/usr/bin/env bash
# H200, 2026-11-25 (session 24), at 4216e41+: the shipped file against merged-h200.json (the
# shipped file's records plus fresh5's fused and interleaved records at the sizes 5..63 it
# has none of, entries chosen again: bchol tune --rechoose) on the bench grid's 13 sizes
# and at 14 sizes off it, 2 alternating rounds; ratio = shipped ms / merged ms (> 1:
# merged faster).
set -u
R=${OUT:-out}
O=$R/g4
mkdir -p $O
T0=$(date +%s)
tools/gpu/device_run.sh devices > $O/run-devices.txt 2>&1
rm -f $R/results.tgz
: > $O/compare-ratios.txt
for sizes in 4,8,16,24,32,48,64,96,128,192,256,384,512 7,10,13,14,20,22,28,37,40,45,56,61,80,160; do
  for p in s d; do
    : > $O/bench-shipped-$p-$sizes.txt; : > $O/bench-merged-$p-$sizes.txt
    for round in 1 2; do
      BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=data/tuning/nvidia-h200.json build-gpu/tools/bchol bench --precision $p \
        --n $sizes --explain >> $O/bench-shipped-$p-$sizes.txt 2>&1
      BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=merged-h200.json build-gpu/tools/bchol bench --precision $p \
        --n $sizes --explain >> $O/bench-merged-$p-$sizes.txt 2>&1
    done
    python3 tools/gpu/rounds_ratio.py $p n 3 $O/bench-shipped-$p-$sizes.txt $O/bench-merged-$p-$sizes.txt \
      | tee $O/compare-$p-$sizes.txt
    grep " n=" $O/compare-$p-$sizes.txt >> $O/compare-ratios.txt
  done
done
awk '{ r = $(NF-2); sub(/x$/, "", r); s += log(r); k++ }
     END { if (k) printf "s and d geometric mean shipped/merged %.3fx over %d points\n", exp(s / k), k }' \
  $O/compare-ratios.txt | tee $O/compare.txt
tar -czf $R/all.tgz -C $O .
cp $O/compare-ratios.txt $O/compare.txt $R/
rm -rf $O
echo "total $(( $(date +%s) - T0 )) s"
