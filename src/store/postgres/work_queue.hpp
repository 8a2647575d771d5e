// The queue of a study's candidates in PostgreSQL, shared by its coordinator and any number of
// workers. The coordinator enqueues routes and collects finished evaluations; a worker claims
// one candidate at a time under a lease, renews the lease by heartbeat, and commits its
// evaluation fenced by the claim's attempt id. Thread-safe (one connection, serialized).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "routetune/evaluation.hpp"
#include "store/postgres/pg_connection.hpp"

namespace routetune {

/// One claimed candidate: what to evaluate and the fencing token of this attempt.
struct Claim {
    Route route;
    std::string route_hash;
    std::string phase;
    int attempt = 0;              ///< 1 for the first claim, +1 after each reclaim
    std::int64_t attempt_id = 0;  ///< unique per claim; a commit must carry the current one
};

/// What the queue holds, by state.
struct QueueCounts {
    std::int64_t queued = 0, running = 0, done = 0, abandoned = 0;
};

/// The default route's references, as workers elsewhere check against them.
struct StoredBaseline {
    std::map<std::string, std::string> outputs;  ///< case name -> reference output bytes
    std::map<std::string, double> wall_s;        ///< case name -> the default's wall time
    std::optional<double> default_build_s;       ///< the default's build time, as recorded (bounds [build] relative_timeout)
};

/// What a study is, as its coordinator recorded it (what a worker checks before measuring).
struct StudyIdentity {
    std::string spec_sha256;
    std::string fingerprint_json;
    std::string expression;
    std::string mode;
};

/// Attempts after which a candidate whose leases keep expiring is abandoned.
constexpr int kMaxAttempts = 3;

/// A connection to one study's queue.
class WorkQueue {
public:
    /// Connects to url (schema prepared); worker and host name who claims (recorded per claim).
    WorkQueue(const std::string& url, std::string worker, std::string host);

    /// Binds to the study named name; false while it does not exist (a worker waits).
    bool attach(const std::string& name);
    /// The bound study's identity.
    StudyIdentity identity();
    /// Where the store is (redacted URL).
    std::string where() const { return db_.where(); }

    /// Queues route (no-op when it is queued, running or finished already).
    void enqueue(const Route& route, const std::string& phase);
    /// Re-queues every candidate whose lease expired (attempt + 1 at its next claim), or after
    /// kMaxAttempts abandons it (recorded as an evaluation with status abandoned); each is
    /// logged in lease_event. Returns how many it changed.
    std::size_t reclaim_expired();
    /// Claims the oldest queued candidate with a lease of lease_s seconds; nullopt when none.
    std::optional<Claim> claim(double lease_s);
    /// Extends the leases of attempt_ids by lease_s; returns the ones that were lost (expired
    /// or taken over), which can no longer be committed.
    std::vector<std::int64_t> renew(const std::vector<std::int64_t>& attempt_ids, double lease_s);
    /// Records evaluation for claim in one transaction if the claim still holds its lease;
    /// otherwise records nothing, logs a refused_write event and returns false.
    bool commit(const Claim& claim, Evaluation evaluation);

    /// Finished evaluations with id > after, in id order (a resumed coordinator's history).
    std::vector<Evaluation> finished_after(std::int64_t after);
    /// Finished evaluations of the routes with these hashes (the coordinator's collection: ids
    /// are drawn at insert, so commits become visible out of id order and cannot be polled by id).
    std::vector<Evaluation> finished_routes(const std::vector<std::string>& route_hashes);
    /// Finished evaluations of the study that ran the artifact with this sha256 themselves (no
    /// same_as), with their cases, in id order: the twins a freshly built candidate may take.
    std::vector<Evaluation> measured_artifact(const std::string& artifact_sha256);
    /// Claims the measurement of run identity for route_hash unless another candidate holds it;
    /// returns the holder's route hash (route_hash itself when this candidate holds it now).
    std::string claim_artifact(const std::string& identity, const std::string& route_hash);
    /// Moves identity's claim from holder to route_hash when holder is no longer evaluated (not
    /// running under a live lease) and recorded no run of the artifact: a claim whose worker
    /// died or whose candidate was abandoned. True when it moved.
    bool take_over_artifact(const std::string& identity, const std::string& holder, const std::string& route_hash,
                            const std::string& artifact_sha256);

    /// Counts by state.
    QueueCounts counts();
    /// Opens or closes the queue (closed: the coordinator queues no more; idle workers exit).
    void set_closed(bool closed);
    /// True when the coordinator closed the queue.
    bool closed();
    /// Stores the default's references (replacing any earlier ones).
    void write_baseline(const StoredBaseline& baseline);
    /// The references, or nullopt before the coordinator wrote them.
    std::optional<StoredBaseline> read_baseline();
    /// Lease events (kind, route_hash, attempt_id, worker, detail) in order, for reports and tests.
    std::vector<std::map<std::string, std::string>> events();

private:
    std::int64_t study() const;

    PgConnection db_;
    std::string worker_;
    std::string host_;
    std::int64_t study_id_ = 0;
    std::mutex mutex_;
};

}  // namespace routetune
