#!/usr/bin/env bash
# Installs the built library into BUILD/install and builds and runs examples/api against it
# through find_package(routetune): the check that the CMake package works.
# usage: scripts/api-example.sh [BUILD]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
cmake --install "$build" --prefix "$build/install" >/dev/null
cmake -S examples/api -B "$build/api-example" -DCMAKE_PREFIX_PATH="$build/install" >/dev/null
cmake --build "$build/api-example" -j"$(nproc)" >/dev/null
"$build/api-example/route_flags"
