# H200: the NVIDIA backend's defaults before (nvidia_old.c) and after this change, both
# untuned (BCHOL_TUNING_FILE=off), and the shipped H200 file; 2 alternating rounds
O=$OUT; R=$O/r; mkdir -p $R
OUT=$O/d tools/gpu/device_run.sh > $R/steps.txt 2>&1; rm -rf $O/d
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread BCHOL_DEVICE=nvidia
mkdir -p /tmp/old && cp -r CMakeLists.txt cmake include host cl_kernels backends tests tools data /tmp/old/ && cp nvidia_old.c /tmp/old/backends/nvidia.c
cmake -S /tmp/old -B /tmp/old/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PREFIX/usr \
  "-DCMAKE_LIBRARY_PATH=$LIB/openblas-pthread;$LIB" -DCMAKE_INCLUDE_PATH=$PREFIX/usr/include > $R/build-old.log 2>&1
cmake --build /tmp/old/build -j16 --target bchol_cmd >> $R/build-old.log 2>&1 || tail -20 $R/build-old.log
t0=$(date +%s)
for round in 1 2; do
  for cfg in old new; do
    B=build-gpu/tools/bchol; file=off
    [ $cfg = old ] && B=/tmp/old/build/tools/bchol
    [ $cfg = tuned ] && file=$PWD/data/tuning/nvidia-h200.json
    for p in s d; do
      BCHOL_TUNING_FILE=$file $B bench --precision $p --n 4,8,16,32,64,128,256,512 >> $R/fixed-$cfg-$p.txt 2>&1
      for band in 4,8,16,32,64@16384 128,256@3000 512@1000; do
        BCHOL_TUNING_FILE=$file $B bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} >> $R/vb-$cfg-$p.txt 2>&1
      done
    done
  done
  echo "round $round: $(( $(date +%s) - t0 )) s"
done
for p in s d; do
  for pair in "old new"; do set -- $pair
    echo "== $p fixed $1 / $2"; python3 tools/gpu/rounds_ratio.py "$p" n 3 $R/fixed-$1-$p.txt $R/fixed-$2-$p.txt | tail -8
    echo "== $p vbatched $1 / $2"; python3 tools/gpu/rounds_ratio.py "$p vbatched" nmax 12 $R/vb-$1-$p.txt $R/vb-$2-$p.txt | tail -9
  done
done > $R/ratios.txt
(cd $R && tar czf $O/call4b.tgz .); rm -rf $R/fixed* $R/vb*
grep -E "==|geometric" $R/ratios.txt
