"""How many measurements one answer per artifact saves on recorded studies (docs/benchmarks.md).

Usage: python3 bench/same_as_savings.py STORE.sqlite...

For each study store: the evaluations whose artifact was run (ok, inaccurate, run_failed,
run_crashed, run_timeout, with an artifact sha256), how many distinct artifacts they ran, and
so how many measurements a study with same_as would not have made (every evaluation of an
artifact after its first), how many of those are the default's binary, and the timed repeats
and timed seconds (the recorded samples, warm-ups not included) those measurements spent.
Artifacts are grouped by sha256 alone: for GCC and Clang routes that is the run identity (their
routes add no environment or files); for Inductor routes, which travel as environment values,
equal hashes would still be different runs, so a count by hash is an upper bound (0 here).
"""
import collections
import sqlite3
import sys

MEASURED = ("ok", "inaccurate", "run_failed", "run_crashed", "run_timeout")


def samples(text):
    return [float(x) for x in text.split()] if text else []


def savings(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT id, route, artifact_sha256, status FROM evaluation WHERE status <> 'pending' ORDER BY id").fetchall()
    cases = collections.defaultdict(list)
    for evaluation_id, text in db.execute("SELECT evaluation_id, samples FROM case_result"):
        cases[evaluation_id].append(samples(text))
    measured = [r for r in rows if r[2] and r[3] in MEASURED]
    default_sha = next((r[2] for r in rows if r[1] == ""), None)
    seen = set()
    saved = saved_default = repeats = 0
    seconds = 0.0
    for evaluation_id, route, sha, _ in measured:
        if sha not in seen:
            seen.add(sha)
            continue
        saved += 1
        saved_default += sha == default_sha
        repeats += sum(len(s) for s in cases[evaluation_id])
        seconds += sum(sum(s) for s in cases[evaluation_id])
    return len(rows), len(measured), len(seen), saved, saved_default, repeats, seconds


def main():
    print("| store | evaluations | artifacts run | distinct artifacts | measurements saved | of them the default's binary | timed repeats saved | timed seconds saved |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for path in sys.argv[1:]:
        total, measured, distinct, saved, default, repeats, seconds = savings(path)
        share = f" ({100 * saved / measured:.0f}%)" if measured else ""
        print(f"| `{path}` | {total} | {measured} | {distinct} | {saved}{share} | {default} | {repeats} | {seconds:.2f} |")


if __name__ == "__main__":
    main()
