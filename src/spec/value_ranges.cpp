// Range checks and their messages. Integers are parsed with from_chars over the whole text, so
// a sign where none belongs, a fraction, an exponent or an overflow is an error, never a wrap.
#include "spec/value_ranges.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "routetune/error.hpp"
#include "util/excerpt.hpp"

namespace routetune {

namespace {

std::string number_text(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", value);
    return buffer;
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

}  // namespace routetune
