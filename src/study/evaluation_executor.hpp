// Where a candidate is built and measured. The scheduler decides what runs when; an executor
// only starts work and says when it has finished. LocalExecutor (this machine, one thread per
// piece of work) is the default; an executor that hands candidates to workers on other
// machines plugs in here, and the scheduler's unit tests use a simulated one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/route.hpp"
#include "eval/evaluator.hpp"

namespace routetune {

/// One piece of work started on an executor.
using JobId = std::uint64_t;

/// Starts builds and measurements and reports their results.
class EvaluationExecutor {
public:
    virtual ~EvaluationExecutor() = default;

    /// Starts building route (its phase recorded as given); returns the job.
    virtual JobId start_build(const Route& route, const std::string& phase) = 0;
    /// Starts measuring built against baseline; record, when given, receives the runs' outputs
    /// and wall times. baseline and record must outlive the job.
    virtual JobId start_measure(BuiltCandidate built, const RunBaseline& baseline, DefaultRecord* record) = 0;
    /// True when job has finished (never blocks).
    virtual bool finished(JobId job) = 0;
    /// Blocks until one of jobs (not empty) has finished and returns it.
    virtual JobId wait_any(const std::vector<JobId>& jobs) = 0;
    /// Waits for build job and returns its result; a job's result is taken once.
    virtual BuiltCandidate take_build(JobId job) = 0;
    /// Waits for measurement job and returns its result; a job's result is taken once.
    virtual Evaluation take_measurement(JobId job) = 0;

    /// Blocks until one of jobs (not empty) has finished or timeout_s seconds have passed;
    /// returns the job, or nullopt at the timeout. This default waits without a timeout.
    virtual std::optional<JobId> wait_any_for(const std::vector<JobId>& jobs, [[maybe_unused]] double timeout_s) {
        return wait_any(jobs);
    }
    /// Ends build job early where this executor can (its result, still taken once, is then not
    /// worth measuring); false when it cannot, and the build runs to its end.
    virtual bool cancel_build([[maybe_unused]] JobId job) { return false; }
    /// True when a finished build is the candidate's whole evaluation, measured already (its
    /// measurement only hands it back): a time limit then leaves it to finish and be committed.
    virtual bool builds_are_evaluations() const { return false; }

    /// Blocks until job has finished.
    void wait(JobId job) { wait_any({job}); }
};

}  // namespace routetune
