# H200 at HEAD: the argument tests (args_ib2_double on NVIDIA: the factorization) and the
# n = 44 potrf tests; then bchol bench against torch cholesky_ex at sizes off the grid
O=$OUT
TEST_REGEX='args_|potrf_.*_n44_' SIZES=12,20,24,40,48,100,200 OUT=$O/t tools/gpu/device_run.sh devices test bench > $O/steps.txt 2>&1
tail -40 $O/steps.txt
