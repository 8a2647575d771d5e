#!/usr/bin/env python3
"""What governance costs, on examples/governance with the real GCC.

Tunes a scratch copy of the example, promotes the winner (reporting the builds and runs that
promotion made, from `promote --json`, and its wall time), then times `routetune verify LOCK`
and `routetune flags LOCK` as a CI step pays for them: the whole process, REPEATS times each.
With --long-line-mb N it also times `verify` when the audit log's last line is N MB long (the
log restored before each run, so every run appends after that line: finding the log's tail).
With --baseline OTHER/routetune, OTHER promotes its own lock from the same study and each
verify, flags and long-line run of routetune is followed by the same run of OTHER, so both see
the same load; the ratio of the medians is printed too.
Prints the median with a 95% confidence interval of the median (order statistics).

usage: bench/governance_bench.py BUILD/routetune [--repeats 31] [--promotions 3] [--long-line-mb 4]
                                 [--baseline OTHER/routetune]
"""
import argparse
import json
import math
import shutil
import subprocess
import tempfile
import time
from pathlib import Path


def median_ci(samples):
    """Median and the 95% interval from the order statistics around it."""
    s = sorted(samples)
    n = len(s)
    half = 1.96 * math.sqrt(n) / 2
    low = max(0, int(math.floor(n / 2 - half)))
    high = min(n - 1, int(math.ceil(n / 2 + half)) - 1)
    mid = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    return mid, s[low], s[high]


def timed(argv, cwd):
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    return time.perf_counter() - start, done


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("routetune")
    parser.add_argument("--repeats", type=int, default=31)
    parser.add_argument("--promotions", type=int, default=3)
    parser.add_argument("--long-line-mb", type=int, default=0)
    parser.add_argument("--long-line-repeats", type=int, default=11)
    parser.add_argument("--baseline")
    args = parser.parse_args()
    binaries = [str(Path(args.routetune).resolve())]
    if args.baseline:
        binaries.append(str(Path(args.baseline).resolve()))
    routetune = binaries[0]
    source = Path(__file__).resolve().parent.parent / "examples" / "governance"
    work = Path(tempfile.mkdtemp(prefix="routetune-governance-bench-")) / "governance"
    shutil.copytree(source, work)
    tuned = subprocess.run([routetune, "tune", "spec.toml", "--json"], cwd=work, capture_output=True, text=True)
    assert tuned.returncode == 0, tuned.stderr
    store = ".routetune/governance.sqlite"
    works = [work]
    if args.baseline:
        works.append(work.parent / "baseline")
        shutil.copytree(work, works[1])
    promote_s, costs = [], set()
    for _ in range(args.promotions):
        seconds, done = timed([routetune, "promote", store, "--lock", "routetune.lock.json", "--json"], work)
        assert done.returncode == 0, done.stdout + done.stderr
        result = json.loads(done.stdout)
        promote_s.append(seconds)
        costs.add((result["builds"], result["runs"]))
    if args.baseline:
        done = subprocess.run([binaries[1], "promote", store, "--lock", "routetune.lock.json"], cwd=works[1],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    samples = {}

    def run_each(name, argv, prepare=None):
        for binary, folder in zip(binaries, works):
            if prepare:
                prepare(folder)
            seconds, done = timed([binary] + argv, folder)
            assert done.returncode == 0, done.stdout + done.stderr
            samples.setdefault((name, binary), []).append(seconds)

    for _ in range(args.repeats):
        run_each("verify", ["verify", "routetune.lock.json"])
        run_each("flags", ["flags", "routetune.lock.json"])
    names = ["verify", "flags"]
    if args.long_line_mb:
        name = f"verify after a {args.long_line_mb} MB audit line"
        names.append(name)
        long_line = {}
        for folder in works:
            log = folder / "routetune.lock.json.audit.jsonl"
            long_line[folder] = log.read_bytes() + b"x" * (args.long_line_mb << 20) + b"\n"

        def restore(folder):
            (folder / "routetune.lock.json.audit.jsonl").write_bytes(long_line[folder])

        for _ in range(args.long_line_repeats):
            run_each(name, ["verify", "routetune.lock.json"], restore)
    samples[("promote", routetune)] = promote_s
    names.append("promote")
    for name in names:
        for binary in binaries:
            if (name, binary) not in samples:
                continue
            mid, low, high = median_ci(samples[(name, binary)])
            label = "" if binary == routetune else " (baseline)"
            print(f"{name}{label}: median {mid * 1e3:.1f} ms, 95% CI [{low * 1e3:.1f}, {high * 1e3:.1f}] ms "
                  f"over {len(samples[(name, binary)])} runs")
        if args.baseline and (name, binaries[1]) in samples:
            ratio = median_ci(samples[(name, routetune)])[0] / median_ci(samples[(name, binaries[1])])[0]
            print(f"{name}: routetune / baseline = {ratio:.2f}")
    print("promote cost (builds, runs):", sorted(costs))
    shutil.rmtree(work.parent)

if __name__ == "__main__":
    main()
