#!/usr/bin/env bash
# H200: the shipped plan resumed to the end in h200-new.json (begun by callA.sh), then the
# tuned file against the untuned defaults (tune-check, 2 rounds) and the tuner's tests.
set -u
O=${OUT:-out}
mkdir -p $O
TUNE_FILE=$PWD/h200-new.json TUNE_MINUTES=${TUNE_MINUTES:-6} TUNE_ARGS="--set unroll=tiles" \
  TUNE_CHECK_ROUNDS=2 TEST_REGEX=tune tools/gpu/device_run.sh tune tune-check test > $O/run.txt 2>&1
tar -xzf $O/results.tgz -C $O ./tune.log ./tune-check.txt ./tune-report.txt 2>/dev/null
cp h200-new.json $O/
grep -E "configurations in|exit status|tests passed|geometric" $O/run.txt $O/tune.log | tail -8
