#!/usr/bin/env python3
"""Writes the zstd workload's inputs into the folder given (same bytes on every machine):
source.txt, the C sources and headers of zstd's own lib/ and programs/ concatenated in
sorted path order (about 3.3 MiB of real text), and table.csv, 4 MiB of sensor-log rows
(increasing timestamps, a few device names, readings with two decimals, status words) drawn
with a fixed seed: the repetitive, column-structured data zstd is often used on. Files
already there with the right size are kept."""
import os, random, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")


def write(name, data):
    path = os.path.join(out, name)
    if os.path.exists(path) and os.path.getsize(path) == len(data):
        return
    with open(path, "wb") as f:
        f.write(data)


def sources():
    paths = []
    for folder in ("lib", "programs"):
        for root, _, files in os.walk(os.path.join(src, folder)):
            paths += [os.path.join(root, f) for f in files if f.endswith((".c", ".h"))]
    return b"".join(open(p, "rb").read() for p in sorted(paths))


def table(rng, size=4 << 20):
    devices = ["pump-%02d" % i for i in range(12)] + ["valve-%02d" % i for i in range(7)]
    rows, total, stamp = ["time,device,temperature,pressure,flow,status\n"], 0, 1700000000000
    while total < size:
        stamp += rng.randrange(1, 2000)
        row = "%d,%s,%.2f,%.2f,%d,%s\n" % (stamp, rng.choice(devices), rng.gauss(61.5, 4.0),
                                          rng.uniform(0.9, 1.4), rng.randrange(0, 4000),
                                          rng.choices(("ok", "warn", "fault"), (95, 4, 1))[0])
        rows.append(row)
        total += len(row)
    return "".join(rows).encode()[:size]


write("source.txt", sources())
write("table.csv", table(random.Random("table.csv")))
