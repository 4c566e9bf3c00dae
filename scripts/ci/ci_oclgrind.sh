#!/usr/bin/env bash
# CI step: a small representative subset of the tests on oclgrind (an OpenCL simulator)
# with its data-race, uninitialized-value and out-of-bounds checks. Any report fails the
# step, except those listed in scripts/ci/hardening/oclgrind.supp (kernel file:line and why).
# Usage: scripts/ci/ci_oclgrind.sh [BUILD_DIR]   (default: build, made by scripts/setup.sh)
set -eu
cd "$(dirname "$0")/../.."
BUILD=${1:-${BCHOL_BUILD_DIR:-build}}
if ! dpkg-query -W -f='${Status}' oclgrind 2>/dev/null | grep -q "install ok installed"; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends oclgrind
fi
[ -x "$BUILD/tests/test_potrf" ] || scripts/setup.sh
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Debian's oclgrind ships no ICD file: one naming its runtime, alone in a folder.
mkdir -p "$WORK/icd"
echo /usr/lib/oclgrind/liboclgrind-rt-icd.so > "$WORK/icd/oclgrind.icd"
export OCL_ICD_VENDORS=$WORK/icd BCHOL_DEVICE=0:0 BCHOL_CACHE_DIR=$WORK/cache
export OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1 OCLGRIND_CHECK_API=1
# Uninitialized-value tracking needs unoptimized kernels (oclgrind's documentation).
export OCLGRIND_BUILD_OPTIONS=-cl-opt-disable
T=$BUILD/tests
# name | command: every kernel family at small sizes (fused with a narrower last panel,
# both triangles, failed matrices; separate; workitem; interleaved aligned and clamped, staged; the
# solves; variable sizes with the device checks, fused, separate and workitem (factor, solve); LU: several matrices
# a group with idle lanes, several rows a work-item, nopiv; the workitem LU (vectors and
# scalar rows, a part-idle group; in panels with a tail of steps, against unblocked); the regs LU (m > n, a part-idle group; m < n without pivoting); the
# blocked LU (panels in local memory and in place, the left interchanges at the end and at
# every panel, inner panels, m < n without pivoting); the LU solves,
# both trans, with several work-items and units a group, singular matrices in getri
# (solve, fused and blocked in pieces) and gesv; the workitem LU solve (vectors of 4 and a
# scalar tail, passes of nt plus single columns, singular U, gesv's failed matrices,
# getri's identity; the vbatched form with bad entries, and gesv's); LU vbatched: the pivot checks, bad
# entries and singular matrices in gesv, the 'T' solve, rectangular matrices split between
# the fused kernel and the blocked path)
CASES=(
  "fused_sL|$T/test_potrf --precision s --uplo L --n 7 --ib 4 --batch 3"
  "fused_dU_info|$T/test_potrf --precision d --uplo U --n 10 --ib 4 --batch 6 --mode info"
  "fused_tbc|$T/test_potrf --precision s --uplo L --n 5 --ib 4 --tbc 3 --shape shrink --batch 5"
  "separate_sL|$T/test_potrf --precision s --uplo L --n 40 --batch 2 --variant separate --nb 16 --pb 4 --gemm own --tile 16"
  "separate_dU_info|$T/test_potrf --precision d --uplo U --n 36 --batch 4 --variant separate --nb 16 --pb 4 --gemm own --tile 16 --mode info"
  "workitem_sL|$T/test_potrf --precision s --uplo L --n 19 --batch 3 --variant workitem --wnb 4 --wvec 4 --lda-pad 1"
  "workitem_dU_info|$T/test_potrf --precision d --uplo U --n 13 --batch 5 --variant workitem --wnb 4 --wvec 4 --mode info"
  "ilv_aligned|$T/test_potrf --precision s --uplo L --n 6 --batch 8 --variant interleaved --inb 4 --chunking chunked --chunk 4"
  "ilv_clamped|$T/test_potrf --precision d --uplo U --n 5 --batch 7 --variant interleaved --inb 4 --chunking simple --chunk 4 --mode info"
  "ilv_staged|$T/test_potrf --precision s --uplo L --n 4 --batch 9 --variant interleaved --inb 4 --chunking staged --chunk 4"
  "potrs_sL|$T/test_potrs --precision s --uplo L --n 9 --nrhs 3 --batch 3"
  "posv_info_dU|$T/test_potrs --mode info --precision d --uplo U --n 5 --nrhs 2 --batch 6"
  "potrs_workitem_sL|$T/test_potrs --variant workitem --precision s --uplo L --n 11 --nrhs 3 --batch 3 --lda-pad 1 --ldb-pad 1"
  "posv_workitem_info_dU|$T/test_potrs --variant workitem --mode info --precision d --uplo U --n 9 --nrhs 2 --batch 6"
  "vbatched_info_sL|$T/test_potrf_vbatched --precision s --uplo L --nmax 12 --batch 8 --mode info --ib 4"
  "vbatched_sep_dL|$T/test_potrf_vbatched --precision d --uplo L --nmax 40 --batch 3 --variant separate"
  "vbatched_aggr_tbc_dU|$T/test_potrf_vbatched --precision d --uplo U --nmax 11 --batch 9 --mode info --dist mix --tbc 3 --ib 4 --etm aggressive --schedule lazy"
  "vbatched_one_launch_sL|$T/test_potrf_vbatched --precision s --uplo L --nmax 10 --batch 7 --mode info --dist mix --tbc 2 --ib 4 --rpt 2 --schedule one-launch"
  "vbatched_bad_sL|$T/test_potrf_vbatched --precision s --uplo L --nmax 6 --batch 48 --mode bad"
  "potrs_vbatched_sU|$T/test_potrs_vbatched --precision s --uplo U --nmax 10 --batch 12"
  "vbatched_workitem_info_dU|$T/test_potrf_vbatched --precision d --uplo U --nmax 13 --batch 9 --mode info --dist mix --variant workitem"
  "posv_vbatched_workitem_bad_sL|env BCHOL_SOLVE_VARIANT=workitem BCHOL_VBATCHED_VARIANT=workitem $T/test_potrs_vbatched --precision s --uplo L --nmax 10 --batch 30 --mode bad"
  "posv_vbatched_info_dL|$T/test_potrs_vbatched --precision d --uplo L --nmax 8 --batch 12 --mode info"
  "interleave_copy_dU|$T/test_interleaved --precision d --uplo U --n 5 --batch 19 --chunk 8 --mode copy --copy A"
  "potrs_ilv_sL|$T/test_potrs_interleaved --precision s --uplo L --n 6 --nrhs 2 --batch 5"
  "getrf_tbc_s|$T/test_getrf --precision s --n 3 --batch 14 --lda-pad 1 --stride-pad 2 --piv-pad 1 --offset 2 --offset-p 1"
  "getrf_rows_d|$T/test_getrf --precision d --m 70 --n 4 --batch 14"
  "getrf_nopiv_s|$T/test_getrf --precision s --m 4 --n 6 --mode nopiv --batch 5"
  "getrf_workitem_d|env BCHOL_GETRF=workitem,tbc=3 $T/test_getrf --precision d --m 11 --n 6 --batch 7 --lda-pad 1 --stride-pad 2 --piv-pad 1 --offset 2 --offset-p 1"
  "getrf_workitem_panels_s|env BCHOL_GETRF=workitem,nb=4,tbc=3 $T/test_getrf --precision s --m 13 --n 10 --batch 7 --lda-pad 1 --stride-pad 2 --piv-pad 1 --same-as workitem,nb=1"
  "getrf_regs_d|env BCHOL_GETRF=regs,tbc=3 $T/test_getrf --precision d --m 11 --n 6 --batch 7 --lda-pad 1 --stride-pad 2 --piv-pad 1 --offset 2 --offset-p 1"
  "getrf_regs_nopiv_s|env BCHOL_GETRF=regs,tbc=2 $T/test_getrf --precision s --m 6 --n 9 --batch 5 --mode nopiv"
  "getrf_blocked_s|env BCHOL_GETRF=blocked,nb=8 $T/test_getrf --precision s --n 20 --batch 5 --lda-pad 1 --stride-pad 2 --piv-pad 1 --offset 2 --offset-p 1"
  "getrf_blocked_in_place_d|env BCHOL_GETRF=blocked,nb=8,panel=global,swaps=each $T/test_getrf --precision d --m 22 --n 13 --batch 4 --stride-pad 1"
  "getrf_blocked_ib_s|env BCHOL_GETRF=blocked,nb=8,ib=4 $T/test_getrf --precision s --m 22 --n 19 --batch 4 --lda-pad 1 --offset 2 --offset-p 1"
  "getrf_blocked_nopiv_s|env BCHOL_GETRF=blocked,nb=4 $T/test_getrf --precision s --m 9 --n 14 --mode nopiv --batch 3"
  "getrs_sN|$T/test_lu_solve --mode getrs --precision s --trans N --n 9 --nrhs 3 --batch 3 --lda-pad 1 --ldb-pad 2 --piv-pad 1 --stride-pad 2 --offset-b 1"
  "getrs_dT_tbc3_rpt2|env BCHOL_LU_SOLVE_SHAPE=2,2,3 $T/test_lu_solve --mode getrs --precision d --trans T --n 7 --nrhs 5 --batch 4 --ldb-pad 1 --stride-pad 1"
  "getrs_workitem_sN|env BCHOL_LU_SOLVE_VARIANT=workitem BCHOL_LU_SOLVE_WORKITEM_VW=4 $T/test_lu_solve --mode getrs --precision s --trans N --n 9 --nrhs 3 --batch 3 --lda-pad 1 --ldb-pad 2 --piv-pad 1 --stride-pad 2 --offset-b 1"
  "getrs_workitem_singular_dT|env BCHOL_LU_SOLVE_VARIANT=workitem BCHOL_LU_SOLVE_WORKITEM_VW=4 $T/test_lu_solve --mode getrs --precision d --trans T --n 7 --nrhs 5 --batch 4 --kind singular --ldb-pad 1 --stride-pad 1"
  "gesv_workitem_singular_d|env BCHOL_LU_SOLVE_VARIANT=workitem $T/test_lu_solve --mode gesv --precision d --n 7 --nrhs 10 --batch 6 --kind singular --stride-pad 1"
  "getri_workitem_singular_s|env BCHOL_GETRI=solve BCHOL_LU_SOLVE_VARIANT=workitem $T/test_lu_solve --mode getri --precision s --n 6 --batch 8 --kind singular --ldb-pad 1 --stride-pad 1"
  "getri_solve_singular_d|env BCHOL_GETRI=solve $T/test_lu_solve --mode getri --precision d --n 6 --batch 8 --kind singular --ldb-pad 1 --stride-pad 1"
  "getri_fused_singular_s|env BCHOL_GETRI=fused $T/test_lu_solve --mode getri --precision s --n 6 --batch 13 --kind singular --ldb-pad 1 --stride-pad 1 --piv-pad 1"
  "getri_blocked_singular_d|env BCHOL_GETRI=blocked,nb=4,chunk=3 $T/test_lu_solve --mode getri --precision d --n 10 --batch 7 --kind singular --lda-pad 1 --ldb-pad 1 --stride-pad 1"
  "getrf_ilv_s|$T/test_lu_interleaved --mode factor --precision s --n 5 --batch 13 --chunk 4"
  "getrs_ilv_dT|$T/test_lu_interleaved --mode solve --precision d --trans T --n 4 --nrhs 3 --batch 9 --chunk 4"
  "gesv_singular_s|$T/test_lu_solve --mode gesv --precision s --n 7 --nrhs 2 --batch 6 --kind singular --stride-pad 1"
  "gesv_vbatched_bad_s|$T/test_lu_vbatched --routine gesv --precision s --nmax 5 --batch 90 --bad 1 --singular 1 --gap 1"
  "getrs_vbatched_dT|$T/test_lu_vbatched --routine getrs --precision d --nmax 6 --batch 10 --trans T --gap 1"
  "getrs_vbatched_workitem_bad_sT|$T/test_lu_vbatched --routine getrs --precision s --nmax 6 --batch 90 --trans T --bad 1 --variant workitem --nt 2 --gap 1"
  "gesv_vbatched_workitem_s|env BCHOL_LU_SOLVE_VARIANT=workitem $T/test_lu_vbatched --routine gesv --precision s --nmax 5 --batch 20 --singular 1 --gap 1 --form plain"
  "getrf_vbatched_workitem_s|env BCHOL_GETRF=workitem $T/test_lu_vbatched --routine getrf --precision s --nmax 5 --batch 90 --shape mixed --bad 1 --singular 1 --gap 1"
  "getrf_vbatched_rect_bad_s|$T/test_lu_vbatched --routine getrf --precision s --nmax 5 --batch 90 --shape mixed --bad 1 --gap 1"
  "getrf_vbatched_split_d|$T/test_lu_vbatched --routine getrf --precision d --nmax 11 --batch 7 --shape mixed --fused-max 4 --nb 3 --singular 1 --gap 1"
)
SUPP=scripts/ci/hardening/oclgrind.supp
passed=0 failed=0
for c in "${CASES[@]}"; do
  name=${c%%|*}; cmd=${c#*|}
  log=$WORK/$name.log
  rc=0
  OCLGRIND_LOG=$log timeout 900 $cmd > "$WORK/$name.out" 2>&1 || rc=$?
  # a report names the kernel file and line ("At line L (column C) of FILE:")
  reports=$(grep -E "^(Data race|Uninitialized|Invalid|Controlflow|Work-group divergence|Read-write|Load from|Store to)" "$log" 2>/dev/null | wc -l)
  unsuppressed=$(grep -oE "At line [0-9]+ \(column [0-9]+\) of [A-Za-z0-9_.]+" "$log" 2>/dev/null |
    sed -E 's/At line ([0-9]+) \(column [0-9]+\) of (.*)/\2:\1/' | sort -u |
    grep -vxF -f <(grep -vE '^(#|$)' "$SUPP" | cut -d' ' -f1) || true)
  if [ "$rc" = 0 ] && { [ "$reports" = 0 ] || [ -z "$unsuppressed" ]; } && [ -s "$log" -o "$reports" = 0 ]; then
    passed=$((passed + 1)); echo "ok     $name"
  else
    failed=$((failed + 1)); echo "FAILED $name (exit $rc, $reports reports${unsuppressed:+ at: $(echo $unsuppressed)})"
    tail -5 "$WORK/$name.out"; grep -m 20 -A 6 -E "^(Data race|Uninitialized|Invalid|Controlflow|Work-group)" "$log" || true
  fi
done
echo "oclgrind: $passed passed, $failed failed"
[ "$failed" = 0 ]
