#!/bin/sh
# workitem entries for data/tuning/pocl-x86_64.json, at the batches of the file's entries
B=/work/wt-cpu/build/tools/bchol
cd /work/wt-cpu/build
uptime
for nb in 4:16384 8:16384 16:15564 32:3902 64:976 128:244; do
  n=${nb%%:*}; b=${nb##*:}
  rm -f /tmp/tune-wi-$n.json
  $B tune --device pocl --output /tmp/tune-wi-$n.json --n $n --precision sd --variants workitem \
    --batch $b --reps 5 --statistic min --set wnb=8,16,32 --set wvec=8,16 --set wmr=2 --set wgroup=8 2>&1 | tail -3
done
uptime
