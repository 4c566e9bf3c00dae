#!/bin/sh
# The bchol command's options: every bad value is refused before any device work with
# exit status 2 and one line on stderr that names the option; good ones still run.
# Usage: test_cli_options.sh path/to/bchol
bchol=$1
failures=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT

# refuse EXPECTED-TEXT ARGS...: status 2, one line, naming what it should
refuse() {
    want=$1
    shift
    "$bchol" "$@" >/dev/null 2>"$err"
    rc=$?
    lines=$(wc -l <"$err")
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qF -- "$want" "$err"; then
        echo "FAILED: bchol $* -> status $rc, $lines line(s): $(cat "$err")"
        failures=$((failures + 1))
    else
        echo "ok: bchol $*: $(cat "$err")"
    fi
}

refuse '--n "0"' bench --n 0
refuse '--n "1:2147483647:1000000000"' bench --n 1:2147483647:1000000000
refuse '--n "1:99999999999999999999"' bench --n 1:99999999999999999999
refuse '--n "4,,8"' bench --n 4,,8
refuse '--n "1:100000:1"' bench --n 1:100000:1
refuse '--batch "288230376151711744"' bench --batch 288230376151711744
refuse '--batch "abc"' bench --batch abc
refuse '--batch "12x"' bench --batch 12x
refuse '--precision "dx"' bench --precision dx
refuse '--uplo "Lower"' bench --uplo Lower
refuse '--shape "triangle"' bench --shape triangle
refuse '--ib "-3"' bench --ib -3
refuse '--reps "99999999999"' bench --reps 99999999999
refuse '--warmup "-1"' bench --warmup -1
refuse '--n needs a value' bench --explain --n
refuse 'unknown option' bench --frobnicate 1
refuse '--nrhs "99999999999"' bench --solve --nrhs 99999999999
refuse '--nrhs "0"' bench --solve --nrhs 0
refuse '--nrhs "1,2,x"' bench --solve --nrhs 1,2,x
refuse '--variant "blocked"' bench --solve --variant blocked
refuse '--explain' bench --variant interleaved --explain
refuse '--looking "left,,top"' bench --variant interleaved --looking left,,top
refuse '--figure "14"' bench --variant interleaved --figure 14
refuse '--order "index,,steps"' bench --vbatched --order index,,steps
refuse '--tbc "65"' bench --vbatched --tbc 65
refuse '--seed "-1"' bench --vbatched --seed -1
refuse '--dist "mix"' bench --solve --vbatched --dist mix
refuse '--routine "qr"' bench --routine qr
refuse '--routine "potrf"' bench --routine getrf --routine potrf
refuse '--nrhs applies to getrs and gesv, not getrf' bench --routine getrf --nrhs 2
refuse '--trans applies to getrs, not gesv' bench --routine gesv --trans T
refuse '--trans "C"' bench --routine getrs --trans C
refuse '--solve' bench --routine getri --solve
refuse '--uplo "L": unknown option' bench --routine getrf --uplo L
refuse '--nb and --gemm apply to --variant blocked' bench --routine getrf --nb 8
refuse '--variant "staged"' bench --routine getrf --variant staged
refuse '--tbc "65"' bench --routine gesv --tbc 65
refuse '--routine "gesv"' bench --routine gesv --vbatched
refuse '--fused-max "-2"' bench --routine getrf --vbatched --fused-max -2
refuse '--nb "65"' bench --routine getrf --vbatched --nb 65
# bchol tune checks its options with the validation it applies to a resumed file's
# settings (cli/tune/cmd_tune.c, set_option): the same rule, its own wording
refuse '--nrhs takes a list of counts in 1..1048576, not "1,2,x"' tune --nrhs 1,2,x
refuse '--reps takes an integer in 1..10000, not "0"' tune --reps 0
refuse '--fraction takes a number in (0, 1], not "2"' tune --fraction 2
refuse '--max-minutes takes minutes >= 0, not "soon"' tune --max-minutes soon
refuse '--probe-between takes 0 to 64 configurations per end, not ""' tune --probe-between ""
# --set: a labelled parameter takes its labels only; 0 only where it is a value of its own
# (--dry-run: were one accepted, the case would plan, not tune)
refuse 'bad --set "path=7"' tune --dry-run --set path=7
refuse 'bad --set "shape=3"' tune --dry-run --set shape=3
refuse 'bad --set "tbc=0"' tune --dry-run --set tbc=0
refuse '--users "1e3"' als --users 1e3
refuse '--density "0"' als --density 0
refuse 'is not an option' als users

# the limits are in the help, and good options still run (one small size, one run)
for h in "bench" "bench --solve" "bench --vbatched" "bench --solve --vbatched" \
         "bench --variant interleaved" "bench --routine getrf" "bench --routine getrf --vbatched" \
         "tune"; do
    # shellcheck disable=SC2086
    if ! "$bchol" $h --help | grep -q "10000"; then
        echo "FAILED: bchol $h --help does not state the limit of --reps"
        failures=$((failures + 1))
    fi
done
if ! "$bchol" bench --n 4,8 --batch 5 --reps 1 --warmup 0 >/dev/null; then
    echo "FAILED: bchol bench --n 4,8 --batch 5 --reps 1 --warmup 0"
    failures=$((failures + 1))
fi
if ! "$bchol" bench --solve --n 4 --nrhs 2 --batch 3 --reps 1 --warmup 0 >/dev/null; then
    echo "FAILED: bchol bench --solve --n 4 --nrhs 2 --batch 3 --reps 1 --warmup 0"
    failures=$((failures + 1))
fi
# planned: nb 0 keeps getri's paths without panels and leaves getrf-blocked (whose nb starts
# at 1) unplanned; a label another variant's parameter of that name lacks is left out
plan=$("$bchol" tune --dry-run --variants getri,getrf-blocked --precision s --n 16 --set nb=0 2>&1)
if ! echo "$plan" | grep -q '"path":"fused","nb":0' || echo "$plan" | grep -q 'getrf-blocked\|"blocked"'; then
    echo "FAILED: tune --dry-run --set nb=0 planned: $plan"
    failures=$((failures + 1))
fi
plan=$("$bchol" tune --dry-run --variants fused --precision s --n 8 --set shape=pack,fixed 2>&1)
if echo "$plan" | grep -q '"pack"' || ! echo "$plan" | grep -q '"shape":"fixed"' ||
    echo "$plan" | grep -q '^s fused 8 {[^}]*"rpt":[0-9]*}$'; then
    echo "FAILED: tune --dry-run --variants fused --set shape=pack,fixed planned: $plan"
    failures=$((failures + 1))
fi
echo "$failures failed"
[ "$failures" -eq 0 ]
