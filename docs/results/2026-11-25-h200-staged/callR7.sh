#!/usr/bin/env bash
# H200, 2026-11-25: sizes between the H200 file's interleaved (staged) entries, n = 5..15,
# with the dispatcher that lends a tile-loop interleaved entry's tile size and unrolling to
# the sizes above it ("new") against the one that lent its layout only ("before": the same
# tree with that condition taken out), 3 alternating rounds.
set -u
O=${OUT:-out}
mkdir -p $O
timeout 200 tools/gpu/device_run.sh devices > $O/run.txt 2>&1
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
P=/tmp/bchol-deps
rm -rf /tmp/old && mkdir /tmp/old && tar -c --exclude='./build*' --exclude='./.debs' . | tar -x -C /tmp/old
sed -i 's/ \&\& params_at(e, n)->unroll != BCHOL_UNROLL_TILES//' /tmp/old/host/dispatch.c
grep -c "params_at(e, n)->unroll" /tmp/old/host/dispatch.c host/dispatch.c
(cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$P/usr \
  "-DCMAKE_LIBRARY_PATH=$P/usr/lib/x86_64-linux-gnu/openblas-pthread;$P/usr/lib/x86_64-linux-gnu" \
  -DCMAKE_INCLUDE_PATH=$P/usr/include > /dev/null 2>&1 && cmake --build b -j16 --target bchol_cmd > /dev/null 2>&1)
ls -la /tmp/old/b/tools/bchol build-gpu/tools/bchol | awk '{print $5, $NF}'
export BCHOL_DEVICE=nvidia
SIZES=5,7,9,10,11,13,14,15
end=$((SECONDS + 150))
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="before new"; else order="new before"; fi
  for f in $order; do
    if [ $f = before ]; then B=/tmp/old/b/tools/bchol; else B=build-gpu/tools/bchol; fi
    for p in s d; do
      [ $SECONDS -lt $end ] || break 3
      echo "== round $round $f $p" >> $O/ab.txt
      $B bench --precision $p --n $SIZES --explain >> $O/ab.txt 2>&1
    done
  done
done
grep -E "NVIDIA H" $O/run.txt | head -2
python3 tools/gpu/ab_rounds.py before new $O/ab.txt | tail -20
grep -E "^ +(7|14) " $O/ab.txt | head -8
