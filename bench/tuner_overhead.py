#!/usr/bin/env python3
"""Tuner overhead per evaluation: everything routetune does besides building and running.

Runs bench/tuner_overhead/spec.toml (fake_timed_cc: a build writes a sh script, a run is a
few milliseconds of sh + awk; timing source "process", warm-up 0, repeats 1, no
confirmation) as fresh studies with `--jobs 1`, and splits each study's wall time W:

  child   = sum of build_s + sum of run samples of every evaluation, read from the store
            (each is the wall time of a child process as routetune measured it)
  fixed   = median wall time of `tune --dry-run` on the same spec (start-up, spec, catalog
            from its cache, expansion, printing the candidates)
  direct  = (W - fixed - child) / evaluations
  slope   = ((W64 - child64) - (W16 - child16)) / (N64 - N16), pairing the i-th study of the
            64-route search with the i-th of a 16-route search: fixed costs cancel.

Prints the median and the range (min..max) over the studies; for 5 studies the range is a
94% interval of the median. One extra study first fills the catalog cache and is discarded.

usage: bench/tuner_overhead.py [ROUTETUNE=build/routetune] [STUDIES=5]
"""
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "tuner_overhead", "spec.toml")
SMALL = "-O=[0|1|2|3] -funroll-loops=[on|off] -march=[x86-64|native]"


def timed(argv):
    start = time.monotonic()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def child_seconds(store):
    db = sqlite3.connect(store)
    rows = db.execute("SELECT build_s, samples FROM evaluation").fetchall()
    statuses = db.execute("SELECT status, count(*) FROM evaluation GROUP BY status").fetchall()
    db.close()
    child = sum((b or 0) + sum(float(x) for x in s.split()) for b, s in rows)
    return len(rows), child, dict(statuses)


def study(routetune, folder, tag, extra):
    store = os.path.join(folder, tag + ".sqlite")
    wall = timed([routetune, "tune", SPEC, "--cache", store, "--jobs", "1", "--json"] + extra)
    n, child, statuses = child_seconds(store)
    return wall, n, child, statuses


def summary(name, values, unit_scale, unit):
    v = sorted(x * unit_scale for x in values)
    print(f"  {name:<44} median {statistics.median(v):9.2f} {unit}  range {v[0]:.2f} .. {v[-1]:.2f} {unit}")


def main():
    routetune = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/routetune")
    studies = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory(prefix="routetune-overhead-") as folder:
        study(routetune, folder, "warm", [])
        fixed = statistics.median(
            timed([routetune, "tune", SPEC, "--cache", os.path.join(folder, "dry.sqlite"), "--dry-run"])
            for _ in range(studies))
        walls, direct, slope, child_share, per_eval_child = [], [], [], [], []
        for i in range(studies):
            w64, n64, c64, s64 = study(routetune, folder, f"big{i}", [])
            w16, n16, c16, s16 = study(routetune, folder, f"small{i}", ["--routes", SMALL])
            walls.append(w64)
            direct.append((w64 - fixed - c64) / n64)
            slope.append(((w64 - c64) - (w16 - c16)) / (n64 - n16))
            child_share.append(c64 / w64)
            per_eval_child.append(c64 / n64)
            print(f"study {i}: 64-route W {w64:.2f} s, {n64} evaluations {s64}, child {c64:.2f} s; "
                  f"16-route W {w16:.2f} s, {n16} evaluations, child {c16:.2f} s", flush=True)
    print(f"tuner overhead, {studies} studies of {SPEC}:")
    summary("fixed cost (tune --dry-run wall)", [fixed], 1e3, "ms")
    summary("64-route study wall time", walls, 1, "s ")
    summary("child time per evaluation (build + 2 runs)", per_eval_child, 1e3, "ms")
    summary("child share of the study wall time", child_share, 100, "% ")
    summary("overhead per evaluation, direct", direct, 1e3, "ms")
    summary("overhead per evaluation, slope 64 vs 16", slope, 1e3, "ms")


if __name__ == "__main__":
    main()
