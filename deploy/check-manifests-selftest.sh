#!/usr/bin/env bash
# Shows that check-manifests.sh can fail: each mistake below, made in a copy of the manifest,
# must be refused (exit 1) with a message naming it. Exit 77 (skip) without kubectl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v kubectl >/dev/null || { echo "SKIPPED: kubectl is not installed"; exit 77; }
copy=$(mktemp /tmp/routetune-manifest-XXXXXX.yaml)
trap 'rm -f "$copy"' EXIT
failures=0
refused() {  # SED_EXPRESSION EXPECTED_MESSAGE
    sed "$1" "$here/kubernetes/routetune-study.yaml" >"$copy"
    if cmp -s "$copy" "$here/kubernetes/routetune-study.yaml"; then echo "FAIL: '$1' changed nothing"; failures=1; return; fi
    local out rc=0
    out=$(bash "$here/check-manifests.sh" "$copy" 2>&1) || rc=$?
    if [ "$rc" = 1 ] && grep -q -- "$2" <<<"$out"; then echo "refused as expected: $1"; return; fi
    echo "FAIL: '$1' gave exit $rc without '$2':"; echo "$out"; failures=1
}
refused 's/backoffLimit/backofLimit/' 'field spec.backofLimit is not in the batch/v1 Job API'
refused 's/mountPath:/mountpath:/' 'volumeMounts\[0\].mountpath is not in the apps/v1 StatefulSet API'
refused 's/replicas: 1/replicas: one/' 'cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas'
refused 's|^apiVersion: batch/v1|apiVersion: apps/v1|' 'no kind "Job" is registered for version "apps/v1"'
refused 's/^    - port: 5432/    - port: "x"/' 'ServicePort.spec.ports.port of type int32'
refused 's/stringData:/stringdata:/' 'field stringdata is not in the v1 Secret API'
exit $failures
