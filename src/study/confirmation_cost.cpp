// Estimates are sums of measured times, never guesses of speed: a route's run costs what its own
// measurement's runs cost (on the H100 a freezing=on BERT build's first request in a warm process
// took 3.6 s against 0.55 s for the default's, so one price for every route ran a confirmation
// 3 s past its limit), a route without recorded runs what the default's cost, a build what the
// slowest of the routes' own builds took.
#include "study/confirmation_cost.hpp"

#include <algorithm>
#include <cstdio>

#include "study/selection.hpp"

namespace routetune {

namespace {

// "1.5 s", or "0.55-3.6 s" where low and high differ.
std::string seconds_range(double low, double high) {
    char text[64];
    if (low == high) std::snprintf(text, sizeof text, "%.3g s", high);
    else std::snprintf(text, sizeof text, "%.3g-%.3g s", low, high);
    return text;
}

}  // namespace

double ConfirmationCost::total_s() const { return runs_s + static_cast<double>(build_waves) * build_s; }

std::string ConfirmationCost::describe() const {
    char text[320];
    std::string first;
    if (dearest.first_s > dearest.repeat_s || cheapest.first_s > cheapest.repeat_s)
        first = " (" + seconds_range(cheapest.first_s, dearest.first_s) + " a build's first)";
    int used = std::snprintf(text, sizeof text, "%d passes x %zu routes x %d build%s x %s per run%s", passes, routes,
                             builds, builds == 1 ? "" : "s", seconds_range(cheapest.repeat_s, dearest.repeat_s).c_str(),
                             first.c_str());
    if (build_waves > 0 && used > 0 && static_cast<std::size_t>(used) < sizeof text)
        std::snprintf(text + used, sizeof text - used, " + %zu wave%s of fresh builds x %.3g s", build_waves,
                      build_waves == 1 ? "" : "s", build_s);
    return text;
}

ConfirmationCost confirmation_cost(const TimingSpec& timing, int jobs, const std::vector<RouteToConfirm>& routes) {
    ConfirmationCost cost;
    cost.passes = std::max(timing.confirm_rounds, 1) + (timing.warmup > 0 ? 1 : 0);
    cost.routes = routes.size();
    cost.builds = timing.confirm_rebuild ? std::max(timing.confirm_builds, 1) : 1;
    for (std::size_t i = 0; i < routes.size(); ++i) {
        RunCost run{std::max(routes[i].run.first_s, routes[i].run.repeat_s), routes[i].run.repeat_s};
        cost.runs_s += cost.builds * (run.first_s + (cost.passes - 1) * run.repeat_s);
        cost.cheapest.first_s = i == 0 ? run.first_s : std::min(cost.cheapest.first_s, run.first_s);
        cost.cheapest.repeat_s = i == 0 ? run.repeat_s : std::min(cost.cheapest.repeat_s, run.repeat_s);
        cost.dearest.first_s = std::max(cost.dearest.first_s, run.first_s);
        cost.dearest.repeat_s = std::max(cost.dearest.repeat_s, run.repeat_s);
    }
    if (timing.confirm_rebuild && !routes.empty()) {
        std::size_t builds = cost.routes * static_cast<std::size_t>(cost.builds);
        std::size_t at_once = static_cast<std::size_t>(std::max(jobs, 1));
        cost.build_waves = (builds + at_once - 1) / at_once;
        for (const auto& route : routes) cost.build_s = std::max(cost.build_s, route.build_s);
    }
    return cost;
}

RunCost default_run_cost(const RunBaseline& baseline) {
    return run_cost(baseline.default_case_s, baseline.default_case_first_s);
}

RunCost route_run_cost(const Evaluation& e, const RunCost& otherwise) {
    if (e.run_repeat_s <= 0) return otherwise;
    return RunCost{e.run_first_s, e.run_repeat_s};
}

ConfirmationCost planned_confirmation(const TimingSpec& timing, int jobs, const RunCost& default_run,
                                      const std::vector<Evaluation>& evaluations, const Evaluation& default_evaluation) {
    std::vector<RouteToConfirm> routes{{default_evaluation.build_s, default_run}};
    for (const auto& e : confirmation_candidates(evaluations, default_evaluation, timing.min_gain, timing.confirm_top))
        routes.push_back({e.build_s, route_run_cost(e, default_run)});
    while (routes.size() < static_cast<std::size_t>(std::max(timing.confirm_top, 0)) + 1)
        routes.push_back({default_evaluation.build_s, default_run});
    return confirmation_cost(timing, jobs, routes);
}

}  // namespace routetune
