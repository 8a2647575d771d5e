#!/usr/bin/env bash
# Runs routetune-workers.sbatch on a throwaway single-node Slurm on this machine (as root):
# writes a slurm.conf for this host into a temp folder, starts munged, slurmctld and slurmd
# on it, submits the batch script as a job array of workers against the study at $1 (a
# postgresql:// URL) for the spec $2, waits for the array to finish, prints each task's log,
# and stops the daemons. The GPU request (--gres) is stripped: this node has no GPUs.
#   deploy/slurm/local-slurm-test.sh URL SPEC [TASKS]
set -euo pipefail
url=${1:?usage: local-slurm-test.sh URL SPEC [TASKS]}
spec=$(realpath "${2:?usage: local-slurm-test.sh URL SPEC [TASKS]}")
tasks=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
routetune=${ROUTETUNE:-$(command -v routetune)}
[ "$(id -u)" = 0 ] || { echo "local-slurm-test.sh: needs root (slurmd)"; exit 77; }
command -v slurmctld >/dev/null && command -v munged >/dev/null || { echo "SKIPPED: slurm-wlm or munge missing"; exit 77; }
dir=$(mktemp -d /tmp/routetune-slurm-XXXXXX)
chmod 755 "$dir"
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" "$dir/logs"
cat > "$dir/slurm.conf" <<CONF
ClusterName=routetune-test
SlurmctldHost=$host
SlurmctldPort=$((20000 + RANDOM % 10000))
SlurmdPort=$((30000 + RANDOM % 10000))
AuthType=auth/munge
SlurmUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
export SLURM_CONF=$dir/slurm.conf
cleanup() {
    [ -f "$dir/slurmd.pid" ] && kill "$(cat "$dir/slurmd.pid")" 2>/dev/null || true
    [ -f "$dir/slurmctld.pid" ] && kill "$(cat "$dir/slurmctld.pid")" 2>/dev/null || true
    [ -f "$dir/munge/munged.pid" ] && kill "$(cat "$dir/munge/munged.pid")" 2>/dev/null || true
    sleep 1
    rm -rf "$dir"
}
trap cleanup EXIT
cp /etc/munge/munge.key "$dir/munge/munge.key" 2>/dev/null || mungekey --create --keyfile="$dir/munge/munge.key"
chmod 600 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
       --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed"
echo "AuthInfo=socket=$dir/munge/munge.socket" >> "$dir/slurm.conf"
slurmctld -f "$dir/slurm.conf"
slurmd -f "$dir/slurm.conf"
for _ in $(seq 60); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 1; done
sinfo -h -o "%P %D %T" || { cat "$dir/slurmctld.log" "$dir/slurmd.log" >&2; exit 1; }
sed '/^#SBATCH --gres/d' "$here/routetune-workers.sbatch" > "$dir/workers.sbatch"
job=$(ROUTETUNE="$routetune" ROUTETUNE_STORE="$url" ROUTETUNE_LEASE=5s \
      sbatch --parsable --export=ALL --array=0-$((tasks - 1)) --cpus-per-task=1 --mem=512 \
      --output="$dir/logs/worker-%a.log" --chdir="$(dirname "$spec")" "$dir/workers.sbatch" "$spec")
echo "submitted job array $job ($tasks tasks)"
for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 1
done
for log in "$dir"/logs/*.log; do echo "== $log"; cat "$log"; done
sacct_state=$(scontrol show job "$job" 2>/dev/null | grep -o 'JobState=[A-Z]*' | sort | uniq -c || true)
echo "job states: ${sacct_state:-gone (finished)}"
