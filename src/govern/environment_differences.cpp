// The differences between a lock and this environment. The current fingerprint is taken with the spec's compiler resolved the way its build resolves
// it (on PATH, when the spec names a bare program: a different compiler first on PATH is a
// different compiler.path) and with the GPU query skipped when the lock has no gpu.* key
// (nvidia-smi alone takes longer than the whole check). The files of [build] inputs are hashed
// again (input.<path>: changed, added or removed), and the locked artifact, where it is
// present, must still hash to artifact_sha256. The fingerprint and the inputs are compared by
// changed_values (eval/fingerprint.hpp), the comparison `--continue` uses too.
// routetune.version is reported as a warning, not a difference: the tool's version does not
// change the build. A spec that no longer loads is a difference on spec.path.
#include "govern/environment_differences.hpp"

#include "spec/build_inputs.hpp"
#include "routetune/error.hpp"
#include "routetune/spec.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

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

}  // namespace

nlohmann::json difference_list(const std::vector<Difference>& differences) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& d : differences) list.push_back({{"field", d.field}, {"locked", d.locked}, {"current", d.current}});
    return list;
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

}  // namespace routetune
