// Knob values: membership, type names and the text used in messages.
#include "routetune/knob.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "routetune/error.hpp"

namespace routetune {

namespace {

std::optional<std::int64_t> parse_int(std::string_view text) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

}  // namespace

std::string_view to_string(KnobType type) {
    switch (type) {
        case KnobType::Bool: return "bool";
        case KnobType::Enum: return "enum";
        case KnobType::Int: return "int";
    }
    return "bool";
}

KnobType knob_type_from_string(std::string_view text) {
    if (text == "bool") return KnobType::Bool;
    if (text == "enum") return KnobType::Enum;
    if (text == "int") return KnobType::Int;
    throw UsageError("unknown knob type '" + std::string(text) + "' (valid: bool, enum, int)");
}

bool Knob::has_tag(std::string_view tag) const {
    return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

const LeftOutValue* Knob::left_out_reason(std::string_view value) const {
    auto found = std::find_if(left_out.begin(), left_out.end(), [&](const LeftOutValue& entry) { return entry.value == value; });
    return found == left_out.end() ? nullptr : &*found;
}

bool Knob::allows(std::string_view value) const {
    if (type == KnobType::Int) {
        auto number = parse_int(value);
        if (!number) return false;
        return !bounded || (*number >= min && *number <= max);
    }
    if (std::find(values.begin(), values.end(), value) != values.end()) return true;
    return type == KnobType::Enum && !bounded && !value.empty();
}

std::string Knob::allowed_text() const {
    if (type == KnobType::Int) {
        if (!bounded) return "any integer";
        return std::to_string(min) + ".." + std::to_string(max);
    }
    std::string text;
    for (const auto& value : values) {
        if (!text.empty()) text += '|';
        text += value;
    }
    if (!bounded) text += text.empty() ? "any value" : "|...";
    return text;
}

bool is_valid_knob_name(std::string_view name) {
    if (name.size() < 2 || name[0] != '-') return false;
    return name.find_first_of("= \t\r\n[]|") == std::string_view::npos;
}

}  // namespace routetune
