#!/bin/sh
# Fetches bzip2 1.0.8's source from Debian (apt-get source, as a user would, through
# scripts/debian-source.sh: it adds a deb-src entry when apt has none) into examples/bzip2/src
# and writes the workload's inputs into examples/bzip2/data. Nothing is fetched twice.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$here/src/bzlib.c" ]; then
    tmp=$(mktemp -d)
    top=$("$here/../../scripts/debian-source.sh" bzip2 1.0.8-5 "$tmp")
    rm -rf "$here/src"
    mv "$top" "$here/src"
    rm -rf "$tmp"
fi
python3 "$here/make_inputs.py" "$here/data"
