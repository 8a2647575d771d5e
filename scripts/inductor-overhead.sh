#!/usr/bin/env bash
# The fixed cost of one Inductor evaluation, before and after the fork server, on a machine
# with a GPU and PyTorch. For each model (default: inductor_cnn inductor_resnet18), REPEATS
# (default 3) evaluations with a fresh TORCHINDUCTOR_CACHE_DIR each, run the way a study runs
# them: the build step, then the run step. "direct" runs workload.py in fresh Python processes
# (two torch imports per evaluation); "forked" runs forked.py (a child of the fork server per
# step; its first call starts the server and is reported apart as "forked-cold").
# Prints one line per step: mode, model, step, wall s, script s (the script's own time),
# physical s (build: compile + 2 calls; run: first call + 10 warm-ups + 50 timed calls,
# from first_call_s and the CUDA-event samples), all into $OUT/overhead.tsv.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-.}
REPEATS=${REPEATS:-3}
models=("$@")
((${#models[@]})) || models=(inductor_cnn inductor_resnet18)
common=examples/inductor_common
work=$(mktemp -d)
export ROUTETUNE_FORKSERVER_SOCKET=$work/forkserver.sock ROUTETUNE_PYTHON_DIR=$PWD/python
tsv=$OUT/overhead.tsv
printf 'mode\tmodel\tstep\twall_s\tscript_s\tphysical_s\n' > "$tsv"
now() { date +%s.%N; }
step() {  # mode model step script args...
  local mode=$1 model=$2 name=$3 script=$4; shift 4
  local start end
  start=$(now); python3 "$script" "$@" 2>> "$work/log"; end=$(now)
  python3 - "$mode" "$model" "$name" "$start" "$end" "$work/artifact" "$work/metrics" >> "$tsv" <<'PY'
import json, sys
mode, model, name, start, end, artifact, metrics = sys.argv[1:]
wall = float(end) - float(start)
if name == "build":
    d = json.load(open(artifact)); script, physical = d.get("script_s", 0), d["compile_s"]
else:
    d = json.load(open(metrics)); script = d.get("script_s", 0)
    physical = d["first_call_s"] + sum(d["time_ms"]) / 1e3 * (60 / 50)  # 10 warm-ups ≈ 10 timed calls
print(f"{mode}\t{model}\t{name}\t{wall:.2f}\t{script:.2f}\t{physical:.2f}")
PY
}
first=${models[0]}
for model in "${models[@]}"; do
  modes=(direct forked); [[ $model == "$first" ]] && modes=(direct forked-cold forked)
  for mode in "${modes[@]}"; do
    n=$REPEATS; [[ $mode == forked-cold ]] && n=1
    script=$common/workload.py; [[ $mode == forked* ]] && script=$common/forked.py
    for ((i = 0; i < n; i++)); do
      export TORCHINDUCTOR_CACHE_DIR=$work/cache-$mode-$model-$i
      step "$mode" "$model" build "$script" build "examples/$model" "$work/artifact"
      step "$mode" "$model" run "$script" run "examples/$model" "$work/out.npy" "$work/metrics"
    done
  done
done
cp "$work/log" "$OUT/overhead.log" 2>/dev/null
cat "$tsv"
