#!/usr/bin/env bash
# H200: the tuner's tests on the NVIDIA device after tune_run_probes checks roles, not an
# exact set (it had failed there in callP8).
set -u
O=${OUT:-out}
mkdir -p $O
TEST_REGEX='tune_run|tuning' tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
grep -E "NVIDIA H200,|tests passed|Failed|\*\*\*" $O/run.txt | head -12
