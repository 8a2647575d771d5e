#!/usr/bin/env python3
"""Scheduler overhead (issue 13, point 6): 16 one-second builds with instant reported measurements
at --jobs 2, side by side with the ideal: the same 16 builds run 2 at a time by xargs -P 2.

The compiler is tests/fakes/fake_timed_cc behind a wrapper that logs each build's start and
end (epoch seconds); the build sleeps 1 s, the program it writes reports a fixed time at once
(no sleep). The study is tests/fixtures/specs/fake_scheduler.toml with timing source
"reported", confirm_rounds 1, in fast mode, in several shapes (SHAPES, default all of them):
  one-faster  --routes -param:max-unroll-times=[1..16], confirm_top 1: the default and 15
              candidates (one of the 16 values is GCC's default), one of them 5% faster
  tie-top1    --routes "-O=3 -param:max-unroll-times=[1..15]", confirm_top 1: the default and
              15 candidates that all report the same time (-O3's 80 ms): a 15-way exact tie
  tie-top3    the same with confirm_top 3
In every shape the study has 16 builds when the confirmation reuses the artifacts it needs; a
17th build (the column "builds") is a confirmation rebuild of an artifact the keeper dropped. Each repetition runs the ideal, then the study
(each study with a fresh store and catalog cache), and reports the study's wall time from
process start to exit, measured here, split into:
  start-up  process start -> first build start (spec, catalog discovery, store creation)
  idle      build-slot time with no build running, between the first build's start and the
            last build's end, over 2 slots (the default's measurement, scheduling gaps)
  tail      last build's end -> exit (last measurement, confirmation, outcome, summary)
  builds    the builds' own time over 2 slots (Σ build durations / 2; 8 s if they took 1 s)
so wall = start-up + idle + builds + tail. Output: one line per repetition, then medians and
ranges; ratio = study wall / ideal wall (same repetition) and study wall / 8 s.

Usage: bench/scheduler_bench.sh overhead [ROUTETUNE [OTHER]] (REPEATS, default 5; SHAPES, default
"one-faster tie-top1 tie-top3"; FAKE_TIMED_CC, default
tests/fakes/fake_timed_cc, the fake compiler, e.g. an older one to compare). With OTHER
(e.g. the binary before a change), each repetition also runs the study with it, right after
ROUTETUNE's, so both see the same load; its rows and medians follow, marked "other".
"""
import json, os, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
routetune = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(root, "build", "routetune")
other = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None  # a second binary, e.g. before a change
repeats = int(os.environ.get("REPEATS", "5"))
slots, builds, build_s = 2, 16, 1.0
work = tempfile.mkdtemp(prefix="scheduler_overhead.")
fixtures = os.path.join(root, "tests", "fixtures", "specs")
for name in ("tiny.c", "fake_input_1.txt"):
    subprocess.run(["cp", os.path.join(fixtures, name), work], check=True)
fake = os.path.abspath(os.environ.get("FAKE_TIMED_CC", os.path.join(root, "tests", "fakes", "fake_timed_cc")))
wrapper = os.path.join(work, "timed_cc")
with open(wrapper, "w") as f:
    f.write(f"""#!/bin/sh
case " $* " in
*" -o "*tiny.c*|*tiny.c*" -o "*) s=$(date +%s.%N); "{fake}" "$@"; rc=$?
    echo "$s $(date +%s.%N)" >> "$BUILD_LOG"; exit $rc ;;
esac
exec "{fake}" "$@"
""")
os.chmod(wrapper, 0o755)
spec = open(os.path.join(fixtures, "fake_scheduler.toml")).read().splitlines()
shapes = {"one-faster": ("-param:max-unroll-times=[1..16]", 1), "tie-top1": ("-O=3 -param:max-unroll-times=[1..15]", 1),
          "tie-top3": ("-O=3 -param:max-unroll-times=[1..15]", 3)}
chosen = os.environ.get("SHAPES", " ".join(shapes)).split()
for name in chosen:
    replace = {"path": f'path = "{wrapper}"', "source": 'source = "reported"', "FAKE_BUILD_SLEEP_S": 'FAKE_BUILD_SLEEP_S = "1"',
               "FAKE_RUN_SLEEP_S": 'FAKE_RUN_SLEEP_S = "0"',
               "min_gain": f"min_gain = 0.02\nconfirm_rounds = 1\nconfirm_top = {shapes[name][1]}"}
    with open(os.path.join(work, f"spec_{name}.toml"), "w") as f:
        for line in spec:
            key = line.split("=")[0].strip()
            f.write(replace.get(key, line) + "\n")
env = dict(os.environ, FAKE_BUILD_SLEEP_S="1", FAKE_RUN_SLEEP_S="0", FAKE_JITTER="0",
           XDG_CACHE_HOME=os.path.join(work, "catalogs"))


def build_log(path):
    return sorted(tuple(map(float, line.split())) for line in open(path))


def ideal(rep):
    log = os.path.join(work, f"ideal_{rep}.log")
    start = time.time()
    subprocess.run(["xargs", "-P", str(slots), "-I{}", wrapper, "-O2", os.path.join(work, "tiny.c"), "-o",
                    os.path.join(work, f"ideal_{rep}_{{}}")], input="".join(f"{i}\n" for i in range(builds)),
                   text=True, check=True, env=dict(env, BUILD_LOG=log))
    return time.time() - start


def study(rep, binary, name, shape):
    log = os.path.join(work, f"{shape}_{name}_{rep}.log")
    store = os.path.join(work, f"{shape}_{name}_{rep}", "s.sqlite")
    os.makedirs(os.path.dirname(store))
    start = time.time()
    out = subprocess.run([binary, "tune", os.path.join(work, f"spec_{shape}.toml"), "--routes", shapes[shape][0],
                          "--search", "fast", "--jobs", str(slots), "--cache", store, "--json"],
                         capture_output=True, text=True, env=dict(env, BUILD_LOG=log))
    end = time.time()
    if out.returncode != 0:
        sys.exit(f"tune failed:\n{out.stderr[-3000:]}")
    summary = json.loads(out.stdout)
    spans = build_log(log)
    if len(spans) < builds:
        sys.exit(f"expected {builds} builds or more, the log has {len(spans)}")
    first, last = spans[0][0], max(e for _, e in spans)
    own = sum(e - s for s, e in spans)
    row = {"wall": end - start, "startup": first - start, "tail": end - last, "builds": own / slots,
           "idle": (slots * (last - first) - own) / slots, "outcome": summary.get("outcome"), "count": len(spans)}
    return row


start = time.time()  # the catalog cache is filled once (as after a user's first study), and timed
subprocess.run([routetune, "tune", os.path.join(work, f"spec_{chosen[0]}.toml"), "--routes", shapes[chosen[0]][0],
                "--dry-run", "--cache", os.path.join(work, "dry.sqlite")], check=True, capture_output=True, env=env)
cold = time.time() - start
print(f"work: {work}; {builds} builds of {build_s:g} s at --jobs {slots}; machine load "
      + open("/proc/loadavg").read().split()[0] + "; cold catalog discovery (tune --dry-run, once): %.2f s" % cold)
print("%-10s %3s %8s %8s %7s %8s %6s %7s %8s %7s %7s" % ("shape", "rep", "ideal_s", "study_s", "ratio", "vs_8s", "builds", "start",
                                                       "idle", "builds_s", "tail"), flush=True)
def show(shape, rep, r, mark):
    print("%-10s %3d %8.3f %8.3f %7.3f %8.3f %6d %7.3f %8.3f %7.3f %7.3f %s" % (
        shape, rep, r["ideal"], r["wall"], r["wall"] / r["ideal"], r["wall"] / 8, r["count"], r["startup"], r["idle"],
        r["builds"], r["tail"], mark), flush=True)


rows = {shape: [] for shape in chosen}
others = {shape: [] for shape in chosen}
for rep in range(repeats):
    i = ideal(rep)
    for shape in chosen:
        for binary, name, into in ((routetune, "study", rows), (other, "other", others)):
            if binary is None: continue
            r = study(rep, binary, name, shape)
            r["ideal"] = i
            into[shape].append(r)
            show(shape, rep, r, "" if into is rows else "other")


def stat(rows, key, f=lambda r, k: r[k]):
    v = [f(r, key) for r in rows]
    return "%.3f [%.3f, %.3f]" % (statistics.median(v), min(v), max(v))


print("median [min, max] over %d repetitions; load after: %s" % (repeats, open("/proc/loadavg").read().split()[0]))
for shape in chosen:
    print("%s:\n  %-16s %-26s %s" % (shape, "", routetune, other or ""))
    for label, key, f in (("ideal wall", "ideal", None), ("study wall", "wall", None),
                          ("study / ideal", "r", lambda r, k: r["wall"] / r["ideal"]), ("study / 8 s", "r", lambda r, k: r["wall"] / 8),
                          ("builds", "count", None), ("start-up", "startup", None), ("idle", "idle", None), ("tail", "tail", None)):
        cells = [stat(rs[shape], key, f or (lambda r, k: r[k])) for rs in (rows, others) if rs[shape]]
        print("  %-16s %-26s %s" % (label, cells[0], cells[1] if len(cells) > 1 else ""))
