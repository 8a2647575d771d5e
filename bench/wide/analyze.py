"""Builds each live run needed to reach a fraction of the best known speedup.

Usage: python3 bench/wide/analyze.py CSV_GZ FAST_BUILDS [TARGET] [own|pooled|confirmed]
Speedups are against the run's own default (`own`: what the study itself reports) or against
one pooled default, the median of every run's baseline median (`pooled`, `confirmed`). The
best known speedup is the largest speedup of any Ok evaluation of any run (`own`, `pooled`:
a maximum over thousands of noisy medians, so it drifts up as runs are added), or the largest
confirmed speedup of any run (`confirmed`, from the outcomes file: re-measured against the
default in interleaved rounds). A run reaches
the target at the first build whose best-so-far speedup is at least TARGET (default 0.95)
times the best known. Columns as in bench/recorded/table.py: runs that reached it, mean builds
over those, median builds over all runs (a miss counts as infinite), median / FAST_BUILDS,
and the mean fraction of the best known after 20% of FAST_BUILDS (rounded up), after 100
builds and at the end of the run. Then, from the outcomes file beside the CSV (collect.py),
each strategy's confirmed speedups (winner against the default, interleaved rounds, in the
same session): the lowest, the median and the highest, and their fraction of the best one.
"""
import collections
import csv
import gzip
import math
import statistics
import sys

path, fast = sys.argv[1], int(sys.argv[2])
target = float(sys.argv[3]) if len(sys.argv) > 3 else 0.95
reference = sys.argv[4] if len(sys.argv) > 4 else "own"
runs = collections.defaultdict(list)
with gzip.open(path, "rt", newline="") as handle:
    for row in csv.DictReader(handle):
        runs[(row["strategy"], int(row["seed"]))].append(row)
defaults = [float(rows[0]["median_s"]) for rows in runs.values() if rows[0]["status"] == "ok"]
pooled = statistics.median(defaults)


def speedup(row, rows):
    if row["status"] != "ok" or not row["median_s"]:
        return 0.0
    base = float(rows[0]["median_s"]) if reference == "own" and rows[0]["status"] == "ok" else pooled
    return base / float(row["median_s"])


best = max(speedup(row, rows) for rows in runs.values() for row in rows)
outcomes_path = path.replace(".csv.gz", "-outcomes.csv")
try:
    with open(outcomes_path, newline="") as handle:
        confirmed = list(csv.DictReader(handle))
except FileNotFoundError:
    confirmed = []
if reference == "confirmed":
    best = max(float(row["speedup"]) for row in confirmed)
fifth = math.ceil(0.2 * fast)
against = {"own": "largest measured, against each run's own default",
           "pooled": "largest measured, against the pooled default",
           "confirmed": "largest confirmed; measurements against the pooled default"}[reference]
print(f"{sum(len(r) for r in runs.values())} evaluations in {len(runs)} runs; pooled default "
      f"{pooled * 1e3:.3f} ms (defaults {min(defaults) * 1e3:.3f}-{max(defaults) * 1e3:.3f} ms); best known "
      f"speedup {best:.3f} ({against}); "
      f"fast = {fast} builds; target {target}")
print(f"{'strategy':8} {'reached':>8} {'mean':>7} {'median':>7} {'med/fast':>9} "
      f"{'frac@' + str(fifth):>9} {'frac@100':>9} {'frac@end':>9} {'builds':>7}")
by_strategy = collections.defaultdict(list)
for (strategy, seed), rows in sorted(runs.items()):
    so_far, curve, reached = 0.0, [], None
    for row in rows:
        so_far = max(so_far, speedup(row, rows))
        curve.append(so_far / best)
        if reached is None and so_far >= target * best:
            reached = len(curve)
    by_strategy[strategy].append((reached, curve))
for strategy, results in by_strategy.items():
    hits = [r for r, _ in results if r is not None]
    ordered = sorted(r if r is not None else math.inf for r, _ in results)
    median = statistics.median(ordered)
    at = lambda k: statistics.mean(c[min(k, len(c)) - 1] for _, c in results)
    mean = f"{statistics.mean(hits):.1f}" if hits else "inf"
    print(f"{strategy:8} {f'{len(hits)}/{len(results)}':>8} {mean:>7} {median:>7} "
          f"{median / fast:>9.3f} {at(fifth):>9.3f} {at(100):>9.3f} "
          f"{statistics.mean(c[-1] for _, c in results):>9.3f} {max(len(c) for _, c in results):>7}")

if confirmed:
    top = max(float(row["speedup"]) for row in confirmed)
    print(f"confirmed speedups (best of all runs {top:.2f}):")
    by = collections.defaultdict(list)
    for row in confirmed:
        by[row["strategy"]].append(float(row["speedup"]))
    for strategy, values in by.items():
        values.sort()
        median = statistics.median(values)
        print(f"{strategy:8} runs {len(values):>2}  lowest {values[0]:.2f} ({values[0] / top:.3f})  "
              f"median {median:.2f} ({median / top:.3f})  highest {values[-1]:.2f}")
