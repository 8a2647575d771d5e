// The executor of a study kept in PostgreSQL (the scheduler's EvaluationExecutor seam): a
// candidate's "build" is its whole evaluation by whichever worker claims it from the queue,
// and its "measurement" just hands back the recorded result. The default route is built and
// measured here (LocalExecutor): its outputs become the references the workers check against.
#pragma once

#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "study/evaluation_executor.hpp"
#include "study/local_executor.hpp"
#include "study/queue_dispatch.hpp"

namespace routetune {

/// Candidates through the study's queue; the default on this machine.
class QueueExecutor : public EvaluationExecutor {
public:
    /// Over evaluator (the default's) and a QueueDispatch of setup's study at where (see
    /// QueueDispatch for local_jobs and lease_s).
    QueueExecutor(const Evaluator& evaluator, const StudySetup& setup, const StoreLocation& where, int local_jobs,
                  double lease_s);

    /// The default's build runs here; any other route is queued.
    JobId start_build(const Route& route, const std::string& phase) override;
    /// A candidate evaluated by a worker is finished already; the default measures here.
    JobId start_measure(BuiltCandidate built, const RunBaseline& baseline, DefaultRecord* record) override;
    /// True when the job's result is in (or an interrupt means nobody waits for it).
    bool finished(JobId job) override;
    /// Polls until one of jobs has finished.
    JobId wait_any(const std::vector<JobId>& jobs) override;
    /// The job's result; a queued candidate unanswered at an interrupt comes back pending.
    BuiltCandidate take_build(JobId job) override;
    /// The job's result.
    Evaluation take_measurement(JobId job) override;
    /// True: a worker's answer is the whole evaluation.
    bool builds_are_evaluations() const override { return true; }

    /// Gives the workers the default's references (call before the search).
    void publish_baseline(const RunBaseline& baseline) { dispatch_.publish_baseline(baseline); }
    /// Tells workers nothing more comes and stops the in-process worker (before the confirmation).
    /// Unanswered candidates then count as finished (pending), so a drain does not wait.
    void close() {
        closed_ = true;
        dispatch_.close();
    }

private:
    /// Removes and returns local_'s id for job when the job runs locally (mutex_ held).
    std::optional<JobId> take_local_id(JobId job);
    struct Remote {
        Route route;
        std::future<BuiltCandidate> built;
        std::optional<Evaluation> evaluation;  ///< a finished "measurement"
    };

    LocalExecutor local_;
    QueueDispatch dispatch_;
    std::mutex mutex_;
    std::map<JobId, JobId> local_ids_;  ///< our id -> local_'s id
    std::map<JobId, Remote> remote_;
    JobId next_ = 1;
    std::atomic<bool> closed_{false};
};

}  // namespace routetune
