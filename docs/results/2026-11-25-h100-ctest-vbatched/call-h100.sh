#!/usr/bin/env bash
# H100 (session 26): the whole CTest suite on the NVIDIA OpenCL device at HEAD, then
# issue 3's benchmark (bchol bench --vbatched, batch 3000, uniform and Gaussian orders).
set -u
R=${OUT:-out}
git rev-parse --short HEAD 2>/dev/null > $R/commit.txt || true
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
VB_NMAX=32,64,128,256,512 /usr/bin/time -f "all: %e s" tools/gpu/device_run.sh devices test vbatched > $R/run.txt 2>&1
mkdir -p $R/t && tar -xzf $R/results.tgz -C $R/t && cp $R/t/ctest-nvidia.log $R/t/vbatched-nvidia-*.txt $R/t/devices*.txt $R/ 2>/dev/null; rm -rf $R/t
cd $R && tar -czf all.tgz *.txt *.log 2>/dev/null; cd - >/dev/null
tail -3 $R/run.txt
grep -E "tests passed|tests failed|Total Test" $R/ctest-nvidia.log
for f in $R/vbatched-nvidia-*.txt; do echo "== $f"; grep -vE "^#" $f | tail -7; done
