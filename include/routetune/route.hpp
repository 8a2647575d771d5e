// A route: a set of knob=value assignments, printed canonically as sorted `-name=value`
// tokens (GPT-compatible). The empty route is the default route.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace routetune {

class Catalog;

/// An assignment of values to knobs, ordered by knob name.
class Route {
public:
    /// Parses space-separated NAME=VALUE tokens; throws UsageError naming the bad token.
    static Route parse(std::string_view text);

    /// Sets knob to value, replacing an earlier value.
    void set(const std::string& knob, const std::string& value);
    /// Removes knob if present.
    void erase(const std::string& knob);
    /// The value of knob, if assigned.
    std::optional<std::string> get(std::string_view knob) const;
    /// All assignments, sorted by knob name.
    const std::map<std::string, std::string, std::less<>>& assignments() const { return values_; }
    /// True for the default route.
    bool empty() const { return values_.empty(); }
    /// Canonical text: "-a=1 -b=on"; "" for the default route. parse(to_string()) == *this.
    std::string to_string() const;
    /// First 16 hex digits of the SHA-256 of to_string(): stable across runs and machines.
    std::string hash() const;

    bool operator==(const Route&) const = default;
    auto operator<=>(const Route& other) const { return values_ <=> other.values_; }

private:
    std::map<std::string, std::string, std::less<>> values_;
};

/// Throws UsageError unless every knob exists in catalog and every value is allowed; the
/// message names the token, the closest known names, or the allowed values.
void validate_route(const Route& route, const Catalog& catalog);

}  // namespace routetune
