#!/usr/bin/env python3
"""Which failed routes of recorded studies the host-ISA filter would have left out.

Usage: host_isa_replay.py CATALOG.json SUMMARY.json...
CATALOG.json is `routetune knobs --base -O2 --json` on the machine the studies ran on (its
knobs carry "left_out"); each SUMMARY.json is a study summary (`tune --json`, `report
--format json`). A route counts as left out when one of its knob=value changes is one that
`~` now leaves out. Prints one line per study: evaluations, failed, "Illegal instruction"
run failures, and how many of each hold a left-out value.
"""
import json
import sys


def left_out_values(catalog_path):
    catalog = json.load(open(catalog_path))
    return {(k["name"], e["value"]) for k in catalog["knobs"] for e in k.get("left_out", [])}


def changes(route):
    for token in route.split():
        name, _, value = token.partition("=")
        yield name, value


def main():
    left_out = left_out_values(sys.argv[1])
    print("study | evaluations | failed | of them left out | illegal instruction | of them left out | ok routes left out")
    for path in sys.argv[2:]:
        summary = json.load(open(path))
        evaluations = summary["evaluations"]
        failed = [e for e in evaluations if e["status"] != "ok" and e["status"] != "inaccurate"]
        sigill = [e for e in failed if "Illegal instruction" in (e.get("message") or "")]
        hit = lambda e: any(change in left_out for change in changes(e["route"]))
        ok_hit = [e for e in evaluations if e["status"] == "ok" and hit(e)]
        print(f"{summary['study']} | {len(evaluations)} | {len(failed)} | {sum(map(hit, failed))} | "
              f"{len(sigill)} | {sum(map(hit, sigill))} | {len(ok_hit)}")
        for e in sigill:
            if not hit(e):
                print("   not left out:", e["route"][:160], "|", (e.get("message") or "")[:80])


if __name__ == "__main__":
    main()
