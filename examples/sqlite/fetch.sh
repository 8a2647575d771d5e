#!/bin/sh
# Fetches SQLite 3.40.1 from Debian (apt-get source sqlite3, as a user would) and makes what
# SQLite's own Makefile builds speedtest1 from: the amalgamation sqlite3.c/sqlite3.h
# (`./configure && make sqlite3.c`, which needs tclsh: Debian's tcl8.6) and test/speedtest1.c,
# copied into examples/sqlite/src. Needs a deb-src entry for bookworm: when apt has none,
# this adds /etc/apt/sources.list.d/debian-src.sources (a copy of debian.sources with Types:
# deb-src; root only) and runs apt-get update. Needs dpkg-dev. Nothing is fetched twice.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$here/src/sqlite3.c" ] && [ -f "$here/src/speedtest1.c" ] && exit 0
if ! apt-get source --print-uris sqlite3 >/dev/null 2>&1; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
        > /etc/apt/sources.list.d/debian-src.sources
    apt-get update -qq
fi
tmp=$(mktemp -d)
(cd "$tmp" && { apt-get source -qq sqlite3=3.40.1-2+deb12u2 2>/dev/null || apt-get source -qq sqlite3; })
top=$(ls -d "$tmp"/sqlite3-*/ | head -n 1)
mkdir "$tmp/build"
(cd "$tmp/build" && "$top/configure" >configure.log 2>&1 && make sqlite3.c >make.log 2>&1)
rm -rf "$here/src"
mkdir "$here/src"
cp "$tmp/build/sqlite3.c" "$tmp/build/sqlite3.h" "$top/test/speedtest1.c" "$here/src/"
rm -rf "$tmp"
