#!/usr/bin/env bash
# Installs what is missing, builds, and tunes the bundled example (the main job).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/routetune knobs --adapter gcc --filter '-funroll*'
./build/routetune expand --adapter gcc --routes '-O=[2|3] -funroll-loops=[on|off]' --search full
