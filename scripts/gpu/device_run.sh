#!/usr/bin/env bash
# Runs on the lent GPU machine (no package registry there): unpacks the Debian packages
# carried in .debs/ into a private prefix, builds bchol, then runs the steps named on the
# command line, writing logs and results under $OUT (default ./out):
#   devices   bchol devices
#   test      the CTest suite on the NVIDIA OpenCL device (only the tests matching
#             $TEST_REGEX when set, e.g. TEST_REGEX='tune_run|tuning_prepare')
#   test-pocl the same suite on the machine's PoCL (5.0, its CPU), ctest -j$(nproc) as CI,
#             $POCL_ROUNDS times (default 1), logs ctest-pocl-<round>.log
#   bench     bchol bench, float and double, n = 8..512, with the torch peer
#   solve     bchol bench --solve (posv, potrs), float and double, nrhs = NRHS_LIST
#             (default "1 16"), with the torch peer (cholesky_ex + cholesky_solve);
#             then the interleaved forms (--variant interleaved, n <= $ILV_SOLVE_NMAX, 128)
#   solve-ilv the interleaved solve alone (bench --solve --variant interleaved), float and
#             double, nrhs $NRHS_LIST, n = $ILV_SOLVE_SIZES (16,32,40,48,64,96,128), once per
#             register block in $ILV_BLOCKS ("default 0 8 16": the backend's choice, the
#             whole tile, blocks of 8 and 16; BCHOL_ILV_SOLVE_BLOCK)
#   lu        the batched LU routines against torch: bchol bench --routine R and
#             scripts/gpu/peer_torch_lu.py for R in $LU_ROUTINES (default getrf gesv getri
#             getrs), float and double, n = $LU_SIZES (default 4,8,16,32,64,128,256,512),
#             nrhs $LU_NRHS (1) for getrs and gesv, $LU_REPS (10) timed runs; files
#             lu-R-nvidia-P.txt and torch-lu-R-P.txt; last, scripts/gpu/lu_table.py's
#             markdown tables (also lu-tables.md): n | bchol Gflop/s | torch Gflop/s | ratio
#             per routine and precision (getri: bchol's getrf + getri against inv_ex)
#   vbatched  bchol bench --vbatched, float and double, uniform and Gaussian orders,
#             nmax = $VB_NMAX (default 32:512), batch 3000
#   vbatched-trace  where a float vbatched call's time goes (BCHOL_TRACE): device time per
#             kernel at nmax $VB_TRACE_BANDS (default "8,32,64@16384 128,256@3000")
#   vbatched-pack  the fused kernel's packing on variable sizes (issue 3's aims): bchol bench
#             --vbatched at the grid's nmax and batches (32,48,64 @ 16384; 96..256 @ 3000),
#             one row per tbc in $VB_TBC (default 0,1,2,4,8; 0 = the library's choice),
#             shape in $VB_SHAPES (default shrink,pack) and order in $VB_ORDERS (default
#             index,steps), precisions $VB_PRECISIONS (s), orders $VB_DISTS (uniform);
#             then the split of straddling batches (nmax 384, 512 @ 1000): --variant
#             fused,separate,auto at each crossover in $VB_CROSSOVERS (default 0 = the
#             library's, then 64 128 192 320)
#   solve-vbatched  bchol bench --solve --vbatched, float and double, nrhs $NRHS_LIST,
#             nmax = $VB_NMAX, batch 3000, with the torch peer on the same orders; then
#             bchol als, 100000 users x 20000 items
#   huge      batches beyond 2^31 elements and beyond 2^31 matrices (tests/test_huge.c;
#             about 30 GiB of host and of device memory at most)
#   tune      bchol tune on the NVIDIA device into $TUNE_FILE (default
#             data/tuning/nvidia-h200.json), resuming it, for at most $TUNE_MINUTES (6.5)
#             minutes: every variant (fused, interleaved and interleaved-native n <= 64,
#             separate n >= 32,
#             vbatched n <= 320, and the solve at $TUNE_NRHS, default 1,16 right-hand
#             sides) at $TUNE_SIZES (default 4,8,16,32,64,128,256,512), float
#             and double, a seeded $TUNE_FRACTION (0.2) of each size's configurations (the
#             defaults always; every fused one up to $TUNE_FULL_TO, fused=64), then the
#             probes: the midpoints, and every size between up to $PROBE_EVERY_TO (64) with
#             fewer configurations (every fused one at the probed sizes up to
#             $PROBE_FULL_TO, 32); the choices also become the architecture's default
#             (TUNE_ALSO_DEFAULT=architecture; set it empty for a second device of the same
#             architecture, e.g. TUNE_FILE=data/tuning/nvidia-h100.json). Kernels are
#             built in $TUNE_JOBS - 1 (15) build processes ahead of the timing; a configuration whose build takes more than
#             $TUNE_BUILD_TIMEOUT (30) seconds is recorded as failed ("build too slow") and
#             never retried (NVIDIA's compiler takes minutes for some generated interleaved
#             kernels). The file and its report land in $OUT. Carry the file back into the
#             tree and run again until the log says "complete".
#             Budget: `bchol tune --dry-run` with the same options lists the plan (it reads
#             no file: add the file's --set, below, to list a resumed plan): on the H200
#             with --set unroll=tiles, 5128 grid configurations (staged layout included),
#             vbatched 2896 of them, fused 1004 (every one up to 64). From an empty file
#             (2026-11-25, 740e18f, a process per build) the grid took 14m29s of tuning, the
#             midpoints 1m36s (385) and every other size up to 64 3m04s (670): 19m09s over
#             three calls (docs/results/2026-11-25-h200-dense-probes); with build processes
#             that build many configurations each (22979b1) the same plan took 7m19s in one
#             call, and with every fused configuration at the probed sizes up to 32 (the
#             present plan, b593c75: 11822 configurations) 12m55s over two calls
#             (docs/results/2026-11-25-h200-build-servers). The shipped file was begun with --set unroll=tiles, which a resume
#             keeps (options not given come from the file); TUNE_ARGS="--set
#             unroll=tiles,full" brings full unrolling back (builds of minutes, most over
#             the limit). TUNE_VARIANTS=solve (with the shipped file: its other variants'
#             records are kept and not timed again) tunes the solve alone in one call;
#             TUNE_VARIANTS=getrf TUNE_FRACTION=1 getrf's variants alone (getrf-fused and
#             getrf-blocked on GPUs: about 206 configurations over n = 4..512, s and d, by
#             the grid in cli/tune/tune_getrf.c; `--dry-run` gives the count). A
#             call of `tune` takes at most TUNE_MINUTES plus the build of bchol (12 s on
#             the H200's 16 cores), one more build limit for the configuration started
#             last and the report; with TUNE_MINUTES=9.0 two calls made back to back
#             end with "complete" (the second takes about 4 minutes). If the first call's ETA (tune.log) says the plan will
#             not fit, lower TUNE_FRACTION in the next calls: a smaller fraction draws a
#             subset of the same configurations (same seed), and those measured outside
#             it stay in the file without competing.
#   tune-probe  bchol tune --probes-only --probe-between $PROBE_K (4) on $TUNE_FILE: the sizes
#             halfway between the grid's $TUNE_SIZES, with the ends' best configurations,
#             and every size between up to $PROBE_EVERY_TO (64)
#   tune-offgrid  exhaustive fused and separate ($OFFGRID_VARIANTS) sweeps at sizes outside the tuning grid
#             ($OFFGRID_SIZES, default 24,96,384) into $OFFGRID_FILE, then bchol tune --report
#             --against $TUNE_FILE: how close the file's picks there come to the best
#   tune-check  bench over $SIZES with $TUNE_FILE against BCHOL_TUNING_FILE=off (the
#             backend defaults), float and double: per-size and geometric-mean speedup
#             UNTUNED_DEFAULTS=generic: the untuned runs take the generic backend's defaults
#             (BCHOL_DEFAULTS=generic, what bchol runs on a device it does not know; files
#             named untuned-generic, tune-check-generic); also for tune-check-vbatched
#             TUNE_CHECK_ROUNDS=R (default 1): R alternating rounds of untuned and tuned runs,
#             the medians over the rounds compared (scripts/gpu/rounds_ratio.py); also for
#             tune-check-vbatched
#   tune-check-vbatched  bench --vbatched (uniform orders) at the tuner's sizes and batches,
#             the default version's time with $TUNE_FILE against BCHOL_TUNING_FILE=off
#   tune-check-interleaved  the same for the interleaved routines on data already
#             interleaved (bench --variant interleaved, n = $ILV_SIZES, default
#             4,8,16,24,32,48,64, batch 16384: the grid's ilv-native rows)
#   tune-check-solve  the same for bchol bench --solve's potrs times, nrhs = NRHS_LIST
#             (default "1 16"), float and double (about 2 minutes)
#   grid      scripts/grid/bench_grid.sh into $OUT/grid with the torch peer: the whole grid of
#             issue 8, cut at GRID_SECONDS (default 540) so that build + grid fit one
#             10-minute call; GRID_REPS (5) and GRID_WARMUP (1) runs per point. Steps past
#             the deadline are listed in grid/meta.txt and summary.md. The copy here has
#             no git history: pass GRID_COMMIT=<hash> to record the commit. To finish a
#             grid the deadline cut, carry its grid/ folder (from results.tgz) into the
#             tree and pass GRID_RESUME=<that folder>: only the missing runs run.
# Usage: scripts/gpu/device_run.sh devices test test-pocl bench solve solve-ilv lu vbatched vbatched-trace vbatched-pack
#        solve-vbatched huge tune tune-probe tune-offgrid tune-check tune-check-vbatched tune-check-interleaved
#        tune-check-solve grid
set -u
# The GPU machine hands back at most 8 files: everything goes under raw/ and is packed
# into one results.tgz on exit (also when a step is killed by a timeout).
RESULTS=${OUT:-$PWD/out}
OUT=$RESULTS/raw
mkdir -p "$OUT"
trap 'tar -czf "$RESULTS/results.tgz" -C "$OUT" . && rm -rf "$OUT"' EXIT
trap 'exit 143' TERM INT
PREFIX=/tmp/bchol-deps
LIB=$PREFIX/usr/lib/x86_64-linux-gnu
if [ -d .debs ]; then
  mkdir -p $PREFIX
  for f in .debs/*.deb; do dpkg -x "$f" $PREFIX; done
fi
# OpenBLAS's libblas/liblapack live in a subfolder that Debian's alternatives would link.
export LD_LIBRARY_PATH=$LIB:$LIB/openblas-pthread:${LD_LIBRARY_PATH:-}
BUILD=build-gpu
# UNTUNED_DEFAULTS (tune-check*): whose defaults the untuned runs take (device or generic)
UNTUNED_DEFAULTS=${UNTUNED_DEFAULTS:-device}
tag=""; [ "$UNTUNED_DEFAULTS" = device ] || tag="-$UNTUNED_DEFAULTS"
cmake -S . -B $BUILD -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PREFIX/usr \
  "-DCMAKE_LIBRARY_PATH=$LIB/openblas-pthread;$LIB" -DCMAKE_INCLUDE_PATH=$PREFIX/usr/include \
  > "$OUT/build.log" 2>&1 && cmake --build $BUILD -j16 >> "$OUT/build.log" 2>&1 \
  || { tail -40 "$OUT/build.log"; exit 1; }
grep -E "compare lapack|CLBlast" "$OUT/build.log"
SIZES=${SIZES:-8,16,32,64,128,256,512}
for step in "$@"; do
  case $step in
  devices)
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
    $BUILD/cli/bchol devices | tee "$OUT/devices.txt" ;;
  test)
    (cd $BUILD && BCHOL_DEVICE=nvidia ctest -j16 --timeout 300 --output-on-failure ${TEST_REGEX:+-R "$TEST_REGEX"} \
      > "$OUT/ctest-nvidia.log" 2>&1)
    grep -E "tests passed|Failed|\*\*\*" "$OUT/ctest-nvidia.log" | head -40 ;;
  test-pocl)
    # the same suite on the machine's own PoCL (5.0 on Ubuntu 24.04), as CI runs it: -j$(nproc)
    for r in $(seq 1 ${POCL_ROUNDS:-1}); do
      (cd $BUILD && BCHOL_DEVICE=pocl ctest -j"$(nproc)" --timeout 600 --output-on-failure \
        ${TEST_REGEX:+-R "$TEST_REGEX"} > "$OUT/ctest-pocl-$r.log" 2>&1)
      grep -E "tests passed|Failed|\*\*\*" "$OUT/ctest-pocl-$r.log" | head -40
    done ;;
  bench)
    for p in s d; do
      BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --precision $p --n $SIZES ${BENCH_ARGS:-} \
        > "$OUT/bench-nvidia-$p.txt" 2>&1
      python3 scripts/gpu/peer_torch.py --precision $p --n $SIZES > "$OUT/torch-$p.txt" 2>&1
    done
    for p in s d; do cat "$OUT/bench-nvidia-$p.txt" "$OUT/torch-$p.txt"; done ;;
  solve)
    for p in s d; do
      for k in ${NRHS_LIST:-1 16}; do
        BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --solve --nrhs $k --precision $p --n $SIZES \
          ${BENCH_ARGS:-} > "$OUT/bench-solve-nvidia-$p-nrhs$k.txt" 2>&1
        python3 scripts/gpu/peer_torch_solve.py --nrhs $k --precision $p --n $SIZES \
          > "$OUT/torch-solve-$p-nrhs$k.txt" 2>&1
        cat "$OUT/bench-solve-nvidia-$p-nrhs$k.txt" "$OUT/torch-solve-$p-nrhs$k.txt"
        BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --solve --variant interleaved --nrhs $k \
          --precision $p --n 4:${ILV_SOLVE_NMAX:-128} ${BENCH_ARGS:-} \
          > "$OUT/bench-solve-ilv-nvidia-$p-nrhs$k.txt" 2>&1
        cat "$OUT/bench-solve-ilv-nvidia-$p-nrhs$k.txt"
      done
    done ;;
  solve-ilv)
    for p in s d; do
      for k in ${NRHS_LIST:-1 16}; do
        for kb in ${ILV_BLOCKS:-default 0 8 16}; do
          f="$OUT/bench-solve-ilv-block$kb-nvidia-$p-nrhs$k.txt"
          blk=BCHOL_ILV_SOLVE_BLOCK=$kb
          [ "$kb" = default ] && blk=
          env -u BCHOL_ILV_SOLVE_BLOCK $blk BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --solve \
            --variant interleaved --nrhs $k --precision $p \
            --n ${ILV_SOLVE_SIZES:-16,32,40,48,64,96,128} ${BENCH_ARGS:-} > "$f" 2>&1
          echo "== block $kb"; cat "$f"
        done
      done
    done ;;
  lu)
    # bchol's stderr (e.g. a size getrf cannot take) lands in its file, after the table's
    # rows it concerns; lu_table.py reads the rows by the header's column names
    for r in ${LU_ROUTINES:-getrf gesv getri getrs}; do
      k=""
      case $r in getrs|gesv) k="--nrhs ${LU_NRHS:-1}" ;; esac
      for p in s d; do
        BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --routine $r --precision $p \
          --n ${LU_SIZES:-4,8,16,32,64,128,256,512} $k --reps ${LU_REPS:-10} ${BENCH_ARGS:-} \
          > "$OUT/lu-$r-nvidia-$p.txt" 2>&1
        python3 scripts/gpu/peer_torch_lu.py --routine $r --precision $p \
          --n ${LU_SIZES:-4,8,16,32,64,128,256,512} $k --reps ${LU_REPS:-10} \
          > "$OUT/torch-lu-$r-$p.txt" 2>&1
        cat "$OUT/lu-$r-nvidia-$p.txt" "$OUT/torch-lu-$r-$p.txt"
      done
    done
    python3 scripts/gpu/lu_table.py "$OUT" ${LU_ROUTINES:-getrf gesv getri getrs} | tee "$OUT/lu-tables.md" ;;
  vbatched)
    for p in s d; do
      for dist in uniform gaussian; do
        BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --vbatched --precision $p --dist $dist \
          --nmax ${VB_NMAX:-32:512} --batch 3000 > "$OUT/vbatched-nvidia-$p-$dist.txt" 2>&1
        cat "$OUT/vbatched-nvidia-$p-$dist.txt"
      done
    done ;;
  vbatched-trace)
    # where a vbatched call's time goes: one run per nmax with BCHOL_TRACE (every launch
    # waited for, its device time printed); the files are read back here
    for band in ${VB_TRACE_BANDS:-8,32,64@16384 128,256@3000}; do
      for nm in $(echo ${band%@*} | tr , ' '); do
        f="$OUT/vbatched-trace-s-$nm.txt"
        BCHOL_TRACE=1 BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --vbatched --precision s \
          --nmax $nm --batch ${band#*@} --reps 1 --warmup 1 > "$f" 2>&1
        echo "== nmax $nm batch ${band#*@}: $(grep -c "bchol trace" "$f") launches traced"
        grep -E "^ *$nm " "$f"
      done
    done ;;
  vbatched-pack)
    for p in ${VB_PRECISIONS:-s}; do
      for dist in ${VB_DISTS:-uniform}; do
        f="$OUT/vbatched-pack-nvidia-$p-$dist.txt"
        : > "$f"
        for band in 32,48,64@16384 96,128,192,256@3000; do
          BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --vbatched --precision $p --dist $dist \
            --nmax ${band%@*} --batch ${band#*@} --reps 5 --warmup 1 --tbc ${VB_TBC:-0,1,2,4,8} \
            --shape ${VB_SHAPES:-shrink,pack} --order ${VB_ORDERS:-index,steps} >> "$f" 2>&1
        done
        for c in ${VB_CROSSOVERS:-0 64 128 192 320}; do
          echo "# --crossover $c (0: the library's)" >> "$f"
          BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --vbatched --precision $p --dist $dist \
            --nmax 384,512 --batch 1000 --reps 5 --warmup 1 --variant fused,separate,auto \
            --crossover $c >> "$f" 2>&1
        done
        cat "$f"
      done
    done ;;
  solve-vbatched)
    # against torch (one cholesky_ex + cholesky_solve per group of equal orders, the same
    # orders); then the ALS example (about 4e6 ratings)
    for p in s d; do
      for k in ${NRHS_LIST:-1 16}; do
        BCHOL_DEVICE=nvidia $BUILD/cli/bchol bench --solve --vbatched --precision $p --nrhs $k \
          --nmax ${VB_NMAX:-32:512} --batch 3000 > "$OUT/solve-vbatched-nvidia-$p-nrhs$k.txt" 2>&1
        python3 scripts/gpu/peer_torch_solve.py --vbatched --nrhs $k --precision $p \
          --n ${VB_NMAX:-32:512} --batch 3000 > "$OUT/torch-solve-vbatched-$p-nrhs$k.txt" 2>&1
        cat "$OUT/solve-vbatched-nvidia-$p-nrhs$k.txt" "$OUT/torch-solve-vbatched-$p-nrhs$k.txt"
      done
    done
    BCHOL_DEVICE=nvidia $BUILD/cli/bchol als --users 100000 --items 20000 --rank 16 --density 0.002 \
      2>&1 | tee "$OUT/als-nvidia.txt" ;;
  huge)
    # 2^31+256 float elements in one buffer; 2.2e9 one-by-one doubles (more matrices than
    # 2^31, split over launches by the grid limit); 2.56e9 elements through the host
    # routine in pieces
    for args in "--precision s --uplo L --n 4 --batch 134217744" \
                "--precision d --uplo U --n 1 --batch 2200000000" \
                "--precision s --uplo U --n 8 --batch 40000000 --mode host"; do
      start=$SECONDS
      BCHOL_DEVICE=nvidia $BUILD/tests/test_huge $args 2>&1 | tee -a "$OUT/huge.txt"
      echo "($((SECONDS - start)) s)" | tee -a "$OUT/huge.txt"
    done ;;
  tune)
    TUNE_FILE=${TUNE_FILE:-data/tuning/nvidia-h200.json}
    also=${TUNE_ALSO_DEFAULT-architecture}
    mkdir -p "$(dirname "$TUNE_FILE")"
    # The same plan at every call (the seed fixes the drawn fraction), so that each call
    # resumes where the last one stopped; the log's last lines say how far it got.
    BCHOL_DEVICE=nvidia $BUILD/cli/bchol tune --output "$TUNE_FILE" --resume \
      --n "${TUNE_SIZES:-4,8,16,32,64,128,256,512}" --precision sd \
      --variants "${TUNE_VARIANTS:-fused,interleaved,interleaved-native,separate,vbatched,solve}" --nrhs "${TUNE_NRHS:-1,16}" \
      --fraction "${TUNE_FRACTION:-0.2}" --seed "${TUNE_SEED:-2026}" \
      --max-minutes "${TUNE_MINUTES:-6.5}" --build-timeout "${TUNE_BUILD_TIMEOUT:-30}" \
      --jobs "${TUNE_JOBS:-16}" ${also:+--also-default "$also"} --probe-between "${PROBE_K:-4}" \
      --probe-every-to "${PROBE_EVERY_TO:-64}" --full-to "${TUNE_FULL_TO:-fused=64}" \
      --probe-full-to "${PROBE_FULL_TO:-32}" --quiet \
      ${TUNE_ARGS:-} 2> "$OUT/tune.log"
    echo "bchol tune exit status $? (0 complete, 3 run again)"
    cp "$TUNE_FILE" "$OUT/"
    $BUILD/cli/bchol tune --report "$TUNE_FILE" > "$OUT/tune-report.txt" 2>&1
    tail -3 "$OUT/tune.log"; grep -A12 "crossovers" "$OUT/tune-report.txt" | head -40
    grep -A12 "^## . solve" "$OUT/tune-report.txt" | grep -E "^##|geometric" | head -8
    echo "builds too slow so far: $(grep -c 'build too slow' "$TUNE_FILE")" ;;
  tune-probe)
    # the sizes halfway between the tuning grid's (bchol tune --probes-only --probe-between
    # $PROBE_K, default 4) added to $TUNE_FILE: the strided factorizations' variants at the
    # midpoints of $TUNE_SIZES, with the configurations that did best at the two ends
    TUNE_FILE=${TUNE_FILE:-data/tuning/nvidia-h200.json}
    start=$SECONDS
    BCHOL_DEVICE=nvidia $BUILD/cli/bchol tune --output "$TUNE_FILE" --resume --probes-only \
      --probe-between "${PROBE_K:-4}" --probe-every-to "${PROBE_EVERY_TO:-64}" \
      --full-to "${TUNE_FULL_TO:-fused=64}" --probe-full-to "${PROBE_FULL_TO:-32}" \
      --n "${TUNE_SIZES:-4,8,16,32,64,128,256,512}" --precision sd \
      --variants "${PROBE_VARIANTS:-fused,separate,interleaved,interleaved-native}" \
      --max-minutes "${PROBE_MINUTES:-4}" --build-timeout "${TUNE_BUILD_TIMEOUT:-30}" \
      --jobs "${TUNE_JOBS:-16}" --quiet 2> "$OUT/tune-probe.log"
    echo "bchol tune --probes-only exit status $? (0 complete, 3 run again) in $((SECONDS - start)) s"
    cp "$TUNE_FILE" "$OUT/"
    $BUILD/cli/bchol tune --report "$TUNE_FILE" > "$OUT/tune-probe-report.txt" 2>&1
    tail -2 "$OUT/tune-probe.log" ;;
  tune-offgrid)
    # issue 6's aim "for sizes not in the tuning grid the pick is within 5% of an exhaustive
    # search at that size": an exhaustive sweep of fused and separate at $OFFGRID_SIZES
    # into $OFFGRID_FILE (resumable: carry it back and call again until "complete"), then
    # TUNE_FILE's picks at those sizes against the best of the sweep
    TUNE_FILE=${TUNE_FILE:-data/tuning/nvidia-h200.json}
    OFFGRID_FILE=${OFFGRID_FILE:-offgrid-h200.json}
    BCHOL_DEVICE=nvidia $BUILD/cli/bchol tune --output "$OFFGRID_FILE" --resume \
      --n "${OFFGRID_SIZES:-24,96,384}" --precision sd --variants "${OFFGRID_VARIANTS:-fused,separate}" --fraction 1 \
      --seed 2026 --max-minutes "${TUNE_MINUTES:-6.5}" --build-timeout "${TUNE_BUILD_TIMEOUT:-30}" \
      --jobs "${TUNE_JOBS:-16}" --quiet 2> "$OUT/tune-offgrid.log"
    echo "bchol tune exit status $? (0 complete, 3 run again)"
    cp "$OFFGRID_FILE" "$OUT/"
    $BUILD/cli/bchol tune --report "$OFFGRID_FILE" --against "$TUNE_FILE" > "$OUT/tune-offgrid-report.txt" 2>&1
    tail -2 "$OUT/tune-offgrid.log"
    grep -E "^picks of|within 5%|^ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+x|^## . (fused|separate)|^## . crossovers|^ +[0-9]+ +[0-9.]+ +[0-9.-]+ +(fused|separate)" \
      "$OUT/tune-offgrid-report.txt" ;;
  tune-check)
    TUNE_FILE=${TUNE_FILE:-data/tuning/nvidia-h200.json}
    : > "$OUT/tune-check$tag-ratios.txt"
    for p in s d; do
      : > "$OUT/bench-untuned$tag-$p.txt"; : > "$OUT/bench-tuned-$p.txt"
      for round in $(seq ${TUNE_CHECK_ROUNDS:-1}); do # alternating, against drift between runs
        BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=off BCHOL_DEFAULTS=$UNTUNED_DEFAULTS $BUILD/cli/bchol \
          bench --precision $p --n $SIZES >> "$OUT/bench-untuned$tag-$p.txt" 2>&1
        BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE="$TUNE_FILE" $BUILD/cli/bchol bench --precision $p \
          --n $SIZES --explain >> "$OUT/bench-tuned-$p.txt" 2>&1
      done
      # rows: n batch ms ...; speedup = untuned ms / tuned ms, medians over the rounds
      python3 scripts/gpu/rounds_ratio.py $p n 3 "$OUT/bench-untuned$tag-$p.txt" "$OUT/bench-tuned-$p.txt" \
        | tee "$OUT/tune-check$tag-$p.txt"
      grep " n=" "$OUT/tune-check$tag-$p.txt" >> "$OUT/tune-check$tag-ratios.txt"
    done
    # the aim: >= 1.3x over float and double together
    awk '{ r = $(NF-2); sub(/x$/, "", r); s += log(r); k++ }
         END { if (k) printf "s and d geometric mean speedup %.3fx over %d sizes (aim >= 1.3x)\n", exp(s / k), k }' \
      "$OUT/tune-check$tag-ratios.txt" | tee "$OUT/tune-check$tag.txt" ;;
  tune-check-vbatched)
    # the default version's time (bench --vbatched's default_ms, column 12), orders uniform
    # in [1, nmax], at the tuner's sizes and batches, with the file and without
    TUNE_FILE=${TUNE_FILE:-data/tuning/nvidia-h200.json}
    : > "$OUT/tune-check-vbatched$tag-ratios.txt"
    for p in s d; do
      : > "$OUT/bench-vbatched-untuned$tag-$p.txt"; : > "$OUT/bench-vbatched-tuned-$p.txt"
      for round in $(seq ${TUNE_CHECK_ROUNDS:-1}); do
        for band in 4,8,16,32,64@16384 128,256@3000 512@1000; do
          for t in untuned tuned; do
            file=off defaults=$UNTUNED_DEFAULTS name=untuned$tag
            [ $t = tuned ] && file="$TUNE_FILE" defaults=device name=tuned
            BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE="$file" BCHOL_DEFAULTS=$defaults $BUILD/cli/bchol \
              bench --vbatched --precision $p --nmax ${band%@*} --batch ${band#*@} \
              >> "$OUT/bench-vbatched-$name-$p.txt" 2>&1
          done
        done
      done
      python3 scripts/gpu/rounds_ratio.py "$p vbatched" nmax 12 "$OUT/bench-vbatched-untuned$tag-$p.txt" \
        "$OUT/bench-vbatched-tuned-$p.txt" | tee "$OUT/tune-check-vbatched$tag-$p.txt"
      grep "nmax=" "$OUT/tune-check-vbatched$tag-$p.txt" >> "$OUT/tune-check-vbatched$tag-ratios.txt"
    done ;;
  tune-check-interleaved)
    # the interleaved routines on data already interleaved (the grid's ilv-native rows:
    # n = $ILV_SIZES, batch 16384), the kernel's time (bench column 11) with $TUNE_FILE
    # against BCHOL_TUNING_FILE=off; UNTUNED_DEFAULTS and TUNE_CHECK_ROUNDS as for tune-check
    TUNE_FILE=${TUNE_FILE:-data/tuning/nvidia-h200.json}
    : > "$OUT/tune-check-interleaved$tag-ratios.txt"
    for p in s d; do
      : > "$OUT/bench-ilv-untuned$tag-$p.txt"; : > "$OUT/bench-ilv-tuned-$p.txt"
      for round in $(seq ${TUNE_CHECK_ROUNDS:-1}); do
        BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=off BCHOL_DEFAULTS=$UNTUNED_DEFAULTS $BUILD/cli/bchol \
          bench --precision $p --n ${ILV_SIZES:-4,8,16,24,32,48,64} --batch 16384 --variant interleaved \
          >> "$OUT/bench-ilv-untuned$tag-$p.txt" 2>&1
        BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE="$TUNE_FILE" $BUILD/cli/bchol bench --precision $p \
          --n ${ILV_SIZES:-4,8,16,24,32,48,64} --batch 16384 --variant interleaved \
          >> "$OUT/bench-ilv-tuned-$p.txt" 2>&1
      done
      python3 scripts/gpu/rounds_ratio.py "$p interleaved" n 11 "$OUT/bench-ilv-untuned$tag-$p.txt" \
        "$OUT/bench-ilv-tuned-$p.txt" | tee "$OUT/tune-check-interleaved$tag-$p.txt"
      grep " n=" "$OUT/tune-check-interleaved$tag-$p.txt" >> "$OUT/tune-check-interleaved$tag-ratios.txt"
    done ;;
  tune-check-solve)
    TUNE_FILE=${TUNE_FILE:-data/tuning/nvidia-h200.json}
    : > "$OUT/tune-check-solve-ratios.txt"
    for p in s d; do
      for k in ${NRHS_LIST:-1 16}; do
        BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE=off $BUILD/cli/bchol bench --solve --nrhs $k --precision $p \
          --n $SIZES > "$OUT/bench-solve-untuned-$p-nrhs$k.txt" 2>&1
        BCHOL_DEVICE=nvidia BCHOL_TUNING_FILE="$TUNE_FILE" $BUILD/cli/bchol bench --solve --nrhs $k \
          --precision $p --n $SIZES --explain > "$OUT/bench-solve-tuned-$p-nrhs$k.txt" 2>&1
        # rows: n batch nrhs potrs_ms ...; speedup = untuned potrs ms / tuned potrs ms
        awk -v t="$p nrhs=$k" '!/^#/ && $4+0 > 0 { if (FNR == NR) u[$1] = $4; else if ($1 in u) {
            r = u[$1] / $4; printf "%s n=%-5s untuned %10.4f ms  tuned %10.4f ms  %.2fx\n", t, $1, u[$1], $4, r;
            s += log(r); c++ } } END { if (c) printf "%s geometric mean potrs speedup %.3fx over %d sizes\n", t, exp(s / c), c }' \
          "$OUT/bench-solve-untuned-$p-nrhs$k.txt" "$OUT/bench-solve-tuned-$p-nrhs$k.txt" \
          | tee "$OUT/tune-check-solve-$p-nrhs$k.txt"
        grep " n=" "$OUT/tune-check-solve-$p-nrhs$k.txt" >> "$OUT/tune-check-solve-ratios.txt"
      done
    done
    awk '{ r = $NF; sub(/x$/, "", r); s += log(r); k++ }
         END { if (k) printf "solve: geometric mean potrs speedup %.3fx over %d sizes and nrhs\n", exp(s / k), k }' \
      "$OUT/tune-check-solve-ratios.txt" | tee "$OUT/tune-check-solve.txt" ;;
  grid)
    resume=""
    if [ -n "${GRID_RESUME:-}" ]; then
      [ -d "$GRID_RESUME/raw" ] || { echo "GRID_RESUME=$GRID_RESUME has no raw/"; exit 1; }
      mkdir -p "$OUT/grid" && cp -r "$GRID_RESUME/." "$OUT/grid/" && resume=--resume
    fi
    BCHOL_BIN=$BUILD/cli/bchol BCHOL_DEVICE=nvidia GRID_DEADLINE=${GRID_SECONDS:-540} \
      GRID_REPS=${GRID_REPS:-5} GRID_WARMUP=${GRID_WARMUP:-1} \
      scripts/grid/bench_grid.sh "$OUT/grid" --torch $resume > "$OUT/grid.log" 2>&1
    tail -5 "$OUT/grid.log"; grep -E "^(seconds|skipped)=" "$OUT/grid/meta.txt" ;;
  esac
done
