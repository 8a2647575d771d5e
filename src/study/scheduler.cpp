// How the scheduler overlaps work. Builds run up to `jobs` at a time. With process timing
// (overlap off) no build runs during a measurement: builds and measurements alternate in
// batches, the batch's builds all finished before its first measurement, measured in the
// order they were proposed. With overlap (reported timing) the scheduler waits for whichever
// of its jobs ends first: a finished build frees its slot at once (a new build starts while
// the measurement runs), a free lane takes the oldest of the finished builds (so a slow build,
// or a queued candidate whose worker died, holds back none of the others), and a finished
// measurement is committed right after its lane has taken the next one (the commit's
// fsync overlaps that measurement, whose result is taken only after the commit). Up to `jobs`
// builds run and `2 * jobs` are started and not yet measured, so builds run ahead of the
// measurements by a bounded amount (during the default's measurement, which nothing else can
// share, too). For a sequential strategy (auto's growth: each result changes its next
// proposal) running and built-but-unmeasured builds are at most `jobs + lanes - 1`: a build is
// ready whenever a lane frees (builds quicker than measurements) and every slot builds (builds
// slower), but no route is proposed further ahead of the results than that. Simulated over
// modelled GCC landscapes (`strategy_bench --shape gcc --in-flight N`, 20 seeds, 375 builds),
// growth's picks reached a median 0.932 of the optimum with 3 routes in flight (`--jobs 2`
// now) and 0.886 with 5 (`--jobs 2` with `2 * jobs`).
// With lanes (more than one), each lane's runs are pinned with CUDA_VISIBLE_DEVICES=lane (the
// candidate's placement, which the default's runs paired with it share: a pair runs on one GPU);
// finished lanes are committed one at a time, in start order. Before every proposal the
// budget is asked how many candidates may still start: the default, finished candidates and
// those in flight count against max_routes, and the clock against the time limit. Routes in
// flight are pending in the history the strategy sees, so nothing is proposed twice and a
// strategy's later phase waits for the earlier one.
// Before a built candidate is measured, its run identity (artifact sha256 with the route's
// environment and files) is looked up in the ledger: a twin measured before (the default, a
// resumed study's evaluation) answers it, committed at once as same_as. Measurements one at a
// time always find their twin committed; on lanes a candidate whose twin is on another lane
// (or finished and not yet committed) waits beside the lanes, not on one, and is answered when
// that measurement is committed, so each artifact is measured once.
// The time kept free for the confirmation (keep_free: its estimated cost, one measurement and
// the closing of warm processes, asked again after every commit, since the routes it would
// confirm change) counts as spent:
// the search's limit is --time-limit minus that reserve.
// The time limit also ends the work in flight: every wait wakes at the limit, and from then on
// no build and no measurement starts (the default's alone is always finished: nothing can be
// decided without it). The measurements running are waited for and committed; the running
// builds are cancelled where the executor can end them cleanly (LocalExecutor kills their
// process groups), and every candidate built or building is dropped the way an interrupt
// drops it, its pending row kept, so `tune --continue` evaluates it again (one built whose
// artifact was measured already is answered instead: that costs no run). An executor whose
// builds are whole evaluations (the queue: workers measure too) is left to finish them.
#include "study/scheduler.hpp"

#include <algorithm>

#include "study/same_artifact.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune {

Budget study_budget(std::uint64_t max_routes, double time_limit_s) {
    Budget budget;
    budget.max_routes = static_cast<std::size_t>(max_routes);
    if (time_limit_s > 0) budget.time_limit_s = time_limit_s;
    return budget;
}

Scheduler::Scheduler(EvaluationExecutor& executor, Strategy& strategy, StudyLedger& ledger, Budget budget,
                     const Clock& clock, SchedulerOptions options)
    : executor_(executor), strategy_(strategy), ledger_(ledger), budget_(budget), clock_(clock), options_(options) {
    options_.jobs = std::max<std::size_t>(options_.jobs, 1);
    options_.lanes = std::max<std::size_t>(options_.lanes, 1);
    lane_busy_.assign(options_.lanes, false);
}

Scheduler::~Scheduler() {
    try {
        drain();
    } catch (...) {
    }
}

std::size_t Scheduler::builds_running() const {
    return static_cast<std::size_t>(std::count_if(building_.begin(), building_.end(),
                                                  [&](const Building& b) { return !executor_.finished(b.job); }));
}

std::size_t Scheduler::room(std::size_t target) const {
    std::size_t busy = options_.overlap ? builds_running() : building_.size();
    std::size_t want = target > busy ? target - busy : 0;
    if (options_.overlap) {
        std::size_t cap = strategy_.sequential() ? options_.jobs + options_.lanes - 1 : 2 * options_.jobs;  // running and built, waiting for a lane
        want = std::min(want, cap > building_.size() ? cap - building_.size() : 0);
    }
    std::size_t used = 1 + ledger_.candidates_done() + building_.size() + measuring_.size();  // 1: the default
    return budget_.next_batch(want, used, limit_elapsed_s());
}

double Scheduler::limit_elapsed_s() const { return clock_.now_s() - ledger_.started_s() + reserve_s_; }

void Scheduler::keep_free(std::function<double()> reserve) {
    reserve_ = std::move(reserve);
    reserve_s_ = reserve_ ? reserve_() : 0;
}

void Scheduler::commit(Evaluation e) {
    ledger_.commit(std::move(e));
    if (reserve_) reserve_s_ = reserve_();
}

void Scheduler::refill(std::size_t target) {
    std::size_t count = room(target);
    if (count == 0 || interrupt_requested()) return;
    SearchHistory view = ledger_.history();
    for (const auto& building : building_) view.observations.push_back(pending_observation(building.route));
    for (const auto& route : measuring_) view.observations.push_back(pending_observation(route));
    if (!ledger_.default_evaluation()) view.observations.push_back(pending_observation(Route{}));
    for (Route& route : strategy_.propose(view, count)) {
        std::string phase = strategy_.phase_of(route, view);
        view.observations.push_back(pending_observation(route));
        ledger_.mark_started(route, phase);
        JobId job = executor_.start_build(route, phase);
        building_.push_back(Building{std::move(route), job, false});
    }
}

bool Scheduler::time_is_up() const {
    return !executor_.builds_are_evaluations() && budget_.out_of_time(limit_elapsed_s());
}

void Scheduler::wait_within_limit(const std::vector<JobId>& jobs) {
    if (!budget_.time_limit_s || executor_.builds_are_evaluations()) {
        executor_.wait_any(jobs);
        return;
    }
    double left = *budget_.time_limit_s - limit_elapsed_s();
    if (left > 0) executor_.wait_any_for(jobs, left);
}

void Scheduler::wait_for_builds() {
    for (std::vector<JobId> jobs = unfinished_builds(); !jobs.empty(); jobs = unfinished_builds()) {
        if (!time_is_up()) {
            wait_within_limit(jobs);
            continue;
        }
        cancel_running_builds();
        for (JobId job : jobs) executor_.wait(job);
    }
}

void Scheduler::cancel_running_builds() {
    for (auto& building : building_) {
        if (!building.cancelled && !executor_.finished(building.job))
            building.cancelled = executor_.cancel_build(building.job);
    }
}

std::vector<JobId> Scheduler::unfinished_builds() {
    std::vector<JobId> jobs;
    for (const auto& building : building_) {
        if (!executor_.finished(building.job)) jobs.push_back(building.job);
    }
    return jobs;
}

void Scheduler::wait_refilling(JobId job, std::size_t target) {
    while (!executor_.finished(job) && !interrupt_requested() && !time_is_up()) {
        std::vector<JobId> watch{job};
        if (options_.overlap) {
            refill(target);
            for (JobId build : unfinished_builds()) watch.push_back(build);
        }
        wait_within_limit(watch);
    }
}

Scheduler::DefaultEvaluation Scheduler::evaluate_default(const RunBaseline& golden,
                                                         const std::function<void(const DefaultRecord&)>& keep) {
    DefaultRecord record;
    refill(options_.jobs - 1);
    ledger_.mark_started(Route{}, "default");
    JobId build = executor_.start_build(Route{}, "default");
    wait_refilling(build, options_.jobs - 1);  // the default's build holds one slot
    if (!executor_.finished(build) && !interrupt_requested()) {  // the time limit came first
        executor_.cancel_build(build);
        cancel_running_builds();
        executor_.take_build(build);
        drain();
        return DefaultEvaluation::OutOfTime;
    }
    BuiltCandidate built = executor_.take_build(build);
    if (!options_.overlap) wait_for_builds();
    JobId measurement = executor_.start_measure(std::move(built), golden, &record);
    wait_refilling(measurement, options_.jobs);
    Evaluation e = executor_.take_measurement(measurement);
    if (interrupt_requested()) {
        drain();
        return DefaultEvaluation::Interrupted;
    }
    keep(record);
    commit(std::move(e));
    return DefaultEvaluation::Committed;
}

bool Scheduler::search(const RunBaseline& baseline) {
    baseline_ = &baseline;
    while (!interrupt_requested() && !time_is_up()) {
        if (options_.overlap || building_.empty()) refill(options_.jobs);
        if (options_.overlap) {
            if (building_.empty() && lane_runs_.empty() && waiting_.empty()) break;
            step_lanes();
            continue;
        }
        if (building_.empty()) break;
        wait_for_builds();
        while (!building_.empty() && !interrupt_requested() && !time_is_up()) measure_front();
    }
    if (!interrupt_requested()) stop_at_time_limit();
    if (!interrupt_requested()) return true;
    drain();
    return false;
}

void Scheduler::stop_at_time_limit() {
    cancel_running_builds();
    for (auto& building : building_) {
        BuiltCandidate built = executor_.take_build(building.job);
        bool failed = built.evaluation.status != Status::Pending;  // finished: nothing to measure
        if (building.cancelled) continue;
        if (failed) commit(std::move(built.evaluation));
        else answer_from_twin(built, identity_of(built));  // answered costs no run; the others stay pending
    }
    building_.clear();
    for (auto run = lane_runs_.begin(); run != lane_runs_.end() && !interrupt_requested(); run = lane_runs_.erase(run)) {
        Evaluation e = executor_.take_measurement(run->job);
        lane_busy_[run->lane] = false;
        measuring_.erase(std::find(measuring_.begin(), measuring_.end(), run->route));
        commit(std::move(e));
    }
    answer_waiting();  // answered by what was just committed; the others stay pending
}

std::string Scheduler::identity_of(const BuiltCandidate& built) const {
    return built.evaluation.status == Status::Pending ? ledger_.run_identity(built.evaluation) : "";
}

bool Scheduler::answer_from_twin(BuiltCandidate& built, const std::string& identity) {
    const Evaluation* twin = ledger_.measured_twin(identity);
    if (twin == nullptr) return false;
    commit(same_as_twin(std::move(built.evaluation), *twin));
    return true;
}

bool Scheduler::on_a_lane(const std::string& identity) const {
    return !identity.empty() &&
           (std::any_of(lane_runs_.begin(), lane_runs_.end(), [&](const LaneRun& run) { return run.identity == identity; }) ||
            std::find(committing_.begin(), committing_.end(), identity) != committing_.end());
}

void Scheduler::measure_front() {
    BuiltCandidate built = executor_.take_build(building_.front().job);
    measuring_.push_back(building_.front().route);
    building_.pop_front();
    if (interrupt_requested()) return;
    if (!answer_from_twin(built, identity_of(built)))
        commit(executor_.take_measurement(executor_.start_measure(std::move(built), *baseline_, nullptr)));
    measuring_.clear();
}

void Scheduler::step_lanes() {
    std::vector<Evaluation> finished = take_finished_lanes();
    bool started = start_on_free_lanes();  // before the commits: a lane never waits for an fsync
    for (Evaluation& e : finished) commit(std::move(e));
    committing_.clear();
    bool answered = answer_waiting();
    if (started || answered || !finished.empty() || interrupt_requested()) return;
    std::vector<JobId> watch = unfinished_builds();
    for (const auto& run : lane_runs_) watch.push_back(run.job);
    if (!watch.empty()) wait_within_limit(watch);
}

std::optional<Scheduler::Built> Scheduler::next_for_lane() {
    for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
        if (ledger_.measured_twin(it->identity) || on_a_lane(it->identity)) continue;
        Built next = std::move(*it);  // its twin was not measured after all
        waiting_.erase(it);
        return next;
    }
    while (true) {
        auto ready = std::find_if(building_.begin(), building_.end(), [&](const Building& b) { return executor_.finished(b.job); });
        if (ready == building_.end()) return std::nullopt;
        Built next{ready->route, executor_.take_build(ready->job), ""};
        building_.erase(ready);
        measuring_.push_back(next.route);
        next.identity = identity_of(next.built);
        if (!ledger_.measured_twin(next.identity) && !on_a_lane(next.identity)) return next;
        waiting_.push_back(std::move(next));
    }
}

bool Scheduler::start_on_free_lanes() {
    bool started = false;
    for (std::size_t lane = 0; lane < options_.lanes && !interrupt_requested() && !time_is_up(); ++lane) {
        if (lane_busy_[lane]) continue;
        std::optional<Built> next = next_for_lane();
        if (!next) break;
        if (options_.lanes > 1)
            next->built.placement["CUDA_VISIBLE_DEVICES"] = std::to_string(lane);  // the paired default's runs too
        lane_busy_[lane] = true;
        JobId job = executor_.start_measure(std::move(next->built), *baseline_, nullptr);
        lane_runs_.push_back(LaneRun{next->route, lane, next->identity, job});
        started = true;
    }
    return started;
}

bool Scheduler::answer_waiting() {
    bool answered = false;
    for (auto it = waiting_.begin(); it != waiting_.end() && !interrupt_requested();) {
        if (!answer_from_twin(it->built, it->identity)) {
            ++it;
            continue;
        }
        measuring_.erase(std::find(measuring_.begin(), measuring_.end(), it->route));
        it = waiting_.erase(it);
        answered = true;
    }
    return answered;
}

std::vector<Evaluation> Scheduler::take_finished_lanes() {
    std::vector<Evaluation> finished;
    for (auto it = lane_runs_.begin(); it != lane_runs_.end();) {
        if (!executor_.finished(it->job)) {
            ++it;
            continue;
        }
        finished.push_back(executor_.take_measurement(it->job));
        committing_.push_back(it->identity);  // its twins wait for this commit
        lane_busy_[it->lane] = false;
        measuring_.erase(std::find(measuring_.begin(), measuring_.end(), it->route));
        it = lane_runs_.erase(it);
    }
    return finished;
}

void Scheduler::drain() {
    for (const auto& building : building_) executor_.take_build(building.job);
    building_.clear();
    for (const auto& run : lane_runs_) executor_.take_measurement(run.job);
    lane_runs_.clear();
    waiting_.clear();
    committing_.clear();
    measuring_.clear();
    lane_busy_.assign(options_.lanes, false);
}

}  // namespace routetune
