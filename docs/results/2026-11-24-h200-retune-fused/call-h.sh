# vbatched double at nmax 256 exhaustively into the shipped file, then CTest and vb/pad with the final file
O=$OUT; R=$O/r; mkdir -p $R
TUNE_VARIANTS=vbatched TUNE_FRACTION=1 TUNE_SIZES=256 TUNE_MINUTES=3 TUNE_ARGS="--precision d" OUT=$O/t \
  tools/gpu/device_run.sh tune > $R/tune-steps.txt 2>&1; tail -5 $R/tune-steps.txt
tar xzf $O/t/results.tgz -C $R; rm -rf $O/t
OUT=$O/c tools/gpu/device_run.sh test > $R/test-steps.txt 2>&1; tail -3 $R/test-steps.txt
tar xzf $O/c/results.tgz -C $R; rm -rf $O/c
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread BCHOL_DEVICE=nvidia
for p in s d; do
  for b in 3000 16384; do
    build-gpu/tools/bchol bench --vbatched --precision $p --nmax 128,256 --batch $b --reps 5 --warmup 1 > $R/sweep-$p-$b.txt 2>&1
    grep -E "^ *[0-9]+ " $R/sweep-$p-$b.txt | awk -v p=$p '{print p, $1, $3, $4, $5, $6, $11, $12, $13}' >> $R/sweep.txt
  done
done
(cd $R && tar czf $O/callH.tgz .)
echo "== sweep: prec nmax batch tbc shape order padded-Gflops default-ms vb/pad"; cat $R/sweep.txt
