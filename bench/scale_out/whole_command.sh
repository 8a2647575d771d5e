#!/usr/bin/env bash
# The whole `tune` command, locally and with workers, against its ideal (issue 27, target 6).
# The study is bench/scale_out/sleep_bound.toml (the default and 16 candidates whose builds
# sleep FAKE_BUILD_SLEEP_S, default 1, seconds in sleep_cc; one reported-time run of a
# builtins-only script per evaluation). Each repetition runs, one after the other so a change
# of the machine's load spreads over both:
#   local    tune --search full --jobs P with a fresh SQLite store
#   workers  a coordinator (tune --store URL --jobs 0) and P workers (worker --jobs 1) on a
#            fresh database of SERVER_URL's server; the workers start first and wait for it
# and the figure is the tune process's wall time, start to exit, measured here. Its ideal is
#   default + Σ candidate (build + runs) / P + confirmation
# each term measured in the same run: sleep_cc runs behind a wrapper that logs each build's
# start and end (epoch seconds) and its artifact path, and makes each artifact log its own
# runs (two `date` calls a run, so a run costs a few ms more than in throughput.sh); the
# confirmation is the coordinator's own time.confirmation_s (tune --json). From that log:
#   start-up      process start -> the default's build starts
#   default       its build start -> its last run before any other artifact's first run
#   queue         -> the last build or run before the confirmation ends (the candidates',
#                 and a worker's build of its own paired default)
#   hand-off      -> the confirmation starts (= the last logged event's end - confirmation_s)
#   confirmation  confirmation_s (rebuilds, interleaved runs, its store writes)
#   tail          the last logged event's end -> exit (outcome, keeper, summary)
# Σ counts candidate builds and the runs between the default's end and the confirmation (a
# candidate's paired default runs included); a worker's own default build is not in Σ (it is
# overhead of the queue). Prints one line per run (with the load average at its start; bld,
# cnd, runs: the builds, candidate builds and runs logged), then per mode: median [min, max]
# of the wall, the ideal, the ratio and each part.
#   bench/scale_out/whole_command.sh BUILD_DIR SERVER_URL [REPS [OTHER_ROUTETUNE]]
# SERVER_URL: a server where databases may be created (tests/pg/pg_cluster.sh starts one).
# P: processes (local --jobs, number of workers), default 4. OTHER_ROUTETUNE: a second binary
# (e.g. the one before a change), run right after BUILD_DIR's in every repetition and mode;
# its rows are marked "other". KEEP=1 keeps the work folder (each run's logs) and names it.
set -euo pipefail
usage="usage: whole_command.sh BUILD_DIR SERVER_URL [REPS [OTHER_ROUTETUNE]]"
build=$(realpath "${1:?$usage}")
server=${2:?$usage}
reps=${3:-5}
other=${4:+$(realpath "$4")}
procs=${P:-4}
here=$(cd "$(dirname "$0")" && pwd)
routetune=$build/routetune
work=$(mktemp -d /tmp/routetune-whole-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
cp "$here/sleep_bound.toml" "$work/"
cp "$here/sleep_cc" "$work/sleep_cc.real"
cat >"$work/sleep_cc" <<'WRAPPER'
#!/bin/sh
# Logs an artifact build's start, end, parent process and flags to $TIMING_LOG, and appends to
# the artifact a line that logs each of its runs (start, end, its own path) there too.
real="${0%/*}/sleep_cc.real"
out=""
next=0
for arg in "$@"; do
    if [ $next = 1 ]; then out=$arg; next=0; fi
    [ "$arg" = -o ] && next=1
done
case $out in ""|/dev/null) exec "$real" "$@" ;; esac
s=$(date +%s.%N)
"$real" "$@" || exit $?
e=$(date +%s.%N)
printf 's=$(date +%%s.%%N)\n%s\necho "run $s $(date +%%s.%%N) $0" >> "%s"\n' "$(sed 1d "$out")" "$TIMING_LOG" >"$out.body"
{ echo '#!/bin/sh'; cat "$out.body"; } >"$out" && rm -f "$out.body"
echo "build $s $e $PPID $out $*" >>"$TIMING_LOG"
WRAPPER
chmod +x "$work/sleep_cc"
export FAKE_BUILD_SLEEP_S=${FAKE_BUILD_SLEEP_S:-1} XDG_CACHE_HOME=$work/catalogs
fresh_db() { local db="whole_$$_${RANDOM}${RANDOM}"; psql "$server" -qc "CREATE DATABASE $db"; echo "$db"; }
now() { date +%s.%N; }

# The catalog cache is filled once (as after a user's first study; sleep_cc's discovery probes
# sleep too), so no run below pays for it.
(cd "$work" && TIMING_LOG=/dev/null "$routetune" tune sleep_bound.toml --dry-run --store "$work/dry.sqlite" >/dev/null 2>&1)

cat >"$work/row.py" <<'PY'
# row.py RESULTS MODE BINARY REP LOAD T0 T1 LOG JSON P: analyses one run, prints its line and
# appends it (JSON) to RESULTS.
import json, sys
results, mode, binary, rep, load, t0, t1, log, summary, procs = sys.argv[1:]
t0, t1, procs = float(t0), float(t1), int(procs)
builds, runs = [], []
for line in open(log):
    f = line.split()
    if f[0] == "build": builds.append((float(f[1]), float(f[2]), f[4]))
    elif f[0] == "run": runs.append((float(f[1]), float(f[2]), f[3]))
summary = json.load(open(summary))
confirmation = summary["time"]["confirmation_s"] or 0.0
default_dir = "/e3b0c44298fc1c14/"  # the empty route's hash: the default's work folder
def coordinator_default(path): return default_dir in path and ".worker-" not in path
builds.sort(); runs.sort()
default_build = next(b for b in builds if coordinator_default(b[2]))
first_other = next((r[0] for r in runs if not coordinator_default(r[2])), float("inf"))
default_end = max([r[1] for r in runs if r[0] < first_other] + [default_build[1]])
last_end = max(e for _, e, _ in builds + runs)
confirm_start = last_end - confirmation
search_builds = [b for b in builds if b is not default_build and b[0] < confirm_start]
candidate_builds = [b for b in search_builds if default_dir not in b[2]]
search_runs = [r for r in runs if default_end <= r[0] < confirm_start]
queue_end = max([e for _, e, _ in search_builds + search_runs] + [default_end])
serial = sum(e - s for s, e, _ in candidate_builds + search_runs)
default = default_end - default_build[0]
ideal = default + serial / procs + confirmation
row = dict(mode=mode, binary=binary, rep=int(rep), load=float(load), wall=t1 - t0, ideal=ideal, ratio=(t1 - t0) / ideal,
           startup=default_build[0] - t0, default=default, queue=queue_end - default_end, handoff=confirm_start - queue_end,
           confirmation=confirmation, tail=t1 - last_end, serial=serial, builds=len(builds), candidates=len(candidate_builds),
           runs=len(runs))
with open(results, "a") as out: out.write(json.dumps(row) + "\n")
print("%-7s %-5s %3d %5.2f %7.3f %7.3f %6.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %8.3f %3d %3d %4d" % (
    mode, binary, row["rep"], row["load"], row["wall"], ideal, row["ratio"], row["startup"], default, row["queue"],
    row["handoff"], confirmation, row["tail"], serial, len(builds), len(candidate_builds), len(runs)), flush=True)
PY

local_run() {  # local_run BINARY TAG REP
    local dir=$work/local_$2_$3 load t0 t1
    mkdir -p "$dir"
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(now)
    (cd "$work" && TIMING_LOG=$dir/log "$1" tune sleep_bound.toml --search full --jobs "$procs" --store "$dir/s.sqlite" \
        --json >"$dir/summary.json" 2>"$dir/tune.log") || { cat "$dir/tune.log" >&2; exit 1; }
    t1=$(now)
    python3 "$work/row.py" "$work/results.jsonl" local "$2" "$3" "$load" "$t0" "$t1" "$dir/log" "$dir/summary.json" "$procs"
}

workers_run() {  # workers_run BINARY TAG REP
    local dir=$work/workers_$2_$3 db url load t0 t1 pids=()
    mkdir -p "$dir"
    db=$(fresh_db)
    url="${server%/*}/$db"
    for ((w = 0; w < procs; ++w)); do
        (cd "$work" && TIMING_LOG=$dir/log exec "$1" worker sleep_bound.toml --store "$url" --jobs 1 --lease 30s \
            --worker-id "w$w" >"$dir/w$w.log" 2>&1) &
        pids+=($!)
    done
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(now)
    (cd "$work" && TIMING_LOG=$dir/log "$1" tune sleep_bound.toml --store "$url" --search full --jobs 0 \
        --json >"$dir/summary.json" 2>"$dir/tune.log") || { cat "$dir/tune.log" >&2; exit 1; }
    t1=$(now)
    wait "${pids[@]}"
    psql "$server" -qc "DROP DATABASE $db"
    python3 "$work/row.py" "$work/results.jsonl" workers "$2" "$3" "$load" "$t0" "$t1" "$dir/log" "$dir/summary.json" "$procs"
}

echo "$(nproc) cores; P = $procs; builds sleep ${FAKE_BUILD_SLEEP_S} s; $reps repetitions; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "routetune: $routetune${other:+; other: $other}${KEEP:+; work folder: $work}"
printf '%-7s %-5s %3s %5s %7s %7s %6s %7s %7s %7s %7s %7s %7s %8s %3s %3s %4s\n' mode bin rep load wall_s ideal_s ratio \
    start default queue handoff confirm tail serial_s bld cnd runs
for ((r = 0; r < reps; ++r)); do
    local_run "$routetune" this "$r"
    [ -z "$other" ] || local_run "$other" other "$r"
    workers_run "$routetune" this "$r"
    [ -z "$other" ] || workers_run "$other" other "$r"
done
python3 - "$work/results.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print("median [min, max] over %d repetitions; load average at the runs' starts %.2f-%.2f; after %s" % (
    max(r["rep"] for r in rows) + 1, min(r["load"] for r in rows), max(r["load"] for r in rows),
    open("/proc/loadavg").read().split()[0]))
for mode in ("local", "workers"):
    for binary in ("this", "other"):
        chosen = [r for r in rows if r["mode"] == mode and r["binary"] == binary]
        if not chosen: continue
        print(f"{mode} ({binary}):")
        for key in ("wall", "ideal", "ratio", "startup", "default", "queue", "handoff", "confirmation", "tail", "serial"):
            v = [r[key] for r in chosen]
            print("  %-13s %.3f [%.3f, %.3f]" % (key, statistics.median(v), min(v), max(v)))
PY
