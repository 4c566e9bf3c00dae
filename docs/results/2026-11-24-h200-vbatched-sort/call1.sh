# call 1 (H200): A/B of the one-group sort by steps (before: HEAD 1c62fcc, after: + sort.patch),
# then vb/pad against the batch size (uniform orders)
O=$OUT; R=$O/r; mkdir -p $R
tools/gpu/device_run.sh devices > $R/devices.txt 2>&1   # builds build-gpu (after)
tail -3 $R/devices.txt
rm -rf /tmp/before && mkdir /tmp/before && cp -r CMakeLists.txt include host backends cl_kernels tests tools cmake* /tmp/before/ 2>/dev/null
(cd /tmp/before && patch -R -p1 < $OLDPWD/out/sort.patch > $R/patch.log 2>&1); cat $R/patch.log
export BCHOL_TUNING_DIR=$PWD/data/tuning
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread
cmake -S /tmp/before -B /tmp/before/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PREFIX/usr \
  "-DCMAKE_LIBRARY_PATH=$LIB/openblas-pthread;$LIB" -DCMAKE_INCLUDE_PATH=$PREFIX/usr/include > $R/build-before.log 2>&1
cmake --build /tmp/before/build -j16 --target bchol_cmd >> $R/build-before.log 2>&1 || tail -20 $R/build-before.log
t0=$(date +%s)
for round in 1 2 3 4 5; do
  for v in before after; do
    bin=build-gpu/tools/bchol; [ $v = before ] && bin=/tmp/before/build/tools/bchol
    for p in s d; do
      for band in 64@3000 64@16384 256@3000; do
        BCHOL_DEVICE=nvidia $bin bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} \
          | grep -E "^ *[0-9]+ " | awk -v v=$v -v p=$p -v r=$round '{print v, p, r, $1, $3, $6, $12}' >> $R/ab.txt
      done
    done
  done
done
echo "A/B took $(( $(date +%s) - t0 )) s"
BCHOL_TRACE=1 BCHOL_DEVICE=nvidia build-gpu/tools/bchol bench --vbatched --precision s --nmax 256 --batch 3000 --reps 1 --warmup 1 > $R/trace-s-256.txt 2>&1
t0=$(date +%s)
for p in s d; do
  for b in 3000 16384 65536; do
    nm=64,128,256; [ $p = d ] && [ $b = 65536 ] && nm=64,128
    BCHOL_DEVICE=nvidia build-gpu/tools/bchol bench --vbatched --precision $p --nmax $nm --batch $b --reps 5 --warmup 1 > $R/sweep-$p-$b.txt 2>&1
    grep -E "^ *[0-9]+ " $R/sweep-$p-$b.txt | awk -v p=$p '{print p, $1, $3, $4, $5, $6, $11, $12, $13}' >> $R/sweep.txt
    echo "sweep $p $b: $(( $(date +%s) - t0 )) s"
  done
done
(cd $R && tar czf $O/call1.tgz .)
echo "== sweep: prec nmax batch tbc shape order padded-Gflops default-ms vb/pad"; cat $R/sweep.txt
echo "== A/B medians of default ms: version prec nmax batch order ms..."
sort -k1,1 -k2,2 -k4,4n $R/ab.txt | awk '{k=$1" "$2" "$4" "$5" "$6; a[k]=a[k]" "$7} END {for (k in a) print k, a[k]}' | sort
