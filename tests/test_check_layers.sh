#!/bin/sh
# scripts/check_layers.py on this tree passes, and on small trees it must refuse (an include
# up a layer, between siblings, a bare name from another folder, a crowded folder) fails.
set -u
check=$1
root=$2
fail=0
"$check" "$root" || { echo "the source tree breaks its layering"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect_refused() { # what, file, text
    rm -rf "$tmp/t" && mkdir -p "$tmp/t/host/core" "$tmp/t/host/chol" "$tmp/t/host/blas" "$tmp/t/host/layout" "$tmp/t/backends"
    : > "$tmp/t/host/core/core.h"; : > "$tmp/t/host/chol/chol.h"; : > "$tmp/t/host/blas/blas.h"; : > "$tmp/t/host/layout/layout.h"
    "$check" "$tmp/t" > /dev/null || { echo "a good tree refused"; fail=1; }
    printf '%s\n' "$3" > "$tmp/t/$2"
    if "$check" "$tmp/t" > "$tmp/out"; then echo "not refused: $1"; fail=1; else echo "refused: $1: $(head -1 "$tmp/out")"; fi
}
expect_refused "core includes chol" host/core/x.c '#include "chol/chol.h"'
expect_refused "blas includes layout" host/blas/x.c '#include "layout/layout.h"'
expect_refused "backends include core" backends/x.c '#include "core/core.h"'
expect_refused "bare name of another folder" host/chol/x.c '#include "core.h"'
rm -rf "$tmp/t" && mkdir -p "$tmp/t/host/core"
i=0; while [ $i -lt 31 ]; do : > "$tmp/t/host/core/f$i.c"; i=$((i + 1)); done
if "$check" "$tmp/t" > /dev/null; then echo "not refused: 31 files in one folder"; fail=1; else echo "refused: 31 files in one folder"; fi
exit $fail
