#!/usr/bin/env bash
# Fetches (here, where a package registry is reachable) the Debian packages that
# scripts/gpu/device_run.sh unpacks on the lent GPU machine, into the git-ignored .debs/.
# Pass .debs as `carry` to the device tool.
set -eu
cd "$(dirname "$0")/../.."
mkdir -p .debs
cd .debs
apt-get download libclblast1 libclblast-dev libcjson1 libcjson-dev liblapacke liblapacke-dev \
  libopenblas0 libopenblas0-pthread libopenblas-dev libopenblas-pthread-dev libblas3 \
  libblas-dev liblapack3 liblapack-dev libtmglib3 libtmglib-dev libgfortran5
