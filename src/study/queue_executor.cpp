// Job ids of both kinds share one sequence; a map says which are local_'s. Remote jobs are
// futures the QueueDispatch collector fulfils, so wait_any polls them (every 20 ms) together
// with the local ones. On an interrupt nobody waits for the queue: the workers keep what they
// claimed, and a resumed coordinator collects it.
#include "study/queue_executor.hpp"

#include <chrono>
#include <thread>

#include "util/interrupt_guard.hpp"

namespace routetune {

QueueExecutor::QueueExecutor(const Evaluator& evaluator, const StudySetup& setup, const StoreLocation& where,
                             int local_jobs, double lease_s)
    : local_(evaluator), dispatch_(setup, where, local_jobs, lease_s) {}

JobId QueueExecutor::start_build(const Route& route, const std::string& phase) {
    if (route.empty()) {
        JobId inner = local_.start_build(route, phase);
        std::lock_guard lock(mutex_);
        local_ids_[next_] = inner;
        return next_++;
    }
    std::future<BuiltCandidate> built = dispatch_.submit(route, phase);
    std::lock_guard lock(mutex_);
    remote_[next_] = Remote{route, std::move(built), std::nullopt};
    return next_++;
}

JobId QueueExecutor::start_measure(BuiltCandidate built, const RunBaseline& baseline, DefaultRecord* record) {
    if (built.evaluation.status == Status::Pending && built.evaluation.route.empty()) {
        JobId inner = local_.start_measure(std::move(built), baseline, record);
        std::lock_guard lock(mutex_);
        local_ids_[next_] = inner;
        return next_++;
    }
    std::lock_guard lock(mutex_);
    Route route = built.evaluation.route;
    remote_[next_] = Remote{route, {}, std::move(built.evaluation)};
    return next_++;
}

bool QueueExecutor::finished(JobId job) {
    std::unique_lock lock(mutex_);
    auto local = local_ids_.find(job);
    if (local != local_ids_.end()) {
        JobId inner = local->second;
        lock.unlock();
        return local_.finished(inner);
    }
    Remote& remote = remote_.at(job);
    if (remote.evaluation || interrupt_requested() || closed_) return true;
    return remote.built.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

JobId QueueExecutor::wait_any(const std::vector<JobId>& jobs) {
    while (true) {
        for (JobId job : jobs) {
            if (finished(job)) return job;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::optional<JobId> QueueExecutor::take_local_id(JobId job) {
    auto local = local_ids_.find(job);
    if (local == local_ids_.end()) return std::nullopt;
    JobId inner = local->second;
    local_ids_.erase(local);
    return inner;
}

BuiltCandidate QueueExecutor::take_build(JobId job) {
    std::unique_lock lock(mutex_);
    if (std::optional<JobId> inner = take_local_id(job)) {
        lock.unlock();
        return local_.take_build(*inner);
    }
    Remote remote = std::move(remote_.at(job));
    remote_.erase(job);
    lock.unlock();
    // Waits in slices, so an interrupt (or close) during the wait returns the candidate unanswered.
    while (remote.built.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
        if (!interrupt_requested() && !closed_) continue;
        BuiltCandidate unanswered;
        unanswered.evaluation.route = remote.route;
        return unanswered;
    }
    return remote.built.get();
}

Evaluation QueueExecutor::take_measurement(JobId job) {
    std::unique_lock lock(mutex_);
    if (std::optional<JobId> inner = take_local_id(job)) {
        lock.unlock();
        return local_.take_measurement(*inner);
    }
    Evaluation evaluation = std::move(*remote_.at(job).evaluation);
    remote_.erase(job);
    return evaluation;
}

}  // namespace routetune
