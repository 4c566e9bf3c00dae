# CTest on the H200, then vb/pad against the batch and the fixed-size bench with the torch peer
O=$OUT; R=$O/r; mkdir -p $R
OUT=$O/dr tools/gpu/device_run.sh devices test bench > $R/steps.txt 2>&1; tail -40 $R/steps.txt
tar xzf $O/dr/results.tgz -C $R && rm -rf $O/dr
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread BCHOL_DEVICE=nvidia
t0=$(date +%s)
for p in s d; do
  for b in 3000 16384; do
    BCHOL_DEVICE=nvidia build-gpu/tools/bchol bench --vbatched --precision $p --nmax 64,128,256 --batch $b --reps 5 --warmup 1 > $R/sweep-$p-$b.txt 2>&1
    grep -E "^ *[0-9]+ " $R/sweep-$p-$b.txt | awk -v p=$p '{print p, $1, $3, $4, $5, $6, $11, $12, $13}' >> $R/sweep.txt
  done
done
echo "sweep: $(( $(date +%s) - t0 )) s"
(cd $R && tar czf $O/callC.tgz .)
echo "== sweep: prec nmax batch tbc shape order padded-Gflops default-ms vb/pad"; cat $R/sweep.txt
