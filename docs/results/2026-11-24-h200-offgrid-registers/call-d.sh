# H200: float n = 24 (off the grid): the shipped file's pick (n = 16's entry) against the
# off-grid sweep's best and two neighbours, 5 alternating rounds
O=$OUT; R=$O/r; mkdir -p $R
OUT=$O/d tools/gpu/device_run.sh > $R/steps.txt 2>&1; rm -rf $O/d
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread BCHOL_DEVICE=nvidia
B=build-gpu/tools/bchol
for round in 1 2 3 4 5; do
  BCHOL_TUNING_FILE=$PWD/data/tuning/nvidia-h200.json $B bench --precision s --n 20,24,28 --explain > $R/t.txt 2>&1
  grep -E "^ *[0-9]+ " $R/t.txt | awk '{print "file", $1, $3}' >> $R/n24.txt; cat $R/t.txt >> $R/raw.txt
  for cfg in "8 4 1 shrink" "16 4 1 fixed" "16 4 1 shrink" "8 8 1 shrink" "16 2 1 shrink"; do set -- $cfg
    $B bench --precision s --n 20,24,28 --variant fused --ib $1 --tbc $2 --rpt $3 --shape $4 > $R/t.txt 2>&1
    grep -E "^ *[0-9]+ " $R/t.txt | awk -v c="ib$1-tbc$2-$4" '{print c, $1, $3}' >> $R/n24.txt; cat $R/t.txt >> $R/raw.txt
  done
done
(cd $R && tar czf $O/call6.tgz .)
python3 - <<'PY' "$R/n24.txt"
import sys, statistics, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    c, n, ms = l.split(); d[(int(n), c)].append(float(ms))
for k in sorted(d): print(k[0], k[1], "%.4f" % statistics.median(d[k]), len(d[k]))
PY
grep -m3 "from\|entry" $R/raw.txt | cut -c1-200
