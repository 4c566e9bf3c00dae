#!/usr/bin/env bash
# H200 A/B: the sort's running sum over the keys in use (new) against all 256 keys (old,
# oldk/ through BCHOL_KERNEL_DIR), vbatched default version, 3 alternating rounds; then
# BCHOL_TRACE of the sort kernel at nmax 32 and 256
set -u
O=$OUT
tools/gpu/device_run.sh devices > $O/devices.txt 2>&1 || { tail -30 $O/build.log; exit 1; }
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
for round in 1 2 3; do
  for v in old new; do
    for p in s d; do
      echo "== round $round $v $p" >> $O/ab.txt
      if [ $v = old ]; then K=$PWD/oldk; else K=$PWD/cl_kernels; fi
      BCHOL_KERNEL_DIR=$K $B bench --vbatched --precision $p --nmax 32,64,128,256 --batch 3000 --no-pad 2>&1 | grep -v warnings >> $O/ab.txt
    done
  done
done
for v in old new; do
  if [ $v = old ]; then K=$PWD/oldk; else K=$PWD/cl_kernels; fi
  for nm in 32 256; do
    BCHOL_KERNEL_DIR=$K BCHOL_TRACE=1 $B bench --vbatched --precision s --nmax $nm --batch 3000 --no-pad --reps 3 --warmup 1 > $O/trace-$v-$nm.txt 2>&1
  done
done
for f in $O/trace-*.txt; do echo "$(basename $f): $(grep potrf_vbatched_sort $f | awk '{print $(NF-1)}' | tr '\n' ' ')"; done
grep -E "^==|^ +(32|64|128|256) " $O/ab.txt | awk '/^==/{h=$2" "$3" "$4" "$5; next}{print h, $1, $12}' > $O/ab-short.txt
python3 - $O/ab-short.txt <<'P'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    _, r, v, p, nmax, ms = line.split()
    d[(p, int(nmax), v)].append(float(ms))
print("| precision | nmax | old ms | new ms | new/old |")
for p in "sd":
    for nm in (32, 64, 128, 256):
        o, n = st.median(d[(p, nm, "old")]), st.median(d[(p, nm, "new")])
        print(f"| {p} | {nm} | {o:.4f} | {n:.4f} | {n/o:.3f} |")
P
