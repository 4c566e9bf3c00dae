#!/usr/bin/env bash
# H200, 2026-11-25 (session 22): the staged kernel after d15b623 (its launch through
# bchol__launch_groups) and the tuner's tests on the NVIDIA device; then the first part of a
# full tuning from an empty file with the shipped plan (issue 6's aim 3), into fresh-h200.json
set -u
O=${OUT:-out}
mkdir -p $O
start=$(date +%s)
TEST_REGEX='staged|tune_run|tuning' timeout 190 tools/gpu/device_run.sh devices test > $O/run-test.txt 2>&1
grep -E "NVIDIA H|tests passed|Failed|\*\*\*" $O/run-test.txt | head -20
mv $O/results.tgz $O/results-test.tgz
echo "tests took $(( $(date +%s) - start )) s"
t0=$(date +%s)
TUNE_FILE=fresh-h200.json TUNE_ARGS="--set unroll=tiles" TUNE_MINUTES=${TUNE_MINUTES:-5.5} \
  timeout 385 tools/gpu/device_run.sh tune > $O/run-tune1.txt 2>&1
echo "tune part 1: $(( $(date +%s) - t0 )) s of wall time (build included)"
tail -12 $O/run-tune1.txt
