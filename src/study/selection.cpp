// Selection happens in two stages so the search's own numbers never decide alone. Stage one
// (cheap, noisy) keeps the few routes whose search-phase speedups (speedup_against_default:
// paired with the default's runs when measured so) are at least 1 + min_gain. Stage two re-measures them interleaved with the default (D A B C D A B C
// ...) so drift of the machine hits every route alike; a route wins only if the lower end of
// the bootstrap interval of its speedup clears 1 + min_gain. An evaluation answered by a
// byte-identical twin (same_as) is never re-measured: its twin stands for it.
#include "study/selection.hpp"

#include <algorithm>

#include "util/statistics.hpp"

namespace routetune {

std::vector<Evaluation> confirmation_candidates(const std::vector<Evaluation>& evaluations,
                                                const Evaluation& default_evaluation, double min_gain, int top) {
    std::vector<std::pair<double, const Evaluation*>> ranked;
    if (default_evaluation.status != Status::Ok) return {};
    for (const auto& e : evaluations) {
        if (e.status != Status::Ok || e.route.empty() || e.route == default_evaluation.route || !e.same_as.empty())
            continue;
        std::optional<SpeedupEstimate> speedup = speedup_against_default(e, default_evaluation);
        if (speedup && speedup->speedup >= 1 + min_gain) ranked.emplace_back(speedup->speedup, &e);
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (ranked.size() > static_cast<std::size_t>(std::max(top, 0))) ranked.resize(static_cast<std::size_t>(top));
    std::vector<Evaluation> picked;
    for (const auto& [speedup, e] : ranked) picked.push_back(*e);
    return picked;
}

std::vector<Evaluation> routes_to_confirm(const std::vector<Evaluation>& evaluations,
                                          const std::optional<Evaluation>& default_evaluation, double min_gain, int top) {
    if (default_evaluation && default_evaluation->status == Status::Ok)
        return confirmation_candidates(evaluations, *default_evaluation, min_gain, top);
    std::vector<Evaluation> routes;
    if (default_evaluation) {
        if (auto fastest = fastest_eligible(evaluations)) routes.push_back(*fastest);
        return routes;
    }
    for (const auto& e : evaluations)
        if (e.status == Status::Ok && !e.route.empty() && e.same_as.empty()) routes.push_back(e);
    return routes;
}

Confirmation make_confirmation(const Route& route, const std::vector<double>& default_samples,
                               const std::vector<double>& candidate_samples) {
    Confirmation c;
    c.route = route;
    c.default_timing = summarize(default_samples);
    c.timing = summarize(candidate_samples);
    RatioEstimate ratio = ratio_of_medians(default_samples, candidate_samples);
    c.speedup = ratio.ratio;
    c.ci_low = ratio.low;
    c.ci_high = ratio.high;
    return c;
}

std::optional<Confirmation> pick_winner(const std::vector<Confirmation>& confirmations, double min_gain) {
    std::optional<Confirmation> best;
    for (const auto& c : confirmations) {
        if (c.ci_low >= 1 + min_gain && (!best || c.speedup > best->speedup)) best = c;
    }
    return best;
}

std::optional<Evaluation> fastest_eligible(const std::vector<Evaluation>& evaluations) {
    std::optional<Evaluation> best;
    for (const auto& e : evaluations) {
        if (e.status == Status::Ok && e.same_as.empty() && (!best || e.timing.median_s < best->timing.median_s)) best = e;
    }
    return best;
}

}  // namespace routetune
