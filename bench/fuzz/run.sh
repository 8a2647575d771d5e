#!/bin/bash
# Fuzzes every parser with libFuzzer + AddressSanitizer for SECONDS each (default 60):
#   bash bench/fuzz/run.sh [SECONDS]
# Builds the library with clang++-14 into build-fuzz/ (needs libclang-rt-14-dev), runs each
# target over a scratch copy of its corpus, and copies new crash inputs into the corpus folder
# (fix the crash, keep the input: ctest -L fuzz replays it from then on).
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-fuzz
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer" \
  -DROUTETUNE_BUILD_TESTS=OFF -DROUTETUNE_BUILD_BENCH=OFF > /dev/null
ninja -C "$build" routetune_lib
for target in lock_holder trtexec_cache route_expression; do
  exe=$build/fuzz_$target
  clang++-14 -std=c++20 -O1 -g -fsanitize=fuzzer,address -I"$root/include" -I"$root/src" \
    "$root/bench/fuzz/fuzz_$target.cpp" "$build/libroutetune.a" -lsqlite3 -lpthread -o "$exe"
  work=$(mktemp -d)
  cp -r "$root/bench/fuzz/corpus/$target/." "$work/"
  (cd "$work" && "$exe" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 "$work" \
     2>&1 | tail -n 3) || true
  for crash in "$work"/crash-* "$work"/timeout-* "$work"/oom-*; do
    [ -e "$crash" ] && cp "$crash" "$root/bench/fuzz/corpus/$target/" && echo "finding kept: $crash"
  done
  echo "$target: $(ls "$work" | wc -l) corpus inputs after $seconds s"
done
