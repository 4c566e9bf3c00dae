# H100: the fused sweep resumed to its end, then vbatched at the 0.1 fraction the H100 file had
O=$OUT; R=$O/r; mkdir -p $R
TUNE_FILE=data/tuning/nvidia-h100.json TUNE_ALSO_DEFAULT= TUNE_VARIANTS=fused TUNE_FRACTION=1 \
  TUNE_MINUTES=4 OUT=$O/t tools/gpu/device_run.sh tune > $R/tune-steps2.txt 2>&1; tail -3 $R/tune-steps2.txt
mkdir -p $R/t2; tar xzf $O/t/results.tgz -C $R/t2; rm -rf $O/t
TUNE_FILE=data/tuning/nvidia-h100.json TUNE_ALSO_DEFAULT= TUNE_VARIANTS=vbatched TUNE_FRACTION=0.1 \
  TUNE_MINUTES=4.5 OUT=$O/t tools/gpu/device_run.sh tune > $R/tune-steps3.txt 2>&1; tail -3 $R/tune-steps3.txt
mkdir -p $R/t3; tar xzf $O/t/results.tgz -C $R/t3; rm -rf $O/t
(cd $R && tar czf $O/call2.tgz .); rm -rf $R
