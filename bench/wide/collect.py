"""Collects live strategy runs (the stores bench/wide/run_live.sh leaves) into one CSV.

Usage: python3 bench/wide/collect.py OUTDIR CSV_GZ
Each row is one evaluation of one run, in the order the run finished them: strategy, seed,
order (1 = the baseline), phase, status, median_s (empty unless measured), route_hash and the
route. The CSV is what bench/wide/analyze.py reads and what the repository keeps (the stores
themselves hold build logs and are ten times larger).
"""
import csv
import gzip
import pathlib
import sqlite3
import sys

outdir, target = pathlib.Path(sys.argv[1]), sys.argv[2]
with gzip.open(target, "wt", newline="") as handle:
    writer = csv.writer(handle)
    writer.writerow(["strategy", "seed", "order", "phase", "status", "median_s", "route_hash", "route"])
    for store in sorted(outdir.glob("*.sqlite")):
        strategy, seed = store.stem.rsplit("-", 1)
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        rows = db.execute("SELECT phase, status, median_s, route_hash, route FROM evaluation ORDER BY id")
        for order, (phase, status, median, route_hash, route) in enumerate(rows, start=1):
            writer.writerow([strategy, seed, order, phase, status, "" if median is None else repr(median), route_hash, route])
        db.close()
