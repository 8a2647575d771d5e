#!/usr/bin/env bash
# Installs what building routetune and running its demo needs (a compiler, CMake and the
# libraries it links), only the packages that are missing (quick when all are there).
# scripts/install-test-deps.sh adds what the whole test suite needs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/apt-install-missing.sh \
  g++ make cmake libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libsqlite3-dev libpq-dev \
  libjs-chart.js libcpp-httplib-dev pkg-config libssl-dev
