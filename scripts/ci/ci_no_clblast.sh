#!/usr/bin/env bash
# CI: bchol without CLBlast (-DBCHOL_WITH_CLBLAST=OFF) still builds and factors: builds
# the library and the testers only in ./build-noclblast (or $1), then runs the separate
# variant on its own GEMM kernels (lower and upper, single and double, info), and the
# argument test that asks for the missing CLBlast GEMM. Under a minute on 2 cores.
# Meant to follow scripts/run_tests.sh in .ci/run (the packages are installed by then).
set -eu
cd "$(dirname "$0")/../.."
BUILD=${1:-build-noclblast}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DBCHOL_WITH_CLBLAST=OFF -DBCHOL_BUILD_TOOLS=OFF \
  > /dev/null
cmake --build "$BUILD" -j"$(nproc)" --target test_potrf test_args
cd "$BUILD"
exec ctest -j"$(nproc)" --output-on-failure --no-tests=error \
  -R '^(sep_sL_n64_nb16|sep_dU_n200_info|sep_split_launches|args_clblast_unavailable|args_separate_params)$'
