// Verification: is a lock still true here? The environment now (the compiler the build would
// run, CPU, OS, GPU where the lock recorded one, the spec, every case's input and reference,
// every file of [build] inputs, the locked artifact where present) against the fingerprint and
// hashes in the lock; with a rerun, also the regression set and
// the A/B on fresh builds.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/fingerprint.hpp"
#include "govern/environment_differences.hpp"
#include "govern/lock.hpp"
#include "govern/regression_run.hpp"

namespace routetune {

struct LockStanding;

/// What verification concludes about a lock.
enum class LockVerdict {
    Valid,      ///< intact, in force, proven here (and with a rerun, still correct and faster)
    ReviewDue,  ///< valid, but its review date has passed
    Stale,      ///< the environment differs from the lock's
    Regressed,  ///< a rerun found a failing case or no confirmed gain
    Tampered,   ///< the seal does not match
    Retired,    ///< intact and retired
};

/// The verdict's name in output, JSON and audit entries: "valid", "review-due", "stale",
/// "regressed", "tampered", "retired".
std::string_view to_string(LockVerdict verdict);

/// The verdict on a lock.
struct Verification {
    LockVerdict verdict = LockVerdict::Valid;
    std::vector<Difference> differences;     ///< when stale
    std::vector<Difference> tampering;       ///< when tampered
    std::vector<std::string> warnings;       ///< e.g. the review date has passed
    std::optional<RegressionOutcome> rerun;  ///< with rerun
};

/// Verifies the lock standing judged (assess_lock of lock_file): tampered, retired or stale as it
/// says (nothing is rerun then); else regressed when rerun finds a failing case or no confirmed
/// gain; else review-due past the review date; else valid. standing must be readable()
/// (std::logic_error otherwise).
Verification verify_lock(const LockStanding& standing, const std::filesystem::path& lock_file, bool rerun);

/// Runs lock's route through the regression set and the A/B, building in a scratch folder that
/// is removed afterwards.
RegressionOutcome rerun_lock(const Lock& lock, const std::filesystem::path& lock_file, const RegressionOptions& options);

/// The verification as JSON: verdict, lock, route, differences and tampering [{field, locked,
/// current}], warnings, retired (when retired), and (after a rerun) failures and the fresh speedup.
std::string verification_json(const Verification& verification, const LockStanding& standing,
                              const std::filesystem::path& lock_file);

}  // namespace routetune
