// Evaluation rows. The table's UNIQUE (study_id, route_hash) is what makes a route recorded
// once: the insert says ON CONFLICT DO NOTHING, so of two writers racing for one route the
// second sees no id and writes no cases. Cases of many evaluations are read in one query
// (evaluation_id = ANY(array)) and joined in memory.
#include "store/postgres/pg_rows.hpp"

#include <unordered_map>

#include "routetune/error.hpp"
#include "store/record_redaction.hpp"

namespace routetune {

namespace {

constexpr const char* kColumns =
    "id, route, route_hash, phase, status, message, build_s, build_log_tail, artifact_sha256, artifact_bytes, "
    "artifact_path, samples, median_s, ci_low_s, ci_high_s, started_at, finished_at, worker, host, same_as, "
    "paired_default_samples, paired_samples, run_first_s, run_repeat_s";

Status read_status(const std::string& where, const std::string& text) {
    auto status = status_from_string(text);
    if (!status) throw RuntimeFailure(where + ": unknown status '" + text + "' in the store");
    return *status;
}

Evaluation read_row(const PgResult& r, int i, const std::string& where) {
    Evaluation e;
    e.id = r.integer(i, 0);
    e.route = parse_stored_route(where, r.text(i, 1));
    e.phase = r.text(i, 3);
    e.status = read_status(where, r.text(i, 4));
    e.message = r.text(i, 5);
    e.build_s = r.real(i, 6);
    e.build_log_tail = r.text(i, 7);
    e.artifact_sha256 = r.text(i, 8);
    e.artifact_bytes = static_cast<std::uint64_t>(r.integer(i, 9));
    e.artifact_path = r.text(i, 10);
    e.timing.samples_s = decode_samples(r.text(i, 11));
    e.timing.median_s = r.real(i, 12);
    e.timing.ci_low_s = r.real(i, 13);
    e.timing.ci_high_s = r.real(i, 14);
    e.started_at = r.text(i, 15);
    e.finished_at = r.text(i, 16);
    e.worker = r.text(i, 17);
    e.host = r.text(i, 18);
    e.same_as = r.text(i, 19);
    e.paired.default_s = decode_samples(r.text(i, 20));
    e.paired.candidate_s = decode_samples(r.text(i, 21));
    e.run_first_s = r.real(i, 22);
    e.run_repeat_s = r.real(i, 23);
    return e;
}

void insert_cases(PgConnection& db, std::int64_t id, const Evaluation& evaluation) {
    std::int64_t position = 0;
    for (const auto& c : evaluation.cases) {
        db.exec("INSERT INTO case_result (evaluation_id, position, name, status, exit_code, signal, loss, "
                "stderr_tail, samples, median_s, ci_low_s, ci_high_s) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                {pg_int(id), pg_int(position++), c.name, std::string(to_string(c.status)), pg_int(c.exit_code),
                 pg_int(c.signal), pg_real(c.loss), c.stderr_tail, encode_samples(c.timing.samples_s),
                 pg_real(c.timing.median_s), pg_real(c.timing.ci_low_s), pg_real(c.timing.ci_high_s)});
    }
}

}  // namespace

std::optional<std::int64_t> insert_pg_evaluation(PgConnection& db, std::int64_t study, const Evaluation& unfiltered,
                                                 std::optional<std::int64_t> attempt_id) {
    const Evaluation e = redacted_record(unfiltered);
    std::string hash = e.route.hash();
    db.exec("DELETE FROM evaluation WHERE study_id = $1 AND route_hash = $2 AND status = 'pending'",
            {pg_int(study), hash});
    PgResult inserted = db.exec(
        "INSERT INTO evaluation (study_id, route, route_hash, phase, status, message, build_s, build_log_tail, "
        "artifact_sha256, artifact_bytes, artifact_path, samples, median_s, ci_low_s, ci_high_s, started_at, "
        "finished_at, worker, host, attempt_id, same_as, paired_default_samples, paired_samples, run_first_s, "
        "run_repeat_s) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, "
        "$20, $21, $22, $23, $24, $25) "
        "ON CONFLICT (study_id, route_hash) DO NOTHING RETURNING id",
        {pg_int(study), e.route.to_string(), hash, e.phase, std::string(to_string(e.status)), e.message,
         pg_real(e.build_s), e.build_log_tail, e.artifact_sha256, pg_int(static_cast<std::int64_t>(e.artifact_bytes)),
         e.artifact_path, encode_samples(e.timing.samples_s), pg_real(e.timing.median_s), pg_real(e.timing.ci_low_s),
         pg_real(e.timing.ci_high_s), e.started_at, e.finished_at, e.worker, e.host,
         attempt_id ? pg_int(*attempt_id) : PgParam{}, e.same_as, encode_samples(e.paired.default_s),
         encode_samples(e.paired.candidate_s), pg_real(e.run_first_s), pg_real(e.run_repeat_s)});
    if (inserted.rows() == 0) return std::nullopt;
    std::int64_t id = inserted.integer(0, 0);
    insert_cases(db, id, e);
    return id;
}

std::vector<Evaluation> select_pg_evaluations(PgConnection& db, std::int64_t study, const std::string& condition,
                                              const std::vector<PgParam>& params, CaseRows cases) {
    std::vector<PgParam> all{pg_int(study)};
    all.insert(all.end(), params.begin(), params.end());
    PgResult rows = db.exec(std::string("SELECT ") + kColumns + " FROM evaluation WHERE study_id = $1 AND " +
                                condition + " ORDER BY id",
                            all);
    std::vector<Evaluation> evaluations;
    evaluations.reserve(static_cast<std::size_t>(rows.rows()));
    for (int i = 0; i < rows.rows(); ++i) evaluations.push_back(read_row(rows, i, db.where()));
    if (cases == CaseRows::Load) load_pg_cases(db, evaluations);
    return evaluations;
}

void load_pg_cases(PgConnection& db, std::vector<Evaluation>& evaluations) {
    if (evaluations.empty()) return;
    std::unordered_map<std::int64_t, std::size_t> index;
    std::string ids = "{";
    for (std::size_t i = 0; i < evaluations.size(); ++i) {
        evaluations[i].cases.clear();
        index.emplace(evaluations[i].id, i);
        ids += (i ? "," : "") + std::to_string(evaluations[i].id);
    }
    ids += "}";
    PgResult rows = db.exec(
        "SELECT evaluation_id, name, status, exit_code, signal, loss, stderr_tail, samples, median_s, ci_low_s, "
        "ci_high_s FROM case_result WHERE evaluation_id = ANY($1::bigint[]) ORDER BY evaluation_id, position",
        {ids});
    for (int i = 0; i < rows.rows(); ++i) {
        CaseResult c;
        c.name = rows.text(i, 1);
        c.status = read_status(db.where(), rows.text(i, 2));
        c.exit_code = static_cast<int>(rows.integer(i, 3));
        c.signal = static_cast<int>(rows.integer(i, 4));
        c.loss = rows.real(i, 5);
        c.stderr_tail = rows.text(i, 6);
        c.timing.samples_s = decode_samples(rows.text(i, 7));
        c.timing.median_s = rows.real(i, 8);
        c.timing.ci_low_s = rows.real(i, 9);
        c.timing.ci_high_s = rows.real(i, 10);
        evaluations[index.at(rows.integer(i, 0))].cases.push_back(std::move(c));
    }
}

}  // namespace routetune
