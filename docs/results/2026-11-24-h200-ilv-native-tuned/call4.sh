# call 4 (H200): the interleaved routines on data already interleaved, n = 4..64, batch 16384:
# the old NVIDIA defaults (before), the new ones (after), the tuned file; 3 alternating rounds
O=$OUT; R=$O/r; mkdir -p $R
tools/gpu/device_run.sh devices > $R/devices.txt 2>&1   # builds build-gpu (after)
tail -2 $R/devices.txt
rm -rf /tmp/before && mkdir /tmp/before && cp -r CMakeLists.txt include host backends cl_kernels tests tools cmake* /tmp/before/ 2>/dev/null
(cd /tmp/before && patch -R -p1 < $OLDPWD/out/ilvdef.patch > $R/patch.log 2>&1); cat $R/patch.log
export BCHOL_TUNING_DIR=$PWD/data/tuning
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread
cmake -S /tmp/before -B /tmp/before/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PREFIX/usr \
  "-DCMAKE_LIBRARY_PATH=$LIB/openblas-pthread;$LIB" -DCMAKE_INCLUDE_PATH=$PREFIX/usr/include > $R/build-before.log 2>&1
cmake --build /tmp/before/build -j16 --target bchol_cmd >> $R/build-before.log 2>&1 || tail -20 $R/build-before.log
t0=$(date +%s)
for round in 1 2 3; do
  for v in before after tuned generic; do
    bin=build-gpu/tools/bchol; file=off; defaults=device
    [ $v = before ] && bin=/tmp/before/build/tools/bchol
    [ $v = tuned ] && file=$PWD/data/tuning/nvidia-h200.json
    [ $v = generic ] && defaults=generic
    for p in s d; do
      BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=$file BCHOL_DEFAULTS=$defaults $bin bench --precision $p \
        --n 4,8,16,24,32,48,64 --batch 16384 --variant interleaved >> $R/ilv-$v-$p.txt 2>&1
    done
    echo "round $round $v: $(( $(date +%s) - t0 )) s"
  done
done
for p in s d; do
  for v in before after generic; do
    python3 tools/gpu/rounds_ratio.py "$p $v/tuned" n 11 $R/ilv-$v-$p.txt $R/ilv-tuned-$p.txt | tee -a $R/ratios.txt
  done
  python3 tools/gpu/rounds_ratio.py "$p before/after" n 11 $R/ilv-before-$p.txt $R/ilv-after-$p.txt | tee -a $R/ratios.txt
done
(cd $R && tar czf $O/call4.tgz .)
