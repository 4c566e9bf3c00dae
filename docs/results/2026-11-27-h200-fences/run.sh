#!/bin/bash
# PoCL 5 suite x3 with the workaround; loops method on the earlier failures; NVIDIA A/B of
# the fence barriers (old kernels through BCHOL_KERNEL_DIR, same binary).
cd "$(dirname "$0")/.."
R=$OUT
OUT=$R/a POCL_ROUNDS=3 timeout 330 tools/gpu/device_run.sh devices test-pocl
B=build-gpu
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
cd $B
echo "== loops method on earlier failures"
POCL_WORK_GROUP_METHOD=loops BCHOL_DEVICE=pocl timeout 60 ctest -R "^(potrf_sL_n100_ib8|potrf_sL_n17_ib16|potrf_dU_n44_ib8|vbatched_info_sL|vbatched_versions_dU_n70)$" 2>&1 | grep -E "Test +#|tests passed"
cd ..
echo "== A/B fence barriers on NVIDIA (old = 89f5568 kernels)"
for round in 1 2; do
  for k in old new; do
    if [ $k = old ]; then export BCHOL_KERNEL_DIR=$PWD/scratch/oldk; else unset BCHOL_KERNEL_DIR; fi
    for p in s d; do
      BCHOL_DEVICE=nvidia timeout 60 $B/tools/bchol bench --precision $p --n 8,16,32,64,128,256 --variant fused,separate --reps 10 > $R/ab-$k-$p-$round.txt 2>&1
      BCHOL_DEVICE=nvidia timeout 60 $B/tools/bchol bench --vbatched --precision $p --nmax 32,128 > $R/abvb-$k-$p-$round.txt 2>&1
    done
  done
done
unset BCHOL_KERNEL_DIR
tail -n 12 $R/ab-new-s-2.txt
git -C . log -1 --format=%h 2>/dev/null
