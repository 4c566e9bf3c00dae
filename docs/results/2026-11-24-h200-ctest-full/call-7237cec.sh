#!/usr/bin/env bash
# H200 (session 25): the whole CTest suite on the NVIDIA OpenCL device at HEAD.
set -u
R=${OUT:-out}
git rev-parse --short HEAD 2>/dev/null > $R/commit.txt || true
/usr/bin/time -f "suite: %e s" tools/gpu/device_run.sh devices test > $R/run-test.txt 2>&1
mkdir -p $R/t && tar -xzf $R/results.tgz -C $R/t && cp $R/t/ctest-nvidia.log $R/ && rm -rf $R/t
tail -5 $R/run-test.txt
grep -E "tests passed|tests failed|Total Test" $R/ctest-nvidia.log
