// Review after use: the promoted evidence against the route's behaviour now. A changed
// environment recommends re-tuning; a failing case (with rerun) or a gain that is gone
// recommends retiring; a gain still there but no longer confirmed recommends re-tuning; a
// confirmed gain keeps the route and moves the review date forward.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "govern/audit_log.hpp"
#include "govern/lock.hpp"
#include "govern/verification.hpp"

namespace routetune {

/// What a review concluded.
struct ReviewResult {
    std::string recommendation;          ///< "keep", "re-tune", "retire"
    std::vector<std::string> reasons;
    std::vector<Difference> differences;
    std::string review_by;               ///< the (moved, when kept) review date
    std::optional<RegressionOutcome> run;
};

/// Reviews the lock at lock_file: its store must still exist (UsageError naming both
/// otherwise); with rerun the regression set runs too. The lock is rewritten with the review
/// (and, when kept, the next review date); an audit entry records it.
ReviewResult review_lock(const std::filesystem::path& lock_file, bool rerun, const AuditTarget& audit);

}  // namespace routetune
