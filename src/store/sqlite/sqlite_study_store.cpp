// Opening a study store and its single-row tables (header, confirmation, outcome). A store
// runs in WAL mode so `report` can read while a study writes, with synchronous=FULL so that a
// committed transaction is on disk when COMMIT returns (it survives kill -9 and also power
// loss; evaluations take seconds, so one fsync each costs nothing that matters). A busy
// timeout lets a reader and the writer wait for each other instead of failing. One process
// writes a study at a time: a writer takes the flock on "<store>.lock" (writer_lock.cpp) before
// it looks at the store, then checks that the file is routetune's (store_file.cpp), moves an
// earlier study aside when asked to start afresh, creates a new store in one piece where none
// is (store_file.cpp), and only then lets SQLite open it. Readers take no lock; they open with mode=ro (immutable on a read-only medium).
// A writer holds "<store>.reserve" (util/space_reserve.hpp) while it is open: deleted before a
// write when the disk has less than it free, so the evaluation that filled the disk is still
// recorded.
#include "store/sqlite/sqlite_study_store.hpp"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <system_error>

#include "routetune/error.hpp"
#include "store/record_redaction.hpp"
#include "store/sqlite/store_file.hpp"
#include "store/sqlite/store_schema.hpp"
#include "util/files.hpp"
#include "store/sqlite/study_store_impl.hpp"

namespace routetune {

namespace {

constexpr int kBusyTimeoutMs = 30000;
// Room kept beside a writer's store for its own records when a measured program fills the disk
// (a few hundred evaluations' rows; the write-ahead log is checkpointed at about 4 MiB).
constexpr std::uint64_t kReserveBytes = 8u << 20;

// A reader on a medium where "-shm" cannot be created (a read-only mount, or a blocked name)
// opens the file immutable, which SQLite allows only for a file nobody writes: so only when
// no write-ahead log with content is beside it (a finished study's log is checkpointed away).
bool needs_immutable(const std::filesystem::path& path) {
    std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    struct stat info {};
    std::string shm = path.string() + "-shm";
    bool shm_exists = lstat(shm.c_str(), &info) == 0;
    bool shm_blocked = shm_exists && !S_ISREG(info.st_mode);
    bool cannot_create = !shm_exists && access(folder.c_str(), W_OK) != 0;
    std::string wal = path.string() + "-wal";
    bool wal_empty = lstat(wal.c_str(), &info) != 0 || info.st_size == 0;
    return (shm_blocked || cannot_create) && wal_empty;
}

std::unique_ptr<SqliteStudyStore::Impl> open_reader(const std::filesystem::path& path) {
    std::error_code error;
    std::filesystem::path real = std::filesystem::canonical(path, error);
    if (error) real = path;
    StoreFile kind = check_store_file(real);
    if (kind == StoreFile::Absent) throw UsageError(path.string() + ": no study store here");
    if (kind == StoreFile::Empty) throw UsageError(path.string() + ": is an empty file, not a study store");
    auto impl = std::make_unique<SqliteStudyStore::Impl>(path, WriterLock{}, true, false, needs_immutable(real));
    sqlite3_busy_timeout(impl->db.handle(), kBusyTimeoutMs);
    impl->opened_version = prepare_store_schema(impl->db, true);
    impl->has_same_as = has_column(impl->db, "evaluation", "same_as");
    impl->paired_columns = has_column(impl->db, "evaluation", "paired_samples");
    impl->run_cost_columns = has_column(impl->db, "evaluation", "run_first_s");
    impl->db.exec("PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -65536");
    return impl;
}

// The lock comes first: nothing reads, creates or moves the store before this process is its
// one writer.
std::unique_ptr<SqliteStudyStore::Impl> open_writer(const std::filesystem::path& path, bool fresh,
                                                    const std::vector<std::filesystem::path>& companions) {
    std::error_code error;
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), error);
        if (error) throw RuntimeFailure(path.parent_path().string() + ": cannot create the folder: " + error.message());
    }
    if (std::filesystem::is_directory(path, error)) throw UsageError(path.string() + ": is a folder, not a study store");
    WriterLock lock = WriterLock::acquire(path);
    StoreFile kind = check_store_file(path);
    std::string moved = fresh ? move_store_aside(path, kind == StoreFile::Routetune, companions) : "";
    bool created = check_store_file(path) == StoreFile::Absent && create_store_file(path);
    auto impl = std::make_unique<SqliteStudyStore::Impl>(path, std::move(lock), false, true, false);
    impl->moved_aside_to = moved;
    impl->reserve = std::make_unique<SpaceReserve>(path.string() + ".reserve", kReserveBytes);
    impl->db.keep_reserve(impl->reserve.get());
    sqlite3_busy_timeout(impl->db.handle(), kBusyTimeoutMs);
    impl->opened_version = prepare_store_schema(impl->db, false);
    if (created) impl->opened_version = 0;
    impl->db.exec("PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -65536");
    impl->db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL");
    return impl;
}

}  // namespace

SqliteStudyStore::SqliteStudyStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SqliteStudyStore::~SqliteStudyStore() = default;

std::unique_ptr<SqliteStudyStore> SqliteStudyStore::open(const std::filesystem::path& path, bool read_only) {
    return std::unique_ptr<SqliteStudyStore>(new SqliteStudyStore(read_only ? open_reader(path) : open_writer(path, false, {})));
}

std::unique_ptr<SqliteStudyStore> SqliteStudyStore::open_fresh(const std::filesystem::path& path,
                                                               const std::vector<std::filesystem::path>& companions) {
    return std::unique_ptr<SqliteStudyStore>(new SqliteStudyStore(open_writer(path, true, companions)));
}

std::string SqliteStudyStore::location() const { return impl_->path.string(); }

std::string SqliteStudyStore::moved_aside_to() const { return impl_->moved_aside_to; }

int SqliteStudyStore::opened_schema_version() const { return impl_->opened_version; }

// Notes live in the meta table beside schema_version, under "note:<key>", so they need no
// schema change and older stores simply have none. A note is not fsync'ed (it only repeats what
// tune printed; kill -9 keeps it, a power loss may lose it like a missing note of an older
// store): the next durable commit, or the checkpoint when the store closes, syncs it.
void SqliteStudyStore::write_note(const std::string& key, const std::string& value) {
    std::lock_guard lock(impl_->mutex);
    WeakSync weak(impl_->db);
    auto statement = impl_->db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    statement.bind(1, "note:" + key).bind(2, value);
    statement.run();
}

std::optional<std::string> SqliteStudyStore::read_note(const std::string& key) const {
    std::lock_guard lock(impl_->mutex);
    auto statement = impl_->db.prepare("SELECT value FROM meta WHERE key = ?");
    statement.bind(1, "note:" + key);
    if (!statement.step()) return std::nullopt;
    return statement.text(0);
}

void SqliteStudyStore::write_header(const StudyHeader& unfiltered) {
    const StudyHeader header = redacted_record(unfiltered);
    std::lock_guard lock(impl_->mutex);
    auto statement = impl_->db.prepare(
        "INSERT OR REPLACE INTO study (id, name, spec_sha256, spec_path, expression, mode, seed, fingerprint, "
        "tool_version, command_line, user, host, created_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    statement.bind(1, header.name).bind(2, header.spec_sha256).bind(3, header.spec_path);
    statement.bind(4, header.expression).bind(5, header.mode).bind(6, static_cast<std::int64_t>(header.seed));
    statement.bind(7, header.fingerprint_json).bind(8, header.tool_version).bind(9, header.command_line);
    statement.bind(10, header.user).bind(11, header.host).bind(12, header.created_at);
    statement.run();
}

std::optional<StudyHeader> SqliteStudyStore::read_header() const {
    std::lock_guard lock(impl_->mutex);
    auto statement = impl_->db.prepare(
        "SELECT name, spec_sha256, spec_path, expression, mode, seed, fingerprint, tool_version, command_line, "
        "user, host, created_at FROM study WHERE id = 1");
    if (!statement.step()) return std::nullopt;
    StudyHeader header;
    header.name = statement.text(0);
    header.spec_sha256 = statement.text(1);
    header.spec_path = statement.text(2);
    header.expression = statement.text(3);
    header.mode = statement.text(4);
    header.seed = static_cast<std::uint64_t>(statement.integer(5));
    header.fingerprint_json = statement.text(6);
    header.tool_version = statement.text(7);
    header.command_line = statement.text(8);
    header.user = statement.text(9);
    header.host = statement.text(10);
    header.created_at = statement.text(11);
    return header;
}

void SqliteStudyStore::record_confirmation(const StudyConfirmation& confirmation) {
    std::lock_guard lock(impl_->mutex);
    StoreTransaction transaction(impl_->db);
    impl_->db.exec("DELETE FROM confirmation_route; DELETE FROM confirmation");
    auto head = impl_->db.prepare("INSERT INTO confirmation (id, rounds, recorded_at) VALUES (1, ?, ?)");
    head.bind(1, static_cast<std::int64_t>(confirmation.rounds));
    head.bind(2, confirmation.recorded_at.empty() ? iso8601_utc_now() : confirmation.recorded_at);
    head.run();
    auto row = impl_->db.prepare(
        "INSERT INTO confirmation_route (position, route, route_hash, is_default, samples, median_s, ci_low_s, "
        "ci_high_s, speedup, speedup_ci_low, speedup_ci_high) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    std::int64_t position = 0;
    auto insert = [&](const Confirmation& entry, bool is_default) {
        row.bind(1, position++).bind(2, entry.route.to_string()).bind(3, entry.route.hash());
        row.bind(4, static_cast<std::int64_t>(is_default)).bind(5, encode_samples(entry.timing.samples_s));
        row.bind(6, entry.timing.median_s).bind(7, entry.timing.ci_low_s).bind(8, entry.timing.ci_high_s);
        row.bind(9, entry.speedup).bind(10, entry.ci_low).bind(11, entry.ci_high);
        row.run();
        row.reset();
    };
    if (confirmation.baseline) insert(*confirmation.baseline, true);
    for (const auto& entry : confirmation.candidates) insert(entry, false);
    transaction.commit();
}

std::optional<StudyConfirmation> SqliteStudyStore::read_confirmation() const {
    std::lock_guard lock(impl_->mutex);
    auto head = impl_->db.prepare("SELECT rounds, recorded_at FROM confirmation WHERE id = 1");
    if (!head.step()) return std::nullopt;
    StudyConfirmation confirmation;
    confirmation.rounds = static_cast<int>(head.integer(0));
    confirmation.recorded_at = head.text(1);
    auto row = impl_->db.prepare(
        "SELECT route, is_default, samples, median_s, ci_low_s, ci_high_s, speedup, speedup_ci_low, "
        "speedup_ci_high FROM confirmation_route ORDER BY position");
    while (row.step()) {
        Confirmation entry;
        entry.route = parse_stored_route(impl_->path, row.text(0));
        entry.timing = read_timing(row, 2);
        entry.speedup = row.real(6);
        entry.ci_low = row.real(7);
        entry.ci_high = row.real(8);
        if (row.integer(1) != 0) confirmation.baseline = std::move(entry);
        else confirmation.candidates.push_back(std::move(entry));
    }
    for (auto& entry : confirmation.candidates) {
        entry.default_timing = confirmation.baseline ? confirmation.baseline->timing : TimingSummary{};
    }
    if (confirmation.baseline) confirmation.baseline->default_timing = confirmation.baseline->timing;
    return confirmation;
}

void SqliteStudyStore::record_outcome(const StudyOutcome& unfiltered) {
    const StudyOutcome outcome = redacted_record(unfiltered);
    std::lock_guard lock(impl_->mutex);
    auto statement = impl_->db.prepare(
        "INSERT OR REPLACE INTO outcome (id, outcome, winner_route, speedup, speedup_ci_low, speedup_ci_high, "
        "artifact_path, artifact_sha256, message, recorded_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    statement.bind(1, std::string(to_string(outcome.outcome)));
    if (outcome.winner) statement.bind(2, outcome.winner->to_string());
    else statement.bind_null(2);
    statement.bind(3, outcome.speedup).bind(4, outcome.speedup_ci_low).bind(5, outcome.speedup_ci_high);
    statement.bind(6, outcome.artifact_path).bind(7, outcome.artifact_sha256).bind(8, outcome.message);
    statement.bind(9, outcome.recorded_at.empty() ? iso8601_utc_now() : outcome.recorded_at);
    statement.run();
    if (!outcome.minimal_route) return;
    auto minimal = impl_->db.prepare(
        "UPDATE outcome SET minimal_route = ?, minimal_speedup = ?, minimal_ci_low = ?, minimal_ci_high = ? WHERE id = 1");
    minimal.bind(1, outcome.minimal_route->to_string()).bind(2, outcome.minimal_speedup);
    minimal.bind(3, outcome.minimal_ci_low).bind(4, outcome.minimal_ci_high);
    minimal.run();
}

std::optional<StudyOutcome> SqliteStudyStore::read_outcome() const {
    std::lock_guard lock(impl_->mutex);
    auto statement = impl_->db.prepare(
        "SELECT outcome, winner_route, speedup, speedup_ci_low, speedup_ci_high, artifact_path, artifact_sha256, "
        "message, recorded_at FROM outcome WHERE id = 1");
    if (!statement.step()) return std::nullopt;
    StudyOutcome outcome;
    outcome.outcome = outcome_from_string(statement.text(0)).value_or(Outcome::Unfinished);
    if (!statement.is_null(1)) outcome.winner = parse_stored_route(impl_->path, statement.text(1));
    outcome.speedup = statement.real(2);
    outcome.speedup_ci_low = statement.real(3);
    outcome.speedup_ci_high = statement.real(4);
    outcome.artifact_path = statement.text(5);
    outcome.artifact_sha256 = statement.text(6);
    outcome.message = statement.text(7);
    outcome.recorded_at = statement.text(8);
    if (impl_->db.prepare("SELECT 1 FROM pragma_table_info('outcome') WHERE name = 'minimal_route'").step()) {
        auto minimal = impl_->db.prepare(
            "SELECT minimal_route, minimal_speedup, minimal_ci_low, minimal_ci_high FROM outcome WHERE id = 1");
        if (minimal.step() && !minimal.is_null(0)) {
            outcome.minimal_route = parse_stored_route(impl_->path, minimal.text(0));
            outcome.minimal_speedup = minimal.real(1);
            outcome.minimal_ci_low = minimal.real(2);
            outcome.minimal_ci_high = minimal.real(3);
        }
    }
    return outcome;
}

}  // namespace routetune
