#!/usr/bin/env bash
# H100, 2026-11-25: the staged interleaved kernel into the shipped H100 file, as for the
# H200 (every staged configuration at n = 4, 6, 8, 12, 16, then the entries chosen again),
# whole calls with the new file against the file before (n = 4..16, 2 rounds), and the
# whole CTest suite on the NVIDIA device with the new file.
set -u
O=${OUT:-out}
mkdir -p $O
timeout 200 tools/gpu/device_run.sh devices > $O/run.txt 2>&1
B=build-gpu/tools/bchol
export LD_LIBRARY_PATH=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu:/tmp/bchol-deps/usr/lib/x86_64-linux-gnu/openblas-pthread
export BCHOL_DEVICE=nvidia
F=data/tuning/nvidia-h100.json
cp $F h100-prev.json
$B tune --output $F --resume --variants interleaved --n 4,6,8,12,16 --precision sd \
  --set chunking=staged --set unroll=tiles,full --fraction 1 --probe-between 0 \
  --max-minutes 3.3 --build-timeout 30 --jobs 16 --quiet 2> $O/tune.log
echo "tune exit $? (0 complete, 3 stopped early)"
$B tune --rechoose $F > $O/rechoose.txt 2>&1; echo "rechoose exit $?"
cp $F $O/nvidia-h100.json
end=$((SECONDS + 60))
for round in 1 2; do
  if [ $round = 1 ]; then order="before new"; else order="new before"; fi
  for f in $order; do
    if [ $f = before ]; then G=$PWD/h100-prev.json; else G=$PWD/$F; fi
    for p in s d; do
      [ $SECONDS -lt $end ] || break 3
      echo "== round $round $f $p" >> $O/ab.txt
      BCHOL_TUNING_FILE=$G $B bench --precision $p --n 4,6,8,10,12,14,16 --explain >> $O/ab.txt 2>&1
    done
  done
done
(cd build-gpu && timeout 230 ctest -j16 --timeout 200 > $O/ctest-nvidia.log 2>&1)
grep -E "NVIDIA H" $O/run.txt | head -2
grep -E "interleaved" $O/tune.log | tail -10
python3 tools/gpu/ab_rounds.py before new $O/ab.txt | tail -18
grep -E "tests passed|Failed|\*\*\*" $O/ctest-nvidia.log | head -12
