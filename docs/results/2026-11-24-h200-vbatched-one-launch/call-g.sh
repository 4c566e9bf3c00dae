#!/usr/bin/env bash
# H200: the shipped file's vbatched entries tuned again over one-launch configurations (0.2,
# resumed; vbatched now confirms in its own round), then an A/B of the vbatched default
# version, new file against the file before, 4 rounds in alternating order
set -u
O=$OUT
cp data/tuning/nvidia-h200.json $PWD/h200-before.json
TUNE_VARIANTS=vbatched TUNE_SIZES=4,8,16,32,64,128,256 TUNE_FRACTION=0.2 TUNE_MINUTES=5 \
  TUNE_ARGS="--set schedule=one-launch" tools/gpu/device_run.sh tune > $O/tune.txt 2>&1
tail -3 $O/tune.txt
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
for round in 1 2 3 4; do
  if [ $((round % 2)) = 1 ]; then order="before after"; else order="after before"; fi
  for f in $order; do
    if [ $f = before ]; then F=$PWD/h200-before.json; else F=$PWD/data/tuning/nvidia-h200.json; fi
    for p in s d; do
      for band in 4,8,16,32,64@16384 128,256@3000; do
        echo "== round $round $f $p" >> $O/ab.txt
        BCHOL_TUNING_FILE=$F $B bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} --no-pad 2>&1 | grep -v warnings >> $O/ab.txt
      done
    done
  done
done
python3 - $O/ab.txt h200-before.json data/tuning/nvidia-h200.json <<'P'
import sys, re, json, statistics as st, collections
d = collections.defaultdict(list); cur = None
for line in open(sys.argv[1]):
    m = re.match(r"== round (\d) (\w+) (\w)", line)
    if m: cur = (m.group(2), m.group(3)); continue
    f = line.split()
    if cur and f and f[0].isdigit() and len(f) > 12:
        d[(cur[1], int(f[0]), cur[0])].append((float(f[11]), f[16]))
def ch(fn):
    out = {}
    for dev in json.load(open(fn))["devices"]:
        for e in dev.get("chosen", []):
            out[(dev.get("name", ""), e["variant"], e["precision"], e["n"], e.get("nrhs", 0))] = e["params"]
    return out
a, b = ch(sys.argv[2]), ch(sys.argv[3])
print("strided/solve entries changed:", sum(1 for k in b if k[1] != "vbatched" and a.get(k) != b[k]))
print("| precision | nmax | before ms | after ms | after/before | after's entry |")
print("|---|---:|---:|---:|---:|---|")
lg = []
for p in "sd":
    for nm in (4, 8, 16, 32, 64, 128, 256):
        x = st.median(v[0] for v in d[(p, nm, "before")]); y = st.median(v[0] for v in d[(p, nm, "after")])
        k = ("NVIDIA H200", "vbatched", p, nm, 0)
        same = "same" if a.get(k) == b.get(k) else b.get(k, {}).get("schedule", "?")
        lg.append(y / x)
        print(f"| {p} | {nm} | {x:.4f} | {y:.4f} | {y/x:.3f} | {same} |")
import math
print("geometric mean after/before: %.3f" % math.exp(sum(map(math.log, lg)) / len(lg)))
P
