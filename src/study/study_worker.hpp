// A worker of a study kept in PostgreSQL: it claims queued candidates under a lease, evaluates
// them (builds at once up to --jobs, measurements one at a time, as in `tune`), renews its
// leases by heartbeat every third of the lease, and commits each result fenced by its claim.
// `routetune worker` runs one; a coordinator with --jobs N runs one inside itself.
#pragma once

#include <atomic>
#include <iosfwd>
#include <memory>
#include <string>

#include "eval/evaluator.hpp"
#include "util/process_runner.hpp"
#include "store/postgres/work_queue.hpp"
#include "store/store_location.hpp"

namespace routetune {

struct StudySetup;

/// How a worker runs.
struct WorkerOptions {
    StoreLocation store;           ///< the database URL and the study's name
    int jobs = 1;                  ///< candidates evaluated at once (builds overlap; one measures)
    double lease_s = 60;           ///< lease length; renewed every lease_s / 3
    std::string worker_id;         ///< recorded per evaluation (default host-pid)
    double poll_s = 0.25;          ///< wait between claims when nothing is queued
    bool exit_when_closed = true;  ///< exit once the coordinator closed the queue and it is empty
};

/// What a worker did.
struct WorkerTotals {
    std::size_t recorded = 0;  ///< evaluations committed
    std::size_t refused = 0;   ///< late results refused (lease lost)
};

/// The study this worker joins, as the coordinator recorded it.
using JoinedStudy = StudyIdentity;

/// Waits (saying so on log, polling every poll_s) until the study named in options.store
/// exists, then returns what the coordinator recorded; nullopt when interrupted first.
std::optional<JoinedStudy> join_study(WorkQueue& queue, const WorkerOptions& options, std::ostream& log);

/// Throws FingerprintMismatch naming both spec hashes when spec_sha256 differs, or naming
/// every differing fingerprint field otherwise.
void check_worker_identity(const JoinedStudy& study, const StudySetup& setup);

/// Runs the claim-evaluate-commit loop until the queue is closed and empty (when
/// options.exit_when_closed), stop becomes true, or SIGINT/SIGTERM arrives.
class StudyWorker {
public:
    /// A worker over setup's spec; log receives one line per event; runner runs processes.
    StudyWorker(const StudySetup& setup, WorkerOptions options, std::ostream& log,
                ProcessRunner& runner = real_process_runner());
    ~StudyWorker();

    /// Runs the loop (see the class contract) on queue, whose study is attached.
    WorkerTotals run(WorkQueue& queue, const std::atomic<bool>* stop = nullptr);

private:
    struct Loop;
    BuiltCandidate own_default(Loop& loop, BuiltCandidate built) const;

    const StudySetup& setup_;
    WorkerOptions options_;
    std::ostream& log_;
    ProcessRunner& runner_;
};

/// host-pid: a default worker id unique on its host.
std::string default_worker_id();

/// This machine's host name.
std::string this_host();

}  // namespace routetune
