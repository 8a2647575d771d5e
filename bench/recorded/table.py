"""Prints the docs/benchmarks.md table from `routetune simulate --json` output.

Usage: routetune simulate CACHE --search ... --json | python3 bench/recorded/table.py FAST_BUILDS
FAST_BUILDS is fast's candidate count over the same space (baseline included). Columns: runs
that reached the target, mean builds over those runs, median builds over all runs (a miss
counts as infinite), median / fast's count, and the mean fraction of the best known speedup
after 20% of fast's builds (rounded up), after fast's builds, and after 100 builds.
"""
import json
import math
import sys

fast = int(sys.argv[1])
data = json.load(sys.stdin)
fifth = math.ceil(0.2 * fast)
print(f"{data['evaluations']} evaluations; best known speedup "
      f"{data['strategies'][0]['best_known_speedup']:.3f}; fast = {fast} builds; target "
      f"{data['target']}; budget {data['budget']}")
print(f"{'strategy':8} {'reached':>8} {'mean':>7} {'median':>7} {'med/fast':>9} "
      f"{'frac@' + str(fifth):>8} {'frac@' + str(fast):>8} {'frac@100':>9}")
for s in data["strategies"]:
    mean = s["mean_builds_to_target"]
    median = s["median_builds_to_target"]
    curve = s["curve"]
    print(f"{s['strategy']:8} {str(s['reached']) + '/' + str(s['runs']):>8} "
          f"{'inf' if mean is None else f'{mean:.1f}':>7} {'inf' if median is None else f'{median:.1f}':>7} "
          f"{'inf' if median is None else f'{median / fast:.2f}':>9} {curve[fifth - 1]:8.3f} "
          f"{curve[fast - 1]:8.3f} {curve[99]:9.3f}")
