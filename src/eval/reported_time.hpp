// Reading the time a program reports about itself through the {metrics} file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace routetune {

/// The time in seconds from a metrics document {"time_ms": x} or {"time_ms": [x, ...]} (the
/// median of a list); nullopt with *error set when the text is not such a document.
std::optional<double> parse_reported_time(std::string_view text, std::string* error);

}  // namespace routetune
