# call 5 (H200): the interleaved-native entries of the shipped H200 file, then the native
# routines tuned against untuned (3 alternating rounds), and the tuning/interleaved tests
export TUNE_VARIANTS=interleaved-native TUNE_FRACTION=${TUNE_FRACTION:-0.2} TUNE_MINUTES=${TUNE_MINUTES:-5}
export TUNE_CHECK_ROUNDS=3 TEST_REGEX='tuning|tune_run|ilv|interleaved'
t0=$(date +%s)
tools/gpu/device_run.sh tune tune-check-interleaved test
echo "call took $(( $(date +%s) - t0 )) s"
