#!/usr/bin/env bash
# ctest: a coordinator (tune --store URL --jobs 0) and a Slurm job array of two workers
# (deploy/slurm/routetune-workers.sbatch on a throwaway single-node Slurm) finish a study;
# every candidate is recorded by a slurm-* worker. Exit 77 (skipped) without root or Slurm.
set -euo pipefail
routetune=${1:?usage: slurm_workers_test.sh ROUTETUNE SOURCE_DIR URL_FILE}
source_dir=${2:?}
server=$(cat "${3:?}")
[ "$(id -u)" = 0 ] || { echo "SKIPPED: needs root to start slurmd"; exit 77; }
command -v slurmctld >/dev/null || { echo "SKIPPED: slurm-wlm is not installed"; exit 77; }
work=$(mktemp -d /tmp/routetune-slurm-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tests/fixtures"
cp -r "$source_dir/tests/fixtures/specs" "$work/tests/fixtures/specs"
cp -r "$source_dir/tests/fakes" "$work/tests/fakes"
chmod -R a+rwX "$work"
db="slurm_$$"
psql "$server" -qc "CREATE DATABASE $db"
url="${server%/*}/$db"
specs="$work/tests/fixtures/specs"
(cd "$specs" && FAKE_JITTER=0 "$routetune" tune fake_timed.toml --store "$url" --search full \
    --routes '-O=[2|3] -funroll-loops=[on|off]' --jobs 0 --lease 5s --json >"$work/tune.json" 2>"$work/tune.err") &
coordinator=$!
ROUTETUNE=$routetune bash "$source_dir/deploy/slurm/local-slurm-test.sh" "$url" "$specs/fake_timed.toml" 2
wait "$coordinator" || { cat "$work/tune.err"; exit 1; }
by_slurm=$(psql "$url" -tAc "SELECT count(*) FROM evaluation WHERE worker LIKE 'slurm-%'")
total=$(psql "$url" -tAc "SELECT count(*) FROM evaluation")
echo "evaluations: $total, by Slurm workers: $by_slurm"
[ "$total" = 4 ] && [ "$by_slurm" = 3 ]
