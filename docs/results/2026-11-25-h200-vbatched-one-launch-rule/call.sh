#!/usr/bin/env bash
# The one-launch rule (b810622) on the NVIDIA device: the vbatched and tuning tests, then
# bchol bench --vbatched with the rule (default) and without it
# (BCHOL_VBATCHED_ONE_LAUNCH_PER_CU=0), alternating, 2 rounds; default_ms is what the
# library runs for schedule DEFAULT.
set -u
R=${OUT:-out}
git rev-parse --short HEAD 2>/dev/null > $R/commit.txt || true
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt 2>&1
TEST_REGEX='vbatch|tuning|solve_vb|posv_vb' tools/gpu/device_run.sh devices test > $R/test.txt 2>&1
mkdir -p $R/t && tar -xzf $R/results.tgz -C $R/t && cp $R/t/ctest-nvidia.log $R/ 2>/dev/null; rm -rf $R/t $R/results.tgz
B=build-gpu/tools/bchol
L=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$L:$L/openblas-pthread:${LD_LIBRARY_PATH:-}
for r in 1 2; do for rule in on off; do for p in s d; do
  for cfg in 8,16,32,64,128@1000 8,16,32,64@3000 192,256@700 32,64@16384; do
    if [ $rule = off ]; then export BCHOL_VBATCHED_ONE_LAUNCH_PER_CU=0; else unset BCHOL_VBATCHED_ONE_LAUNCH_PER_CU; fi
    BCHOL_DEVICE=nvidia $B bench --vbatched --precision $p --nmax ${cfg%@*} --batch ${cfg#*@} >> $R/vb-$rule-$p-r$r.txt 2>&1
  done
done; done; done
unset BCHOL_VBATCHED_ONE_LAUNCH_PER_CU
cd $R && tar -czf all.tgz *.txt *.log && cd - >/dev/null
grep -E "tests passed|tests failed|Total Test" $R/ctest-nvidia.log
for p in s d; do for r in 1 2; do
  paste <(grep -vE "^#|nmax" $R/vb-on-$p-r$r.txt | awk '{print $1, $3, $17, $12}') <(grep -vE "^#|nmax" $R/vb-off-$p-r$r.txt | awk '{print $17, $12}') | awk -v p=$p -v r=$r '{printf "%s r%s nmax %4d batch %5d  on %-9s %.4f  off %-9s %.4f  on/off %.2f\n", p, r, $1, $2, $3, $4, $5, $6, $4/$6}'
done; done
