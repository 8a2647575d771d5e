#!/usr/bin/env python3
"""One Markdown table row per `tune --json` summary (with its .wall file beside it, written by
bench/example_studies.sh): default time, winner, confirmed speedup and 95% interval,
evaluations, counts by status, study wall time.
usage: bench/summarize_studies.py RESULTS/*.json"""
import json
import os
import sys


def ms(seconds):
    return "—" if seconds is None else f"{seconds * 1e3:.1f} ms"


print("| study | default time | winner | speedup [95% CI] | evaluated | ok / failed / inaccurate | wall |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for path in sys.argv[1:]:
    if os.path.getsize(path) == 0:
        continue
    with open(path) as f:
        s = json.load(f)
    wall_path = path[:-len(".json")] + ".wall"
    wall = open(wall_path).read().strip() + " s" if os.path.exists(wall_path) else "?"
    d = s.get("default") or {}
    w = s.get("winner")
    if w:
        lo, hi = w["speedup_ci95"]
        winner = f"`{w['route']}`"
        speedup = f"{w['speedup']:.3f}× [{lo:.3f}, {hi:.3f}]"
    else:
        winner, speedup = s["outcome"], "—"
    c = dict(s["counts"])
    total = c.pop("total")
    ok = c.pop("ok", 0)
    inaccurate = c.pop("inaccurate", 0)
    failed = sum(c.values())
    name = os.path.basename(path)[:-len(".json")]
    print(f"| {name} | {ms(d.get('time'))} | {winner} | {speedup} | {total} | {ok} / {failed} / {inaccurate} | {wall} |")
