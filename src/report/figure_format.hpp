// How every report writes a figure: milliseconds, percentages, a message on one line, text cut
// to a number of display columns.
#pragma once

#include <cstddef>
#include <string>

namespace routetune {

/// Seconds as milliseconds with three decimals: 0.0123456 -> "12.346".
std::string format_ms(double seconds);

/// A fraction as a percentage with one decimal: 0.0234 -> "2.3%".
std::string format_percent(double fraction);

/// The message reduced to one line (newlines and tabs become spaces, ends trimmed).
std::string one_line(const std::string& text);

/// Number of display columns of UTF-8 text (code points; every one counted as one column).
std::size_t display_width(const std::string& text);

/// text cut to at most width columns, its last kept column replaced by … when cut.
std::string truncate_display(const std::string& text, std::size_t width);

}  // namespace routetune
