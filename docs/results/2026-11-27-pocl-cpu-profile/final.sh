#!/bin/sh
# The final comparison: before's automatic choice (interleaved at n = 32, 64; fused at
# 128..512, forced), the new automatic choice (workitem), the LAPACK loop, 3 rounds.
B=/work/wt-cpu/build/tools/bchol
OUT=/work/wt-cpu/docs/results/2026-11-27-pocl-cpu-profile
cd /work/wt-cpu/build
for r in 1 2 3; do
  for p in s d; do
    { date -u; uptime; git -C /work/wt-cpu rev-parse --short HEAD
      $B bench --n 32,64 --precision $p --variant interleaved,auto --compare lapack --reps 5 --warmup 1
      $B bench --n 128,256,512 --precision $p --variant fused,auto --compare lapack --reps 3 --warmup 1 --batch 1000
      uptime; } > $OUT/final-$p-r$r.txt 2>&1
  done
done
$B bench --n 32,64,128,256,512 --precision s --explain --reps 1 --warmup 0 --batch 8 > $OUT/explain-s.txt 2>&1
$B bench --n 32,64,128,256,512 --precision d --explain --reps 1 --warmup 0 --batch 8 > $OUT/explain-d.txt 2>&1
