#!/usr/bin/env bash
# H200: the whole CTest suite on the NVIDIA OpenCL device at this commit.
set -u
O=${OUT:-out}
mkdir -p $O
tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
tar -xzf $O/results.tgz -C $O ./ctest-nvidia.log 2>/dev/null
tail -4 $O/ctest-nvidia.log; grep -E "tests passed|\*\*\*Failed" $O/run.txt | head
