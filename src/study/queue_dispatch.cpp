// Queue dispatch. The collector polls every 100 ms: it re-queues expired leases (so a dead
// worker's candidate comes back even when no other worker is polling), then reads the
// evaluations recorded since the last poll and fulfils the futures of those routes. A route
// submitted again (a resumed coordinator re-proposing what is still queued) is not queued
// twice: enqueue ignores a route that is queued, running or recorded; the first poll reads the
// study's whole history, and a route recorded before its submit is answered from what was seen.
#include "study/queue_dispatch.hpp"

#include <chrono>
#include <iostream>

#include "study/study_setup.hpp"
#include "study/study_worker.hpp"

namespace routetune {

QueueDispatch::QueueDispatch(const StudySetup& setup, const StoreLocation& where, std::int64_t after_id,
                             int local_jobs, double lease_s)
    : setup_(setup),
      where_(where),
      queue_(where.text, default_worker_id() + "-coordinator", this_host()),
      local_jobs_(local_jobs),
      lease_s_(lease_s),
      last_id_(after_id) {
    queue_.attach(where.study);
    queue_.set_closed(false);
    collector_ = std::thread([this] { collect(); });
}

QueueDispatch::~QueueDispatch() {
    stop_ = true;
    if (collector_.joinable()) collector_.join();
    if (local_worker_.joinable()) local_worker_.join();
}

void QueueDispatch::publish_baseline(const RunBaseline& baseline) {
    queue_.write_baseline(StoredBaseline{baseline.reference_outputs, baseline.default_case_s});
    if (local_jobs_ < 1 || local_worker_.joinable()) return;
    local_queue_ = std::make_unique<WorkQueue>(where_.text, default_worker_id() + "-coordinator", this_host());
    local_queue_->attach(where_.study);
    local_worker_ = std::thread([this] {
        WorkerOptions options;
        options.store = where_;
        options.jobs = local_jobs_;
        options.lease_s = lease_s_;
        options.worker_id = default_worker_id() + "-coordinator";
        options.exit_when_closed = false;
        StudyWorker worker(setup_, options, std::cerr);
        try {
            worker.run(*local_queue_, &stop_);
        } catch (const std::exception& error) {
            std::cerr << "routetune: the in-process worker stopped: " << error.what() << "\n";
        }
    });
}

std::future<BuiltCandidate> QueueDispatch::submit(const Route& route, const std::string& phase) {
    std::promise<BuiltCandidate> answered;
    {
        std::lock_guard lock(mutex_);
        auto seen = seen_.find(route.hash());
        if (seen != seen_.end()) {
            BuiltCandidate built;
            built.evaluation = seen->second;
            answered.set_value(std::move(built));
            return answered.get_future();
        }
    }
    std::future<BuiltCandidate> future;
    {
        std::lock_guard lock(mutex_);
        future = waiting_[route.hash()].get_future();
    }
    queue_.enqueue(route, phase);
    return future;
}

void QueueDispatch::close() {
    queue_.set_closed(true);
    stop_ = true;
    if (collector_.joinable()) collector_.join();
    if (local_worker_.joinable()) local_worker_.join();
}

void QueueDispatch::collect() {
    bool first = true;
    while (!stop_) {
        try {
            queue_.reclaim_expired();
            // The first poll reads the whole history: a route recorded while this coordinator
            // was away is answered from it.
            std::vector<Evaluation> finished = queue_.finished_after(first ? 0 : last_id_);
            first = false;
            std::lock_guard lock(mutex_);
            for (Evaluation& e : finished) {
                last_id_ = std::max(last_id_, e.id);
                auto waiting = waiting_.find(e.route.hash());
                if (waiting == waiting_.end()) {
                    seen_.emplace(e.route.hash(), std::move(e));
                    continue;
                }
                BuiltCandidate built;
                built.evaluation = std::move(e);
                waiting->second.set_value(std::move(built));
                waiting_.erase(waiting);
            }
        } catch (const std::exception& error) {
            std::cerr << "routetune: collecting results failed (retrying): " << error.what() << "\n";
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

}  // namespace routetune
