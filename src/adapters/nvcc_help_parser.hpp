// A parser for the option listings of `nvcc --help` and `ptxas --help` (the same layout):
// each option starts at column 0 with its long name, its argument and its short name in
// parentheses, followed by indented description lines that may state the allowed values and
// the default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace routetune {

/// One option of an NVIDIA tool's help listing.
struct NvccHelpOption {
    std::string long_name;                ///< "--ftz", "--opt-level"
    std::string short_name;               ///< "-ftz", "-O"; "" when the listing gives none
    std::string argument;                 ///< "{true|false}", "<amount>", "<0..10>"; "" for a flag
    std::vector<std::string> values;      ///< allowed values, from the argument or "Allowed values" text
    std::optional<std::int64_t> min;      ///< from an argument "<lo..hi>"
    std::optional<std::int64_t> max;
    std::string default_value;            ///< from "Default value:  x." (quotes removed); "" if none
    std::string help;                     ///< the first sentence of the description

    /// True when the option takes a value (it has an argument).
    bool takes_value() const { return !argument.empty(); }
};

/// Every option of a help listing, in listing order. Never throws: unrecognised lines are
/// skipped, so a changed layout yields fewer options rather than an error.
std::vector<NvccHelpOption> parse_nvcc_help(std::string_view text);

/// The option named long_name ("--ftz") in options, or nullptr.
const NvccHelpOption* find_help_option(const std::vector<NvccHelpOption>& options, std::string_view long_name);

}  // namespace routetune
