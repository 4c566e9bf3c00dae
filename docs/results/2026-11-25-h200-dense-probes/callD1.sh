#!/usr/bin/env bash
# H200, 2026-11-25 (session 23): issue 6's aims 2 and 3 together. A full tuning from an
# empty file with the tune step's new plan (every fused configuration up to n = 64, dense
# probes up to 64), part 1; then the plan's size (dry run).
set -u
O=${OUT:-out}
mkdir -p $O
t0=$(date +%s)
TUNE_FILE=fresh2-h200.json TUNE_MINUTES=${TUNE_MINUTES:-8.3} TUNE_ARGS="--set unroll=tiles" \
  timeout 575 tools/gpu/device_run.sh tune > $O/run-tune1.txt 2>&1
echo "tune part 1: $(( $(date +%s) - t0 )) s of wall time (builds included)"
BCHOL_DEVICE=nvidia build-gpu/tools/bchol tune --dry-run --n 4,8,16,32,64,128,256,512 --precision sd \
  --variants fused,interleaved,interleaved-native,separate,vbatched,solve --nrhs 1,16 --fraction 0.2 --seed 2026 \
  --set unroll=tiles --full-to fused=64 --probe-between 4 --probe-every-to 64 > $O/dry-run.txt 2>&1
grep "^# [0-9]" $O/dry-run.txt | head -2
grep -v "^#" $O/dry-run.txt | awk '{print $2}' | sort | uniq -c
tail -8 $O/run-tune1.txt
