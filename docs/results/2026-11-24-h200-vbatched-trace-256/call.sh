# H200 at HEAD: where a float vbatched call's time goes at nmax 256 (BCHOL_TRACE: every
# launch waited for and timed), batch 3000 and batch 30 (the largest matrices' chain alone)
O=$OUT
VB_TRACE_BANDS="256@3000" OUT=$O/t3000 tools/gpu/device_run.sh vbatched-trace > $O/steps-3000.txt 2>&1
VB_TRACE_BANDS="256@30" OUT=$O/t30 tools/gpu/device_run.sh vbatched-trace > $O/steps-30.txt 2>&1
tail -4 $O/steps-3000.txt $O/steps-30.txt
