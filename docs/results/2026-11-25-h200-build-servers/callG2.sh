#!/usr/bin/env bash
# H200, 2026-11-25 (session 24), at b593c75: a full tuning from an empty file with the tune
# step's plan, now with every fused configuration at the probed sizes up to 32
# (--probe-full-to 32), part 1.
set -u
R=${OUT:-out}
T0=$(date +%s)
TUNE_FILE=fresh5-h200.json TUNE_MINUTES=9.0 TUNE_ARGS="--set unroll=tiles" \
  timeout 585 tools/gpu/device_run.sh tune > $R/run-tune1.txt 2>&1
echo "tune part 1: $(( $(date +%s) - T0 )) s of wall time (builds included)"
cp fresh5-h200.json $R/ 2>/dev/null
mv $R/results.tgz $R/results-tune1.tgz
tail -4 $R/run-tune1.txt
