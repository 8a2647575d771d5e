// What the HTML report's charts draw, as JSON the page's script reads.
#pragma once

#include <nlohmann/json.hpp>

#include "routetune/study.hpp"

namespace routetune {

/// How many routes the per-route charts show.
struct ChartLimits {
    std::size_t routes = 30;   ///< ok routes in the speedup chart (highest speedup first)
    std::size_t samples = 5;   ///< top routes beside the default in the timing samples chart
    std::size_t effects = 30;  ///< knob values in the effects chart
};

/// One study's chart data: "progress" ([build, best speedup so far, confirmed]), "routes" (route,
/// speedup, low, high), "samples" (route, ms[]), "failures" (phases, statuses with counts per
/// phase), "effects" (label, speedup, low, high, routes) and "confirmation" (route, speedup,
/// low, high). Search-phase speedups are speedup_vs_default's; intervals are 95%.
nlohmann::json chart_data(const StudySummary& summary, const ChartLimits& limits = {});

/// Route text cut into lines of at most width characters at spaces (a token longer than
/// width keeps its own line): whole routes shown wrapped, never cut.
std::vector<std::string> wrap_route(const std::string& route, std::size_t width = 64);

}  // namespace routetune
