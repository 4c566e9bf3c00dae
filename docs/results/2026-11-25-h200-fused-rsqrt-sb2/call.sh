#!/usr/bin/env bash
# H200 (session 25): the fused kernels with rsqrt pivots and a double-buffered B block (one
# barrier per update block) against as shipped (BCHOL_FUSED_FAST=1, experiment switch).
# Same build; CTest's potrf and vbatched cases with the switch; then fixed-size fused and
# vbatched (with the padded run) benches, alternating, two rounds.
set -u
R=${OUT:-out}
O=$R/f
mkdir -p $O
T0=$(date +%s)
BCHOL_FUSED_FAST=1 TEST_REGEX='potrf|vbatched' tools/gpu/device_run.sh devices test > $O/run-test.txt 2>&1
mkdir -p $O/t && tar -xzf $R/results.tgz -C $O/t && cp $O/t/ctest-nvidia.log $O/ctest-fast.log && rm -rf $O/t $R/results.tgz
grep -E "tests passed|tests failed" $O/ctest-fast.log
echo "tests: $(( $(date +%s) - T0 )) s"
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
for round in 1 2; do
  for mode in shipped fast; do
    sw=; [ $mode = fast ] && sw=BCHOL_FUSED_FAST=1
    for p in s d; do
      env $sw timeout 60 $B bench --variant fused --precision $p --n 32,64,128,256,384 > $O/fixed-$p-$mode-r$round.txt 2>&1
      env $sw timeout 90 $B bench --vbatched --precision $p --nmax 64,128,256,512 --batch 3000 > $O/vb-$p-$mode-r$round.txt 2>&1
    done
    echo "round $round $mode done: $(( $(date +%s) - T0 )) s"
    [ $(( $(date +%s) - T0 )) -gt 420 ] && break 2
  done
done
tar -czf $R/all.tgz -C $O .
grep -h -E "^ +(256|512) " $O/vb-s-*-r1.txt | cut -c1-150
