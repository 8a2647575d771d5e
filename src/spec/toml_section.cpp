// Typed reads of a toml++ table. Each accessor looks the key up, checks the node's type and
// converts it; a mismatch becomes a UsageError located at the value's source position (toml++
// keeps line and column for every key and value). Unknown keys are found by comparing the
// table's keys with the caller's list and suggesting the closest valid key by edit distance.
#include "spec/toml_section.hpp"
#include "util/excerpt.hpp"

#include <algorithm>
#include <cmath>

#include "routetune/error.hpp"
#include "util/edit_distance.hpp"

namespace routetune {

namespace {

std::string type_name(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::string: return "a string";
        case toml::node_type::integer: return "an integer";
        case toml::node_type::floating_point: return "a float";
        case toml::node_type::boolean: return "a boolean";
        case toml::node_type::array: return "an array";
        case toml::node_type::table: return "a table";
        case toml::node_type::date:
        case toml::node_type::time:
        case toml::node_type::date_time: return "a date/time";
        case toml::node_type::none: break;
    }
    return "nothing";
}

std::string join(const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
}

std::string format_number(double value) {
    std::string text = std::to_string(value);
    while (text.size() > 1 && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
    return text;
}

}  // namespace

std::string source_location(const std::filesystem::path& file, const toml::source_position& pos) {
    if (pos.line == 0) return file.string();
    return file.string() + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

std::string closest_name(std::string_view name, const std::vector<std::string>& known) {
    std::string best;
    std::size_t best_distance = std::max<std::size_t>(2, name.size() / 3) + 1;
    for (const auto& candidate : known) {
        std::size_t distance = edit_distance(name, candidate);
        if (distance < best_distance) {
            best_distance = distance;
            best = candidate;
        }
    }
    return best;
}

TomlSection::TomlSection(const toml::table& table, std::string label, std::filesystem::path file)
    : table_(&table), label_(std::move(label)), file_(std::move(file)) {}

void TomlSection::check_keys(const std::vector<std::string>& valid) const {
    for (const auto& [key, value] : *table_) {
        if (std::find(valid.begin(), valid.end(), key.str()) != valid.end()) continue;
        std::string message = source_location(file_, key.source().begin) + ": unknown key " +
                              quoted_excerpt(key.str()) + " in " + label_ + " (valid keys: " + join(valid) + ")";
        std::string suggestion = closest_name(key.str(), valid);
        if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
        throw UsageError(message);
    }
}

bool TomlSection::has(std::string_view key) const { return node(key) != nullptr; }

const toml::node* TomlSection::node(std::string_view key) const { return table_->get(key); }

std::string TomlSection::where(std::string_view key) const {
    const toml::node* found = key.empty() ? nullptr : node(key);
    return source_location(file_, found ? found->source().begin : table_->source().begin);
}

void TomlSection::fail(std::string_view key, const std::string& message) const {
    std::string subject = label_ + (key.empty() ? "" : " " + std::string(key));
    throw UsageError(where(key) + ": " + subject + ": " + message);
}

void TomlSection::wrong_type(std::string_view key, const std::string& expected) const {
    fail(key, "expected " + expected + ", got " + type_name(*node(key)));
}

std::optional<std::string> TomlSection::string(std::string_view key) const {
    const toml::node* found = node(key);
    if (!found) return std::nullopt;
    if (!found->is_string()) wrong_type(key, "a string");
    return found->as_string()->get();
}

std::optional<std::string> TomlSection::choice(std::string_view key,
                                               const std::vector<std::string>& choices) const {
    auto value = string(key);
    if (value && std::find(choices.begin(), choices.end(), *value) == choices.end()) {
        std::string message = quoted_excerpt(*value) + " is not one of " + join(choices);
        std::string suggestion = closest_name(*value, choices);
        if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
        fail(key, message);
    }
    return value;
}

std::optional<double> TomlSection::number(std::string_view key) const {
    const toml::node* found = node(key);
    if (!found) return std::nullopt;
    if (found->is_integer()) return static_cast<double>(found->as_integer()->get());
    if (!found->is_floating_point()) wrong_type(key, "a number");
    double value = found->as_floating_point()->get();
    if (!std::isfinite(value)) fail(key, "expected a finite number");
    return value;
}

std::optional<std::int64_t> TomlSection::integer(std::string_view key) const {
    const toml::node* found = node(key);
    if (!found) return std::nullopt;
    if (!found->is_integer()) wrong_type(key, "an integer");
    return found->as_integer()->get();
}

std::optional<bool> TomlSection::boolean(std::string_view key) const {
    const toml::node* found = node(key);
    if (!found) return std::nullopt;
    if (!found->is_boolean()) wrong_type(key, "a boolean (true or false)");
    return found->as_boolean()->get();
}

std::optional<std::vector<std::string>> TomlSection::strings(std::string_view key) const {
    const toml::node* found = node(key);
    if (!found) return std::nullopt;
    if (!found->is_array()) wrong_type(key, "an array of strings");
    std::vector<std::string> items;
    for (const auto& element : *found->as_array()) {
        if (!element.is_string()) {
            throw UsageError(source_location(file_, element.source().begin) + ": " + label_ + " " +
                             std::string(key) + ": expected an array of strings, found " +
                             type_name(element) + " at item " + std::to_string(items.size() + 1));
        }
        items.push_back(element.as_string()->get());
    }
    return items;
}

std::optional<std::map<std::string, std::string>> TomlSection::string_map(std::string_view key) const {
    const toml::node* found = node(key);
    if (!found) return std::nullopt;
    if (!found->is_table()) wrong_type(key, "a table of strings");
    std::map<std::string, std::string> values;
    for (const auto& [name, value] : *found->as_table()) {
        if (!value.is_string()) {
            throw UsageError(source_location(file_, value.source().begin) + ": " + label_ + " " +
                             std::string(key) + "." + std::string(name.str()) + ": expected a string, got " +
                             type_name(value));
        }
        values.emplace(std::string(name.str()), value.as_string()->get());
    }
    return values;
}

std::optional<TomlSection> TomlSection::table(std::string_view key) const {
    const toml::node* found = node(key);
    if (!found) return std::nullopt;
    std::string label = "[";
    label.append(key).append("]");
    if (!found->is_table()) wrong_type(key, "a table (" + label + ")");
    return TomlSection(*found->as_table(), label, file_);
}

std::vector<TomlSection> TomlSection::tables(std::string_view key) const {
    std::vector<TomlSection> sections;
    const toml::node* found = node(key);
    if (!found || (found->is_array() && found->as_array()->empty())) return sections;
    if (!found->is_array_of_tables()) wrong_type(key, "an array of tables ([[" + std::string(key) + "]])");
    for (const auto& element : *found->as_array()) {
        std::string label = "[[" + std::string(key) + "]] #" + std::to_string(sections.size() + 1);
        sections.emplace_back(*element.as_table(), label, file_);
    }
    return sections;
}

std::optional<double> TomlSection::number_above(std::string_view key, double bound) const {
    auto value = number(key);
    if (value && !(*value > bound)) fail(key, "must be greater than " + format_number(bound) + ", got " + format_number(*value));
    return value;
}

std::optional<double> TomlSection::number_at_least(std::string_view key, double bound) const {
    auto value = number(key);
    if (value && *value < bound) fail(key, "must be at least " + format_number(bound) + ", got " + format_number(*value));
    return value;
}

std::optional<std::int64_t> TomlSection::integer_at_least(std::string_view key, std::int64_t bound) const {
    auto value = integer(key);
    if (value && *value < bound) fail(key, "must be at least " + std::to_string(bound) + ", got " + std::to_string(*value));
    return value;
}

std::optional<std::int64_t> TomlSection::integer_in(std::string_view key, const IntegerRange& range) const {
    auto value = integer(key);
    if (value && !in_range(*value, range)) fail(key, "must be " + describe(range) + ", got " + std::to_string(*value));
    return value;
}

std::optional<double> TomlSection::number_in(std::string_view key, const NumberRange& range) const {
    auto value = number(key);
    if (value && !in_range(*value, range)) fail(key, "must be " + describe(range) + ", got " + format_number(*value));
    return value;
}

}  // namespace routetune
