// Promotion: from a study's evidence to a lock. The route (the study's confirmed winner, or one
// the study evaluated as ok) and the default are built afresh and put through the regression
// set and an interleaved A/B (RegressionRun); only when every case passes and the gain is
// confirmed is the lock written, atomically, and registered beside the store; the "promoted"
// audit entry is written just before the lock and becomes its anchor. A study in
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
    std::optional<std::string> owner;  ///< absent: the signer, else the real uid's account (lock_owner)
    std::filesystem::path sign_key;    ///< empty: unsigned
    std::filesystem::path allowed_signers;  ///< names the signing key's principal (required with sign_key)
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

/// Promotes as request says; throws UsageError (exit 2), before anything is built, for a missing
/// store or lock path, a lock path that is not new and not a lock (a link, a device, the spec, any
/// other file), a malformed lock registry, a spec changed since the study, a route the study never
/// evaluated or evaluated as failing, a study without a confirmed winner when no route is given,
/// an empty --owner or no identity, or a key that allowed_signers does not name. A promotion that
/// fails after the regression run leaves no lock (and logs promote-failed).
PromoteResult promote(const PromoteRequest& request);

}  // namespace routetune
