// Review after use: the promoted evidence against the route's behaviour now. A changed
// environment recommends re-tuning; a failing case (with rerun) or a gain that is gone
// recommends retiring; a gain still there but no longer confirmed recommends re-tuning; a
// confirmed gain keeps the route and moves the review date forward. The rewritten lock is sealed
// again, anchored at the review's audit entry (and signed again when it was signed).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "govern/audit_log.hpp"
#include "govern/lock.hpp"
#include "govern/lock_signature.hpp"
#include "govern/lock_standing.hpp"
#include "govern/override_rate.hpp"
#include "govern/verification.hpp"

namespace routetune {

/// What a review concluded.
struct ReviewResult {
    std::string recommendation;          ///< "keep", "re-tune", "retire"
    std::vector<std::string> reasons;
    std::vector<Difference> differences;
    std::string review_by;               ///< the (moved, when kept) review date
    std::optional<RegressionOutcome> run;
    OverrideRate overrides;              ///< over the lock's audit log, this review's log included
};

/// How a review runs.
struct ReviewOptions {
    bool rerun = false;                  ///< also the regression set
    std::vector<std::string> command;    ///< argv for the audit entry
    std::optional<LockSigner> signer;    ///< signs the rewritten lock (required when it was signed)
};

/// Reviews the lock standing judged (Usable or Stale; the caller handles the other states): its
/// store must still exist (UsageError naming both otherwise), a signed lock needs a signer
/// (UsageError before anything runs); with rerun the regression set runs too. The lock is
/// rewritten with the review (and, when kept, the next review date), anchored at the "review"
/// entry of its audit log.
ReviewResult review_lock(const LockStanding& standing, const std::filesystem::path& lock_file,
                         const ReviewOptions& options);

}  // namespace routetune
