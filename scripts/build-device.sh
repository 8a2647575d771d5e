#!/usr/bin/env bash
# Builds the routetune executable without CMake or Debian's packages, for a machine that has
# only a C++20 compiler (the GPU machine): the header-only dependencies (CLI11, nlohmann-json,
# toml++) and SQLite's header and static library are carried in .devcarry/ (made by
# scripts/pack-device-deps.sh on a machine with Debian's packages). Output: build-device/routetune.
set -euo pipefail
cd "$(dirname "$0")/.."
deps=${DEVCARRY:-.devcarry}
out=build-device
mkdir -p "$out/obj"
cat > "$out/flags.rsp" <<FLAGS
-std=c++20 -O2 -Iinclude -Isrc -I$deps/include -DTOML_HEADER_ONLY=1
-DROUTETUNE_VERSION=\"0.1.0\" -DROUTETUNE_PYTHON_DIR=\"$PWD/python\"
FLAGS
find src -name '*.cpp' | while read -r source; do
  echo "$source $out/obj/$(echo "$source" | tr / _).o"
done | xargs -P "$(nproc)" -n 2 sh -c 'g++ @'"$out"'/flags.rsp -c "$0" -o "$1"'
g++ -o "$out/routetune" "$out"/obj/*.o "$deps/lib/libsqlite3.a" -lpthread -ldl
echo "built $out/routetune"
