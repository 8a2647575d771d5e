#!/usr/bin/env bash
# routetune workers over plain ssh: starts one worker per HOST[:N] (N workers on that host,
# default 1) in the background with nohup, each with the same spec path (the spec and its
# files must be at that path on every host, e.g. a shared file system) and the same store.
#
#   ROUTETUNE_STORE=postgresql://tuner@db:5432/routetune \
#     deploy/ssh/routetune-workers.sh examples/matmul/spec.toml gpu1:8 gpu2:8
#
# Each worker logs to ~/routetune-worker-<host>-<i>.log on its host and exits once the
# coordinator closes the queue. The password belongs in ~/.pgpass on the hosts, never in the URL.
set -euo pipefail
spec=${1:?usage: routetune-workers.sh SPEC HOST[:N]...}
shift
: "${ROUTETUNE_STORE:?set ROUTETUNE_STORE to the postgresql:// URL of the study}"
routetune=${ROUTETUNE:-routetune}
for target in "$@"; do
    host=${target%%:*}
    count=1
    [[ $target == *:* ]] && count=${target##*:}
    for ((i = 0; i < count; ++i)); do
        id="ssh-$host-$i"
        # One remote command line; every word quoted for the remote shell.
        remote=$(printf '%q ' env "CUDA_VISIBLE_DEVICES=$i" nohup "$routetune" worker "$spec" --store "$ROUTETUNE_STORE" \
                 --lease "${ROUTETUNE_LEASE:-60s}" --worker-id "$id")
        ssh -n "$host" "$remote >\"\$HOME/routetune-worker-$host-$i.log\" 2>&1 &"
        echo "started $id"
    done
done
