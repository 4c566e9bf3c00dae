#!/usr/bin/env bash
# H200 (session 25): issue 3, lazy matrices started earlier than their lazy start by
# BCHOL_VB_LEAD launches plus BCHOL_VB_PROP/8 of it (experiment knobs): bench --vbatched.
set -u
R=${OUT:-out}
O=$R/q
mkdir -p $O
tools/gpu/device_run.sh devices > $O/run-devices.txt 2>&1
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
for round in 1 2; do
for p in s d; do
  for lp in 0:0 1:0 2:0 3:0 4:0 6:0 0:2 0:4 0:6 2:2; do
    pad=--no-pad; [ $lp = 0:0 ] && [ $round = 1 ] && pad=
    BCHOL_VB_LEAD=${lp%:*} BCHOL_VB_PROP=${lp#*:} timeout 60 $B bench --vbatched --precision $p \
      --nmax 128,256,512 --batch 3000 $pad > $O/lead-$p-$lp-r$round.txt 2>&1
    echo "== $p lead:prop $lp round $round"; grep -E "^ +(128|256|512) " $O/lead-$p-$lp-r$round.txt | cut -c1-120
  done
done
done > $O/summary.txt
tar -czf $R/all.tgz -C $O .
cp $O/summary.txt $R/
cat $R/summary.txt
