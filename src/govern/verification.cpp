// The current fingerprint is taken with the spec's compiler resolved the way its build resolves
// it (on PATH, when the spec names a bare program: a different compiler first on PATH is a
// different compiler.path) and with the GPU query skipped when the lock has no gpu.* key
// (nvidia-smi alone takes longer than the whole check). The files of [build] inputs are hashed
// again (input.<path>: changed, added or removed), and the locked artifact, where it is
// present, must still hash to artifact_sha256. The fingerprint and the inputs are compared by
// changed_values (eval/fingerprint.hpp), the comparison `--continue` uses too.
// routetune.version is reported as a warning, not a difference: the tool's version does not
// change the build. A spec that no longer loads is a difference on spec.path.
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

const std::string kAbsent = "(absent)";

// The machine's probe without nvidia-smi.
class NoGpuProbe : public SystemProbe {
public:
    explicit NoGpuProbe(SystemProbe& inner) : inner_(inner) {}
    std::optional<std::string> read_file(const fs::path& file) override { return inner_.read_file(file); }
    std::optional<std::string> file_sha256(const fs::path& file) override { return inner_.file_sha256(file); }
    fs::path find_executable(const std::string& program) override {
        return program == "nvidia-smi" ? fs::path{} : inner_.find_executable(program);
    }
    std::optional<std::string> run(const std::vector<std::string>& argv) override { return inner_.run(argv); }
    std::string kernel_release() override { return inner_.kernel_release(); }
    std::string machine() override { return inner_.machine(); }

private:
    SystemProbe& inner_;
};

nlohmann::json difference_list(const std::vector<Difference>& differences) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& d : differences) list.push_back({{"field", d.field}, {"locked", d.locked}, {"current", d.current}});
    return list;
}

bool has_gpu_keys(const std::map<std::string, std::string>& values) {
    auto it = values.lower_bound("gpu.");
    return it != values.end() && it->first.rfind("gpu.", 0) == 0;
}

std::string value_or_absent(const std::map<std::string, std::string>& values, const std::string& key) {
    auto it = values.find(key);
    return it == values.end() ? kAbsent : it->second;
}

// Every key of recorded that differs from now, or that either side lacks (fingerprint.cpp's one
// comparison), its field named prefix + key.
void add_changes(const std::map<std::string, std::string>& recorded, const std::map<std::string, std::string>& now,
                 const std::string& prefix, std::vector<Difference>& differences) {
    for (auto& change : changed_values(recorded, now))
        differences.push_back({prefix + change.key, std::move(change.before), std::move(change.after)});
}

// The locked artifact, when it is there, against its recorded sha256 (absent: nothing to check,
// e.g. a checkout without the study's folder).
void add_artifact_difference(const Lock& lock, const fs::path& lock_file, SystemProbe& probe,
                             std::vector<Difference>& differences) {
    if (lock.artifact.empty()) return;
    fs::path artifact = path_from_lock(lock.artifact, lock_file);
    std::error_code error;
    if (!fs::exists(artifact, error)) return;
    std::string current = probe.file_sha256(artifact).value_or("(unreadable)");
    if (current != lock.artifact_sha256) differences.push_back({"artifact.sha256", lock.artifact_sha256, current});
}

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

std::vector<Difference> environment_differences(const Lock& lock, const fs::path& lock_file, SystemProbe& probe,
                                                std::vector<std::string>* notes) {
    fs::path spec_file = path_from_lock(lock.spec, lock_file);
    Spec spec;
    try {
        spec = load_spec(spec_file);
    } catch (const UsageError& e) {
        return {Difference{"spec.path", spec_file.string(), std::string("does not load: ") + e.what()}};
    }
    NoGpuProbe no_gpu(probe);
    SystemProbe& used = has_gpu_keys(lock.fingerprint) ? probe : static_cast<SystemProbe&>(no_gpu);
    std::map<std::string, std::string> now = take_fingerprint(spec, used).values;
    std::map<std::string, std::string> locked = lock.fingerprint;
    std::string locked_version = value_or_absent(locked, "routetune.version");
    std::string current_version = value_or_absent(now, "routetune.version");
    if (notes && locked_version != current_version)
        notes->push_back("the lock was written by routetune " + locked_version + ", this is " + current_version);
    locked.erase("routetune.version");
    now.erase("routetune.version");
    std::vector<Difference> differences;
    add_changes(locked, now, "", differences);
    add_changes(lock.inputs, build_input_hashes(spec, UnmatchedInputs::Allowed), "input.", differences);
    add_artifact_difference(lock, lock_file, probe, differences);
    return differences;
}

std::string describe(const Difference& difference) {
    return difference.field + ": locked '" + difference.locked + "', current '" + difference.current + "'";
}

nlohmann::json difference_evidence(const fs::path& lock_file, const std::vector<Difference>& differences) {
    return {{"lock", lock_file.string()},
            {"lock_file_sha256", sha256_file(lock_file).value_or("")},
            {"differences", difference_list(differences)}};
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
