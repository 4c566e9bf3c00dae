#!/usr/bin/env bash
# H200, 2026-11-25: the whole CTest suite on the NVIDIA device at the stop's final tree
# (the staged entries in the H200 file, the dispatcher of 4a2905e, the tests of ea0ce10).
set -u
O=${OUT:-out}
mkdir -p $O
timeout 540 tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
grep -E "NVIDIA H|tests passed|Failed|\*\*\*" $O/run.txt | head -20
