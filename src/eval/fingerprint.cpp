// Taking and comparing fingerprints. Each part of the environment is read through the probe
// and written under a fixed key: the compiler's resolved path, the first line of its
// `--version` and the hash of its binary; from /proc/cpuinfo the model name, the number of
// processors and a hash of the (long) flags list; PRETTY_NAME from /etc/os-release; uname;
// from nvidia-smi (when on PATH) the GPU names, driver and the CUDA version of its banner; the
// spec's hash and each case's input and reference hashes. Absent facts leave keys absent, so
// a diff shows "(absent)" rather than a made-up value.
#include "eval/fingerprint.hpp"

#include <nlohmann/json.hpp>

#include <sstream>

#include "routetune/error.hpp"
#include "util/sha256.hpp"
#include "util/text.hpp"

#ifndef ROUTETUNE_VERSION
#define ROUTETUNE_VERSION "unknown"
#endif

namespace routetune {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);) lines.push_back(line);
    return lines;
}

std::string first_nonempty_line(const std::string& text) {
    for (const auto& line : lines_of(text))
        if (!trim(line).empty()) return std::string(trim(line));
    return {};
}

/// The value of "key : value" lines of /proc/cpuinfo, first occurrence.
std::optional<std::string> cpuinfo_field(const std::string& cpuinfo, std::string_view key) {
    for (const auto& line : lines_of(cpuinfo)) {
        auto colon = line.find(':');
        if (colon != std::string::npos && trim(std::string_view(line).substr(0, colon)) == key)
            return std::string(trim(std::string_view(line).substr(colon + 1)));
    }
    return std::nullopt;
}

void add_compiler(Fingerprint& fingerprint, const Spec& spec, SystemProbe& probe) {
    fingerprint.values["compiler.adapter"] = spec.compiler.adapter;
    if (spec.compiler.path.empty()) return;
    auto resolved = probe.find_executable(spec.compiler.path);
    if (resolved.empty()) {
        fingerprint.values["compiler.path"] = spec.compiler.path + " (not found)";
        return;
    }
    fingerprint.values["compiler.path"] = resolved.string();
    if (auto output = probe.run({resolved.string(), "--version"})) {
        std::string version = first_nonempty_line(*output);
        if (!version.empty()) fingerprint.values["compiler.version"] = version;
    }
    if (auto hash = probe.file_sha256(resolved)) fingerprint.values["compiler.sha256"] = *hash;
}

void add_cpu_and_os(Fingerprint& fingerprint, SystemProbe& probe) {
    if (auto cpuinfo = probe.read_file("/proc/cpuinfo")) {
        auto model = cpuinfo_field(*cpuinfo, "model name");
        if (!model) model = cpuinfo_field(*cpuinfo, "Hardware");
        if (model) fingerprint.values["cpu.model"] = *model;
        auto flags = cpuinfo_field(*cpuinfo, "flags");
        if (!flags) flags = cpuinfo_field(*cpuinfo, "Features");
        if (flags) fingerprint.values["cpu.flags_sha256"] = sha256_hex(*flags);
        std::size_t cores = 0;
        for (const auto& line : lines_of(*cpuinfo))
            if (line.rfind("processor", 0) == 0 && line.find(':') != std::string::npos) ++cores;
        if (cores > 0) fingerprint.values["cpu.cores"] = std::to_string(cores);
    }
    if (auto os_release = probe.read_file("/etc/os-release")) {
        for (const auto& line : lines_of(*os_release)) {
            if (line.rfind("PRETTY_NAME=", 0) != 0) continue;
            std::string name(trim(line.substr(12)));
            if (name.size() >= 2 && (name.front() == '"' || name.front() == '\'') && name.back() == name.front())
                name = name.substr(1, name.size() - 2);
            fingerprint.values["os.name"] = name;
        }
    }
    std::string kernel = probe.kernel_release();
    if (!kernel.empty()) fingerprint.values["os.kernel"] = kernel;
    std::string machine = probe.machine();
    if (!machine.empty()) fingerprint.values["os.machine"] = machine;
}

void add_gpu(Fingerprint& fingerprint, SystemProbe& probe) {
    auto smi = probe.find_executable("nvidia-smi");
    if (smi.empty()) return;
    if (auto query = probe.run({smi.string(), "--query-gpu=name,driver_version", "--format=csv,noheader"})) {
        std::string names;
        std::string driver;
        std::size_t count = 0;
        for (const auto& line : lines_of(*query)) {
            auto comma = line.rfind(',');
            if (trim(line).empty() || comma == std::string::npos) continue;
            names += (names.empty() ? "" : "; ") + std::string(trim(std::string_view(line).substr(0, comma)));
            if (driver.empty()) driver = std::string(trim(std::string_view(line).substr(comma + 1)));
            ++count;
        }
        if (count > 0) {
            fingerprint.values["gpu.name"] = names;
            fingerprint.values["gpu.driver"] = driver;
            fingerprint.values["gpu.count"] = std::to_string(count);
        }
    }
    if (auto banner = probe.run({smi.string()})) {
        auto at = banner->find("CUDA Version:");
        if (at != std::string::npos) {
            std::string rest = banner->substr(at + 13);
            std::string version(trim(rest.substr(0, rest.find_first_of("|\n"))));
            if (!version.empty()) fingerprint.values["gpu.cuda"] = version;
        }
    }
}

void add_inputs(Fingerprint& fingerprint, const Spec& spec, SystemProbe& probe) {
    fingerprint.values["spec.sha256"] = spec.sha256;
    for (const auto& entry : spec.cases) {
        auto hash_of = [&](const std::filesystem::path& file) {
            auto hash = probe.file_sha256(file);
            return hash ? *hash : std::string("(unreadable)");
        };
        if (!entry.input.empty()) fingerprint.values["case." + entry.name + ".input_sha256"] = hash_of(entry.input);
        if (!entry.reference.empty())
            fingerprint.values["case." + entry.name + ".reference_sha256"] = hash_of(entry.reference);
    }
}

}  // namespace

Fingerprint take_fingerprint(const Spec& spec, SystemProbe& probe) {
    Fingerprint fingerprint;
    fingerprint.values["routetune.version"] = ROUTETUNE_VERSION;
    add_compiler(fingerprint, spec, probe);
    add_cpu_and_os(fingerprint, probe);
    add_gpu(fingerprint, probe);
    add_inputs(fingerprint, spec, probe);
    return fingerprint;
}

std::string Fingerprint::to_json(int indent) const {
    nlohmann::json object = nlohmann::json::object();
    for (const auto& [key, value] : values) object[key] = value;
    return object.dump(indent);
}

Fingerprint Fingerprint::from_json(std::string_view text) {
    nlohmann::json object = nlohmann::json::parse(text, nullptr, false);
    if (object.is_discarded() || !object.is_object())
        throw RuntimeFailure("malformed fingerprint (expected a JSON object): " + std::string(text.substr(0, 80)));
    Fingerprint fingerprint;
    for (const auto& [key, value] : object.items()) {
        if (!value.is_string()) throw RuntimeFailure("malformed fingerprint: value of '" + key + "' is not a string");
        fingerprint.values[key] = value.get<std::string>();
    }
    return fingerprint;
}

std::vector<ValueChange> changed_values(const std::map<std::string, std::string>& before,
                                        const std::map<std::string, std::string>& after) {
    const std::string absent = "(absent)";
    std::vector<ValueChange> changes;
    auto old_it = before.begin();
    auto new_it = after.begin();
    while (old_it != before.end() || new_it != after.end()) {
        bool take_old = new_it == after.end() || (old_it != before.end() && old_it->first < new_it->first);
        bool take_new = old_it == before.end() || (new_it != after.end() && new_it->first < old_it->first);
        if (take_old) {
            changes.push_back({old_it->first, old_it->second, absent});
            ++old_it;
        } else if (take_new) {
            changes.push_back({new_it->first, absent, new_it->second});
            ++new_it;
        } else {
            if (old_it->second != new_it->second) changes.push_back({old_it->first, old_it->second, new_it->second});
            ++old_it;
            ++new_it;
        }
    }
    return changes;
}

std::vector<std::string> diff(const Fingerprint& before, const Fingerprint& after) {
    std::vector<std::string> lines;
    for (const auto& change : changed_values(before.values, after.values))
        lines.push_back(change.key + ": " + change.before + " → " + change.after);
    return lines;
}

}  // namespace routetune
