# call 2 (H100): the whole CTest suite on the NVIDIA device, then the H100 file's interleaved entries
export TUNE_FILE=data/tuning/nvidia-h100.json TUNE_ALSO_DEFAULT= TUNE_VARIANTS=interleaved \
  TUNE_FRACTION=0.2 TUNE_ARGS="--set unroll=tiles" TUNE_MINUTES=${TUNE_MINUTES:-3}
t0=$(date +%s)
tools/gpu/device_run.sh devices test tune
echo "call took $(( $(date +%s) - t0 )) s"
