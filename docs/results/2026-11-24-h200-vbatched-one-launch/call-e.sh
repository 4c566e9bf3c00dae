#!/usr/bin/env bash
# H200: CTest (vbatched, tuning) with the ONE_LAUNCH schedule, then the H200 file's
# vbatched entries tuned again over one-launch configurations (0.2 of them, resumed)
set -u
O=$OUT
cp data/tuning/nvidia-h200.json $O/nvidia-h200-before.json
TEST_REGEX='vbatched|vbsep|tuning' tools/gpu/device_run.sh test > $O/test.txt 2>&1
tail -4 $O/test.txt
TUNE_VARIANTS=vbatched TUNE_SIZES=4,8,16,32,64,128,256 TUNE_FRACTION=0.2 TUNE_MINUTES=5 \
  TUNE_ARGS="--set schedule=one-launch" tools/gpu/device_run.sh tune > $O/tune.txt 2>&1
tail -5 $O/tune.txt
grep -c one-launch data/tuning/nvidia-h200.json
python3 - data/tuning/nvidia-h200.json <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
for dev in d["devices"]:
    for e in dev.get("chosen", []):
        if e.get("variant") == "vbatched":
            print(dev.get("name", dev.get("architecture")), e["precision"], e["n"], e["params"])
P
