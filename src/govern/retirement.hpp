// Retiring a lock: the shutdown path. The lock stays where it is with all its evidence, marked
// retired (when, by whom, why); flags then give the default route. The retired lock is sealed
// again, anchored at the "retired" audit entry, so un-retiring it by hand is tampering.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "govern/lock.hpp"
#include "govern/lock_signature.hpp"
#include "govern/lock_standing.hpp"

namespace routetune {

/// What retire was asked.
struct RetireRequest {
    std::string reason;                  ///< required, not blank
    std::vector<std::string> command;    ///< argv for the audit entry
    std::optional<LockSigner> signer;    ///< signs the retired lock (required when it was signed)
};

/// Retires the lock standing judged (assess_lock without the environment): UsageError when it is
/// unreadable, already retired, signed with no signer given, or the reason is blank; the caller
/// handles a tampered lock (exit 4). Returns the retired lock as written.
Lock retire_lock(const LockStanding& standing, const std::filesystem::path& lock_file, const RetireRequest& request);

}  // namespace routetune
