#!/usr/bin/env bash
# Scale-out figures on sleep-bound builds (fake_timed_cc sleeping FAKE_BUILD_SLEEP_S per build,
# so the CPUs of this loaded machine are not what is measured):
#  (1) throughput: a 16-candidate study (ROUTES overrides the expression), a coordinator with --jobs 0 and P = 1, 2, 4, 8 worker
#      processes; the figure is the queue phase, first claim to last commit (candidate.claimed_at
#      .. done_at in the server's clock), so the default route and the confirmation, which run on
#      the coordinator alone, are excluded; REPS repetitions each;
#  (2) reclaim: a worker holding a claim is killed with SIGKILL; the time from the kill to the
#      lease_event 'reclaimed' (lease 2 s, renewed every 0.67 s), REPS times.
#   bench/scale_out/throughput.sh BUILD_DIR SERVER_URL [REPS]
# SERVER_URL: a server where databases may be created (tests/pg/pg_cluster.sh starts one).
set -euo pipefail
build=$(realpath "${1:?usage: throughput.sh BUILD_DIR SERVER_URL [REPS]}")
server=${2:?}
reps=${3:-3}
src=$(cd "$(dirname "$0")/../.." && pwd)
routetune=$build/routetune
work=$(mktemp -d /tmp/routetune-scale-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/tests/fixtures"
cp -r "$src/tests/fixtures/specs" "$work/tests/fixtures/specs"
cp -r "$src/tests/fakes" "$work/tests/fakes"
specs=$work/tests/fixtures/specs
routes=${ROUTES:-'-O=[2|3] -funroll-loops=[on|off] -march=[x86-64|native] -ffast-math=[on|off]'}
export FAKE_BUILD_SLEEP_S=${FAKE_BUILD_SLEEP_S:-1} FAKE_JITTER=0
fresh_db() { local db="scale_$$_${RANDOM}${RANDOM}"; psql "$server" -qc "CREATE DATABASE $db"; echo "${server%/*}/$db"; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for p in 1 2 4 8; do
    for ((r = 0; r < reps; ++r)); do
        url=$(fresh_db)
        pids=()
        for ((w = 0; w < p; ++w)); do
            (cd "$specs" && "$routetune" worker fake_timed.toml --store "$url" --lease 30s --worker-id "w$w" >/dev/null 2>&1) &
            pids+=($!)
        done
        (cd "$specs" && "$routetune" tune fake_timed.toml --store "$url" --search full --routes "$routes" --jobs 0 \
            --queue-depth 16 >/dev/null 2>&1)
        wait "${pids[@]}"
        psql "$url" -tAc "SELECT '$p processes: ' || round(extract(epoch FROM max(done_at) - min(claimed_at))::numeric, 2) || ' s for ' || count(*) || ' candidates' FROM candidate"
    done
done
for ((r = 0; r < reps; ++r)); do
    url=$(fresh_db)
    (cd "$specs" && FAKE_BUILD_SLEEP_S=5 "$routetune" worker fake_timed.toml --store "$url" --lease 2s --worker-id victim >/dev/null 2>&1) &
    victim=$!
    (cd "$specs" && FAKE_BUILD_SLEEP_S=0 "$routetune" tune fake_timed.toml --store "$url" --routes '-O=[1|3]' --jobs 0 >/dev/null 2>&1) &
    coordinator=$!
    until [ "$(psql "$url" -tAc "SELECT count(*) FROM candidate WHERE state = 'running'" 2>/dev/null || echo 0)" -gt 0 ]; do sleep 0.1; done
    sleep 1
    kill -9 "$victim"
    killed=$(psql "$url" -tAc "SELECT extract(epoch FROM clock_timestamp())")
    until [ "$(psql "$url" -tAc "SELECT count(*) FROM lease_event WHERE kind = 'reclaimed'")" -gt 0 ]; do sleep 0.05; done
    psql "$url" -tAc "SELECT 'reclaim after kill: ' || round((extract(epoch FROM min(at)) - $killed)::numeric, 2) || ' s (lease 2 s)' FROM lease_event WHERE kind = 'reclaimed'"
    kill "$coordinator" 2>/dev/null || true
    wait "$coordinator" 2>/dev/null || true
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
