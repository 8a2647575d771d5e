#!/usr/bin/env python3
"""Summarises one real-program study from its `tune --json` summary (bench/real/<name>/
summary.json): evaluations by status, each failure with its route size and the first line
of its message, build times, the default's search-phase time, the best search median, and
the confirmation (each confirmed route against the default, interleaved rounds), then the
outcome.

Usage: python3 bench/real/summarize.py bench/real/sqlite/summary.json
"""
import collections
import json
import statistics
import sys

summary = json.load(open(sys.argv[1]))
evaluations = summary["evaluations"]
counts = collections.Counter(e["status"] for e in evaluations)
print(f"study {summary['study']}: {len(evaluations)} evaluations; " +
      ", ".join(f"{status} {n}" for status, n in counts.most_common()) + f"; wall {summary['wall_s']:.0f} s")
builds = [e["build_s"] for e in evaluations if e.get("build_s") is not None]
print(f"build time: mean {statistics.mean(builds):.1f} s, median {statistics.median(builds):.1f} s, "
      f"max {max(builds):.1f} s, {sum(builds):.0f} s in all")
for e in evaluations:
    if e["status"] not in ("ok", "inaccurate"):
        changes = e["route"].count("=")
        print(f"  {e['status']:14} {changes:2} changes  {e['message'].splitlines()[0][:150] if e['message'] else ''}")
ok = [e for e in evaluations if e["status"] == "ok" and e["time"] is not None]
default = summary["default"]
print(f"default (search phase): {default['time']:.4f} s [{default['time_ci95'][0]:.4f}, {default['time_ci95'][1]:.4f}]")
best = min(ok, key=lambda e: e["time"])
print(f"best search median: {best['time']:.4f} s ({default['time'] / best['time']:.3f}x of the search-phase default), "
      f"{best['route'].count('=')} changes: {best['route'][:160]}")
for c in summary["confirmations"]:
    print(f"confirmed: {c['speedup']:.3f}x [{c['speedup_ci95'][0]:.3f}, {c['speedup_ci95'][1]:.3f}]  "
          f"route {c['time']:.4f} s, default {c['default_time']:.4f} s  ({c['route'].count('=')} changes: {c['route'][:100]})")
winner = summary["winner"]
print(f"outcome: {summary['outcome']}" + (f", {winner['speedup']:.3f}x [{winner['speedup_ci95'][0]:.3f}, "
                                          f"{winner['speedup_ci95'][1]:.3f}]: {winner['route']}" if winner else ""))
if summary.get("minimal"):
    m = summary["minimal"]
    print(f"minimal: {m['speedup']:.3f}x [{m['speedup_ci95'][0]:.3f}, {m['speedup_ci95'][1]:.3f}], {m['changes']} changes: {m['route']}")
