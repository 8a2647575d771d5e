// The default executor: every build and measurement runs on its own thread of this process,
// through one Evaluator (which starts the real processes). How many run at once is the
// scheduler's decision, not this class's.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "study/evaluation_executor.hpp"
#include "util/cancellation.hpp"

namespace routetune {

/// Runs builds and measurements on threads of this process.
class LocalExecutor : public EvaluationExecutor {
public:
    /// An executor over evaluator (which must outlive it).
    explicit LocalExecutor(const Evaluator& evaluator);
    /// Waits for every job still running.
    ~LocalExecutor() override;
    LocalExecutor(const LocalExecutor&) = delete;
    LocalExecutor& operator=(const LocalExecutor&) = delete;

    /// Starts evaluator.build(route, phase) on a thread.
    JobId start_build(const Route& route, const std::string& phase) override;
    /// Starts evaluator.measure(built, baseline, record) on a thread.
    JobId start_measure(BuiltCandidate built, const RunBaseline& baseline, DefaultRecord* record) override;
    /// True when job's thread has stored its result.
    bool finished(JobId job) override;
    /// Sleeps on a condition variable until one of jobs has finished.
    JobId wait_any(const std::vector<JobId>& jobs) override;
    /// Likewise, for at most timeout_s seconds.
    std::optional<JobId> wait_any_for(const std::vector<JobId>& jobs, double timeout_s) override;
    /// Cancels the build's thread (util/cancellation.hpp): its running process group is
    /// killed, and it starts no other. False for a finished, taken or measurement job.
    bool cancel_build(JobId job) override;
    /// The build's result; rethrows what the build threw.
    BuiltCandidate take_build(JobId job) override;
    /// The measurement's result; rethrows what the measurement threw.
    Evaluation take_measurement(JobId job) override;

private:
    struct Job {
        std::future<void> thread;
        bool build = false;
        std::shared_ptr<Cancellation> cancellation;  ///< what cancel_build signals (set at launch)
        bool done = false;
        std::optional<BuiltCandidate> built;
        std::optional<Evaluation> evaluation;
        std::exception_ptr error;
    };

    JobId launch(bool build, std::function<void(Job&)> work);
    bool any_done(const std::vector<JobId>& jobs, JobId& found) const;
    Job finish(JobId id);

    const Evaluator& evaluator_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<JobId, Job> jobs_;
    JobId next_ = 1;
};

}  // namespace routetune
