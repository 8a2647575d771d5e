// Range checks and their messages. Integers are parsed with from_chars over the whole text, so
// a sign where none belongs, a fraction, an exponent or an overflow is an error, never a wrap.
// A duration is split into groups of digits and dots, each parsed whole by from_chars (so
// "1.2.3s" is an error, not 1.2 s) and scaled by its unit; the sum must be finite and in range.
#include "spec/value_ranges.hpp"

#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

#include "routetune/error.hpp"
#include "util/excerpt.hpp"

namespace routetune {

namespace {

std::string number_text(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", value);
    return buffer;
}

// The seconds one group "<number><unit>" of a duration stands for (unit "": none), or nullopt
// when malformed.
std::optional<double> duration_group(std::string_view number, std::string_view unit) {
    double value = 0;
    auto result = std::from_chars(number.data(), number.data() + number.size(), value, std::chars_format::fixed);
    if (number.empty() || result.ec != std::errc() || result.ptr != number.data() + number.size()) return std::nullopt;
    if (unit == "h") return value * 3600;
    if (unit == "m") return value * 60;
    if (unit == "s" || unit.empty()) return value;
    return std::nullopt;
}

}  // namespace

std::string describe(const IntegerRange& range) {
    return "an integer from " + std::to_string(range.min) + " to " + std::to_string(range.max);
}

std::string describe(const NumberRange& range) {
    return std::string("a number ") + (range.min_included ? "at least " : "above ") + number_text(range.min) +
           " and at most " + number_text(range.max);
}

bool in_range(std::int64_t value, const IntegerRange& range) { return value >= range.min && value <= range.max; }

bool in_range(double value, const NumberRange& range) {
    if (!std::isfinite(value) || value > range.max) return false;
    return range.min_included ? value >= range.min : value > range.min;
}

std::int64_t parse_integer_option(std::string_view text, const IntegerRange& range, std::string_view option) {
    std::int64_t value = 0;
    auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    bool whole = result.ec == std::errc() && result.ptr == text.data() + text.size() && !text.empty() &&
                 !(text.front() == '-' && range.min >= 0);
    if (!whole || !in_range(value, range)) {
        throw UsageError(std::string(option) + ": " + quoted_excerpt(text) + " is not valid (expected " +
                         describe(range) + ")");
    }
    return value;
}

double parse_duration(std::string_view text, std::string_view option, const NumberRange& range) {
    auto bad = [&] {
        return UsageError(std::string(option) + ": " + quoted_excerpt(text) +
                          " is not a duration (valid: 90, 90s, 5m, 1h30m, 2.5h)");
    };
    double total = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t start = i;
        while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
        std::string_view number = text.substr(start, i - start);
        bool bare = i == text.size();
        if (bare && start != 0) throw bad();  // "1h30": only a whole text may lack its unit
        std::optional<double> seconds = duration_group(number, text.substr(i, bare ? 0 : 1));
        i += bare ? 0 : 1;
        if (!seconds) throw bad();
        total += *seconds;
    }
    if (text.empty()) throw bad();
    if (!in_range(total, range)) {
        throw UsageError(std::string(option) + ": " + quoted_excerpt(text) + " is not valid (expected " +
                         describe(range) + " s)");
    }
    return total;
}

}  // namespace routetune
