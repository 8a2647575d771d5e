// Conversion goes through nlohmann's struct macros, so every field is written and every field
// is required on reading; the free text (owner, reason, review reasons) passes the redaction
// filter on the way out; the schema version is checked first, so a lock from another version
// says so instead of naming a missing field. Paths are kept relative to the lock's folder
// when they share its root, so a lock committed with the code stays valid in another checkout.
// The canonical text is nlohmann's compact dump (keys sorted): numbers print the shortest form
// that reads back to the same value, so reading a lock and dumping it again gives the same text.
#include "govern/lock.hpp"

#include <sys/stat.h>

#include <cerrno>

#include "routetune/error.hpp"
#include "util/bounded_read.hpp"
#include "util/files.hpp"
#include "util/redaction.hpp"

namespace routetune {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LockedCase, name, case_class, promotion_only, status, loss, threshold, input,
                                   input_sha256, reference, reference_sha256)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LockEvidence, study, store, store_sha256, default_evaluation_id,
                                   route_evaluation_id, study_outcome, speedup, speedup_ci_low, speedup_ci_high,
                                   rounds, min_gain, cases, builds, runs, winner, overrides_winner)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LockReview, time, recommendation, speedup, speedup_ci_low, speedup_ci_high,
                                   reasons)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LockAnchor, log, offset, sha256)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LockRetirement, time, actor, reason)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Lock, schema_version, routetune_version, route, flags, environment,
                                   default_flags, default_environment, fingerprint, spec, spec_sha256, inputs, artifact,
                                   artifact_sha256, artifact_bytes, evidence, owner, reason, promoted_at, review_by,
                                   review_after_days, metric, thresholds, last_review, retired, signer,
                                   audit_anchor, lock_sha256, signature)

namespace fs = std::filesystem;

namespace {

// The lock's free text through the redaction filter. What a build applies (flags, environment)
// is written as it is: it is the lock's product, and the filter spares flags already.
Lock redacted(Lock lock) {
    lock.owner = redact_secrets(lock.owner);
    lock.reason = redact_secrets(lock.reason);
    lock.evidence.store = redact_secrets(lock.evidence.store);
    for (auto& reason : lock.last_review.reasons) reason = redact_secrets(reason);
    lock.retired.reason = redact_secrets(lock.retired.reason);
    return lock;
}

}  // namespace

nlohmann::json lock_to_json(const Lock& lock) { return nlohmann::json(redacted(lock)); }

std::string lock_to_text(const Lock& lock) { return lock_to_json(lock).dump(2) + "\n"; }

std::string lock_content_text(const nlohmann::json& lock) {
    nlohmann::json content = lock;
    content.erase("lock_sha256");
    content.erase("signature");
    return content.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string lock_body_text(const nlohmann::json& lock) {
    nlohmann::json body = lock;
    body.erase("audit_anchor");
    return lock_content_text(body);
}

nlohmann::json read_lock_json(const fs::path& file) {
    struct stat info {};
    if (lstat(file.c_str(), &info) != 0 && errno == ENOENT)
        throw UsageError(file.string() + ": no lock file here (missing or unreadable)");
    std::string text = read_bounded_file(file, kMaxLockBytes, "lock");
    nlohmann::json object = nlohmann::json::parse(text, nullptr, false);
    if (object.is_discarded() || !object.is_object())
        throw UsageError(file.string() + ": not a routetune lock (expected a JSON object)");
    auto version = object.find("schema_version");
    if (version == object.end() || !version->is_number_integer())
        throw UsageError(file.string() + ": not a routetune lock (no integer schema_version)");
    if (version->get<int>() != kLockSchemaVersion)
        throw UsageError(file.string() + ": lock schema version " + std::to_string(version->get<int>()) +
                         " is not one this routetune reads (it reads version " + std::to_string(kLockSchemaVersion) +
                         "); promote again, or use the routetune that wrote it");
    return object;
}

Lock lock_from_json(const nlohmann::json& json, const fs::path& file) {
    try {
        return json.get<Lock>();
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(file.string() + ": malformed lock: " + e.what());
    }
}

Lock read_lock(const fs::path& file) { return lock_from_json(read_lock_json(file), file); }

bool is_lock_file(const fs::path& file) {
    try {
        nlohmann::json object = nlohmann::json::parse(read_bounded_file(file, kMaxLockBytes, "lock"), nullptr, false);
        return object.is_object() && object.contains("schema_version") && object["schema_version"].is_number_integer() &&
               object.contains("route") && object["route"].is_string() && object.contains("flags") &&
               object["flags"].is_array();
    } catch (const UsageError&) {
        return false;
    }
}

void write_lock(const fs::path& file, const Lock& lock) {
    std::string error;
    if (!write_file(file, lock_to_text(lock), &error)) throw RuntimeFailure("cannot write the lock " + file.string() + ": " + error);
}

std::string path_for_lock(const fs::path& path, const fs::path& lock_file) {
    fs::path absolute = fs::weakly_canonical(fs::absolute(path));
    fs::path folder = fs::weakly_canonical(fs::absolute(lock_file)).parent_path();
    if (absolute.root_path() != folder.root_path()) return absolute.string();
    return absolute.lexically_relative(folder).string();
}

fs::path path_from_lock(const std::string& text, const fs::path& lock_file) {
    fs::path path(text);
    if (path.is_absolute()) return path;
    return (fs::absolute(lock_file).parent_path() / path).lexically_normal();
}

}  // namespace routetune
