"""Builds each live run needed to reach a fraction of the best known speedup.

Usage: python3 bench/wide/analyze.py CSV_GZ FAST_BUILDS [TARGET] [own|pooled]
Speedups are against the run's own default (`own`, the default: what the study itself reports,
and a slow drift of the machine between runs cancels out) or against one pooled default, the
median of every run's baseline median (`pooled`). The best known speedup is the largest
speedup of any Ok evaluation of any run. A run reaches
the target at the first build whose best-so-far speedup is at least TARGET (default 0.95)
times the best known. Columns as in bench/recorded/table.py: runs that reached it, mean builds
over those, median builds over all runs (a miss counts as infinite), median / FAST_BUILDS,
and the mean fraction of the best known after 20% of FAST_BUILDS (rounded up), after 100
builds and at the end of the run.
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
    base = pooled if reference == "pooled" or rows[0]["status"] != "ok" else float(rows[0]["median_s"])
    return base / float(row["median_s"])


best = max(speedup(row, rows) for rows in runs.values() for row in rows)
fifth = math.ceil(0.2 * fast)
against = "against each run's own default" if reference == "own" else "against the pooled default"
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
