#!/usr/bin/env bash
# The one-launch rule on the H100: potrf_vbatched and posv_vbatched (nrhs 1) with the rule
# (default) and without it (BCHOL_VBATCHED_ONE_LAUNCH_PER_CU=0), alternating, 3 rounds.
set -u
R=${OUT:-out}
W=$R/w; mkdir -p $W
git rev-parse --short HEAD 2>/dev/null > $W/commit.txt || true
nvidia-smi --query-gpu=name,driver_version --format=csv > $W/gpu.txt 2>&1
tools/gpu/device_run.sh devices > $W/build.txt 2>&1
B=build-gpu/tools/bchol
L=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$L:$L/openblas-pthread:${LD_LIBRARY_PATH:-}
for r in 1 2 3; do for rule in on off; do for p in s d; do
  if [ $rule = off ]; then export BCHOL_VBATCHED_ONE_LAUNCH_PER_CU=0; else unset BCHOL_VBATCHED_ONE_LAUNCH_PER_CU; fi
  for cfg in 16,32,64,128@1000 16,32,48,64@3000 16,32,48@4000; do
    BCHOL_DEVICE=nvidia $B bench --vbatched --precision $p --nmax ${cfg%@*} --batch ${cfg#*@} >> $W/vb-$rule-$p-r$r.txt 2>&1
  done
  for cfg in 32,64,128@1000 32,64@3000; do
    BCHOL_DEVICE=nvidia $B bench --solve --vbatched --nrhs 1 --precision $p --nmax ${cfg%@*} --batch ${cfg#*@} >> $W/sv-$rule-$p-r$r.txt 2>&1
  done
done; done; done
unset BCHOL_VBATCHED_ONE_LAUNCH_PER_CU
tar -czf $R/all.tgz -C $W . && rm -rf $W $R/results.tgz
mkdir -p /tmp/x && tar -xzf $R/all.tgz -C /tmp/x
for p in s d; do for r in 1 2 3; do
  paste <(grep -vE "^#|nmax" /tmp/x/vb-on-$p-r$r.txt | awk '{print $1, $3, $17, $12}') <(grep -vE "^#|nmax" /tmp/x/vb-off-$p-r$r.txt | awk '{print $17, $12}') | awk -v p=$p -v r=$r '{printf "potrf %s r%s %4d %5d on %-9s %.4f off %-9s %.4f on/off %.2f\n", p, r, $1, $2, $3, $4, $5, $6, $4/$6}'
done; done
head -12 /tmp/x/sv-on-s-r1.txt
