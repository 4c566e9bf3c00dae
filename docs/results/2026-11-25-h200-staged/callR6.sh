#!/usr/bin/env bash
# H200, 2026-11-25: the interleaved tests (the staged kernel's among them), the strided
# routine's tests and the tuner's tests on the NVIDIA device, with the new H200 file.
set -u
O=${OUT:-out}
mkdir -p $O
TEST_REGEX='ilv|potrf_|tuning|tune_run' timeout 500 tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
grep -E "NVIDIA H|tests passed|Failed|\*\*\*" $O/run.txt | head -20
