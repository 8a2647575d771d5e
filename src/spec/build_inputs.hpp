// [build] inputs: the files a build reads (sources, headers, data), named by globs relative to
// the spec's folder, so a lock can hold their hashes and a changed source makes it stale.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "routetune/spec.hpp"

namespace routetune {

/// The most files [build] inputs may name (every one is hashed by each verify).
inline constexpr std::size_t kMaxBuildInputs = 10000;

/// Whether a pattern that matches no file is an error (when a lock is written) or not (when a
/// lock is checked: its files are then named as removed).
enum class UnmatchedInputs { Allowed, Refused };

/// The files pattern names, keyed as a lock records them (relative to spec's folder for a
/// relative pattern, absolute otherwise), or why not in *error: a POSIX glob (*, ?, [...]);
/// a match that is a folder stands for every regular file below it, hidden entries (.git,
/// .routetune) left out. A relative pattern must stay inside the spec's folder, and so must its
/// files, through links too. A pattern matching no file gives no files and no error.
std::map<std::string, std::filesystem::path> input_pattern_files(const Spec& spec, const std::string& pattern,
                                                                 std::string* error);

/// Every file of spec.build.inputs, keyed as input_pattern_files keys them; throws UsageError
/// naming the spec, the pattern and why when one leaves the folder, or (Refused) matches nothing.
std::map<std::string, std::filesystem::path> build_input_files(const Spec& spec, UnmatchedInputs unmatched);

/// The sha256 of every file of build_input_files(spec, unmatched) ("(unreadable)" for one that
/// cannot be read), by the same keys: what a lock records and verify compares.
std::map<std::string, std::string> build_input_hashes(const Spec& spec, UnmatchedInputs unmatched);

}  // namespace routetune
