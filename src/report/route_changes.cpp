// A route differs from the default route in a knob only where their values for that knob can
// differ. The default route's value of a knob is its own assignment (an imported GPT sweep's
// default names every knob), else the knob's default at the spec's base flags as the catalog
// recorded it (StudySummary::knob_defaults); when neither is known the assignment is kept, so a
// difference that cannot be proved to be none is never hidden. A knob the default route assigns
// and the route leaves unset takes the knob's default: a change unless that is the same value.
#include "report/route_changes.hpp"

namespace routetune {

namespace {

// The default route's value of knob, when known.
std::optional<std::string> default_value_of(const DefaultRoute& base, const std::string& knob) {
    if (auto assigned = base.route.get(knob)) return assigned;
    auto known = base.knob_defaults.find(knob);
    if (known == base.knob_defaults.end()) return std::nullopt;
    return known->second;
}

}  // namespace

DefaultRoute default_route_of(const StudySummary& summary) {
    DefaultRoute base;
    if (summary.default_evaluation) base.route = summary.default_evaluation->route;
    base.knob_defaults = summary.knob_defaults;
    return base;
}

std::vector<RouteChange> route_changes(const Route& route, const DefaultRoute& base) {
    std::vector<RouteChange> changes;
    for (const auto& [knob, value] : route.assignments()) {
        std::optional<std::string> before = default_value_of(base, knob);
        if (!before || *before != value) changes.push_back({knob, value});
    }
    for (const auto& [knob, value] : base.route.assignments()) {
        if (route.get(knob)) continue;
        auto known = base.knob_defaults.find(knob);
        if (known == base.knob_defaults.end() || known->second != value) changes.push_back({knob, std::nullopt});
    }
    return changes;
}

std::string route_changes_text(const Route& route, const DefaultRoute& base) {
    if (route == base.route) return "(default)";
    std::vector<RouteChange> changes = route_changes(route, base);
    if (changes.empty()) return std::string(kNoChanges);
    std::string text;
    for (const auto& change : changes)
        text += (text.empty() ? "" : " ") + change.knob + "=" + change.value.value_or("(unset)");
    return text;
}

std::string route_changes_note(const DefaultRoute& base) {
    if (!base.route.empty()) return "shown as their difference from the default route " + base.route.to_string();
    if (base.knob_defaults.empty()) return "shown whole: the study recorded no knob's default at the base flags";
    return "shown as their difference from the default (each knob's value at the base flags; a knob whose default is "
           "unknown is always shown); \"= (default)\": no knob differs";
}

}  // namespace routetune
