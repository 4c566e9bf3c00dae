#!/usr/bin/env bash
# H200: vbatched in one launch (BCHOL_VB_ALL experiment) against the per-step launches;
# the floor of a one-launch call
set -u
O=$OUT
tools/gpu/device_run.sh devices > $O/devices.txt 2>&1 || { tail -30 $O/build.log; exit 1; }
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
$B bench --n 4,8 --batch 1 --variant fused --reps 50 2>&1 | grep -v warnings > $O/floor.txt
for round in 1 2; do
  for p in s d; do
    echo "== round $round $p steps" >> $O/vb.txt
    $B bench --vbatched --precision $p --nmax 32,64,128,256 --batch 3000 2>&1 | grep -v warnings >> $O/vb.txt
    echo "== round $round $p all" >> $O/vb.txt
    BCHOL_VB_ALL=1 $B bench --vbatched --precision $p --nmax 32,64,128,256 --batch 3000 --tbc 0,1,2,4,8 --no-pad 2>&1 | grep -v warnings >> $O/vb.txt
  done
done
cat $O/floor.txt | tail -3
grep -E "^==|^ +(32|64|128|256) " $O/vb.txt | awk '/^==/{h=$0; next}{print h, "nmax", $1, "tbc", $4, $5, "gc", $7, "ga", $8, "lc", $9, "la", $10, "pad", $11, "ms", $12, $13}'
