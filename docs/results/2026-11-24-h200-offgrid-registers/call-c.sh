# H200: exhaustive fused and separate sweeps at n = 24, 96, 384 (off the tuning grid), and
# the shipped file's picks there against their best
O=$OUT; R=$O/r; mkdir -p $R
OUT=$O/t tools/gpu/device_run.sh tune-offgrid > $R/offgrid-steps.txt 2>&1; tail -30 $R/offgrid-steps.txt
tar xzf $O/t/results.tgz -C $R; rm -rf $O/t
(cd $R && tar czf $O/call5.tgz .); rm -rf $R
