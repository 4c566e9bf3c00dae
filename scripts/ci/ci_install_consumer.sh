#!/usr/bin/env bash
# CI: an installed bchol is relocatable and usable from outside. For the static library
# (the default) and a shared one: copies the source tree to a temporary folder, builds
# the library there and installs it into a prefix, removes the copy, moves the installed
# tree to another prefix, checks that the exported CMake files name no absolute path,
# then builds tests/consumer (copied out too; find_package(bchol) and bchol::bchol only)
# against the moved prefix and runs it: it factors on the default device and checks that
# the library read the moved prefix's share/bchol/tuning. Nothing of this tree is touched.
# Meant to follow scripts/run_tests.sh in .ci/run (the packages are installed by then).
set -eu
cd "$(dirname "$0")/../.."
SRC=$PWD
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bchol-consumer.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
unset BCHOL_TUNING_FILE BCHOL_TUNING_DIR BCHOL_KERNEL_DIR
passed=0
failed=0

# Copy the tree as git sees it (tracked and untracked, not ignored: no build folders).
copy_tree() {
  mkdir -p "$1"
  if git -C "$SRC" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    (cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
      xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh |
      tar --null -T - -cf -) | tar -C "$1" -xf -
  else
    (cd "$SRC" && tar --exclude='./build*' --exclude=./.git -cf - .) | tar -C "$1" -xf -
  fi
}

# check NAME COMMAND...: runs one step, counts it, shows its output when it fails (and a
# run's when it passes).
check() {
  local name=$1
  shift
  if "$@" > "$TMP/$name.log" 2>&1; then
    passed=$((passed + 1))
    echo "ok      $name"
    case $name in *-run) sed 's/^/    /' "$TMP/$name.log" | cut -c1-160 ;; esac
  else
    failed=$((failed + 1))
    echo "FAILED  $name"
    sed 's/^/    /' "$TMP/$name.log"
  fi
}

# The exported CMake files name libraries by target or bare name: no absolute path and
# nothing of the configure-time prefix or source copy.
no_absolute_paths() {
  local dir=$1/lib/cmake/bchol bad
  bad=$(grep -nE '(INTERFACE|IMPORTED)_[A-Z_]* +"(.*[;:])?/' "$dir"/bcholTargets*.cmake || true)
  bad=$bad$(grep -rnF -e "$TMP/src" -e "$TMP/prefix-a" "$dir" || true)
  [ -z "$bad" ] || { echo "$bad"; return 1; }
}

for kind in static shared; do
  shared=OFF
  [ "$kind" = shared ] && shared=ON
  rm -rf "$TMP/src" "$TMP/build" "$TMP/prefix-a" "$TMP/moved" "$TMP/consumer"
  copy_tree "$TMP/src"
  check "$kind-install" sh -c "cmake -S '$TMP/src' -B '$TMP/build' -DCMAKE_BUILD_TYPE=Release \
      -DBUILD_SHARED_LIBS=$shared -DBCHOL_BUILD_TESTS=OFF -DBCHOL_BUILD_TOOLS=OFF \
      -DCMAKE_INSTALL_PREFIX='$TMP/prefix-a' && cmake --build '$TMP/build' -j$(nproc) &&
      cmake --install '$TMP/build'"
  # the source copy and the build are gone, and the tree lives under another prefix
  rm -rf "$TMP/src" "$TMP/build"
  mkdir -p "$TMP/moved"
  [ -d "$TMP/prefix-a" ] && mv "$TMP/prefix-a" "$TMP/moved/prefix-b"
  PREFIX=$TMP/moved/prefix-b
  check "$kind-export-relative" no_absolute_paths "$PREFIX"
  mkdir -p "$TMP/consumer"
  cp -r "$SRC/tests/consumer" "$TMP/consumer/src"
  check "$kind-consumer-build" sh -c "cmake -S '$TMP/consumer/src' -B '$TMP/consumer/build' \
      -DCMAKE_PREFIX_PATH='$PREFIX' && cmake --build '$TMP/consumer/build'"
  check "$kind-consumer-run" "$TMP/consumer/build/consumer" "$PREFIX/share/bchol/tuning"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
