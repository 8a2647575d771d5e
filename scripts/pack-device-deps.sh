#!/usr/bin/env bash
# Copies the header-only dependencies and SQLite's static library from this machine's Debian
# packages into .devcarry/, for scripts/build-device.sh on a machine without them.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .devcarry/include .devcarry/lib
cp -r /usr/include/CLI /usr/include/nlohmann /usr/include/toml++ /usr/include/sqlite3.h /usr/include/sqlite3ext.h .devcarry/include/
cp /usr/lib/x86_64-linux-gnu/libsqlite3.a .devcarry/lib/
