"""Tunes a PyTorch model's torch.compile (Inductor) configuration from Python, then promotes the
winner into model.lock beside this script: the study examples/inductor_mlp's spec describes,
run by routetune.tune, and the lock written by routetune.promote.

    python3 tune_model.py [--time-limit 20m] [--jobs 4] [--resume]

Needs an NVIDIA GPU, PyTorch with CUDA, and the routetune package on the import path
(README, "From Python"). serve_model.py applies the lock.
"""

import argparse
import subprocess
import sys
from pathlib import Path

import routetune

HERE = Path(__file__).resolve().parent
MODEL = HERE.parent / "inductor_mlp"
LOCK = HERE / "model.lock"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", default="20m", help="the study's wall limit (routetune tune --time-limit)")
    parser.add_argument("--jobs", type=int, default=4, help="builds at once")
    parser.add_argument("--resume", action="store_true", help="go on with a study that was interrupted")
    arguments = parser.parse_args()

    reference = MODEL / "eager.npy"  # the eager model's output: the spec's golden reference
    if not reference.exists():
        subprocess.run([sys.executable, str(HERE.parent / "inductor_common" / "workload.py"), "eager", str(MODEL),
                        str(reference)], check=True)

    try:
        study = routetune.tune(MODEL / "spec.toml", time_limit=arguments.time_limit, jobs=arguments.jobs,
                               resume=arguments.resume)
    except routetune.Interrupted:
        print("interrupted: the study is saved; --resume goes on with it")
        return 130
    print("outcome:", study.outcome)
    for evaluation in sorted(study.evaluations, key=lambda e: e.time or float("inf"))[:5]:
        print("  %-60s %-10s %s" % (evaluation.route or "(default)", evaluation.status,
                                    "%.3f ms" % (evaluation.time * 1e3) if evaluation.time else "-"))
    if study.winner is None:
        print("the default stays: no route beat torch.compile's defaults with confidence; nothing to lock")
        return 0
    low, high = study.winner.speedup_ci95
    print("winner: %s, %.3fx [%.3f, %.3f] confirmed" % (study.winner.route, study.winner.speedup, low, high))
    try:
        promotion = routetune.promote(study.store, lock=LOCK, reason="tuned by examples/pytorch_python/tune_model.py")
    except routetune.Failure as refused:
        print("promotion refused:", *(refused.details.failures if refused.details else [str(refused)]), sep="\n  ")
        return 1
    print("wrote %s: %s, review by %s" % (LOCK, promotion.route, promotion.review_by))
    return 0


if __name__ == "__main__":
    sys.exit(main())
