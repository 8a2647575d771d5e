// Every string of an entry passes the redaction filter before it is hashed and written, so a
// secret never enters the chain (where removing it later would break it). An entry is
// serialised by nlohmann (keys sorted, no whitespace), which is its canonical form:
// sha256 is the hash of that form without the sha256 key, and the written line is the form with
// it. Appending opens the file O_APPEND, takes flock(LOCK_EX), reads the last line through the
// same descriptor to chain to it, writes the new line with one write() and fsyncs before
// unlocking; a reader never sees half a line from a writer that finished.
#include "govern/audit_log.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/redaction.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kFields{"time", "actor", "host", "command", "action", "subject",
                                       "evidence", "proposed", "result", "prev_sha256", "sha256"};

std::string current_user() {
    if (const char* user = std::getenv("USER"); user && *user) return user;
    if (const passwd* entry = getpwuid(getuid())) return entry->pw_name;
    return std::to_string(getuid());
}

std::string current_host() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "unknown";
    return name;
}

// The last non-empty line of the file behind fd (read from its end in blocks).
std::string last_line(int fd) {
    struct stat info{};
    if (fstat(fd, &info) != 0 || info.st_size == 0) return {};
    std::string tail;
    off_t end = info.st_size;
    while (end > 0) {
        off_t start = std::max<off_t>(0, end - 4096);
        std::string block(static_cast<std::size_t>(end - start), '\0');
        if (pread(fd, block.data(), block.size(), start) != static_cast<ssize_t>(block.size())) return {};
        tail = block + tail;
        end = start;
        std::size_t last = tail.find_last_not_of('\n');
        if (last == std::string::npos) continue;
        std::size_t newline = tail.rfind('\n', last);
        if (newline != std::string::npos || end == 0)
            return tail.substr(newline == std::string::npos ? 0 : newline + 1, last + 1 - (newline + 1));
    }
    return {};
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
    return nlohmann::json{{"time", entry.time},         {"actor", entry.actor},     {"host", entry.host},
                          {"command", entry.command},   {"action", entry.action},   {"subject", entry.subject},
                          {"evidence", entry.evidence}, {"proposed", entry.proposed}, {"result", entry.result}};
}

std::string os_error(const fs::path& file, const char* what) {
    return "audit log " + file.string() + ": " + what + ": " + std::strerror(errno);
}

}  // namespace

fs::path default_audit_path(const fs::path& subject) { return fs::path(subject.string() + ".audit.jsonl"); }

AuditEntry make_audit_entry(std::string action, std::string subject, std::vector<std::string> command) {
    AuditEntry entry;
    entry.time = iso8601_utc_now();
    entry.actor = current_user();
    entry.host = current_host();
    entry.command = std::move(command);
    entry.action = std::move(action);
    entry.subject = std::move(subject);
    return entry;
}

void append_audit_entry(const fs::path& file, const AuditEntry& entry) {
    std::error_code ec;
    if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
    int fd = ::open(file.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw RuntimeFailure(os_error(file, "cannot open"));
    if (flock(fd, LOCK_EX) != 0) {
        ::close(fd);
        throw RuntimeFailure(os_error(file, "cannot lock"));
    }
    std::string previous = last_line(fd);
    nlohmann::json object = redacted(to_json(entry));
    object["prev_sha256"] = previous.empty() ? kAuditGenesis : sha256_hex(previous);
    object["sha256"] = sha256_hex(object.dump());
    std::string line = object.dump() + "\n";
    bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    bool synced = written && ::fsync(fd) == 0;
    std::string error = synced ? "" : os_error(file, written ? "cannot sync" : "cannot write");
    flock(fd, LOCK_UN);
    ::close(fd);
    if (!synced) throw RuntimeFailure(error);
}

void append_audit_entry(const AuditTarget& target, const fs::path& subject, AuditEntry entry) {
    if (entry.command.empty()) entry.command = target.command;
    append_audit_entry(target.file.empty() ? default_audit_path(subject) : target.file, entry);
}

std::optional<AuditBreak> verify_audit_chain(const std::string& text) {
    std::istringstream stream(text);
    std::string previous;
    std::size_t number = 0;
    for (std::string line; std::getline(stream, line);) {
        ++number;
        auto fail = [&](std::string message) { return AuditBreak{number, std::move(message)}; };
        nlohmann::json object = nlohmann::json::parse(line, nullptr, false);
        if (object.is_discarded() || !object.is_object()) return fail("not a JSON object");
        for (const auto& field : kFields)
            if (!object.contains(field)) return fail("field '" + field + "' is missing");
        if (object.size() != kFields.size()) return fail("it has fields beyond the entry's");
        if (object.dump() != line) return fail("it is not in the form routetune writes (edited by hand?)");
        if (!object["sha256"].is_string() || !object["prev_sha256"].is_string())
            return fail("sha256 and prev_sha256 must be strings");
        std::string own = object["sha256"].get<std::string>();
        nlohmann::json content = object;
        content.erase("sha256");
        if (sha256_hex(content.dump()) != own) return fail("its content does not match its sha256 (edited)");
        std::string expected = number == 1 ? kAuditGenesis : sha256_hex(previous);
        if (object["prev_sha256"].get<std::string>() != expected)
            return fail(number == 1 ? "prev_sha256 is not the start of a chain (entries before it removed?)"
                                    : "prev_sha256 does not match line " + std::to_string(number - 1) +
                                          " (an entry was removed, inserted or edited)");
        previous = line;
    }
    if (!text.empty() && text.back() != '\n') return AuditBreak{number, "the last line is incomplete"};
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
