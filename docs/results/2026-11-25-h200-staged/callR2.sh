#!/usr/bin/env bash
# H200, 2026-11-25: the staged interleaved kernel with its copies unrolled (8 loads in
# flight per work-item), n = 4..32, float and double, against the library's choice.
set -u
O=${OUT:-out}
mkdir -p $O
timeout 200 tools/gpu/device_run.sh devices > $O/run.txt 2>&1
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
export BCHOL_DEVICE=nvidia
for p in s d; do
  $B bench --precision $p --n 4,8,12,16,24,32 > $O/auto-$p.txt 2>&1
  timeout 100 $B bench --variant interleaved --precision $p --n 4,8,12,16,24,32 --chunking staged \
    --chunk 32,64,128 --unroll full,tiles > $O/staged-$p.txt 2>&1
done
grep -E "NVIDIA H" $O/run.txt | head -2
for p in s d; do
  grep -E "^ +[0-9]+ +[0-9]+ " $O/auto-$p.txt | awk -v p=$p '{print p, "auto", $1, $3, $7, $8, $9, $10, $11}'
  awk -v p=$p '$2 ~ /^[0-9]+$/ && $16 ~ /^[0-9.]+$/ {print p, "staged", $1, $16, "nb" $4, $6, "chunk" $8, "native", $11, $NF}' $O/staged-$p.txt | sort -k3,3n -k4,4g | awk '{k=$1" "$3; if (!(k in seen)) {seen[k]=1; print}}'
done
