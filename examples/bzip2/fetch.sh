#!/bin/sh
# Fetches bzip2 1.0.8's source from Debian (apt-get source, as a user would) into
# examples/bzip2/src and writes the workload's inputs into examples/bzip2/data. Needs a
# deb-src entry for bookworm: when apt has none, this adds /etc/apt/sources.list.d/
# debian-src.sources (a copy of debian.sources with Types: deb-src; root only) and runs
# apt-get update. Needs dpkg-dev (scripts/install-deps.sh). Nothing is fetched twice.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$here/src/bzlib.c" ]; then
    if ! apt-get source --print-uris bzip2 >/dev/null 2>&1; then
        sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
            > /etc/apt/sources.list.d/debian-src.sources
        apt-get update -qq
    fi
    tmp=$(mktemp -d)
    (cd "$tmp" && apt-get source -qq bzip2=1.0.8-5 2>/dev/null || apt-get source -qq bzip2)
    rm -rf "$here/src"
    mv "$tmp"/bzip2-1.0.8 "$here/src"
    rm -rf "$tmp"
fi
python3 "$here/make_inputs.py" "$here/data"
