#!/bin/sh
# verify.sh SPEEDTEST1 SIZE WORKDIR: runs SQLite's speedtest1 with --verify on an in-memory
# database (no file I/O, so the run is CPU-bound) at --size SIZE and prints its verification
# line in numbers only: the count of result bytes, then the 24-byte hash over every result
# row of every test, as six 32-bit integers. speedtest1's timing lines vary from run to run
# and are dropped. A miscompiled SQLite returns at least one wrong row, which changes the
# hash; the accuracy check compares these numbers exactly with the default route's.
set -eu
"$1" --verify --memdb --size "$2" "$3/unused.db" > "$3/speedtest1.out"
line=$(grep '^Verification Hash: ' "$3/speedtest1.out")
set -- $line
bytes=$3 hash=$4
[ ${#hash} -eq 48 ] || { echo "verify.sh: no 48-digit hash in: $line" >&2; exit 1; }
printf '%s' "$bytes"
while [ -n "$hash" ]; do
    printf ' %d' "0x$(printf '%s' "$hash" | cut -c1-8)"
    hash=$(printf '%s' "$hash" | cut -c9-)
done
printf '\n'
