#!/usr/bin/env bash
# H200: the tuner's tests on the NVIDIA device at a3244ad (tune_file_measured, one filter
# for the between pick and the probes' plan).
set -u
O=${OUT:-out}
mkdir -p $O
TEST_REGEX='tune_run|tuning' tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
grep -E "NVIDIA H200,|tests passed|Failed|\*\*\*" $O/run.txt | head -12
