#!/usr/bin/env bash
# H200, 2026-11-25 (session 24): (1) where a build process's time goes: the tuner's fused
# sweep at float n = 32 with a cold and then a warm binary cache, with 15 build processes
# and with one; (2) the dense probes added to the shipped file (tune-probe).
set -u
O=${OUT:-out}
mkdir -p $O
T0=$(date +%s)
tools/gpu/device_run.sh devices > $O/run-devices.txt 2>&1
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
nproc > $O/nproc.txt; lscpu | head -20 >> $O/nproc.txt
for i in 1 2 3; do /usr/bin/time -f "devices %e s" $B devices > /dev/null 2>> $O/devices-time.txt; done
run() { # name cache jobs extra...
  local name=$1 cache=$2 jobs=$3; shift 3
  local s=$(date +%s.%N)
  BCHOL_CACHE_DIR=$cache $B tune --n 32 --precision s --variants fused --jobs $jobs --build-timeout 30 \
    --output $O/$name.json --seed 1 "$@" 2> $O/$name.log
  echo "$name: jobs $jobs, $(python3 -c "import sys; print(round($(date +%s.%N) - $s, 2))") s wall; $(tail -1 $O/$name.log)" | tee -a $O/measure.txt
}
run cold16 /tmp/cacheA 16
run warm16 /tmp/cacheA 16
run cold2 /tmp/cacheB 2 --max-configs 16
run warm2 /tmp/cacheB 2 --max-configs 16
run cold1 /tmp/cacheC 1 --max-configs 16
echo "measurements $(( $(date +%s) - T0 )) s" | tee -a $O/measure.txt
cp data/tuning/nvidia-h200.json /tmp/shipped-before.json
PROBE_MINUTES=5 tools/gpu/device_run.sh tune-probe > $O/run-tune-probe.txt 2>&1
mv ${OUT:-out}/results.tgz $O/results-tune-probe.tgz 2>/dev/null
cp data/tuning/nvidia-h200.json $O/nvidia-h200-probed.json
gzip -9 $O/nvidia-h200-probed.json
tail -3 $O/run-tune-probe.txt
echo "total $(( $(date +%s) - T0 )) s"
cat $O/measure.txt
