#!/usr/bin/env bash
# Build bchol and run the CTest suite on the default device (BCHOL_DEVICE chooses
# another). Extra arguments go to ctest.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh
cd "${BCHOL_BUILD_DIR:-build}"
exec ctest -j"$(nproc)" --output-on-failure "$@"
