#!/usr/bin/env bash
# CI: bchol on a device without fp64 and with a small per-kernel work-group limit: Mesa
# Rusticl 22.3 on llvmpipe (Debian's mesa-opencl-icd; float only, 32 KiB local memory,
# CL_KERNEL_WORK_GROUP_SIZE 32 for every kernel). Runs a subset of the CTest suite that
# fits about 5 minutes on 2 cores: the float cases of every routine family and variant,
# a sample of double cases (each must show "Skipped": "skipped: no fp64"), the argument
# and fault tests. Uses the tree's build (./build or $BCHOL_BUILD_DIR; built here if
# missing). Installs mesa-opencl-icd when missing, diverting its .icd files out of
# /etc/OpenCL/vendors so that other programs keep seeing only the system's platforms;
# this script points OCL_ICD_VENDORS at a folder holding Rusticl's alone. Extra
# arguments go to ctest.
set -eu
cd "$(dirname "$0")/../.."
root=$PWD
BUILD=${BCHOL_BUILD_DIR:-build}

if ! dpkg -s mesa-opencl-icd >/dev/null 2>&1; then
    for f in rusticl.icd mesa.icd; do
        if ! dpkg-divert --list "/etc/OpenCL/vendors/$f" | grep -q .; then
            mkdir -p /usr/share/bchol-ci
            dpkg-divert --quiet --local --rename --divert "/usr/share/bchol-ci/$f" \
                "/etc/OpenCL/vendors/$f"
        fi
    done
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        mesa-opencl-icd > /dev/null
fi
icd=$(dpkg-divert --truename /etc/OpenCL/vendors/rusticl.icd)
[ -f "$icd" ] || { echo "ci_float_only: no rusticl.icd from mesa-opencl-icd" >&2; exit 1; }
vendors=$root/$BUILD/rusticl-vendors
mkdir -p "$vendors"
cp "$icd" "$vendors/rusticl.icd"
export OCL_ICD_VENDORS=$vendors RUSTICL_ENABLE=llvmpipe BCHOL_DEVICE=0:0

[ -f "$BUILD/CMakeCache.txt" ] || BCHOL_BUILD_DIR=$BUILD scripts/setup.sh
cmake --build "$BUILD" -j"$(nproc)" > /dev/null
"$BUILD/cli/bchol" devices | grep -q 'fp64 *no' || {
    echo "ci_float_only: the Rusticl device was not found, or has fp64" >&2
    exit 1
}

# Float cases of each family (fused, separate, interleaved, vbatched, solves), the
# shapes, the limits, arguments and faults; double cases that must skip.
subset='^(potrf_s[LU]_n(1|7|17|33|64|100)_ib8|potrf_info_sL_n(5|64)|potrf_host_sU'
subset+='|potrf_shape_.*|potrf_n0|potrf_dL_n17_ib8|potrf_dU_n44_ib16|potrf_wg_limit3'
subset+='|args_.*|no_fp64_.*|potrs_args_.*|faults_(no_fp64|build|sweep_host)'
subset+='|sep_s[LU]_n64_nb16|sep_sL_n200_info|sep_sU_n333_nb24|sep_wg_limit32|sep_dU_n1024_auto'
subset+='|potrs_s[LU]_n(17|33)_nrhs(1|3)|potrs_shape_.*|posv_sL_n33_nrhs16|posv_info_sU_n5'
subset+='|potrs_host_sU|posv_dU_n20_nrhs3'
subset+='|ilv_s[LU]_n(5|17|33)_.*|ilv_(tight_chunked|args|copy_tile_sL)|potrf_ilv_s[LU]_n(7|33)'
subset+='|ilvsolve_potrs_sL_nrhs(1|16)|ilvsolve_posv_sL_nrhs1|ilvsolve_convert_s|ilvsolve_args'
subset+='|vbatched_(info_sL|bad_ex_sL|host_sU|n2_mix|pack_wg_limit|args|bad_many|info_dU)'
subset+='|vbsep_(sU_n150|split_info_sL|wg_limit32|plain_n1024)'
subset+='|potrs_vbatched_sL|posv_vbatched_info_sL|solve_vbatched_args'
subset+='|po_types_sL|concurrency_(one_context|errors)|loop_limit_(guard|device))$'
# potrs_shape_rpt64 (n = 200, rows per work-item 64): llvmpipe ends a work-item's loops
# after 65535 iterations, which that shape's loops pass: refused there, the case skips.
cd "$BUILD"
# CTest's regular expressions take at most 9 groups: pick the names here, pass a flat list.
names=$(ctest -N | awk '/Test +#/ {print $3}' | grep -E "$subset" | paste -sd'|')
[ -n "$names" ] || { echo "ci_float_only: no test matches the subset" >&2; exit 1; }
exec ctest -j"$(nproc)" --output-on-failure -R "^($names)\$" "$@"
