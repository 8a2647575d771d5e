// How the queue works. A candidate row is queued -> running -> done, or back to queued when its
// lease expires, or abandoned after kMaxAttempts expired leases. Claiming is one UPDATE over a
// sub-select with FOR UPDATE SKIP LOCKED, so concurrent claimers never wait for each other and
// never get the same row; each claim draws a new attempt id from a sequence (the fencing token).
// The sub-select is a MATERIALIZED CTE: inlined, the planner may rescan it per joined row, and
// each rescan skips the row just locked and takes the next, so one claim took several
// candidates that nobody evaluated until their leases expired.
// A lease is a deadline in the server's clock (no clock of a worker machine is trusted);
// renewal only extends a lease that is still valid and still held by that attempt id. The
// commit locks the candidate row, checks that it is running under the committing attempt id
// with an unexpired lease, and in the same transaction inserts the evaluation (unique per
// study and route) and marks the candidate done: so a result is recorded exactly once, and a
// late writer (its lease expired, or reclaimed and claimed by another) gets nothing in and
// leaves a refused_write event as evidence. Execution is at least once: a candidate whose
// worker died or stalled is run again by the next claimer. An artifact built by several
// candidates is measured under one claim (artifact_claim, one row per run identity, taken by
// INSERT ... ON CONFLICT DO NOTHING); the others wait for its answer, and take the claim over
// only when its holder is no longer running under a live lease and recorded no run of it.
#include "store/postgres/work_queue.hpp"

#include "routetune/error.hpp"
#include "store/postgres/pg_rows.hpp"
#include "store/postgres/pg_schema.hpp"
#include "store/study_store.hpp"
#include "util/files.hpp"

namespace routetune {

namespace {

std::string id_array(const std::vector<std::int64_t>& ids) {
    std::string text = "{";
    for (std::size_t i = 0; i < ids.size(); ++i) text += (i ? "," : "") + std::to_string(ids[i]);
    return text + "}";
}

// Route hashes are hex digits: no quoting is needed inside the array literal.
std::string hash_array(const std::vector<std::string>& hashes) {
    std::string text = "{";
    for (std::size_t i = 0; i < hashes.size(); ++i) text += (i ? "," : "") + hashes[i];
    return text + "}";
}

}  // namespace

WorkQueue::WorkQueue(const std::string& url, std::string worker, std::string host)
    : db_(url), worker_(std::move(worker)), host_(std::move(host)) {
    prepare_pg_schema(db_, false);
}

std::int64_t WorkQueue::study() const {
    if (study_id_ == 0) throw RuntimeFailure(db_.where() + ": the work queue is not bound to a study");
    return study_id_;
}

bool WorkQueue::attach(const std::string& name) {
    std::lock_guard lock(mutex_);
    PgResult r = db_.exec("SELECT id FROM study WHERE name = $1", {name});
    study_id_ = r.rows() ? r.integer(0, 0) : 0;
    return study_id_ != 0;
}

StudyIdentity WorkQueue::identity() {
    std::lock_guard lock(mutex_);
    PgResult r = db_.exec("SELECT spec_sha256, fingerprint, expression, mode FROM study WHERE id = $1", {pg_int(study())});
    if (r.rows() == 0) throw RuntimeFailure(db_.where() + ": the study was removed");
    return {r.text(0, 0), r.text(0, 1), r.text(0, 2), r.text(0, 3)};
}

void WorkQueue::enqueue(const Route& route, const std::string& phase) {
    std::lock_guard lock(mutex_);
    db_.exec("INSERT INTO candidate (study_id, route_hash, route, phase) SELECT $1, $2, $3, $4 WHERE NOT EXISTS "
             "(SELECT 1 FROM evaluation WHERE study_id = $1 AND route_hash = $2 AND status <> 'pending') "
             "ON CONFLICT (study_id, route_hash) DO NOTHING",
             {pg_int(study()), route.hash(), route.to_string(), phase});
}

std::size_t WorkQueue::reclaim_expired() {
    std::lock_guard lock(mutex_);
    PgTransaction transaction(db_);
    PgResult changed = db_.exec(
        "WITH e AS MATERIALIZED (SELECT route_hash FROM candidate WHERE study_id = $1 AND state = 'running' "
        "AND lease_until < now() FOR UPDATE SKIP LOCKED) "
        "UPDATE candidate c SET state = CASE WHEN c.attempts >= $2 THEN 'abandoned' ELSE 'queued' END, "
        "lease_until = NULL FROM e WHERE c.study_id = $1 AND c.route_hash = e.route_hash "
        "RETURNING c.route_hash, c.route, c.phase, c.state, c.attempt_id, c.worker, c.host, c.attempts",
        {pg_int(study()), pg_int(kMaxAttempts)});
    for (int i = 0; i < changed.rows(); ++i) {
        bool abandoned = changed.text(i, 3) == "abandoned";
        std::string detail = "lease of attempt " + changed.text(i, 7) + " expired (worker " + changed.text(i, 5) +
                             " on " + changed.text(i, 6) + ")" + (abandoned ? "; abandoned" : "; re-queued");
        db_.exec("INSERT INTO lease_event (study_id, route_hash, attempt_id, kind, worker, host, detail) "
                 "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                 {pg_int(study_id_), changed.text(i, 0), changed.text(i, 4),
                  std::string(abandoned ? "abandoned" : "reclaimed"), changed.text(i, 5), changed.text(i, 6), detail});
        if (!abandoned) continue;
        Evaluation e;
        e.route = parse_stored_route(db_.where(), changed.text(i, 1));
        e.phase = changed.text(i, 2);
        e.status = Status::Abandoned;
        e.message = "abandoned: each of its " + changed.text(i, 7) + " attempts lost its worker (last: " +
                    changed.text(i, 5) + ")";
        e.started_at = e.finished_at = iso8601_utc_now();
        insert_pg_evaluation(db_, study_id_, e);
    }
    transaction.commit();
    return static_cast<std::size_t>(changed.rows());
}

std::optional<Claim> WorkQueue::claim(double lease_s) {
    std::lock_guard lock(mutex_);
    PgResult r = db_.exec(
        "WITH n AS MATERIALIZED (SELECT route_hash FROM candidate WHERE study_id = $1 AND state = 'queued' "
        "ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED) "
        "UPDATE candidate c SET state = 'running', attempts = c.attempts + 1, attempt_id = nextval('attempt_id_seq'), "
        "worker = $2, host = $3, lease_until = now() + make_interval(secs => $4), claimed_at = now() "
        "FROM n WHERE c.study_id = $1 AND c.route_hash = n.route_hash "
        "RETURNING c.route, c.route_hash, c.phase, c.attempts, c.attempt_id",
        {pg_int(study()), worker_, host_, pg_real(lease_s)});
    if (r.rows() == 0) return std::nullopt;
    Claim claim;
    claim.route = parse_stored_route(db_.where(), r.text(0, 0));
    claim.route_hash = r.text(0, 1);
    claim.phase = r.text(0, 2);
    claim.attempt = static_cast<int>(r.integer(0, 3));
    claim.attempt_id = r.integer(0, 4);
    return claim;
}

std::vector<std::int64_t> WorkQueue::renew(const std::vector<std::int64_t>& attempt_ids, double lease_s) {
    if (attempt_ids.empty()) return {};
    std::lock_guard lock(mutex_);
    PgResult r = db_.exec(
        "UPDATE candidate SET lease_until = now() + make_interval(secs => $3) WHERE study_id = $1 AND "
        "attempt_id = ANY($2::bigint[]) AND state = 'running' AND lease_until >= now() RETURNING attempt_id",
        {pg_int(study()), id_array(attempt_ids), pg_real(lease_s)});
    std::vector<std::int64_t> lost = attempt_ids;
    for (int i = 0; i < r.rows(); ++i) std::erase(lost, r.integer(i, 0));
    return lost;
}

bool WorkQueue::commit(const Claim& claim, Evaluation evaluation) {
    std::lock_guard lock(mutex_);
    evaluation.worker = worker_;
    evaluation.host = host_;
    PgTransaction transaction(db_);
    PgResult row = db_.exec(
        "SELECT state, attempt_id, lease_until >= now() FROM candidate WHERE study_id = $1 AND route_hash = $2 "
        "FOR UPDATE",
        {pg_int(study()), claim.route_hash});
    bool holds = row.rows() == 1 && row.text(0, 0) == "running" && row.integer(0, 1) == claim.attempt_id &&
                 row.text(0, 2) == "t";
    std::optional<std::int64_t> id;
    if (holds) id = insert_pg_evaluation(db_, study_id_, evaluation, claim.attempt_id);
    if (id) {
        db_.exec("UPDATE candidate SET state = 'done', lease_until = NULL, done_at = clock_timestamp() "
                "WHERE study_id = $1 AND route_hash = $2",
                 {pg_int(study_id_), claim.route_hash});
    } else {
        std::string now = row.rows() ? row.text(0, 0) + " under attempt id " + row.text(0, 1) : "gone";
        db_.exec("INSERT INTO lease_event (study_id, route_hash, attempt_id, kind, worker, host, detail) "
                 "VALUES ($1, $2, $3, 'refused_write', $4, $5, $6)",
                 {pg_int(study_id_), claim.route_hash, pg_int(claim.attempt_id), worker_, host_,
                  "late result (" + std::string(to_string(evaluation.status)) + ") of attempt " +
                      std::to_string(claim.attempt) + " refused: the lease was lost; the candidate is now " + now});
    }
    transaction.commit();
    return id.has_value();
}

std::vector<Evaluation> WorkQueue::finished_after(std::int64_t after) {
    std::lock_guard lock(mutex_);
    return select_pg_evaluations(db_, study(), "id > $2 AND status <> 'pending'", {pg_int(after)}, CaseRows::Load);
}

std::vector<Evaluation> WorkQueue::finished_routes(const std::vector<std::string>& route_hashes) {
    if (route_hashes.empty()) return {};
    std::lock_guard lock(mutex_);
    return select_pg_evaluations(db_, study(), "route_hash = ANY($2::text[]) AND status <> 'pending'",
                                 {hash_array(route_hashes)}, CaseRows::Load);
}

std::vector<Evaluation> WorkQueue::measured_artifact(const std::string& artifact_sha256) {
    std::lock_guard lock(mutex_);
    return select_pg_evaluations(db_, study(), "artifact_sha256 = $2 AND same_as = '' AND status <> 'pending'",
                                 {artifact_sha256}, CaseRows::Load);
}

std::string WorkQueue::claim_artifact(const std::string& identity, const std::string& route_hash) {
    std::lock_guard lock(mutex_);
    db_.exec("INSERT INTO artifact_claim (study_id, run_identity, route_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
             {pg_int(study()), identity, route_hash});
    PgResult r = db_.exec("SELECT route_hash FROM artifact_claim WHERE study_id = $1 AND run_identity = $2",
                          {pg_int(study()), identity});
    return r.rows() ? r.text(0, 0) : route_hash;
}

bool WorkQueue::take_over_artifact(const std::string& identity, const std::string& holder, const std::string& route_hash,
                                   const std::string& artifact_sha256) {
    std::lock_guard lock(mutex_);
    PgResult r = db_.exec(
        "UPDATE artifact_claim SET route_hash = $4 WHERE study_id = $1 AND run_identity = $2 AND route_hash = $3 "
        "AND NOT EXISTS (SELECT 1 FROM candidate WHERE study_id = $1 AND route_hash = $3 AND state = 'running' "
        "AND lease_until >= now()) "
        "AND NOT EXISTS (SELECT 1 FROM evaluation WHERE study_id = $1 AND route_hash = $3 AND status <> 'pending' "
        "AND artifact_sha256 = $5 AND same_as = '') RETURNING route_hash",
        {pg_int(study()), identity, holder, route_hash, artifact_sha256});
    return r.rows() == 1;
}

QueueCounts WorkQueue::counts() {
    std::lock_guard lock(mutex_);
    PgResult r = db_.exec("SELECT state, count(*) FROM candidate WHERE study_id = $1 GROUP BY state", {pg_int(study())});
    QueueCounts counts;
    for (int i = 0; i < r.rows(); ++i) {
        std::string state = r.text(i, 0);
        std::int64_t n = r.integer(i, 1);
        if (state == "queued") counts.queued = n;
        else if (state == "running") counts.running = n;
        else if (state == "done") counts.done = n;
        else counts.abandoned = n;
    }
    return counts;
}

void WorkQueue::set_closed(bool closed) {
    std::lock_guard lock(mutex_);
    db_.exec("UPDATE study SET queue_closed = $2 WHERE id = $1", {pg_int(study()), std::string(closed ? "true" : "false")});
}

bool WorkQueue::closed() {
    std::lock_guard lock(mutex_);
    PgResult r = db_.exec("SELECT queue_closed FROM study WHERE id = $1", {pg_int(study())});
    return r.rows() == 0 || r.text(0, 0) == "t";
}

void WorkQueue::write_baseline(const StoredBaseline& baseline) {
    std::lock_guard lock(mutex_);
    PgTransaction transaction(db_);
    db_.exec("DELETE FROM baseline WHERE study_id = $1", {pg_int(study())});
    std::map<std::string, bool> names;
    for (const auto& [name, bytes] : baseline.outputs) names[name] = true;
    for (const auto& [name, seconds] : baseline.wall_s) names[name] = true;
    for (const auto& [name, unused] : names) {
        auto output = baseline.outputs.find(name);
        auto wall = baseline.wall_s.find(name);
        db_.exec("INSERT INTO baseline (study_id, case_name, output, wall_s) VALUES ($1, $2, decode($3, 'hex'), $4)",
                 {pg_int(study_id_), name, output == baseline.outputs.end() ? PgParam{} : PgParam(to_hex(output->second)),
                  wall == baseline.wall_s.end() ? PgParam{} : pg_real(wall->second)});
    }
    transaction.commit();
}

std::optional<StoredBaseline> WorkQueue::read_baseline() {
    std::lock_guard lock(mutex_);
    PgResult r = db_.exec("SELECT case_name, encode(output, 'hex'), output IS NULL, wall_s FROM baseline "
                          "WHERE study_id = $1",
                          {pg_int(study())});
    if (r.rows() == 0) return std::nullopt;
    StoredBaseline baseline;
    for (int i = 0; i < r.rows(); ++i) {
        if (r.text(i, 2) != "t") baseline.outputs[r.text(i, 0)] = from_hex(r.text(i, 1));
        if (!r.is_null(i, 3)) baseline.wall_s[r.text(i, 0)] = r.real(i, 3);
    }
    PgResult built = db_.exec("SELECT build_s FROM evaluation WHERE study_id = $1 AND phase = 'default' AND status <> 'pending' "
                              "AND build_s IS NOT NULL ORDER BY id LIMIT 1",
                              {pg_int(study())});
    if (built.rows() == 1) baseline.default_build_s = built.real(0, 0);
    return baseline;
}

std::vector<std::map<std::string, std::string>> WorkQueue::events() {
    std::lock_guard lock(mutex_);
    PgResult r = db_.exec("SELECT kind, route_hash, attempt_id, worker, detail FROM lease_event WHERE study_id = $1 "
                          "ORDER BY id",
                          {pg_int(study())});
    std::vector<std::map<std::string, std::string>> events;
    for (int i = 0; i < r.rows(); ++i)
        events.push_back({{"kind", r.text(i, 0)}, {"route_hash", r.text(i, 1)}, {"attempt_id", r.text(i, 2)},
                          {"worker", r.text(i, 3)}, {"detail", r.text(i, 4)}});
    return events;
}

}  // namespace routetune
