# H200 experiment: the lazy vbatched schedule with each matrix's start spread over its
# window (SPREAD, BCHOL_VB_SPREAD=1) against plain lazy, one build, 3 alternating rounds
O=$OUT; R=$O/r; mkdir -p $R
OUT=$O/d tools/gpu/device_run.sh > $R/steps.txt 2>&1; rm -rf $O/d
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread BCHOL_DEVICE=nvidia
B=build-gpu/tools/bchol
for round in 1 2 3; do
  for cfg in lazy spread; do
    for p in s d; do
      for band in 64@16384 128,256@3000 128,256@16384; do
        if [ $cfg = spread ]; then export BCHOL_VB_SPREAD=1; else unset BCHOL_VB_SPREAD; fi
        $B bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} --reps 5 --warmup 1 > $R/t.txt 2>&1
        grep -E "^ *[0-9]+ +[0-9]+ +[0-9]+ " $R/t.txt | awk -v c=$cfg -v p=$p '{print c, p, $0}' >> $R/vb.txt
      done
    done
  done
done
unset BCHOL_VB_SPREAD
(cd $R && tar czf $O/call10.tgz .)
cat $R/vb.txt | awk '{print $1, $2, $3, $5, $9, $10, $11, $12, $13, $14}' | sort -k2,2 -k3,3n -k4,4n -k1,1 | head -80
