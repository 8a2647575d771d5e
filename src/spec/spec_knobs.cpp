// User-declared knobs: each [[knob]] table becomes a Knob. The type is given or inferred (a
// values list makes an enum, min/max or range an int, neither a bool); values, bounds and the
// default are checked against each other; `argv = "-DTILE={value}"` or `env = "TILE"` says
// how a value reaches the build (Knob::application).
#include <cctype>
#include <charconv>
#include <set>

#include "spec/placeholders.hpp"
#include "util/excerpt.hpp"
#include "spec/spec_sections.hpp"
#include "routetune/error.hpp"

namespace routetune {

namespace {

std::optional<std::int64_t> parse_int(std::string_view text) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::vector<std::string> read_values(const TomlSection& section, const std::string& knob) {
    std::vector<std::string> values;
    const toml::node* node = section.raw().get("values");
    if (!node) return values;
    if (!node->is_array()) section.fail("values", "expected an array of strings or integers");
    for (const auto& element : *node->as_array()) {
        if (element.is_string()) values.push_back(element.as_string()->get());
        else if (element.is_integer()) values.push_back(std::to_string(element.as_integer()->get()));
        else section.fail("values", "expected an array of strings or integers");
    }
    if (values.empty()) section.fail("values", "must list at least one value");
    std::set<std::string> seen;
    for (const auto& value : values) {
        if (std::string error = knob_value_control_error(value); !error.empty())
            section.fail("values", "knob " + quoted_excerpt(knob) + ": " + error);
        if (value.empty() || value == "*" || value == "~" || value.find_first_of(" \t\r\n[]|") != std::string::npos)
            section.fail("values", quoted_excerpt(value) + " is not a valid value (non-empty; no whitespace, '[', ']', '|'; not * or ~)");
        if (!seen.insert(value).second) section.fail("values", "duplicate value " + quoted_excerpt(value));
    }
    return values;
}

void read_bounds(Knob& knob, const TomlSection& section) {
    auto min = section.integer("min");
    auto max = section.integer("max");
    if (auto range = section.string("range")) {
        if (min || max) section.fail("range", "give either range or min/max, not both");
        std::string text = *range;
        if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
        auto dots = text.find("..");
        if (dots != std::string::npos) {
            min = parse_int(text.substr(0, dots));
            max = parse_int(text.substr(dots + 2));
        }
        if (dots == std::string::npos || !min || !max)
            section.fail("range", quoted_excerpt(*range) + " is not an integer range like \"[1..64]\"");
    }
    if (min.has_value() != max.has_value())
        section.fail(min ? "min" : "max", "give both min and max (or range = \"[lo..hi]\")");
    if (!min) {
        knob.bounded = false;
        return;
    }
    if (*min > *max) section.fail("min", "min " + std::to_string(*min) + " is greater than max " + std::to_string(*max));
    knob.min = *min;
    knob.max = *max;
}

std::string read_default(const TomlSection& section, const std::string& knob) {
    const toml::node* node = section.raw().get("default");
    if (!node) return {};
    if (node->is_string()) {
        const std::string& value = node->as_string()->get();
        if (std::string error = knob_value_control_error(value); !error.empty())
            section.fail("default", "knob " + quoted_excerpt(knob) + ": " + error);
        return value;
    }
    if (node->is_integer()) return std::to_string(node->as_integer()->get());
    if (node->is_boolean()) return node->as_boolean()->get() ? "on" : "off";
    section.fail("default", "expected a string, an integer or a boolean");
}

void read_application(Knob& knob, const TomlSection& section) {
    auto argv = section.string("argv");
    auto env = section.string("env");
    if (argv && env) section.fail("env", "give either argv or env, not both");
    if (argv) {
        if (argv->empty()) section.fail("argv", "must not be empty");
        bool has_value = false;
        for (const auto& use : find_placeholders(*argv)) {
            if (use.name != "value")
                section.fail("argv", "unknown placeholder {" + use.name + "} in " + quoted_excerpt(*argv) + " (valid: {value})");
            has_value = true;
        }
        if (!has_value && knob.type != KnobType::Bool)
            section.fail("argv", quoted_excerpt(*argv) + " must contain {value} for a" +
                                     (knob.type == KnobType::Int ? "n int" : "n enum") + " knob");
        knob.application.argv_template = *argv;
    }
    if (env) {
        bool valid = !env->empty() && !(env->front() >= '0' && env->front() <= '9');
        for (char c : *env) valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
        if (!valid) section.fail("env", quoted_excerpt(*env) + " is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)");
        knob.application.env_name = *env;
    }
}

Knob read_knob(const TomlSection& section) {
    section.check_keys({"name", "type", "values", "min", "max", "range", "default", "help", "tags", "argv", "env"});
    Knob knob;
    if (!section.has("name")) section.fail("", "'name' is required (e.g. name = \"-tile\")");
    knob.name = *section.string("name");
    if (!is_valid_knob_name(knob.name))
        section.fail("name", quoted_excerpt(knob.name) + " is not a knob name (it starts with '-' and has no '=', "
                                               "whitespace, '[', ']' or '|')");
    bool has_bounds = section.has("min") || section.has("max") || section.has("range");
    if (auto type = section.choice("type", {"bool", "enum", "int"})) {
        knob.type = knob_type_from_string(*type);
    } else {
        knob.type = section.has("values") ? KnobType::Enum : has_bounds ? KnobType::Int : KnobType::Bool;
    }
    if (knob.type != KnobType::Enum && section.has("values"))
        section.fail("values", "a " + std::string(to_string(knob.type)) + " knob takes no values list");
    if (knob.type != KnobType::Int && has_bounds)
        section.fail(section.has("range") ? "range" : section.has("min") ? "min" : "max",
                     "a " + std::string(to_string(knob.type)) + " knob takes no range");
    if (knob.type == KnobType::Bool) knob.values = {"on", "off"};
    if (knob.type == KnobType::Enum) {
        knob.values = read_values(section, knob.name);
        if (knob.values.empty()) section.fail("", "an enum knob needs values = [...]");
    }
    if (knob.type == KnobType::Int) read_bounds(knob, section);
    knob.default_value = read_default(section, knob.name);
    if (!knob.default_value.empty() && !knob.allows(knob.default_value))
        section.fail("default", quoted_excerpt(knob.default_value) + " is not allowed (valid: " + knob.allowed_text() + ")");
    if (auto help = section.string("help")) knob.help = *help;
    if (auto tags = section.strings("tags")) knob.tags = *tags;
    read_application(knob, section);
    return knob;
}

}  // namespace

std::vector<Knob> read_declared_knobs(const TomlSection& root) {
    std::vector<Knob> knobs;
    std::set<std::string> names;
    for (const auto& section : root.tables("knob")) {
        knobs.push_back(read_knob(section));
        if (!names.insert(knobs.back().name).second)
            section.fail("name", "duplicate knob " + quoted_excerpt(knobs.back().name));
    }
    return knobs;
}

}  // namespace routetune
