# H100: CTest at HEAD, then the fused space exhaustively into the H100 file (its fused and
# vbatched entries removed: they were timed on the kernel before 0375b01)
O=$OUT; R=$O/r; mkdir -p $R
OUT=$O/c tools/gpu/device_run.sh devices test > $R/test-steps.txt 2>&1; tail -4 $R/test-steps.txt
tar xzf $O/c/results.tgz -C $R; rm -rf $O/c
TUNE_FILE=data/tuning/nvidia-h100.json TUNE_ALSO_DEFAULT= TUNE_VARIANTS=fused TUNE_FRACTION=1 \
  TUNE_MINUTES=${MIN:-3.5} OUT=$O/t tools/gpu/device_run.sh tune > $R/tune-steps.txt 2>&1; tail -5 $R/tune-steps.txt
mkdir -p $R/t1; tar xzf $O/t/results.tgz -C $R/t1; rm -rf $O/t
(cd $R && tar czf $O/call1.tgz .)
grep -E "tests passed|Total Test" $R/ctest-nvidia.log
