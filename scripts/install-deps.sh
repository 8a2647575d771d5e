#!/usr/bin/env bash
# Installs the Debian packages routetune needs, only those missing (quick when all are there).
set -euo pipefail
packages=(g++ make cmake git libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libsqlite3-dev
          libgtest-dev libgmock-dev libbenchmark-dev clang libclang-rt-14-dev libpq-dev postgresql
          libjs-chart.js libcpp-httplib-dev pkg-config
          openssh-client   # ssh-keygen -Y: signed locks (promote --sign, verify --allowed-signers)
          chromium     # the HTML report's browser test (skipped without it)
          python3-optuna   # bench/optuna_peer.py, the TPE peer of the strategies
          python3-yaml     # deploy/check-manifests.sh
          slurm-wlm munge  # the Slurm job array of workers test (a throwaway single-node cluster)
          tcl              # tclsh makes SQLite's amalgamation (examples/sqlite/fetch.sh)
          dpkg-dev)        # apt-get source unpacks with dpkg-source (examples/bzip2/fetch.sh)
# deploy/check-manifests.sh validates the Kubernetes manifest offline with kubectl; any kubectl
# will do (another package may provide it), so Debian's is installed only when none is there.
command -v kubectl >/dev/null || packages+=(kubernetes-client)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
