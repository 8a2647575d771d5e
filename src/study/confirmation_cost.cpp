// Estimates are sums of measured times, never guesses of speed: a run costs what the default's
// run cost (in the search, candidates' runs cost about that: the fixed cost of a run, a
// process, a context, a model, dwarfs the gain being confirmed), a build what the slowest of
// the routes' own builds took.
#include "study/confirmation_cost.hpp"

#include <algorithm>
#include <cstdio>

#include "study/selection.hpp"

namespace routetune {

double ConfirmationCost::total_s() const {
    return passes * static_cast<double>(routes) * builds * run_s + static_cast<double>(build_waves) * build_s;
}

std::string ConfirmationCost::describe() const {
    char text[256];
    int used = std::snprintf(text, sizeof text, "%d passes x %zu routes x %d build%s x %.3g s per run", passes, routes,
                             builds, builds == 1 ? "" : "s", run_s);
    if (build_waves > 0 && used > 0 && static_cast<std::size_t>(used) < sizeof text)
        std::snprintf(text + used, sizeof text - used, " + %zu wave%s of fresh builds x %.3g s", build_waves,
                      build_waves == 1 ? "" : "s", build_s);
    return text;
}

ConfirmationCost confirmation_cost(const TimingSpec& timing, int jobs, double run_s,
                                   const std::vector<double>& routes_build_s) {
    ConfirmationCost cost;
    cost.passes = std::max(timing.confirm_rounds, 1) + (timing.warmup > 0 ? 1 : 0);
    cost.routes = routes_build_s.size();
    cost.builds = timing.confirm_rebuild ? std::max(timing.confirm_builds, 1) : 1;
    cost.run_s = run_s;
    if (timing.confirm_rebuild && !routes_build_s.empty()) {
        std::size_t builds = cost.routes * static_cast<std::size_t>(cost.builds);
        std::size_t at_once = static_cast<std::size_t>(std::max(jobs, 1));
        cost.build_waves = (builds + at_once - 1) / at_once;
        cost.build_s = *std::max_element(routes_build_s.begin(), routes_build_s.end());
    }
    return cost;
}

double default_run_s(const RunBaseline& baseline) {
    double sum = 0;
    for (const auto& [name, seconds] : baseline.default_case_s) sum += seconds;
    return sum;
}

ConfirmationCost planned_confirmation(const TimingSpec& timing, int jobs, double run_s,
                                      const std::vector<Evaluation>& evaluations, const Evaluation& default_evaluation) {
    std::vector<double> build_s{default_evaluation.build_s};
    for (const auto& e : confirmation_candidates(evaluations, default_evaluation, timing.min_gain, timing.confirm_top))
        build_s.push_back(e.build_s);
    while (build_s.size() < static_cast<std::size_t>(std::max(timing.confirm_top, 0)) + 1)
        build_s.push_back(default_evaluation.build_s);
    return confirmation_cost(timing, jobs, run_s, build_s);
}

}  // namespace routetune
