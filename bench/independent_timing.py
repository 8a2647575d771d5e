#!/usr/bin/env python3
"""Independent paired timing of two artifacts, outside routetune's code.

Checks a study's claimed speedup (issue 23, "Headline honesty"): the default's artifact and the
winner's run alternately, each case of one right next to the same case of the other, the order
flipping every round (D C, C D, ...), after one warm-up round. A round's time is the sum over
the cases; the speedup is the median of the rounds' ratios default / candidate, with the
distribution-free 95% interval of that median (order statistics of the ratios); the ratio of
the two medians is printed beside it.

Times: "reported" reads {"time_ms": x or [x, ...]} from the metrics file the program writes
(the median of a list), as examples/matmul does; "wall" is each process's wall time.

usage: independent_timing.py (--store STORE.sqlite | DEFAULT CANDIDATE) --input FILE [--input FILE ...]
                             [--rounds 41] [--timing reported|wall]
The program is run as: ARTIFACT INPUT OUTPUT METRICS (examples/matmul's run command).
"""
import argparse
import json
import math
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time


def artifacts_from_store(store):
    """The default's and the winner's kept artifacts, as the study store records them."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    default = db.execute("SELECT artifact_path FROM evaluation WHERE route = '' AND status = 'ok' "
                         "ORDER BY id LIMIT 1").fetchone()
    winner = db.execute("SELECT winner_route, artifact_path FROM outcome WHERE id = 1").fetchone()
    if not default or not winner or not winner[0]:
        sys.exit(f"{store}: no default artifact or no winner recorded")
    return default[0], winner[1], winner[0]


def run_once(artifact, case_input, folder, timing):
    output = os.path.join(folder, "output")
    metrics = os.path.join(folder, "metrics.json")
    if os.path.exists(metrics):
        os.remove(metrics)
    start = time.perf_counter()
    subprocess.run([artifact, case_input, output, metrics], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    if timing == "wall":
        return wall
    with open(metrics) as f:
        value = json.load(f)["time_ms"]
    return (statistics.median(value) if isinstance(value, list) else value) / 1000


def median_ci95(values):
    """[x(k), x(n+1-k)] for the largest k with P(Binomial(n, 1/2) <= k - 1) <= 0.025."""
    xs = sorted(values)
    n = len(xs)
    k, cumulative = 0, 0.0
    for j in range(n // 2):
        cumulative += math.comb(n, j) / 2 ** n
        if cumulative > 0.025:
            break
        k = j + 1
    return (xs[0], xs[-1]) if k == 0 else (xs[k - 1], xs[n - k])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("artifacts", nargs="*", help="DEFAULT CANDIDATE (or --store)")
    parser.add_argument("--store", help="a study store: the default's and the winner's kept artifacts")
    parser.add_argument("--input", action="append", required=True, help="a case's input (repeat per case)")
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--timing", choices=["reported", "wall"], default="reported")
    args = parser.parse_args()
    route = "(given)"
    if args.store:
        default, candidate, route = artifacts_from_store(args.store)
    elif len(args.artifacts) == 2:
        default, candidate = args.artifacts
    else:
        parser.error("give DEFAULT CANDIDATE or --store")
    folder = tempfile.mkdtemp(prefix="independent-timing-")
    d_rounds, c_rounds = [], []
    for r in range(-1, args.rounds):
        order = [("D", default), ("C", candidate)] if r % 2 == 0 else [("C", candidate), ("D", default)]
        sums = {"D": 0.0, "C": 0.0}
        for case_input in args.input:
            for who, artifact in order:
                sums[who] += run_once(artifact, case_input, folder, args.timing)
        if r >= 0:
            d_rounds.append(sums["D"])
            c_rounds.append(sums["C"])
    ratios = [d / c for d, c in zip(d_rounds, c_rounds)]
    low, high = median_ci95(ratios)
    print(json.dumps({
        "default": default, "candidate": candidate, "route": route, "timing": args.timing,
        "rounds": args.rounds, "default_median_s": statistics.median(d_rounds),
        "candidate_median_s": statistics.median(c_rounds),
        "paired_speedup": statistics.median(ratios), "paired_speedup_ci95": [low, high],
        "ratio_of_medians": statistics.median(d_rounds) / statistics.median(c_rounds),
        "load_average": open("/proc/loadavg").read().split()[:3],
    }, indent=2))


if __name__ == "__main__":
    main()
