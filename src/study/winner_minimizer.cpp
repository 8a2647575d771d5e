// One removal is judged like a selection: the candidate (the current route without some
// changes) is built and measured once in full, accuracy checked on its first runs, so a route
// that fails or is wrong is refused; then it and its reference (the current route; the winner
// for the final check) are sampled in interleaved rounds, and slower_with_confidence
// (removal_judge.cpp) refuses the removal when the candidate is slower with confidence.
// Every route built and measured Ok (the winner, each candidate) is kept for the whole
// shrinking, so a reference is never rebuilt. minimize_route (route_minimizer.cpp) chooses what to remove.
// The study's evaluations guide it (change_blocks). At most 2 x changes + 8 candidates are judged. The result is re-confirmed against the default in the spec's
// confirm_rounds interleaved rounds; the outcome keeps it beside the winner when its interval
// still clears 1 + min_gain.
#include "study/winner_minimizer.hpp"

#include <algorithm>

#include "util/interrupt_guard.hpp"
#include "study/removal_judge.hpp"
#include "study/route_minimizer.hpp"
#include "study/selection.hpp"
#include "study/study_ledger.hpp"

namespace routetune {

WinnerMinimizer::WinnerMinimizer(const Evaluator& evaluator, const RunBaseline& baseline, const TimingSpec& timing,
                                 std::map<std::string, std::string> environment)
    : evaluator_(evaluator), baseline_(baseline), timing_(timing), environment_(std::move(environment)) {}

BuiltCandidate WinnerMinimizer::built(const Route& route) const {
    BuiltCandidate candidate = evaluator_.build(route, "minimize");
    for (const auto& [name, value] : environment_) candidate.environment[name] = value;
    return candidate;
}

std::vector<std::vector<double>> WinnerMinimizer::interleaved(const std::vector<const BuiltCandidate*>& routes,
                                                              int rounds) const {
    std::vector<std::vector<double>> samples(routes.size());
    for (int round = 0; round < rounds && !interrupt_requested(); ++round)
        for (std::size_t i = 0; i < routes.size(); ++i) {
            auto sample = evaluator_.sample_once(*routes[i], baseline_);
            if (!sample) return {};
            samples[i].insert(samples[i].end(), sample->begin(), sample->end());
        }
    return samples;
}

const BuiltCandidate* WinnerMinimizer::measured(Builds& builds, const Route& route) const {
    auto known = builds.find(route.to_string());
    if (known != builds.end()) return &known->second;
    BuiltCandidate candidate = built(route);
    if (candidate.evaluation.status != Status::Pending) return nullptr;
    if (evaluator_.measure(candidate, baseline_).status != Status::Ok) return nullptr;
    return &builds.emplace(route.to_string(), std::move(candidate)).first->second;
}

bool WinnerMinimizer::costs_time(Builds& builds, const Route& reference, const Route& route) const {
    if (interrupt_requested()) return true;
    const BuiltCandidate* candidate = measured(builds, route);
    if (candidate == nullptr) return true;
    const BuiltCandidate* before = measured(builds, reference);
    if (before == nullptr) return true;
    return slower_with_confidence([&](int rounds, std::vector<double>& ref, std::vector<double>& cand) {
        auto samples = interleaved({before, candidate}, rounds);
        if (samples.empty() || samples[0].empty() || samples[1].empty()) return false;
        ref.insert(ref.end(), samples[0].begin(), samples[0].end());
        cand.insert(cand.end(), samples[1].begin(), samples[1].end());
        return true;
    });
}

void WinnerMinimizer::shrink(StudyOutcome& outcome, const Evaluation& default_evaluation,
                             const std::vector<Evaluation>& evaluations) const {
    if (outcome.outcome != Outcome::Improved || !outcome.winner || default_evaluation.status != Status::Ok) return;
    Builds builds;
    BuiltCandidate winner = built(*outcome.winner);
    if (winner.evaluation.status != Status::Pending) return;
    builds.emplace(outcome.winner->to_string(), std::move(winner));
    std::size_t changes = outcome.winner->assignments().size();
    std::size_t trial = 0;
    auto judge = [&](const Route& reference, const Route& candidate) {
        std::size_t from = reference.assignments().size(), to = candidate.assignments().size();
        if (progress_) progress_(MinimizationProgress{++trial, from, from > to ? from - to : 0, 0});
        return costs_time(builds, reference, candidate);
    };
    std::vector<Observation> history;
    for (const auto& e : evaluations) history.push_back(observe(e, &default_evaluation));
    MinimizedRoute minimal = minimize_route(*outcome.winner, default_evaluation.route,
                                            change_blocks(*outcome.winner, default_evaluation.route, history), judge,
                                            minimization_trials(changes, evaluations.size() + 1));
    if (interrupt_requested()) return;
    auto kept = builds.find(minimal.route.to_string());
    BuiltCandidate shrunk = kept != builds.end() ? kept->second : built(minimal.route);
    BuiltCandidate reference = built(default_evaluation.route);
    if (shrunk.evaluation.status != Status::Pending || reference.evaluation.status != Status::Pending) return;
    auto samples = interleaved({&reference, &shrunk}, std::max(timing_.confirm_rounds, 1));
    if (samples.empty() || samples[0].empty() || samples[1].empty()) return;
    Confirmation confirmed = make_confirmation(minimal.route, samples[0], samples[1]);
    std::string summary = "; minimal route: " + std::to_string(minimal.route.assignments().size()) + " of " +
                          std::to_string(changes) + " changes after " + std::to_string(minimal.trials) + " trials";
    if (confirmed.ci_low < 1 + timing_.min_gain) {
        outcome.message += summary + ", not kept (it no longer beats the default with confidence)";
        return;
    }
    outcome.minimal_route = minimal.route;
    outcome.minimal_speedup = confirmed.speedup;
    outcome.minimal_ci_low = confirmed.ci_low;
    outcome.minimal_ci_high = confirmed.ci_high;
    outcome.message += summary + (minimal.cut_short ? " (cut short)" : "");
}

}  // namespace routetune
