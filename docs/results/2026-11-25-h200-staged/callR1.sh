#!/usr/bin/env bash
# H200/H100, 2026-11-25: (1) the staged interleaved kernel (strided batches through local
# memory) against the library's choice, n = 4..64, float and double; (2) whole calls at
# sizes between the H200 file's entries: the shipped (split) file against 46b1e22's.
set -u
O=${OUT:-out}
mkdir -p $O
timeout 200 tools/gpu/device_run.sh devices > $O/run.txt 2>&1
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
export BCHOL_DEVICE=nvidia
for p in s d; do
  $B bench --precision $p --n 4,8,12,16,24,32,48,64 --explain > $O/auto-$p.txt 2>&1
  timeout 110 $B bench --variant interleaved --precision $p --n 4,8,12,16,24,32,48,64 --chunking staged \
    --chunk 32,64,128 --unroll full,tiles > $O/staged-$p.txt 2>&1
done
SIZES=7,10,20,28,36,40,44,52,60,200,224
end=$((SECONDS + 150))
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="before new"; else order="new before"; fi
  for f in $order; do
    if [ $f = before ]; then F=$PWD/h200-before.json; else F=$PWD/data/tuning/nvidia-h200.json; fi
    for p in s d; do
      [ $SECONDS -lt $end ] || break 3
      echo "== round $round $f $p" >> $O/ab.txt
      BCHOL_TUNING_FILE=$F $B bench --precision $p --n $SIZES --explain >> $O/ab.txt 2>&1
    done
  done
done
grep -E "NVIDIA H" $O/run.txt | head -3
for p in s d; do
  grep -E "^ +[0-9]+ +[0-9]+ " $O/auto-$p.txt | awk -v p=$p '{print p, "auto", $1, $3, $7, $8, $9, $10, $11}'
  awk -v p=$p '$2 ~ /^[0-9]+$/ && $16 ~ /^[0-9.]+$/ {print p, "staged", $1, $16, "nb" $4, $6, "chunk" $8, $NF}' $O/staged-$p.txt | sort -k3,3n -k4,4g | awk '{k=$1" "$3; if (!(k in seen)) {seen[k]=1; print}}'
done
python3 tools/gpu/ab_rounds.py before new $O/ab.txt | tail -30
