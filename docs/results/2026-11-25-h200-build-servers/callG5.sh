#!/usr/bin/env bash
# H200, 2026-11-25 (session 24), at 4216e41: CTest's tune and tuning tests on NVIDIA
# (tune_run_build failed at b593c75 under CTest's load: the limit counted the process's
# start).
set -u
R=${OUT:-out}
T0=$(date +%s)
TEST_REGEX='tune|tuning' tools/gpu/device_run.sh test > $R/run-test.txt 2>&1
mv $R/results.tgz $R/results-test.tgz
cat $R/run-test.txt | tail -5
echo "total $(( $(date +%s) - T0 )) s"
