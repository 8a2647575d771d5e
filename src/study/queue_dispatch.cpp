// Queue dispatch. The collector polls every 100 ms (a stop wakes it at once, so closing the
// queue before the confirmation waits for no poll): it re-queues expired leases (so a dead
// worker's candidate comes back even when no other worker is polling), then reads the
// recorded evaluations of the routes it waits for and fulfils their futures. It asks by route,
// not "ids above the last seen": an evaluation's id is drawn when its insert starts, so a
// commit that took longer becomes visible after one with a higher id, and a poll by id lost it
// (the coordinator then waited forever). A route submitted again (a resumed coordinator
// re-proposing what is still queued) is not queued twice: enqueue ignores a route that is
// queued, running or recorded; the first poll reads the study's whole history, and a route
// recorded before its submit is answered from what was seen.
#include "study/queue_dispatch.hpp"

#include <chrono>
#include <iostream>

#include "study/study_setup.hpp"
#include "study/study_worker.hpp"

namespace routetune {

QueueDispatch::QueueDispatch(const StudySetup& setup, const StoreLocation& where, int local_jobs, double lease_s)
    : setup_(setup),
      where_(where),
      queue_(where.text, default_worker_id() + "-coordinator", this_host()),
      local_jobs_(local_jobs),
      lease_s_(lease_s) {
    queue_.attach(where.study);
    queue_.set_closed(false);
    collector_ = std::thread([this] { collect(); });
}

QueueDispatch::~QueueDispatch() {
    stop_collector();
    if (local_worker_.joinable()) local_worker_.join();
}

void QueueDispatch::publish_baseline(const RunBaseline& baseline) {
    queue_.write_baseline(StoredBaseline{baseline.reference_outputs, baseline.default_case_s, std::nullopt});  // the build time: read from the store
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
    stop_collector();
    if (local_worker_.joinable()) local_worker_.join();
}

void QueueDispatch::collect() {
    bool first = true;
    while (!stop_) {
        try {
            queue_.reclaim_expired();
            std::vector<Evaluation> finished;
            if (first) {
                finished = queue_.finished_after(0);
            } else {
                std::vector<std::string> hashes;
                {
                    std::lock_guard lock(mutex_);
                    for (const auto& [hash, promise] : waiting_) hashes.push_back(hash);
                }
                finished = queue_.finished_routes(hashes);
            }
            first = false;
            answer(finished);
        } catch (const std::exception& error) {
            std::cerr << "routetune: collecting results failed (retrying): " << error.what() << "\n";
        }
        std::unique_lock lock(wake_mutex_);
        wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_.load(); });
    }
}

void QueueDispatch::stop_collector() {
    {
        std::lock_guard lock(wake_mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (collector_.joinable()) collector_.join();
}

void QueueDispatch::answer(std::vector<Evaluation>& finished) {
    std::lock_guard lock(mutex_);
    for (Evaluation& e : finished) {
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
}

}  // namespace routetune
