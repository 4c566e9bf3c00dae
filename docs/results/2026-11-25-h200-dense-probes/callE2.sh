#!/usr/bin/env bash
# H200, 2026-11-25 (session 23), at 740e18f: issue 6's aims 2 and 3 together. A full tuning
# from an empty file with the tune step's plan (every fused configuration up to n = 64, the
# midpoints, then every other size up to 64 between its nearest measured ones), part 2 (resumes callE1).
set -u
O=${OUT:-out}
mkdir -p $O
t0=$(date +%s)
TUNE_FILE=fresh3-h200.json TUNE_MINUTES=${TUNE_MINUTES:-9.2} TUNE_ARGS="--set unroll=tiles" \
  timeout 588 tools/gpu/device_run.sh tune > $O/run-tune2.txt 2>&1
echo "tune part 2: $(( $(date +%s) - t0 )) s of wall time (builds included)"
tail -4 $O/run-tune2.txt
cp fresh3-h200.json $O/fresh3-after.json; grep -E "configurations in|complete|stopped" $O/tune.log 2>/dev/null | tail -3
