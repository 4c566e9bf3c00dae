#!/usr/bin/env bash
# H200, 2026-11-25 (session 24): why 15 build processes build hardly faster than one
# (callF1): (T1) contexts created by 15 processes at once against one after another;
# (T3) a fused sweep built in the tuner's own process (no children) against (T4) the same
# with 15 build processes, each with a fresh NVIDIA compute cache and bchol binary cache;
# then (2) the dense probes added to the shipped file (tune-probe), packed in one archive.
set -u
R=${OUT:-out}
O=$R/m
mkdir -p $O
T0=$(date +%s)
tools/gpu/device_run.sh devices > $O/run-devices.txt 2>&1
rm -f $R/results.tgz
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
{
/usr/bin/time -f "T1 one context: %e s" $B devices > /dev/null
/usr/bin/time -f "T1 15 contexts one after another: %e s" bash -c "for i in \$(seq 15); do $B devices > /dev/null; done"
/usr/bin/time -f "T1 15 contexts at once: %e s" bash -c "for i in \$(seq 15); do $B devices > /dev/null & done; wait"
/usr/bin/time -f "T1 30 contexts at once: %e s" bash -c "for i in \$(seq 30); do $B devices > /dev/null & done; wait"
} 2>&1 | tee -a $O/measure.txt
sweep() { # name n jobs timeout
  CUDA_CACHE_PATH=/tmp/cc-$1 BCHOL_CACHE_DIR=/tmp/bc-$1 /usr/bin/time -f "$1: n $2 jobs $3 timeout $4: %e s" \
    $B tune --n $2 --precision s --variants fused --jobs $3 --build-timeout $4 --output $O/$1.json --seed 1 2> $O/$1.log
  tail -1 $O/$1.log | sed "s/^/$1: /"
  tail -2 $O/$1.log | head -1 | sed "s/^/$1: /"
}
{ sweep T3-inproc 24 1 0; sweep T4-children 28 16 30; sweep T3b-inproc-28 28 1 0; } 2>&1 | tee -a $O/measure.txt
echo "measurements $(( $(date +%s) - T0 )) s" | tee -a $O/measure.txt
PROBE_MINUTES=5 tools/gpu/device_run.sh tune-probe > $O/run-tune-probe.txt 2>&1
mv $R/results.tgz $O/results-tune-probe.tgz
cp data/tuning/nvidia-h200.json $O/nvidia-h200-probed.json
tar -czf $R/all.tgz -C $O .
rm -rf $O
echo "total $(( $(date +%s) - T0 )) s"
