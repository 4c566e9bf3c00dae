# H100: the re-tuned file against the NVIDIA backend's defaults, 2 alternating rounds
O=$OUT; R=$O/r; mkdir -p $R
TUNE_FILE=data/tuning/nvidia-h100.json TUNE_CHECK_ROUNDS=2 OUT=$O/t tools/gpu/device_run.sh tune-check tune-check-vbatched > $R/check-steps.txt 2>&1
mkdir -p $R/tc; tar xzf $O/t/results.tgz -C $R/tc; rm -rf $O/t
(cd $R && tar czf $O/call3.tgz .)
cat $R/tc/tune-check-ratios.txt $R/tc/tune-check-vbatched-ratios.txt $R/tc/tune-check.txt $R/tc/tune-check-vbatched.txt; rm -rf $R
