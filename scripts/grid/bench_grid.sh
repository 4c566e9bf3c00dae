#!/usr/bin/env bash
# The benchmark grid of issue 8: bchol (automatic choice and each variant) and its peers on
# the same sizes in one run, then scripts/grid/grid_collect.py turns the raw outputs into one
# CSV, a summary.md with tables and PNG plots (gnuplot).
#
#   scripts/grid/bench_grid.sh OUTDIR [--quick] [--torch] [--collect] [--resume]
#
#   --quick    a small subset (sizes, batches, repeats) that runs on PoCL in a few minutes
#   --torch    also the PyTorch peer (scripts/gpu/peer_torch.py, cuSOLVER), where torch with
#              CUDA imports; skipped with a note otherwise
#   --collect  only re-collect an existing OUTDIR (no benchmark runs)
#   --resume   keep OUTDIR's raw outputs and run only what raw/done.log does not list (the
#              runs a deadline cut); the collector keeps the last row of a repeated point
#
# Full grid: n in {4,8,16,24,32,48,64,96,128,192,256,384,512}, batch 16384 for n <= 64,
# 3000 up to 256, 1000 above; float and double; fixed size (auto, fused, separate,
# interleaved on strided data up to n = 128, interleaved on data already interleaved up to
# n = 64, the OpenMP LAPACKE loop) and vbatched (uniform and Gaussian orders in [1, nmax],
# the four ETM/scheduling versions, the padded fixed-size run, fused, separate and the
# split, the LAPACKE loop); the seed
# sweeps (fused ib and tbc, interleaved Figures 15-19). Times are medians of GRID_REPS
# (default 10; --quick 3) runs after GRID_WARMUP (2; --quick 1) warm-up runs.
#
# Environment: BCHOL_BIN (default: build with scripts/setup.sh, then build/cli/bchol),
# BCHOL_DEVICE (the device, as for bchol), GRID_PRECISIONS ("s d"), GRID_REPS,
# GRID_WARMUP, GRID_BATCH_DIV (divide every batch by this, default 1), GRID_DEADLINE
# (seconds: steps that would start later are skipped and listed in meta.txt; each run is
# also cut at the deadline), GRID_COMMIT (the commit to record where the tree has no git
# history, as on the GPU machine's copy), PYTHON (python3).
set -u
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
OUTDIR=""
QUICK=0 TORCH=0 COLLECT=0 RESUME=0
for a in "$@"; do
  case $a in
  --quick) QUICK=1 ;;
  --torch) TORCH=1 ;;
  --collect) COLLECT=1 ;;
  --resume) RESUME=1 ;;
  -h | --help) usage; exit 0 ;;
  -*) echo "bench_grid.sh: unknown option $a" >&2; usage >&2; exit 2 ;;
  *) [ -z "$OUTDIR" ] || { echo "bench_grid.sh: one OUTDIR only" >&2; exit 2; }; OUTDIR=$a ;;
  esac
done
[ -n "$OUTDIR" ] || { usage >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PYTHON=${PYTHON:-python3}
COLLECTOR=$ROOT/scripts/grid/grid_collect.py
if [ $COLLECT = 1 ]; then
  [ -d "$OUTDIR/raw" ] || { echo "bench_grid.sh: $OUTDIR/raw does not exist" >&2; exit 2; }
  exec "$PYTHON" "$COLLECTOR" "$OUTDIR"
fi

if [ -z "${BCHOL_BIN:-}" ]; then
  "$ROOT/scripts/setup.sh" > /dev/null || { echo "bench_grid.sh: build failed" >&2; exit 1; }
  BCHOL_BIN=$ROOT/build/cli/bchol
fi
RAW=$OUTDIR/raw
mkdir -p "$RAW"
[ $RESUME = 1 ] || rm -f "$RAW"/*.txt "$RAW"/done.log "$RAW"/commands.log

# Bands "sizes@batch": the issue's batches per range of n.
if [ $QUICK = 1 ]; then
  BANDS="4,8,16,32,64@1024 128,256@64"
  ILV_NATIVE=4,8,16,32,64
  REPS=${GRID_REPS:-3} WARMUP=${GRID_WARMUP:-1}
  SWEEP_N=32 SWEEP_BATCH=1024 FIG_N=16 FIG_BATCH=1024 FIGS="15 16 18"
  SWEEP_PRECISIONS="s" # the sweeps in float only
else
  BANDS="4,8,16,24,32,48,64@16384 96,128,192,256@3000 384,512@1000"
  ILV_NATIVE=4,8,16,24,32,48,64
  REPS=${GRID_REPS:-10} WARMUP=${GRID_WARMUP:-2}
  SWEEP_N=32,64,128 SWEEP_BATCH=3000 FIG_N=8,16,32 FIG_BATCH=16384 FIGS="13 15 16 17 18 19"
  SWEEP_PRECISIONS="s d"
fi
PRECISIONS=${GRID_PRECISIONS:-s d}
SWEEP_PRECISIONS=$(for p in $SWEEP_PRECISIONS; do [[ " $PRECISIONS " == *" $p "* ]] && echo $p; done)
DIV=${GRID_BATCH_DIV:-1}
ILV_MAX=128 # the interleaved variant on strided data runs up to this n
START=$SECONDS
DEADLINE=${GRID_DEADLINE:-0}
SKIPPED=""

if [ -n "${GRID_COMMIT:-}" ]; then
  commit=$GRID_COMMIT
elif commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null); then
  git -C "$ROOT" diff --quiet HEAD 2>/dev/null || commit="$commit-dirty"
else
  commit=unknown
fi
{
  echo "commit=$commit"
  echo "date=$(date -u +%Y-%m-%d)"
  echo "started=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "mode=$([ $QUICK = 1 ] && echo quick || echo full)"
  echo "command=scripts/grid/bench_grid.sh $*"
  echo "reps=$REPS"
  echo "warmup=$WARMUP"
  echo "batch_div=$DIV"
  echo "cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
  echo "bchol_device=${BCHOL_DEVICE:-default}"
} > "$OUTDIR/meta.new"
if [ $RESUME = 1 ] && [ -f "$OUTDIR/meta.txt" ]; then
  # the first run's lines stay; the later lines of a resumed run win in the collector
  # (what the deadline cut before is either done now or listed again at the end)
  { grep -v '^skipped' "$OUTDIR/meta.txt"; sed 's/^started=/resumed=/' "$OUTDIR/meta.new"; } > "$OUTDIR/meta.tmp"
  mv "$OUTDIR/meta.tmp" "$OUTDIR/meta.txt"
  rm -f "$OUTDIR/meta.new"
else
  mv "$OUTDIR/meta.new" "$OUTDIR/meta.txt"
fi
"$BCHOL_BIN" devices > "$RAW/devices.txt" 2>&1

# run FILE CMD...: appends CMD's output to raw/FILE, unless the deadline has passed or
# (--resume) an earlier call completed it; a completed run is listed in raw/done.log.
run() {
  local file=$1 left=600 key rc=0
  shift
  key="$file: $(basename "$1") ${*:2}" # the binary's folder differs between machines
  if [ $RESUME = 1 ] && [ -f "$RAW/done.log" ] && grep -qxF -- "$key" "$RAW/done.log"; then
    return
  fi
  if [ "$DEADLINE" -gt 0 ]; then
    left=$((DEADLINE - (SECONDS - START)))
    if [ $left -le 5 ]; then
      SKIPPED="$SKIPPED $file"
      return
    fi
  fi
  echo "+ $*" >> "$RAW/commands.log"
  local t0=$SECONDS
  if [ "$DEADLINE" -gt 0 ]; then
    timeout $left "$@" >> "$RAW/$file" 2>&1 || rc=$?
  else
    "$@" >> "$RAW/$file" 2>&1 || rc=$?
  fi
  [ $rc = 0 ] || echo "# exit status $rc of: $*" >> "$RAW/$file"
  echo "# $((SECONDS - t0)) s" >> "$RAW/commands.log" # where the grid's time goes
  if [ $rc = 124 ]; then
    SKIPPED="$SKIPPED $file" # cut by the deadline: --resume runs it again
  else
    echo "$key" >> "$RAW/done.log"
  fi
}

# sizes of a list at most (or above) a bound
upto() { tr , '\n' <<< "$1" | awk -v m=$2 '$1 <= m' | paste -sd, -; }
above() { tr , '\n' <<< "$1" | awk -v m=$2 '$1 > m' | paste -sd, -; }

HAVE_TORCH=0
if [ $TORCH = 1 ]; then
  if "$PYTHON" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    HAVE_TORCH=1
  else
    echo "torch=unavailable (no torch with CUDA)" >> "$OUTDIR/meta.txt"
  fi
fi

B="$BCHOL_BIN bench --reps $REPS --warmup $WARMUP"
for p in $PRECISIONS; do
  for band in $BANDS; do
    sizes=${band%@*}
    batch=$((${band#*@} / DIV))
    [ $batch -ge 1 ] || batch=1
    # auto (the library's choice) with the CPU peer on the same matrices
    run fixed-auto-$p.txt $B --precision $p --n $sizes --batch $batch --variant auto --compare lapack
    small=$(upto $sizes $ILV_MAX) large=$(above $sizes $ILV_MAX)
    [ -n "$small" ] && run fixed-variants-$p.txt $B --precision $p --n $small --batch $batch \
      --variant fused,separate,interleaved
    [ -n "$large" ] && run fixed-variants-$p.txt $B --precision $p --n $large --batch $batch \
      --variant fused,separate
    native=$(tr , '\n' <<< "$sizes" | grep -xF -f <(tr , '\n' <<< "$ILV_NATIVE") | paste -sd, -)
    [ -n "$native" ] && run ilv-native-$p.txt $B --precision $p --n $native --batch $batch \
      --variant interleaved
    for dist in uniform gaussian; do
      nmax=$(above $sizes 4) # orders in [1, 4] are too few to be a variable-size batch
      [ -n "$nmax" ] && run vbatched-$dist-$p.txt $B --vbatched --precision $p --dist $dist \
        --nmax $nmax --batch $batch --compare lapack
      # each variant on the same orders (auto = the batch split at the crossover)
      [ -n "$nmax" ] && run vbatched-variants-$dist-$p.txt $B --vbatched --precision $p --dist $dist \
        --nmax $nmax --batch $batch --variant fused,separate,auto
    done
    if [ $HAVE_TORCH = 1 ]; then
      run torch-$p.txt "$PYTHON" "$ROOT/scripts/gpu/peer_torch.py" --precision $p --n $sizes \
        --batch $batch --reps $REPS --warmup $WARMUP
      for dist in uniform gaussian; do
        nmax=$(above $sizes 4)
        [ -n "$nmax" ] && run torch-vbatched-$dist-$p.txt "$PYTHON" "$ROOT/scripts/gpu/peer_torch.py" \
          --vbatched --dist $dist --precision $p --n $nmax --batch $batch --reps $REPS --warmup $WARMUP
      done
    fi
  done
done

# The seeds' sweeps: fused ib and tbc (Abdelfattah et al.), interleaved Figures 13, 15-19
# (Kurzak, Gates et al.).
sb=$((SWEEP_BATCH / DIV)) fb=$((FIG_BATCH / DIV))
[ $sb -ge 1 ] || sb=1 # (0 would mean bchol bench's own default batch)
[ $fb -ge 1 ] || fb=1
for p in $SWEEP_PRECISIONS; do
  for ib in 1 2 4 8 16 32; do
    run sweep-ib-$p.txt $B --precision $p --n $SWEEP_N --batch $sb --ib $ib
  done
  for tbc in 1 2 4 8; do
    run sweep-tbc-$p.txt $B --precision $p --n $SWEEP_N --batch $sb --tbc $tbc
  done
  for f in $FIGS; do
    run ilv-fig$f-$p.txt $B --precision $p --n $FIG_N --batch $fb --variant interleaved --figure $f
  done
done

{
  echo "finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "seconds=$((SECONDS - START))"
  # the files that miss runs (some may hold the bands that ran before the deadline)
  [ -z "$SKIPPED" ] || echo "skipped=$(tr ' ' '\n' <<< "$SKIPPED" | sed '/^$/d' | sort -u | paste -sd' ')"
  [ -z "$SKIPPED" ] || echo "skipped_runs=$(wc -w <<< "$SKIPPED")"
} >> "$OUTDIR/meta.txt"
"$PYTHON" "$COLLECTOR" "$OUTDIR"
