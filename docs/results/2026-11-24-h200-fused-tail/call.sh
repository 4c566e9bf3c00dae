# H200: the fused kernel's narrower last panel through its own kernel (TAIL) against HEAD
# (oldsrc/: the four files before), fixed size with the shipped file and with given
# parameters, 3 alternating rounds; then CTest on the NVIDIA device
O=$OUT; R=$O/r; mkdir -p $R
OUT=$O/d tools/gpu/device_run.sh devices > $R/steps.txt 2>&1; tar xzf $O/d/results.tgz -C $R; rm -rf $O/d
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread BCHOL_DEVICE=nvidia
rm -rf /tmp/old; mkdir -p /tmp/old && cp -r CMakeLists.txt cmake include host cl_kernels backends tests tools data /tmp/old/ && cp -r oldsrc/* /tmp/old/
cmake -S /tmp/old -B /tmp/old/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PREFIX/usr \
  "-DCMAKE_LIBRARY_PATH=$LIB/openblas-pthread;$LIB" -DCMAKE_INCLUDE_PATH=$PREFIX/usr/include > $R/build-old.log 2>&1
cmake --build /tmp/old/build -j16 --target bchol_cmd >> $R/build-old.log 2>&1 || tail -20 $R/build-old.log
F=$PWD/data/tuning/nvidia-h200.json
t0=$(date +%s)
for round in 1 2 3; do
  for cfg in old new; do
    B=build-gpu/tools/bchol; [ $cfg = old ] && B=/tmp/old/build/tools/bchol
    for p in s d; do
      BCHOL_TUNING_FILE=$F $B bench --precision $p --n 20,24,28,40,44,48,72,96,100,160,200,300 > $R/t.txt 2>&1
      grep -E "^ *[0-9]+ " $R/t.txt | awk -v c=$cfg -v p=$p '{print c, p, "file", $1, $3, $5}' >> $R/ab.txt
      for prm in "16 4 1 fixed" "16 4 1 shrink" "8 4 1 shrink"; do set -- $prm
        BCHOL_TUNING_FILE=$F $B bench --precision $p --n 4,20,24,28 --variant fused --ib $1 --tbc $2 --rpt $3 --shape $4 > $R/t.txt 2>&1
        grep -E "^ *[0-9]+ " $R/t.txt | awk -v c=$cfg -v p=$p -v k="ib$1-tbc$2-$4" '{print c, p, k, $1, $3, $5}' >> $R/ab.txt
      done
    done
  done
  echo "round $round: $(( $(date +%s) - t0 )) s"
done
python3 - $R/ab.txt > $R/ab-summary.txt <<'PY'
import sys, statistics, collections, math
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    c, p, k, n, ms, err = l.split(); d[(p, k, int(n), c)].append(float(ms))
keys = sorted({(p, k, n) for (p, k, n, c) in d})
logs = []
for p, k, n in keys:
    o, w = statistics.median(d[(p, k, n, 'old')]), statistics.median(d[(p, k, n, 'new')])
    print(f"{p} {k:18s} n={n:<4d} old {o:9.4f} ms  new {w:9.4f} ms  new/old {w/o:.3f}")
PY
(cd $R && tar czf $O/call7.tgz .)
OUT=$O/c tools/gpu/device_run.sh test > $R/test-steps.txt 2>&1; tail -3 $R/test-steps.txt
mkdir -p $R/c; tar xzf $O/c/results.tgz -C $R/c; rm -rf $O/c
cp $R/c/ctest-nvidia.log $R/; (cd $R && tar czf $O/call7.tgz .)
cat $R/ab-summary.txt
