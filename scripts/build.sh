#!/usr/bin/env bash
# Configures and builds routetune into build/: `build.sh` builds everything (library,
# executable, tests, benchmarks); `build.sh demo` only the library and the executable, which
# needs no test packages (scripts/install-deps.sh alone). Uses ccache when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
options=(-DCMAKE_BUILD_TYPE=Release)
if [[ $what == demo ]]; then
  options+=(-DROUTETUNE_BUILD_TESTS=OFF -DROUTETUNE_BUILD_BENCH=OFF)
else
  options+=(-DROUTETUNE_BUILD_TESTS=ON -DROUTETUNE_BUILD_BENCH=ON)
fi
command -v ccache >/dev/null && options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build "${options[@]}" >/dev/null
cmake --build build -j"$(nproc)"
