#!/usr/bin/env bash
# Installs the built routetune into BUILD/install and configures and builds examples/cmake_flags
# against it: routetune_target_flags() gives the kernel the flags of LOCK (or, with
# "fallback", the default route's flags when the lock is stale). Prints the configure output.
# usage: scripts/cmake-flags-example.sh BUILD LOCK KERNEL.c [fallback]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "$1")
lock=$(realpath "$2")
kernel=$(realpath "$3")
fallback=OFF
[ "${4:-}" = fallback ] && fallback=ON
cmake --install "$build" --prefix "$build/install" >/dev/null
out=$(mktemp -d "${TMPDIR:-/tmp}/routetune-flags-example-XXXXXX")
cmake -S examples/cmake_flags -B "$out" -DCMAKE_PREFIX_PATH="$build/install" -DROUTETUNE_LOCK="$lock" \
      -DKERNEL="$kernel" -DFALLBACK="$fallback" 2>&1
cmake --build "$out" >/dev/null
rm -rf "$out"
