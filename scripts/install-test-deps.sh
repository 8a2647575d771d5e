#!/usr/bin/env bash
# Installs what the whole test suite and the benchmarks need on top of scripts/install-deps.sh,
# only the packages that are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
packages=(libgtest-dev libgmock-dev libbenchmark-dev
          clang libclang-rt-14-dev   # the Clang adapter's tests, the fuzzers
          postgresql                 # the scale-out tests start a throwaway server
          chromium                   # the HTML report's browser test (skipped without it)
          python3-optuna             # bench/optuna_peer.py, the TPE peer of the strategies
          python3-yaml               # deploy/check-manifests.sh
          slurm-wlm munge            # the Slurm job array of workers test (a throwaway single-node cluster)
          tcl                        # tclsh makes SQLite's amalgamation (examples/sqlite/fetch.sh)
          dpkg-dev                   # apt-get source unpacks with dpkg-source (examples/bzip2/fetch.sh)
          openssh-client             # ssh-keygen -Y signs and checks locks
          pybind11-dev python3-pybind11 python3-dev python3-pytest)   # the Python package, its binding and its tests
# deploy/check-manifests.sh validates the Kubernetes manifest offline with kubectl; any kubectl
# will do (another package may provide it), so Debian's is installed only when none is there.
command -v kubectl >/dev/null || packages+=(kubernetes-client)
bash scripts/apt-install-missing.sh "${packages[@]}"
