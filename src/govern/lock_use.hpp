// Whether a lock's route may be used here, and when not, why: the one decision behind `flags
// LOCK` (and so every build recipe), `verify` and `review`. Each reason a lock cannot be used is a kind of
// refusal with its own exit code and audit word, so a new reason (a tampered lock) is one more
// kind here, not one more branch in each command.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/fingerprint.hpp"
#include "govern/lock.hpp"
#include "govern/verification.hpp"

namespace routetune {

/// Why a lock's route cannot be used.
enum class LockRefusal {
    None,        ///< usable: its route was proven in this environment
    Missing,     ///< no file at the lock's path
    Unreadable,  ///< a file that cannot be read or is not a lock this routetune reads
    Stale,       ///< the environment, the spec, an input or the artifact differs from the lock's
};

/// The decision on one lock.
struct LockUse {
    LockRefusal refusal = LockRefusal::None;
    std::optional<Lock> lock;             ///< the lock, whenever it could be read
    std::vector<Difference> differences;  ///< when stale
    std::vector<std::string> notes;       ///< what differs without mattering (another routetune version)
    std::string why;                      ///< one line naming the lock and what is wrong; empty when usable
};

/// Decides whether the lock at lock_file can be used here, reading the machine through probe;
/// never throws for a missing, unreadable or stale lock (those are refusals).
LockUse judge_lock_use(const std::filesystem::path& lock_file, SystemProbe& probe);

/// use's lock, for a command that judges a readable lock itself (verify, review); throws
/// UsageError (exit 2) with use.why when the lock is missing or unreadable.
const Lock& readable_lock(const LockUse& use);

/// The exit code of a refusal when no fallback was asked for: 2 missing or unreadable, 3 stale.
int refusal_exit_code(LockRefusal refusal);

/// "usable", "missing", "unreadable", "stale": the word audit entries and JSON use.
std::string_view to_string(LockRefusal refusal);

}  // namespace routetune
