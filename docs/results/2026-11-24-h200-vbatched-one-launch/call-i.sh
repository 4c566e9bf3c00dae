#!/usr/bin/env bash
# H200: the size of the shipped tuning plan (bchol tune --dry-run, the device_run.sh tune
# options), with and without the one-launch schedule in the vbatched space
set -u
O=$OUT
tools/gpu/device_run.sh devices > $O/devices.txt 2>&1 || { tail -30 $O/build.log; exit 1; }
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
common="--n 4,8,16,32,64,128,256,512 --precision sd --nrhs 1,16 --fraction 0.2 --seed 2026 --set unroll=tiles"
$B tune --dry-run $common --variants fused,interleaved,interleaved-native,separate,vbatched,solve > $O/plan-all.txt 2>&1
$B tune --dry-run $common --variants vbatched > $O/plan-vb.txt 2>&1
$B tune --dry-run $common --variants vbatched --set schedule=greedy,lazy > $O/plan-vb-no-one.txt 2>&1
for f in plan-all plan-vb plan-vb-no-one; do echo "$f: $(grep -c '^[sd] ' $O/$f.txt) configurations; $(grep '^# ' $O/$f.txt | head -1)"; done
