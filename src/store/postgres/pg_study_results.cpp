// The single-row records of a PostgreSQL study: its interleaved confirmation (replaced as a
// whole, in one transaction) and its outcome.
#include "routetune/error.hpp"
#include "store/record_redaction.hpp"
#include "store/postgres/pg_study_store_impl.hpp"
#include "util/files.hpp"

namespace routetune {

void PgStudyStore::record_confirmation(const StudyConfirmation& confirmation) {
    std::lock_guard lock(impl_->mutex);
    PgConnection& db = *impl_->db;
    PgParam study = pg_int(impl_->require_study());
    PgTransaction transaction(db);
    db.exec("DELETE FROM confirmation_route WHERE study_id = $1", {study});
    db.exec("DELETE FROM confirmation WHERE study_id = $1", {study});
    db.exec("INSERT INTO confirmation (study_id, rounds, recorded_at) VALUES ($1, $2, $3)",
            {study, pg_int(confirmation.rounds),
             confirmation.recorded_at.empty() ? iso8601_utc_now() : confirmation.recorded_at});
    std::int64_t position = 0;
    auto insert = [&](const Confirmation& entry, bool is_default) {
        db.exec("INSERT INTO confirmation_route (study_id, position, route, route_hash, is_default, samples, "
                "median_s, ci_low_s, ci_high_s, speedup, speedup_ci_low, speedup_ci_high) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                {study, pg_int(position++), entry.route.to_string(), entry.route.hash(),
                 std::string(is_default ? "true" : "false"), encode_samples(entry.timing.samples_s),
                 pg_real(entry.timing.median_s), pg_real(entry.timing.ci_low_s), pg_real(entry.timing.ci_high_s),
                 pg_real(entry.speedup), pg_real(entry.ci_low), pg_real(entry.ci_high)});
    };
    if (confirmation.baseline) insert(*confirmation.baseline, true);
    for (const auto& entry : confirmation.candidates) insert(entry, false);
    transaction.commit();
}

std::optional<StudyConfirmation> PgStudyStore::read_confirmation() const {
    std::lock_guard lock(impl_->mutex);
    if (impl_->study_id == 0) return std::nullopt;
    PgParam study = pg_int(impl_->study_id);
    PgResult head = impl_->db->exec("SELECT rounds, recorded_at FROM confirmation WHERE study_id = $1", {study});
    if (head.rows() == 0) return std::nullopt;
    StudyConfirmation confirmation;
    confirmation.rounds = static_cast<int>(head.integer(0, 0));
    confirmation.recorded_at = head.text(0, 1);
    PgResult r = impl_->db->exec(
        "SELECT route, is_default, samples, median_s, ci_low_s, ci_high_s, speedup, speedup_ci_low, "
        "speedup_ci_high FROM confirmation_route WHERE study_id = $1 ORDER BY position",
        {study});
    for (int i = 0; i < r.rows(); ++i) {
        Confirmation entry;
        entry.route = parse_stored_route(impl_->db->where(), r.text(i, 0));
        entry.timing.samples_s = decode_samples(r.text(i, 2));
        entry.timing.median_s = r.real(i, 3);
        entry.timing.ci_low_s = r.real(i, 4);
        entry.timing.ci_high_s = r.real(i, 5);
        entry.speedup = r.real(i, 6);
        entry.ci_low = r.real(i, 7);
        entry.ci_high = r.real(i, 8);
        if (r.text(i, 1) == "t") confirmation.baseline = std::move(entry);
        else confirmation.candidates.push_back(std::move(entry));
    }
    for (auto& entry : confirmation.candidates)
        entry.default_timing = confirmation.baseline ? confirmation.baseline->timing : TimingSummary{};
    if (confirmation.baseline) confirmation.baseline->default_timing = confirmation.baseline->timing;
    return confirmation;
}

void PgStudyStore::record_outcome(const StudyOutcome& unfiltered) {
    const StudyOutcome o = redacted_record(unfiltered);
    std::lock_guard lock(impl_->mutex);
    impl_->db->exec(
        "INSERT INTO outcome (study_id, outcome, winner_route, speedup, speedup_ci_low, speedup_ci_high, "
        "artifact_path, artifact_sha256, message, recorded_at, minimal_route, minimal_speedup, minimal_ci_low, "
        "minimal_ci_high) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) "
        "ON CONFLICT (study_id) DO UPDATE SET outcome = excluded.outcome, winner_route = excluded.winner_route, "
        "speedup = excluded.speedup, speedup_ci_low = excluded.speedup_ci_low, "
        "speedup_ci_high = excluded.speedup_ci_high, artifact_path = excluded.artifact_path, "
        "artifact_sha256 = excluded.artifact_sha256, message = excluded.message, recorded_at = excluded.recorded_at, "
        "minimal_route = excluded.minimal_route, minimal_speedup = excluded.minimal_speedup, "
        "minimal_ci_low = excluded.minimal_ci_low, minimal_ci_high = excluded.minimal_ci_high",
        {pg_int(impl_->require_study()), std::string(to_string(o.outcome)), o.winner ? PgParam(o.winner->to_string()) : PgParam{},
         pg_real(o.speedup), pg_real(o.speedup_ci_low), pg_real(o.speedup_ci_high), o.artifact_path,
         o.artifact_sha256, o.message, o.recorded_at.empty() ? iso8601_utc_now() : o.recorded_at,
         o.minimal_route ? PgParam(o.minimal_route->to_string()) : PgParam{}, pg_real(o.minimal_speedup),
         pg_real(o.minimal_ci_low), pg_real(o.minimal_ci_high)});
}

std::optional<StudyOutcome> PgStudyStore::read_outcome() const {
    std::lock_guard lock(impl_->mutex);
    if (impl_->study_id == 0) return std::nullopt;
    PgResult r = impl_->db->exec(
        "SELECT outcome, winner_route, speedup, speedup_ci_low, speedup_ci_high, artifact_path, artifact_sha256, "
        "message, recorded_at, minimal_route, minimal_speedup, minimal_ci_low, minimal_ci_high FROM outcome "
        "WHERE study_id = $1",
        {pg_int(impl_->study_id)});
    if (r.rows() == 0) return std::nullopt;
    StudyOutcome o;
    o.outcome = outcome_from_string(r.text(0, 0)).value_or(Outcome::Unfinished);
    if (!r.is_null(0, 1)) o.winner = parse_stored_route(impl_->db->where(), r.text(0, 1));
    o.speedup = r.real(0, 2);
    o.speedup_ci_low = r.real(0, 3);
    o.speedup_ci_high = r.real(0, 4);
    o.artifact_path = r.text(0, 5);
    o.artifact_sha256 = r.text(0, 6);
    o.message = r.text(0, 7);
    o.recorded_at = r.text(0, 8);
    if (!r.is_null(0, 9)) {
        o.minimal_route = parse_stored_route(impl_->db->where(), r.text(0, 9));
        o.minimal_speedup = r.real(0, 10);
        o.minimal_ci_low = r.real(0, 11);
        o.minimal_ci_high = r.real(0, 12);
    }
    return o;
}

void PgStudyStore::write_note(const std::string& key, const std::string& value) {
    std::lock_guard lock(impl_->mutex);
    impl_->db->exec("INSERT INTO note (study_id, key, value) VALUES ($1, $2, $3) "
                    "ON CONFLICT (study_id, key) DO UPDATE SET value = excluded.value",
                    {pg_int(impl_->require_study()), key, value});
}

std::optional<std::string> PgStudyStore::read_note(const std::string& key) const {
    std::lock_guard lock(impl_->mutex);
    if (impl_->study_id == 0) return std::nullopt;
    PgResult r = impl_->db->exec("SELECT value FROM note WHERE study_id = $1 AND key = $2", {pg_int(impl_->study_id), key});
    if (r.rows() == 0) return std::nullopt;
    return r.text(0, 0);
}

void PgStudyStore::clear_log_tails(std::int64_t id) {
    std::lock_guard lock(impl_->mutex);
    PgTransaction transaction(*impl_->db);
    impl_->db->exec("UPDATE evaluation SET build_log_tail = '' WHERE id = $1", {pg_int(id)});
    impl_->db->exec("UPDATE case_result SET stderr_tail = '' WHERE evaluation_id = $1", {pg_int(id)});
    transaction.commit();
}

}  // namespace routetune
