#!/usr/bin/env bash
# H100: the whole CTest suite on the NVIDIA device with the shipped H100 file (probes
# included), at the final tree.
set -u
O=${OUT:-out}
mkdir -p $O
tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
grep -E "NVIDIA H100 80GB HBM3,|tests passed|Failed|\*\*\*" $O/run.txt | head -12
