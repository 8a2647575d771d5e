// A lock's seal: lock_sha256 over its canonical content, the audit entry that wrote it as its
// anchor (that entry records the hash of the lock's body), and an optional ssh signature of the
// content. Sealing happens after the anchoring entry is appended; checking reads only the lock,
// the anchoring entry and the line before it (two short reads at known offsets, whatever the
// log's length), and the signature through ssh-keygen when allowed signers are given.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "govern/audit_log.hpp"
#include "govern/lock.hpp"
#include "govern/lock_signature.hpp"
#include "govern/environment_differences.hpp"

namespace routetune {

/// The actions whose entries may anchor a lock (they write it).
inline const std::vector<std::string> kLockWritingActions{"promoted", "review", "retired"};

/// sha256 of lock_body_text: what the entry that writes lock records as evidence.lock_body_sha256.
std::string lock_body_sha256(const Lock& lock);

/// Sets lock's audit_anchor to the entry at written (its log relative to lock_file), then
/// lock_sha256 over the content and, with signer, the signature (lock.signer must already be
/// signer's principal, since the signature covers it).
void seal_lock(Lock& lock, const AuditAppend& written, const std::filesystem::path& lock_file, const LockSigner* signer);

/// The audit log a lock's entries go to: audit when given, else the log its anchor names, else
/// LOCK.audit.jsonl.
std::filesystem::path lock_audit_log(const nlohmann::json& lock, const std::filesystem::path& lock_file,
                                     const std::filesystem::path& audit);

/// What a seal check found.
struct SealCheck {
    std::vector<Difference> tampering;   ///< fields "lock_sha256", "signature", "audit_anchor", "audit.lock_body_sha256"
    std::vector<std::string> notes;      ///< e.g. a signature not checked, a torn last line in the log
    std::string signer;                  ///< the principal whose signature was verified
};

/// Checks the seal of lock (its JSON as read from lock_file) against the audit log at log and,
/// when allowed_signers is not empty, its signature. Never throws for a tampered lock or a
/// missing log (those are findings); UsageError for a log that is a link or not a regular file.
SealCheck check_seal(const nlohmann::json& lock, const std::filesystem::path& log,
                     const std::filesystem::path& allowed_signers);

}  // namespace routetune
