#!/bin/sh
# usage: snap.sh BCHOL_BINARY > file ; variant choices and explanations, timings stripped
B=$1
strip() { grep -v '^# device' | grep -v 'median of' | awk '/^#/ {print; next} {s=$1; for(i=2;i<=NF;i++) if ($i !~ /^-?[0-9]+\.[0-9]+(e[-+][0-9]+)?$/ && $i !~ /^[0-9]+$/ && $i !~ /^[0-9.]+x$/) s=s" "$i; print s}'; }
for pr in s d; do
  echo "## $pr"; $B bench --explain --n 1,2,4,8,16,24,32,48,64,96,128,192,256,384,512 --precision $pr --batch 64 --reps 1 --warmup 0 2>/dev/null | strip
  echo "## $pr solve"; $B bench --solve --explain --n 1,4,16,32,64,128,256,512 --precision $pr --batch 64 --reps 1 --warmup 0 2>/dev/null | strip
  echo "## $pr vbatched"; $B bench --vbatched --nmax 32,64,128,256,512 --no-pad --precision $pr --batch 64 --reps 1 --warmup 0 2>/dev/null | strip
done
