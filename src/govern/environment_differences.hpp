// The differences between a lock and this environment: the compiler the build would run, CPU,
// OS, GPU where the lock recorded one, the spec, every case's input and reference, every file
// of [build] inputs and the locked artifact where present, against the fingerprint and hashes
// in the lock. A lock's standing (govern/lock_standing.hpp), its seal (govern/lock_seal.hpp) and
// verification (govern/verification.hpp) all speak in these differences.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "eval/fingerprint.hpp"
#include "govern/lock.hpp"

namespace routetune {

/// One field that differs between the lock and now.
struct Difference {
    std::string field;    ///< "compiler.sha256", "case.typical.input_sha256", "input.src/kernel.c", "artifact.sha256", ...
    std::string locked;   ///< "(absent)" when the lock has no value
    std::string current;  ///< "(absent)" when the environment has none
};

/// The differences between lock (read from lock_file) and this environment, read through
/// probe; the GPU is queried only when the lock recorded one. Never throws for a changed or
/// missing file: those are differences. A different routetune version is not a difference (it
/// does not change the build): it goes to notes, when given.
std::vector<Difference> environment_differences(const Lock& lock, const std::filesystem::path& lock_file,
                                                SystemProbe& probe, std::vector<std::string>* notes = nullptr);

/// "field: locked 'a', current 'b'" for messages.
std::string describe(const Difference& difference);

/// An audit entry's evidence for a check of lock_file: the lock's sha256 and the differences.
nlohmann::json difference_evidence(const std::filesystem::path& lock_file, const std::vector<Difference>& differences);

/// The differences as a JSON list of {"field", "locked", "current"}.
nlohmann::json difference_list(const std::vector<Difference>& differences);

}  // namespace routetune
