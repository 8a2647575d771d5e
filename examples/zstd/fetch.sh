#!/bin/sh
# Fetches zstd 1.5.4 from Debian (apt-get source libzstd, as a user would) into
# examples/zstd/src (its lib/ and programs/, which is what the zstd command line is built
# from) and writes the workload's inputs into examples/zstd/data. Needs a deb-src entry for
# bookworm: when apt has none, this adds /etc/apt/sources.list.d/debian-src.sources (a copy
# of debian.sources with Types: deb-src; root only) and runs apt-get update. Needs dpkg-dev.
# The security archive's newest libzstd source may be missing from the mirror, so the
# release's version is asked for first. Nothing is fetched twice.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$here/src/lib/zstd.h" ]; then
    if ! apt-get source --print-uris libzstd >/dev/null 2>&1; then
        sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
            > /etc/apt/sources.list.d/debian-src.sources
        apt-get update -qq
    fi
    tmp=$(mktemp -d)
    (cd "$tmp" && { apt-get source -qq libzstd=1.5.4+dfsg2-5 2>/dev/null || apt-get source -qq libzstd; })
    top=$(ls -d "$tmp"/libzstd-*/ | head -n 1)
    rm -rf "$here/src"
    mkdir "$here/src"
    cp -r "$top/lib" "$top/programs" "$here/src/"
    rm -rf "$tmp"
fi
python3 "$here/make_inputs.py" "$here/data"
