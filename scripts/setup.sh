#!/usr/bin/env bash
# Installs the Debian packages bchol needs that are missing, then configures and builds
# it in ./build (or $BCHOL_BUILD_DIR). Sourced by run_main.sh and run_tests.sh.
set -eu
cd "$(dirname "$0")/.."
PACKAGES="cmake make gcc pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
          libclblast-dev libhwloc-dev libcjson-dev liblapacke-dev libopenblas-dev gnuplot-nox"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
BUILD=${BCHOL_BUILD_DIR:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=${BCHOL_BUILD_TYPE:-Release} ${BCHOL_CMAKE_ARGS:-}
cmake --build "$BUILD" -j"$(nproc)"
