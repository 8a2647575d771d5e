#!/usr/bin/env bash
# Issue 26's GPU work on the H200, in device calls of under 10 minutes each. Run from the
# repository root with scripts/pack-device-binary.sh's portable binary carried (make it here:
# `bash scripts/pack-device-binary.sh`, then carry .devbin; ROUTETUNE overrides the binary):
# Every phase first records the environment (GPU, driver, torch, triton, cores).
#   scripts/gpu-issue26.sh 1   the cost of one measurement fresh, forked and warm
#                              (bench/warm_measure_bench.py on inductor_resnet18: three routes built
#                              at once, the warm process's first request of a build in a new process
#                              and in one that served others, its A/A check); inductor_resnet18,
#                              forked (a fresh process per run, as before), --time-limit 300s
#   scripts/gpu-issue26.sh 2   inductor_resnet18, warm, --time-limit 300s; inductor_bert, warm, 120s
#   scripts/gpu-issue26.sh 3   inductor_cnn, warm, --time-limit 120s; then the measurement
#                              cost alone on inductor_resnet18 (bench below, 200 s) and on
#                              inductor_bert (150 s: where a warm request's time goes)
#   scripts/gpu-issue26.sh 5   the trace-once warm process (bench process D: the first request's
#                              graph recorded, each later build compiled from it) against the tracing one (A)
#                              on inductor_bert (200 s) and inductor_resnet18 (170 s), with the
#                              parts of AOTAutograd's cache key that differ between the two paths
#                              (bench_MODEL/cache_key_diff.txt)
#   scripts/gpu-issue26.sh 6   AOTAutograd's cache key on each path (bench/warm_capture_probe.py: which
#                              compile hits the build's cache, which part of the graph module differs)
#                              on $PROBE_MODELS (default inductor_bert; each under $PROBE_S, 200 s),
#                              then bench processes D and A on inductor_bert as in phase 5
#   scripts/gpu-issue26.sh 7   warm studies with the trace-once process (ROUTETUNE_WARM_CAPTURE=1):
#                              $CAPTURE_STUDIES, NAME:LIMIT each (default inductor_cnn:120 inductor_bert:120)
#   scripts/gpu-issue26.sh 8   whether the trace-once paths time a build as torch.compile runs it
#                              (bench/warm_path_timing.py: traced, dispatch and direct, interleaved
#                              in one process, with per-call profiles) on $PROBE_MODELS (default
#                              inductor_bert inductor_resnet18; each under $PROBE_S, 200 s), then
#                              bench processes D and A on inductor_bert as in phase 5
#   scripts/gpu-issue26.sh 9   the dispatch path against the traced one without the direct path
#                              (DIRECT=0, $ROUNDS rounds, default 6, order alternating) on
#                              $PROBE_MODELS (default inductor_bert, each under $PROBE_S, 120 s), then
#                              warm studies with the trace-once process, $CAPTURE_STUDIES (default
#                              inductor_resnet18:300 inductor_cnn:120), each under L + $OVERRUN (20) s
#   scripts/gpu-issue26.sh 10  warm studies as a user runs them (the trace-once path is the default):
#                              $STUDIES, NAME:LIMIT each (default inductor_bert:240
#                              inductor_resnet18:300), each under L + $OVERRUN (10) s
#   scripts/gpu-issue26.sh 11  the trace-once process over two of Dynamo's views (workload.dynamo_view: a
#                              freezing=on build traces another graph, recorded beside the default's):
#                              bench processes D and A on $VIEW_MODEL (default inductor_bert, under
#                              $VIEW_BENCH_S, 170 s) over "", freezing=on and triton.cudagraphs=on,
#                              then warm studies $STUDIES (default inductor_resnet18:300), each under
#                              L + $OVERRUN (10) s
#   scripts/gpu-issue26.sh 12  inductor_bert, warm, --time-limit $BERT_LIMIT (default 120 s), then, where its
#                              outcome names a `tune --continue` limit, that continuation on the same store
#   scripts/gpu-issue26.sh 13  what a request costs with kept compiles (workload.keep_compile): bench
#                              processes D and A on inductor_bert (under $BERT_BENCH_S, 200 s) and
#                              inductor_resnet18 (under $RESNET_BENCH_S, 200 s) over "", freezing=on,
#                              triton.cudagraphs=on and freezing=on epilogue_fusion=off (a second
#                              frozen build, compiled from the frozen view's recording), each
#                              captured compile profiled (ROUTETUNE_WARM_PROFILE_COMPILE=1), then
#                              warm studies $STUDIES (default none), each under L + $OVERRUN (10) s
#   scripts/gpu-issue26.sh 14  does a kept compile time a build as a new compile of it does
#                              (bench/warm_measure_bench.py with WARM_BENCH_KEPT_AB=$KEPT_ROUNDS, 5:
#                              both alternating in one process) over "" and freezing=on, on
#                              inductor_resnet18 (under $RESNET_BENCH_S, 130 s) and inductor_bert
#                              (under $BERT_BENCH_S, 180 s)
#   scripts/gpu-issue26.sh 15  does a build beside a warm measurement move it (bench/beside_build_timing.py:
#                              the default measured idle and while each of $BESIDE_ROUTES, comma-separated
#                              (default ",-inductor:max_autotune_gemm=on": the default route and
#                              max_autotune_gemm=on), builds from an empty cache) on $BESIDE_MODELS, NAME:TRIALS:CUT_S each
#                              (default inductor_resnet18:2:60 inductor_mlp:2:40, each under $BESIDE_S,
#                              200 s), then warm studies $STUDIES (default inductor_mlp:120), each
#                              under L + $OVERRUN (10) s
#   scripts/gpu-issue26.sh 4   the AOTInductor reproduction (docs/gpu/aoti_load_repro.py, with a
#                              native backtrace: gdb where installed, else its segv_backtrace.c
#                              preloaded); $AOTI_STEPS picks the steps, $AOTI_CXX the compiler the
#                              packages are built with (/usr/bin/g++ builds loadable ones on the
#                              device machine; its default /opt/gcc/bin/g++ does not), e.g.
#                              AOTI_CXX=/usr/bin/g++ AOTI_STEPS="compile-resnet speed-resnet" AOTI_S=400
#                              (a cold compile of resnet18.pt2 took 91 s); then the compiler
#                              python/routetune_aoti.py picks there and its verdict on each package
#   scripts/gpu-issue26.sh bench MODEL SECONDS [ROUTE...]   the measurement cost alone
#   scripts/gpu-issue26.sh study NAME LIMIT warm|forked     one study
# "warm" studies run each example's spec with `[run] server` added (spec_warm.toml beside it:
# one measurement process per GPU, docs/measurement-protocol.md). Each study runs
# `routetune tune --json --jobs $JOBS --time-limit L` under `timeout` of L + OVERRUN s (180, less where the device call is short), so an overrun
# is measured rather than cut, and records its wall time against the limit, with a process listing
# every 15 s (NAME_MODE_LIMITs.ps.log in the phase's tar.gz). Each phase leaves two
# files under $OUT: phaseN.txt (one line per step: what ran, its exit code, wall time against the
# limit, outcome, evaluations, confirmed speedup, the warm processes' default checks, and for a warm
# study bench/measurement_cost.py's table of each measurement's cost and its reasons; phase 1: the
# cost per measurement, fresh / forked / warm) and phaseN.tar.gz (made again after each step; stores,
# JSON summaries, stderr logs, warm process logs, the bench's TSV, the reproduction's log).
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-gpu-results} PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
ROUTETUNE=${ROUTETUNE:-$PWD/.devbin/routetune}
JOBS=${JOBS:-8}
phase=${1:-1}
mkdir -p "$OUT"
work=$(mktemp -d)
export XDG_CACHE_HOME=$work/cache
tag=phase$phase${2:+_$2}  # the files of this call: phaseN, or phasestudy_NAME / phasebench_MODEL
summary=$OUT/$tag.txt
: > "$summary"
"$ROUTETUNE" --version >> "$summary" 2>&1 || { echo "no routetune at $ROUTETUNE" | tee -a "$summary"; exit 1; }

note() { echo "$*" | tee -a "$summary"; }

# The phase's tar.gz of everything so far (not the caches, the bench's builds or packages), made
# again after each step, so that a device call cut off at its limit still brings back the steps
# that ended.
pack() { tar -czf "$OUT/$tag.tar.gz" -C "$work" --exclude 'cache' --exclude 'work' --exclude '*.pt2' . 2>/dev/null; }

# spec_warm.toml beside DIR/spec.toml: the same spec with `[run] server` after the run command.
warm_spec() {
  python3 - "$1" <<'PY'
import re, sys
folder = sys.argv[1]
text = open(folder + "/spec.toml", encoding="utf-8").read()
server = ('server = ["python3", "{spec_dir}/../../python/routetune_measure.py", '
          '"{spec_dir}/../inductor_common/workload.py", "{spec_dir}"]\n')
run = re.search(r"^\[run\]\ncommand = .*\n", text, re.M)
if not run:
    sys.exit("no [run] command line in " + folder + "/spec.toml")
text = text[:run.end()] + server + text[run.end():]
open(folder + "/spec_warm.toml", "w", encoding="utf-8").write(text)
PY
}

# study NAME LIMIT_S MODE(warm|forked) [EXTRA ARGS...]
study() {
  local name=$1 limit=$2 mode=$3
  shift 3
  local dir=examples/$name spec=spec.toml
  [[ $mode == warm ]] && { warm_spec "$dir" || return; spec=spec_warm.toml; }
  [[ -f $dir/eager.npy ]] || python3 examples/inductor_common/workload.py eager "$dir" "$dir/eager.npy" 2>> "$work/$name.eager.log"
  local run=${name}_${mode}_${limit}s
  local store=$work/${STORE_RUN:-$run}.sqlite start=$SECONDS
  # Every 15 s, the study's processes (builds, fork server, warm process): which of them runs
  # and which waits, the evidence a study that ends with candidates unbuilt needs.
  (while sleep 15; do
     { echo "--- $((SECONDS - start)) s"; ps -eo pid,ppid,ni,stat,etimes,pcpu,rss,args --sort=start_time |
         grep -E 'forked.py|forkserver|routetune|measure|compile_worker' | grep -v grep | cut -c1-220; } >> "$work/$run.ps.log"
   done) &
  local monitor=$!
  (cd "$dir" && timeout -s INT $((limit + ${OVERRUN:-180})) "$ROUTETUNE" tune "$spec" --json --jobs "$JOBS" \
      --time-limit "${limit}s" --cache "$store" "$@" > "$work/$run.json" 2> "$work/$run.log")
  local code=$? wall=$((SECONDS - start))
  kill "$monitor" 2>/dev/null
  cp -r "${store%.sqlite}/warm" "$work/$run.warm" 2>/dev/null
  python3 - "$work/$run.json" "$run" "$code" "$wall" "$limit" <<'PY' | tee -a "$summary"
import json, sys
path, tag, code, wall, limit = sys.argv[1:]
try:
    s = json.load(open(path))
except Exception as error:
    print(f"{tag}: exit {code}, {wall} s of {limit} s, no summary ({error})")
    sys.exit()
ok = [e for e in s["evaluations"] if e["status"] == "ok" and e.get("time")]
w = s.get("winner") or {}
warm = s.get("warm_processes", [])
checks = "; ".join(f"pid {p['pid']} default {p['default_first_s']} -> {p['default_last_s']} ({p['ended']}), "
                   f"requests median {p.get('request_median_s')} s, max {p.get('request_max_s')} s" for p in warm)
print(f"{tag}: exit {code}, {wall} s of {limit} s (summary wall {s['time']['wall_s']:.1f} s, reserve "
      f"{s['time']['confirmation_reserve_s']:.1f} s, confirmation {s['time']['confirmation_s']:.1f} s), "
      f"{s['outcome']}, {len(s['evaluations'])} evaluations ({len(ok)} ok) of {s['candidates_total']} planned, "
      f"winner {w.get('route')} {w.get('speedup')} {w.get('speedup_ci95')}; default builds "
      f"{s.get('default_build_medians_s')}; warm: {checks or 'none'}; {s.get('message', '')}")
PY
  # Each measurement's cost against item 2's target, and the warm process's reasons.
  [[ $mode == warm ]] && python3 bench/measurement_cost.py "$work/$run.json" "$store" 2>&1 | tee -a "$summary"
  pack
}

# bench MODEL SECONDS [ROUTE...]: the measurement cost alone, under its own timeout
bench() {
  local model=$1 seconds=$2
  shift 2
  timeout "$seconds" python3 bench/warm_measure_bench.py "examples/$model" "$work/bench_$model" "$@" \
      > "$work/bench_$model.log" 2>&1
  note "warm_measure_bench $model: exit $?"
  cat "$work/bench_$model/warm_bench.tsv" >> "$summary" 2>/dev/null
  cat "$work/bench_$model/cache_key_diff.txt" >> "$summary" 2>/dev/null
  rm -rf "$work/bench_$model/work"
  pack
}

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  nproc
  command -v gdb || echo "no gdb"
} > "$work/environment.txt" 2>&1
cat "$work/environment.txt" >> "$summary"
case $phase in
1)
  bench inductor_resnet18 200 "" "-inductor:triton.cudagraphs=on" "-inductor:freezing=on"
  OVERRUN=40 study inductor_resnet18 300 forked ;;
2) OVERRUN=60 study inductor_resnet18 300 warm; OVERRUN=40 study inductor_bert 120 warm ;;
3)
  OVERRUN=40 study inductor_cnn 120 warm
  bench inductor_resnet18 200 "" "-inductor:triton.cudagraphs=on" "-inductor:freezing=on"
  bench inductor_bert ${BERT_BENCH_S:-150} "" "-inductor:triton.cudagraphs=on" ;;
5)
  export ROUTETUNE_WARM_CACHE_KEYS=1
  WARM_BENCH_PROCESSES="D A" WARM_BENCH_FRESH=0 bench inductor_bert ${BERT_BENCH_S:-200} "" "-inductor:triton.cudagraphs=on"
  WARM_BENCH_PROCESSES="D A" WARM_BENCH_FRESH=0 bench inductor_resnet18 ${RESNET_BENCH_S:-170} "" "-inductor:triton.cudagraphs=on" ;;
6)
  export ROUTETUNE_WARM_CACHE_KEYS=1
  for model in ${PROBE_MODELS:-inductor_bert}; do
    timeout ${PROBE_S:-200} python3 bench/warm_capture_probe.py "examples/$model" "$work/probe_$model" > "$work/probe_$model.log" 2>&1
    note "warm_capture_probe $model: exit $?"
    grep -E '^(build|[a-z-]+: |  gm part differs)' "$work/probe_$model.log" | cut -c1-600 | tee -a "$summary"
    rm -rf "$work/probe_$model/cache"
    pack
  done
  WARM_BENCH_PROCESSES="D A" WARM_BENCH_FRESH=0 bench inductor_bert ${BERT_BENCH_S:-200} "" "-inductor:triton.cudagraphs=on" ;;
7)
  export ROUTETUNE_WARM_CAPTURE=1
  for name in ${CAPTURE_STUDIES:-inductor_cnn:120 inductor_bert:120}; do
    OVERRUN=40 study "${name%%:*}" "${name##*:}" warm
  done ;;
8)
  for model in ${PROBE_MODELS:-inductor_bert inductor_resnet18}; do
    timeout ${PROBE_S:-200} python3 bench/warm_path_timing.py "examples/$model" "$work/timing_$model" > "$work/timing_$model.log" 2>&1
    note "warm_path_timing $model: exit $?"
    grep -vE '^(W|I)[0-9]{4} ' "$work/timing_$model.log" | grep -E '^([0-9]+[[:space:]]|round|profile|r[0-9]+:|the model|Traceback|[A-Za-z]*Error)' | cut -c1-900 | tee -a "$summary"
    rm -rf "$work/timing_$model"/r*/cache
    pack
  done
  WARM_BENCH_PROCESSES="D A" WARM_BENCH_FRESH=0 bench inductor_bert ${BERT_BENCH_S:-200} "" "-inductor:triton.cudagraphs=on" ;;
9)
  for model in ${PROBE_MODELS:-inductor_bert}; do
    DIRECT=0 ROUNDS=${ROUNDS:-6} timeout ${PROBE_S:-120} python3 bench/warm_path_timing.py "examples/$model" "$work/timing_$model" > "$work/timing_$model.log" 2>&1
    note "warm_path_timing $model (no direct path, ${ROUNDS:-6} rounds): exit $?"
    grep -vE '^(W|I)[0-9]{4} ' "$work/timing_$model.log" | grep -E '^([0-9]+[[:space:]]|r[0-9]+:|the model|Traceback|[A-Za-z]*Error)' | cut -c1-300 | tee -a "$summary"
    rm -rf "$work/timing_$model"/r*/cache
    pack
  done
  export ROUTETUNE_WARM_CAPTURE=1
  for name in ${CAPTURE_STUDIES:-inductor_resnet18:300 inductor_cnn:120}; do
    OVERRUN=${OVERRUN:-20} study "${name%%:*}" "${name##*:}" warm
  done ;;
10)
  for name in ${STUDIES:-inductor_bert:240 inductor_resnet18:300}; do
    OVERRUN=${OVERRUN:-10} study "${name%%:*}" "${name##*:}" warm
  done ;;
11)
  WARM_BENCH_PROCESSES="D A" WARM_BENCH_FRESH=0 bench ${VIEW_MODEL:-inductor_bert} ${VIEW_BENCH_S:-170} "" \
      "-inductor:freezing=on" "-inductor:triton.cudagraphs=on"
  for name in ${STUDIES:-inductor_resnet18:300}; do
    OVERRUN=${OVERRUN:-10} study "${name%%:*}" "${name##*:}" warm
  done ;;
12)
  OVERRUN=10 study inductor_bert ${BERT_LIMIT:-120} warm
  named=$(python3 -c 'import json, re, sys; m = re.search(r"limit of at least (\d+) s", json.load(open(sys.argv[1])).get("message", "")); print(m.group(1) if m else "")' \
      "$work/inductor_bert_warm_${BERT_LIMIT:-120}s.json" 2>/dev/null)
  note "the outcome names a --continue limit of: ${named:-none}"
  [[ -n $named ]] && STORE_RUN=inductor_bert_warm_${BERT_LIMIT:-120}s OVERRUN=10 study inductor_bert "$named" warm --continue ;;
13)
  for model in inductor_bert:${BERT_BENCH_S:-200} inductor_resnet18:${RESNET_BENCH_S:-200}; do
    ROUTETUNE_WARM_PROFILE_COMPILE=1 WARM_BENCH_PROCESSES="D A" WARM_BENCH_FRESH=0 bench "${model%%:*}" "${model##*:}" "" \
        "-inductor:freezing=on" "-inductor:triton.cudagraphs=on" "-inductor:freezing=on -inductor:epilogue_fusion=off"
  done
  for name in ${STUDIES:-}; do
    OVERRUN=${OVERRUN:-10} study "${name%%:*}" "${name##*:}" warm
  done ;;
14)
  for model in inductor_resnet18:${RESNET_BENCH_S:-130} inductor_bert:${BERT_BENCH_S:-180}; do
    WARM_BENCH_KEPT_AB=${KEPT_ROUNDS:-5} bench "${model%%:*}" "${model##*:}" "" "-inductor:freezing=on"
  done ;;
4)
  timeout ${AOTI_S:-280} python3 docs/gpu/aoti_load_repro.py "$work/aoti" ${AOTI_STEPS:-compile-linear metadata-linear toolchain-linear cpp-wrapper-linear load-linear} > "$work/aoti_repro.log" 2>&1
  note "aoti_load_repro: exit $?"
  grep -E '^[a-z-]+: (exit|signal)' "$work/aoti_repro.log" | tee -a "$summary"
  grep -A40 -E '^(#0|Thread .* received signal)' "$work/aoti_repro.log" | head -60 >> "$summary"
  grep -E '^    (segv_backtrace|  frame)' "$work/aoti_repro.log" | cut -c1-400 | head -80 >> "$summary"
  grep -E '"(load_s|round|max_abs_vs_eager)"' "$work/aoti_repro.log" | cut -c1-600 | tee -a "$summary"
  # routetune_aoti on this machine: the compiler it picks, and its verdict on each package built
  note "routetune_aoti --choose: $(python3 python/routetune_aoti.py --choose 2>&1 | tail -1)"
  for package in "$work"/aoti/*.pt2; do
    [[ -f $package ]] && note "routetune_aoti --check $(basename "$package"): $(python3 python/routetune_aoti.py --check "$package" 2>&1 | tail -1)"
  done
  rm -f "$work"/aoti/*.pt2 ;;
15)
  IFS=, read -ra routes <<< "${BESIDE_ROUTES-,-inductor:max_autotune_gemm=on}"
  for model in ${BESIDE_MODELS:-inductor_resnet18:2:60 inductor_mlp:2:40}; do
    IFS=: read -r name trials cut <<< "$model"
    timeout ${BESIDE_S:-200} python3 bench/beside_build_timing.py "examples/$name" "$work/beside_$name" "$trials" "$cut" \
        "${routes[@]}" > "$work/beside_$name.log" 2>&1
    note "beside_build_timing $name: exit $?"
    grep -E '^(trial|\(default\)|-inductor|idle|Traceback|[A-Za-z]*Error)' "$work/beside_$name.log" | cut -c1-400 | tee -a "$summary"
    rm -rf "$work/beside_$name/work"
    pack
  done
  for name in ${STUDIES:-inductor_mlp:120}; do
    OVERRUN=${OVERRUN:-10} study "${name%%:*}" "${name##*:}" warm
  done
  # What identifies each build's code (workload.code_identity), from the studies' artifacts.
  for artifact in "$work"/*.d/work/*/artifact; do
    python3 -c 'import json, sys; a = json.load(open(sys.argv[1]))
print("artifact", {k: v for k, v in a["config"].items()}, a.get("code_identity"), len(a.get("code_modules", [])), "modules")' \
        "$artifact" 2>&1 | cut -c1-300 | tee -a "$summary"
  done ;;
bench) shift; bench "$@" ;;
study) study "$2" "$3" "$4" ;;
*) echo "usage: scripts/gpu-issue26.sh 1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|bench MODEL SECONDS [ROUTE...]|study NAME LIMIT warm|forked" >&2; exit 2 ;;
esac
pack
ls -la "$OUT"
