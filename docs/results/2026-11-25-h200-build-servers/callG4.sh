#!/usr/bin/env bash
# H200, 2026-11-25 (session 24), at b593c75: (1) the shipped file against fresh5 (the plan
# with build processes that build many configurations and --probe-full-to 32, from an
# empty file) on the bench grid's 13 sizes and at 8 sizes off it, 2 alternating rounds;
# ratio = shipped ms / fresh5 ms (> 1: fresh5 faster); (2) CTest's tune and tuning tests on
# NVIDIA.
set -u
R=${OUT:-out}
O=$R/g4
mkdir -p $O
T0=$(date +%s)
TEST_REGEX='tune|tuning' tools/gpu/device_run.sh test > $O/run-test.txt 2>&1
mv $R/results.tgz $O/results-test.tgz
: > $O/compare-ratios.txt
for sizes in 4,8,16,24,32,48,64,96,128,192,256,384,512 10,14,20,28,40,56,80,160; do
  for p in s d; do
    : > $O/bench-shipped-$p-$sizes.txt; : > $O/bench-fresh5-$p-$sizes.txt
    for round in 1 2; do
      BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=data/tuning/nvidia-h200.json build-gpu/tools/bchol bench --precision $p \
        --n $sizes --explain >> $O/bench-shipped-$p-$sizes.txt 2>&1
      BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=fresh5-h200.json build-gpu/tools/bchol bench --precision $p \
        --n $sizes --explain >> $O/bench-fresh5-$p-$sizes.txt 2>&1
    done
    python3 tools/gpu/rounds_ratio.py $p n 3 $O/bench-shipped-$p-$sizes.txt $O/bench-fresh5-$p-$sizes.txt \
      | tee $O/compare-$p-$sizes.txt
    grep " n=" $O/compare-$p-$sizes.txt >> $O/compare-ratios.txt
  done
done
awk '{ r = $(NF-2); sub(/x$/, "", r); s += log(r); k++ }
     END { if (k) printf "s and d geometric mean shipped/fresh5 %.3fx over %d points\n", exp(s / k), k }' \
  $O/compare-ratios.txt | tee $O/compare.txt
tar -czf $R/all.tgz -C $O .
cp $O/compare-ratios.txt $O/compare.txt $R/
grep -E "tests passed|Failed" $O/run-test.txt | tee $R/ctest.txt
rm -rf $O
echo "total $(( $(date +%s) - T0 )) s"
