// The audit log: append-only JSON Lines, one entry per governed action (tune started or
// finished, promote proposed, refused or promoted, verify, fallback, review, gc). Each entry
// carries the sha256 of the line before it (prev_sha256, a hash chain) and the sha256 of its
// own content (sha256), so an edit of any entry, the last one included, is found. The file
// itself is opened and read through AuditFile (govern/audit_file.hpp).
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
    std::string actor;                 ///< who acted: the real uid's account, or a signer's principal
    std::string actor_claim;           ///< $USER when it names someone else ("" otherwise; written only when set)
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

/// An entry for action on subject, stamped with now, this process's actor (current_actor) and
/// host, and command.
AuditEntry make_audit_entry(std::string action, std::string subject, std::vector<std::string> command);

/// Where an appended entry went.
struct AuditAppend {
    std::filesystem::path file;
    std::uint64_t offset = 0;          ///< the byte where its line starts
    std::string sha256;                ///< its own sha256
    std::optional<std::uint64_t> torn_offset;  ///< a torn last line found and ended before it: where it starts
    std::uint64_t torn_bytes = 0;
};

/// Appends entry to file (created when absent; a link or non-regular file is refused) as one line
/// chained to the last one, every string of it through the redaction filter (util/redaction.hpp)
/// first; the read of the last line and the write happen under an exclusive
/// flock, with O_APPEND and fsync, so concurrent writers never interleave or break the chain. A
/// torn last line (no newline) is ended first, the entry chains to it as it is and names it in
/// its evidence (audit_torn_line), and the break stays visible to verify_audit_chain. Throws
/// RuntimeFailure naming file.
AuditAppend append_audit_entry(const std::filesystem::path& file, const AuditEntry& entry);

/// The log a command writes to: target.file, or default_audit_path(subject) when that is empty.
std::filesystem::path audit_path(const AuditTarget& target, const std::filesystem::path& subject);

/// Appends entry to audit_path(target, subject), with target.command when entry has none.
AuditAppend append_audit_entry(const AuditTarget& target, const std::filesystem::path& subject, AuditEntry entry);

/// The entry one line holds, checked: canonical JSON with every field, its own sha256 matching
/// its content; nullopt with *why set otherwise.
std::optional<nlohmann::json> parse_audit_entry(const std::string& line, std::string* why);

/// The first entry that breaks the log, with why.
struct AuditBreak {
    std::size_t line = 0;              ///< 1-based line number
    std::string message;
};

/// Checks every line of text with parse_audit_entry and its prev_sha256 against the line before;
/// nullopt when the chain is intact, else the first line that breaks it (a torn line says so).
std::optional<AuditBreak> verify_audit_chain(const std::string& text);

/// The entries of text (lines that do not parse are skipped; verify first).
std::vector<nlohmann::json> parse_audit_lines(const std::string& text);

}  // namespace routetune
