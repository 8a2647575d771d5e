#!/bin/bash
# Fuzzes every parser (bench/fuzz/targets.txt) with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer for SECONDS each (default 60), one process on one core:
#   bash bench/fuzz/run.sh [SECONDS] [TARGET...]
# Builds the targets (-DROUTETUNE_FUZZ=ON: the parsers' folders only, bench/fuzz/CMakeLists.txt)
# with Debian's clang++-14 into build-fuzz/ (needs libclang-rt-14-dev, see
# scripts/install-test-deps.sh), seeds each target with its kept corpus (bench/fuzz/corpus/TARGET/)
# plus, for specs, every *.toml of examples/ and tests/fixtures/, runs it with -jobs=1 over a
# scratch copy and copies every crash, timeout, leak or out-of-memory input into the kept
# corpus as finding-<target>-<sha1> (fix the product, keep the input: `ctest -L fuzz` replays
# it from then on). Prints one line per target: executions, exec/s, coverage, features,
# corpus size, peak memory and findings; the logs stay in build-fuzz/logs/.
set -euo pipefail
seconds=${1:-60}
shift || true
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-fuzz
mapfile -t targets < <(if (($#)); then printf '%s\n' "$@"; else grep -v '^#' "$root/bench/fuzz/targets.txt"; fi)
sanitizers=address,undefined
flags="-fsanitize=$sanitizers -fno-sanitize-recover=undefined -fno-omit-frame-pointer -gline-tables-only"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_COMPILER=clang++-14 "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="-O1 -fsanitize=fuzzer-no-link $flags" -DROUTETUNE_FUZZ=ON \
  -DROUTETUNE_BUILD_TESTS=OFF -DROUTETUNE_BUILD_BENCH=OFF > /dev/null
ninja -C "$build" -j "${FUZZ_BUILD_JOBS:-2}" "${targets[@]/#/fuzz_}"
mkdir -p "$build/logs"
for target in "${targets[@]}"; do
  exe=$build/bench/fuzz/fuzz_$target
  kept=$root/bench/fuzz/corpus/$target
  mkdir -p "$kept"
  work=$(mktemp -d)
  mkdir "$work/corpus" "$work/findings"
  cp -r "$kept/." "$work/corpus/"
  if [ "$target" = spec ]; then
    find "$root/examples" "$root/tests/fixtures" -name '*.toml' -size -64k |
      while read -r f; do cp "$f" "$work/corpus/seed-$(sha1sum < "$f" | cut -c1-12)"; done
  fi
  dict=()
  [ -f "$root/bench/fuzz/$target.dict" ] && dict=(-dict="$root/bench/fuzz/$target.dict")
  seeds=$(ls "$work/corpus" | wc -l)
  log=$build/logs/$target.log
  started=$(date +%s)
  (cd "$work" && UBSAN_OPTIONS=print_stacktrace=1 "$exe" -jobs=1 -max_total_time="$seconds" -max_len=65536 \
     -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/findings/" "${dict[@]}" \
     "$work/corpus" > /dev/null 2>&1) || true
  elapsed=$(($(date +%s) - started))
  cp "$work/fuzz-0.log" "$log"
  findings=0
  for finding in "$work"/findings/*; do
    [ -e "$finding" ] || continue
    name=finding-$target-$(sha1sum < "$finding" | cut -c1-12)
    cp "$finding" "$kept/$name"
    echo "finding kept: bench/fuzz/corpus/$target/$name ($(basename "$finding" | cut -d- -f1))"
    findings=$((findings + 1))
  done
  stat() { grep -m1 "^stat::$1:" "$log" | awk '{print $2}' || true; }
  done_line=$(grep -E '^#[0-9]+[[:space:]]+(DONE|NEW|REDUCE|pulse|INITED)' "$log" | tail -n 1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$done_line")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$done_line")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<< "$done_line")
  printf '%s: %s s (of %s), %s executions, %s exec/s, cov %s, ft %s, corpus %s -> %s, peak %s MB, findings %s\n' \
    "$target" "$elapsed" "$seconds" "$(stat number_of_executed_units)" "$(stat average_exec_per_sec)" "$cov" "$ft" \
    "$seeds" "$corp" "$(stat peak_rss_mb)" "$findings"
  rm -rf "$work"
done
