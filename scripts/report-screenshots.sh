#!/usr/bin/env bash
# Renders the HTML reports of a recorded CPU study, a GPU study and a study where the default
# stays in headless Chromium and saves PNG screenshots in docs/ (the top of each page; tables
# below are cut, but the default-stays page shows its evaluations table: each route as its
# changes from the default, the recorded stores' routes whole, as they predate knob_defaults).
# The default-stays study is run here: examples/matmul (real GCC) over two
# knobs whose binaries are byte-identical to the default's at -O2 (`= (default)`, measured once;
# checked with cmp: -fgcse-las, -fipa-icf; -fipa-pta is not: it speeds this kernel up) and
# -O=[1|2], so nothing beats the default.
# Usage: scripts/report-screenshots.sh [build folder, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
shoot() {  # store png height
  "$build/routetune" report "$1" --format html --output "$out/page.html"
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$out/profile" \
    --virtual-time-budget=10000 --window-size=1280,"$3" --screenshot="$2" "file://$out/page.html" 2>/dev/null
  echo "wrote $2"
}
cp bench/recorded/matmul.sqlite "$out/matmul.sqlite"  # a copy: reading may migrate an older store
shoot "$out/matmul.sqlite" docs/report-cpu.png 3900
cp docs/gpu/inductor_mlp.sqlite "$out/inductor_mlp.sqlite"
shoot "$out/inductor_mlp.sqlite" docs/report-gpu.png 3300
cp -r examples/matmul "$out/matmul"
rm -rf "$out/matmul/.routetune"
(cd "$out/matmul" && "$build/routetune" tune spec.toml --search full --cache "$out/stays.sqlite" \
   --routes "-O=[1|2] -fgcse-las=[on|off] -fipa-icf=[on|off]" >/dev/null)
shoot "$out/stays.sqlite" docs/report-default-stays.png 3700
