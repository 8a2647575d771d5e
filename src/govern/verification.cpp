// A lock's verdict: its standing (govern/lock_standing.hpp) before anything runs, the review date,
// and with --rerun a regression run of the locked route against the default on fresh builds;
// the differences themselves come from govern/environment_differences.hpp.
#include "govern/verification.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "govern/governed_setup.hpp"
#include "govern/lock_standing.hpp"
#include "spec/build_inputs.hpp"
#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"
#include "util/output_schema.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

// The verdict a standing gives before anything is rerun.
LockVerdict verdict_of(const LockStanding& standing) {
    switch (standing.state) {
        case LockState::Usable: return LockVerdict::Valid;
        case LockState::Retired: return LockVerdict::Retired;
        case LockState::Stale: return LockVerdict::Stale;
        case LockState::Tampered: return LockVerdict::Tampered;
        case LockState::Unreadable:
        case LockState::Missing: break;
    }
    throw std::logic_error("verify_lock needs a readable lock, not a " + to_string(standing.state) + " one");
}

}  // namespace

std::string_view to_string(LockVerdict verdict) {
    switch (verdict) {
        case LockVerdict::Valid: return "valid";
        case LockVerdict::ReviewDue: return "review-due";
        case LockVerdict::Stale: return "stale";
        case LockVerdict::Regressed: return "regressed";
        case LockVerdict::Tampered: return "tampered";
        case LockVerdict::Retired: return "retired";
    }
    return "valid";
}

RegressionOutcome rerun_lock(const Lock& lock, const fs::path& lock_file, const RegressionOptions& options) {
    GovernedSetup setup = governed_setup(path_from_lock(lock.spec, lock_file));
    fs::path scratch = make_scratch_folder(fs::temp_directory_path(), "routetune-rerun-");
    struct Cleanup {
        fs::path folder;
        ~Cleanup() { remove_tree_quietly(folder); }
    } cleanup{scratch};  // an interrupted re-run leaves no scratch folder behind either
    RegressionRun check(setup.spec, *setup.adapter, setup.catalog, governance_paths(scratch, "check"));
    return check.run(Route::parse(lock.route), options);
}

Verification verify_lock(const LockStanding& standing, const fs::path& lock_file, bool rerun) {
    Verification result;
    result.verdict = verdict_of(standing);
    result.differences = standing.differences;
    result.tampering = standing.tampering;
    result.warnings = standing.notes;
    if (standing.state != LockState::Usable) return result;
    const Lock& lock = *standing.lock;
    if (rerun) {
        result.rerun = rerun_lock(lock, lock_file, RegressionOptions{});
        if (!result.rerun->passed()) {
            result.verdict = LockVerdict::Regressed;
            return result;
        }
    }
    if (!lock.review_by.empty() && lock.review_by < iso8601_utc_now().substr(0, 10)) {
        result.verdict = LockVerdict::ReviewDue;
        result.warnings.push_back("the review date " + lock.review_by + " has passed: run `routetune review " +
                                  lock_file.string() + "`");
    }
    return result;
}

std::string verification_json(const Verification& verification, const LockStanding& standing, const fs::path& lock_file) {
    const Lock* lock = standing.lock ? &*standing.lock : nullptr;
    bool trusted = lock && standing.state != LockState::Tampered;
    nlohmann::json out{{"verdict", to_string(verification.verdict)},
                       {"lock", lock_file.string()},
                       {"route", trusted ? nlohmann::json(lock->route) : nlohmann::json(nullptr)},
                       {"review_by", trusted ? nlohmann::json(lock->review_by) : nlohmann::json(nullptr)},
                       {"differences", difference_list(verification.differences)},
                       {"tampering", difference_list(verification.tampering)},
                       {"warnings", verification.warnings}};
    if (!standing.signer.empty()) out["signer"] = standing.signer;
    if (trusted && lock->is_retired())
        out["retired"] = {{"time", lock->retired.time}, {"actor", lock->retired.actor}, {"reason", lock->retired.reason}};
    if (verification.rerun) {
        out["failures"] = verification.rerun->failures;
        if (const auto& c = verification.rerun->confirmation)
            out["speedup"] = {{"value", c->speedup}, {"ci95", {c->ci_low, c->ci_high}}};
    }
    return versioned_json_text(out);
}

}  // namespace routetune
