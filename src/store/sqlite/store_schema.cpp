// Schema versioning. The `meta` table holds schema_version; migrations are a list of
// (version, SQL) pairs, each applied in its own transaction together with the new version
// number, so a store is always at one exact version. A store written by a newer routetune is
// refused rather than misread; an older one is upgraded when opened for writing and read as
// it is when opened read-only (later versions only add columns, which readers check for). An empty file becomes a new store; a database of another
// application (application_id, or tables but no meta) is refused.
#include "store/sqlite/store_schema.hpp"

#include <sqlite3.h>

#include <charconv>

#include "routetune/error.hpp"
#include "util/excerpt.hpp"

namespace routetune {

namespace {

const char* kVersion1 = R"sql(
CREATE TABLE study (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    spec_sha256 TEXT NOT NULL,
    spec_path TEXT NOT NULL,
    expression TEXT NOT NULL,
    mode TEXT NOT NULL,
    seed INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    tool_version TEXT NOT NULL,
    command_line TEXT NOT NULL,
    user TEXT NOT NULL,
    host TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE evaluation (
    id INTEGER PRIMARY KEY,
    route TEXT NOT NULL,
    route_hash TEXT NOT NULL,
    phase TEXT NOT NULL,
    status TEXT NOT NULL,
    message TEXT NOT NULL,
    build_s REAL,
    build_log_tail TEXT NOT NULL,
    artifact_sha256 TEXT NOT NULL,
    artifact_bytes INTEGER NOT NULL,
    artifact_path TEXT NOT NULL,
    samples TEXT NOT NULL,
    median_s REAL,
    ci_low_s REAL,
    ci_high_s REAL,
    started_at TEXT NOT NULL,
    finished_at TEXT NOT NULL
);
CREATE INDEX evaluation_by_route ON evaluation (route_hash);
CREATE TABLE case_result (
    evaluation_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    exit_code INTEGER NOT NULL,
    signal INTEGER NOT NULL,
    loss REAL,
    stderr_tail TEXT NOT NULL,
    samples TEXT NOT NULL,
    median_s REAL,
    ci_low_s REAL,
    ci_high_s REAL,
    PRIMARY KEY (evaluation_id, position)
) WITHOUT ROWID;
CREATE TABLE confirmation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    rounds INTEGER NOT NULL,
    recorded_at TEXT NOT NULL
);
CREATE TABLE confirmation_route (
    position INTEGER PRIMARY KEY,
    route TEXT NOT NULL,
    route_hash TEXT NOT NULL,
    is_default INTEGER NOT NULL,
    samples TEXT NOT NULL,
    median_s REAL,
    ci_low_s REAL,
    ci_high_s REAL,
    speedup REAL,
    speedup_ci_low REAL,
    speedup_ci_high REAL
);
CREATE TABLE outcome (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    outcome TEXT NOT NULL,
    winner_route TEXT,
    speedup REAL,
    speedup_ci_low REAL,
    speedup_ci_high REAL,
    artifact_path TEXT NOT NULL,
    artifact_sha256 TEXT NOT NULL,
    message TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);
)sql";

// Version 2: the minimal route beside the winner (study/route_minimizer).
constexpr const char* kVersion2 = R"sql(
ALTER TABLE outcome ADD COLUMN minimal_route TEXT;
ALTER TABLE outcome ADD COLUMN minimal_speedup REAL;
ALTER TABLE outcome ADD COLUMN minimal_ci_low REAL;
ALTER TABLE outcome ADD COLUMN minimal_ci_high REAL;
)sql";

// Version 3: a pending row names its writer (this_process_tag) and the process group of the
// process it runs now, with that group leader's start time, so --continue can end what a
// killed writer left running without ever signalling a recycled pid.
constexpr const char* kVersion3 = R"sql(
ALTER TABLE evaluation ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE evaluation ADD COLUMN pgid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE evaluation ADD COLUMN pgid_ticks INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 4: an evaluation answered by a byte-identical artifact measured before it (the same run
// environment too) names that route; it was not run (study/same_artifact).
constexpr const char* kVersion4 = R"sql(
ALTER TABLE evaluation ADD COLUMN same_as TEXT NOT NULL DEFAULT '';
)sql";

// Version 5: the rounds of a candidate paired with the default's (Evaluation::paired), each
// list encoded like samples; '' (an older row, or [timing] paired = false) reads as unpaired.
constexpr const char* kVersion5 = R"sql(
ALTER TABLE evaluation ADD COLUMN paired_default_samples TEXT NOT NULL DEFAULT '';
ALTER TABLE evaluation ADD COLUMN paired_samples TEXT NOT NULL DEFAULT '';
)sql";

// Version 6: what one run of a measured build cost (Evaluation::run_first_s, run_repeat_s), so a
// confirmation is priced at each route's own runs; 0 (an older row) reads as not measured.
constexpr const char* kVersion6 = R"sql(
ALTER TABLE evaluation ADD COLUMN run_first_s REAL NOT NULL DEFAULT 0;
ALTER TABLE evaluation ADD COLUMN run_repeat_s REAL NOT NULL DEFAULT 0;
)sql";

std::int64_t pragma_integer(SqliteDb& db, const char* pragma) {
    auto statement = db.prepare(std::string("PRAGMA ") + pragma);
    return statement.step() ? statement.integer(0) : 0;
}

bool has_table(SqliteDb& db, const char* name) {
    auto statement = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
    statement.bind(1, std::string_view(name));
    return statement.step();
}

std::int64_t table_count(SqliteDb& db) {
    auto statement = db.prepare("SELECT count(*) FROM sqlite_master");
    return statement.step() ? statement.integer(0) : 0;
}

int read_version(SqliteDb& db) {
    auto statement = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
    if (!statement.step()) return 0;
    std::string text = statement.text(0);
    int version = 0;
    auto result = std::from_chars(text.data(), text.data() + text.size(), version);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size() || version < 1) {
        throw UsageError(db.path().string() + ": damaged study store: its schema version is " + quoted_excerpt(text) +
                         ", not a positive integer");
    }
    return version;
}

void set_version(SqliteDb& db, int version) {
    auto update = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)");
    update.bind(1, std::string_view(std::to_string(version)));
    update.run();
}

const char* meta_sql() {
    static const std::string sql = "PRAGMA application_id = " + std::to_string(kStoreApplicationId) +
                                   "; CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID";
    return sql.c_str();
}

// A new, empty store: its id, meta and every migration in one transaction, so creating it
// costs one commit rather than one per schema version.
void create_fresh_schema(SqliteDb& db, const std::vector<StoreMigration>& migrations) {
    db.exec("BEGIN IMMEDIATE");
    try {
        db.exec(meta_sql());
        for (const auto& migration : migrations) db.exec(migration.sql);
        set_version(db, migrations.back().version);
        db.exec("COMMIT");
    } catch (...) {
        db.exec("ROLLBACK");
        throw;
    }
}

}  // namespace

const std::vector<StoreMigration>& store_migrations() {
    static const std::vector<StoreMigration> migrations = {{1, kVersion1}, {2, kVersion2}, {3, kVersion3}, {4, kVersion4},
                                                                   {5, kVersion5}, {6, kVersion6}};
    return migrations;
}

int current_store_schema_version() { return store_migrations().back().version; }

bool has_column(SqliteDb& db, const char* table, const char* column) {
    auto statement = db.prepare(std::string("SELECT 1 FROM pragma_table_info('") + table + "') WHERE name = ?");
    statement.bind(1, std::string_view(column));
    return statement.step();
}

int prepare_store_schema(SqliteDb& db, bool read_only) {
    const std::string file = db.path().string();
    std::int64_t application_id = pragma_integer(db, "application_id");
    bool has_meta = has_table(db, "meta");
    bool empty = table_count(db) == 0;
    if (application_id != 0 && application_id != kStoreApplicationId)
        throw UsageError(file + ": not a routetune study store (it belongs to another application)");
    if (!has_meta && !empty)
        throw UsageError(file + ": not a routetune study store (an SQLite database without routetune's tables)");
    int version = has_meta ? read_version(db) : 0;
    int current = current_store_schema_version();
    if (version > current)
        throw UsageError(file + ": study store schema version " + std::to_string(version) +
                         " is newer than this routetune understands (" + std::to_string(current) +
                         "); use a newer routetune");
    if (version == current) return version;
    if (read_only && version >= 1) return version;  // later versions only add columns; readers check
    if (read_only)
        throw UsageError(file + ": study store schema version " + std::to_string(version) +
                         " is older than " + std::to_string(current) + "; open it once for writing to upgrade it");
    if (!has_meta) {  // empty (checked above): created in one commit
        create_fresh_schema(db, store_migrations());
        return version;
    }
    for (const auto& migration : store_migrations()) {
        if (migration.version <= version) continue;
        db.exec("BEGIN IMMEDIATE");
        try {
            if (read_version(db) >= migration.version) {
                db.exec("ROLLBACK");
                continue;
            }
            db.exec(migration.sql);
            set_version(db, migration.version);
            db.exec("COMMIT");
        } catch (...) {
            db.exec("ROLLBACK");
            throw;
        }
    }
    return version;
}

}  // namespace routetune
