#!/usr/bin/env bash
# H200: the fused and vbatched tests and the tuning tests on the NVIDIA device after the
# fused kernel's BEFORE_J macro (the same expressions, no constant operand of &&).
set -u
O=${OUT:-out}
mkdir -p $O
TEST_REGEX='potrf|vbatched|tun|po_types' tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
grep -E "NVIDIA H200,|tests passed|Failed|\*\*\*" $O/run.txt | head -12
