# call 12: EXPERIMENT, vbatched steps in one launch (BCHOL_VBATCHED_ONE_LAUNCH=1) against one launch per step
O=$OUT; R=$O/r; mkdir -p $R
tools/gpu/device_run.sh devices > $R/devices.txt 2>&1
PREFIX=/tmp/bchol-deps; LIB=$PREFIX/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread
for round in 1 2 3; do
  for v in steps one; do
    e=0; [ $v = one ] && e=1
    for p in s d; do
      for band in 8,16,32,64@16384 128,256@3000; do
        BCHOL_VBATCHED_ONE_LAUNCH=$e BCHOL_DEVICE=nvidia build-gpu/tools/bchol bench --vbatched --precision $p \
          --nmax ${band%@*} --batch ${band#*@} | grep -E "^ *[0-9]+ " \
          | awk -v v=$v -v p=$p -v r=$round '{print v, p, r, $1, $3, $4, $5, $6, $12, $13, $16, $17}' >> $R/ab.txt
      done
    done
  done
done
(cd $R && tar czf $O/call12.tgz .)
sort -k1,1 -k2,2 -k4,4n $R/ab.txt | awk '{k=$1" "$2" "$4; a[k]=a[k]" "$9; ok[k]=ok[k]" "$11} END {for (k in a) print k, a[k], ok[k]}' | sort
