#!/usr/bin/env bash
# Checks the folder dependency rule of docs/architecture.md from the #include lines: every
# quoted #include in src/ and include/routetune/ must name a folder the including folder may
# depend on. A public header include/routetune/X.hpp belongs to the folder that implements it
# (the table `owner` below); subfolders (store/sqlite, search/sim) belong to their parent.
# Prints each violation as FILE:LINE: FOLDER may not include HEADER (FOLDER) and exits 1.
# usage: scripts/check-layers.sh [SOURCE_DIR]   (default: the checkout holding this script)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

# What each folder may include besides itself (the architecture's one-way order).
declare -A allowed=(
    [util]=""
    [core]="util"
    [adapters]="core util"
    [routes]="core util"
    [search]="routes core util"
    [spec]="search adapters routes core util"
    [eval]="spec adapters routes core util"
    [store]="core util"
    [study]="eval store spec search adapters routes core util"
    [govern]="study eval store spec search adapters routes core util"
    [gpt]="study eval store spec search adapters routes core util"
    [report]="study eval store spec search adapters routes core util"
    [cli]="report gpt govern study eval store spec search adapters routes core util"
    [python]="report study eval store spec search adapters routes core util"
)

# The folder that implements each public header; error.hpp is allowed everywhere.
declare -A owner=(
    [error.hpp]=util
    [big_count.hpp]=core [knob.hpp]=core [catalog.hpp]=core [route.hpp]=core
    [status.hpp]=core [evaluation.hpp]=core [study.hpp]=core
    [timing.hpp]=core
    [expression.hpp]=routes [adapter.hpp]=adapters [strategy.hpp]=search [spec.hpp]=spec
)

folder_of() {  # sets from: src/a/b/c.cpp -> a; include/routetune/x.hpp -> its owner
    case "$1" in
        include/routetune/*) from=${owner[${1##*/}]:-unknown} ;;
        src/*/*) from=${1#src/}; from=${from%%/*} ;;
        *) from=unknown ;;
    esac
}

violations=0
while IFS= read -r match; do
    file=${match%%:*}
    rest=${match#*:}
    line=${rest%%:*}
    [[ ${rest#*:} =~ \"([^\"]+)\" ]] && header=${BASH_REMATCH[1]}
    folder_of "$file"
    case "$header" in
        routetune/*) to=${owner[${header#routetune/}]:-unknown} ;;
        */*) to=${header%%/*} ;;
        *) continue ;;  # a header beside the file (generated or local)
    esac
    if [[ $from == unknown || -z ${allowed[$from]+set} ]]; then
        echo "$file:$line: folder '$from' is not in scripts/check-layers.sh: add it to 'allowed'"
        violations=$((violations + 1))
    elif [[ $to == unknown ]]; then
        echo "$file:$line: $header has no owner folder in scripts/check-layers.sh: add it to 'owner'"
        violations=$((violations + 1))
    elif [[ $to != "$from" && " ${allowed[$from]} " != *" $to "* ]]; then
        echo "$file:$line: $from may not include $header ($to); $from may include: ${allowed[$from]:-nothing outside util}"
        violations=$((violations + 1))
    fi
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $(ls -d src include/routetune 2>/dev/null))

if ((violations > 0)); then
    echo "check-layers: $violations include(s) break the folder dependency rule (docs/architecture.md)"
    exit 1
fi
echo "check-layers: every #include follows the folder dependency rule"
