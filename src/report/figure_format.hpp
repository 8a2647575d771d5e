// How every report writes a figure: milliseconds, percentages, a message on one line.
#pragma once

#include <string>

namespace routetune {

/// Seconds as milliseconds with three decimals: 0.0123456 -> "12.346".
std::string format_ms(double seconds);

/// A fraction as a percentage with one decimal: 0.0234 -> "2.3%".
std::string format_percent(double fraction);

/// The message reduced to one line (newlines and tabs become spaces, ends trimmed).
std::string one_line(const std::string& text);

}  // namespace routetune
