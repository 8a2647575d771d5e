#!/usr/bin/env bash
# Installs what the demo needs (scripts/install-deps.sh: a compiler, CMake and the libraries),
# builds routetune, and tunes the bundled matmul example (the main job) into its default store,
# examples/matmul/.routetune/matmul.sqlite (a second run moves the first aside), as README's
# first study does.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh demo
./build/routetune tune examples/matmul/spec.toml
echo "the study: examples/matmul/.routetune/matmul.sqlite (./build/routetune report it; --format html --output FILE for the page)"
