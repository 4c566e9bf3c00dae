#!/usr/bin/env bash
# H200 A/B, second try (REAL4-typed local argument): the fused update reading B four elements at a time (new, cl_kernels/) against
# one at a time (old, oldk/ through BCHOL_KERNEL_DIR), one build, the shipped file,
# 3 rounds in alternating order; fixed size and vbatched; CTest of potrf/vbatched first
set -u
O=$OUT
TEST_REGEX='potrf_|vbatched|posv|potrs' tools/gpu/device_run.sh test > $O/test.txt 2>&1
tail -2 $O/test.txt
grep -q "100% tests passed" $O/test.txt || exit 1
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    if [ $v = old ]; then K=$PWD/oldk; else K=$PWD/cl_kernels; fi
    for p in s d; do
      echo "== round $round $v $p fixed" >> $O/ab.txt
      BCHOL_KERNEL_DIR=$K $B bench --precision $p --n 16,32,64,128,256 2>&1 | grep -v warnings >> $O/ab.txt
      echo "== round $round $v $p vbatched" >> $O/ab.txt
      BCHOL_KERNEL_DIR=$K $B bench --vbatched --precision $p --nmax 128,256 --batch 3000 --no-pad 2>&1 | grep -v warnings >> $O/ab.txt
    done
  done
done
python3 - $O/ab.txt <<'P'
import sys, re, statistics as st, collections
d = collections.defaultdict(list); cur = None
for line in open(sys.argv[1]):
    m = re.match(r"== round (\d) (\w+) (\w) (\w+)", line)
    if m: cur = (m.group(2), m.group(3), m.group(4)); continue
    f = line.split()
    if not cur or not f or not f[0].isdigit(): continue
    if cur[2] == "fixed" and len(f) > 5: d[(cur[1], "n", int(f[0]), cur[0])].append(float(f[2]))
    if cur[2] == "vbatched" and len(f) > 12: d[(cur[1], "nmax", int(f[0]), cur[0])].append(float(f[11]))
print("| precision | size | old ms | new ms | new/old |")
print("|---|---|---:|---:|---:|")
for p in "sd":
    for kind, sizes in (("n", (16, 32, 64, 128, 256)), ("nmax", (128, 256))):
        for n in sizes:
            o = st.median(d[(p, kind, n, "old")]); w = st.median(d[(p, kind, n, "new")])
            print(f"| {p} | {kind} = {n} | {o:.4f} | {w:.4f} | {w/o:.3f} |")
P
