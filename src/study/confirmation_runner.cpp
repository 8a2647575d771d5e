// Confirmation order: one warm-up pass over every route (when the spec has warm-ups), then
// rounds of D C1 C2 ... Ck, so that slow drift of the machine (thermal state, a neighbour's
// load) lands on the default and on every candidate alike. Each route's artifact is reused
// when kept and unchanged, rebuilt otherwise; with [timing] confirm_rebuild every route
// (the default too) is built afresh, so that a speed that belonged to one lucky build (a
// compiler whose kernel choices vary from build to build) is not what confirms it. A route
// whose rebuild or run fails now is dropped from the running with a note. The winner is the route whose bootstrap interval of
// the speedup clears 1 + min_gain (selection.hpp).
#include "study/confirmation_runner.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "util/interrupt_guard.hpp"
#include "study/selection.hpp"
#include "util/files.hpp"

namespace routetune {

namespace {

std::string percent(double ratio) {
    std::ostringstream text;
    text.precision(3);
    text << ratio << "x";
    return text.str();
}

}  // namespace

ConfirmationRunner::ConfirmationRunner(const Evaluator& evaluator, const RunBaseline& baseline,
                                       const TimingSpec& timing, std::map<std::string, std::string> environment)
    : evaluator_(evaluator), baseline_(baseline), timing_(timing), environment_(std::move(environment)) {}

BuiltCandidate ConfirmationRunner::ready(const Evaluation& e) const {
    std::optional<BuiltCandidate> kept = timing_.confirm_rebuild ? std::nullopt : evaluator_.reuse(e);
    BuiltCandidate built = kept ? *kept : evaluator_.build(e.route, "confirm");
    for (const auto& [name, value] : environment_) built.environment[name] = value;
    return built;
}

namespace {

// The outcome when the default itself failed: the fastest eligible route, with no speedup.
StudyOutcome without_default(const std::vector<Evaluation>& evaluations, const Evaluation& default_evaluation,
                             StudyOutcome outcome) {
    auto fastest = fastest_eligible(evaluations);
    if (!fastest) {
        outcome.outcome = Outcome::NoEligibleRoute;
        outcome.message = "no route, the default included, built, ran and passed accuracy";
        return outcome;
    }
    outcome.outcome = Outcome::Improved;
    outcome.winner = fastest->route;
    outcome.speedup = outcome.speedup_ci_low = outcome.speedup_ci_high = std::nan("");
    outcome.artifact_path = fastest->artifact_path;
    outcome.artifact_sha256 = fastest->artifact_sha256;
    outcome.message = "the default route is " + std::string(to_string(default_evaluation.status)) +
                      "; the fastest eligible route wins, with no speedup to report";
    return outcome;
}

std::string joined_notes(const std::vector<std::string>& dropped) {
    std::string notes = dropped.empty() ? "" : "; dropped: ";
    for (std::size_t i = 0; i < dropped.size(); ++i) notes += (i ? ", " : "") + dropped[i];
    return notes;
}

std::string best_confirmed(const std::vector<Confirmation>& confirmations) {
    const Confirmation* top = nullptr;
    for (const auto& c : confirmations) {
        if (!top || c.speedup > top->speedup) top = &c;
    }
    if (!top) return "";
    return "; best confirmed " + percent(top->speedup) + " [" + percent(top->ci_low) + ", " + percent(top->ci_high) + "]";
}

}  // namespace

std::vector<std::vector<double>> ConfirmationRunner::interleave(const std::vector<BuiltCandidate>& routes,
                                                                std::vector<bool>& alive,
                                                                std::vector<std::string>& dropped) const {
    std::vector<std::vector<double>> samples(routes.size());
    int rounds = std::max(timing_.confirm_rounds, 1);
    int first_round = timing_.warmup > 0 ? -1 : 0;  // one warm-up pass when the spec asks for warm-ups
    for (int round = first_round; round < rounds && !interrupt_requested(); ++round) {
        if (progress_) {
            auto confirmed = static_cast<std::size_t>(std::count(alive.begin() + 1, alive.end(), true));
            progress_(ConfirmationProgress{confirmed, round + 1, rounds, 0});
        }
        for (std::size_t i = 0; i < routes.size(); ++i) {
            if (!alive[i]) continue;
            auto sample = evaluator_.sample_once(routes[i], baseline_);
            if (!sample) {
                alive[i] = false;
                if (i > 0) dropped.push_back(routes[i].evaluation.route.to_string() + " (failed a confirmation run)");
                continue;
            }
            if (round >= 0) samples[i].insert(samples[i].end(), sample->begin(), sample->end());
        }
        if (!alive[0]) break;
    }
    return samples;
}

StudyOutcome ConfirmationRunner::decide(StudyStore& store, const std::vector<Evaluation>& evaluations,
                                        const Evaluation& default_evaluation) {
    StudyOutcome outcome;
    outcome.recorded_at = iso8601_utc_now();
    if (default_evaluation.status != Status::Ok) return without_default(evaluations, default_evaluation, outcome);
    std::vector<Evaluation> top =
        confirmation_candidates(evaluations, default_evaluation, timing_.min_gain, timing_.confirm_top);
    if (top.empty()) {
        outcome.outcome = Outcome::DefaultStays;
        outcome.message = "no route's median was " + percent(1 + timing_.min_gain) + " the default's or better";
        return outcome;
    }
    std::vector<BuiltCandidate> routes{ready(default_evaluation)};
    std::vector<std::string> dropped;
    for (const auto& e : top) {
        BuiltCandidate built = ready(e);
        if (built.evaluation.status == Status::Pending) routes.push_back(std::move(built));
        else dropped.push_back(e.route.to_string() + " (rebuild " + std::string(to_string(built.evaluation.status)) + ")");
    }
    std::vector<bool> alive(routes.size(), true);
    std::vector<std::vector<double>> samples = interleave(routes, alive, dropped);
    StudyConfirmation record;
    record.rounds = std::max(timing_.confirm_rounds, 1);
    record.recorded_at = iso8601_utc_now();
    std::vector<Confirmation> confirmations;
    for (std::size_t i = 0; i < routes.size(); ++i) {
        if (!alive[i] || samples[i].empty() || samples[0].empty()) continue;
        Confirmation c = make_confirmation(routes[i].evaluation.route, samples[0], samples[i]);
        if (i == 0) record.baseline = c;
        else confirmations.push_back(c);
    }
    record.candidates = confirmations;
    store.record_confirmation(record);
    return conclude(pick_winner(confirmations, timing_.min_gain), confirmations, routes, joined_notes(dropped),
                    std::move(outcome));
}

StudyOutcome ConfirmationRunner::conclude(const std::optional<Confirmation>& winner,
                                          const std::vector<Confirmation>& confirmations,
                                          const std::vector<BuiltCandidate>& routes, const std::string& notes,
                                          StudyOutcome outcome) const {
    if (!winner) {
        outcome.outcome = Outcome::DefaultStays;
        outcome.message = "no route beat the default by " + percent(1 + timing_.min_gain) +
                          " with 95% confidence in the interleaved confirmation" + best_confirmed(confirmations) + notes;
        return outcome;
    }
    outcome.outcome = Outcome::Improved;
    outcome.winner = winner->route;
    outcome.speedup = winner->speedup;
    outcome.speedup_ci_low = winner->ci_low;
    outcome.speedup_ci_high = winner->ci_high;
    for (const auto& built : routes) {
        if (built.evaluation.route == winner->route) {
            outcome.artifact_path = built.artifact.string();
            outcome.artifact_sha256 = built.evaluation.artifact_sha256;
        }
    }
    outcome.message = "confirmed over " + std::to_string(std::max(timing_.confirm_rounds, 1)) + " interleaved rounds" +
                      (timing_.confirm_rebuild ? std::string(" of fresh builds") : std::string()) + notes;
    return outcome;
}

}  // namespace routetune
