#!/usr/bin/env bash
# H200, 2026-11-25 (session 23): part 3 of the full tuning of callD1-D2 (fresh2-h200.json,
# the rest of the dense probes), then the tuner's and tuning files' tests on the GPU
set -u
O=${OUT:-out}
mkdir -p $O
t0=$(date +%s)
TUNE_FILE=fresh2-h200.json TUNE_MINUTES=4.5 TUNE_ARGS="--set unroll=tiles" \
  timeout 330 tools/gpu/device_run.sh tune > $O/run-tune3.txt 2>&1
echo "tune part 3: $(( $(date +%s) - t0 )) s of wall time (builds included)"
tail -4 $O/run-tune3.txt; mv $O/results.tgz $O/results-tune3.tgz
t=$(date +%s)
TEST_REGEX="tune|tuning" timeout 150 tools/gpu/device_run.sh test > $O/run-test.txt 2>&1
echo "tests: $(( $(date +%s) - t )) s"; tail -3 $O/run-test.txt; mv $O/results.tgz $O/results-test.tgz
