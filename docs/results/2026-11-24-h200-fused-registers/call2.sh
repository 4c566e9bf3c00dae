# A/B: kernels of HEAD (ab_old/cl_kernels) against the working tree's (cl_kernels), one build
O=$OUT; R=$O/r; mkdir -p $R
OUT=$O/dr tools/gpu/device_run.sh devices > $R/devices.txt 2>&1; tail -2 $R/devices.txt
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread BCHOL_DEVICE=nvidia
B=build-gpu/tools/bchol
t0=$(date +%s)
for round in 1 2 3; do
  for v in old v1 new; do
    kd=$PWD/cl_kernels; [ $v = old ] && kd=$PWD/ab_old/cl_kernels; [ $v = v1 ] && kd=$PWD/ab_v1/cl_kernels
    for p in s d; do
      BCHOL_KERNEL_DIR=$kd $B bench --precision $p --n ${AB_N:-16,64,128,256} --reps 10 --warmup 2 | tee -a $R/raw-fixed.txt \
        | grep -E "^ *[0-9]+ " | awk -v v=$v -v p=$p -v r=$round '{print v, p, "fixed", r, $1, $2, $3}' >> $R/ab.txt
      for band in 64@16384 128@3000 256@3000; do
        BCHOL_KERNEL_DIR=$kd $B bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} --reps 10 --warmup 2 | tee -a $R/raw-vb.txt \
          | grep -E "^ *[0-9]+ " | awk -v v=$v -v p=$p -v r=$round '{print v, p, "vb", r, $1, $3, $12, $11, $13}' >> $R/ab.txt
      done
    done
  done
  echo "round $round: $(( $(date +%s) - t0 )) s"
done
for v in new; do
  kd=$PWD/cl_kernels
  BCHOL_KERNEL_DIR=$kd BCHOL_TRACE=1 $B bench --vbatched --precision s --nmax 256 --batch 30 --reps 1 --warmup 1 > $R/trace-$v-s-256-30.txt 2>&1
done
(cd $R && tar czf $O/ab.tgz .)
grep -c FAILED $R/raw-*.txt; echo "== medians: version prec kind size batch ms"
awk '{k=$1" "$2" "$3" "$5" "$6; a[k]=a[k]" "$7} END {for (k in a) print k, a[k]}' $R/ab.txt | sort -k3,3 -k2,2 -k4,4n -k1,1
