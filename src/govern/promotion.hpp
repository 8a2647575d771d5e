// Promotion: from a study's evidence to a lock. The route (the study's confirmed winner, or one
// the study evaluated as ok) and the default are built afresh and put through the regression
// set and an interleaved A/B (RegressionRun); only when every case passes and the gain is
// confirmed is the lock written, atomically, and registered beside the store. A study in
// PostgreSQL is read the same way; its local files (the fresh builds, the locked artifact and
// the lock registry) go where a local study of that name would keep them, beside the spec.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "govern/audit_log.hpp"
#include "govern/lock.hpp"
#include "store/store_location.hpp"

namespace routetune {

/// What promote was asked.
struct PromoteRequest {
    StoreLocation store;               ///< an SQLite file, or a postgresql:// URL and study name
    std::optional<std::string> route;  ///< absent: the study's confirmed winner
    std::filesystem::path lock;
    std::string owner;                 ///< empty: the current user
    std::string reason;
    int review_after_days = 90;
    AuditTarget audit;                 ///< file empty: LOCK.audit.jsonl
};

/// What promote did.
struct PromoteResult {
    bool promoted = false;
    std::string route;
    std::vector<std::string> failures;  ///< why it was refused (empty when promoted)
    Lock lock;                          ///< the lock written (when promoted)
};

/// Promotes as request says; throws UsageError (exit 2) for a missing store or lock path, a
/// spec changed since the study, a route the study never evaluated or evaluated as failing, or
/// a study without a confirmed winner when no route is given.
PromoteResult promote(const PromoteRequest& request);

}  // namespace routetune
