// The scheduler of a study: what the strategy proposes is built up to `jobs` at a time and
// measured one at a time (or, on measurement lanes, one per lane), within the budget, with
// each finished evaluation committed to the ledger before the next result is taken; with
// overlap, a finished build's slot is refilled at once, whatever else is running. At the time
// limit nothing new starts: running measurements finish and are committed, the candidates
// built or building are abandoned (left pending). The limit counts the time kept free for the
// confirmation (keep_free) as spent. A built candidate whose artifact was measured already (the
// same run identity: study/same_artifact.hpp) is not measured: the ledger's measurement answers
// it (same_as); one whose twin is being measured on a lane waits for that answer. Work is
// started on an EvaluationExecutor, so where a candidate is evaluated is not its concern.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "routetune/strategy.hpp"
#include "search/budget.hpp"
#include "study/evaluation_executor.hpp"
#include "study/study_ledger.hpp"
#include "util/clock.hpp"

namespace routetune {

/// How much work may run at once.
struct SchedulerOptions {
    std::size_t jobs = 1;   ///< builds at once
    std::size_t lanes = 1;  ///< measurements at once, lane i pinned to GPU i; more than 1 needs overlap
    bool overlap = false;   ///< measurements may run beside builds (the timing source is not the shared CPU)
};

/// Drives one study's builds and measurements.
class Scheduler {
public:
    /// A scheduler starting work on executor, proposals from strategy, commits to ledger;
    /// budget bounds the candidates (ledger's count included) and the time since ledger began.
    Scheduler(EvaluationExecutor& executor, Strategy& strategy, StudyLedger& ledger, Budget budget,
              const Clock& clock, SchedulerOptions options);
    /// Waits for the work still in flight.
    ~Scheduler();
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    /// What became of the default route's evaluation.
    enum class DefaultEvaluation {
        Committed,    ///< built, measured and committed
        Interrupted,  ///< an interrupt arrived: nothing committed, the work in flight drained
        OutOfTime,    ///< the time limit came while it was building: its build and those beside
                      ///< it cancelled (where the executor can) and drained, nothing committed
    };
    /// Builds and measures the default route against golden, with jobs - 1 candidate builds
    /// beside its build (and, with overlap, jobs of them during its measurement, each slot
    /// refilled as its build ends); hands its outputs to keep (which saves them before the
    /// commit, so a committed default always has its references) and commits it the way every
    /// candidate is committed. The time limit cuts its build short as it cuts any build; a
    /// measurement that has started finishes.
    DefaultEvaluation evaluate_default(const RunBaseline& golden, const std::function<void(const DefaultRecord&)>& keep);

    /// Proposes, builds, measures and commits until the strategy proposes nothing more, the
    /// budget is spent or an interrupt arrives. At the time limit no build or measurement
    /// starts: the running measurements are committed, the running builds cancelled (where
    /// the executor can) and every candidate not measured is dropped, its pending row left for
    /// `tune --continue`. False when interrupted (work drained).
    bool search(const RunBaseline& baseline);

    /// Waits for every build and measurement in flight and drops their results.
    void drain();

    /// Keeps reserve() seconds free before the time limit (the confirmation's cost and the
    /// measurement that may be running when the search stops): the search stops that much
    /// earlier. reserve is asked at once and after every commit.
    void keep_free(std::function<double()> reserve);
    /// The seconds kept free now (0 without keep_free).
    double reserved_s() const { return reserve_s_; }

private:
    struct Building {
        Route route;
        JobId job;
        bool cancelled = false;  ///< at the time limit: its result is cut short
    };
    struct LaneRun {
        Route route;
        std::size_t lane;
        std::string identity;  ///< its run identity ("" when unknown)
        JobId job;
    };
    struct Built {
        Route route;
        BuiltCandidate built;
        std::string identity;  ///< its run identity ("" when it has no artifact)
    };

    bool time_is_up() const;
    double limit_elapsed_s() const;
    void commit(Evaluation e);
    void wait_within_limit(const std::vector<JobId>& jobs);
    void cancel_running_builds();
    void stop_at_time_limit();
    std::size_t builds_running() const;
    std::size_t room(std::size_t target) const;
    void refill(std::size_t target);
    void wait_for_builds();
    std::vector<JobId> unfinished_builds();
    void wait_refilling(JobId job, std::size_t target);
    void measure_front();
    void step_lanes();
    bool start_on_free_lanes();
    std::vector<Evaluation> take_finished_lanes();
    std::string identity_of(const BuiltCandidate& built) const;
    bool answer_from_twin(BuiltCandidate& built, const std::string& identity);
    bool on_a_lane(const std::string& identity) const;
    std::optional<Built> next_for_lane();
    bool answer_waiting();

    EvaluationExecutor& executor_;
    Strategy& strategy_;
    StudyLedger& ledger_;
    Budget budget_;
    const Clock& clock_;
    SchedulerOptions options_;
    const RunBaseline* baseline_ = nullptr;
    std::deque<Building> building_;   // started builds, oldest first
    std::vector<Route> measuring_;    // built, taken from building_, being measured
    std::vector<LaneRun> lane_runs_;  // measurements in progress on their lanes
    std::vector<Built> waiting_;      // built; their artifact is measured or on a lane: answered by it
    std::vector<std::string> committing_;  // run identities of finished lane runs not yet committed
    std::vector<bool> lane_busy_;
    std::function<double()> reserve_;
    double reserve_s_ = 0;
};

/// The budget a study's [search] section sets: max_routes, and time_limit_s when above 0.
Budget study_budget(std::uint64_t max_routes, double time_limit_s);

}  // namespace routetune
