#!/usr/bin/env python3
"""What each measurement of a warm GPU study cost against issue 26's target (a measurement costs
at most twice its timed GPU work plus one second), from a `tune --json` summary and its SQLite
store: per evaluation, its own first request in the warm process (`run_first_s`) and its later
ones (`run_repeat_s`), the ratio request / (2 x CALLS x median + 1 s), and whether it misses;
then the reasons the warm process gave for running a build as it did (`code_identities[].why`,
each once). scripts/gpu-issue26.sh runs it after each warm study; it gives the figures of
docs/benchmarks.md's cost table of 2026-12-06 12:50 UTC (read from the stores by hand first).
usage: bench/measurement_cost.py SUMMARY.json STORE.sqlite [--calls N]   (N: timed calls a run, 50)"""
import argparse
import json
import sys


def target_ratio(request_s, gpu_s):
    """request_s as a share of issue 26's target for a measurement whose timed GPU work is gpu_s:
    twice that work plus one second (at most 1 meets it). bench/warm_measure_bench.py uses it too."""
    return request_s / (2 * gpu_s + 1.0)


def ratio(request_s, median_s, calls):
    """target_ratio of a request that timed calls calls of median_s each."""
    return target_ratio(request_s, calls * median_s)


def cost_rows(store, calls):
    """One row per measured evaluation of the store, in the order they were made: (phase, route,
    median_s, run_first_s, run_repeat_s, first ratio, repeat ratio); an evaluation with no median
    or no recorded request cost (a forked study's) is left out."""
    import sqlite3  # here, so that warm_measure_bench's import of target_ratio needs no sqlite3

    connection = sqlite3.connect("file:%s?mode=ro" % store, uri=True)
    try:
        found = connection.execute(
            "SELECT phase, route, median_s, run_first_s, run_repeat_s FROM evaluation "
            "WHERE status = 'ok' AND median_s > 0 AND run_first_s > 0 ORDER BY id").fetchall()
    finally:
        connection.close()
    return [(phase, route, median, first, repeat, ratio(first, median, calls), ratio(repeat, median, calls))
            for phase, route, median, first, repeat in found]


def reasons(summary):
    """Each reason the summary's code_identities give, once, in their order, with the routes whose
    builds gave it (each once): [(reason, [route, ...]), ...]."""
    grouped = {}
    for identity in summary.get("code_identities", []):
        for why in identity.get("why", []):
            routes = grouped.setdefault(why, [])
            if identity["route"] not in routes:
                routes.append(identity["route"])
    return list(grouped.items())


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("summary")
    parser.add_argument("store")
    parser.add_argument("--calls", type=int, default=50)
    args = parser.parse_args(argv)
    with open(args.summary, encoding="utf-8") as handle:
        summary = json.load(handle)
    rows = cost_rows(args.store, args.calls)
    print("| phase | route | median | first request | later requests | ratio (first, later) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for phase, route, median, first, repeat, first_ratio, repeat_ratio in rows:
        print("| %s | `%s` | %.3f ms | %.3f s | %.3f s | %.2f, %.2f%s |" % (
            phase, route or "(default)", median * 1e3, first, repeat, first_ratio, repeat_ratio,
            " **miss**" if max(first_ratio, repeat_ratio) > 1 else ""))
    misses = sum(1 for row in rows if max(row[5], row[6]) > 1)
    print("\n%d of %d measured evaluations within the target; %d miss it" % (len(rows) - misses, len(rows), misses))
    for why, routes in reasons(summary):
        print("why (%s): %s" % (", ".join("`%s`" % (route or "(default)") for route in routes), why))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
