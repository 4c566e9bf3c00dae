# call 7 (H200): tuned against untuned over the bench grid's rows: fixed size (auto) at the
# grid's 13 orders, vbatched (uniform orders), the interleaved routines on native data
export TUNE_CHECK_ROUNDS=${TUNE_CHECK_ROUNDS:-2} SIZES=4,8,16,24,32,48,64,96,128,192,256,384,512
t0=$(date +%s)
tools/gpu/device_run.sh tune-check 2>&1 | tail -3
echo "fixed: $(( $(date +%s) - t0 )) s"
mkdir -p /tmp/keep && tar xzf $OUT/results.tgz -C /tmp/keep
TUNE_CHECK_ROUNDS=1 tools/gpu/device_run.sh tune-check-vbatched tune-check-interleaved 2>&1 | grep "geometric"
echo "all: $(( $(date +%s) - t0 )) s"
tar xzf $OUT/results.tgz -C /tmp/keep
cat /tmp/keep/tune-check-ratios.txt /tmp/keep/tune-check-vbatched-ratios.txt /tmp/keep/tune-check-interleaved-ratios.txt > /tmp/keep/grid-ratios.txt
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+x$/) { r = $i; sub(/x$/, "", r); s += log(r); k++; break } }
     END { printf "bench grid rows (fixed auto, vbatched, interleaved native; s and d): geometric mean %.3fx over %d points\n", exp(s / k), k }' /tmp/keep/grid-ratios.txt | tee /tmp/keep/grid.txt
rm -f $OUT/results.tgz; (cd /tmp/keep && tar czf $OUT/call7.tgz .)
