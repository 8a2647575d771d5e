#!/usr/bin/env bash
# Throughput of the work queue with P = 1, 2, 4, 8 worker processes on sleep-bound builds.
# The study is bench/scale_out/sleep_bound.toml: 16 candidates whose builds sleep
# FAKE_BUILD_SLEEP_S (default 2) seconds in sleep_cc, one reported-time run of a builtins-only
# script each, so an evaluation costs its sleep and ~30 ms of CPU. A coordinator with --jobs 0
# (it evaluates only the default) and P workers with --jobs 1; the figure is the queue phase,
# first claim to last commit (candidate.claimed_at .. done_at, in the server's clock), so the
# default route and the confirmation, which run on the coordinator alone, are excluded. The
# repetitions are interleaved (P = 1, 2, 4, 8, then again), so a change of the machine's load
# spreads over every P. Prints one line per run (with the load average at its start) and
# then, per P: median, min, max, speedup of the medians against P = 1, and the ideal.
#   bench/scale_out/throughput.sh BUILD_DIR SERVER_URL [REPS]
# SERVER_URL: a server where databases may be created (tests/pg/pg_cluster.sh starts one).
set -euo pipefail
build=$(realpath "${1:?usage: throughput.sh BUILD_DIR SERVER_URL [REPS]}")
server=${2:?usage: throughput.sh BUILD_DIR SERVER_URL [REPS]}
reps=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
routetune=$build/routetune
work=$(mktemp -d /tmp/routetune-scale-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$here/sleep_cc" "$here/sleep_bound.toml" "$work/"
export FAKE_BUILD_SLEEP_S=${FAKE_BUILD_SLEEP_S:-2}
fresh_db() { local db="scale_$$_${RANDOM}${RANDOM}"; psql "$server" -qc "CREATE DATABASE $db"; echo "${server%/*}/$db"; }
results=$work/results.txt
echo "$(nproc) cores; builds sleep ${FAKE_BUILD_SLEEP_S} s; $reps repetitions"
for ((r = 0; r < reps; ++r)); do
    for p in 1 2 4 8; do
        url=$(fresh_db)
        load=$(cut -d' ' -f1 /proc/loadavg)
        pids=()
        for ((w = 0; w < p; ++w)); do
            (cd "$work" && "$routetune" worker sleep_bound.toml --store "$url" --lease 30s --worker-id "w$w" \
                >"$work/w$w.log" 2>&1) &
            pids+=($!)
        done
        (cd "$work" && "$routetune" tune sleep_bound.toml --store "$url" --search full --jobs 0 --queue-depth 16 \
            >"$work/tune.log" 2>&1) || { cat "$work/tune.log" >&2; exit 1; }
        wait "${pids[@]}"
        line=$(psql "$url" -tAc "SELECT round(extract(epoch FROM max(done_at) - min(claimed_at))::numeric, 3) \
            || ' ' || count(*) || ' ' || count(DISTINCT worker) FROM candidate WHERE state = 'done'")
        read -r seconds count workers <<<"$line"
        echo "P=$p rep=$r: $seconds s for $count candidates by $workers workers (load $load)"
        echo "$p $seconds $load" >>"$results"
    done
done
python3 - "$results" "$FAKE_BUILD_SLEEP_S" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
by_p = {}
for p, seconds, load in rows:
    by_p.setdefault(int(p), []).append(float(seconds))
serial = statistics.median(by_p[1])
print("P  median_s  min_s  max_s  speedup  median/(serial/P)")
for p, times in sorted(by_p.items()):
    m = statistics.median(times)
    print(f"{p}  {m:.2f}  {min(times):.2f}  {max(times):.2f}  {serial / m:.2f}x  {m / (serial / p):.3f}")
loads = [float(load) for _, _, load in rows]
print(f"load average at the runs' starts: {min(loads):.2f}-{max(loads):.2f}")
PY
