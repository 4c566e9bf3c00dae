#!/usr/bin/env bash
# H200 (session 25): as callQ1, plus the classes on queues without profiling (their span
# from markers on the first, profiled queue): does profiling serialize the queues?
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
  timeout 150 /tmp/vbq $p 256 3000 20 - 128 64,128,192 32,64,96,128,160,192,224 > $O/vbq-$p-256.txt 2>&1
done
cat $O/vbq-*.txt > $R/vbq.txt
tar -czf $R/all.tgz -C $O .
cut -c1-120 $R/vbq.txt
