#!/usr/bin/env bash
# H200, 2026-11-25 (session 24), at b593c75: the full tuning of callG2 resumed to its end
# (fresh5-h200.json), then tune-check against the generic defaults (2 alternating rounds,
# the bench grid's 13 sizes).
set -u
R=${OUT:-out}
T0=$(date +%s)
TUNE_FILE=fresh5-h200.json TUNE_MINUTES=6.5 TUNE_ARGS="--set unroll=tiles" UNTUNED_DEFAULTS=generic \
  TUNE_CHECK_ROUNDS=2 SIZES=4,8,16,24,32,48,64,96,128,192,256,384,512 \
  timeout 590 tools/gpu/device_run.sh tune tune-check > $R/run-tune2.txt 2>&1
echo "tune part 2 and tune-check: $(( $(date +%s) - T0 )) s of wall time"
cp fresh5-h200.json $R/ 2>/dev/null
mv $R/results.tgz $R/results-tune2.tgz
grep -E "complete|stopped|configurations in" $R/run-tune2.txt | tail -3
tail -3 $R/run-tune2.txt
