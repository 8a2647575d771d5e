// The value part of an expression token (`v`, `[a|b]`, `[lo..hi:+s]`, `*`, `~`), parsed
// before the knob is known, then resolved against one knob (internal to src/routes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/expression.hpp"
#include "routetune/knob.hpp"

namespace routetune {

/// A value spec as written.
struct ValueSpec {
    enum class Kind { Fixed, List, Range, All, Representative };
    Kind kind = Kind::Fixed;
    std::vector<std::string> values;  ///< Fixed: one value; List: the listed values
    std::int64_t lo = 0, hi = 0, step = 1;
    bool multiplicative = false;      ///< Range: ':*m' rather than ':+s'
};

/// Parses value; throws UsageError prefixed with context (token and position) for empty or
/// duplicate values, text outside or nested brackets, and malformed ranges.
ValueSpec parse_value_spec(std::string_view value, const std::string& context);

/// The values spec gives knob, or nullopt with error set to why it does not fit the knob
/// (value not allowed, range on a non-integer knob or past its bounds, '*' on an unbounded knob).
std::optional<ValueList> resolve_value_spec(const ValueSpec& spec, const Knob& knob, std::string& error);

/// text in canonical decimal ("016" -> "16") when it is an integer; text unchanged otherwise.
std::string canonical_int(const std::string& text);

/// An int knob's upper bound from which on `~` treats it as unlimited (GCC prints INT_MAX).
inline constexpr std::int64_t kNoLimitBound = 2147483647;
/// `~`'s stand-in for an unlimited upper bound: this many times the default (docs/route-syntax.md).
inline constexpr std::int64_t kLargeFactor = 16;

/// The `~` values of an integer knob: with a default d, {d/4, d/2, d, 2d, 4d} plus the bounds,
/// clamped to the bounds; with no default, the bounds and the three quartile points between.
/// An upper bound of kNoLimitBound or more is replaced by kLargeFactor × max(d, 1), d being the
/// lower bound when there is no default. Sorted, unique. Empty when the knob has neither a
/// default nor bounds.
std::vector<std::int64_t> representative_ints(const Knob& knob);

}  // namespace routetune
