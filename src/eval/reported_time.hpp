// Reading the time a program reports about itself through the {metrics} file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace routetune {

/// The times in seconds from a metrics document {"time_ms": x} or {"time_ms": [x, ...]}, in
/// order; nullopt with *error set when the text is not such a document.
std::optional<std::vector<double>> parse_reported_times(std::string_view text, std::string* error);

}  // namespace routetune
