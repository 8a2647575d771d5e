#!/bin/sh
# Fetches zstd 1.5.4 from Debian (apt-get source libzstd, as a user would, through
# scripts/debian-source.sh: it adds a deb-src entry when apt has none) into examples/zstd/src
# (its lib/ and programs/, which is what the zstd command line is built from) and writes the
# workload's inputs into examples/zstd/data. Nothing is fetched twice.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$here/src/lib/zstd.h" ]; then
    tmp=$(mktemp -d)
    top=$("$here/../../scripts/debian-source.sh" libzstd 1.5.4+dfsg2-5 "$tmp")
    rm -rf "$here/src"
    mkdir "$here/src"
    cp -r "$top/lib" "$top/programs" "$here/src/"
    rm -rf "$tmp"
fi
python3 "$here/make_inputs.py" "$here/data"
