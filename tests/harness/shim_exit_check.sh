#!/bin/sh
# Runs test_shim_exit with stdout in a pipe: cl_shim must fail it (exit 1) for the leaked
# context, and the test's own line must still come out.
# Usage: shim_exit_check.sh TEST_SHIM_EXIT
out=$("$1"; echo "exit $?")
echo "$out"
echo "$out" | grep -q "^report of the test" || { echo "FAILED: the test's output was lost"; exit 1; }
echo "$out" | grep -q "^exit 1$" || { echo "FAILED: a leak must fail the process with exit 1"; exit 1; }
echo PASSED
