// How a route differs from the default route: the one rule every report (table, Markdown,
// JSON, HTML) uses to show a route as its changes ("-funroll-loops=on -march=native") instead
// of every knob it assigns.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/route.hpp"
#include "routetune/study.hpp"

namespace routetune {

/// How reports mark a route that differs from the default route in no knob.
inline constexpr std::string_view kNoChanges = "= (default)";

/// What the default route gives each knob.
struct DefaultRoute {
    Route route;  ///< the default evaluation's own assignments (an imported sweep's default names every knob); empty when tuned
    std::map<std::string, std::string> knob_defaults;  ///< each knob's value at the base flags, where known
};

/// One knob in which a route differs from the default route.
struct RouteChange {
    std::string knob;
    std::optional<std::string> value;  ///< the route's value; nullopt: the route leaves unset a knob the default route assigns
};

/// The default route of summary: its default evaluation's route and the knob defaults it recorded.
DefaultRoute default_route_of(const StudySummary& summary);

/// The knobs in which route differs from base, by knob name: each knob route assigns, unless base
/// provably gives it the same value (base.route's own value, else the knob's known default; a knob
/// whose default is unknown is always a change); then each knob base.route assigns that route leaves
/// unset, unless base.route's value is that knob's known default.
std::vector<RouteChange> route_changes(const Route& route, const DefaultRoute& base);

/// route as reports show it: "(default)" for base.route itself, "= (default)" for a route that
/// differs in no knob, else its changes as "-a=1 -b=on -c=(unset)".
std::string route_changes_text(const Route& route, const DefaultRoute& base);

/// How the reports show routes against base, for their header: as differences from base.route,
/// from the knobs' defaults at the base flags, or whole when no default is known.
std::string route_changes_note(const DefaultRoute& base);

}  // namespace routetune
