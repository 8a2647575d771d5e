#!/bin/sh
# Usage: debian-source.sh PACKAGE VERSION WORKDIR
# Unpacks Debian's source of PACKAGE into WORKDIR with apt-get source, as a user would: the
# given VERSION first (the release's; a security archive's newest may be missing from the
# mirror), else the newest apt knows. Prints the unpacked tree's path. Needs a deb-src entry
# for bookworm: when apt has none, this adds /etc/apt/sources.list.d/debian-src.sources (a
# copy of debian.sources with Types: deb-src; root only) and runs apt-get update. Needs
# dpkg-dev (scripts/install-test-deps.sh).
set -eu
package=$1 version=$2 workdir=$3
if ! apt-get source --print-uris "$package" >/dev/null 2>&1; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
        > /etc/apt/sources.list.d/debian-src.sources
    apt-get update -qq
fi
(cd "$workdir" && { apt-get source -qq "$package=$version" 2>/dev/null || apt-get source -qq "$package"; }) >&2
ls -d "$workdir"/*/ | head -n 1 | sed 's:/$::'
