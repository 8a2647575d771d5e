// The study store's contract (store/study_store.hpp), one suite run against every backend:
// SQLite (a file in a scratch folder) and PostgreSQL (a fresh database in the throwaway cluster
// of ctest's PostgreSQL fixture). A behaviour in which the backends differ fails one of the two
// instantiations. What only one backend has (SQLite's file handling and its schema history,
// PostgreSQL's many studies per database and its schema history) stays in that backend's suite.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <functional>
#include <thread>
#include <utility>

#include "pg/pg_test_database.hpp"
#include "routetune/error.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/pg_schema.hpp"
#include "store/sqlite/store_schema.hpp"
#include "store/study_store.hpp"
#include "unit/store_samples.hpp"
#include "util/process_tree.hpp"

namespace routetune {
namespace {

using namespace routetune::testing;
namespace fs = std::filesystem;

/// What the suite needs of a backend besides the interface: a new empty location, raw SQL on
/// it (to age or damage a store as another program would), and its schema's names.
struct Backend {
    std::string name;
    /// A location where no store is yet ("" text: the backend is unavailable here).
    std::function<StoreLocation(const fs::path& scratch)> fresh;
    /// Runs sql on the store at location, outside routetune.
    std::function<void(const StoreLocation& location, const std::string& sql)> exec;
    std::string meta_table;  ///< the table holding schema_version
    std::function<int()> current_version;
    bool keeps_process_ledger;  ///< what StudyStore::process_ledger() says of this backend
};

void sqlite_exec(const StoreLocation& location, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(location.text.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
}

Backend sqlite_backend() {
    return Backend{"Sqlite",
                   [](const fs::path& scratch) { return StoreLocation(scratch / "nested" / "study.sqlite"); },
                   sqlite_exec, "meta", current_store_schema_version, true};
}

Backend postgres_backend() {
    return Backend{"Postgres",
                   [](const fs::path&) {
                       std::string url = fresh_pg_database();
                       return url.empty() ? StoreLocation() : StoreLocation(url, "matmul");
                   },
                   [](const StoreLocation& location, const std::string& sql) {
                       PgConnection(location.text).exec_script(sql);
                   },
                   "routetune_meta", current_pg_schema_version, false};
}

/// The backend's name in messages (gtest prints a parameter this way).
void PrintTo(const Backend& backend, std::ostream* out) { *out << backend.name; }

class StudyStoreConformance : public ::testing::TestWithParam<Backend> {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "routetune-conformance-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        scratch_ = pattern;
        where_ = GetParam().fresh(scratch_);
        if (where_.text.empty())
            GTEST_SKIP() << "no PostgreSQL test server: run through ctest (its fixture starts one) or set "
                            "ROUTETUNE_TEST_PG_URL";
    }
    void TearDown() override { fs::remove_all(scratch_); }

    /// The store opened for writing, with the sample header written (a study always has one
    /// before its first evaluation).
    std::unique_ptr<StudyStore> open_study() {
        std::unique_ptr<StudyStore> store = StudyStore::open(where_);
        store->write_header(sample_header());
        return store;
    }
    /// Raw SQL on the store (see Backend::exec).
    void exec(const std::string& sql) { GetParam().exec(where_, sql); }

    fs::path scratch_;
    StoreLocation where_;
};

TEST_P(StudyStoreConformance, EveryFieldRoundTripsAndSurvivesReopen) {
    Evaluation evaluation = sample_evaluation("-O=3 -funroll-loops=on");
    {
        std::unique_ptr<StudyStore> store = StudyStore::open(where_);
        EXPECT_EQ(store->opened_schema_version(), 0) << "a new store";
        EXPECT_FALSE(store->read_header().has_value());
        store->write_header(sample_header());
        EXPECT_EQ(store->read_header(), sample_header());
        evaluation.id = store->record(evaluation);
        EXPECT_GT(evaluation.id, 0);
        std::vector<Evaluation> all = store->evaluations();
        ASSERT_EQ(all.size(), 1u);
        EXPECT_EQ(all[0].id, evaluation.id);
        expect_same(evaluation, all[0]);
    }
    for (bool read_only : {false, true}) {
        std::unique_ptr<StudyStore> store = read_only ? StudyStore::open_read_only(where_) : StudyStore::open(where_);
        EXPECT_EQ(store->opened_schema_version(), GetParam().current_version());
        EXPECT_EQ(store->read_header(), sample_header());
        std::optional<Evaluation> found = store->find(evaluation.route.hash());
        ASSERT_TRUE(found.has_value());
        EXPECT_EQ(found->id, evaluation.id);
        expect_same(evaluation, *found);
        EXPECT_FALSE(store->find(Route::parse("-O=2").hash()).has_value());
        EXPECT_EQ(store->count(), 1u);
    }
}

TEST_P(StudyStoreConformance, TheDefaultRouteAndSkippedCaseRows) {
    std::unique_ptr<StudyStore> store = open_study();
    Evaluation evaluation = sample_evaluation("");
    store->record(evaluation);
    std::vector<Evaluation> all = store->evaluations(CaseRows::Skip);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_TRUE(all[0].route.empty());
    EXPECT_TRUE(all[0].cases.empty());
    store->load_cases(all[0]);
    expect_same(evaluation, all[0]);
    ASSERT_TRUE(store->find(Route().hash()).has_value());
}

TEST_P(StudyStoreConformance, PendingRowsAreReplacedAndFinishOrderKept) {
    std::unique_ptr<StudyStore> store = open_study();
    std::int64_t one = store->record(sample_evaluation("-O=1"));
    std::int64_t two = store->mark_pending(Route::parse("-O=2"), "fast", "2026-11-29T23:10:00Z");
    std::int64_t three = store->mark_pending(Route::parse("-O=3"), "fast", "2026-11-29T23:10:00Z");
    EXPECT_GT(two, one);
    EXPECT_GT(three, two);
    // Ids follow finish order among finished rows (SQLite may give the replaced pending row's
    // id again, PostgreSQL never does: neither is promised).
    std::int64_t finished = store->record(sample_evaluation("-O=3", Status::BuildFailed));
    EXPECT_GT(finished, two);
    EXPECT_EQ(store->count(), 3u);
    EXPECT_FALSE(store->find(Route::parse("-O=2").hash()).has_value()) << "a pending row is not a result";
    std::vector<Evaluation> all = store->evaluations();
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].route.to_string(), "-O=1");
    EXPECT_EQ(all[1].route.to_string(), "-O=3");
    EXPECT_EQ(all[1].status, Status::BuildFailed);
    EXPECT_EQ(all[2].route.to_string(), "-O=2");
    EXPECT_EQ(all[2].status, Status::Pending);
    EXPECT_EQ(all[2].phase, "fast");
    EXPECT_EQ(all[2].started_at, "2026-11-29T23:10:00Z");
    EXPECT_TRUE(all[2].cases.empty());
}

TEST_P(StudyStoreConformance, RecordManyStoresInOrderInOneGo) {
    std::unique_ptr<StudyStore> store = open_study();
    store->mark_pending(Route::parse("-O=2"), "fast", "2026-11-29T23:10:00Z");
    std::vector<std::int64_t> ids = store->record_many({sample_evaluation("-O=1"), sample_evaluation("-O=2")});
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_LT(ids[0], ids[1]);
    std::vector<Evaluation> all = store->evaluations();
    ASSERT_EQ(all.size(), 2u) << "the pending row of -O=2 is replaced";
    EXPECT_EQ(all[0].id, ids[0]);
    EXPECT_EQ(all[1].id, ids[1]);
    EXPECT_EQ(all[1].route.to_string(), "-O=2");
    EXPECT_EQ(all[1].status, Status::Ok);
    EXPECT_EQ(all[1].cases.size(), 2u);
    EXPECT_TRUE(store->record_many({}).empty());
}

TEST_P(StudyStoreConformance, ArtifactPathsAreUpdatedAndCleared) {
    std::unique_ptr<StudyStore> store = open_study();
    std::int64_t one = store->record(sample_evaluation("-O=1"));
    std::int64_t two = store->record(sample_evaluation("-O=2"));
    std::int64_t three = store->record(sample_evaluation("-O=3"));
    store->update_artifact_path(one, "/cache/artifacts/moved");
    EXPECT_EQ(store->find(Route::parse("-O=1").hash())->artifact_path, "/cache/artifacts/moved");
    store->clear_artifact_paths({two, three});
    std::vector<Evaluation> all = store->evaluations(CaseRows::Skip);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].artifact_path, "/cache/artifacts/moved");
    EXPECT_EQ(all[1].artifact_path, "");
    EXPECT_EQ(all[2].artifact_path, "");
    EXPECT_EQ(all[2].artifact_sha256, std::string(64, 'f')) << "the hash stays";
}

TEST_P(StudyStoreConformance, ClearingLogTailsKeepsEverythingElse) {
    std::unique_ptr<StudyStore> store = open_study();
    Evaluation evaluation = sample_evaluation("-O=3");
    std::int64_t id = store->record(evaluation);
    store->record(sample_evaluation("-O=2"));
    store->clear_log_tails(id);
    Evaluation cleared = evaluation;
    cleared.build_log_tail.clear();
    for (CaseResult& c : cleared.cases) c.stderr_tail.clear();
    expect_same(cleared, *store->find(evaluation.route.hash()));
    expect_same(sample_evaluation("-O=2"), *store->find(Route::parse("-O=2").hash()));  // other rows keep theirs
}

TEST_P(StudyStoreConformance, WhatIsStoredHasPassedTheRedactionFilter) {
    const std::string secret = "ghp_0123456789abcdefghijklmnopqrstuv";
    std::unique_ptr<StudyStore> store = StudyStore::open(where_);
    StudyHeader header = sample_header();
    header.command_line = "routetune tune spec.toml --store postgresql://ann:s3cretpw@db/x";
    store->write_header(header);
    Evaluation leaky = sample_evaluation("-O=3");
    leaky.message = "error: GITHUB_TOKEN=" + secret;
    leaky.build_log_tail = "curl -u admin:adminpw https://x\n";
    store->record(leaky);
    Evaluation stored = *store->find(leaky.route.hash());
    EXPECT_EQ(stored.message, "error: GITHUB_TOKEN=[REDACTED]");
    EXPECT_EQ(stored.build_log_tail, "curl -u admin:[REDACTED] https://x\n");
    EXPECT_EQ(store->read_header()->command_line.find("s3cretpw"), std::string::npos);
}

TEST_P(StudyStoreConformance, ConfirmationAndOutcomeRoundTripAndAreReplaced) {
    std::unique_ptr<StudyStore> store = open_study();
    EXPECT_FALSE(store->read_confirmation().has_value());
    EXPECT_FALSE(store->read_outcome().has_value());
    StudyConfirmation confirmation;
    confirmation.rounds = 5;
    confirmation.recorded_at = "2026-11-29T23:20:00Z";
    TimingSummary default_timing{{1.0, 1.1}, 1.05, 1.0, 1.1};
    confirmation.baseline = Confirmation{Route(), default_timing, default_timing, 1, 1, 1};
    confirmation.candidates.push_back({Route::parse("-O=3"), default_timing, {{0.5, 0.6}, 0.55, 0.5, 0.6}, 1.9, 1.7, 2.1});
    store->record_confirmation(confirmation);
    confirmation.candidates.pop_back();
    confirmation.candidates.push_back({Route::parse("-O=2"), default_timing, {{0.7}, 0.7, 0.7, 0.7}, 1.5, 1.4, 1.6});
    confirmation.candidates.push_back({Route::parse("-O=1"), default_timing, {{0.9}, 0.9, 0.9, 0.9}, 1.1, 1.0, 1.2});
    store->record_confirmation(confirmation);
    std::optional<StudyConfirmation> read = store->read_confirmation();
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(read->rounds, 5);
    EXPECT_EQ(read->recorded_at, "2026-11-29T23:20:00Z");
    ASSERT_TRUE(read->baseline.has_value());
    EXPECT_TRUE(read->baseline->route.empty());
    expect_same_timing(default_timing, read->baseline->timing);
    ASSERT_EQ(read->candidates.size(), 2u);
    EXPECT_EQ(read->candidates[0].route.to_string(), "-O=2");
    EXPECT_EQ(read->candidates[1].route.to_string(), "-O=1") << "candidates keep the order measured";
    expect_same_timing(confirmation.candidates[0].timing, read->candidates[0].timing);
    expect_same_timing(default_timing, read->candidates[0].default_timing);
    EXPECT_EQ(read->candidates[0].speedup, 1.5);
    EXPECT_EQ(read->candidates[0].ci_low, 1.4);
    EXPECT_EQ(read->candidates[0].ci_high, 1.6);

    StudyOutcome outcome;
    outcome.outcome = Outcome::Improved;
    outcome.winner = Route::parse("-O=2");
    outcome.speedup = 1.5;
    outcome.speedup_ci_low = 1.4;
    outcome.speedup_ci_high = 1.6;
    outcome.artifact_path = "/out/mm";
    outcome.artifact_sha256 = std::string(64, 'b');
    outcome.message = "confirmed";
    outcome.recorded_at = "2026-11-29T23:21:00Z";
    outcome.minimal_route = Route::parse("-O=2 -fx=on");
    outcome.minimal_speedup = 1.45;
    outcome.minimal_ci_low = 1.35;
    outcome.minimal_ci_high = 1.55;
    store->record_outcome(outcome);
    std::optional<StudyOutcome> stored = store->read_outcome();
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->outcome, Outcome::Improved);
    EXPECT_EQ(stored->winner, outcome.winner);
    EXPECT_EQ(stored->speedup, 1.5);
    EXPECT_EQ(stored->speedup_ci_low, 1.4);
    EXPECT_EQ(stored->speedup_ci_high, 1.6);
    EXPECT_EQ(stored->artifact_path, "/out/mm");
    EXPECT_EQ(stored->artifact_sha256, outcome.artifact_sha256);
    EXPECT_EQ(stored->message, "confirmed");
    EXPECT_EQ(stored->recorded_at, "2026-11-29T23:21:00Z");
    EXPECT_EQ(stored->minimal_route, outcome.minimal_route);
    EXPECT_EQ(stored->minimal_speedup, 1.45);
    EXPECT_EQ(stored->minimal_ci_low, 1.35);
    EXPECT_EQ(stored->minimal_ci_high, 1.55);

    outcome = StudyOutcome{};
    outcome.outcome = Outcome::DefaultStays;
    store->record_outcome(outcome);
    stored = StudyStore::open_read_only(where_)->read_outcome();
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->outcome, Outcome::DefaultStays);
    EXPECT_FALSE(stored->winner.has_value());
    EXPECT_FALSE(stored->minimal_route.has_value());
    EXPECT_FALSE(stored->recorded_at.empty()) << "the store dates an outcome given without a time";
}

TEST_P(StudyStoreConformance, NotesAreStoredReplacedAndKept) {
    {
        std::unique_ptr<StudyStore> store = open_study();
        EXPECT_FALSE(store->read_note("metric").has_value());
        store->write_note("metric", "max_abs");
        store->write_note("metric", "rel_l2");
        store->write_note("wall_s", "12.5");
        store->write_note("empty", "");
        EXPECT_EQ(store->read_note("metric"), "rel_l2");
    }
    std::unique_ptr<StudyStore> store = StudyStore::open_read_only(where_);
    EXPECT_EQ(store->read_note("metric"), "rel_l2");
    EXPECT_EQ(store->read_note("wall_s"), "12.5");
    EXPECT_EQ(store->read_note("empty"), "");
    EXPECT_FALSE(store->read_note("candidates_total").has_value());
}

TEST_P(StudyStoreConformance, AReaderSeesCommitsWhileTheWriterIsOpen) {
    std::unique_ptr<StudyStore> writer = open_study();
    writer->record(sample_evaluation("-O=1"));
    std::unique_ptr<StudyStore> reader = StudyStore::open_read_only(where_);
    EXPECT_EQ(reader->count(), 1u);
    writer->record(sample_evaluation("-O=2"));
    writer->write_note("metric", "rel_l2");
    EXPECT_EQ(reader->count(), 2u);
    EXPECT_EQ(reader->evaluations().back().route.to_string(), "-O=2");
    EXPECT_EQ(reader->read_note("metric"), "rel_l2");
}

TEST_P(StudyStoreConformance, OneWriterAtATime) {
    {
        std::unique_ptr<StudyStore> writer = open_study();
        EXPECT_THROW(StudyStore::open(where_), RuntimeFailure);
        EXPECT_NO_THROW(StudyStore::open_read_only(where_));
    }
    EXPECT_NO_THROW(StudyStore::open(where_));
}

// The writer's lock goes with its process, however it ends.
std::unique_ptr<StudyStore> open_when_free(const StoreLocation& where) {
    for (int attempt = 0;; ++attempt) {
        try {
            return StudyStore::open(where);
        } catch (const RuntimeFailure&) {
            if (attempt == 50) throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
}

TEST_P(StudyStoreConformance, ARecordedEvaluationSurvivesKillNine) {
    int pipe_fds[2];
    ASSERT_EQ(pipe(pipe_fds), 0);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(pipe_fds[0]);
        std::unique_ptr<StudyStore> store = open_study();
        store->record(sample_evaluation("-O=3 -funroll-loops=on"));
        store->mark_pending(Route::parse("-O=2"), "fast", "2026-11-29T23:30:00Z");
        char done = 'x';
        if (write(pipe_fds[1], &done, 1) != 1) _exit(2);
        for (;;) pause();
    }
    close(pipe_fds[1]);
    char byte = 0;
    ASSERT_EQ(read(pipe_fds[0], &byte, 1), 1);
    close(pipe_fds[0]);
    ASSERT_EQ(kill(child, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status));

    std::unique_ptr<StudyStore> store = open_when_free(where_);
    EXPECT_EQ(store->read_header(), sample_header());
    std::optional<Evaluation> found = store->find(Route::parse("-O=3 -funroll-loops=on").hash());
    ASSERT_TRUE(found.has_value());
    expect_same(sample_evaluation("-O=3 -funroll-loops=on"), *found);
    std::vector<Evaluation> all = store->evaluations();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[1].status, Status::Pending);
}

TEST_P(StudyStoreConformance, ANewerSchemaIsRefusedForWritingAndReading) {
    open_study()->record(sample_evaluation("-O=1"));
    exec("UPDATE " + GetParam().meta_table + " SET value = '99' WHERE key = 'schema_version'");
    for (bool read_only : {false, true}) {
        try {
            if (read_only) StudyStore::open_read_only(where_);
            else StudyStore::open(where_);
            ADD_FAILURE() << "schema 99 opened" << (read_only ? " read-only" : "");
        } catch (const UsageError& error) {
            EXPECT_NE(std::string(error.what()).find("schema version 99 is newer"), std::string::npos) << error.what();
        }
    }
}

TEST_P(StudyStoreConformance, ACorruptRouteIsARuntimeFailureNamingIt) {
    open_study()->record(sample_evaluation("-O=1"));
    exec("UPDATE evaluation SET route = '-O=1 -O=2'");
    std::unique_ptr<StudyStore> store = StudyStore::open(where_);
    try {
        store->evaluations();
        FAIL() << "expected a RuntimeFailure";
    } catch (const RuntimeFailure& error) {
        EXPECT_NE(std::string(error.what()).find("corrupt route '-O=1 -O=2' in the store"), std::string::npos)
            << error.what();
    }
}

TEST_P(StudyStoreConformance, AStoreOfAnotherApplicationIsRefusedAndLeftAlone) {
    fs::create_directories(scratch_ / "nested");
    exec("CREATE TABLE study (x integer)");
    EXPECT_THROW(StudyStore::open(where_), UsageError);
    EXPECT_THROW(StudyStore::open_read_only(where_), UsageError);
    exec("INSERT INTO study (x) VALUES (1)");  // the foreign table is still as it was
}

TEST_P(StudyStoreConformance, AProcessLedgerNotesThePendingRowsProcesses) {
    std::unique_ptr<StudyStore> store = open_study();
    ASSERT_EQ(store->process_ledger() != nullptr, GetParam().keeps_process_ledger);
    if (!store->process_ledger()) return;
    Route route = Route::parse("-O=3");
    store->mark_pending(Route::parse("-O=1"), "fast", "t");
    store->mark_pending(route, "fast", "t");
    store->process_ledger()->note_process(route.hash(), 4321, 99);
    store->process_ledger()->note_process(Route::parse("-O=9").hash(), 1, 1);  // no pending row: nothing
    std::vector<PendingProcess> pending = std::as_const(*store).process_ledger()->pending_processes();
    ASSERT_EQ(pending.size(), 2u);
    EXPECT_EQ(pending[0].route_hash, Route::parse("-O=1").hash());
    EXPECT_EQ(pending[0].pgid, 0) << "none noted";
    EXPECT_EQ(pending[1].route_hash, route.hash());
    EXPECT_EQ(pending[1].owner, this_process_tag());
    EXPECT_EQ(pending[1].pgid, 4321);
    EXPECT_EQ(pending[1].pgid_ticks, 99u);
    store->record(sample_evaluation("-O=3"));
    EXPECT_EQ(store->process_ledger()->pending_processes().size(), 1u) << "a finished row runs nothing";
}

TEST_P(StudyStoreConformance, ANewStudyMovesTheOldOneAsideWithItsCompanions) {
    fs::path companion = scratch_ / "study-folder";
    {
        std::unique_ptr<StudyStore> first = StudyStore::open_new_study(where_, {companion});
        EXPECT_EQ(first->moved_aside_to(), "") << "nothing was there";
        first->write_header(sample_header());
        first->record(sample_evaluation("-O=3"));
        EXPECT_THROW(StudyStore::open_new_study(where_, {companion}), RuntimeFailure) << "one writer at a time";
    }
    fs::create_directories(companion);
    std::unique_ptr<StudyStore> second = StudyStore::open_new_study(where_, {companion});
    EXPECT_NE(second->moved_aside_to(), "");
    EXPECT_NE(second->moved_aside_to().find(".old"), std::string::npos) << second->moved_aside_to();
    EXPECT_FALSE(second->read_header().has_value());
    EXPECT_EQ(second->count(), 0u);
    EXPECT_FALSE(fs::exists(companion));
    std::size_t moved = 0;
    for (const auto& entry : fs::directory_iterator(scratch_))
        moved += entry.path().filename().string().rfind("study-folder.", 0) == 0;
    EXPECT_EQ(moved, 1u) << "the companion is kept under the new name";
}

TEST_P(StudyStoreConformance, ContinuingNeedsAStudyAtAFileAndOpensOneThere) {
    if (where_.is_file()) EXPECT_THROW(StudyStore::open_to_continue(where_), UsageError);
    open_study()->record(sample_evaluation("-O=1"));
    std::unique_ptr<StudyStore> store = StudyStore::open_to_continue(where_);
    EXPECT_EQ(store->read_header(), sample_header());
    EXPECT_EQ(store->count(), 1u);
}

std::string backend_name(const ::testing::TestParamInfo<Backend>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Backends, StudyStoreConformance, ::testing::Values(sqlite_backend(), postgres_backend()),
                         backend_name);

}  // namespace
}  // namespace routetune
