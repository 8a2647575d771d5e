#!/usr/bin/python3
"""Optuna's TPE as a peer of routetune's strategies on the synthetic landscapes.

Each landscape seed is served by `strategy_bench --serve SEED` (the same landscapes as
`strategy_bench --shape wide`): one categorical parameter per knob over its values (the
default included, as in `routetune expand --search fast --json`), the default configuration
enqueued as trial one (routetune builds the baseline first), a failed route told to Optuna
as a failed trial (with --failed-as F: told as F x the default's time instead, so that TPE
learns which values fail), and at most BUDGET trials (default: 20% of fast's builds). The
route a study would pick is the best measured Ok one; it is judged by its noiseless speedup
over the optimum, as strategy_bench's true@20% column does.

Usage: optuna_peer.py BENCH_BINARY [--knobs N] [--seeds K] [--first-seed S] [--budget B] [--shape wide|gcc|gcc-thin] [--failed-as F]
"""
import argparse
import json
import statistics
import subprocess

import optuna


def run_seed(binary, shape, knobs, seed, budget_fraction, budget, failed_as):
    proc = subprocess.Popen([binary, "--shape", shape, "--knobs", str(knobs), "--serve", str(seed)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    space = json.loads(proc.stdout.readline())
    trials = budget or int(space["fast"] * budget_fraction)
    knobs_ = space["knobs"]

    def evaluate(params):
        route = " ".join(f"{k['name']}={params[k['name']]}" for k in knobs_ if params[k["name"]] != k["default"])
        proc.stdin.write(route + "\n")
        proc.stdin.flush()
        status, median, true_speedup = proc.stdout.readline().split()
        return status, float(median), float(true_speedup), route.count("=")

    sampler = optuna.samplers.TPESampler(seed=seed)
    study = optuna.create_study(sampler=sampler, direction="minimize")
    study.enqueue_trial({k["name"]: k["default"] for k in knobs_})
    best = (float("inf"), 1.0, 0)
    failures = 0
    default_time = None
    for _ in range(trials):
        trial = study.ask()
        params = {k["name"]: trial.suggest_categorical(k["name"], k["values"]) for k in knobs_}
        status, median, true_speedup, changes = evaluate(params)
        if default_time is None and status == "ok":
            default_time = median  # trial one is the default
        if status != "ok":
            failures += 1
            if failed_as and default_time:
                study.tell(trial, failed_as * default_time)
            else:
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
            continue
        study.tell(trial, median)
        if median < best[0]:
            best = (median, true_speedup, changes)
    proc.stdin.close()
    proc.wait()
    return {"seed": seed, "trials": trials, "failures": failures, "fraction": best[1] / space["best_speedup"],
            "changes": best[2]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--knobs", type=int, default=1000)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--budget", type=int, default=0)
    parser.add_argument("--shape", default="wide")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--failed-as", type=float, default=0)
    args = parser.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    rows = []
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        rows.append(run_seed(args.binary, args.shape, args.knobs, seed, 0.2, args.budget, args.failed_as))
        print(json.dumps(rows[-1]), flush=True)
    fractions = [r["fraction"] for r in rows]
    name = "tpe-penalty" if args.failed_as else "tpe"
    print(f"{name}  seeds {len(rows)}  trials {rows[0]['trials']}  true@20% median {statistics.median(fractions):.3f}"
          f"  worst {min(fractions):.3f}  failed trials median {statistics.median(r['failures'] for r in rows)}"
          f"  changes median {statistics.median(r['changes'] for r in rows)}")


if __name__ == "__main__":
    main()
