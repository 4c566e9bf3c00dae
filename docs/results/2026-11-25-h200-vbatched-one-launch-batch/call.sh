#!/usr/bin/env bash
# vbatched: the file's schedule against ONE_LAUNCH over batch sizes (where does one launch
# stop paying?). Default device kind; writes vb-<p>-<batch>.txt.
set -u
R=${OUT:-out}
git rev-parse --short HEAD 2>/dev/null > $R/commit.txt || true
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
tools/gpu/device_run.sh devices > $R/build.txt 2>&1
B=build-gpu/tools/bchol
L=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$L:$L/openblas-pthread:${LD_LIBRARY_PATH:-}
for p in s d; do for b in ${BATCHES:-1000 3000 6000 10000 16384}; do
  BCHOL_DEVICE=nvidia $B bench --vbatched --precision $p --nmax ${NMAX:-8,16,32,48,64,96,128} --batch $b > $R/vb-$p-$b.txt 2>&1
done; done
cd $R && tar -czf all.tgz vb-*.txt commit.txt gpu.txt && cd - >/dev/null
for f in $R/vb-*.txt; do grep -vE "^#" $f | awk -v f=$(basename $f .txt) 'NR>1{def=$17; c=(def=="greedy-cl")?7:(def=="greedy-ag")?8:(def=="lazy-cl")?9:10; printf "%s %3d %s %.4fms one/def %.2f\n", f,$1,def,$12,($18>$19?$18:$19)/$c}'; done
