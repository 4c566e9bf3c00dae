#!/usr/bin/env bash
# H200: the tuning tests on the NVIDIA device at the final tree (after e9dd047, 1562f0c).
set -u
O=${OUT:-out}
mkdir -p $O
TEST_REGEX='tuning|tune_run' tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
grep -E "NVIDIA H200,|tests passed|Failed|\*\*\*" $O/run.txt | head -12
