# call 13: A/B of the solve checks without the fill (before: 227a25d, after: the next commit)
O=$OUT; R=$O/r; mkdir -p $R
tools/gpu/device_run.sh devices > $R/devices.txt 2>&1   # builds build-gpu (after)
rm -rf /tmp/before && mkdir /tmp/before && cp -r CMakeLists.txt include host backends cl_kernels tests tools cmake* /tmp/before/ 2>/dev/null
(cd /tmp/before && patch -R -p1 < $OLDPWD/out/rhsfill.patch > $R/patch.log 2>&1)
export BCHOL_TUNING_DIR=$PWD/data/tuning  # the same shipped files for both builds
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread
cmake -S /tmp/before -B /tmp/before/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PREFIX/usr \
  "-DCMAKE_LIBRARY_PATH=$LIB/openblas-pthread;$LIB" -DCMAKE_INCLUDE_PATH=$PREFIX/usr/include > $R/build-before.log 2>&1
cmake --build /tmp/before/build -j16 --target bchol_cmd >> $R/build-before.log 2>&1 || tail -20 $R/build-before.log
for round in 1 2 3 4 5; do
  for v in before after; do
    bin=build-gpu/tools/bchol; [ $v = before ] && bin=/tmp/before/build/tools/bchol
    for p in s d; do
      for b in 500 16384; do
        BCHOL_DEVICE=nvidia $bin bench --solve --vbatched --precision $p --nrhs 1 --nmax 8,32 --batch $b \
          | grep -E "^ *[0-9]+ " | awk -v v=$v -v p=$p -v r=$round '{print v, "solve-" p, r, $1, $2, $4, $9}' >> $R/ab.txt
      done
    done
  done
done
(cd build-gpu && BCHOL_DEVICE=nvidia ctest -j16 -R "posv_v|potrs_v|vbatched_bad" > $R/ctest-solve.log 2>&1); tail -3 $R/ctest-solve.log
(cd $R && tar czf $O/call13.tgz .)
# median per (version, precision, nmax) of the default version's ms
sort -k1,1 -k2,2 -k4,4n $R/ab.txt | awk '{k=$1" "$2" "$4" "$5; a[k]=a[k]" "$6; c[k]=c[k]" "$7} END {for (k in a) print k, a[k], c[k]}' | sort
