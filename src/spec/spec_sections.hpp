// The pieces of spec loading, one per concern: reading the tables into a Spec, declared
// knobs, and the cross-field checks (placeholders, cases, paths) done once everything is read.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "spec/toml_section.hpp"
#include "routetune/spec.hpp"

namespace routetune {

/// Reads the [[knob]] tables into knobs; throws UsageError on a malformed declaration.
std::vector<Knob> read_declared_knobs(const TomlSection& root);

/// Checks the placeholders of every command, cwd and environment value of spec against the
/// known ones and the cases ({input} needs an input in every case; reported timing needs
/// {metrics} unless the adapter's registry row has times_on_stdout); root gives the lines for messages.
void validate_placeholders(const Spec& spec, const TomlSection& root);

/// Resolves path (as written in the spec) against the spec's folder, lexically normalized.
std::filesystem::path resolve_spec_path(const Spec& spec, const std::string& path);

}  // namespace routetune
