#!/usr/bin/env bash
# Checks that no backend of the study store is named outside src/store/ (docs/architecture.md):
# callers ask StoreLocation (is_file, shares_work, for_records) and StudyStore, and only the
# opener (src/store/study_store.cpp) picks a backend. The scale-out work queue
# (store/postgres/work_queue.hpp) is the one backend header callers may include: it is what a
# shared store's workers claim from. Prints each offending line as FILE:LINE: TEXT and exits 1.
# usage: scripts/check-store-boundary.sh [SOURCE_DIR]   (default: the checkout holding this script)
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
pattern='is_postgres|PgStudyStore|SqliteStudyStore|PgConnection|SqliteDb|store/sqlite/|store/postgres/'
found=$(grep -rnE "$pattern" src include --include='*.cpp' --include='*.hpp' 2>/dev/null |
        grep -v '^src/store/' | grep -v '#include "store/postgres/work_queue.hpp"' || true)
if [[ -n $found ]]; then
    printf '%s\n' "$found"
    echo "check-store-boundary: a store backend is named outside src/store/ (ask StoreLocation or StudyStore instead)"
    exit 1
fi
echo "check-store-boundary: no backend named outside src/store/"
