#!/usr/bin/env bash
# H200: (1) exhaustive fused and separate sweeps at n = 24, 96, 384 (tune-offgrid) with the
# present kernels, reported against the shipped file and against h200-new.json (the 0.2
# plan from an empty file, callA/callB); (2) A/B of the two files: bench --vbatched
# --no-pad at the tuner's nmax and batches and the fixed-size bench, alternating rounds.
set -u
O=${OUT:-out}
mkdir -p $O
START=$SECONDS
OFFGRID_FILE=$PWD/offgrid-new.json TUNE_MINUTES=${TUNE_MINUTES:-4.5} tools/gpu/device_run.sh tune-offgrid > $O/offgrid.txt 2>&1
tar -xzf $O/results.tgz -C $O ./tune-offgrid-report.txt ./tune-offgrid.log 2>/dev/null
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
$B tune --report offgrid-new.json --against h200-new.json > $O/offgrid-vs-new.txt 2>&1
cp offgrid-new.json $O/
export BCHOL_DEVICE=nvidia
ab() {
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="shipped new"; else order="new shipped"; fi
  for f in $order; do
    if [ $f = shipped ]; then F=$PWD/data/tuning/nvidia-h200.json; else F=$PWD/h200-new.json; fi
    for p in s d; do
      for band in 4,8,16,32,64@16384 128,256@3000; do
        echo "== vb round $round $f $p" >> $O/ab.txt
        BCHOL_TUNING_FILE=$F $B bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} --no-pad 2>&1 | grep -v warnings >> $O/ab.txt
      done
      echo "== fx round $round $f $p" >> $O/ab.txt
      BCHOL_TUNING_FILE=$F $B bench --precision $p --n 4,8,16,32,64,128,256,512 2>&1 >> $O/ab.txt
    done
  done
done
}
export -f ab; export B O
timeout $((585 - (SECONDS - START))) bash -c ab
grep -E "exit status|configurations in" $O/offgrid.txt | tail -2
grep -E "within 5%" $O/tune-offgrid-report.txt $O/offgrid-vs-new.txt
grep -c "== " $O/ab.txt
