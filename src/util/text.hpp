// Small text helpers for parsing tools' output: trimming, lines, words.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace routetune {

/// text without leading and trailing spaces, tabs, carriage returns and newlines (a view into text).
std::string_view trim(std::string_view text);

/// The lines of text without their '\n' (views into text); no trailing empty line for a final '\n'.
std::vector<std::string_view> split_lines(std::string_view text);

/// text as a whole decimal integer (optional '-', digits, nothing else), or nullopt.
std::optional<long long> parse_integer(std::string_view text);

/// The non-empty pieces of text between any of separators.
std::vector<std::string> split_words(std::string_view text, std::string_view separators = " \t\r\n");

}  // namespace routetune
