#!/bin/sh
# How long each command that starts builds takes to stop after SIGINT (issue 25), and whether
# anything of its build is left: a study whose builds hang reading a FIFO once ./hang exists
# (the Lifetime tests' study, tests/hostile/lifetime_cli_test.cpp); the study is tuned and its
# winner promoted first, then each command is started, the hung build awaited (its marker
# variable in /proc/*/environ), SIGINT sent and the time to the command's exit taken with
# date +%s.%N. Prints one line per run (seconds, exit code, build processes left 0.5 s after
# the exit) and the median per command.
#
# Usage: bench/hardening/interrupt_latency.sh [ROUTETUNE]   (default build/routetune)
# Environment: REPEATS (5).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
routetune=${1:-$root/build/routetune}
repeats=${REPEATS:-5}
work=$(mktemp -d /tmp/interrupt_latency.XXXXXX)
trap 'rm -rf "$work"' EXIT
mark="LATENCY_MARK=$work"
cat > "$work/spec.toml" <<SPEC
name = "life"
[compiler]
adapter = "custom"
[build]
command = ["sh", "build.sh", "{artifact}"]
timeout_s = 120
env = { LATENCY_MARK = "$work" }
[run]
command = ["sh", "{artifact}"]
[timing]
source = "process"
warmup = 0
repeats = 3
confirm_rounds = 3
[accuracy]
format = "text"
metric = "exact"
[[knob]]
name = "-k"
values = ["a", "b"]
default = "a"
env = "K"
[search]
routes = "-k=[a|b]"
SPEC
cat > "$work/build.sh" <<SCRIPT
if [ -e "$work/hang" ]; then cat "$work/fifo" > /dev/null; fi
if [ "\$K" = b ]; then printf 'echo 1\n' > "\$1"; else printf 'sleep 0.2; echo 1\n' > "\$1"; fi
SCRIPT
mkfifo "$work/fifo"
cd "$work"
"$routetune" tune spec.toml > /dev/null
"$routetune" promote .routetune/life.sqlite --lock life.lock.json > /dev/null
touch hang
build_processes() { grep -l -s -a "$mark" /proc/[0-9]*/environ 2>/dev/null | wc -l; }
for command in "build spec.toml --route -k=b" "tune spec.toml" \
               "promote .routetune/life.sqlite --route -k=b --lock other.lock.json" \
               "verify life.lock.json --rerun" "review life.lock.json --rerun"; do
    times=""
    for i in $(seq "$repeats"); do
        # shellcheck disable=SC2086
        "$routetune" $command > /dev/null 2>&1 &
        pid=$!
        until [ "$(build_processes)" -gt 0 ]; do sleep 0.02; done
        start=$(date +%s.%N)
        kill -INT "$pid"
        code=0
        wait "$pid" || code=$?
        end=$(date +%s.%N)
        sleep 0.5
        left=$(build_processes)
        took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
        printf '%s: %s s, exit %s, %s build processes left\n' "$command" "$took" "$code" "$left"
        times="$times $took"
    done
    printf '%s: median %s s\n' "$command" \
        "$(printf '%s\n' $times | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
done
