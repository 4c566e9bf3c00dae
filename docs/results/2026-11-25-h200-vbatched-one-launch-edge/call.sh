#!/usr/bin/env bash
# The one-launch rule near its bound: with it and without it (BCHOL_VBATCHED_ONE_LAUNCH_PER_CU=0),
# alternating, 4 rounds; float and double, batches 2000-4000, nmax 16-64.
set -u
R=${OUT:-out}
git rev-parse --short HEAD 2>/dev/null > $R/commit.txt || true
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
tools/gpu/device_run.sh devices > $R/build.txt 2>&1
B=build-gpu/tools/bchol
L=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$L:$L/openblas-pthread:${LD_LIBRARY_PATH:-}
for r in 1 2 3 4; do for rule in on off; do for p in s d; do for b in 2000 3000 4000; do
  if [ $rule = off ]; then export BCHOL_VBATCHED_ONE_LAUNCH_PER_CU=0; else unset BCHOL_VBATCHED_ONE_LAUNCH_PER_CU; fi
  BCHOL_DEVICE=nvidia $B bench --vbatched --precision $p --nmax 16,32,48,64 --batch $b >> $R/ab-$rule-$p-r$r.txt 2>&1
done; done; done; done
cd $R && tar -czf all.tgz ab-*.txt commit.txt gpu.txt && cd - >/dev/null
for p in s d; do for r in 1 2 3 4; do
  paste <(grep -vE "^#|nmax" $R/ab-on-$p-r$r.txt | awk '{print $1, $3, $17, $12}') <(grep -vE "^#|nmax" $R/ab-off-$p-r$r.txt | awk '{print $17, $12}') | awk -v p=$p -v r=$r '{printf "%s r%s %4d %5d on %-9s %.4f off %-9s %.4f on/off %.2f\n", p, r, $1, $2, $3, $4, $5, $6, $4/$6}'
done; done
