#!/usr/bin/env bash
# H200 (session 25): the fused kernels' local memory: tbc * max(rows, IB) * IB elements
# (as shipped) against the IB * IB they use (BCHOL_FUSED_LOCAL_IB=1, experiment switch).
# Same build; CTest's fused and vbatched cases with the switch; then fixed-size fused and
# vbatched benches, alternating, two rounds.
set -u
R=${OUT:-out}
O=$R/l
mkdir -p $O
T0=$(date +%s)
BCHOL_FUSED_LOCAL_IB=1 TEST_REGEX='potrf|vbatched|vbsep|posv' tools/gpu/device_run.sh devices test > $O/run-test.txt 2>&1
mkdir -p $O/t && tar -xzf $R/results.tgz -C $O/t && cp $O/t/ctest-nvidia.log $O/ctest-local-ib.log && rm -rf $O/t $R/results.tgz
grep -E "tests passed|tests failed" $O/ctest-local-ib.log
echo "tests: $(( $(date +%s) - T0 )) s"
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
for round in 1 2; do
  for mode in full ib; do
    sw=; [ $mode = ib ] && sw=BCHOL_FUSED_LOCAL_IB=1
    for p in s d; do
      env $sw timeout 100 $B bench --variant fused --precision $p --n 32,64,96,128,192,256,320,384 > $O/fixed-$p-$mode-r$round.txt 2>&1
      env $sw timeout 100 $B bench --vbatched --no-pad --precision $p --nmax 64,128,256,512 --batch 3000 > $O/vb-$p-$mode-r$round.txt 2>&1
    done
    echo "round $round $mode done: $(( $(date +%s) - T0 )) s"
  done
done
tar -czf $R/all.tgz -C $O .
for f in $O/fixed-s-full-r1.txt $O/vb-s-full-r1.txt; do echo "== $f"; cat $f | head -20; done
