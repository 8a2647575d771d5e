// The pieces of spec loading, one per concern: reading the tables into a Spec, declared
// knobs, and the cross-field checks (placeholders, cases, paths) done once everything is read.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "spec/toml_section.hpp"
#include "routetune/spec.hpp"

namespace routetune {

/// The adapters a spec may name, each with its default compiler executable.
struct AdapterDefault {
    std::string adapter;
    std::string path;             ///< "" when the adapter needs no compiler (custom)
    bool time_on_stdout = false;  ///< its runs print a time it reads (Adapter::times_from_output)
};

/// Every adapter name a spec accepts, with its default compiler path.
const std::vector<AdapterDefault>& spec_adapter_defaults();

/// Reads the [[knob]] tables into knobs; throws UsageError on a malformed declaration.
std::vector<Knob> read_declared_knobs(const TomlSection& root);

/// Checks the placeholders of every command, cwd and environment value of spec against the
/// known ones and the cases ({input} needs an input in every case; reported timing needs
/// {metrics} unless the adapter has time_on_stdout); root gives the lines for messages.
void validate_placeholders(const Spec& spec, const TomlSection& root);

/// Resolves path (as written in the spec) against the spec's folder, lexically normalized.
std::filesystem::path resolve_spec_path(const Spec& spec, const std::string& path);

}  // namespace routetune
