#include "govern/lock_standing.hpp"

#include "govern/lock_seal.hpp"
#include "routetune/error.hpp"
#include "eval/fingerprint.hpp"

namespace routetune {

namespace fs = std::filesystem;

std::string to_string(LockState state) {
    switch (state) {
        case LockState::Usable: return "valid";
        case LockState::Retired: return "retired";
        case LockState::Stale: return "stale";
        case LockState::Tampered: return "tampered";
        case LockState::Unreadable: return "unreadable";
        case LockState::Missing: return "missing";
    }
    return "unreadable";
}

LockStanding assess_lock(const fs::path& lock_file, const LockTrust& trust) {
    LockStanding standing;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(lock_file, ec))) {
        standing.state = LockState::Missing;
        standing.problem = lock_file.string() + ": no lock file here";
        standing.audit_log = trust.audit.empty() ? default_audit_path(lock_file) : trust.audit;
        return standing;
    }
    nlohmann::json json;
    try {
        json = read_lock_json(lock_file);
    } catch (const UsageError& e) {
        standing.problem = e.what();
        standing.audit_log = trust.audit.empty() ? default_audit_path(lock_file) : trust.audit;
        return standing;
    }
    standing.audit_log = lock_audit_log(json, lock_file, trust.audit);
    SealCheck seal = check_seal(json, standing.audit_log, trust.allowed_signers);
    standing.notes = seal.notes;
    standing.signer = seal.signer;
    try {
        standing.lock = lock_from_json(json, lock_file);
    } catch (const UsageError& e) {
        standing.problem = e.what();
    }
    if (!seal.tampering.empty()) {
        standing.state = LockState::Tampered;
        standing.tampering = seal.tampering;
        if (trust.audit.empty()) standing.audit_log = default_audit_path(lock_file);  // never a log a forgery names
        return standing;
    }
    if (!standing.lock) return standing;
    if (standing.lock->is_retired()) {
        standing.state = LockState::Retired;
        return standing;
    }
    if (trust.environment)
        standing.differences = environment_differences(*standing.lock, lock_file, *make_system_probe(), &standing.notes);
    standing.state = standing.differences.empty() ? LockState::Usable : LockState::Stale;
    return standing;
}

std::string tampering_text(const LockStanding& standing) {
    std::string text;
    for (const auto& d : standing.tampering) text += "  " + describe(d) + "\n";
    return text;
}

fs::path fallback_spec(const LockStanding& standing, const fs::path& lock_file) {
    if (!standing.lock) throw UsageError(lock_file.string() + ": the lock names no spec whose default route could replace it");
    fs::path spec = path_from_lock(standing.lock->spec, lock_file);
    if (standing.state != LockState::Tampered) return spec;
    std::error_code error;
    fs::path folder = fs::weakly_canonical(fs::absolute(lock_file), error).parent_path();
    fs::path resolved = fs::weakly_canonical(spec, error);
    fs::path inside = resolved.lexically_relative(folder);
    if (error || inside.empty() || *inside.begin() == "..")
        throw UsageError(lock_file.string() + " is tampered and names a spec outside its folder (" + spec.string() +
                         "); that spec is not trusted for a fallback");
    return resolved;
}

}  // namespace routetune
