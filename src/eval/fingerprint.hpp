// The environment fingerprint: everything a study's results depend on (compiler identity,
// CPU, OS, GPU and driver, spec and input hashes, routetune's version) as an ordered map of
// key -> value, stored with the study and compared by `--continue`. Reading the machine goes
// through SystemProbe so tests can use a fake.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/spec.hpp"

namespace routetune {

/// What taking a fingerprint reads from the machine.
class SystemProbe {
public:
    virtual ~SystemProbe() = default;
    /// The text of file, or nullopt when it cannot be read.
    virtual std::optional<std::string> read_file(const std::filesystem::path& file) = 0;
    /// Lower-case hex SHA-256 of the file's bytes, or nullopt.
    virtual std::optional<std::string> file_sha256(const std::filesystem::path& file) = 0;
    /// The absolute path of program (searched on PATH unless it has a '/'), or empty.
    virtual std::filesystem::path find_executable(const std::string& program) = 0;
    /// Runs argv (no shell) and returns its stdout followed by its stderr, or nullopt when it
    /// could not be started, failed, or timed out.
    virtual std::optional<std::string> run(const std::vector<std::string>& argv) = 0;
    /// uname's release ("6.1.0-18-amd64").
    virtual std::string kernel_release() = 0;
    /// uname's machine ("x86_64").
    virtual std::string machine() = 0;
};

/// The probe of this machine: files, PATH, run_process with a timeout, uname.
std::unique_ptr<SystemProbe> make_system_probe();

/// key -> value, ordered by key. Keys: routetune.version, compiler.{adapter,path,version,
/// sha256}, cpu.{model,flags_sha256,cores}, os.{name,kernel,machine}, gpu.{name,driver,cuda,
/// count} (only where nvidia-smi runs), spec.sha256, case.<name>.{input,reference}_sha256.
/// Callers may add their own keys (e.g. "torch.version").
struct Fingerprint {
    std::map<std::string, std::string> values;

    /// The fingerprint as a JSON object of strings (compact when indent < 0).
    std::string to_json(int indent = -1) const;
    /// Reads to_json's output; throws RuntimeFailure on anything else.
    static Fingerprint from_json(std::string_view text);

    bool operator==(const Fingerprint&) const = default;
};

/// Takes the fingerprint of spec's environment through probe; never throws for a missing
/// tool (its keys are simply absent).
Fingerprint take_fingerprint(const Spec& spec, SystemProbe& probe);

/// One key whose value differs between two key -> value maps.
struct ValueChange {
    std::string key;
    std::string before;  ///< "(absent)" when before has no such key
    std::string after;   ///< "(absent)" when after has no such key
};

/// The one comparison of recorded and current values (a study's fingerprint by `--continue`, a
/// lock's fingerprint and input hashes by verification): every key whose value differs or that
/// one side lacks, sorted by key; empty when equal.
std::vector<ValueChange> changed_values(const std::map<std::string, std::string>& before,
                                        const std::map<std::string, std::string>& after);

/// changed_values as one line per key: "key: old → new", "(absent)" for a missing side.
std::vector<std::string> diff(const Fingerprint& before, const Fingerprint& after);

}  // namespace routetune
