#!/usr/bin/env bash
# H200, 2026-11-25 (session 22): (1) the end of the full tuning from an empty file
# (fresh-h200.json, parts 1-2: callS1, callS2); (2) the quarter probes into the shipped
# file (tune-probe, --probe-points 3); (3) the first held-out exhaustive sweeps for issue 6's
# aim 2, at sizes neither in the grid nor probed (resumable, offgrid4-h200.json)
set -u
O=${OUT:-out}
mkdir -p $O
T0=$(date +%s)
TUNE_FILE=fresh-h200.json TUNE_MINUTES=2.5 timeout 200 tools/gpu/device_run.sh tune > $O/run-tune3.txt 2>&1
echo "tune part 3: $(( $(date +%s) - T0 )) s of wall time (build included)"
tail -3 $O/run-tune3.txt; mv $O/results.tgz $O/results-tune3.tgz
t=$(date +%s)
PROBE_MINUTES=4.5 timeout 320 tools/gpu/device_run.sh tune-probe > $O/run-probe.txt 2>&1
echo "shipped probes: $(( $(date +%s) - t )) s"; tail -3 $O/run-probe.txt; mv $O/results.tgz $O/results-probe.tgz
left=$(( 575 - ($(date +%s) - T0) ))
mins=$(python3 -c "print(max(0.5, ($left - 45) / 60))")
OFFGRID_FILE=offgrid4-h200.json OFFGRID_SIZES=22,30,44,60,88,120,176,240 OFFGRID_VARIANTS=fused TUNE_MINUTES=$mins \
  timeout $left tools/gpu/device_run.sh tune-offgrid > $O/run-offgrid.txt 2>&1
tail -4 $O/run-offgrid.txt
