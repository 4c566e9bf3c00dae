#!/bin/sh
# Runs a double-precision case with fp64 hidden (BCHOL_DEVICE_NO_FP64=1) and passes only
# if it skipped visibly: exit code 77 (CTest's SKIP_RETURN_CODE) and "skipped: no fp64".
# Usage: expect_skip.sh COMMAND [ARGUMENTS...]
out=$(BCHOL_DEVICE_NO_FP64=1 "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 77 ] || ! printf '%s\n' "$out" | grep -q '^skipped: no fp64$'; then
    echo "FAILED: exit code $rc, expected 77 with \"skipped: no fp64\""
    exit 1
fi
echo "skipped as expected"
