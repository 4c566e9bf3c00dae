#!/usr/bin/env bash
# H200: issue 6's aim 1 on the bench grid's sizes (tools/bench_grid.sh's GPU bands) with
# the shipped file (probes included): tune-check against the NVIDIA defaults and against
# the generic ones, 2 alternating rounds each.
set -u
O=${OUT:-out}
mkdir -p $O
export SIZES=4,8,16,24,32,48,64,96,128,192,256,384,512 TUNE_CHECK_ROUNDS=2
OUT=$O/device tools/gpu/device_run.sh devices tune-check > $O/check-device.txt 2>&1
OUT=$O/generic UNTUNED_DEFAULTS=generic tools/gpu/device_run.sh tune-check > $O/check-generic.txt 2>&1
grep -E "NVIDIA H200|geometric" $O/check-device.txt $O/check-generic.txt
