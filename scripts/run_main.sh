#!/usr/bin/env bash
# The main job: build bchol and compare it with the OpenMP LAPACKE loop on the default
# device (BCHOL_DEVICE chooses another). Extra arguments go to `bchol bench`.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
exec "${BCHOL_BUILD_DIR:-build}/cli/bchol" bench --compare lapack "$@"
