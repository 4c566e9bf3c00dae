#!/usr/bin/env bash
# CI: the CTest suite on a second OpenCL implementation, Intel's CPU runtime, installed
# from PyPI (intel-opencl-rt, intel-cmplr-lib-rt) into a venv under the build folder.
# An ICD file of our own in a private folder names its libintelocl.so, and OCL_ICD_VENDORS
# points the system's ICD loader at that folder only, so the runtime is the one platform
# (BCHOL_DEVICE=0:0); the runtime's own libOpenCL.so stays out of the library path.
# Builds ./build (or $BCHOL_BUILD_DIR) as scripts/run_tests.sh does, or reuses it.
#
# By default it runs CI's subset, which fits its budget (docs/DEVELOPING.md, "Other OpenCL
# implementations"): the whole suite (--all) took 21.5 min on the dev machine's shared 2
# cores, most of it compiling kernels, which this runtime does slowly. The subset leaves
# out the long sweeps and fuzz replays that PoCL runs anyway (SLOW), the cases that took
# over 15 s each on this runtime (SLOW_HERE), the fixed-size factorization's ib 4 and
# ib 16 repeats, and of every precision x triangle matrix of cases the single-upper and
# double-lower corners (each precision and each triangle still runs).
# Other arguments go to ctest (e.g. -R potrf_).
set -eu
SLOW='fuzz_args2_corpus|faults_work_group|potrf_shape_rpt_all|potrf_wg_limit[0-9]*|tune_run_.*|tuning_caller_ib|solve_vbatched_args'
SLOW_HERE='faults_context_loop|ilv_dU_n64_nb10_right_tiles_chunked_info|ilvsolve_potrs_n70|po_types_dU|po_types_sL|potrf_shape_ib32|potrs_large_n1024|potrs_shape_rpt64|sep_clblast_sL_n200|tune_run|tuning_file|vbatched_ib32|vbatched_tbc_fit_local'
SUBSET="^($SLOW|$SLOW_HERE)\$|_ib(4|16)\$|_(sU|dL)(_|\$)"
select=(-E "$SUBSET")
if [ "${1:-}" = --all ]; then
  select=()
  shift
fi
cd "$(dirname "$0")/../.."
scripts/setup.sh > /dev/null
BUILD=$(cd "${BCHOL_BUILD_DIR:-build}" && pwd)
RT=$BUILD/intel-ocl
if [ ! -x "$RT/venv/bin/python" ]; then
  # Debian's python3 refuses pip outside a venv (PEP 668); the venv needs python3-venv
  if ! python3 -m venv "$RT/venv" > /dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-venv
    rm -rf "$RT/venv"
    python3 -m venv "$RT/venv"
  fi
fi
if [ ! -e "$RT/venv/lib/libintelocl.so" ]; then
  "$RT/venv/bin/python" -m pip install -q --disable-pip-version-check intel-opencl-rt intel-cmplr-lib-rt
fi
lib=$RT/venv/lib/libintelocl.so
[ -e "$lib" ] || { echo "ci_intel_cpu: $lib missing after pip install" >&2; exit 1; }
mkdir -p "$RT/icd"
echo "$lib" > "$RT/icd/intel-cpu.icd"
export OCL_ICD_VENDORS=$RT/icd
export BCHOL_DEVICE=${BCHOL_DEVICE:-0:0}
"$BUILD/cli/bchol" devices 2>/dev/null | head -n 4 || true
cd "$BUILD"
exec ctest -j"$(nproc)" --output-on-failure "${select[@]}" "$@"
