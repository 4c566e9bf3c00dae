#!/usr/bin/env bash
# H200, 2026-11-25 (session 23), at 740e18f: (1) part 3 of the full tuning of callE1-E2
# (fresh3-h200.json: the last dense probes); (2) exhaustive fused sweeps at n = 28, float and
# double, with the present kernels (offgrid5-h200.json; the held-out sweep there is from
# 2026-11-24); (3) fresh3 against the generic defaults on the bench grid, 2 rounds (aim 1);
# (4) the tuner's and tuning files' tests on the GPU
set -u
O=${OUT:-out}
mkdir -p $O
T0=$(date +%s)
TUNE_FILE=fresh3-h200.json TUNE_MINUTES=2.5 TUNE_ARGS="--set unroll=tiles" \
  timeout 200 tools/gpu/device_run.sh tune > $O/run-tune3.txt 2>&1
echo "tune part 3: $(( $(date +%s) - T0 )) s of wall time (build included)"
cp fresh3-h200.json $O/fresh3-final.json; mv $O/results.tgz $O/results-tune3.tgz
t=$(date +%s)
OFFGRID_FILE=offgrid5-h200.json OFFGRID_SIZES=28 OFFGRID_VARIANTS=fused TUNE_MINUTES=1.5 TUNE_FILE=fresh3-h200.json \
  timeout 130 tools/gpu/device_run.sh tune-offgrid > $O/run-offgrid.txt 2>&1
echo "offgrid: $(( $(date +%s) - t )) s"; cp offgrid5-h200.json $O/ 2>/dev/null; mv $O/results.tgz $O/results-offgrid.tgz
t=$(date +%s)
left=$(( 470 - (t - T0) ))
TUNE_FILE=fresh3-h200.json UNTUNED_DEFAULTS=generic TUNE_CHECK_ROUNDS=2 SIZES=4,8,16,24,32,48,64,96,128,192,256,384,512 \
  timeout $left tools/gpu/device_run.sh tune-check > $O/run-check.txt 2>&1
echo "tune-check: $(( $(date +%s) - t )) s"; tail -2 $O/run-check.txt; mv $O/results.tgz $O/results-check.tgz
left=$(( 585 - ($(date +%s) - T0) ))
TEST_REGEX="tune|tuning" timeout $left tools/gpu/device_run.sh test > $O/run-test.txt 2>&1
tail -2 $O/run-test.txt; grep -E "tests passed|Failed|\*\*\*" $O/run-test.txt | head -5
