#!/usr/bin/env bash
# H200, 2026-11-25 (session 23): issue 6's aims 2 and 3 together. A full tuning from an
# empty file with the tune step's new plan (every fused configuration up to n = 64, dense
# probes up to 64), part 2 (resumes part 1: callD1).
set -u
O=${OUT:-out}
mkdir -p $O
t0=$(date +%s)
TUNE_FILE=fresh2-h200.json TUNE_MINUTES=${TUNE_MINUTES:-8.6} TUNE_ARGS="--set unroll=tiles" \
  timeout 590 tools/gpu/device_run.sh tune > $O/run-tune2.txt 2>&1
echo "tune part 2: $(( $(date +%s) - t0 )) s of wall time (builds included)"
tail -8 $O/run-tune2.txt
