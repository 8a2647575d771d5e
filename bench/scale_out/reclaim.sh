#!/usr/bin/env bash
# Time from a worker's death to its candidate's reclaim, for leases of 2 s and 10 s. Each
# repetition: a coordinator (--jobs 0) queues one candidate of bench/scale_out/sleep_bound.toml;
# the only worker claims it and builds (sleep_cc sleeps far longer than the lease); after a
# random wait in [0, lease) (so the kill falls anywhere in the heartbeat cycle, which renews
# every third of the lease) one psql query reads the server's clock and the candidate's
# lease_until, and the worker gets SIGKILL at once. The figures, all in the server's clock:
#   death->reclaim  = lease_event 'reclaimed'.at - the clock read just before the kill
#   lease left      = lease_until - that clock (what the dead worker's last heartbeat bought)
#   after expiry    = lease_event.at - lease_until (how late a poller noticed: the
#                     coordinator's collector polls every 100 ms)
# Prints one line per kill, then per lease: median, min and max of each.
#   bench/scale_out/reclaim.sh BUILD_DIR SERVER_URL [REPS]
set -euo pipefail
build=$(realpath "${1:?usage: reclaim.sh BUILD_DIR SERVER_URL [REPS]}")
server=${2:?usage: reclaim.sh BUILD_DIR SERVER_URL [REPS]}
reps=${3:-7}
here=$(cd "$(dirname "$0")" && pwd)
routetune=$build/routetune
work=$(mktemp -d /tmp/routetune-reclaim-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cp "$here/sleep_cc" "$here/sleep_bound.toml" "$work/"
cd "$work"
fresh_db() { local db="reclaim_$$_${RANDOM}${RANDOM}"; psql "$server" -qc "CREATE DATABASE $db"; echo "${server%/*}/$db"; }
results=$work/results.txt
for lease in 2 10; do
    for ((r = 0; r < reps; ++r)); do
        url=$(fresh_db)
        load=$(cut -d' ' -f1 /proc/loadavg)
        FAKE_BUILD_SLEEP_S=$((2 * lease + 5)) "$routetune" worker sleep_bound.toml --store "$url" --lease "${lease}s" \
            --worker-id victim >"$work/victim.log" 2>&1 &
        victim=$!
        FAKE_BUILD_SLEEP_S=0 "$routetune" tune sleep_bound.toml --store "$url" --routes '-O=[2|3]' --search full \
            --jobs 0 >"$work/tune.log" 2>&1 &
        coordinator=$!
        until [ "$(psql "$url" -tAc "SELECT count(*) FROM candidate WHERE state = 'running'" 2>/dev/null || echo 0)" -gt 0 ]; do
            sleep 0.05
        done
        sleep "$(python3 -c "import random; print(random.uniform(0, $lease))")"
        read -r killed left < <(psql "$url" -tAF' ' -c "SELECT extract(epoch FROM clock_timestamp()), \
            extract(epoch FROM lease_until - clock_timestamp()) FROM candidate WHERE state = 'running'")
        kill -9 "$victim"
        until [ "$(psql "$url" -tAc "SELECT count(*) FROM lease_event WHERE kind = 'reclaimed'")" -gt 0 ]; do sleep 0.05; done
        read -r delay late < <(psql "$url" -tAF' ' -c "SELECT extract(epoch FROM e.at) - $killed, \
            extract(epoch FROM e.at - c.lease_until_was) FROM (SELECT min(at) AS at FROM lease_event WHERE kind = 'reclaimed') e, \
            (SELECT to_timestamp($killed + $left) AS lease_until_was) c")
        printf 'lease %2d s: death->reclaim %.3f s, lease left %.3f s, after expiry %.3f s (load %s)\n' \
            "$lease" "$delay" "$left" "$late" "$load"
        echo "$lease $delay $left $late $load" >>"$results"
        kill "$coordinator" 2>/dev/null || true
        wait "$coordinator" 2>/dev/null || true
        wait "$victim" 2>/dev/null || true
    done
done
python3 - "$results" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
for lease in sorted({r[0] for r in rows}):
    mine = [r for r in rows if r[0] == lease]
    def text(i):
        v = [r[i] for r in mine]
        return f"{statistics.median(v):.2f} s [{min(v):.2f}, {max(v):.2f}]"
    print(f"lease {lease:.0f} s, {len(mine)} kills: death->reclaim {text(1)}; lease left {text(2)}; after expiry {text(3)}")
print(f"load average at the kills' starts: {min(r[4] for r in rows):.2f}-{max(r[4] for r in rows):.2f}")
PY
