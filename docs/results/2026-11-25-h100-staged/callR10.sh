#!/usr/bin/env bash
# H100, 2026-11-25: the rest of callR9's staged sweep (it stopped at its time limit before
# double n = 16), the entries chosen again, and the tests callR9 did not finish or failed
# (faults_build: its broken common.cl now breaks the generated kernels too;
# solve_vbatched_args, cut by callR9's time limit) with the tuning tests.
set -u
O=${OUT:-out}
mkdir -p $O
timeout 200 tools/gpu/device_run.sh devices > $O/run.txt 2>&1
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
export BCHOL_DEVICE=nvidia
F=data/tuning/nvidia-h100.json
$B tune --output $F --resume --variants interleaved --n 4,6,8,12,16 --precision sd \
  --set chunking=staged --set unroll=tiles,full --fraction 1 --probe-between 0 \
  --max-minutes 2 --build-timeout 30 --jobs 16 --quiet 2> $O/tune.log
echo "tune exit $? (0 complete, 3 stopped early)"
$B tune --rechoose $F > $O/rechoose.txt 2>&1; echo "rechoose exit $?"
cp $F $O/nvidia-h100.json
(cd build-gpu && timeout 200 ctest -j16 --timeout 180 --output-on-failure \
  -R 'faults_build|solve_vbatched_args|tuning|tune_run|staged' > $O/ctest-nvidia.log 2>&1)
grep -E "NVIDIA H" $O/run.txt | head -2
tail -3 $O/tune.log
grep -E "tests passed|Failed|\*\*\*" $O/ctest-nvidia.log | head -12
