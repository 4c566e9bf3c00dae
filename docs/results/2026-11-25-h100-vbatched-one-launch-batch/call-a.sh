#!/usr/bin/env bash
# H100 (session 26): vbatched at small nmax against the batch size: the default version
# (the file's entry, tuned at batch 16384) and the one-launch schedule, batches 1000-16384.
set -u
R=${OUT:-out}
git rev-parse --short HEAD 2>/dev/null > $R/commit.txt || true
tools/gpu/device_run.sh devices > $R/build.txt 2>&1
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread:${LD_LIBRARY_PATH:-}
for p in s d; do for b in 1000 3000 16384; do
  BCHOL_DEVICE=nvidia $B bench --vbatched --precision $p --nmax 8,16,32,64 --batch $b > $R/vb-$p-$b.txt 2>&1
done; done
cd $R && tar -czf all.tgz vb-*.txt commit.txt && cd - >/dev/null
for f in $R/vb-*.txt; do echo "== $f"; grep -vE "^#" $f | awk '{print $1,$3,$11,$12,$13,$14,$17,$18,$19}'; done
