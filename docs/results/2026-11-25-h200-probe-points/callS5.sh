#!/usr/bin/env bash
# H200, 2026-11-25 (session 22): the whole CTest suite on the NVIDIA device at the final
# tree (the library as at d15b623: the staged kernel launched through bchol__launch_groups)
set -u
O=${OUT:-out}
mkdir -p $O
timeout 570 tools/gpu/device_run.sh devices test > $O/run.txt 2>&1
grep -E "NVIDIA H|tests passed|Failed|\*\*\*" $O/run.txt | head -20
