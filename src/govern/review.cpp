// The fresh A/B is the regression run's (both routes built afresh, interleaved rounds); its
// interval is read against min_gain: low end at or above 1 + min_gain keeps, high end below
// it retires (the gain is gone), anything between re-tunes (the gain may be there but is no
// longer shown). The promoted figure is quoted beside the fresh one in every reason.
#include "govern/review.hpp"

#include <sstream>

#include "govern/governed_setup.hpp"
#include "govern/lock_seal.hpp"
#include "routetune/error.hpp"
#include "store/store_location.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

void judge_gain(const Lock& lock, const RegressionOutcome& run, ReviewResult& result) {
    const LockEvidence& e = lock.evidence;
    std::string promoted = "promoted at " + speedup_text(e.speedup, e.speedup_ci_low, e.speedup_ci_high);
    if (!run.confirmation) {
        result.recommendation = "retire";
        for (const auto& failure : run.failures) result.reasons.push_back(failure);
        return;
    }
    const Confirmation& c = *run.confirmation;
    std::string now = "now " + speedup_text(c.speedup, c.ci_low, c.ci_high);
    double needed = 1 + e.min_gain;
    if (c.ci_low >= needed) {
        result.recommendation = "keep";
        result.reasons.push_back("the gain holds: " + now + ", " + promoted);
    } else if (c.ci_high < needed) {
        result.recommendation = "retire";
        std::ostringstream need;
        need << needed;
        result.reasons.push_back("the gain is gone: " + now + ", " + promoted + "; min_gain needs " + need.str() +
                                 "x at the interval's low end");
    } else {
        result.recommendation = "re-tune";
        result.reasons.push_back("the gain is no longer confirmed: " + now + ", " + promoted);
    }
}

// The environment, then (when unchanged) the fresh builds and A/B, judged.
void judge(const Lock& lock, const LockStanding& standing, const fs::path& lock_file, bool rerun, ReviewResult& result) {
    result.differences = standing.differences;
    if (!result.differences.empty()) {
        result.recommendation = "re-tune";
        for (const auto& d : result.differences)
            result.reasons.push_back("changed since promotion: " + d.field + ": " + d.locked + " -> " + d.current);
        return;
    }
    RegressionOptions options;
    options.check_cases = rerun;
    result.run = rerun_lock(lock, lock_file, options);
    bool cases_failed = false;
    for (const auto& c : result.run->cases) cases_failed = cases_failed || c.status != Status::Ok;
    if (cases_failed) {
        result.recommendation = "retire";
        result.reasons = result.run->failures;
    } else {
        judge_gain(lock, *result.run, result);
    }
}

}  // namespace

ReviewResult review_lock(const LockStanding& standing, const fs::path& lock_file, const ReviewOptions& options) {
    Lock lock = *standing.lock;
    if (!lock.signature.empty() && !options.signer)
        throw UsageError(lock_file.string() + " is signed by " + lock.signer +
                         "; review rewrites it: give --sign KEY with --allowed-signers FILE");
    bool database = !StoreLocation(lock.evidence.store).is_file();
    std::string store = database ? lock.evidence.store : path_from_lock(lock.evidence.store, lock_file).string();
    if (!database && !fs::is_regular_file(store))
        throw UsageError(lock_file.string() + ": the study store it names is gone (" + store +
                         "); the evidence behind the lock cannot be reviewed");
    ReviewResult result;
    std::string store_sha = database ? "" : sha256_file(store).value_or("");
    judge(lock, standing, lock_file, options.rerun, result);
    if (database)
        result.reasons.push_back("note: the evidence is study '" + lock.evidence.study + "' in PostgreSQL (" + store +
                                 "); review does not read the database, so whether it changed since promotion is not checked");
    else if (store_sha != lock.evidence.store_sha256)
        result.reasons.push_back("note: the study store changed since promotion (gc or --continue)");
    lock.last_review.time = iso8601_utc_now();
    lock.last_review.recommendation = result.recommendation;
    lock.last_review.reasons = result.reasons;
    if (result.run && result.run->confirmation) {
        lock.last_review.speedup = result.run->confirmation->speedup;
        lock.last_review.speedup_ci_low = result.run->confirmation->ci_low;
        lock.last_review.speedup_ci_high = result.run->confirmation->ci_high;
    }
    if (result.recommendation == "keep") lock.review_by = date_after_days(lock.review_after_days);
    if (options.signer) lock.signer = options.signer->principal;
    result.review_by = lock.review_by;
    AuditEntry entry = make_audit_entry("review", lock_file.string(), options.command);
    entry.evidence = {{"store", store}, {"store_sha256", store_sha}, {"lock_body_sha256", lock_body_sha256(lock)},
                      {"rerun", options.rerun}};
    if (options.signer) {
        entry.evidence["account"] = entry.actor;
        entry.actor = options.signer->principal;
    }
    if (result.run) {
        entry.evidence["builds"] = result.run->builds;
        entry.evidence["runs"] = result.run->runs;
    }
    entry.proposed = {{"recommendation", result.recommendation}, {"reasons", result.reasons}};
    entry.result = result.recommendation == "keep" ? "kept; review date moved to " + lock.review_by
                                                   : "recommended " + result.recommendation + "; lock left in force";
    AuditAppend written = append_audit_entry(standing.audit_log, entry);
    seal_lock(lock, written, lock_file, options.signer ? &*options.signer : nullptr);
    write_lock(lock_file, lock);
    result.overrides = override_rate(standing.audit_log);
    return result;
}

}  // namespace routetune
