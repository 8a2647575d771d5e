#!/bin/sh
# roundtrip.sh BZIP2 INPUT WORKDIR: compresses INPUT with the bzip2 under test (-9), then
# decompresses it again, and prints the compressed stream's CRC and length (cksum), the
# decompressed length and 1 when the round trip gave back INPUT byte for byte (else 0). A
# miscompiled bzip2 changes at least one of these numbers; the accuracy check compares them
# exactly with the default route's.
set -eu
"$1" -9 -c "$2" > "$3/packed.bz2"
"$1" -d -c "$3/packed.bz2" > "$3/unpacked"
same=0
cmp -s "$2" "$3/unpacked" && same=1
printf '%s %s %s\n' "$(cksum < "$3/packed.bz2")" "$(wc -c < "$3/unpacked")" "$same"
rm -f "$3/packed.bz2" "$3/unpacked"
