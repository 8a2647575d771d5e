// Estimates are sums of measured times, never guesses of speed: a run costs what the default's
// run cost (in the search, candidates' runs cost about that: the fixed cost of a run, a
// process, a context, a model, dwarfs the gain being confirmed), a build's first run what the
// default build's first run cost (a warm measurement process loads the build then: seconds for
// an Inductor model, where a later run takes one), a build what the slowest of the routes' own
// builds took.
#include "study/confirmation_cost.hpp"

#include <algorithm>
#include <cstdio>

#include "study/selection.hpp"

namespace routetune {

double ConfirmationCost::total_s() const {
    double runs_of_one_build = passes > 0 ? first_run_s + (passes - 1) * run_s : 0;
    return static_cast<double>(routes) * builds * runs_of_one_build + static_cast<double>(build_waves) * build_s;
}

std::string ConfirmationCost::describe() const {
    char text[256];
    char first[64] = "";
    if (first_run_s > run_s) std::snprintf(first, sizeof first, " (%.3g s a build's first)", first_run_s);
    int used = std::snprintf(text, sizeof text, "%d passes x %zu routes x %d build%s x %.3g s per run%s", passes,
                             routes, builds, builds == 1 ? "" : "s", run_s, first);
    if (build_waves > 0 && used > 0 && static_cast<std::size_t>(used) < sizeof text)
        std::snprintf(text + used, sizeof text - used, " + %zu wave%s of fresh builds x %.3g s", build_waves,
                      build_waves == 1 ? "" : "s", build_s);
    return text;
}

ConfirmationCost confirmation_cost(const TimingSpec& timing, int jobs, const RunCost& run,
                                   const std::vector<double>& routes_build_s) {
    ConfirmationCost cost;
    cost.passes = std::max(timing.confirm_rounds, 1) + (timing.warmup > 0 ? 1 : 0);
    cost.routes = routes_build_s.size();
    cost.builds = timing.confirm_rebuild ? std::max(timing.confirm_builds, 1) : 1;
    cost.first_run_s = std::max(run.first_s, run.repeat_s);
    cost.run_s = run.repeat_s;
    if (timing.confirm_rebuild && !routes_build_s.empty()) {
        std::size_t builds = cost.routes * static_cast<std::size_t>(cost.builds);
        std::size_t at_once = static_cast<std::size_t>(std::max(jobs, 1));
        cost.build_waves = (builds + at_once - 1) / at_once;
        cost.build_s = *std::max_element(routes_build_s.begin(), routes_build_s.end());
    }
    return cost;
}

RunCost default_run_cost(const RunBaseline& baseline) {
    RunCost cost;
    for (const auto& [name, seconds] : baseline.default_case_s) {
        auto first = baseline.default_case_first_s.find(name);
        cost.repeat_s += seconds;
        cost.first_s += std::max(first == baseline.default_case_first_s.end() ? seconds : first->second, seconds);
    }
    return cost;
}

ConfirmationCost planned_confirmation(const TimingSpec& timing, int jobs, const RunCost& run,
                                      const std::vector<Evaluation>& evaluations, const Evaluation& default_evaluation) {
    std::vector<double> build_s{default_evaluation.build_s};
    for (const auto& e : confirmation_candidates(evaluations, default_evaluation, timing.min_gain, timing.confirm_top))
        build_s.push_back(e.build_s);
    while (build_s.size() < static_cast<std::size_t>(std::max(timing.confirm_top, 0)) + 1)
        build_s.push_back(default_evaluation.build_s);
    return confirmation_cost(timing, jobs, run, build_s);
}

}  // namespace routetune
