// Value specs: the syntax is checked first (brackets, separators, duplicates, range shape)
// so errors name the token whatever the knob; resolution against a knob then checks the
// values' membership and turns `*` and `~` into a ValueList (a lazy range for `*` over an
// integer knob, a short explicit list for `~`, less the values the knob leaves out of `~`:
// Knob::left_out, e.g. ISA values this machine's CPU cannot run).
#include "routes/value_spec.hpp"

#include <unordered_set>

#include "util/excerpt.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include "routetune/error.hpp"

namespace routetune {

namespace {

const char* const range_forms = "valid: [lo..hi], [lo..hi:+step], [lo..hi:*factor]";

std::optional<std::int64_t> as_int(std::string_view text) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

ValueSpec parse_range(std::string_view body, const std::string& context) {
    ValueSpec spec;
    spec.kind = ValueSpec::Kind::Range;
    auto dots = body.find("..");
    auto colon = body.find(':');
    auto lo = as_int(body.substr(0, dots));
    auto hi = as_int(body.substr(dots + 2, colon == std::string_view::npos ? std::string_view::npos : colon - dots - 2));
    if (!lo || !hi) throw UsageError(context + ": malformed integer range [" + quoted_excerpt(body) + "] (" + range_forms + ")");
    spec.lo = *lo;
    spec.hi = *hi;
    if (colon != std::string_view::npos) {
        std::string_view step_text = body.substr(colon + 1);
        auto step = step_text.size() > 1 ? as_int(step_text.substr(1)) : std::nullopt;
        if (!step || (step_text[0] != '+' && step_text[0] != '*'))
            throw UsageError(context + ": malformed range step " + quoted_excerpt(step_text) + " (" + range_forms + ")");
        spec.step = *step;
        spec.multiplicative = step_text[0] == '*';
    }
    if (spec.hi < spec.lo)
        throw UsageError(context + ": empty range " + std::to_string(spec.lo) + ".." + std::to_string(spec.hi) + " (lo must be <= hi)");
    if (!spec.multiplicative && spec.step < 1)
        throw UsageError(context + ": range step must be >= 1, got " + std::to_string(spec.step));
    if (spec.multiplicative && (spec.step < 2 || spec.lo < 1))
        throw UsageError(context + ": a multiplicative range needs lo >= 1 and factor >= 2");
    return spec;
}

std::optional<ValueList> make_range(std::int64_t lo, std::int64_t hi, std::int64_t step, bool multiplicative,
                                    std::string& error) {
    try {
        return multiplicative ? ValueList::multiplicative(lo, hi, step) : ValueList::additive(lo, hi, step);
    } catch (const UsageError& e) {
        error = e.what();
        return std::nullopt;
    }
}

}  // namespace

std::string canonical_int(const std::string& text) {
    auto value = as_int(text);
    return value ? std::to_string(*value) : text;
}

ValueSpec parse_value_spec(std::string_view value, const std::string& context) {
    ValueSpec spec;
    if (value.empty()) throw UsageError(context + ": empty value (write -k=v, -k=[a|b], -k=[lo..hi], -k=* or -k=~)");
    if (std::string error = knob_value_control_error(value); !error.empty()) throw UsageError(context + ": " + error);
    if (value == "*") return ValueSpec{ValueSpec::Kind::All, {}, 0, 0, 1, false};
    if (value == "~") return ValueSpec{ValueSpec::Kind::Representative, {}, 0, 0, 1, false};
    if (value.front() != '[') {
        if (value.find_first_of("[]") != std::string_view::npos)
            throw UsageError(context + ": text outside brackets (write the whole value as [a|b])");
        if (value.find('|') != std::string_view::npos)
            throw UsageError(context + ": a list of values needs brackets: [" + quoted_excerpt(value) + "]");
        spec.values.emplace_back(value);
        return spec;
    }
    auto close = value.find(']');
    std::string_view body = value.substr(1, close - 1);
    if (body.find('[') != std::string_view::npos) throw UsageError(context + ": nested brackets are not allowed");
    if (close != value.size() - 1)
        throw UsageError(context + ": text outside brackets after ']': " + quoted_excerpt(value.substr(close + 1)));
    if (body.empty()) throw UsageError(context + ": empty value list '[]'");
    if (body.find("..") != std::string_view::npos) return parse_range(body, context);
    spec.kind = ValueSpec::Kind::List;
    std::set<std::string, std::less<>> seen;
    std::size_t start = 0;
    while (true) {
        auto bar = body.find('|', start);
        std::string_view item = body.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start);
        if (item.empty()) throw UsageError(context + ": empty value in list [" + quoted_excerpt(body) + "]");
        if (!seen.insert(std::string(item)).second)
            throw UsageError(context + ": duplicate value " + quoted_excerpt(item) + " in list");
        spec.values.emplace_back(item);
        if (bar == std::string_view::npos) break;
        start = bar + 1;
    }
    return spec;
}

std::vector<std::int64_t> representative_ints(const Knob& knob) {
    std::vector<__int128> points;
    auto d = as_int(knob.default_value);
    // An upper bound of INT_MAX or more is the compiler saying "no limit": the bound itself
    // stands in for the default's far end, large_factor × the default (or the lower bound).
    bool no_limit = knob.bounded && knob.max >= kNoLimitBound;
    if (!d && no_limit) d = knob.min;
    if (d) {
        points = {static_cast<__int128>(*d) / 4, static_cast<__int128>(*d) / 2, *d, static_cast<__int128>(*d) * 2,
                  static_cast<__int128>(*d) * 4};
        if (knob.bounded) {
            points.push_back(knob.min);
            points.push_back(no_limit ? static_cast<__int128>(std::max<std::int64_t>(*d, 1)) * kLargeFactor : knob.max);
        }
    } else if (knob.bounded) {
        __int128 span = static_cast<__int128>(knob.max) - knob.min;
        for (int k = 0; k <= 4; ++k) points.push_back(knob.min + span * k / 4);
    }
    std::vector<std::int64_t> values;
    for (auto p : points) {
        if (knob.bounded) p = std::clamp<__int128>(p, knob.min, knob.max);
        values.push_back(static_cast<std::int64_t>(p));
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

namespace {

// `~`: every value of a bool or enum, representative_ints of an int, less the knob's
// left-out values (Knob::left_out).
std::optional<ValueList> representative_values(const Knob& knob, std::string& error) {
    std::vector<std::string> values;
    if (knob.type != KnobType::Int) {
        if (knob.values.empty()) {
            error = "'~' needs known values; " + knob.name + " lists none (list values instead)";
            return std::nullopt;
        }
        values = knob.values;
    } else {
        auto ints = representative_ints(knob);
        if (ints.empty()) {
            error = "'~' needs a default or bounds; " + knob.name + " has neither (list values instead)";
            return std::nullopt;
        }
        for (auto v : ints) values.push_back(std::to_string(v));
    }
    std::erase_if(values, [&](const std::string& value) { return knob.left_out_reason(value) != nullptr; });
    if (values.empty()) {
        error = "'~' leaves out every value of " + knob.name + " (" + knob.left_out.front().reason + "; list values instead)";
        return std::nullopt;
    }
    return ValueList::of(std::move(values));
}

}  // namespace

std::optional<ValueList> resolve_value_spec(const ValueSpec& spec, const Knob& knob, std::string& error) {
    std::string allowed = " (allowed: " + knob.allowed_text() + ")";
    switch (spec.kind) {
        case ValueSpec::Kind::Fixed:
        case ValueSpec::Kind::List: {
            std::vector<std::string> values;
            std::unordered_set<std::string> seen;  // linear in the list's length, not quadratic
            for (const auto& value : spec.values) {
                if (!knob.allows(value)) {
                    error = "value " + quoted_excerpt(value) + " is not allowed for " + knob.name + allowed;
                    return std::nullopt;
                }
                values.push_back(knob.type == KnobType::Int ? canonical_int(value) : value);
                if (!seen.insert(values.back()).second) {
                    error = "duplicate value " + quoted_excerpt(value) + " (same as " + quoted_excerpt(values.back()) + ")";
                    return std::nullopt;
                }
            }
            return ValueList::of(std::move(values));
        }
        case ValueSpec::Kind::Range:
            if (knob.type != KnobType::Int) {
                error = "an integer range needs an int knob; " + knob.name + " is " + std::string(to_string(knob.type)) + allowed;
                return std::nullopt;
            }
            if (knob.bounded && (spec.lo < knob.min || spec.hi > knob.max)) {
                error = "range " + std::to_string(spec.lo) + ".." + std::to_string(spec.hi) + " is outside the bounds of " +
                        knob.name + allowed;
                return std::nullopt;
            }
            return make_range(spec.lo, spec.hi, spec.step, spec.multiplicative, error);
        case ValueSpec::Kind::All:
            if (!knob.bounded || (knob.type != KnobType::Int && knob.values.empty())) {
                error = "'*' needs a bounded knob; " + knob.name + " takes " + knob.allowed_text() +
                        " (list values or give a range instead)";
                return std::nullopt;
            }
            if (knob.type == KnobType::Int) return make_range(knob.min, knob.max, 1, false, error);
            return ValueList::of(knob.values);
        case ValueSpec::Kind::Representative:
            return representative_values(knob, error);
    }
    return std::nullopt;
}

}  // namespace routetune
