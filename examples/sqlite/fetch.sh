#!/bin/sh
# Fetches SQLite 3.40.1 from Debian (apt-get source sqlite3, as a user would, through
# scripts/debian-source.sh: it adds a deb-src entry when apt has none) and makes what
# SQLite's own Makefile builds speedtest1 from: the amalgamation sqlite3.c/sqlite3.h
# (`./configure && make sqlite3.c`, which needs tclsh: Debian's tcl8.6) and test/speedtest1.c,
# copied into examples/sqlite/src. Nothing is fetched twice.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$here/src/sqlite3.c" ] && [ -f "$here/src/speedtest1.c" ] && exit 0
tmp=$(mktemp -d)
top=$("$here/../../scripts/debian-source.sh" sqlite3 3.40.1-2+deb12u2 "$tmp")
mkdir "$tmp/build"
(cd "$tmp/build" && "$top/configure" >configure.log 2>&1 && make sqlite3.c >make.log 2>&1)
rm -rf "$here/src"
mkdir "$here/src"
cp "$tmp/build/sqlite3.c" "$tmp/build/sqlite3.h" "$top/test/speedtest1.c" "$here/src/"
rm -rf "$tmp"
