#!/usr/bin/env bash
# Live strategy runs over a wide GCC space (`*=~`, about 1900 fast builds) for one recorded
# workload: each strategy and seed is a real `routetune tune` study with a build budget.
# Usage: bench/wide/run_live.sh WORKLOAD BUDGET OUTDIR STRATEGY:SEEDS...
#   e.g. bench/wide/run_live.sh matmul 376 /tmp/wide-matmul fast:1 auto:1-10 model:1-10
# WORKLOAD is a folder of bench/recorded (its spec.toml); ROUTETUNE picks the binary. Each run
# leaves OUTDIR/<strategy>-<seed>.sqlite; bench/wide/collect.py turns them into one CSV.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
workload=$1 budget=$2 outdir=$3
shift 3
routetune=${ROUTETUNE:-$here/../../build/routetune}
mkdir -p "$outdir"
cd "$here/../recorded/$workload"
for item in "$@"; do
  strategy=${item%%:*} seeds=${item#*:}
  for seed in $(seq "${seeds%-*}" "${seeds#*-}"); do
    store=$outdir/$strategy-$seed.sqlite
    [[ -f $store ]] && continue
    start=$(date +%s.%N)
    "$routetune" tune spec.toml --routes '*=~' --search "$strategy" --seed "$seed" --max-routes "$budget" \
        --jobs 2 --cache "$store" > "$outdir/$strategy-$seed.log" 2>&1 || echo "$strategy $seed: exit $?"
    echo "$strategy $seed: $(echo "$(date +%s.%N) - $start" | bc) s"
  done
done
