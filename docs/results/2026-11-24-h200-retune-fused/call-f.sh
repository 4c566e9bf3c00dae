# resume the fused+vbatched re-tune, then the file before the re-tune against after, on the same kernel
O=$OUT; R=$O/r; mkdir -p $R
TUNE_VARIANTS=fused TUNE_FRACTION=1 TUNE_MINUTES=5.5 OUT=$O/dr tools/gpu/device_run.sh tune > $R/tune-steps.txt 2>&1; tail -4 $R/tune-steps.txt
tar xzf $O/dr/results.tgz -C $R; rm -rf $O/dr
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread BCHOL_DEVICE=nvidia
B=build-gpu/tools/bchol
t0=$(date +%s)
for round in 1 2; do
  for f in before after; do
    file=$PWD/h200-before.json; [ $f = after ] && file=$PWD/data/tuning/nvidia-h200.json
    for p in s d; do
      BCHOL_TUNING_FILE=$file $B bench --precision $p --n 4,8,16,32,64,128,256,512 --reps 10 --warmup 2 > $R/t.txt 2>&1
      cat $R/t.txt >> $R/raw-fixed.txt
      grep -E "^ *[0-9]+ " $R/t.txt | awk -v f=$f -v p=$p -v r=$round '{print f, p, "fixed", r, $1, $2, $3}' >> $R/check.txt
      for band in 4,8,16,32,64@16384 128,256@3000 512@1000; do
        BCHOL_TUNING_FILE=$file $B bench --vbatched --variant auto --no-pad --precision $p --nmax ${band%@*} --batch ${band#*@} --reps 10 --warmup 2 > $R/t.txt 2>&1
        cat $R/t.txt >> $R/raw-vb.txt
        grep -E "^ *[0-9]+ " $R/t.txt | awk -v f=$f -v p=$p -v r=$round '{print f, p, "vb", r, $0}' >> $R/check.txt
      done
    done
  done
  echo "round $round: $(( $(date +%s) - t0 )) s"
done
(cd $R && tar czf $O/callF.tgz .)
head -3 $R/raw-vb.txt; grep " fixed " $R/check.txt | awk '{k=$1" "$2" "$5; a[k]=a[k]" "$7} END {for (k in a) print k, a[k]}' | sort -k2,2 -k3,3n -k1,1
