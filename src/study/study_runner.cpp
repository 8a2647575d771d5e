// The loop, step by step. (1) Open the store; without --continue an earlier study at the same
// path is moved aside, never overwritten; with it, the recorded fingerprint, expression and
// search must match. (2) The default route is evaluated first: its outputs become the
// reference of every case without a golden file, and its times bound the other runs
// (relative_timeout). Builds need neither, so the first --jobs - 1 candidate builds run beside
// its build (and, with reported timing, --jobs of them during its measurement). (3) The
// strategy proposes routes from the history; up to --jobs builds run at once, and
// measurements run one at a time: with process timing no build runs during a measurement
// (builds and measurements alternate in batches), with reported timing they overlap (builds
// keep running ahead by at most --jobs). Each finished evaluation is committed to the store
// before the next measurement starts. (4) The best routes are confirmed interleaved with the
// default, and the outcome is recorded. (5) Artifacts not worth keeping are deleted as soon as
// they drop out of the running.
#include "study/study_runner.hpp"

#include <algorithm>
#include <deque>
#include <future>
#include <set>

#include "routetune/error.hpp"
#include "routetune/strategy.hpp"
#include "study/artifact_keeper.hpp"
#include "study/confirmation_runner.hpp"
#include "study/interrupt_guard.hpp"
#include "study/process_tracking.hpp"
#include "study/study_opening.hpp"
#include "store/study_store.hpp"
#include "util/files.hpp"

namespace routetune {

namespace fs = std::filesystem;

struct StudyRunner::State {
    std::unique_ptr<StudyStore> store;
    std::unique_ptr<Strategy> strategy;
    std::unique_ptr<Evaluator> evaluator;
    std::vector<Evaluation> evaluations;
    SearchHistory history;
    RunBaseline baseline;
    std::optional<Evaluation> default_evaluation;
    StudyProgress progress;
    double started_s = 0;
    std::size_t candidates_done = 0;  // candidates other than the default, across invocations
    bool added = false;               // this invocation finished an evaluation
};

namespace {

Observation observe(const Evaluation& e) {
    return Observation{e.route, e.status, e.timing.median_s, e.timing.ci_low_s, e.timing.ci_high_s};
}

double steady_now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void count_status(StudyProgress& p, Status status) { ++p.counts[status]; }

// Evaluations the study will make, the default included, as far as it is known in advance
// (mixed's phase two and the adaptive strategies are bounded by the budget alone).
std::size_t planned_evaluations(const StudySetup& setup) {
    const std::string& search = setup.search;
    ExpansionMode mode = search == "full" ? ExpansionMode::Full : ExpansionMode::Fast;
    bool enumerated = search == "fast" || search == "full" || search == "mixed";
    BigCount space = count_candidates(setup.expression, enumerated ? mode : ExpansionMode::Full);
    std::uint64_t budget = setup.spec.search.max_routes;
    std::uint64_t candidates = space.fits_u64() ? std::min<std::uint64_t>(space.to_u64(), budget) : budget;
    bool baseline_is_default = baseline_route(setup.expression).empty() && enumerated;
    return static_cast<std::size_t>(candidates + (baseline_is_default ? 0 : 1));
}

}  // namespace

StudyRunner::StudyRunner(StudySetup& setup, TuneOptions options, CommandRunner runner)
    : setup_(setup),
      options_(std::move(options)),
      runner_(std::move(runner)),
      paths_(make_study_paths(setup.spec.dir, setup.spec.name, options_.cache)) {}

StudySummary StudyRunner::run() {
    InterruptGuard guard;
    clear_interrupt();
    const Spec& spec = setup_.spec;
    State s{open_study(setup_, options_, paths_), {}, {}, {}, {}, {}, {}, {}, 0, 0, false};
    s.started_s = steady_now();
    s.strategy = make_strategy(setup_.search, setup_.expression,
                               StrategyOptions{spec.search.seed, spec.search.mixed_max_knobs});
    s.evaluator = std::make_unique<Evaluator>(spec, *setup_.adapter, setup_.catalog, paths_,
                                              tracked_runner(runner_, *s.store));
    s.history.min_gain = spec.timing.min_gain;
    s.progress.planned = planned_evaluations(setup_);
    ArtifactKeeper keeper(paths_, options_.keep_artifacts, spec.timing.confirm_top);
    for (auto& e : s.store->evaluations()) {
        if (e.status == Status::Pending) continue;
        if (e.route.empty()) s.default_evaluation = e;
        else ++s.candidates_done;
        s.history.observations.push_back(observe(e));
        count_status(s.progress, e.status);
        s.evaluations.push_back(std::move(e));
    }
    s.progress.done = s.evaluations.size();

    auto report = [&](const Evaluation& e) {
        s.progress.done = s.evaluations.size();
        s.progress.elapsed_s = steady_now() - s.started_s;
        s.progress.last_route = e.route.empty() ? "(default)" : e.route.to_string();
        s.progress.last_status = std::string(to_string(e.status));
        if (s.default_evaluation && s.default_evaluation->status == Status::Ok && e.status == Status::Ok &&
            e.timing.median_s > 0) {
            s.progress.best_speedup = std::max(s.progress.best_speedup, s.default_evaluation->timing.median_s / e.timing.median_s);
        }
        if (progress_) progress_(s.progress);
    };
    auto commit = [&](Evaluation e) {
        if (interrupt_requested()) return;
        e.id = s.store->record(e);
        s.history.observations.push_back(observe(e));
        count_status(s.progress, e.status);
        s.added = true;
        keeper.after_evaluation(e, s.evaluations, s.default_evaluation);
        s.evaluations.push_back(e);
        report(e);
    };
    auto remaining_text = [&]() {
        std::size_t done = s.evaluations.size();
        std::string left = s.progress.planned > done
                               ? "; about " + std::to_string(s.progress.planned - done) + " planned evaluations remain"
                               : "";
        return std::to_string(done) + " evaluations are saved in " + paths_.cache.string() + left +
               ", then the confirmation; run the same command with --continue to resume";
    };

    const bool overlap = spec.timing.source == "reported";
    const std::size_t jobs = static_cast<std::size_t>(std::max(options_.jobs, 1));
    const std::size_t lanes = static_cast<std::size_t>(std::max(options_.measure_lanes, 1));
    std::deque<std::pair<Route, std::future<BuiltCandidate>>> in_flight;
    std::vector<Route> measuring;  // popped from in_flight, not yet committed
    struct LaneRun {
        Route route;
        std::size_t lane;
        std::future<Evaluation> result;
    };
    std::vector<LaneRun> lane_runs;  // measurements in progress on their lanes (reported timing)
    auto budget_left = [&]() -> std::size_t {
        if (spec.search.time_limit_s > 0 && steady_now() - s.started_s >= spec.search.time_limit_s) return 0;
        std::size_t used = s.candidates_done + in_flight.size() + measuring.size();
        return used >= spec.search.max_routes ? 0 : static_cast<std::size_t>(spec.search.max_routes - used);
    };
    auto refill = [&](std::size_t target) {
        std::size_t room = std::min(target > in_flight.size() ? target - in_flight.size() : 0, budget_left());
        if (room == 0 || interrupt_requested()) return;
        SearchHistory view = s.history;
        for (const auto& [route, future] : in_flight) view.observations.push_back(Observation{route, Status::Pending});
        for (const auto& route : measuring) view.observations.push_back(Observation{route, Status::Pending});
        if (!s.default_evaluation) view.observations.push_back(Observation{Route{}, Status::Pending});
        for (Route& route : s.strategy->propose(view, room)) {
            std::string phase = s.strategy->phase_of(route, view);
            view.observations.push_back(Observation{route, Status::Pending});
            s.store->mark_pending(route, phase, iso8601_utc_now());
            const Evaluator* evaluator = s.evaluator.get();
            in_flight.emplace_back(route, std::async(std::launch::async, [evaluator, route, phase] {
                                       return evaluator->build(route, phase);
                                   }));
        }
    };
    auto measure_front = [&]() {
        BuiltCandidate built = in_flight.front().second.get();
        measuring.push_back(in_flight.front().first);
        in_flight.pop_front();
        if (overlap) refill(jobs);
        if (interrupt_requested()) return;
        Evaluation e = s.evaluator->measure(built, s.baseline);
        ++s.candidates_done;
        commit(e);
        measuring.clear();
    };
    // Measurement lanes (reported timing only): lane i runs its measurements with
    // CUDA_VISIBLE_DEVICES=i, so each GPU measures one candidate at a time; results are
    // committed here, one at a time, as they finish.
    std::vector<bool> lane_busy(lanes, false);
    auto start_on_free_lanes = [&]() {
        for (std::size_t lane = 0; lane < lanes && !in_flight.empty() && !interrupt_requested(); ++lane) {
            if (lane_busy[lane]) continue;
            bool ready = in_flight.front().second.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
            if (!ready && !lane_runs.empty()) return;
            BuiltCandidate built = in_flight.front().second.get();
            Route route = in_flight.front().first;
            in_flight.pop_front();
            built.environment["CUDA_VISIBLE_DEVICES"] = std::to_string(lane);
            measuring.push_back(route);
            lane_busy[lane] = true;
            const Evaluator* evaluator = s.evaluator.get();
            const RunBaseline* baseline = &s.baseline;
            lane_runs.push_back(LaneRun{route, lane, std::async(std::launch::async, [evaluator, baseline, built] {
                                            return evaluator->measure(built, *baseline);
                                        })});
            refill(jobs);
        }
    };
    auto collect_finished_lanes = [&]() {
        for (auto it = lane_runs.begin(); it != lane_runs.end();) {
            if (it->result.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready) {
                ++it;
                continue;
            }
            Evaluation e = it->result.get();
            lane_busy[it->lane] = false;
            measuring.erase(std::find(measuring.begin(), measuring.end(), it->route));
            it = lane_runs.erase(it);
            ++s.candidates_done;
            commit(e);
        }
    };
    // With reported timing builds go on during the default's measurement; with process timing
    // the early builds finish before it.
    if (!s.default_evaluation) {
        DefaultRecord record;
        refill(jobs - 1);
        s.store->mark_pending(Route{}, "default", iso8601_utc_now());
        BuiltCandidate built = s.evaluator->build(Route{}, "default");
        if (overlap) refill(jobs);
        else
            for (auto& entry : in_flight) entry.second.wait();
        Evaluation e = s.evaluator->measure(built, golden_baseline(spec), &record);
        if (interrupt_requested()) {
            for (auto& entry : in_flight) entry.second.wait();
            throw Interrupted("during the default route; " + remaining_text());
        }
        save_default_record(paths_, record);
        s.default_evaluation = e;
        commit(e);
    }
    if (s.default_evaluation->status != Status::Ok && !every_case_has_golden(spec)) {
        StudyOutcome outcome;
        outcome.outcome = "no-eligible-route";
        outcome.message = "the default route is " + std::string(to_string(s.default_evaluation->status)) + " (" +
                          s.default_evaluation->message + ") and not every case has a golden reference: nothing can be validated";
        outcome.recorded_at = iso8601_utc_now();
        s.store->record_outcome(outcome);
        for (auto& entry : in_flight) entry.second.wait();
        throw RuntimeFailure(outcome.message);
    }
    s.baseline = make_run_baseline(spec, paths_);

    while (!interrupt_requested()) {
        if (overlap || in_flight.empty()) refill(jobs);
        if (lanes > 1) {
            if (in_flight.empty() && lane_runs.empty()) break;
            start_on_free_lanes();
            collect_finished_lanes();
            continue;
        }
        if (in_flight.empty()) break;
        if (overlap) {
            measure_front();
        } else {
            for (auto& entry : in_flight) entry.second.wait();
            while (!in_flight.empty() && !interrupt_requested()) measure_front();
        }
    }
    if (interrupt_requested()) {
        for (auto& entry : in_flight) entry.second.wait();
        for (auto& run : lane_runs) run.result.wait();
        throw Interrupted(remaining_text());
    }

    if (s.added || !s.store->read_outcome()) {
        std::map<std::string, std::string> pinned;
        if (lanes > 1) pinned["CUDA_VISIBLE_DEVICES"] = "0";  // every confirmation run on one GPU
        ConfirmationRunner confirm(*s.evaluator, s.baseline, spec.timing, pinned);
        StudyOutcome outcome = confirm.decide(*s.store, s.evaluations, *s.default_evaluation);
        if (interrupt_requested()) throw Interrupted("during the confirmation; " + remaining_text());
        s.store->record_outcome(outcome);
    }
    keeper.finish(s.evaluations, s.store->read_outcome());
    StudySummary summary = load_study_summary(paths_.cache);
    summary.wall_s = steady_now() - s.started_s;
    summary.artifact_bytes = keeper.bytes_kept();
    summary.candidates_total = std::max(s.progress.planned, summary.evaluations.size());
    return summary;
}

}  // namespace routetune
