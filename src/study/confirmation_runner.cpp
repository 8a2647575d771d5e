// Confirmation order: one warm-up pass over every route (when the spec has warm-ups), then
// rounds of D C1 C2 ... Ck, so that slow drift of the machine (thermal state, a neighbour's
// load) lands on the default and on every candidate alike. Each route's artifact is reused
// when kept and unchanged, rebuilt otherwise; with [timing] confirm_rebuild every route
// (the default too) is built afresh, confirm_builds times (up to --jobs builds at once, the
// further builds in scratch folders of their own), so that a speed that belonged to one lucky
// build (a compiler whose kernel choices vary from build to build) is not what confirms it:
// each round then runs every build of every route (D1 C1 ... D2 C2 ...), a route's samples are
// those of all its builds, and each build's median is kept, so the spread between builds is
// part of the evidence (the outcome says when the default's own spread is wider than
// min_gain). A route whose rebuild or run fails now is dropped from the running with a note.
// With a deadline (the study's --time-limit), nothing is measured when the estimated cost
// (study/confirmation_cost.hpp) does not fit in the time left, and no round starts that the
// last one's duration says would end past it. The winner is the route whose bootstrap
// interval of the speedup clears 1 + min_gain (selection.hpp).
#include "study/confirmation_runner.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <future>
#include <sstream>

#include "study/confirmation_cost.hpp"
#include "study/selection.hpp"
#include "study/study_notes.hpp"
#include "util/files.hpp"
#include "util/interrupt_guard.hpp"
#include "util/statistics.hpp"

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

std::vector<std::vector<BuiltCandidate>> ConfirmationRunner::ready(const std::vector<Evaluation>& routes) const {
    std::vector<std::vector<BuiltCandidate>> built(routes.size());
    if (!timing_.confirm_rebuild) {
        for (std::size_t i = 0; i < routes.size(); ++i) {
            std::optional<BuiltCandidate> kept = evaluator_.reuse(routes[i]);
            built[i].push_back(kept ? *kept : evaluator_.build(routes[i].route, "confirm"));
        }
    } else {
        std::size_t copies = static_cast<std::size_t>(std::max(timing_.confirm_builds, 1));
        for (auto& builds : built) builds.resize(copies);
        std::atomic<std::size_t> next{0};
        auto worker = [&] {
            for (std::size_t k; (k = next++) < routes.size() * copies;) {
                std::size_t copy = k / routes.size();
                std::size_t route = k % routes.size();
                std::string suffix = copy == 0 ? "" : "-build" + std::to_string(copy + 1);
                built[route][copy] = evaluator_.build(routes[route].route, "confirm", suffix);
            }
        };
        std::vector<std::future<void>> threads;
        for (std::size_t j = 0; j < std::min<std::size_t>(static_cast<std::size_t>(jobs_), routes.size() * copies); ++j)
            threads.push_back(std::async(std::launch::async, worker));
        for (auto& thread : threads) thread.get();
    }
    for (auto& builds : built) {
        for (auto& b : builds) {
            for (const auto& [name, value] : environment_) b.environment[name] = value;
        }
    }
    return built;
}

std::optional<std::string> ConfirmationRunner::does_not_fit(const std::vector<Evaluation>& routes) const {
    if (!clock_) return std::nullopt;
    RunCost default_run = default_run_cost(baseline_);
    std::vector<RouteToConfirm> priced;
    for (std::size_t i = 0; i < routes.size(); ++i)
        priced.push_back({routes[i].build_s, i == 0 ? default_run : route_run_cost(routes[i], default_run)});
    ConfirmationCost cost = confirmation_cost(timing_, jobs_, priced);
    double left = deadline_s_ - clock_->now_s();
    if (cost.total_s() <= left) return std::nullopt;
    char text[160];
    std::snprintf(text, sizeof text, "needs about %.0f s (%s), more than the %.0f s the time limit leaves", cost.total_s(),
                  cost.describe().c_str(), std::max(left, 0.0));
    return "the confirmation of " + std::to_string(routes.size() - 1) + " route" + (routes.size() == 2 ? "" : "s") +
           " against the default " + text + ": nothing was confirmed; `tune --continue` with a longer --time-limit "
           "confirms them";
}

namespace {

// The outcome when the default itself failed: the fastest eligible route, with no speedup.
StudyOutcome without_default(const std::vector<Evaluation>& evaluations, const Evaluation& default_evaluation,
                             StudyOutcome outcome, double min_gain, int top) {
    std::vector<Evaluation> routes = routes_to_confirm(evaluations, default_evaluation, min_gain, top);
    const Evaluation* fastest = routes.empty() ? nullptr : &routes.front();
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

// What the rest of a round costs, from build k on: each build at what its latest run took
// (last_s), scaled by what its route's runs of this round took against those prices (took_s,
// priced_s per route), a route not yet run this round by the smallest such ratio of the routes
// run so far. A warm process's later run of a build may cost a fraction of its first (a compile
// kept, not repeated: BERT's frozen builds 0.4 s against 12 s), and differently per route; a
// fresh process's costs what it did. Before any run of the round, nothing is scaled.
double rest_of_round_s(std::size_t k, const std::vector<double>& last_s, const std::vector<std::size_t>& route_of,
                       const std::vector<bool>& alive, const std::vector<double>& took_s,
                       const std::vector<double>& priced_s) {
    double smallest = 1;
    bool any = false;
    for (std::size_t i = 0; i < took_s.size(); ++i) {
        if (priced_s[i] <= 0) continue;
        smallest = any ? std::min(smallest, took_s[i] / priced_s[i]) : took_s[i] / priced_s[i];
        any = true;
    }
    double rest = 0;
    for (std::size_t j = k; j < last_s.size(); ++j) {
        std::size_t i = route_of[j];
        if (!alive[i]) continue;
        rest += last_s[j] * (priced_s[i] > 0 ? took_s[i] / priced_s[i] : smallest);
    }
    return rest;
}

}  // namespace

std::vector<std::vector<double>> ConfirmationRunner::interleave(const std::vector<BuiltCandidate>& routes,
                                                                std::vector<bool>& alive,
                                                                std::vector<std::string>& dropped) const {
    std::vector<std::size_t> route_of(routes.size());
    for (std::size_t i = 0; i < routes.size(); ++i) route_of[i] = i;
    return rounds(routes, route_of, alive, dropped);
}

std::vector<std::vector<double>> ConfirmationRunner::rounds(const std::vector<BuiltCandidate>& builds,
                                                            const std::vector<std::size_t>& route_of,
                                                            std::vector<bool>& alive,
                                                            std::vector<std::string>& dropped) const {
    std::vector<std::vector<double>> samples(builds.size());
    int rounds = std::max(timing_.confirm_rounds, 1);
    int first_round = timing_.warmup > 0 ? -1 : 0;  // one warm-up pass when the spec has warm-ups
    rounds_done_ = 0;
    runs_not_pooled_ = 0;
    stopped_by_limit_ = false;
    std::vector<double> last_s(builds.size(), 0);  // what each build's latest run took
    for (int round = first_round; round < rounds && !interrupt_requested() && !stopped_by_limit_; ++round) {
        if (progress_) {
            auto confirmed = static_cast<std::size_t>(std::count(alive.begin() + 1, alive.end(), true));
            progress_(ConfirmationProgress{confirmed, round + 1, rounds, 0});
        }
        std::vector<std::size_t> sizes_before(builds.size());
        for (std::size_t k = 0; k < builds.size(); ++k) sizes_before[k] = samples[k].size();
        std::vector<double> took_s(alive.size(), 0), priced_s(alive.size(), 0);  // per route, this round
        int runs = 0;
        for (std::size_t k = 0; k < builds.size(); ++k) {
            std::size_t i = route_of[k];
            if (!alive[i]) continue;
            // Past the first round, the next run must fit at what it took last time, and the rest of
            // the round at what this round's runs show (a round cut short is not pooled).
            if (round >= 1 && clock_ &&
                (clock_->now_s() + last_s[k] > deadline_s_ ||
                 (runs > 0 && clock_->now_s() + rest_of_round_s(k, last_s, route_of, alive, took_s, priced_s) >
                                  deadline_s_))) {
                stopped_by_limit_ = true;
                break;
            }
            double began = clock_ ? clock_->now_s() : 0;
            auto sample = evaluator_.sample_once(builds[k], baseline_);
            ++runs;
            if (clock_) {
                double took = clock_->now_s() - began;
                took_s[i] += took;
                priced_s[i] += last_s[k];
                last_s[k] = took;
            }
            if (!sample) {
                alive[i] = false;
                if (i > 0) dropped.push_back(builds[k].evaluation.route.to_string() + " (failed a confirmation run)");
                continue;
            }
            if (round >= 0) samples[k].insert(samples[k].end(), sample->begin(), sample->end());
        }
        if (stopped_by_limit_) {
            // A round cut short is not pooled: every route keeps the same rounds.
            for (std::size_t k = 0; k < builds.size(); ++k) samples[k].resize(sizes_before[k]);
            runs_not_pooled_ = runs;
            break;
        }
        if (!alive[0]) break;
        if (round >= 0) ++rounds_done_;
    }
    return samples;
}

namespace {

// The note on the default's fresh builds: their medians, and whether they spread wider than min_gain.
std::string spread_note(const std::vector<double>& medians, double min_gain) {
    if (medians.size() < 2) return "";
    auto [low, high] = std::minmax_element(medians.begin(), medians.end());
    double spread = relative_spread(medians);
    char text[200];
    std::snprintf(text, sizeof text, "; the default's %zu fresh builds measured %.4g to %.4g ms (%.1f%% apart)",
                  medians.size(), *low * 1e3, *high * 1e3, spread * 100);
    std::string note = text;
    if (spread > min_gain) {
        std::snprintf(text, sizeof text, ", wider than min_gain %.3g%%: the default's speed depends on its build",
                      min_gain * 100);
        note += text;
    }
    return note;
}

}  // namespace

StudyOutcome ConfirmationRunner::decide(StudyStore& store, const std::vector<Evaluation>& evaluations,
                                        const Evaluation& default_evaluation) {
    StudyOutcome outcome;
    outcome.recorded_at = iso8601_utc_now();
    if (default_evaluation.status != Status::Ok)
        return without_default(evaluations, default_evaluation, outcome, timing_.min_gain, timing_.confirm_top);
    std::vector<Evaluation> routes{default_evaluation};
    for (auto& e : routes_to_confirm(evaluations, default_evaluation, timing_.min_gain, timing_.confirm_top))
        routes.push_back(std::move(e));
    if (routes.size() == 1) {
        outcome.outcome = Outcome::DefaultStays;
        outcome.message = "no route's median was " + percent(1 + timing_.min_gain) + " the default's or better";
        return outcome;
    }
    if (auto late = does_not_fit(routes)) {
        outcome.outcome = Outcome::Unfinished;
        outcome.message = *late;
        return outcome;
    }
    std::vector<std::vector<BuiltCandidate>> built = ready(routes);
    std::vector<bool> alive(routes.size(), true);
    std::vector<std::string> dropped;
    for (std::size_t i = 0; i < routes.size(); ++i) {
        for (const auto& b : built[i]) {
            if (b.evaluation.status == Status::Pending || !alive[i]) continue;
            alive[i] = false;
            dropped.push_back((i == 0 ? std::string("the default") : routes[i].route.to_string()) + " (rebuild " +
                              std::string(to_string(b.evaluation.status)) + ")");
        }
    }
    std::vector<BuiltCandidate> builds;
    std::vector<std::size_t> route_of;
    std::size_t copies = built.front().size();
    for (std::size_t copy = 0; copy < copies; ++copy) {
        for (std::size_t i = 0; i < routes.size(); ++i) {
            if (!alive[i]) continue;
            builds.push_back(built[i][copy]);
            route_of.push_back(i);
        }
    }
    std::vector<std::vector<double>> samples = rounds(builds, route_of, alive, dropped);
    std::vector<std::vector<double>> pooled(routes.size());
    std::vector<std::vector<double>> medians(routes.size());
    for (std::size_t k = 0; k < builds.size(); ++k) {
        pooled[route_of[k]].insert(pooled[route_of[k]].end(), samples[k].begin(), samples[k].end());
        if (copies > 1 && !samples[k].empty()) medians[route_of[k]].push_back(median(samples[k]));
    }
    StudyConfirmation record;
    record.rounds = rounds_done_;
    record.recorded_at = iso8601_utc_now();
    std::vector<Confirmation> confirmations;
    for (std::size_t i = 0; i < routes.size(); ++i) {
        if (!alive[i] || pooled[i].empty() || pooled[0].empty()) continue;
        Confirmation c = make_confirmation(routes[i].route, pooled[0], pooled[i]);
        c.build_medians_s = medians[i];
        if (i == 0) record.baseline = c;
        else confirmations.push_back(c);
    }
    record.candidates = confirmations;
    store.record_confirmation(record);
    record_confirmation_builds(store, record);
    std::string notes = joined_notes(dropped) + spread_note(medians[0], timing_.min_gain);
    if (stopped_by_limit_) {
        notes += "; stopped after " + std::to_string(rounds_done_) + " of " + std::to_string(std::max(timing_.confirm_rounds, 1)) +
                 " rounds: the next would have ended past the time limit";
        if (runs_not_pooled_ > 0)
            notes += " (its first " + std::to_string(runs_not_pooled_) + " run" + (runs_not_pooled_ > 1 ? "s" : "") +
                     " measured, not pooled)";
    }
    outcome = conclude(pick_winner(confirmations, timing_.min_gain), confirmations, builds,
                       notes, std::move(outcome));
    for (const auto& route_builds : built) {
        for (std::size_t copy = 1; copy < route_builds.size(); ++copy) remove_tree_quietly(route_builds[copy].workdir);
    }
    return outcome;
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
        if (built.evaluation.route == winner->route) {  // its first build: the one in the route's own folder
            outcome.artifact_path = built.artifact.string();
            outcome.artifact_sha256 = built.evaluation.artifact_sha256;
            break;
        }
    }
    std::string builds = timing_.confirm_builds > 1 ? " of " + std::to_string(timing_.confirm_builds) + " fresh builds each"
                                                    : " of fresh builds";
    outcome.message = "confirmed over " + std::to_string(rounds_done_) + " interleaved rounds" +
                      (timing_.confirm_rebuild ? builds : std::string()) + notes;
    return outcome;
}

}  // namespace routetune
