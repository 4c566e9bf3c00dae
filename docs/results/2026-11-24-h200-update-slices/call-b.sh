#!/usr/bin/env bash
# H200: the vbatched/fused kernels' PTX (registers, spills via triton's ptxas if present)
# and a per-launch trace of vbatched nmax 256 float with ksplit 1 and 2
set -u
O=$OUT
tools/gpu/device_run.sh devices > $O/devices.txt 2>&1 || { tail -30 $O/build.log; exit 1; }
B=build-gpu/tools/bchol
export BCHOL_DEVICE=nvidia
mkdir -p /tmp/c1 /tmp/c2
BCHOL_CACHE_DIR=/tmp/c1 $B bench --vbatched --precision s --nmax 256 --batch 3000 --reps 3 > $O/vb1.txt 2>&1
BCHOL_CACHE_DIR=/tmp/c2 $B bench --precision s --n 256 --batch 3000 --variant fused --reps 3 > $O/fx1.txt 2>&1
PTXAS=$(python3 -c "import triton, os; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin/ptxas'))" 2>/dev/null)
ls -la $PTXAS > $O/ptxas.txt 2>&1
mkdir -p $O/ptx
for d in c1 c2; do
  for f in $(find /tmp/$d -type f); do
    if grep -q "potrf_vbatched_step\|potrf_fused_step" $f 2>/dev/null; then
      cp $f $O/ptx/$d-$(basename $f).ptx
      [ -x "$PTXAS" ] && $PTXAS -arch=sm_90 -v $f -o /tmp/x.cubin >> $O/ptxas.txt 2>&1
    fi
  done
done
(cd $O && tar czf ptx.tgz ptx && rm -rf ptx)
for ks in 1 2; do
  BCHOL_TRACE=1 $B bench --vbatched --precision s --nmax 256 --batch 3000 --reps 1 --warmup 1 --ksplit $ks --no-pad > $O/trace-ks$ks.txt 2>&1
done
cat $O/ptxas.txt | tail -30
for ks in 1 2; do echo "ks $ks"; grep -i "step" $O/trace-ks$ks.txt | tail -20 | cut -c1-150; done
