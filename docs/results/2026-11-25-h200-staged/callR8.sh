#!/usr/bin/env bash
# H200, 2026-11-25: the size of the shipped tuning plan (device_run.sh tune's arguments)
# with the staged layout in the interleaved space: --dry-run from an empty file.
set -u
O=${OUT:-out}
mkdir -p $O
timeout 200 tools/gpu/device_run.sh devices > $O/run.txt 2>&1
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
BCHOL_DEVICE=nvidia build-gpu/tools/bchol tune --output /tmp/plan.json --dry-run \
  --n 4,8,16,32,64,128,256,512 --precision sd \
  --variants fused,interleaved,interleaved-native,separate,vbatched,solve --nrhs 1,16 \
  --fraction 0.2 --seed 2026 --probe-between 4 > $O/plan.txt 2> $O/plan.err
echo "exit $?"; wc -l $O/plan.txt; tail -3 $O/plan.err
awk '{print $2}' $O/plan.txt | sort | uniq -c
grep -c staged $O/plan.txt
