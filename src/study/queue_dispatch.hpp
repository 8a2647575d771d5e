// The coordinator's side of a study kept in PostgreSQL: where the tune loop evaluates a
// candidate. Instead of building it here, submit() queues it; workers (and, with --jobs N, a
// worker inside this process) claim and evaluate it; a collector thread polls the recorded
// evaluations and fulfils each submitted candidate's future with its finished evaluation.
#pragma once

#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "eval/evaluator.hpp"
#include "store/postgres/work_queue.hpp"
#include "store/store_location.hpp"

namespace routetune {

struct StudySetup;

/// Candidates out to the queue, evaluations back.
class QueueDispatch {
public:
    /// Binds to the study at where (its header written), reopens its queue, and starts
    /// collecting evaluations (the study's whole history first); local_jobs: threads of an
    /// in-process worker, started by publish_baseline (0: workers elsewhere only).
    QueueDispatch(const StudySetup& setup, const StoreLocation& where, int local_jobs, double lease_s);
    /// Stops the collector and the in-process worker (their claims expire and are re-queued).
    ~QueueDispatch();

    /// Gives workers the default's references and starts the in-process worker.
    void publish_baseline(const RunBaseline& baseline);
    /// Queues route; the future holds its recorded evaluation (as a finished BuiltCandidate).
    std::future<BuiltCandidate> submit(const Route& route, const std::string& phase);
    /// Tells idle workers that nothing more will be queued; stops collecting and the in-process
    /// worker (after the evaluation in its hands).
    void close();

private:
    void collect();
    /// Stops the collector at once (waking it from its wait between polls) and joins it.
    void stop_collector();
    /// Fulfils the futures of finished's routes; keeps the rest for a later submit.
    void answer(std::vector<Evaluation>& finished);

    const StudySetup& setup_;
    StoreLocation where_;
    WorkQueue queue_;
    int local_jobs_;
    double lease_s_;
    std::mutex mutex_;
    std::map<std::string, std::promise<BuiltCandidate>> waiting_;  ///< by route hash
    std::map<std::string, Evaluation> seen_;  ///< recorded before anyone waited for them
    std::atomic<bool> stop_{false};
    std::mutex wake_mutex_;  ///< with wake_: the collector's wait between polls, which a stop ends
    std::condition_variable wake_;
    std::thread collector_;
    std::thread local_worker_;
    std::unique_ptr<WorkQueue> local_queue_;
};

}  // namespace routetune
