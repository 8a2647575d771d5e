#!/usr/bin/env bash
# Issue 14's GPU work in device calls (each under 10 minutes), from the repository root:
#   scripts/gpu-auto-studies.sh 1   the fork server's before/after cost on inductor_cnn, the
#                                   auto study of inductor_mlp
#   scripts/gpu-auto-studies.sh 2   auto studies of inductor_cnn and inductor_resnet18, cuda_gemm
#                                   again, the cost on resnet18
#   scripts/gpu-auto-studies.sh 3   the auto study of inductor_resnet18 with room to confirm
# Every phase runs ROUTETUNE (default .devbin/routetune: scripts/pack-device-binary.sh's portable
# binary, made here and carried).
# Studies go through scripts/gpu-studies.sh with --search auto over
# examples/inductor_common/auto12.routes (or ROUTES_FILE) and --time-limit $TIME_LIMIT (default
# 100s). auto12 holds the max-autotune knobs, whose builds take minutes on ResNet-18 and BERT:
# those studies use auto9.routes.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-gpu-results} PYTHONUNBUFFERED=1
mkdir -p "$OUT"
phase=${1:-1}
auto="--search auto --routes-file ${ROUTES_FILE:-$PWD/examples/inductor_common/auto12.routes} --time-limit ${TIME_LIMIT:-100s}"
if [[ $phase == 1 ]]; then
  python3 -c "import torch, torchvision, transformers; print('torch', torch.__version__, 'torchvision', torchvision.__version__, 'transformers', transformers.__version__, 'gpus', torch.cuda.device_count())"
  export ROUTETUNE=${ROUTETUNE:-$PWD/.devbin/routetune}
  "$ROUTETUNE" --version || exit 1
  REPEATS=2 scripts/inductor-overhead.sh inductor_cnn
  cp "$OUT/overhead.tsv" "$OUT/overhead_cnn.tsv"
  STUDY_LIMIT_S=280 EXTRA_ARGS="$auto" scripts/gpu-studies.sh inductor_mlp
  cp "$OUT/results.tar.gz" "$OUT/results_mlp.tar.gz"; cp "$OUT/summary.txt" "$OUT/summary_mlp.txt"
elif [[ $phase == 3 ]]; then
  export ROUTETUNE=${ROUTETUNE:-$PWD/.devbin/routetune}
  "$ROUTETUNE" --version || exit 1
  STUDY_LIMIT_S=${STUDY_LIMIT_S:-480} EXTRA_ARGS="$auto" scripts/gpu-studies.sh inductor_resnet18
  cp "$OUT/results.tar.gz" "$OUT/results_inductor_resnet18.tar.gz"
  cp "$OUT/summary.txt" "$OUT/summary_inductor_resnet18.txt"
else
  export ROUTETUNE=${ROUTETUNE:-$PWD/.devbin/routetune}
  STUDY_LIMIT_S=220 EXTRA_ARGS="$auto" scripts/gpu-studies.sh inductor_cnn inductor_resnet18
  cp "$OUT/results.tar.gz" "$OUT/results_cnn_resnet18.tar.gz"; cp "$OUT/summary.txt" "$OUT/summary_cnn_resnet18.txt"
  STUDY_LIMIT_S=70 scripts/gpu-studies.sh cuda_gemm
  cp "$OUT/results.tar.gz" "$OUT/results_gemm.tar.gz"; cp "$OUT/summary.txt" "$OUT/summary_gemm.txt"
  if ((SECONDS < 470)); then  # only while the call's 10 minutes allow it
    REPEATS=1 scripts/inductor-overhead.sh inductor_resnet18
    cp "$OUT/overhead.tsv" "$OUT/overhead_resnet18.tsv"
  fi
fi
rm -f "$OUT/results.tar.gz" "$OUT/overhead.tsv" "$OUT/summary.txt"
ls -la "$OUT"
