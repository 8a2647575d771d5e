// Retention for a study store: removes artifacts (their scratch folders) and, with logs, the
// build-log and stderr tails, keeping every hash, status, loss, timing and the confirmation.
// An artifact a lock names (a lock in the store's registry) is never removed, whatever --keep
// says.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "govern/audit_log.hpp"

namespace routetune {

/// What gc keeps and drops.
struct GcOptions {
    std::set<std::string> keep{"winner", "default", "locked"};  ///< of winner, default, locked
    std::optional<double> older_than_s;  ///< only evaluations finished at least this long ago
    bool logs = false;                   ///< also clear log tails
    AuditTarget audit;                   ///< file empty: STORE.audit.jsonl
};

/// What gc did.
struct GcReport {
    std::size_t artifacts_removed = 0;
    std::uintmax_t bytes_freed = 0;
    std::size_t logs_cleared = 0;
    std::size_t paths_cleared = 0;       ///< rows whose artifact folder was already gone, cleared
    std::vector<std::string> kept;       ///< "route (why)" for each artifact kept
    std::vector<std::string> notes;      ///< e.g. a registered lock that is gone
};

/// The --keep list "winner,default,locked" as a set; UsageError naming a bad item.
std::set<std::string> parse_keep_list(const std::string& text);

/// Collects garbage in the store at store as options say, first completing the plan of a gc
/// that did not finish (its journal); UsageError when there is no store.
GcReport collect_garbage(const std::filesystem::path& store, const GcOptions& options);

}  // namespace routetune
