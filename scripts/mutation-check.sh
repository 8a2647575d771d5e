#!/usr/bin/env bash
# The mutation check: breaks routetune's core rules on purpose, one at a time, and makes sure a
# test fails each time. The mutants are hand-written (tests/mutants/mutants.tsv: the file, the
# exact original text, its replacement, the targets and the ctest -R regex of the tests that must
# kill it, and what the mutant breaks). Each is applied to a copy of the working tree (its
# tracked and untracked, not ignored, files: build-mutation/tree, with its own build folder, so
# the checkout is never touched), the copy is rebuilt incrementally (ccache), the tests run, and
# the file is restored. A mutant is killed when a test fails; it survived when every test
# passed. Before the first mutant, each regex runs once on the unmutated copy: a test that
# fails without a mutant proves nothing, and the check stops there.
#
#   scripts/mutation-check.sh                 every mutant against its own regex
#   scripts/mutation-check.sh --full          every mutant against the whole ctest suite
#   scripts/mutation-check.sh --only a,b      only the mutants with these ids
#   scripts/mutation-check.sh --check-list    only check that every original text is found
#                                             exactly once in the checkout (no build, no copy)
#   options: --list FILE, --workdir DIR (default build-mutation), --jobs N (default nproc),
#            --no-baseline (skip the unmutated run)
#
# Results: one line per mutant in WORKDIR/results.tsv (id, result, seconds, tests run, the
# failing tests). Exit 0 when every mutant was killed; 1 when one survived, did not apply or did
# not build; 2 for bad usage or a baseline that fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
list=$root/tests/mutants/mutants.tsv
workdir=$root/build-mutation
full=0
only=""
check_only=0
baseline=1
jobs=$(nproc)
while (($#)); do
  case $1 in
    --full) full=1 ;;
    --only) only=$2; shift ;;
    --list) list=$2; shift ;;
    --workdir) workdir=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --check-list) check_only=1 ;;
    --no-baseline) baseline=0 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "mutation-check: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[[ -f $list ]] || { echo "mutation-check: no mutant list at $list" >&2; exit 2; }

# mutant TREE ACTION ID: the list's one editor. check: the original of every mutant (or of ID)
# occurs exactly once in its file under TREE; apply: ID's original becomes its replacement.
# fields ID: the mutant's targets, regex, description and file, one per line.
mutant() {
  python3 - "$list" "$@" <<'PY'
import sys
list_file, tree, action = sys.argv[1], sys.argv[2], sys.argv[3]
wanted = sys.argv[4] if len(sys.argv) > 4 else None
def unescape(text):
    return text.replace("\\n", "\n").replace("\\t", "\t")
mutants = []
for number, line in enumerate(open(list_file, encoding="utf-8"), 1):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    fields = line.split("\t")
    if len(fields) != 7:
        sys.exit(f"{list_file}:{number}: {len(fields)} fields, expected 7 (id, file, original, replacement, targets, tests, description)")
    mutants.append(dict(zip(["id", "file", "original", "replacement", "targets", "tests", "description"], fields), line=number))
ids = [m["id"] for m in mutants]
if len(set(ids)) != len(ids):
    sys.exit(f"{list_file}: an id is listed twice")
if action == "ids":
    print("\n".join(ids))
    sys.exit(0)
selected = [m for m in mutants if wanted is None or m["id"] == wanted]
if not selected:
    sys.exit(f"{list_file}: no mutant {wanted}")
if action == "fields":
    m = selected[0]
    print(m["targets"]); print(m["tests"]); print(m["description"]); print(m["file"])
    sys.exit(0)
problems = 0
for m in selected:
    path = f"{tree}/{m['file']}"
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        print(f"{list_file}:{m['line']}: {m['id']}: {e}", file=sys.stderr); problems += 1; continue
    original, replacement = unescape(m["original"]), unescape(m["replacement"])
    count = text.count(original) if original else 0
    if count != 1:
        print(f"{list_file}:{m['line']}: {m['id']}: the original text occurs {count} times in {m['file']}, "
              "not once: the mutant no longer applies", file=sys.stderr)
        problems += 1
        continue
    if action == "apply":
        open(path, "w", encoding="utf-8").write(text.replace(original, replacement))
sys.exit(1 if problems else 0)
PY
}

if ((check_only)); then
  mutant "$root" check && echo "mutation-check: every mutant of $(basename "$list") applies to $root"
  exit
fi

tree=$workdir/tree
build=$tree/build
mkdir -p "$tree"
# The copy: tracked and untracked (not ignored) files, their times kept, so an unchanged file
# is not rebuilt.
git -C "$root" ls-files -z -co --exclude-standard | tar -C "$root" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$tree" -xpf -
mutant "$tree" check || { echo "mutation-check: fix the mutant list first" >&2; exit 1; }

options=(-DCMAKE_BUILD_TYPE=Release -DROUTETUNE_BUILD_TESTS=ON -DROUTETUNE_BUILD_BENCH=OFF)
command -v ccache >/dev/null && options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$tree" -B "$build" "${options[@]}" >/dev/null

mapfile -t ids < <(mutant "$tree" ids)
if [[ -n $only ]]; then
  IFS=, read -r -a ids <<<"$only"
fi

targets_of() { mutant "$tree" fields "$1" | sed -n 1p; }
file_of() { mutant "$tree" fields "$1" | sed -n 4p; }
tests_of() { if ((full)); then echo ""; else mutant "$tree" fields "$1" | sed -n 2p; fi; }

build_targets() {  # build_targets TARGET...: routetune and TARGETs (everything with --full)
  if ((full)); then cmake --build "$build" -j"$jobs" >"$workdir/build.log" 2>&1
  else cmake --build "$build" -j"$jobs" --target routetune "$@" >"$workdir/build.log" 2>&1; fi
}

run_tests() {  # run_tests REGEX: ctest's output in $workdir/ctest.log; its status
  local regex=$1 args=(--no-tests=error -j"$jobs")
  [[ -n $regex ]] && args+=(-R "$regex")
  (cd "$build" && ctest "${args[@]}") >"$workdir/ctest.log" 2>&1
}

failed_tests() { sed -n '/The following tests FAILED:/,$p' "$workdir/ctest.log" | grep -oE '[0-9]+ - [^ ]+' | sed 's/^[0-9]* - //' | tr '\n' ' '; }

if ((baseline)); then
  all_targets=()
  for id in "${ids[@]}"; do read -r -a t <<<"$(targets_of "$id")"; all_targets+=("${t[@]}"); done
  echo "mutation-check: building the unmutated copy in $build"
  build_targets "${all_targets[@]}" || { echo "mutation-check: the unmutated copy does not build ($workdir/build.log)" >&2; exit 2; }
  declare -A seen=()
  for id in "${ids[@]}"; do
    regex=$(tests_of "$id")
    [[ -n ${seen[$regex]:-} ]] && continue
    seen[$regex]=1
    if ! run_tests "$regex"; then
      echo "mutation-check: without any mutant, ctest -R '$regex' fails: $(failed_tests)($workdir/ctest.log)" >&2
      exit 2
    fi
  done
  echo "mutation-check: the unmutated copy passes every regex"
fi

results=$workdir/results.tsv
printf 'id\tresult\tseconds\ttests\tfailed\n' >"$results"
survivors=0
for id in "${ids[@]}"; do
  start=$(date +%s)
  read -r -a targets <<<"$(targets_of "$id")"
  regex=$(tests_of "$id")
  failed=""
  file=$tree/$(file_of "$id")
  # Restored by content with a new time, so the next build compiles the original again.
  [[ -f $file ]] && cp "$file" "$workdir/saved"
  if ! mutant "$tree" apply "$id"; then
    result=not-applied
  elif ! build_targets "${targets[@]}"; then
    result=build-failed
    cp "$workdir/build.log" "$workdir/$id.build.log"
  elif run_tests "$regex"; then
    result=survived
  elif grep -q "No tests were found" "$workdir/ctest.log"; then
    result=no-tests
  else
    result=killed
    failed=$(failed_tests)
  fi
  [[ $result == not-applied ]] || cat "$workdir/saved" >"$file"
  seconds=$(($(date +%s) - start))
  printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$result" "$seconds" "${regex:-(all)}" "$failed" >>"$results"
  printf 'mutation-check: %-36s %-12s %4ss  %s\n' "$id" "$result" "$seconds" "$failed"
  [[ $result == killed ]] || survivors=$((survivors + 1))
done
# The copy's build again as the checkout's (the last mutated file was restored after its build),
# every target a mutant built included: a later run's copy gets the files' old times back, so
# a target built from a mutated file and not rebuilt here would look up to date with it.
final_targets=()
for id in "${ids[@]}"; do read -r -a t <<<"$(targets_of "$id")"; final_targets+=("${t[@]}"); done
build_targets "${final_targets[@]}" >/dev/null 2>&1 || true
echo "mutation-check: $((${#ids[@]} - survivors)) of ${#ids[@]} mutants killed; results in $results"
((survivors == 0))
