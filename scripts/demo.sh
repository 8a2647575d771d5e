#!/usr/bin/env bash
# Installs what is missing, builds, and tunes the bundled matmul example (the main job); the
# study is kept in build/demo/ (a second run moves the first aside).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/routetune tune examples/matmul/spec.toml --cache build/demo/matmul.sqlite
