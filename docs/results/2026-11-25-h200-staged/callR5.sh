#!/usr/bin/env bash
# H200, 2026-11-25: issue 6's aim 2 on sizes held out from the choice of the between rule
# (n = 36, 56, 112, 224: none in the tuning grid, among the probes or in the sweeps the
# rule was chosen on): exhaustive fused and separate sweeps there, then the shipped file's
# picks against the best of each sweep.
set -u
O=${OUT:-out}
mkdir -p $O
OFFGRID_FILE=$PWD/offgrid3-h200.json OFFGRID_SIZES=36,56,112,224 TUNE_MINUTES=6.3 \
  timeout 560 tools/gpu/device_run.sh tune-offgrid > $O/run.txt 2>&1
cp offgrid3-h200.json $O/ 2>/dev/null
tail -30 $O/run.txt
