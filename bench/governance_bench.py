#!/usr/bin/env python3
"""What governance costs, on examples/governance with the real GCC.

Tunes a scratch copy of the example, promotes the winner (reporting the builds and runs that
promotion made, from `promote --json`, and its wall time), then times `routetune verify LOCK`
and `routetune flags LOCK` as a CI step pays for them: the whole process, REPEATS times each.
With --long-line-mb N it also times `verify` when the audit log's last line is N MB long (the
log restored before each run, so every run appends after that line: finding the log's tail).
Prints the median with a 95% confidence interval of the median (order statistics).

usage: bench/governance_bench.py BUILD/routetune [--repeats 31] [--promotions 3] [--long-line-mb 4]
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
    args = parser.parse_args()
    routetune = str(Path(args.routetune).resolve())
    source = Path(__file__).resolve().parent.parent / "examples" / "governance"
    work = Path(tempfile.mkdtemp(prefix="routetune-governance-bench-")) / "governance"
    shutil.copytree(source, work)
    tuned = subprocess.run([routetune, "tune", "spec.toml", "--json"], cwd=work, capture_output=True, text=True)
    assert tuned.returncode == 0, tuned.stderr
    store = ".routetune/governance.sqlite"
    promote_s, costs = [], set()
    for _ in range(args.promotions):
        seconds, done = timed([routetune, "promote", store, "--lock", "routetune.lock.json", "--json"], work)
        assert done.returncode == 0, done.stdout + done.stderr
        result = json.loads(done.stdout)
        promote_s.append(seconds)
        costs.add((result["builds"], result["runs"]))
    verify_s, flags_s = [], []
    for _ in range(args.repeats):
        seconds, done = timed([routetune, "verify", "routetune.lock.json"], work)
        assert done.returncode == 0, done.stdout + done.stderr
        verify_s.append(seconds)
        seconds, done = timed([routetune, "flags", "routetune.lock.json"], work)
        assert done.returncode == 0, done.stderr
        flags_s.append(seconds)
    long_s = []
    if args.long_line_mb:
        log = work / "routetune.lock.json.audit.jsonl"
        with_long_line = log.read_bytes() + b"x" * (args.long_line_mb << 20) + b"\n"
        for _ in range(args.long_line_repeats):
            log.write_bytes(with_long_line)
            seconds, done = timed([routetune, "verify", "routetune.lock.json"], work)
            assert done.returncode == 0, done.stdout + done.stderr
            long_s.append(seconds)
    results = [("verify", verify_s), ("flags", flags_s), ("promote", promote_s)]
    if long_s:
        results.append((f"verify after a {args.long_line_mb} MB audit line", long_s))
    for name, samples in results:
        mid, low, high = median_ci(samples)
        print(f"{name}: median {mid * 1e3:.1f} ms, 95% CI [{low * 1e3:.1f}, {high * 1e3:.1f}] ms over {len(samples)} runs")
    print("promote cost (builds, runs):", sorted(costs))
    shutil.rmtree(work.parent)


if __name__ == "__main__":
    main()
