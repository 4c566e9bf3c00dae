#!/usr/bin/env bash
# H200 (session 25): issue 3, a vbatched batch split by order into classes, each a call of
# its own: in turn on one queue, or a queue per class (vbq.c). Reference: bench --vbatched.
set -u
R=${OUT:-out}
O=$R/q
mkdir -p $O
tools/gpu/device_run.sh devices > $O/run-devices.txt 2>&1
LIB=/tmp/bchol-deps/usr/lib/x86_64-linux-gnu
gcc -O2 -Iinclude -Itools/lib -Ibuild-gpu/generated vbq.c build-gpu/tools/libbchol_util.a build-gpu/libbchol.a \
  -L$LIB -Wl,-rpath,$LIB -lOpenCL -lclblast -lcjson -lm -lpthread -o /tmp/vbq > $O/gcc.txt 2>&1 || cat $O/gcc.txt
export LD_LIBRARY_PATH=$LIB:${LD_LIBRARY_PATH:-}
for p in s d; do
  BCHOL_DEVICE=nvidia timeout 100 build-gpu/tools/bchol bench --vbatched --precision $p --nmax 128,256 --batch 3000 > $O/bench-$p.txt 2>&1
  timeout 200 /tmp/vbq $p 256 3000 20 - 128 64,128,192 32,64,96,128,160,192,224 16,32,48,64,80,96,112,128,144,160,176,192,208,224,240 \
     96,160,208 > $O/vbq-$p-256.txt 2>&1
  timeout 100 /tmp/vbq $p 128 3000 20 - 64 32,64,96 16,32,48,64,80,96,112 > $O/vbq-$p-128.txt 2>&1
done
tar -czf $R/all.tgz -C $O .
for f in $O/bench-*.txt $O/vbq-*.txt; do echo "== $f"; grep -vE "^#" $f | tail -12; done
