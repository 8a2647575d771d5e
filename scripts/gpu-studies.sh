#!/usr/bin/env bash
# Runs the GPU example studies on a machine with an NVIDIA GPU (CUDA, nvcc, PyTorch) and
# collects what they produce. Usage: scripts/gpu-studies.sh [STUDY ...] where STUDY is
# cuda_gemm, inductor_mlp or inductor_cnn (default: all three). Results go to $OUT (default
# ./gpu-results): results.tar.gz (the study stores, JSON summaries, Markdown reports, logs,
# the environment and the Inductor config dump) and summary.txt. Each study gets at most
# STUDY_LIMIT_S seconds (default 280; EXTRA_ARGS are added to each tune); on the limit it is interrupted (SIGINT: its state is
# saved) and a later run resumes it with --continue from the store in STUDIES_DIR.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu-results}
STUDIES_DIR=${STUDIES_DIR:-$PWD/gpu-studies}
ROUTETUNE=${ROUTETUNE:-$PWD/.devbin/routetune}
LIMIT=${STUDY_LIMIT_S:-280}
JOBS=${JOBS:-8}
mkdir -p "$OUT" "$STUDIES_DIR"
work=$(mktemp -d)
export XDG_CACHE_HOME=$work/cache
studies=("$@")
((${#studies[@]})) || studies=(cuda_gemm inductor_mlp inductor_cnn)

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  nvidia-smi | grep -m1 "CUDA Version"
  nvcc --version | tail -2
  python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  gcc --version | head -1
  nproc
} > "$work/environment.txt" 2>&1
python3 python/routetune_inductor.py --dump-config > "$work/inductor_config_dump.json" 2> "$work/dump.err"
"$ROUTETUNE" knobs --adapter nvcc > "$work/nvcc_knobs.txt" 2>&1

for study in "${studies[@]}"; do
  dir=examples/$study
  [[ $study == inductor_* ]] && python3 examples/inductor_common/workload.py eager "$dir" "$dir/eager.npy" 2>> "$work/$study.log"
  resume=()
  [[ -f $STUDIES_DIR/$study.sqlite ]] && resume=(--continue)
  start=$(date +%s)
  (cd "$dir" && timeout -s INT "$LIMIT" "$ROUTETUNE" tune spec.toml --jobs "$JOBS" --json \
      --cache "$STUDIES_DIR/$study.sqlite" "${resume[@]}" ${EXTRA_ARGS:-} > "$work/$study.json" 2>> "$work/$study.log")
  code=$?
  echo "$study: exit $code after $(( $(date +%s) - start )) s" | tee -a "$work/summary.txt"
  "$ROUTETUNE" report "$STUDIES_DIR/$study.sqlite" --format markdown > "$work/$study.md" 2>> "$work/$study.log"
  "$ROUTETUNE" report "$STUDIES_DIR/$study.sqlite" --format table 2>> "$work/$study.log" | head -12 | tee -a "$work/summary.txt"
done
cp "$STUDIES_DIR"/*.sqlite "$work/" 2>/dev/null
cp "$work/summary.txt" "$OUT/summary.txt"
tar -czf "$OUT/results.tar.gz" -C "$work" --exclude cache .
