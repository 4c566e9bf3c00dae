# call 9: A/B of the one-block checks (before: a3e6914, after: the blocks kernel skipped), batch 500
O=$OUT; R=$O/r; mkdir -p $R
tools/gpu/device_run.sh devices > $R/devices.txt 2>&1   # builds build-gpu (after)
rm -rf /tmp/before && mkdir /tmp/before && cp -r CMakeLists.txt include host backends cl_kernels tests tools cmake* /tmp/before/ 2>/dev/null
(cd /tmp/before && patch -R -p1 < $OLDPWD/out/oneblock.patch > $R/patch.log 2>&1)
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
      for band in 8,32,128@500; do
        BCHOL_DEVICE=nvidia $bin bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} \
          | grep -E "^ *[0-9]+ " | awk -v v=$v -v p=$p -v r=$round '{print v, p, r, $1, $3, $12}' >> $R/ab.txt
      done
      BCHOL_DEVICE=nvidia $bin bench --solve --vbatched --precision $p --nrhs 1 --nmax 8,32,128 --batch 500 \
        | grep -E "^ *[0-9]+ " | awk -v v=$v -v p=$p -v r=$round '{print v, "solve-" p, r, $1, $2, $4}' >> $R/ab.txt
    done
  done
done
(cd $R && tar czf $O/call9.tgz .)
# median per (version, precision, nmax) of the default version's ms
sort -k1,1 -k2,2 -k4,4n $R/ab.txt | awk '{k=$1" "$2" "$4; a[k]=a[k]" "$6} END {for (k in a) print k, a[k]}' | sort
