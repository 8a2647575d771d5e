#!/bin/sh
# roundtrip.sh ZSTD INPUT WORKDIR LEVEL: compresses INPUT with the zstd under test at LEVEL
# (one thread: the build has no ZSTD_MULTITHREAD), decompresses it again, and prints the
# compressed frame's CRC and length (cksum), the restored length and 1 when the round trip
# gave back INPUT byte for byte (else 0). zstd's output for a given level is deterministic,
# so a miscompiled compressor changes the first two numbers and a miscompiled decompressor
# the last two; the accuracy check compares them exactly with the default route's.
set -eu
"$1" -q -"$4" -c "$2" > "$3/packed.zst"
"$1" -q -d -c "$3/packed.zst" > "$3/unpacked"
same=0
cmp -s "$2" "$3/unpacked" && same=1
printf '%s %s %s\n' "$(cksum < "$3/packed.zst")" "$(wc -c < "$3/unpacked")" "$same"
rm -f "$3/packed.zst" "$3/unpacked"
