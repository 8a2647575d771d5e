// An EvaluationExecutor for tests that runs every job at once, in the calling thread, through
// a real Evaluator over a fake::CommandRunner, and charges the fake processes' time on a
// FakeClock: a job started at t finishes at t + its processes' time, and waiting for a job
// moves the clock to its finish. The scheduler's decisions then play out in simulated time,
// deterministically, and every job's interval is logged for the tests to check. A cancelled
// build ends at the moment it was cancelled; a wait with a timeout moves the clock to the
// first finish or to the timeout, whichever comes first.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "study/evaluation_executor.hpp"
#include "unit/fake_command_runner.hpp"
#include "util/clock.hpp"

namespace routetune::fake {

/// One job as it happened in simulated time.
struct Interval {
    bool build = false;
    std::string route;   ///< Route::to_string()
    std::string lane;    ///< the CUDA_VISIBLE_DEVICES placement of a measurement ("" when unset)
    double start_s = 0;
    double end_s = 0;
    bool cancelled = false;  ///< a build cut short by cancel_build
};

/// The simulated executor.
class SimulatedExecutor : public EvaluationExecutor {
public:
    SimulatedExecutor(const Evaluator& evaluator, CommandRunner& runner, FakeClock& clock)
        : evaluator_(evaluator), runner_(runner), clock_(clock) {}

    JobId start_build(const Route& route, const std::string& phase) override {
        runner_.take_elapsed();
        Job job;
        job.built = evaluator_.build(route, phase);
        return add(std::move(job), true, route, "");
    }

    JobId start_measure(BuiltCandidate built, const RunBaseline& baseline, DefaultRecord* record) override {
        runner_.take_elapsed();
        std::string lane = built.placement.count("CUDA_VISIBLE_DEVICES") ? built.placement.at("CUDA_VISIBLE_DEVICES") : "";
        Route route = built.evaluation.route;
        Job job;
        job.evaluation = evaluator_.measure(built, baseline, record);
        return add(std::move(job), false, route, lane);
    }

    bool finished(JobId job) override { return jobs_.at(job).end_s <= clock_.now_s(); }

    JobId wait_any(const std::vector<JobId>& jobs) override {
        JobId first = first_to_finish(jobs);
        clock_.advance_to(jobs_.at(first).end_s);
        return first;
    }

    std::optional<JobId> wait_any_for(const std::vector<JobId>& jobs, double timeout_s) override {
        JobId first = first_to_finish(jobs);
        double deadline = clock_.now_s() + timeout_s;
        if (jobs_.at(first).end_s > deadline) {
            clock_.advance_to(deadline);
            return std::nullopt;
        }
        clock_.advance_to(jobs_.at(first).end_s);
        return first;
    }

    bool cancel_build(JobId id) override {
        Job& job = jobs_.at(id);
        if (!cancellable || !job.build || job.end_s <= clock_.now_s()) return false;
        job.end_s = clock_.now_s();
        intervals_.at(job.interval).end_s = job.end_s;
        intervals_.at(job.interval).cancelled = true;
        return true;
    }

    BuiltCandidate take_build(JobId job) override { return take(job).built; }
    Evaluation take_measurement(JobId job) override { return take(job).evaluation; }

    /// Every job started so far, in start order.
    const std::vector<Interval>& intervals() const { return intervals_; }

    /// False: cancel_build refuses, like an executor that cannot end a build early.
    bool cancellable = true;

private:
    struct Job {
        BuiltCandidate built;
        Evaluation evaluation;
        double end_s = 0;
        bool build = false;
        std::size_t interval = 0;
    };

    JobId first_to_finish(const std::vector<JobId>& jobs) const {
        return *std::min_element(jobs.begin(), jobs.end(), [&](JobId a, JobId b) {
            return jobs_.at(a).end_s < jobs_.at(b).end_s;
        });
    }

    JobId add(Job job, bool build, const Route& route, const std::string& lane) {
        double start = clock_.now_s();
        job.end_s = start + runner_.take_elapsed();
        job.build = build;
        job.interval = intervals_.size();
        intervals_.push_back(Interval{build, route.to_string(), lane, start, job.end_s});
        jobs_[next_] = std::move(job);
        return next_++;
    }

    Job take(JobId id) {
        auto it = jobs_.find(id);
        if (it == jobs_.end()) throw std::logic_error("job taken twice");
        clock_.advance_to(it->second.end_s);
        Job job = std::move(it->second);
        jobs_.erase(it);
        return job;
    }

    const Evaluator& evaluator_;
    CommandRunner& runner_;
    FakeClock& clock_;
    std::map<JobId, Job> jobs_;
    std::vector<Interval> intervals_;
    JobId next_ = 1;
};

}  // namespace routetune::fake
