#!/bin/sh
# Scheduler benchmark: how close does a study's wall time come to what its builds and
# measurements allow? A fake compiler (tests/fakes/fake_timed_cc) sleeps BUILD_S per build and
# its fake programs sleep RUN_S per run, so the work is known. For each timing source and
# each --jobs value the study runs REPEATS times; the script counts the builds (FAKE_CC_LOG)
# and the runs (the artifacts' run counters, kept with --keep-artifacts) that really happened,
# and prints the limit
#   process timing (builds never overlap a measurement): B / jobs + M
#   reported timing (they may overlap):                  max(B / jobs, M)
# where B is the sum of build times and M the sum of run times, once with the nominal sleeps
# and once calibrated: B from the build times the study recorded, M from runs x the cost of
# one fake run measured just before, 20 runs one at a time (the fake program spawns sh, sleep
# and awk, which costs far more than nothing on a loaded machine). Output: one line per
# (timing, jobs) with the median wall time of the study (the tune JSON's wall_s), the limits
# and the ratios wall / limit (of the repeat with the median wall time).
#
# Usage: bench/scheduler_bench.sh [ROUTETUNE]   (default build/routetune)
#        bench/scheduler_bench.sh overhead [ROUTETUNE]: 16 one-second builds at --jobs 2 with
#        instant reported measurements beside the ideal (bench/scheduler_overhead.py says how)
# Environment: N candidates besides the default (32), BUILD_S (0.5), RUN_S (0.05),
# JOBS ("1 2 16"), REPEATS (3), TIMINGS ("process reported"); KEEP=1 keeps the studies
# (the script prints nothing about where: the newest /tmp/scheduler_bench.* folder).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = overhead ]; then shift; exec python3 "$root/bench/scheduler_overhead.py" "$@"; fi
routetune=${1:-$root/build/routetune}
n=${N:-32}
build_s=${BUILD_S:-0.5}
run_s=${RUN_S:-0.05}
jobs_list=${JOBS:-1 2 16}
repeats=${REPEATS:-3}
timings=${TIMINGS:-process reported}
work=$(mktemp -d "${TMPDIR:-/tmp}/scheduler_bench.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
fixtures=$root/tests/fixtures/specs
cp "$fixtures/tiny.c" "$fixtures/fake_input_1.txt" "$work/"

FAKE_BUILD_SLEEP_S=$build_s FAKE_RUN_SLEEP_S=$run_s FAKE_JITTER=0 \
    "$root/tests/fakes/fake_timed_cc" -O2 "$work/tiny.c" -o "$work/probe"
# Seconds per fake run: 20 runs one at a time.
run_cost() {
    python3 -c '
import subprocess, sys, time
t = time.monotonic()
for _ in range(20): subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print("%.4f" % ((time.monotonic() - t) / 20))' "$work/probe" "$work/probe.json" "$work/fake_input_1.txt"
}
echo "nominal: build $build_s s, run $run_s s"
echo "candidates: $n besides the default; repeats: $repeats (median wall time)"
printf '%-9s %4s %6s %5s %7s %7s %8s %6s %10s %6s\n' timing jobs builds runs run_s wall_s nominal ratio calibrated ratio

for timing in $timings; do
    sed -e "s|^path = .*|path = \"$root/tests/fakes/fake_timed_cc\"|" \
        -e "s|^source = .*|source = \"$timing\"|" \
        -e "s|^FAKE_BUILD_SLEEP_S = .*|FAKE_BUILD_SLEEP_S = \"$build_s\"|" \
        -e "s|^FAKE_RUN_SLEEP_S = .*|FAKE_RUN_SLEEP_S = \"$run_s\"|" \
        -e "s|^min_gain = .*|min_gain = 0.02\nconfirm_rounds = 1\nconfirm_top = 1|" \
        "$fixtures/fake_scheduler.toml" > "$work/spec_$timing.toml"
    for jobs in $jobs_list; do
        rows=""
        for r in $(seq 1 "$repeats"); do
            cache=$work/cache_${timing}_${jobs}_$r
            mkdir -p "$cache"
            FAKE_CC_LOG=$cache/cc.log "$routetune" tune "$work/spec_$timing.toml" \
                --routes "-param:max-unroll-times=[1..$((n + 1))]" --search fast --jobs "$jobs" \
                --keep-artifacts --cache "$cache/study.sqlite" --json > "$cache/summary.json" 2> "$cache/stderr" || {
                echo "tune failed ($timing, jobs $jobs): see below" >&2; tail -20 "$cache/stderr" >&2; exit 1; }
            builds=$(grep -c -- ' -o ' "$cache/cc.log")
            runs=$(find "$cache" -name '*.count' -exec cat {} + | awk '{ s += $1 } END { print s }')
            rows="$rows $cache:$builds:$runs:$(run_cost)"
        done
        python3 - "$timing" "$jobs" "$build_s" "$run_s" $rows <<'EOF'
import json, sqlite3, statistics, sys
timing, jobs, b_nom, r_nom = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
def limit(B, M):
    return B / jobs + M if timing == "process" else max(B / jobs, M)
results = []
for row in sys.argv[5:]:
    cache, builds, runs, r_cal = row.split(":")
    builds, runs, r_cal = int(builds), int(runs), float(r_cal)
    wall = json.load(open(cache + "/summary.json"))["wall_s"]
    db = sqlite3.connect(cache + "/study.sqlite")
    b_sum = db.execute("SELECT SUM(build_s) FROM evaluation").fetchone()[0]
    results.append((wall, builds, runs, r_cal, limit(builds * b_nom, runs * r_nom), limit(b_sum, runs * r_cal)))
results.sort()
wall, builds, runs, r_cal, nom, cal = results[len(results) // 2]
print("%-9s %4d %6d %5d %7.3f %7.2f %8.2f %6.3f %10.2f %6.3f" % (timing, jobs, builds, runs, r_cal, wall, nom, wall / nom, cal, wall / cal))
EOF
    done
done
