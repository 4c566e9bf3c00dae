#!/usr/bin/env bash
# H200/H100: where the tuner's time goes. The shipped plan (fraction 0.2, --set
# unroll=tiles) from an empty file for TUNE_MINUTES, with the sweep's time breakdown;
# the driver's start and a context, timed alone.
set -u
O=${OUT:-out}
mkdir -p $O
git rev-parse HEAD 2>/dev/null > $O/commit.txt
TUNE_FILE=$PWD/h200-new.json TUNE_MINUTES=${TUNE_MINUTES:-8.75} TUNE_ARGS="--set unroll=tiles" \
  tools/gpu/device_run.sh devices tune > $O/tune.txt 2>&1
tar -xzf $O/results.tgz -C $O ./tune.log 2>/dev/null; mv $O/results.tgz $O/results-tune.tgz
for i in 1 2 3; do /usr/bin/time -f "bchol devices: %e s" build-gpu/tools/bchol devices > /dev/null 2>> $O/init.txt; done
cp h200-new.json $O/
cat $O/init.txt; grep -E "configurations|exit status|in [0-9]+m" $O/tune.txt $O/tune.log | tail -8
