// The lock: the promoted route of one spec, committed beside the code like Cargo.lock. It holds
// what a build applies (the exact argv items and environment, the default's too, for a
// fallback), what the route was proven in (fingerprint, spec and input hashes, the build's own
// input files, artifact hash)
// and why it was promoted (study evidence, per-case regression results by class, owner,
// reason, review date). Stored as JSON with sorted keys and two-space indent, so it diffs well.
// A lock is sealed when written: lock_sha256 hashes its canonical content (every field but the
// hash and the signature, so a field added later is covered too), audit_anchor names the audit
// entry that wrote it (which records the hash of the lock's body), and an optional ssh signature
// signs the same canonical content (govern/lock_seal.hpp checks all three).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace routetune {

/// The only lock format this routetune reads and writes.
inline constexpr int kLockSchemaVersion = 2;

/// One case of the regression set, as it ran at promotion.
struct LockedCase {
    std::string name;
    std::string case_class = "normal";
    bool promotion_only = false;
    std::string status;                ///< the route's status on the case ("ok", "inaccurate", ...)
    double loss = 0;                   ///< the route's loss against the reference
    double threshold = 0;              ///< the threshold of the case's class
    std::string input;                 ///< as the spec names it ("" when none)
    std::string input_sha256;
    std::string reference;             ///< the golden file ("" when the default's output was the reference)
    std::string reference_sha256;
};

/// Why the route was promoted: the study and the fresh checks of promotion.
struct LockEvidence {
    std::string study;
    std::string store;                 ///< the study store (relative to the lock's folder when possible)
    std::string store_sha256;
    std::int64_t default_evaluation_id = 0;
    std::int64_t route_evaluation_id = 0;
    std::string study_outcome;         ///< "improved", "default-stays"
    double speedup = 1;                ///< the fresh interleaved A/B of promotion
    double speedup_ci_low = 1;
    double speedup_ci_high = 1;
    int rounds = 0;
    double min_gain = 0;
    std::vector<LockedCase> cases;
    std::uint64_t builds = 0;          ///< what promotion cost
    std::uint64_t runs = 0;
    std::string winner;                ///< the study's confirmed winner ("" when it had none)
    bool overrides_winner = false;     ///< the promoted route is not the study's winner
};

/// The last review, when there has been one.
struct LockReview {
    std::string time;
    std::string recommendation;        ///< "keep", "re-tune", "retire"
    double speedup = 0;
    double speedup_ci_low = 0;
    double speedup_ci_high = 0;
    std::vector<std::string> reasons;
};

/// Where the lock's record is: the audit entry that last wrote the lock (promoted, review, retired).
struct LockAnchor {
    std::string log;                   ///< the audit log (relative to the lock's folder when possible)
    std::uint64_t offset = 0;          ///< the byte where the entry's line starts
    std::string sha256;                ///< the entry's own sha256
};

/// A retired lock's retirement; time empty: the lock is in force.
struct LockRetirement {
    std::string time;                  ///< ISO 8601 UTC
    std::string actor;
    std::string reason;
};

/// A lock file's content.
struct Lock {
    int schema_version = kLockSchemaVersion;
    std::string routetune_version;
    std::string route;                               ///< printed route
    std::vector<std::string> flags;                  ///< base + route, as the adapter applies them
    std::map<std::string, std::string> environment;  ///< what the route adds to the environment
    std::vector<std::string> default_flags;          ///< the default route's flags (fallback)
    std::map<std::string, std::string> default_environment;
    std::map<std::string, std::string> fingerprint;  ///< the environment at promotion
    std::string spec;                                ///< the spec (relative to the lock's folder when possible)
    std::string spec_sha256;
    std::map<std::string, std::string> inputs;       ///< [build] inputs at promotion: path (relative to the spec's folder) -> sha256
    std::string artifact;                            ///< the promoted build (kept out of gc's reach)
    std::string artifact_sha256;
    std::uint64_t artifact_bytes = 0;
    LockEvidence evidence;
    std::string owner;
    std::string reason;
    std::string promoted_at;                         ///< ISO 8601 UTC
    std::string review_by;                           ///< YYYY-MM-DD
    int review_after_days = 90;
    std::string metric;                              ///< the accuracy metric
    std::map<std::string, double> thresholds;        ///< case class -> threshold used
    LockReview last_review;
    LockRetirement retired;                          ///< set by `routetune retire`
    std::string signer;                              ///< the signing key's principal ("" unsigned)
    LockAnchor audit_anchor;
    std::string lock_sha256;                         ///< sha256 of lock_content_text
    std::string signature;                           ///< ssh signature of lock_content_text ("" unsigned)

    /// True when the lock was retired (flags give the default route).
    bool is_retired() const { return !retired.time.empty(); }
};

/// The lock as its file text, its owner, reason, store and review reasons through the
/// redaction filter (util/redaction.hpp).
std::string lock_to_text(const Lock& lock);

/// The lock as a JSON object, its free text (owner, reason, store, review and retirement
/// reasons) through the redaction filter: what is hashed and signed is taken from this form.
nlohmann::json lock_to_json(const Lock& lock);

/// The canonical content of a lock's JSON: compact, keys sorted, without lock_sha256 and
/// signature (what lock_sha256 hashes and the signature signs).
std::string lock_content_text(const nlohmann::json& lock);

/// The canonical body: the content without audit_anchor too (what the anchoring audit entry
/// records as lock_body_sha256, since the anchor cannot hold its own entry's hash).
std::string lock_body_text(const nlohmann::json& lock);

/// The JSON of the lock at file, bounded (kMaxLockBytes, a regular file); throws UsageError
/// naming file for a missing or unreadable file, text that is not a JSON object, or a schema
/// version other than kLockSchemaVersion.
nlohmann::json read_lock_json(const std::filesystem::path& file);

/// The lock of json (from read_lock_json of file); UsageError naming file for a missing field.
Lock lock_from_json(const nlohmann::json& json, const std::filesystem::path& file);

/// read_lock_json then lock_from_json (no integrity check: govern/lock_standing.hpp does that).
Lock read_lock(const std::filesystem::path& file);

/// True when file holds a routetune lock of any schema version (a JSON object with an integer
/// schema_version, a route and flags): the files promote may replace.
bool is_lock_file(const std::filesystem::path& file);

/// Writes lock to file atomically (temporary file, then rename); RuntimeFailure naming file.
void write_lock(const std::filesystem::path& file, const Lock& lock);

/// path as written in a lock at lock_file: relative to the lock's folder when it is below the
/// same root, else absolute.
std::string path_for_lock(const std::filesystem::path& path, const std::filesystem::path& lock_file);

/// A path read from a lock at lock_file, made absolute.
std::filesystem::path path_from_lock(const std::string& text, const std::filesystem::path& lock_file);

}  // namespace routetune
