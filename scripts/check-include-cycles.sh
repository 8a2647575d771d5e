#!/usr/bin/env bash
# Checks that no two compiled files of one folder under src/ depend on each other (issue 29,
# docs/architecture.md): a file's unit is its .cpp with its .hpp, and unit A depends on unit B
# of the same folder when A's .cpp or .hpp includes B's .hpp. A cycle of such units (evaluator
# includes default_checker, default_checker includes evaluator) means neither can be read,
# tested or replaced alone. Header-only units are left out: a pimpl's `*_impl.hpp` includes its
# class's header by design and compiles nowhere on its own. Prints each cycle and exits 1.
# usage: scripts/check-include-cycles.sh [SOURCE_DIR]   (default: the checkout holding this script)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
python3 - <<'PY'
import collections, os, re, sys

includes = collections.defaultdict(set)
compiled = set()
for folder, _, files in os.walk("src"):
    for name in files:
        if not name.endswith((".cpp", ".hpp")):
            continue
        path = os.path.join(folder, name)
        unit = os.path.relpath(path, "src").rsplit(".", 1)[0]
        if name.endswith(".cpp"):
            compiled.add(unit)
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                found = re.match(r'\s*#include "([^"]+)\.hpp"', line)
                if found:
                    includes[unit].add(found.group(1))

graph = {unit: sorted(dep for dep in includes.get(unit, ()) if dep in compiled and dep != unit
                      and os.path.dirname(dep) == os.path.dirname(unit)) for unit in sorted(compiled)}
index, low, stack, on_stack, cycles = {}, {}, [], set(), []


def visit(unit):
    index[unit] = low[unit] = len(index)
    stack.append(unit)
    on_stack.add(unit)
    for dep in graph[unit]:
        if dep not in index:
            visit(dep)
            low[unit] = min(low[unit], low[dep])
        elif dep in on_stack:
            low[unit] = min(low[unit], index[dep])
    if low[unit] == index[unit]:
        component = []
        while True:
            member = stack.pop()
            on_stack.discard(member)
            component.append(member)
            if member == unit:
                break
        if len(component) > 1:
            cycles.append(sorted(component))


sys.setrecursionlimit(100000)
for unit in graph:
    if unit not in index:
        visit(unit)
for cycle in sorted(cycles):
    print("src/%s: %s" % (os.path.dirname(cycle[0]), " <-> ".join(os.path.basename(u) for u in cycle)))
if cycles:
    print("check-include-cycles: %d cycle(s) of files within a folder (move what both need into a file of its own)"
          % len(cycles))
    sys.exit(1)
print("check-include-cycles: no two files of a folder include each other")
PY
