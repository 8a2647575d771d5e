// Typed, validated access to one TOML table of a spec. Every read checks the value's type
// and every error names the file, line and column, the key and what would be valid, so a
// typo in a spec is reported where it is, never silently ignored.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "spec/value_ranges.hpp"

namespace routetune {

/// "file:line:column" of a source position (just "file" when the position is unknown).
std::string source_location(const std::filesystem::path& file, const toml::source_position& pos);

/// The known name closest to name by edit distance, or "" when none is close.
std::string closest_name(std::string_view name, const std::vector<std::string>& known);

/// One table of a spec, named for messages ("[build]", "[[case]] #2", "the spec").
class TomlSection {
public:
    /// Wraps table; label names it in messages; file is the spec's path.
    TomlSection(const toml::table& table, std::string label, std::filesystem::path file);

    /// Throws UsageError on the first key not in valid, naming its line and the valid keys.
    void check_keys(const std::vector<std::string>& valid) const;
    /// True when key is present.
    bool has(std::string_view key) const;

    /// A string, or nullopt when absent; UsageError when of another type.
    std::optional<std::string> string(std::string_view key) const;
    /// A string from the listed choices; UsageError listing them otherwise.
    std::optional<std::string> choice(std::string_view key, const std::vector<std::string>& choices) const;
    /// An integer or floating-point number; UsageError when of another type.
    std::optional<double> number(std::string_view key) const;
    /// An integer; UsageError for a float or another type.
    std::optional<std::int64_t> integer(std::string_view key) const;
    /// A boolean; UsageError when of another type.
    std::optional<bool> boolean(std::string_view key) const;
    /// An array of strings; UsageError for another type or a non-string element.
    std::optional<std::vector<std::string>> strings(std::string_view key) const;
    /// A table of strings (an environment); UsageError for a non-string value.
    std::optional<std::map<std::string, std::string>> string_map(std::string_view key) const;
    /// A sub-table, or nullopt; UsageError when of another type.
    std::optional<TomlSection> table(std::string_view key) const;
    /// The tables of an array of tables ([[case]]), or empty; UsageError for another type.
    std::vector<TomlSection> tables(std::string_view key) const;

    /// Number helpers that also enforce a lower bound: strictly above (> bound) or at least.
    std::optional<double> number_above(std::string_view key, double bound) const;
    std::optional<double> number_at_least(std::string_view key, double bound) const;
    std::optional<std::int64_t> integer_at_least(std::string_view key, std::int64_t bound) const;
    /// An integer inside range (value_ranges.hpp); UsageError naming the range otherwise.
    std::optional<std::int64_t> integer_in(std::string_view key, const IntegerRange& range) const;
    /// A number inside range; UsageError naming the range otherwise.
    std::optional<double> number_in(std::string_view key, const NumberRange& range) const;

    /// "file:line:col" of key's value (of the table when key is absent or empty).
    std::string where(std::string_view key = {}) const;
    /// Throws UsageError "where(key): label key: message".
    [[noreturn]] void fail(std::string_view key, const std::string& message) const;
    /// The label given at construction.
    const std::string& label() const { return label_; }
    /// The wrapped table.
    const toml::table& raw() const { return *table_; }

private:
    const toml::node* node(std::string_view key) const;
    [[noreturn]] void wrong_type(std::string_view key, const std::string& expected) const;

    const toml::table* table_;
    std::string label_;
    std::filesystem::path file_;
};

}  // namespace routetune
