// Schema versioning. routetune_meta holds schema_version; migrations are (version, SQL)
// pairs, each applied in its own transaction together with the new version number while the
// session holds an advisory lock (so concurrent openers wait, then see the new version). One
// database holds many studies: every table is keyed by the study's id. The queue lives in
// the same schema: `candidate` (one row per queued route, with its lease and fencing attempt
// id), `lease_event` (reclaims and refused late writes: the evidence) and `baseline` (the
// default route's outputs and case times, which workers on other machines check against) and
// `artifact_claim` (which candidate measures an artifact that several candidates built).
#include "store/postgres/pg_schema.hpp"

#include <string>
#include <utility>
#include <vector>

#include "routetune/error.hpp"

namespace routetune {

namespace {

constexpr const char* kLockKey = "7461375021";  // pg_advisory_lock key of schema changes

const char* kVersion1 = R"sql(
CREATE TABLE study (
    id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE, spec_sha256 TEXT NOT NULL, spec_path TEXT NOT NULL,
    expression TEXT NOT NULL, mode TEXT NOT NULL, seed BIGINT NOT NULL, fingerprint TEXT NOT NULL,
    tool_version TEXT NOT NULL, command_line TEXT NOT NULL, "user" TEXT NOT NULL, host TEXT NOT NULL,
    created_at TEXT NOT NULL, queue_closed BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE evaluation (
    id BIGSERIAL PRIMARY KEY, study_id BIGINT NOT NULL REFERENCES study (id) ON DELETE CASCADE,
    route TEXT NOT NULL, route_hash TEXT NOT NULL, phase TEXT NOT NULL, status TEXT NOT NULL,
    message TEXT NOT NULL, build_s DOUBLE PRECISION, build_log_tail TEXT NOT NULL,
    artifact_sha256 TEXT NOT NULL, artifact_bytes BIGINT NOT NULL, artifact_path TEXT NOT NULL,
    samples TEXT NOT NULL, median_s DOUBLE PRECISION, ci_low_s DOUBLE PRECISION, ci_high_s DOUBLE PRECISION,
    started_at TEXT NOT NULL, finished_at TEXT NOT NULL,
    worker TEXT NOT NULL DEFAULT '', host TEXT NOT NULL DEFAULT '', attempt_id BIGINT,
    UNIQUE (study_id, route_hash)
);
CREATE TABLE case_result (
    evaluation_id BIGINT NOT NULL REFERENCES evaluation (id) ON DELETE CASCADE, position INTEGER NOT NULL,
    name TEXT NOT NULL, status TEXT NOT NULL, exit_code INTEGER NOT NULL, signal INTEGER NOT NULL,
    loss DOUBLE PRECISION, stderr_tail TEXT NOT NULL, samples TEXT NOT NULL, median_s DOUBLE PRECISION,
    ci_low_s DOUBLE PRECISION, ci_high_s DOUBLE PRECISION, PRIMARY KEY (evaluation_id, position)
);
CREATE TABLE confirmation (
    study_id BIGINT PRIMARY KEY REFERENCES study (id) ON DELETE CASCADE, rounds INTEGER NOT NULL,
    recorded_at TEXT NOT NULL
);
CREATE TABLE confirmation_route (
    study_id BIGINT NOT NULL REFERENCES study (id) ON DELETE CASCADE, position INTEGER NOT NULL,
    route TEXT NOT NULL, route_hash TEXT NOT NULL, is_default BOOLEAN NOT NULL, samples TEXT NOT NULL,
    median_s DOUBLE PRECISION, ci_low_s DOUBLE PRECISION, ci_high_s DOUBLE PRECISION, speedup DOUBLE PRECISION,
    speedup_ci_low DOUBLE PRECISION, speedup_ci_high DOUBLE PRECISION, PRIMARY KEY (study_id, position)
);
CREATE TABLE outcome (
    study_id BIGINT PRIMARY KEY REFERENCES study (id) ON DELETE CASCADE, outcome TEXT NOT NULL,
    winner_route TEXT, speedup DOUBLE PRECISION, speedup_ci_low DOUBLE PRECISION,
    speedup_ci_high DOUBLE PRECISION, artifact_path TEXT NOT NULL, artifact_sha256 TEXT NOT NULL,
    message TEXT NOT NULL, recorded_at TEXT NOT NULL, minimal_route TEXT, minimal_speedup DOUBLE PRECISION,
    minimal_ci_low DOUBLE PRECISION, minimal_ci_high DOUBLE PRECISION
);
CREATE TABLE note (
    study_id BIGINT NOT NULL REFERENCES study (id) ON DELETE CASCADE, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (study_id, key)
);
CREATE SEQUENCE attempt_id_seq;
CREATE TABLE candidate (
    study_id BIGINT NOT NULL REFERENCES study (id) ON DELETE CASCADE, route_hash TEXT NOT NULL,
    route TEXT NOT NULL, phase TEXT NOT NULL, seq BIGSERIAL, state TEXT NOT NULL DEFAULT 'queued',
    attempts INTEGER NOT NULL DEFAULT 0, attempt_id BIGINT, worker TEXT, host TEXT,
    lease_until TIMESTAMPTZ, queued_at TIMESTAMPTZ NOT NULL DEFAULT now(), claimed_at TIMESTAMPTZ,
    done_at TIMESTAMPTZ,
    PRIMARY KEY (study_id, route_hash),
    CHECK (state IN ('queued', 'running', 'done', 'abandoned'))
);
CREATE INDEX candidate_queued ON candidate (study_id, seq) WHERE state = 'queued';
CREATE INDEX candidate_running ON candidate (study_id, lease_until) WHERE state = 'running';
CREATE TABLE lease_event (
    id BIGSERIAL PRIMARY KEY, study_id BIGINT NOT NULL REFERENCES study (id) ON DELETE CASCADE,
    route_hash TEXT NOT NULL, attempt_id BIGINT, kind TEXT NOT NULL, worker TEXT NOT NULL, host TEXT NOT NULL,
    detail TEXT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
CREATE TABLE baseline (
    study_id BIGINT NOT NULL REFERENCES study (id) ON DELETE CASCADE, case_name TEXT NOT NULL,
    output BYTEA, wall_s DOUBLE PRECISION, PRIMARY KEY (study_id, case_name)
);
)sql";

// Version 2: an evaluation answered by a byte-identical artifact measured before it names that
// route (same_as); workers find such a twin by artifact, and claim an artifact's measurement
// (artifact_claim: one candidate per run identity measures it, the others wait for its answer).
const char* kVersion2 = R"sql(
ALTER TABLE evaluation ADD COLUMN same_as TEXT NOT NULL DEFAULT '';
CREATE INDEX evaluation_by_artifact ON evaluation (study_id, artifact_sha256);
CREATE TABLE artifact_claim (
    study_id BIGINT NOT NULL REFERENCES study (id) ON DELETE CASCADE, run_identity TEXT NOT NULL,
    route_hash TEXT NOT NULL, PRIMARY KEY (study_id, run_identity)
);
)sql";

// Version 3: the rounds of a candidate paired with the default's (Evaluation::paired), each
// list encoded like samples; '' (an older row, or [timing] paired = false) reads as unpaired.
const char* kVersion3 = R"sql(
ALTER TABLE evaluation ADD COLUMN paired_default_samples TEXT NOT NULL DEFAULT '',
    ADD COLUMN paired_samples TEXT NOT NULL DEFAULT '';
)sql";

// Version 4: what one run of a measured build cost (Evaluation::run_first_s, run_repeat_s), so a
// confirmation is priced at each route's own runs; 0 (an older row) reads as not measured.
const char* kVersion4 = R"sql(
ALTER TABLE evaluation ADD COLUMN run_first_s DOUBLE PRECISION NOT NULL DEFAULT 0,
    ADD COLUMN run_repeat_s DOUBLE PRECISION NOT NULL DEFAULT 0;
)sql";

const std::vector<std::pair<int, const char*>>& migrations() {
    static const std::vector<std::pair<int, const char*>> list = {
        {1, kVersion1}, {2, kVersion2}, {3, kVersion3}, {4, kVersion4}};
    return list;
}

int read_version(PgConnection& db) {
    PgResult meta = db.exec("SELECT to_regclass('routetune_meta') IS NOT NULL, to_regclass('study') IS NOT NULL");
    if (meta.text(0, 0) != "t") {
        if (meta.text(0, 1) == "t")
            throw UsageError(db.where() + ": not a routetune study store (a database with another application's tables)");
        return 0;
    }
    PgResult row = db.exec("SELECT value FROM routetune_meta WHERE key = 'schema_version'");
    return row.rows() ? std::stoi(row.text(0, 0)) : 0;
}

void check_version(const PgConnection& db, int version, bool read_only) {
    int current = current_pg_schema_version();
    if (version > current)
        throw UsageError(db.where() + ": study store schema version " + std::to_string(version) +
                         " is newer than this routetune understands (" + std::to_string(current) +
                         "); use a newer routetune");
    if (read_only && version < current)
        throw UsageError(db.where() + ": study store schema version " + std::to_string(version) + " is older than " +
                         std::to_string(current) + "; open it once for writing (tune or worker) to upgrade it");
}

}  // namespace

int current_pg_schema_version() { return migrations().back().first; }

int prepare_pg_schema(PgConnection& db, bool read_only) {
    int version = read_version(db);
    check_version(db, version, read_only);
    if (version == current_pg_schema_version()) return version;
    db.exec(std::string("SELECT pg_advisory_lock(") + kLockKey + ")");
    try {
        int opened = read_version(db);
        check_version(db, opened, false);
        db.exec("CREATE TABLE IF NOT EXISTS routetune_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
        for (const auto& [target, sql] : migrations()) {
            if (target <= opened) continue;
            PgTransaction transaction(db);
            db.exec_script(sql);
            db.exec("INSERT INTO routetune_meta (key, value) VALUES ('schema_version', $1) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    {std::to_string(target)});
            transaction.commit();
        }
        db.exec(std::string("SELECT pg_advisory_unlock(") + kLockKey + ")");
        return opened;
    } catch (...) {
        try {
            db.exec(std::string("SELECT pg_advisory_unlock(") + kLockKey + ")");
        } catch (...) {
        }
        throw;
    }
}

}  // namespace routetune
