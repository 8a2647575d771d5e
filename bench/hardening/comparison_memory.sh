#!/bin/sh
# Peak memory of a study whose outputs are large (issue 25): each run prints SIZE_MB of text
# (TOKEN and a newline repeated: "1.25\n" by default, 5 bytes a value) to stdout, which
# routetune streams into its {output} file, reads back (bounded by [run] max_output_mb, 256 by
# default) and compares with the default route's output under rel_l2. Two routes besides the
# default, one repeat each. For each routetune binary given, the study runs REPEATS times from
# an empty store under /usr/bin/time -v; the script prints every run's maximum resident set
# size (KiB) and wall time, then the median RSS and its ratio to the output's size.
#
# Usage: bench/hardening/comparison_memory.sh ROUTETUNE [ROUTETUNE...]
# Environment: SIZE_MB (120), REPEATS (3), TOKEN (1.25).
set -eu
size_mb=${SIZE_MB:-120}
repeats=${REPEATS:-3}
work=$(mktemp -d /tmp/comparison_memory.XXXXXX)
trap 'rm -rf "$work"' EXIT
token=${TOKEN:-1.25}
awk -v n=$((size_mb * 1048576 / (${#token} + 1))) -v t="$token" 'BEGIN { for (i = 0; i < n; i++) print t }' > "$work/output.txt"
cat > "$work/spec.toml" <<SPEC
name = "memory"
[compiler]
adapter = "custom"
[build]
command = ["sh", "-c", "printf 'cat $work/output.txt\\\\n' > \"\$0\"", "{artifact}"]
[run]
command = ["sh", "{artifact}"]
timeout_s = 600
[timing]
source = "process"
warmup = 0
repeats = 1
confirm_rounds = 1
[accuracy]
format = "text"
metric = "rel_l2"
[[knob]]
name = "-k"
values = ["a", "b", "c"]
default = "a"
env = "K"
[search]
routes = "-k=[a|b|c]"
SPEC
printf 'output: %s bytes of text\n' "$(stat -c %s "$work/output.txt")"
for routetune in "$@"; do
    rss=""
    for i in $(seq "$repeats"); do
        rm -rf "$work/.routetune"
        (cd "$work" && /usr/bin/time -v "$routetune" tune spec.toml > "$work/out.txt" 2> "$work/time.txt") || {
            echo "$routetune: tune failed"; tail -5 "$work/time.txt"; continue; }
        kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
        wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
        printf '%s run %s: max RSS %s KiB, wall %s\n' "$routetune" "$i" "$kib" "$wall"
        rss="$rss $kib"
    done
    median=$(printf '%s\n' $rss | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    printf '%s: median max RSS %s KiB = %.2f x the output\n' "$routetune" "$median" \
        "$(awk -v k="$median" -v m="$size_mb" 'BEGIN { print k / 1024 / m }')"
done
