#!/usr/bin/env bash
# H200, 2026-11-25: issue 6's aim 1 with the file that has the staged entries: tune-check at
# the bench grid's GPU sizes against the generic defaults (what bchol runs on a device it
# does not know), 2 alternating rounds; then, as time allows, against the NVIDIA defaults.
set -u
O=${OUT:-out}
mkdir -p $O
export SIZES=4,8,16,24,32,48,64,96,128,192,256,384,512 TUNE_CHECK_ROUNDS=2
OUT=$O/generic UNTUNED_DEFAULTS=generic timeout 420 tools/gpu/device_run.sh devices tune-check > $O/check-generic.txt 2>&1
OUT=$O/device timeout 130 tools/gpu/device_run.sh tune-check > $O/check-device.txt 2>&1
grep -E "NVIDIA H200|geometric" $O/check-generic.txt $O/check-device.txt
