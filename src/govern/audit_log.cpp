// Every string of an entry passes the redaction filter before it is hashed and written, so a
// secret never enters the chain (where removing it later would break it). An entry is
// serialised by nlohmann (keys sorted, no whitespace), which is its canonical form:
// sha256 is the hash of that form without the sha256 key, and the written line is the form with
// it. Appending opens the file O_APPEND (never through a link), takes flock(LOCK_EX), reads the
// last line backwards from the end through the same descriptor to chain to it, writes the new
// line with one write() and fsyncs before unlocking; a reader never sees half a line from a
// writer that finished. A torn last line (a writer killed mid-write, or a log cut inside a
// line) gets its newline in that same write, so the new entry never merges into it.
#include "govern/audit_log.hpp"

#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "govern/actor_identity.hpp"
#include "govern/audit_file.hpp"
#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/redaction.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kFields{"time", "actor", "host", "command", "action", "subject",
                                       "evidence", "proposed", "result", "prev_sha256", "sha256"};
const std::vector<std::string> kOptionalFields{"actor_claim"};

std::string current_host() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "unknown";
    return name;
}

// value with every string in it (argv, reasons, messages, environment values) through the
// redaction filter.
nlohmann::json redacted(nlohmann::json value) {
    if (value.is_string()) return redact_secrets(value.get<std::string>());
    if (value.is_array() || value.is_object())
        for (auto& item : value) item = redacted(std::move(item));
    return value;
}

nlohmann::json to_json(const AuditEntry& entry) {
    nlohmann::json object{{"time", entry.time},         {"actor", entry.actor},     {"host", entry.host},
                          {"command", entry.command},   {"action", entry.action},   {"subject", entry.subject},
                          {"evidence", entry.evidence}, {"proposed", entry.proposed}, {"result", entry.result}};
    if (!entry.actor_claim.empty()) object["actor_claim"] = entry.actor_claim;
    return object;
}

std::string os_error(const fs::path& file, const char* what) {
    return "audit log " + file.string() + ": " + what + ": " + std::strerror(errno);
}

}  // namespace

fs::path default_audit_path(const fs::path& subject) { return fs::path(subject.string() + ".audit.jsonl"); }

AuditEntry make_audit_entry(std::string action, std::string subject, std::vector<std::string> command) {
    AuditEntry entry;
    ActorIdentity actor = current_actor();
    entry.time = iso8601_utc_now();
    entry.actor = actor.name;
    entry.actor_claim = actor.claim;
    entry.host = current_host();
    entry.command = std::move(command);
    entry.action = std::move(action);
    entry.subject = std::move(subject);
    return entry;
}

AuditAppend append_audit_entry(const fs::path& file, const AuditEntry& entry) {
    AuditFile log = AuditFile::open_to_append(file);
    if (flock(log.fd(), LOCK_EX) != 0) throw RuntimeFailure(os_error(file, "cannot lock"));
    AuditAppend where{file};
    std::optional<AuditLine> previous = log.last_line();
    nlohmann::json object = redacted(to_json(entry));
    std::string line;
    if (previous && !previous->complete) {
        where.torn_offset = previous->offset;
        where.torn_bytes = previous->text.size();
        line = "\n";
        if (object["evidence"].is_object())
            object["evidence"]["audit_torn_line"] = {{"offset", previous->offset}, {"bytes", previous->text.size()}};
    }
    object["prev_sha256"] = previous ? sha256_hex(previous->text) : kAuditGenesis;
    object["sha256"] = sha256_hex(object.dump());
    where.sha256 = object["sha256"].get<std::string>();
    where.offset = log.size() + line.size();
    line += object.dump() + "\n";
    bool written = ::write(log.fd(), line.data(), line.size()) == static_cast<ssize_t>(line.size());
    bool synced = written && ::fsync(log.fd()) == 0;
    std::string error = synced ? "" : os_error(file, written ? "cannot sync" : "cannot write");
    flock(log.fd(), LOCK_UN);
    if (!synced) throw RuntimeFailure(error);
    return where;
}

fs::path audit_path(const AuditTarget& target, const fs::path& subject) {
    return target.file.empty() ? default_audit_path(subject) : target.file;
}

AuditAppend append_audit_entry(const AuditTarget& target, const fs::path& subject, AuditEntry entry) {
    if (entry.command.empty()) entry.command = target.command;
    return append_audit_entry(audit_path(target, subject), entry);
}

std::optional<nlohmann::json> parse_audit_entry(const std::string& line, std::string* why) {
    auto fail = [&](std::string message) {
        *why = std::move(message);
        return std::nullopt;
    };
    nlohmann::json object = nlohmann::json::parse(line, nullptr, false);
    if (object.is_discarded() || !object.is_object())
        return fail("not a complete JSON entry (torn by a write cut short or a log cut inside a line, or edited)");
    for (const auto& field : kFields)
        if (!object.contains(field)) return fail("field '" + field + "' is missing");
    std::size_t optional = 0;
    for (const auto& field : kOptionalFields) optional += object.contains(field);
    if (object.size() != kFields.size() + optional) return fail("it has fields beyond the entry's");
    if (object.dump() != line) return fail("it is not in the form routetune writes (edited by hand?)");
    if (!object["sha256"].is_string() || !object["prev_sha256"].is_string())
        return fail("sha256 and prev_sha256 must be strings");
    nlohmann::json content = object;
    content.erase("sha256");
    if (sha256_hex(content.dump()) != object["sha256"].get<std::string>())
        return fail("its content does not match its sha256 (edited)");
    return object;
}

std::optional<AuditBreak> verify_audit_chain(const std::string& text) {
    std::istringstream stream(text);
    std::string previous;
    std::size_t number = 0;
    for (std::string line; std::getline(stream, line);) {
        ++number;
        std::string why;
        std::optional<nlohmann::json> object = parse_audit_entry(line, &why);
        if (!object) return AuditBreak{number, why};
        std::string expected = number == 1 ? kAuditGenesis : sha256_hex(previous);
        if ((*object)["prev_sha256"].get<std::string>() != expected)
            return AuditBreak{number, number == 1 ? "prev_sha256 is not the start of a chain (entries before it removed?)"
                                                  : "prev_sha256 does not match line " + std::to_string(number - 1) +
                                                        " (an entry was removed, inserted or edited)"};
        previous = line;
    }
    if (!text.empty() && text.back() != '\n')
        return AuditBreak{number, "the last line is incomplete (torn: a write cut short, or the log cut inside a line)"};
    return std::nullopt;
}

std::vector<nlohmann::json> parse_audit_lines(const std::string& text) {
    std::vector<nlohmann::json> entries;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);) {
        nlohmann::json object = nlohmann::json::parse(line, nullptr, false);
        if (!object.is_discarded() && object.is_object()) entries.push_back(std::move(object));
    }
    return entries;
}

}  // namespace routetune
