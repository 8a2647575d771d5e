// Opening a study in PostgreSQL, its header and its evaluations. A writer (the coordinator)
// takes pg_try_advisory_lock(kStudyLockClass, hashtext(name)): a second coordinator of the
// same study is refused while the first one's session lives, and a kill -9 frees the lock
// as soon as the server notices the closed connection. Workers never open a study this way;
// they go through the WorkQueue. Setting a study aside renames it (name.<time>.old), which
// keeps every row of it.
#include "store/postgres/pg_study_store.hpp"

#include <algorithm>

#include "routetune/error.hpp"
#include "store/record_redaction.hpp"
#include "store/postgres/pg_rows.hpp"
#include "store/postgres/pg_schema.hpp"
#include "store/postgres/pg_study_store_impl.hpp"

namespace routetune {

namespace {

constexpr const char* kStudyLockClass = "7461";

std::string names_text(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
    return text.empty() ? "none" : text;
}

std::vector<std::string> study_names(PgConnection& db) {
    std::vector<std::string> names;
    PgResult rows = db.exec("SELECT name FROM study ORDER BY id");
    for (int i = 0; i < rows.rows(); ++i) names.push_back(rows.text(i, 0));
    return names;
}

// The study to open: the one named, or (reading) the database's only one.
std::string resolve_name(PgConnection& db, const StoreLocation& location, bool read_only) {
    if (!location.study.empty()) return location.study;
    std::vector<std::string> names = study_names(db);
    if (read_only && names.size() == 1) return names.front();
    if (read_only)
        throw UsageError(db.where() + " holds " + std::to_string(names.size()) + " studies (" + names_text(names) +
                         "); name one with --study NAME");
    throw UsageError(db.where() + ": no study name given (--study NAME)");
}

}  // namespace

std::int64_t PgStudyStore::Impl::require_study() const {
    if (study_id == 0) throw RuntimeFailure(db->where() + ": study '" + name + "' has no header yet");
    return study_id;
}

PgStudyStore::PgStudyStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PgStudyStore::~PgStudyStore() = default;

std::unique_ptr<PgStudyStore> PgStudyStore::open(const StoreLocation& location, bool read_only) {
    auto impl = std::make_unique<Impl>();
    impl->db = std::make_unique<PgConnection>(location.text);
    impl->read_only = read_only;
    impl->opened_version = prepare_pg_schema(*impl->db, read_only);
    impl->name = resolve_name(*impl->db, location, read_only);
    PgResult found = impl->db->exec("SELECT id FROM study WHERE name = $1", {impl->name});
    if (found.rows()) impl->study_id = found.integer(0, 0);
    if (read_only && impl->study_id == 0)
        throw UsageError(impl->db->where() + ": no study '" + impl->name + "' here (studies: " +
                         names_text(study_names(*impl->db)) + ")");
    if (!read_only) {
        PgResult locked = impl->db->exec(std::string("SELECT pg_try_advisory_lock(") + kStudyLockClass +
                                             ", hashtext($1))",
                                         {impl->name});
        if (locked.text(0, 0) != "t")
            throw RuntimeFailure(impl->db->where() + ": study '" + impl->name +
                                 "' is being run by another routetune coordinator; wait for it to finish or use "
                                 "another --study");
    }
    return std::unique_ptr<PgStudyStore>(new PgStudyStore(std::move(impl)));
}

std::vector<std::string> pg_study_names(const std::string& url) {
    PgConnection db(url);
    prepare_pg_schema(db, true);
    return study_names(db);
}

void PgStudyStore::set_aside(const std::string& suffix) {
    std::lock_guard lock(impl_->mutex);
    if (impl_->study_id == 0) return;
    impl_->db->exec("UPDATE study SET name = name || $2 WHERE id = $1", {pg_int(impl_->study_id), suffix});
    impl_->study_id = 0;
    impl_->moved_aside_to = impl_->db->where() + " (study " + impl_->name + suffix + ")";
}

std::string PgStudyStore::moved_aside_to() const { return impl_->moved_aside_to; }

std::string PgStudyStore::location() const { return impl_->db->where() + " (study " + impl_->name + ")"; }

int PgStudyStore::opened_schema_version() const { return impl_->opened_version; }

std::int64_t PgStudyStore::study_id() const {
    std::lock_guard lock(impl_->mutex);
    return impl_->study_id;
}

void PgStudyStore::write_header(const StudyHeader& unfiltered) {
    const StudyHeader h = redacted_record(unfiltered);
    std::lock_guard lock(impl_->mutex);
    PgResult row = impl_->db->exec(
        "INSERT INTO study (name, spec_sha256, spec_path, expression, mode, seed, fingerprint, tool_version, "
        "command_line, \"user\", host, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) "
        "ON CONFLICT (name) DO UPDATE SET spec_sha256 = excluded.spec_sha256, spec_path = excluded.spec_path, "
        "expression = excluded.expression, mode = excluded.mode, seed = excluded.seed, "
        "fingerprint = excluded.fingerprint, tool_version = excluded.tool_version, "
        "command_line = excluded.command_line, \"user\" = excluded.\"user\", host = excluded.host, "
        "created_at = excluded.created_at RETURNING id",
        {impl_->name, h.spec_sha256, h.spec_path, h.expression, h.mode, pg_int(static_cast<std::int64_t>(h.seed)),
         h.fingerprint_json, h.tool_version, redact_location(h.command_line), h.user, h.host, h.created_at});
    impl_->study_id = row.integer(0, 0);
}

std::optional<StudyHeader> PgStudyStore::read_header() const {
    std::lock_guard lock(impl_->mutex);
    if (impl_->study_id == 0) return std::nullopt;
    PgResult r = impl_->db->exec(
        "SELECT name, spec_sha256, spec_path, expression, mode, seed, fingerprint, tool_version, command_line, "
        "\"user\", host, created_at FROM study WHERE id = $1",
        {pg_int(impl_->study_id)});
    if (r.rows() == 0) return std::nullopt;
    StudyHeader h;
    h.name = r.text(0, 0);
    h.spec_sha256 = r.text(0, 1);
    h.spec_path = r.text(0, 2);
    h.expression = r.text(0, 3);
    h.mode = r.text(0, 4);
    h.seed = static_cast<std::uint64_t>(r.integer(0, 5));
    h.fingerprint_json = r.text(0, 6);
    h.tool_version = r.text(0, 7);
    h.command_line = r.text(0, 8);
    h.user = r.text(0, 9);
    h.host = r.text(0, 10);
    h.created_at = r.text(0, 11);
    return h;
}

std::int64_t PgStudyStore::mark_pending(const Route& route, const std::string& phase, const std::string& started_at) {
    return record(pending_evaluation(route, phase, started_at));
}

std::int64_t PgStudyStore::record(const Evaluation& evaluation) { return record_many({evaluation}).front(); }

std::vector<std::int64_t> PgStudyStore::record_many(const std::vector<Evaluation>& evaluations) {
    std::lock_guard lock(impl_->mutex);
    std::int64_t study = impl_->require_study();
    std::vector<std::int64_t> ids;
    PgTransaction transaction(*impl_->db);
    for (const auto& evaluation : evaluations) {
        std::optional<std::int64_t> id = insert_pg_evaluation(*impl_->db, study, evaluation);
        if (!id) {
            PgResult existing = impl_->db->exec("SELECT id FROM evaluation WHERE study_id = $1 AND route_hash = $2",
                                                {pg_int(study), evaluation.route.hash()});
            id = existing.integer(0, 0);
        }
        ids.push_back(*id);
    }
    transaction.commit();
    return ids;
}

void PgStudyStore::update_artifact_path(std::int64_t id, const std::string& artifact_path) {
    std::lock_guard lock(impl_->mutex);
    impl_->db->exec("UPDATE evaluation SET artifact_path = $2 WHERE id = $1", {pg_int(id), artifact_path});
}

void PgStudyStore::clear_artifact_paths(const std::vector<std::int64_t>& ids) {
    std::lock_guard lock(impl_->mutex);
    PgTransaction transaction(*impl_->db);
    for (std::int64_t id : ids) impl_->db->exec("UPDATE evaluation SET artifact_path = '' WHERE id = $1", {pg_int(id)});
    transaction.commit();
}

std::vector<Evaluation> PgStudyStore::evaluations(CaseRows cases) const {
    std::lock_guard lock(impl_->mutex);
    if (impl_->study_id == 0) return {};
    std::vector<Evaluation> all = select_pg_evaluations(*impl_->db, impl_->study_id, "true", {}, cases);
    std::stable_partition(all.begin(), all.end(), [](const Evaluation& e) { return e.status != Status::Pending; });
    return all;
}

void PgStudyStore::load_cases(Evaluation& evaluation) const {
    std::lock_guard lock(impl_->mutex);
    std::vector<Evaluation> one{evaluation};
    load_pg_cases(*impl_->db, one);
    evaluation.cases = std::move(one.front().cases);
}

std::optional<Evaluation> PgStudyStore::find(const std::string& route_hash) const {
    std::lock_guard lock(impl_->mutex);
    if (impl_->study_id == 0) return std::nullopt;
    auto found = select_pg_evaluations(*impl_->db, impl_->study_id, "route_hash = $2 AND status <> 'pending'",
                                       {route_hash}, CaseRows::Load);
    if (found.empty()) return std::nullopt;
    return found.back();
}

std::size_t PgStudyStore::count() const {
    std::lock_guard lock(impl_->mutex);
    if (impl_->study_id == 0) return 0;
    PgResult r = impl_->db->exec("SELECT count(*) FROM evaluation WHERE study_id = $1", {pg_int(impl_->study_id)});
    return static_cast<std::size_t>(r.integer(0, 0));
}

}  // namespace routetune
