#!/usr/bin/env bash
# Renders the HTML reports of a recorded CPU study and a GPU study in headless Chromium and
# saves PNG screenshots in docs/ (the charts part of each page; tables below are cut).
# Usage: scripts/report-screenshots.sh [build folder, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
shoot() {  # store png height
  "$build/routetune" report "$1" --format html --output "$out/page.html"
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$out/profile" \
    --virtual-time-budget=10000 --window-size=1280,"$3" --screenshot="$2" "file://$out/page.html" 2>/dev/null
  echo "wrote $2"
}
shoot bench/recorded/matmul.sqlite docs/report-cpu.png 3900
shoot docs/gpu/inductor_mlp.sqlite docs/report-gpu.png 3300
