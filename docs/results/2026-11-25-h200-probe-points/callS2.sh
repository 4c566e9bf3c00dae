#!/usr/bin/env bash
# H200, 2026-11-25 (session 22): the full tuning from an empty file, part 2 (issue 6's aim
# 3): resumes fresh-h200.json (part 1: callS1) with the plan of the tune step, now probing
# the quarters between the grid's sizes (--probe-points 3)
set -u
O=${OUT:-out}
mkdir -p $O
t0=$(date +%s)
TUNE_FILE=fresh-h200.json TUNE_MINUTES=${TUNE_MINUTES:-9.0} \
  timeout 585 tools/gpu/device_run.sh tune > $O/run-tune2.txt 2>&1
echo "tune part 2: $(( $(date +%s) - t0 )) s of wall time (build included)"
tail -12 $O/run-tune2.txt
