// The audit log: append-only JSON Lines, one entry per governed action (tune started or
// finished, promote proposed, refused or promoted, verify, fallback, review, gc). Each entry
// carries the sha256 of the line before it (prev_sha256, a hash chain) and the sha256 of its
// own content (sha256), so an edit of any entry, the last one included, is found.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace routetune {

/// prev_sha256 of the first entry of a log.
inline const std::string kAuditGenesis(64, '0');

/// One action, as written.
struct AuditEntry {
    std::string time;                  ///< ISO 8601 UTC
    std::string actor;                 ///< the user ($USER, else the account name)
    std::string host;
    std::vector<std::string> command;  ///< argv of the command that acted
    std::string action;                ///< "promote-refused", "fallback", ...
    std::string subject;               ///< the lock or store acted on
    nlohmann::json evidence = nlohmann::json::object();  ///< what was consulted (hashes, ids, differences)
    nlohmann::json proposed;           ///< what the system proposed (a route, a recommendation)
    std::string result;                ///< what was executed ("lock written", "refused", ...)
};

/// Where a command writes its audit entries, and with which argv.
struct AuditTarget {
    std::filesystem::path file;        ///< empty: the command's default (SUBJECT.audit.jsonl)
    std::vector<std::string> command;
};

/// subject + ".audit.jsonl" (beside a lock, or beside a store).
std::filesystem::path default_audit_path(const std::filesystem::path& subject);

/// An entry for action on subject, stamped with now, this user and host, and command.
AuditEntry make_audit_entry(std::string action, std::string subject, std::vector<std::string> command);

/// Appends entry to file (created when absent) as one line chained to the last one, every string
/// of it through the redaction filter (util/redaction.hpp) first; the read of
/// the last line and the write happen under an exclusive flock, with O_APPEND and fsync, so
/// concurrent writers never interleave or break the chain. Throws RuntimeFailure naming file.
void append_audit_entry(const std::filesystem::path& file, const AuditEntry& entry);

/// Appends entry to target.file, or to default_audit_path(subject) when that is empty.
void append_audit_entry(const AuditTarget& target, const std::filesystem::path& subject, AuditEntry entry);

/// The first entry that breaks the log, with why.
struct AuditBreak {
    std::size_t line = 0;              ///< 1-based line number
    std::string message;
};

/// Checks every line of text: canonical JSON with every field, its own sha256 matching its
/// content, its prev_sha256 matching the line before; nullopt when the chain is intact.
std::optional<AuditBreak> verify_audit_chain(const std::string& text);

/// The entries of text (lines that do not parse are skipped; verify first).
std::vector<nlohmann::json> parse_audit_lines(const std::string& text);

}  // namespace routetune
