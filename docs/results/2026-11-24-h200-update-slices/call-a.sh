#!/usr/bin/env bash
# H200: update slices (ksplit) on vbatched nmax 128/256 and fixed n 128/256, A/B rounds
set -u
O=$OUT
tools/gpu/device_run.sh devices > $O/devices.txt 2>&1 || { tail -30 $O/build.log; exit 1; }
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
for round in 1 2; do
  for p in s d; do
    for ks in 1 2 4 8; do
      echo "== round $round $p ks $ks" >> $O/vb.txt
      $B bench --vbatched --precision $p --nmax 128,256 --batch 3000 --ksplit $ks 2>&1 | grep -v warnings >> $O/vb.txt
    done
  done
done
for p in s d; do
  for ks in 1 2 4 8; do
    for b in 100 3000; do
      echo "== $p ks $ks batch $b" >> $O/fixed.txt
      $B bench --precision $p --n 64,128,256 --batch $b --variant fused --ksplit $ks 2>&1 | grep -v warnings >> $O/fixed.txt
    done
  done
done
grep -E "^==|^ +(64|128|256) " $O/fixed.txt | awk '/^==/{h=$0; next}{print h, $1, $3}' > $O/fixed-short.txt
cat $O/fixed-short.txt
grep -E "^==|^ +(128|256) " $O/vb.txt | awk '/^==/{h=$0; next}{print h, "nmax", $1, "gc", $7, "ga", $8, "lc", $9, "la", $10, "pad", $11, "ms", $12, $13}'
