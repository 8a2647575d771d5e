#!/usr/bin/env bash
# Checks deploy/ offline, with no cluster and no API server (check-manifests.sh [MANIFEST]):
#  1. the Kubernetes manifest parses as YAML with the objects and fields routetune relies on
#     (Python's yaml: kinds, the workers Job's parallelism and command, no password in a URL);
#  2. kubectl (any version; KUBECONFIG=/dev/null, so nothing is contacted) decodes every object
#     into its typed API struct from kubectl's built-in scheme, and for each object with a pod
#     template (StatefulSet, Job) and the Service re-encodes it after an edit that only adds a
#     key (`kubectl set env --local` of one variable, `kubectl set selector --local` of the
#     Service's own selector plus one label): a kind or apiVersion kubectl does not know, a
#     value of the wrong type, or a field the API does not have (it is dropped by the round
#     trip, and every input field is looked for in the output) fails the check. The Secret is
#     only decoded (`kubectl set env --local --list`: no local command re-encodes a Secret),
#     and its top-level fields are compared with the v1 Secret's list here;
#  3. `kubectl kustomize` builds a kustomization of the manifest (names and kinds resolvable);
#  4. the shell scripts are checked with bash -n.
# Not checked (no server): defaulting, admission, server-side validation, quotas, images.
# Without kubectl: steps 2 and 3 are skipped, saying so, and the check exits 77 (ctest SKIP).
set -euo pipefail
manifest=$(realpath "${1:-$(dirname "$0")/kubernetes/routetune-study.yaml}")
cd "$(dirname "$0")"
bash -n slurm/routetune-workers.sbatch ssh/routetune-workers.sh
have_kubectl=1
command -v kubectl >/dev/null || have_kubectl=0
KUBECONFIG=/dev/null python3 - "$manifest" "$have_kubectl" <<'PY'
import json, os, subprocess, sys, tempfile, yaml

path, have_kubectl = sys.argv[1], sys.argv[2] == "1"
docs = [d for d in yaml.safe_load_all(open(path)) if d]
kinds = sorted(d["kind"] for d in docs)
assert kinds == ["Job", "Job", "Secret", "Service", "StatefulSet"], kinds
jobs = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Job"}
workers = jobs["routetune-workers"]["spec"]
assert workers["parallelism"] >= 2, workers
command = workers["template"]["spec"]["containers"][0]["command"]
assert command[:2] == ["routetune", "worker"] and "--store" in command, command
assert all("@" not in a or ":" not in a.split("@")[0].split("//")[-1] for a in command), "password in a URL"
print(f"{path}: {len(docs)} objects, workers parallelism {workers['parallelism']}")
if not have_kubectl:
    print("SKIPPED: kubectl is not installed (apt-get install kubernetes-client)")
    sys.exit(77)

def kubectl(*args):
    done = subprocess.run(["kubectl", *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{path}: kubectl {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout

def leaves(value, prefix=""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{prefix}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from leaves(item, f"{prefix}[{i}]")
    else:
        yield prefix, value

def additive_edit(doc, file):
    # kubectl prints nothing for an edit that changes nothing: add one key, keep every other.
    if doc["kind"] == "Service":
        selector = ",".join(f"{k}={v}" for k, v in {**doc["spec"]["selector"], "routetune-check": "1"}.items())
        return ["set", "selector", "--local", "-f", file, "-o", "json", selector]
    return ["set", "env", "--local", "-f", file, "-o", "json", "ROUTETUNE_MANIFEST_CHECK=1"]

with tempfile.TemporaryDirectory() as folder:
    for i, doc in enumerate(docs):
        name = f"{doc['kind']}/{doc['metadata']['name']}"
        file = os.path.join(folder, f"{i}.yaml")
        with open(file, "w") as out:
            yaml.safe_dump(doc, out)
        if doc["kind"] == "Secret":
            unknown = set(doc) - {"apiVersion", "kind", "metadata", "type", "data", "stringData", "immutable"}
            if unknown:
                sys.exit(f"{path}: {name}: field {sorted(unknown)[0]} is not in the v1 Secret API")
            done = subprocess.run(["kubectl", "set", "env", "--local", "-f", file, "--list"], capture_output=True, text=True)
            if done.returncode != 0 or "unable to decode" in done.stderr:
                sys.exit(f"{path}: {name}: kubectl does not decode it as a v1 Secret: {done.stderr.strip()}")
            print(f"  {name}: decoded as v1.Secret")
            continue
        typed = dict(leaves(json.loads(kubectl(*additive_edit(doc, file)))))
        for field, value in leaves(doc):
            if field not in typed:
                sys.exit(f"{path}: {name}: field {field.lstrip('.')} is not in the {doc['apiVersion']} {doc['kind']} API")
            if str(typed[field]) != str(value):
                sys.exit(f"{path}: {name}: {field.lstrip('.')} is {value!r}, kubectl reads {typed[field]!r}")
        print(f"  {name}: every field decoded and re-encoded by kubectl unchanged")
    with open(os.path.join(folder, "kustomization.yaml"), "w") as out:
        out.write("resources:\n" + "".join(f"- {i}.yaml\n" for i in range(len(docs))))
    built = [d for d in yaml.safe_load_all(kubectl("kustomize", folder)) if d]
    assert sorted(d["kind"] for d in built) == kinds, built
    print(f"  kubectl kustomize: {len(built)} objects")
PY
