#!/bin/sh
# One end-to-end study of a modelled GCC landscape: `routetune tune --routes '*=~' --search
# auto --minimize` over gcc_landscape_cc (a fake GCC 12 whose builds follow the landscape of
# KIND and SEED, bench/gcc_landscape/gcc_landscape_cc.cpp), then the winner and the minimal
# route judged by their noiseless speedup over the optimum of that landscape.
# Usage: bench/gcc_landscape/run_e2e.sh BUILD_DIR KIND SEED [BUDGET (a fifth of fast: 376)] [JOBS (2)]
# KIND: gcc, gcc-thin or gcc-doors (the diagnostic). Prints the tune summary's outcome line and two JSON lines (winner,
# minimal) with changes, speedup, optimum and fraction; the study stays in the printed folder.
# SEARCH_SEED=N in the environment passes --seed N (the search's own shuffles; unset: tune's default).
set -eu
build=$(cd "${1:?usage: run_e2e.sh BUILD_DIR KIND SEED [BUDGET] [JOBS]}" && pwd)
kind=${2:?kind: gcc, gcc-thin or gcc-doors}
seed=${3:?seed}
budget=${4:-376}
jobs=${5:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
fake=$build/bench/gcc_landscape_cc
work=$(mktemp -d "${TMPDIR:-/tmp}/gcc_landscape_${kind}_${seed}.XXXXXX")
cp "$root/tests/fixtures/specs/tiny.c" "$root/tests/fixtures/specs/fake_input_1.txt" "$work/"
cat > "$work/spec.toml" <<SPEC
name = "gcc_landscape_${kind}_${seed}"

[compiler]
adapter = "gcc"
path = "$fake"
base = ["-O2"]
host_isa_only = false

[build]
command = ["{compiler}", "{flags}", "tiny.c", "-o", "{artifact}"]
timeout_s = 30

[build.env]
LANDSCAPE_KIND = "$kind"
LANDSCAPE_SEED = "$seed"

[run]
command = ["{artifact}", "{metrics}", "{input}"]
timeout_s = 10
relative_timeout = 0

[run.env]
LANDSCAPE_NOISE = "0.01"

[timing]
source = "reported"
warmup = 1
repeats = 3
min_gain = 0.02
confirm_rounds = 10
confirm_top = 3

[accuracy]
format = "text"
metric = "rel_l2"
threshold = 1e-6

[[case]]
name = "unit"
input = "fake_input_1.txt"
SPEC
start=$(date +%s)
XDG_CACHE_HOME=$work/catalogs "$build/routetune" tune "$work/spec.toml" --routes '*=~' --search auto --max-routes "$budget" \
    --jobs "$jobs" --minimize ${SEARCH_SEED:+--seed "$SEARCH_SEED"} --cache "$work/study.sqlite" --json > "$work/summary.json" 2> "$work/stderr" || {
    tail -20 "$work/stderr" >&2; exit 1; }
end=$(date +%s)
echo "study: $work ($((end - start)) s)"
python3 - "$work/summary.json" "$fake" "$kind" "$seed" <<'PY'
import json, os, subprocess, sys
summary = json.load(open(sys.argv[1]))
env = dict(os.environ, LANDSCAPE_KIND=sys.argv[3], LANDSCAPE_SEED=sys.argv[4])
counts = summary.get("counts", {})
print("outcome:", summary["outcome"], "evaluations:", json.dumps(counts))
for name in ("winner", "minimal"):
    entry = summary.get(name)
    if not entry:
        print(json.dumps({name: None})); continue
    judged = json.loads(subprocess.run([sys.argv[2], "--judge", entry["route"]], env=env, capture_output=True, text=True).stdout)
    judged.update({"route": name, "measured_speedup": entry["speedup"], "speedup_ci95": entry["speedup_ci95"]})
    print(json.dumps(judged))
PY
