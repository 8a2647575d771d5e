// The checks run in the order a forger would have to defeat them: the content hash (any edit
// by hand), the signature (a forger who recomputed the hash), then the anchor: the entry at the
// recorded offset must be intact, hash to the anchor, be an action that writes locks, record
// this lock's body hash, and chain to the line before it. Cutting the log back, emptying or
// deleting it, or rewriting any entry up to the anchor (recomputed hashes included) moves or
// changes that entry, so the anchor no longer finds it.
#include "govern/lock_seal.hpp"

#include <algorithm>

#include "govern/audit_file.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

std::string short_hash(const std::string& hash) { return hash.substr(0, 12) + (hash.size() > 12 ? "…" : ""); }

std::string string_at(const nlohmann::json& object, const std::string& key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// The anchor's problems, as differences on "audit_anchor" (or the recorded body hash).
void check_anchor(const nlohmann::json& lock, const fs::path& log, SealCheck& check) {
    nlohmann::json anchor = lock.contains("audit_anchor") && lock["audit_anchor"].is_object() ? lock["audit_anchor"]
                                                                                               : nlohmann::json::object();
    std::string sha = string_at(anchor, "sha256");
    std::uint64_t offset = anchor.contains("offset") && anchor["offset"].is_number_unsigned() ? anchor["offset"].get<std::uint64_t>() : 0;
    std::string locked = "entry " + short_hash(sha) + " at byte " + std::to_string(offset) + " of " + log.string();
    auto tampered = [&](std::string current) { check.tampering.push_back({"audit_anchor", locked, std::move(current)}); };
    if (sha.empty()) return tampered("the lock names no audit entry");
    std::optional<AuditFile> file = AuditFile::open_to_read(log);
    if (!file) return tampered("the audit log is missing (deleted?)");
    std::uint64_t size = file->size();
    if (size == 0) return tampered("the audit log is empty (emptied?)");
    std::optional<AuditLine> line = file->line_at(offset);
    if (!line) return tampered("no entry starts there (the log has " + std::to_string(size) + " bytes: cut back, or rewritten?)");
    std::string why;
    std::optional<nlohmann::json> entry = parse_audit_entry(line->text, &why);
    if (!entry) return tampered("the entry there is not intact: " + why);
    std::string own = string_at(*entry, "sha256");
    if (own != sha) return tampered("the entry there is " + short_hash(own) + " (the log was rewritten)");
    std::string action = string_at(*entry, "action");
    if (std::find(kLockWritingActions.begin(), kLockWritingActions.end(), action) == kLockWritingActions.end())
        return tampered("the entry there is a '" + action + "', which does not write locks");
    std::string prev = string_at(*entry, "prev_sha256");
    std::optional<AuditLine> before = file->line_before(offset);
    std::string expected = offset == 0 ? kAuditGenesis : before ? sha256_hex(before->text) : "";
    if (prev != expected) return tampered("the entry before it does not match its prev_sha256 (entries before it rewritten?)");
    nlohmann::json evidence = entry->value("evidence", nlohmann::json::object());
    std::string recorded = evidence.is_object() ? string_at(evidence, "lock_body_sha256") : "";
    std::string body = sha256_hex(lock_body_text(lock));
    if (recorded != body)
        check.tampering.push_back({"audit.lock_body_sha256", recorded.empty() ? "(absent)" : recorded, body});
    if (file->torn())
        check.notes.push_back("audit log " + log.string() + ": its last line is incomplete (torn: no newline at byte " +
                              std::to_string(file->size()) +
                              "); the next entry is written on a line of its own and `routetune audit --verify` names it");
}

}  // namespace

std::string lock_body_sha256(const Lock& lock) { return sha256_hex(lock_body_text(lock_to_json(lock))); }

void seal_lock(Lock& lock, const AuditAppend& written, const fs::path& lock_file, const LockSigner* signer) {
    lock.audit_anchor = LockAnchor{path_for_lock(written.file, lock_file), written.offset, written.sha256};
    std::string content = lock_content_text(lock_to_json(lock));
    lock.lock_sha256 = sha256_hex(content);
    lock.signature = signer ? sign_lock_content(*signer, content) : "";
}

fs::path lock_audit_log(const nlohmann::json& lock, const fs::path& lock_file, const fs::path& audit) {
    if (!audit.empty()) return audit;
    auto anchor = lock.find("audit_anchor");
    if (anchor != lock.end() && anchor->is_object()) {
        std::string log = string_at(*anchor, "log");
        if (!log.empty()) return path_from_lock(log, lock_file);
    }
    return default_audit_path(lock_file);
}

SealCheck check_seal(const nlohmann::json& lock, const fs::path& log, const fs::path& allowed_signers) {
    SealCheck check;
    std::string content = lock_content_text(lock);
    std::string recorded = string_at(lock, "lock_sha256");
    std::string actual = sha256_hex(content);
    if (recorded != actual)
        check.tampering.push_back({"lock_sha256", recorded.empty() ? "(absent)" : recorded,
                                   actual + " (the content was edited after the lock was written)"});
    std::string signature = string_at(lock, "signature");
    std::string signer = string_at(lock, "signer");
    if (!allowed_signers.empty()) {
        std::string problem = signature_problem(content, signature, signer, allowed_signers);
        if (problem.empty()) check.signer = signer;
        else check.tampering.push_back({"signature", signature.empty() ? "(absent)" : "signed by " + signer, problem});
    } else if (!signature.empty()) {
        check.notes.push_back("the lock is signed by " + signer + "; the signature is checked only with --allowed-signers FILE");
    }
    check_anchor(lock, log, check);
    return check;
}

}  // namespace routetune
