// Each job is a std::async thread that computes its result without any lock, then stores it
// in the job table under the mutex and wakes every waiter. The table entry is created (and
// the thread's future stored in it) while the mutex is held, so the thread cannot store its
// result before its entry exists. Taking a result removes the entry and joins the thread.
// Every job's thread runs under the job's Cancellation, so cancelling a build kills only the
// processes of that build (run_process reaps them as usual: no zombie, no orphan left).
#include "study/local_executor.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace routetune {

LocalExecutor::LocalExecutor(const Evaluator& evaluator) : evaluator_(evaluator) {}

LocalExecutor::~LocalExecutor() {
    std::vector<std::future<void>> threads;
    {
        std::lock_guard lock(mutex_);
        for (auto& [id, job] : jobs_) threads.push_back(std::move(job.thread));
    }
    for (auto& thread : threads) {
        if (thread.valid()) thread.wait();
    }
}

JobId LocalExecutor::launch(bool build, std::function<void(Job&)> work) {
    std::lock_guard lock(mutex_);
    JobId id = next_++;
    Job& entry = jobs_[id];
    entry.build = build;
    entry.cancellation = std::make_shared<Cancellation>();
    entry.thread = std::async(std::launch::async, [this, id, cancellation = entry.cancellation, work = std::move(work)] {
        CancellationScope scope(*cancellation);
        Job result;
        try {
            work(result);
        } catch (...) {
            result.error = std::current_exception();
        }
        std::lock_guard done_lock(mutex_);
        Job& job = jobs_.at(id);
        job.built = std::move(result.built);
        job.evaluation = std::move(result.evaluation);
        job.error = result.error;
        job.done = true;
        changed_.notify_all();
    });
    return id;
}

JobId LocalExecutor::start_build(const Route& route, const std::string& phase) {
    return launch(true, [this, route, phase](Job& job) { job.built = evaluator_.build(route, phase); });
}

JobId LocalExecutor::start_measure(BuiltCandidate built, const RunBaseline& baseline, DefaultRecord* record) {
    return launch(false, [this, built = std::move(built), &baseline, record](Job& job) {
        job.evaluation = evaluator_.measure(built, baseline, record);
    });
}

bool LocalExecutor::finished(JobId job) {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(job);
    return it != jobs_.end() && it->second.done;
}

bool LocalExecutor::any_done(const std::vector<JobId>& jobs, JobId& found) const {
    auto it = std::find_if(jobs.begin(), jobs.end(), [&](JobId id) { return jobs_.at(id).done; });
    if (it != jobs.end()) found = *it;
    return it != jobs.end();
}

JobId LocalExecutor::wait_any(const std::vector<JobId>& jobs) {
    if (jobs.empty()) throw std::logic_error("wait_any needs a job");
    std::unique_lock lock(mutex_);
    JobId found = 0;
    changed_.wait(lock, [&] { return any_done(jobs, found); });
    return found;
}

std::optional<JobId> LocalExecutor::wait_any_for(const std::vector<JobId>& jobs, double timeout_s) {
    if (jobs.empty()) throw std::logic_error("wait_any needs a job");
    std::unique_lock lock(mutex_);
    JobId found = 0;
    if (changed_.wait_for(lock, std::chrono::duration<double>(std::max(timeout_s, 0.0)), [&] { return any_done(jobs, found); }))
        return found;
    return std::nullopt;
}

bool LocalExecutor::cancel_build(JobId job) {
    std::shared_ptr<Cancellation> cancellation;
    {
        std::lock_guard lock(mutex_);
        auto it = jobs_.find(job);
        if (it == jobs_.end() || it->second.done || !it->second.build) return false;
        cancellation = it->second.cancellation;
    }
    cancellation->cancel();
    return true;
}

LocalExecutor::Job LocalExecutor::finish(JobId id) {
    std::unique_lock lock(mutex_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) throw std::logic_error("unknown or already taken job");
    changed_.wait(lock, [&] { return it->second.done; });
    Job job = std::move(it->second);
    jobs_.erase(it);
    lock.unlock();
    job.thread.wait();
    if (job.error) std::rethrow_exception(job.error);
    return job;
}

BuiltCandidate LocalExecutor::take_build(JobId job) { return std::move(*finish(job).built); }

Evaluation LocalExecutor::take_measurement(JobId job) { return std::move(*finish(job).evaluation); }

}  // namespace routetune
