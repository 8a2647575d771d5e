#!/usr/bin/env bash
# Tunes each CPU example once (or the examples named) with a fresh cache in a temporary
# folder, --jobs 1, --json; keeps every summary JSON, the progress on stderr and the wall
# time in RESULTS (default /tmp/routetune-example-studies). Then:
#   python3 bench/summarize_studies.py RESULTS/*.json
# usage: bench/example_studies.sh [RESULTS] [EXAMPLE...]   (run from the repository root)
# SPEC=clang.toml tunes each example's clang spec instead of spec.toml.
set -uo pipefail
results=${1:-/tmp/routetune-example-studies}
shift || true
examples=("$@")
((${#examples[@]})) || examples=(matmul stencil reduction interpreter stream)
routetune=${ROUTETUNE:-build/routetune}
spec=${SPEC:-spec.toml}
mkdir -p "$results"
scratch=$(mktemp -d /tmp/routetune-example-cache.XXXXXX)
for name in "${examples[@]}"; do
    tag=$name-$(date -u +%H%M%S)
    start=$(date +%s.%N)
    "$routetune" tune "examples/$name/$spec" --cache "$scratch/$tag/$name.sqlite" --jobs 1 --json \
        > "$results/$tag.json" 2> "$results/$tag.stderr"
    rc=$?
    end=$(date +%s.%N)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    echo "$wall" > "$results/$tag.wall"
    echo "$name: exit $rc, wall ${wall} s -> $results/$tag.json"
done
rm -rf "$scratch"
