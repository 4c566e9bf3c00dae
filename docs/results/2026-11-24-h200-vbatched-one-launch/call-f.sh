#!/usr/bin/env bash
# H200 A/B: the vbatched default version with the re-tuned file (one-launch entries) against
# the file before, 3 alternating rounds at the tuner's nmax and batches; then the issue-3
# table (uniform, batch 3000, padded) with the new file
set -u
O=$OUT
tools/gpu/device_run.sh devices > $O/devices.txt 2>&1 || { tail -30 $O/build.log; exit 1; }
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
for round in 1 2 3; do
  for f in before after; do
    if [ $f = before ]; then F=$PWD/h200-before.json; else F=$PWD/data/tuning/nvidia-h200.json; fi
    for p in s d; do
      for band in 4,8,16,32,64@16384 128,256@3000; do
        echo "== round $round $f $p" >> $O/ab.txt
        BCHOL_TUNING_FILE=$F $B bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} --no-pad 2>&1 | grep -v warnings >> $O/ab.txt
      done
    done
  done
done
for p in s d; do
  $B bench --vbatched --precision $p --nmax 32,64,128,256 --batch 3000 2>&1 | grep -v warnings > $O/table-$p.txt
done
python3 - $O/ab.txt <<'P'
import sys, re, statistics as st, collections
d = collections.defaultdict(list); cur = None
for line in open(sys.argv[1]):
    m = re.match(r"== round (\d) (\w+) (\w)", line)
    if m: cur = (m.group(2), m.group(3)); continue
    f = line.split()
    if cur and f and f[0].isdigit() and len(f) > 12:
        d[(cur[1], int(f[0]), cur[0])].append((float(f[11]), f[16]))
print("| precision | nmax | before ms | after ms | after/before | after's version |")
print("|---|---:|---:|---:|---:|---|")
for p in "sd":
    for nm in (4, 8, 16, 32, 64, 128, 256):
        b = st.median(x[0] for x in d[(p, nm, "before")]); a = st.median(x[0] for x in d[(p, nm, "after")])
        print(f"| {p} | {nm} | {b:.4f} | {a:.4f} | {a/b:.3f} | {d[(p, nm, 'after')][0][1]} |")
P
grep -E "^ +[0-9]" $O/table-s.txt $O/table-d.txt | cut -c1-170
