#!/usr/bin/env bash
# H200: probes between the shipped file's grid sizes (--probes-only --probe-between 4) into
# a copy of the shipped file; then exhaustive fused and separate sweeps at sizes outside the
# new grid (20, 28, 40, 80, 160, 320), reported against that copy.
set -u
O=${OUT:-out}
mkdir -p $O
[ -f probe-h200.json ] || cp data/tuning/nvidia-h200.json probe-h200.json
TUNE_FILE=$PWD/probe-h200.json PROBE_MINUTES=${PROBE_MINUTES:-3.5} OFFGRID_FILE=$PWD/offgrid2-h200.json \
  OFFGRID_SIZES=${OFFGRID_SIZES:-20,28,40,80,160,320} TUNE_MINUTES=${TUNE_MINUTES:-4.5} \
  tools/gpu/device_run.sh devices tune-probe tune-offgrid 2>&1 | tail -60
