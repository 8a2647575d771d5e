"""Collects live strategy runs (the stores bench/wide/run_live.sh leaves) into one CSV.

Usage: python3 bench/wide/collect.py OUTDIR CSV_GZ
Each row is one evaluation of one run, in the order the run finished them: strategy, seed,
order (1 = the baseline), phase, status, median_s (empty unless measured), route_hash and the
route. Beside it, CSV_GZ with `.csv.gz` replaced by `-outcomes.csv`: each run's outcome after
its confirmation (the winner re-measured against the default in interleaved rounds): strategy,
seed, outcome, speedup, its 95% interval, rounds, the winner. These are what
bench/wide/analyze.py reads and what the repository keeps (the stores themselves hold build
logs and are ten times larger).
"""
import csv
import gzip
import pathlib
import sqlite3
import sys

outdir, target = pathlib.Path(sys.argv[1]), sys.argv[2]
outcomes_path = target.replace(".csv.gz", "-outcomes.csv")
with gzip.open(target, "wt", newline="") as handle, open(outcomes_path, "w", newline="") as outcomes_handle:
    writer = csv.writer(handle)
    writer.writerow(["strategy", "seed", "order", "phase", "status", "median_s", "route_hash", "route"])
    outcomes = csv.writer(outcomes_handle)
    outcomes.writerow(["strategy", "seed", "outcome", "speedup", "ci_low", "ci_high", "rounds", "winner"])
    for store in sorted(outdir.glob("*.sqlite")):
        strategy, seed = store.stem.rsplit("-", 1)
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        rows = db.execute("SELECT phase, status, median_s, route_hash, route FROM evaluation ORDER BY id")
        for order, (phase, status, median, route_hash, route) in enumerate(rows, start=1):
            writer.writerow([strategy, seed, order, phase, status, "" if median is None else repr(median), route_hash, route])
        outcome = db.execute("SELECT outcome, speedup, speedup_ci_low, speedup_ci_high, winner_route FROM outcome").fetchone()
        rounds = db.execute("SELECT rounds FROM confirmation").fetchone()
        if outcome:
            outcomes.writerow([strategy, seed, outcome[0], f"{outcome[1]:.4f}", f"{outcome[2]:.4f}", f"{outcome[3]:.4f}",
                               rounds[0] if rounds else 0, outcome[4] or ""])
        db.close()
