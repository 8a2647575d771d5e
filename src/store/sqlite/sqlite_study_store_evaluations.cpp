// SqliteStudyStore: its evaluations. An evaluation is one row of `evaluation` plus one row of
// `case_result` per case (position keeps their order). record() runs in its own IMMEDIATE
// transaction and commits before returning; it first deletes a pending row of the same route,
// so row ids follow finish order. Reading all evaluations is two sequential scans (rows, then
// every case row ordered by evaluation) joined in memory, so 100,000 evaluations load without
// one query per row; CaseRows::Skip reads only the evaluation rows, and find() uses the
// route_hash index. Rows are read in id order (the table's own order, so SQLite never sorts)
// and pending rows moved to the end in memory.
#include <algorithm>
#include <unordered_map>

#include "routetune/error.hpp"
#include "store/record_redaction.hpp"
#include "store/sqlite/study_store_impl.hpp"
#include "util/process_tree.hpp"

namespace routetune {

namespace {

// The evaluation columns read back; an older store opened read-only has no same_as (schema 4,
// read as ""), no paired lists (schema 5, read as unpaired) or no run costs (schema 6, read as 0).
std::string evaluation_columns(const SqliteStudyStore::Impl& impl) {
    return std::string("id, route, route_hash, phase, status, message, build_s, build_log_tail, artifact_sha256, "
                       "artifact_bytes, artifact_path, samples, median_s, ci_low_s, ci_high_s, started_at, finished_at, ") +
           (impl.has_same_as ? "same_as" : "'' AS same_as") +
           (impl.paired_columns ? ", paired_default_samples, paired_samples"
                                : ", '' AS paired_default_samples, '' AS paired_samples") +
           (impl.run_cost_columns ? ", run_first_s, run_repeat_s" : ", 0 AS run_first_s, 0 AS run_repeat_s");
}

constexpr const char* kCaseColumns =
    "evaluation_id, position, name, status, exit_code, signal, loss, stderr_tail, samples, median_s, ci_low_s, "
    "ci_high_s";

Status read_status(const std::filesystem::path& store, const std::string& text) {
    auto status = status_from_string(text);
    if (!status) throw RuntimeFailure(store.string() + ": unknown status '" + text + "' in the store");
    return *status;
}

Evaluation read_evaluation(const SqliteStatement& row, const std::filesystem::path& store) {
    Evaluation evaluation;
    evaluation.id = row.integer(0);
    evaluation.route = parse_stored_route(store, row.text(1));
    evaluation.phase = row.text(3);
    evaluation.status = read_status(store, row.text(4));
    evaluation.message = row.text(5);
    evaluation.build_s = row.real(6);
    evaluation.build_log_tail = row.text(7);
    evaluation.artifact_sha256 = row.text(8);
    evaluation.artifact_bytes = static_cast<std::uint64_t>(row.integer(9));
    evaluation.artifact_path = row.text(10);
    evaluation.timing = read_timing(row, 11);
    evaluation.started_at = row.text(15);
    evaluation.finished_at = row.text(16);
    evaluation.same_as = row.text(17);
    evaluation.paired.default_s = decode_samples(row.text(18));
    evaluation.paired.candidate_s = decode_samples(row.text(19));
    evaluation.run_first_s = row.real(20);
    evaluation.run_repeat_s = row.real(21);
    return evaluation;
}

CaseResult read_case(const SqliteStatement& row, const std::filesystem::path& store) {
    CaseResult result;
    result.name = row.text(2);
    result.status = read_status(store, row.text(3));
    result.exit_code = static_cast<int>(row.integer(4));
    result.signal = static_cast<int>(row.integer(5));
    result.loss = row.real(6);
    result.stderr_tail = row.text(7);
    result.timing = read_timing(row, 8);
    return result;
}

/// Inserts one evaluation (inside the caller's transaction) and returns its id.
std::int64_t insert_evaluation(SqliteDb& db, SqliteStatement& drop_pending, SqliteStatement& insert,
                               SqliteStatement& insert_case, const Evaluation& unfiltered) {
    const Evaluation evaluation = redacted_record(unfiltered);
    std::string route_hash = evaluation.route.hash();
    drop_pending.bind(1, route_hash);
    drop_pending.run();
    drop_pending.reset();
    insert.bind(1, evaluation.route.to_string()).bind(2, route_hash).bind(3, evaluation.phase);
    insert.bind(4, to_string(evaluation.status)).bind(5, evaluation.message).bind(6, evaluation.build_s);
    insert.bind(7, evaluation.build_log_tail).bind(8, evaluation.artifact_sha256);
    insert.bind(9, static_cast<std::int64_t>(evaluation.artifact_bytes)).bind(10, evaluation.artifact_path);
    insert.bind(11, encode_samples(evaluation.timing.samples_s)).bind(12, evaluation.timing.median_s);
    insert.bind(13, evaluation.timing.ci_low_s).bind(14, evaluation.timing.ci_high_s);
    insert.bind(15, evaluation.started_at).bind(16, evaluation.finished_at).bind(17, evaluation.same_as);
    insert.bind(18, encode_samples(evaluation.paired.default_s)).bind(19, encode_samples(evaluation.paired.candidate_s));
    insert.bind(20, evaluation.run_first_s).bind(21, evaluation.run_repeat_s);
    insert.run();
    insert.reset();
    std::int64_t id = db.last_insert_id();
    std::int64_t position = 0;
    for (const auto& result : evaluation.cases) {
        insert_case.bind(1, id).bind(2, position++).bind(3, result.name).bind(4, to_string(result.status));
        insert_case.bind(5, static_cast<std::int64_t>(result.exit_code)).bind(6, static_cast<std::int64_t>(result.signal));
        insert_case.bind(7, result.loss).bind(8, result.stderr_tail).bind(9, encode_samples(result.timing.samples_s));
        insert_case.bind(10, result.timing.median_s).bind(11, result.timing.ci_low_s).bind(12, result.timing.ci_high_s);
        insert_case.run();
        insert_case.reset();
    }
    return id;
}

// Inserts evaluations inside the caller's transaction.
std::vector<std::int64_t> insert_rows(SqliteDb& db, const std::vector<const Evaluation*>& evaluations) {
    auto drop_pending = db.prepare("DELETE FROM evaluation WHERE route_hash = ? AND status = 'pending'");
    auto insert = db.prepare(
        "INSERT INTO evaluation (route, route_hash, phase, status, message, build_s, build_log_tail, "
        "artifact_sha256, artifact_bytes, artifact_path, samples, median_s, ci_low_s, ci_high_s, started_at, "
        "finished_at, same_as, paired_default_samples, paired_samples, run_first_s, run_repeat_s) VALUES (?, ?, ?, ?, ?, "
        "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    auto insert_case = db.prepare(std::string("INSERT INTO case_result (") + kCaseColumns +
                                  ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    std::vector<std::int64_t> ids;
    for (const Evaluation* evaluation : evaluations)
        ids.push_back(insert_evaluation(db, drop_pending, insert, insert_case, *evaluation));
    return ids;
}

std::vector<std::int64_t> insert_all(SqliteDb& db, const std::vector<const Evaluation*>& evaluations) {
    StoreTransaction transaction(db);
    std::vector<std::int64_t> ids = insert_rows(db, evaluations);
    transaction.commit();
    return ids;
}

}  // namespace

TimingSummary read_timing(const SqliteStatement& row, int first) {
    return TimingSummary{decode_samples(row.text(first)), row.real(first + 1), row.real(first + 2), row.real(first + 3)};
}

std::int64_t SqliteStudyStore::mark_pending(const Route& route, const std::string& phase, const std::string& started_at) {
    const Evaluation pending = pending_evaluation(route, phase, started_at);
    std::lock_guard lock(impl_->mutex);
    // Not fsync'ed, like note_process: a pending row matters only while this machine is up
    // (kill -9 keeps it, since the WAL write reached the kernel; after a power loss no process
    // of it is left, and the candidate is simply proposed again). The next evaluation's
    // durable commit syncs it with everything before it.
    WeakSync weak(impl_->db);
    StoreTransaction transaction(impl_->db);  // the row and its owner in one commit
    std::int64_t id = insert_rows(impl_->db, {&pending}).front();
    auto owner = impl_->db.prepare("UPDATE evaluation SET owner = ? WHERE id = ?");
    owner.bind(1, this_process_tag()).bind(2, id);
    owner.run();
    transaction.commit();
    return id;
}

std::int64_t SqliteStudyStore::record(const Evaluation& evaluation) {
    std::lock_guard lock(impl_->mutex);
    return insert_all(impl_->db, {&evaluation}).front();
}

std::vector<std::int64_t> SqliteStudyStore::record_many(const std::vector<Evaluation>& evaluations) {
    std::lock_guard lock(impl_->mutex);
    std::vector<const Evaluation*> pointers;
    for (const auto& evaluation : evaluations) pointers.push_back(&evaluation);
    return insert_all(impl_->db, pointers);
}

void SqliteStudyStore::update_artifact_path(std::int64_t id, const std::string& artifact_path) {
    std::lock_guard lock(impl_->mutex);
    auto statement = impl_->db.prepare("UPDATE evaluation SET artifact_path = ? WHERE id = ?");
    statement.bind(1, artifact_path).bind(2, id);
    statement.run();
}

void SqliteStudyStore::clear_artifact_paths(const std::vector<std::int64_t>& ids) {
    std::lock_guard lock(impl_->mutex);
    StoreTransaction transaction(impl_->db);
    auto statement = impl_->db.prepare("UPDATE evaluation SET artifact_path = '' WHERE id = ?");
    for (std::int64_t id : ids) {
        statement.bind(1, id);
        statement.run();
        statement.reset();
    }
    transaction.commit();
}

void SqliteStudyStore::clear_log_tails(std::int64_t id) {
    std::lock_guard lock(impl_->mutex);
    impl_->db.exec("PRAGMA secure_delete = ON");
    Evaluation message_only;
    auto read = impl_->db.prepare("SELECT message FROM evaluation WHERE id = ?");
    read.bind(1, id);
    if (read.step()) message_only.message = read.text(0);
    read.reset();
    std::string message = redacted_record(message_only).message;
    impl_->db.prepare("UPDATE evaluation SET build_log_tail = '', message = ? WHERE id = ?").bind(1, message).bind(2, id).run();
    impl_->db.prepare("UPDATE case_result SET stderr_tail = '' WHERE evaluation_id = ?").bind(1, id).run();
}

std::vector<Evaluation> SqliteStudyStore::evaluations(CaseRows cases) const {
    std::lock_guard lock(impl_->mutex);
    std::vector<Evaluation> evaluations;
    auto rows = impl_->db.prepare("SELECT " + evaluation_columns(*impl_) +
                                  " FROM evaluation ORDER BY id");
    while (rows.step()) evaluations.push_back(read_evaluation(rows, impl_->path));
    std::stable_partition(evaluations.begin(), evaluations.end(),
                          [](const Evaluation& evaluation) { return evaluation.status != Status::Pending; });
    if (cases == CaseRows::Skip) return evaluations;
    std::unordered_map<std::int64_t, std::size_t> index;
    index.reserve(evaluations.size());
    for (std::size_t i = 0; i < evaluations.size(); ++i) index.emplace(evaluations[i].id, i);
    auto case_rows = impl_->db.prepare(std::string("SELECT ") + kCaseColumns +
                                       " FROM case_result ORDER BY evaluation_id, position");
    while (case_rows.step()) {
        auto owner = index.find(case_rows.integer(0));
        if (owner != index.end()) evaluations[owner->second].cases.push_back(read_case(case_rows, impl_->path));
    }
    return evaluations;
}

void SqliteStudyStore::load_cases(Evaluation& evaluation) const {
    std::lock_guard lock(impl_->mutex);
    evaluation.cases.clear();
    auto rows = impl_->db.prepare(std::string("SELECT ") + kCaseColumns +
                                  " FROM case_result WHERE evaluation_id = ? ORDER BY position");
    rows.bind(1, evaluation.id);
    while (rows.step()) evaluation.cases.push_back(read_case(rows, impl_->path));
}

std::optional<Evaluation> SqliteStudyStore::find(const std::string& route_hash) const {
    std::optional<Evaluation> found;
    {
        std::lock_guard lock(impl_->mutex);
        auto row = impl_->db.prepare("SELECT " + evaluation_columns(*impl_) +
                                     " FROM evaluation WHERE route_hash = ? AND status != 'pending' "
                                     "ORDER BY id DESC LIMIT 1");
        row.bind(1, route_hash);
        if (!row.step()) return std::nullopt;
        found = read_evaluation(row, impl_->path);
    }
    load_cases(*found);
    return found;
}

std::size_t SqliteStudyStore::count() const {
    std::lock_guard lock(impl_->mutex);
    auto row = impl_->db.prepare("SELECT count(*) FROM evaluation");
    row.step();
    return static_cast<std::size_t>(row.integer(0));
}

}  // namespace routetune
