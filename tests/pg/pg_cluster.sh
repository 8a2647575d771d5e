#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: `pg_cluster.sh start DIR` runs initdb in DIR
# (as the postgres user when run as root, since the server refuses to run as root), starts the
# server on 127.0.0.1 on a free port with a Unix socket in DIR, and writes its URL to DIR/url;
# `pg_cluster.sh stop DIR` stops it and deletes DIR. Trust authentication, no fsync: the
# cluster lives only for one test run (ROUTETUNE_PG_DURABLE=1 keeps fsync and synchronous
# commits, as a real server has them: the benchmarks use that).
set -euo pipefail
action=${1:?usage: pg_cluster.sh start|stop DIR}
dir=${2:?usage: pg_cluster.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "pg_cluster.sh: PostgreSQL server binaries not found (apt-get install postgresql)" >&2
    exit 1
fi
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
case $action in
start)
    if [ -f "$dir/url" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        cat "$dir/url"; exit 0
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U routetune -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(free_port)
    durability="-c fsync=off -c synchronous_commit=off"
    [ "${ROUTETUNE_PG_DURABLE:-0}" = 1 ] && durability=""
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir $durability -c max_connections=200" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgresql://routetune@127.0.0.1:$port/postgres" > "$dir/url"
    chmod a+r "$dir/url"
    cat "$dir/url"
    ;;
stop)
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
*)
    echo "pg_cluster.sh: unknown action '$action' (start | stop)" >&2
    exit 2
    ;;
esac
