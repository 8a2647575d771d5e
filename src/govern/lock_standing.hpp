// Is this lock usable here, and if not, why: the one decision that verify, flags, review and
// retire share. In order: the lock is read (bounded, a regular file), its seal is checked
// (content hash, signature, audit anchor) before anything it names is run or trusted, a retired
// lock stops there, and only then is the environment compared with its fingerprint (which runs
// the compiler the lock recorded).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "govern/lock.hpp"
#include "govern/environment_differences.hpp"

namespace routetune {

/// What a lock is worth here.
enum class LockState {
    Usable,      ///< intact, in force, proven in this environment: its flags apply
    Retired,     ///< intact and retired: the default route applies
    Stale,       ///< intact, but the environment differs: the default route, or exit 3
    Tampered,    ///< content, signature or audit record do not match: exit 4, its flags never apply
    Unreadable,  ///< not a regular file, too large, not a lock, another schema: exit 2
    Missing,     ///< no file at the lock's path (a removed lock): exit 2
};

/// "valid", "retired", "stale", "tampered", "unreadable", "missing".
std::string to_string(LockState state);

/// What a check may trust beyond the lock.
struct LockTrust {
    std::filesystem::path audit;            ///< the audit log (empty: the one the lock names)
    std::filesystem::path allowed_signers;  ///< empty: the signature is not checked
    bool environment = true;                ///< compare the environment (false: a retire, which needs no proof)
};

/// The decision on one lock.
struct LockStanding {
    LockState state = LockState::Unreadable;
    std::string problem;                    ///< Unreadable or Missing: why
    std::optional<Lock> lock;               ///< as read (when it converts); Tampered: for messages only
    std::vector<Difference> tampering;      ///< Tampered: what differs
    std::vector<Difference> differences;    ///< Stale: what differs
    std::vector<std::string> notes;         ///< warnings: an unchecked signature, a torn log line, a version
    std::string signer;                     ///< the principal whose signature was verified ("" none)
    std::filesystem::path audit_log;        ///< where entries about this lock go (tampered: LOCK.audit.jsonl unless --audit)

    /// True when the lock's own route applies.
    bool usable() const { return state == LockState::Usable; }
    /// True when there was a lock file to read (any state but Unreadable and Missing).
    bool readable() const { return state != LockState::Unreadable && state != LockState::Missing; }
};

/// Decides on the lock at lock_file as the header says. Never throws for a lock that is
/// missing, unreadable or tampered (those are states); UsageError for an audit log that is a
/// link or not a regular file.
LockStanding assess_lock(const std::filesystem::path& lock_file, const LockTrust& trust);

/// The tampered lock's findings, one indented line each ("  field: locked 'a', current 'b'").
std::string tampering_text(const LockStanding& standing);

/// The spec whose default route replaces a lock that cannot be used: the one the lock names; for
/// a tampered lock only when it lies in the lock's own folder tree (UsageError otherwise), since
/// a forged lock could name any spec.
std::filesystem::path fallback_spec(const LockStanding& standing, const std::filesystem::path& lock_file);

}  // namespace routetune
