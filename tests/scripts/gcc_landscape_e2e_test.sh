#!/usr/bin/env bash
# A short end-to-end study over the fake GCC of the modelled landscapes
# (bench/gcc_landscape/run_e2e.sh, gcc_landscape_cc): the route check sees every route built as
# asked (no route_conflict: the fake answers `-Q --help=...` with the states the route's flags
# ask for), the study improves, and the winner's measured speedup is its noiseless one within
# 5%. Usage: gcc_landscape_e2e_test.sh BUILD
set -euo pipefail
build=$1
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
out=$(TMPDIR=$(mktemp -d) bash "$source_dir/bench/gcc_landscape/run_e2e.sh" "$build" gcc 1 40 2)
work=$(sed -n 's/^study: \([^ ]*\) .*/\1/p' <<<"$out")
trap 'rm -rf "$(dirname "$work")"' EXIT
echo "$out"
python3 - "$out" <<'PY'
import json, sys
lines = sys.argv[1].splitlines()
counts = json.loads(next(l for l in lines if l.startswith("outcome:")).split("evaluations: ", 1)[1])
winner = next(json.loads(l) for l in lines if l.startswith("{") and json.loads(l).get("route") == "winner")
assert "outcome: improved" in sys.argv[1], "the study did not improve"
assert counts["route_conflict"] == 0, f"{counts['route_conflict']} routes were not built as asked"
assert counts["ok"] >= 20, f"only {counts['ok']} of 40 routes built and ran"
ratio = winner["measured_speedup"] / winner["speedup"]
assert abs(ratio - 1) < 0.05, f"measured {winner['measured_speedup']} against noiseless {winner['speedup']}"
print("ok: no route conflicts,", counts["ok"], "routes ok, measured/noiseless", round(ratio, 3))
PY
