// The loop, step by step. (1) Open the store; without --continue an earlier study at the same
// path is moved aside, never overwritten; with it, the recorded fingerprint, expression and
// search must match, and the finished evaluations are loaded into the ledger. (2) The default
// route is evaluated first: its outputs become the reference of every case without a golden
// file, and its times bound the other runs (relative_timeout); its rounds are paired with more
// runs of itself (its A/A spread), and its kept build is what every candidate's rounds are
// paired with ([timing] paired; rebuilt when not kept, e.g. on --continue after a cleanup;
// with a queue, each worker pairs against a default built on its own machine). (3) The scheduler
// builds and measures what the strategy proposes within the budget (a paired measurement counts
// twice the runs), committing each finished evaluation
// before the next; a candidate whose artifact was measured already is answered by that
// measurement (same_as). (4) The best routes are confirmed interleaved with the default, and the
// outcome is recorded; when what --time-limit leaves as the search begins cannot hold the
// confirmation, the search uses the limit instead and the outcome is unfinished (plan_time).
// (5) Artifacts not worth keeping are deleted as soon as they drop out of the running, and at
// the end. With a shared store (--store postgresql://...) the executor
// is the study's queue: workers anywhere (and --jobs threads of one in this process) evaluate
// the candidates, up to --queue-depth of them queued at once; the default and the
// confirmation stay here.
#include "study/study_runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "routetune/error.hpp"
#include "routetune/strategy.hpp"
#include "eval/timing_source.hpp"
#include "eval/warm_measurements.hpp"
#include "search/strategy_registry.hpp"
#include "store/study_store.hpp"
#include "study/artifact_keeper.hpp"
#include "study/confirmation_cost.hpp"
#include "study/confirmation_runner.hpp"
#include "util/interrupt_guard.hpp"
#include "study/local_executor.hpp"
#include "study/queue_executor.hpp"
#include "study/scheduler.hpp"
#include "study/process_tracking.hpp"
#include "study/selection.hpp"
#include "study/study_notes.hpp"
#include "study/study_opening.hpp"
#include "study/winner_minimizer.hpp"
#include "util/files.hpp"

namespace routetune {

namespace {

// Evaluations the study will make, the default included, as far as it is known in advance
// (mixed's phase two and the adaptive strategies are bounded by the budget alone).
std::size_t planned_evaluations(const StudySetup& setup) {
    const StrategyEntry* strategy = find_strategy(setup.search);
    bool enumerated = strategy && strategy->expansion;
    BigCount space = count_candidates(setup.expression, enumerated ? *strategy->expansion : ExpansionMode::Full);
    std::uint64_t budget = setup.spec.search.max_routes;  // evaluations in all, the default's included
    bool baseline_is_default = baseline_route(setup.expression).empty() && enumerated;
    std::uint64_t planned = space.fits_u64() ? space.to_u64() + (baseline_is_default ? 0 : 1) : budget;
    return static_cast<std::size_t>(std::min(planned, budget));
}

SchedulerOptions scheduler_options(const Spec& spec, const TuneOptions& options, bool queued) {
    SchedulerOptions scheduler;
    scheduler.jobs = static_cast<std::size_t>(std::max(queued ? options.queue_depth : options.jobs, 1));
    scheduler.lanes = static_cast<std::size_t>(std::max(options.measure_lanes, 1));
    // Queued candidates come back measured: taking results as they arrive never overlaps
    // measurements on this machine.
    scheduler.overlap = queued || timing_source_traits(spec.timing.source).overlaps_builds;
    return scheduler;
}

// What a command needs after its search under --time-limit, from what the study has timed.
struct TimeNeeds {
    ConfirmationCost confirmation;  ///< the confirmation of the routes it would take now
    double measurement_s = 0;       ///< a candidate's measurement, which may be running when the search stops
    double closing_s = 0;           ///< closing the warm measurement processes (0 without them)

    /// What the search keeps free when the confirmation fits: all three.
    double with_confirmation_s() const { return confirmation.total_s() + measurement_s + closing_s; }
    /// What the search keeps free when it does not: the measurement and the closing alone.
    double without_confirmation_s() const { return measurement_s + closing_s; }
};

// Closing the warm measurement processes after the confirmation (warm: there are some): each
// measures the default once more and quits.
double closing_time_s(const TuneOptions& options, const RunBaseline& baseline, bool warm) {
    if (!warm) return 0;
    return warm_closing_s(static_cast<std::size_t>(std::max(options.measure_lanes, 1)), default_run_cost(baseline).repeat_s);
}

// The needs of a study whose default measured as baseline says, its confirmation planned over
// the ledger's evaluations (warm: the runs go to warm measurement processes).
TimeNeeds time_needs(const Spec& spec, const TuneOptions& options, const StudyLedger& ledger,
                     const RunBaseline& baseline, bool warm) {
    const TimingSpec& timing = spec.timing;
    RunCost run = default_run_cost(baseline);
    TimeNeeds needs;
    // A candidate's measurement: its first run loads it, the later ones and the paired default's (D C) do not.
    int runs = timing.warmup + timing.repeats;
    needs.measurement_s = run.first_s + (runs - 1) * run.repeat_s + (baseline.paired_default ? runs * run.repeat_s : 0);
    needs.closing_s = closing_time_s(options, baseline, warm);
    needs.confirmation = planned_confirmation(timing, std::max(options.jobs, 1), run, ledger.evaluations(),
                                              *ledger.default_evaluation());
    return needs;
}

// True when the search evaluated candidates and the confirmation would take none of them: the
// default stays, an outcome that costs no measurement.
bool nothing_to_confirm(const StudyLedger& ledger, const TimingSpec& timing) {
    const std::vector<Evaluation>& evaluations = ledger.evaluations();
    return ledger.candidates_done() > 0 &&
           confirmation_candidates(evaluations, *ledger.default_evaluation(), timing.min_gain, timing.confirm_top).empty();
}

// The outcome's message when the confirmation did not fit: what it needs, what the search
// evaluated within limit_s, and the limit with which `tune --continue` confirms (setup_s: what
// this command took before its study began, which a --continue takes again).
std::string unconfirmed_note(const StudyLedger& ledger, const TimeNeeds& needs, double limit_s, double setup_s) {
    std::size_t evaluated = ledger.candidates_done();
    char text[600];
    std::snprintf(text, sizeof text,
                  "the confirmation needs about %.0f s (%s), more than what --time-limit %.0f s left when the search "
                  "began: nothing is confirmed; the search used the limit and has evaluated %zu candidate%s, %s "
                  "figures search-phase and unconfirmed; `tune --continue` with a limit of at least %.0f s confirms "
                  "the best of them, and a longer one searches on first",
                  needs.confirmation.total_s(), needs.confirmation.describe().c_str(), limit_s, evaluated,
                  evaluated == 1 ? "" : "s", evaluated == 1 ? "its" : "their",
                  std::ceil(setup_s + needs.with_confirmation_s()));
    return text;
}

}  // namespace

StudyRunner::StudyRunner(StudySetup& setup, TuneOptions options, ProcessRunner& runner, const Clock& clock)
    : setup_(setup),
      options_(std::move(options)),
      runner_(runner),
      clock_(clock),
      paths_(study_paths(setup.spec, options_)),
      where_(study_store_location(options_, setup.spec.name, paths_)) {}

StudySummary StudyRunner::run() {
    InterruptGuard guard;
    clear_interrupt();
    const Spec& spec = setup_.spec;
    std::unique_ptr<StudyStore> store = open_study(setup_, options_, paths_);
    record_knob_defaults(*store, knob_defaults_of(setup_.expression));
    if (notice_ && !store->moved_aside_to().empty())
        notice_("an earlier study was at " + store->location() + "; moved it aside to " + store->moved_aside_to() +
                " (use --continue to resume a study instead)");
    TrackingProcessRunner tracking(runner_, *store);  // pending rows name their process groups
    Evaluator evaluator(spec, *setup_.adapter, setup_.catalog, paths_, tracking);
    evaluator.set_builds_at_once(options_.jobs);
    ArtifactKeeper keeper(paths_, options_.keep_artifacts, spec.timing.confirm_top, spec.timing.min_gain);
    StudyLedger ledger(*store, keeper, clock_, spec.timing.min_gain, planned_evaluations(setup_),
                       [&evaluator](const Evaluation& e) { return evaluator.run_identity(e); });
    if (options_.started_s) ledger.count_from(*options_.started_s);
    ledger.on_progress(progress_);
    ledger.load();
    setup_s_ = ledger.elapsed_s();
    if (!setup_.strategy) throw RuntimeFailure("a study setup runs one study: its strategy was taken already");
    std::unique_ptr<Strategy> strategy = std::move(setup_.strategy);
    std::unique_ptr<EvaluationExecutor> executor;
    queue_ = nullptr;
    if (where_.shares_work()) {
        auto queue = std::make_unique<QueueExecutor>(evaluator, setup_, where_, options_.jobs, options_.lease_s);
        queue_ = queue.get();
        executor = std::move(queue);
    } else {
        executor = executor_factory_ ? executor_factory_(evaluator) : std::make_unique<LocalExecutor>(evaluator);
    }
    Scheduler scheduler(*executor, *strategy, ledger, study_budget(spec.search.max_routes, spec.search.time_limit_s),
                        clock_, scheduler_options(spec, options_, queue_ != nullptr));

    if (!ledger.default_evaluation()) {
        if (!evaluate_default(scheduler, ledger, *store)) {
            if (queue_) queue_->close();
            return finish(evaluator, *store, ledger, keeper);
        }
    } else if (evaluator.warm_measurements()) {
        if (auto kept = evaluator.reuse(*ledger.default_evaluation())) evaluator.remember_default(*kept);
    }
    require_usable_default(ledger, *store, scheduler);
    Status default_status = ledger.default_evaluation()->status;
    bool default_built = default_status != Status::BuildFailed && default_status != Status::BuildCrashed &&
                         default_status != Status::BuildTimeout;
    if (default_built) evaluator.set_default_build_s(ledger.default_evaluation()->build_s);  // [build] relative_timeout
    RunBaseline baseline = make_run_baseline(spec, paths_);
    if (queue_) queue_->publish_baseline(baseline);
    pair_with_default(evaluator, *ledger.default_evaluation(), baseline);
    bool warm = evaluator.warm_measurements() != nullptr;
    bool fits = plan_time(scheduler, ledger, baseline, warm);
    if (!scheduler.search(baseline)) throw Interrupted(ledger.remaining_text(where_.redacted()));
    reserve_s_ = scheduler.reserved_s();
    if (queue_) queue_->close();
    std::optional<StudyOutcome> recorded = store->read_outcome();
    if (ledger.added() || !recorded || recorded->outcome == Outcome::Unfinished) {
        if (fits || nothing_to_confirm(ledger, spec.timing)) {
            confirm(evaluator, baseline, ledger, *store);
        } else {
            TimeNeeds needs = time_needs(spec, options_, ledger, baseline, warm);
            record_unconfirmed(*store, unconfirmed_note(ledger, needs, spec.search.time_limit_s, setup_s_));
        }
    }
    return finish(evaluator, *store, ledger, keeper);
}

StudySummary StudyRunner::finish(const Evaluator& evaluator, StudyStore& store, const StudyLedger& ledger,
                                 ArtifactKeeper& keeper) {
    close_warm_processes(evaluator);
    keeper.finish(ledger.evaluations(), store.read_outcome());
    StudySummary summary = summarize(store, ledger, keeper);
    record_study_notes(store, summary, setup_.spec.accuracy.metric);  // on the open store: no second open
    return summary;
}

// --time-limit covers the whole command: the search keeps the confirmation's estimated cost
// (and one measurement, which may be running when it stops, and the closing of the warm
// measurement processes: each measures the default once more and quits) free, re-estimated as
// the routes it would confirm change. A limit that cannot hold even the confirmation is said now,
// and decided now: the search keeps only the measurement and the closing free, so it uses the
// limit, and the confirmation does not run in this command, even should it fit after all.
bool StudyRunner::plan_time(Scheduler& scheduler, const StudyLedger& ledger, const RunBaseline& baseline, bool warm) {
    double limit = setup_.spec.search.time_limit_s;
    if (limit <= 0 || ledger.default_evaluation()->status != Status::Ok) return true;
    auto needs = [this, &ledger, baseline, warm] { return time_needs(setup_.spec, options_, ledger, baseline, warm); };
    TimeNeeds now = needs();
    double left = limit - ledger.elapsed_s();
    if (now.confirmation.total_s() + now.closing_s <= left) {
        scheduler.keep_free([needs] { return needs().with_confirmation_s(); });
        return true;
    }
    scheduler.keep_free([now] { return now.without_confirmation_s(); });
    char text[500];
    std::snprintf(text, sizeof text,
                  "the confirmation needs about %.0f s (%s), more than the %.0f s that --time-limit %.0f s leaves after "
                  "%.0f s: the search goes on to the limit and nothing is confirmed; a limit of at least %.0f s "
                  "fits it",
                  now.confirmation.total_s(), now.confirmation.describe().c_str(), std::max(left, 0.0), limit,
                  ledger.elapsed_s(), std::ceil(ledger.elapsed_s() + now.with_confirmation_s()));
    if (notice_) notice_(text);
    return false;
}

void StudyRunner::record_unconfirmed(StudyStore& store, const std::string& message) const {
    StudyOutcome outcome;
    outcome.outcome = Outcome::Unfinished;
    outcome.message = message;
    outcome.recorded_at = iso8601_utc_now();
    store.record_outcome(outcome);
}

void StudyRunner::close_warm_processes(const Evaluator& evaluator) {
    WarmMeasurements* warm = evaluator.warm_measurements();
    if (!warm) return;
    warm_reports_ = warm->close();
    code_identities_ = warm->code_identities();
}

bool StudyRunner::evaluate_default(Scheduler& scheduler, StudyLedger& ledger, StudyStore& store) {
    RunBaseline golden = golden_baseline(setup_.spec);
    golden.paired_self = setup_.spec.timing.paired;  // its A/A spread: the default's runs paired with more of its own
    auto keep = [this](const DefaultRecord& record) { save_default_record(paths_, record); };
    Scheduler::DefaultEvaluation done = scheduler.evaluate_default(golden, keep);
    if (done == Scheduler::DefaultEvaluation::Interrupted)
        throw Interrupted("during the default route; " + ledger.remaining_text(where_.redacted()));
    if (done == Scheduler::DefaultEvaluation::Committed) return true;
    char text[300];
    std::snprintf(text, sizeof text,
                  "--time-limit %.0f s ran out while the default route was still building (after %.0f s): its build "
                  "was stopped and nothing was measured; a limit longer than the default's build is needed "
                  "(--continue builds it again)",
                  setup_.spec.search.time_limit_s, ledger.elapsed_s());
    if (notice_) notice_(text);
    record_unconfirmed(store, text);
    return false;
}

void StudyRunner::pair_with_default(const Evaluator& evaluator, const Evaluation& default_evaluation,
                                    RunBaseline& baseline) {
    if (!setup_.spec.timing.paired || default_evaluation.status != Status::Ok || queue_) return;
    std::optional<BuiltCandidate> kept = evaluator.reuse(default_evaluation);
    BuiltCandidate built = kept ? *kept : evaluator.build(default_evaluation.route, "default");
    if (built.evaluation.status == Status::Pending) {
        baseline.paired_default = std::move(built);
        return;
    }
    if (notice_)
        notice_("the default route could not be built again to pair candidates with (" + built.evaluation.message +
                "): candidates are timed unpaired, their search-phase figures uncalibrated");
}

void StudyRunner::require_usable_default(const StudyLedger& ledger, StudyStore& store, Scheduler& scheduler) {
    const Evaluation& default_evaluation = *ledger.default_evaluation();
    if (default_evaluation.status == Status::Ok || every_case_has_golden(setup_.spec)) return;
    StudyOutcome outcome;
    outcome.outcome = Outcome::NoEligibleRoute;
    outcome.message = "the default route is " + std::string(to_string(default_evaluation.status)) + " (" +
                      default_evaluation.message +
                      ") and not every case has a golden reference: nothing can be validated";
    outcome.recorded_at = iso8601_utc_now();
    store.record_outcome(outcome);
    if (queue_) queue_->close();  // workers stop; nothing queued is waited for
    scheduler.drain();
    throw RuntimeFailure(outcome.message);
}

void StudyRunner::confirm(const Evaluator& evaluator, const RunBaseline& baseline, const StudyLedger& ledger,
                          StudyStore& store) {
    std::map<std::string, std::string> pinned;
    if (options_.measure_lanes > 1) pinned.emplace("CUDA_VISIBLE_DEVICES", "0");  // every confirmation run on one GPU
    ConfirmationRunner confirmation(evaluator, baseline, setup_.spec.timing, pinned);
    confirmation.build_jobs(options_.jobs);
    double limit = setup_.spec.search.time_limit_s;
    if (limit > 0) {
        // Closing the warm processes comes after the confirmation, inside the limit too.
        double closing_s = closing_time_s(options_, baseline, evaluator.warm_measurements() != nullptr);
        confirmation_deadline_s_ = limit - closing_s;
        confirmation.within(clock_, ledger.started_s() + confirmation_deadline_s_);
    }
    double began = clock_.now_s();
    if (confirmation_progress_) {
        confirmation.on_progress([this, &ledger](ConfirmationProgress p) {
            p.elapsed_s = ledger.elapsed_s();
            confirmation_progress_(p);
        });
    }
    StudyOutcome outcome = confirmation.decide(store, ledger.evaluations(), *ledger.default_evaluation());
    confirmation_s_ = clock_.now_s() - began;
    if (options_.minimize) {
        RunBaseline checks = baseline;  // the minimizer's measure() checks accuracy; its timing is interleaved
        checks.paired_default.reset();
        WinnerMinimizer minimizer(evaluator, checks, setup_.spec.timing, pinned);
        if (minimization_progress_) {
            minimizer.on_progress([this, &ledger](MinimizationProgress p) {
                p.elapsed_s = ledger.elapsed_s();
                minimization_progress_(p);
            });
        }
        minimizer.shrink(outcome, *ledger.default_evaluation(), ledger.evaluations());
    }
    if (interrupt_requested())
        throw Interrupted("during the confirmation; " + ledger.remaining_text(where_.redacted()));
    store.record_outcome(outcome);
}

StudySummary StudyRunner::summarize(const StudyStore& store, const StudyLedger& ledger, const ArtifactKeeper& keeper) const {
    StudySummary summary = summarize_store(store);
    summary.wall_s = ledger.elapsed_s();
    ArtifactBytes kept = keeper.bytes_by_kind();
    summary.binary_bytes = kept.binaries;
    summary.output_bytes = kept.outputs;
    summary.artifact_bytes = kept.binaries + kept.outputs;
    summary.candidates_total = std::max(ledger.progress().planned, summary.evaluations.size());
    summary.left_out = setup_.expression.left_out;
    summary.knob_defaults = knob_defaults_of(setup_.expression);
    summary.time_limit_s = setup_.spec.search.time_limit_s;
    summary.confirmation_reserve_s = reserve_s_;
    if (confirmation_s_ > 0) summary.confirmation_s = confirmation_s_;
    if (confirmation_deadline_s_ > 0) summary.confirmation_deadline_s = confirmation_deadline_s_;
    if (!warm_reports_.empty()) summary.warm_processes = warm_reports_;
    if (!code_identities_.empty()) summary.code_identities = code_identities_;
    return summary;
}

}  // namespace routetune
