#!/usr/bin/env bash
# H200, 2026-11-25 (session 24), at 22979b1 (build processes that build many
# configurations): (1) CTest's build-process tests on NVIDIA; (2) the fused sweep at float
# n = 28 with cold caches and 15 build processes, as callF2's T4 (44 s with a process per
# build); (3) a full tuning from an empty file with the tune step's plan, part 1.
set -u
R=${OUT:-out}
O=$R/g
mkdir -p $O
T0=$(date +%s)
TEST_REGEX='tune_run_build|tune_run_shared|tune_run$' tools/gpu/device_run.sh test > $O/run-test.txt 2>&1
mv $R/results.tgz $O/results-test.tgz
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
CUDA_CACHE_PATH=/tmp/cc-G1 BCHOL_CACHE_DIR=/tmp/bc-G1 /usr/bin/time -f "n 28 jobs 16 cold: %e s" \
  $B tune --n 28 --precision s --variants fused --jobs 16 --build-timeout 30 --output $O/n28.json --seed 1 2> $O/n28.log
tail -2 $O/n28.log >> $O/measure.txt; grep "n 28" $O/n28.log >> $O/measure.txt
t0=$(date +%s)
left=$(( 585 - (t0 - T0) ))
TUNE_FILE=fresh4-h200.json TUNE_MINUTES=$(python3 -c "print(round(($left - 40) / 60, 1))") TUNE_ARGS="--set unroll=tiles" \
  timeout $left tools/gpu/device_run.sh tune > $O/run-tune1.txt 2>&1
echo "tune part 1: $(( $(date +%s) - t0 )) s of wall time (builds included)" >> $O/measure.txt
cp fresh4-h200.json $O/ 2>/dev/null
mv $R/results.tgz $O/results-tune1.tgz
tail -4 $O/run-tune1.txt >> $O/measure.txt
tar -czf $R/all.tgz -C $O .
cp $O/measure.txt $R/
cp fresh4-h200.json $R/ 2>/dev/null
rm -rf $O
cat $R/measure.txt
echo "total $(( $(date +%s) - T0 )) s"
