#!/usr/bin/env bash
# H200, 2026-11-25 (session 22), at the tree of the revert (af0d66f + OFFGRID_VARIANTS):
# (1) the rest of the held-out exhaustive fused sweeps (offgrid4-h200.json, begun in callS3)
#     and the shipped file's picks there (issue 6's aim 2);
# (2) the midpoint probes of the shipped plan on the full tuning's grid records
#     (fresh-grid-h200.json: fresh-h200.json of callS1-S3 without its quarter probes), timed
#     (aim 3);
# (3) that freshly tuned file against the generic defaults, 2 rounds, the bench grid (aim 1)
set -u
O=${OUT:-out}
mkdir -p $O
T0=$(date +%s)
OFFGRID_FILE=offgrid4-h200.json OFFGRID_SIZES=22,30,44,60,88,120,176,240 OFFGRID_VARIANTS=fused TUNE_MINUTES=2.5 \
  timeout 200 tools/gpu/device_run.sh tune-offgrid > $O/run-offgrid.txt 2>&1
echo "offgrid: $(( $(date +%s) - T0 )) s"; tail -3 $O/run-offgrid.txt; mv $O/results.tgz $O/results-offgrid.tgz
t=$(date +%s)
TUNE_FILE=fresh-grid-h200.json PROBE_MINUTES=3.5 timeout 250 tools/gpu/device_run.sh tune-probe > $O/run-probe.txt 2>&1
echo "fresh midpoint probes: $(( $(date +%s) - t )) s"; tail -3 $O/run-probe.txt; mv $O/results.tgz $O/results-probe.tgz
left=$(( 580 - ($(date +%s) - T0) ))
TUNE_FILE=fresh-grid-h200.json UNTUNED_DEFAULTS=generic TUNE_CHECK_ROUNDS=2 SIZES=4,8,16,24,32,48,64,96,128,192,256,384,512 \
  timeout $left tools/gpu/device_run.sh tune-check > $O/run-check.txt 2>&1
tail -3 $O/run-check.txt
