#!/usr/bin/env python3
"""Writes the bzip2 workload's inputs into the folder given (same bytes on every machine):
text.txt, 3 MiB of log-like lines drawn with a fixed seed from the words of bzip2's own
sources, and mixed.bin, 1 MiB of runs, small integers and noise (what bzip2's run-length
and Huffman stages see in binary files). Files already there with the right size are kept."""
import os, random, re, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")
words = sorted(set(re.findall(r"[A-Za-z_][A-Za-z0-9_]{2,}", open(os.path.join(src, "bzlib.c")).read())))


def write(name, size, make):
    path = os.path.join(out, name)
    if os.path.exists(path) and os.path.getsize(path) == size:
        return
    data = make(random.Random(name))[:size]
    with open(path, "wb") as f:
        f.write(data)


def text(rng):
    lines, total = [], 0
    while total < 3 << 20:
        line = "%05d %s: %s\n" % (rng.randrange(100000), rng.choice(("INFO", "WARN", "DEBUG")),
                                  " ".join(rng.choice(words) for _ in range(rng.randrange(3, 14))))
        lines.append(line)
        total += len(line)
    return "".join(lines).encode()


def mixed(rng):
    parts, total = [], 0
    while total < 1 << 20:
        kind = rng.randrange(3)
        n = rng.randrange(16, 4096)
        if kind == 0: part = bytes([rng.randrange(256)]) * n
        elif kind == 1: part = bytes(rng.randrange(8) for _ in range(n))
        else: part = rng.randbytes(n)
        parts.append(part)
        total += n
    return b"".join(parts)


write("text.txt", 3 << 20, text)
write("mixed.bin", 1 << 20, mixed)
