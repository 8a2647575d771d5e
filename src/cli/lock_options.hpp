// What the commands that act on a lock (verify, flags, review, retire) share: the --audit,
// --allowed-signers and --sign options, the judged standing, its warnings, the audit entries
// they write to the lock's log, and the answer to a tampered lock (exit 4, no flag of it used).
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>

#include "govern/audit_log.hpp"
#include "govern/lock_signature.hpp"
#include "govern/lock_standing.hpp"

namespace routetune::cli {

/// The exit code of a tampered lock.
inline constexpr int kExitTampered = 4;

/// The options of a command acting on a lock.
struct LockOptions {
    std::string audit;
    std::string allowed_signers;
    std::string sign;                  ///< only for commands that rewrite the lock
};

/// Adds --audit and --allowed-signers to command (and --sign when rewrites is true).
void add_lock_options(CLI::App& command, LockOptions& options, bool rewrites);

/// assess_lock of lock with options' audit log and allowed signers; environment as LockTrust says.
LockStanding judge_lock(const std::string& lock, const LockOptions& options, bool environment = true);

/// The signer of --sign (with --allowed-signers, UsageError without); nullopt without --sign.
std::optional<LockSigner> lock_signer(const LockOptions& options);

/// Prints standing's notes as warnings on stderr.
void print_notes(const LockStanding& standing);

/// Appends entry to standing's audit log (with this command's argv); warns on stderr when it
/// found and ended a torn last line.
void record(const LockStanding& standing, AuditEntry entry);

/// An audit entry of action on lock: the lock file's sha256 and the standing's differences and
/// tampering as evidence.
AuditEntry lock_entry(const std::string& action, const std::string& lock, const LockStanding& standing);

/// For a tampered lock: prints what differs on stderr, logs a "tampered" entry whose result is
/// result, and returns kExitTampered.
int answer_tampered(const LockStanding& standing, const std::string& lock, const std::string& result);

}  // namespace routetune::cli
