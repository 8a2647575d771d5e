// The study store: every field round-trips, a reopened store holds what was committed, the
// schema version is checked, a recorded evaluation survives kill -9 of its writer, and a
// reader can read while the writer holds the store open.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <limits>

#include "routetune/error.hpp"
#include "store/sqlite/store_schema.hpp"
#include "store/study_store.hpp"
#include "unit/store_samples.hpp"

namespace routetune {
namespace {

using namespace testing;

namespace fs = std::filesystem;

class StudyStoreTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "routetune-store-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
        path_ = dir_ / "nested" / "study.sqlite";
    }
    void TearDown() override { fs::remove_all(dir_); }

    fs::path dir_;
    fs::path path_;
};

TEST_F(StudyStoreTest, EveryFieldRoundTripsAndSurvivesReopen) {
    Evaluation evaluation = sample_evaluation("-O=3 -funroll-loops=on");
    std::int64_t id = 0;
    {
        std::unique_ptr<StudyStore> store = StudyStore::open(path_);
        EXPECT_EQ(store->opened_schema_version(), 0);
        EXPECT_FALSE(store->read_header().has_value());
        store->write_header(sample_header());
        id = store->record(evaluation);
        EXPECT_GT(id, 0);
        auto all = store->evaluations();
        ASSERT_EQ(all.size(), 1u);
        EXPECT_EQ(all[0].id, id);
        expect_same(evaluation, all[0]);
    }
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    EXPECT_EQ(store->opened_schema_version(), current_store_schema_version());
    EXPECT_EQ(store->read_header(), sample_header());
    auto found = store->find(evaluation.route.hash());
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->id, id);
    expect_same(evaluation, *found);
    EXPECT_FALSE(store->find(Route::parse("-O=2").hash()).has_value());
}

TEST_F(StudyStoreTest, DefaultRouteAndSkippedCaseRows) {
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    Evaluation evaluation = sample_evaluation("");
    store->record(evaluation);
    auto all = store->evaluations(CaseRows::Skip);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_TRUE(all[0].route.empty());
    EXPECT_TRUE(all[0].cases.empty());
    store->load_cases(all[0]);
    expect_same(evaluation, all[0]);
}

TEST_F(StudyStoreTest, PendingRowsAreReplacedAndFinishOrderKept) {
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    store->record(sample_evaluation("-O=1"));
    store->mark_pending(Route::parse("-O=2"), "fast", "2026-11-29T23:10:00Z");
    store->mark_pending(Route::parse("-O=3"), "fast", "2026-11-29T23:10:00Z");
    store->record(sample_evaluation("-O=3", Status::BuildFailed));
    EXPECT_EQ(store->count(), 3u);
    EXPECT_FALSE(store->find(Route::parse("-O=2").hash()).has_value());
    auto all = store->evaluations();
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

TEST_F(StudyStoreTest, FindReturnsTheLatestFinishedEvaluation) {
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    store->record(sample_evaluation("-O=2", Status::RunTimeout));
    std::int64_t second = store->record(sample_evaluation("-O=2", Status::Ok));
    auto found = store->find(Route::parse("-O=2").hash());
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->id, second);
    EXPECT_EQ(found->status, Status::Ok);
    store->update_artifact_path(second, "");
    EXPECT_EQ(store->find(Route::parse("-O=2").hash())->artifact_path, "");
}

TEST_F(StudyStoreTest, RecordManyStoresInOrder) {
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    auto ids = store->record_many({sample_evaluation("-O=1"), sample_evaluation("-O=2")});
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_LT(ids[0], ids[1]);
    auto all = store->evaluations();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[1].route.to_string(), "-O=2");
    EXPECT_EQ(all[1].cases.size(), 2u);
}

TEST_F(StudyStoreTest, ConfirmationAndOutcomeRoundTrip) {
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
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
    store->record_confirmation(confirmation);
    auto read = store->read_confirmation();
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(read->rounds, 5);
    EXPECT_EQ(read->recorded_at, "2026-11-29T23:20:00Z");
    ASSERT_TRUE(read->baseline.has_value());
    EXPECT_TRUE(read->baseline->route.empty());
    expect_same_timing(default_timing, read->baseline->timing);
    ASSERT_EQ(read->candidates.size(), 1u);
    EXPECT_EQ(read->candidates[0].route.to_string(), "-O=2");
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
    auto stored = store->read_outcome();
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
    stored = store->read_outcome();
    EXPECT_EQ(stored->outcome, Outcome::DefaultStays);
    EXPECT_FALSE(stored->winner.has_value());
    EXPECT_FALSE(stored->minimal_route.has_value());
    EXPECT_FALSE(stored->recorded_at.empty());
}

void set_schema_version(const fs::path& path, const std::string& version) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    std::string sql = "UPDATE meta SET value = '" + version + "' WHERE key = 'schema_version'";
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

std::string open_error(const fs::path& path, bool read_only = false) {
    try {
        if (read_only) StudyStore::open_read_only(path);
        else StudyStore::open(path);
    } catch (const UsageError& error) {
        return error.what();
    }
    ADD_FAILURE() << "expected a UsageError opening " << path;
    return {};
}

// A new store is built whole beside its path and renamed into place; what an interrupted
// creation left under "<store>.creating" is replaced, and nothing is left under that name.
TEST_F(StudyStoreTest, ANewStoreIsCreatedInOnePiece) {
    fs::create_directories(path_.parent_path());
    fs::path building = path_.string() + ".creating";
    { std::ofstream(building) << ""; }  // an empty leftover, as a crash before the schema leaves it
    {
        std::unique_ptr<StudyStore> store = StudyStore::open_fresh(path_, {});
        EXPECT_EQ(store->opened_schema_version(), 0);
        EXPECT_FALSE(fs::exists(building));
        store->write_header(sample_header());
    }
    EXPECT_FALSE(fs::exists(building));
    std::unique_ptr<StudyStore> store = StudyStore::open_read_only(path_);
    EXPECT_EQ(store->read_header(), sample_header());
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* statement = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &statement, nullptr);
    ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)), "wal");
    sqlite3_finalize(statement);
    sqlite3_close(db);
}

TEST_F(StudyStoreTest, NewerSchemaIsRefused) {
    StudyStore::open(path_)->record(sample_evaluation("-O=1"));
    set_schema_version(path_, "99");
    EXPECT_EQ(open_error(path_), path_.string() + ": study store schema version 99 is newer than this routetune "
                                                  "understands (" + std::to_string(current_store_schema_version()) +
                                                  "); use a newer routetune");
    EXPECT_NE(open_error(path_, true).find("schema version 99 is newer"), std::string::npos);
}

TEST_F(StudyStoreTest, AVersionOneStoreIsReadAsItIsAndUpgradedForWriting) {
    {
        std::unique_ptr<StudyStore> store = StudyStore::open(path_);
        StudyOutcome outcome;
        outcome.outcome = Outcome::Improved;
        outcome.winner = Route::parse("-O=3");
        outcome.minimal_route = Route::parse("-O=3");
        store->record_outcome(outcome);
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    for (const char* column : {"minimal_route", "minimal_speedup", "minimal_ci_low", "minimal_ci_high"})
        EXPECT_EQ(sqlite3_exec(db, ("ALTER TABLE outcome DROP COLUMN " + std::string(column)).c_str(), nullptr, nullptr, nullptr),
                  SQLITE_OK);
    for (const char* column : {"owner", "pgid", "pgid_ticks", "same_as", "paired_default_samples", "paired_samples"})
        EXPECT_EQ(sqlite3_exec(db, ("ALTER TABLE evaluation DROP COLUMN " + std::string(column)).c_str(), nullptr, nullptr,
                               nullptr),
                  SQLITE_OK);
    sqlite3_close(db);
    set_schema_version(path_, "1");
    {
        std::unique_ptr<StudyStore> store = StudyStore::open_read_only(path_);
        EXPECT_EQ(store->opened_schema_version(), 1);
        auto outcome = store->read_outcome();
        ASSERT_TRUE(outcome.has_value());
        EXPECT_EQ(outcome->winner, Route::parse("-O=3"));
        EXPECT_FALSE(outcome->minimal_route.has_value());
    }
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    EXPECT_EQ(store->opened_schema_version(), 1);
    StudyOutcome outcome = *store->read_outcome();
    outcome.minimal_route = Route::parse("-O=2");
    store->record_outcome(outcome);
    EXPECT_EQ(store->read_outcome()->minimal_route, Route::parse("-O=2"));
    EXPECT_EQ(StudyStore::open_read_only(path_)->opened_schema_version(), current_store_schema_version());
}

TEST_F(StudyStoreTest, AVersionThreeStoreReadsAsUniqueEvaluationsAndGainsSameAsForWriting) {
    {
        std::unique_ptr<StudyStore> store = StudyStore::open(path_);
        Evaluation unique = sample_evaluation("-O=1");
        unique.same_as.clear();
        store->record(unique);
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    for (const char* column : {"same_as", "paired_default_samples", "paired_samples"})
        EXPECT_EQ(sqlite3_exec(db, ("ALTER TABLE evaluation DROP COLUMN " + std::string(column)).c_str(), nullptr, nullptr,
                               nullptr),
                  SQLITE_OK);
    sqlite3_close(db);
    set_schema_version(path_, "3");
    {
        std::unique_ptr<StudyStore> store = StudyStore::open_read_only(path_);
        EXPECT_EQ(store->opened_schema_version(), 3);
        ASSERT_EQ(store->evaluations().size(), 1u);
        EXPECT_EQ(store->evaluations()[0].same_as, "");
        EXPECT_EQ(store->find(Route::parse("-O=1").hash())->same_as, "");
    }
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    EXPECT_EQ(store->opened_schema_version(), 3);
    store->record(sample_evaluation("-O=3"));
    EXPECT_EQ(store->find(Route::parse("-O=3").hash())->same_as, "-O=2 -funroll-loops=on");
    EXPECT_EQ(store->find(Route::parse("-O=1").hash())->same_as, "");
}

// Schema 5 added the paired rounds: a version-4 store is read as unpaired (read-only, as it
// is), and opened for writing it gains the columns, its old rows still unpaired.
TEST_F(StudyStoreTest, AVersionFourStoreReadsAsUnpairedAndIsUpgradedForWriting) {
    Evaluation old_row = sample_evaluation("-O=2");
    StudyStore::open(path_)->record(old_row);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    for (const char* column : {"paired_default_samples", "paired_samples"})
        EXPECT_EQ(sqlite3_exec(db, ("ALTER TABLE evaluation DROP COLUMN " + std::string(column)).c_str(), nullptr, nullptr,
                               nullptr),
                  SQLITE_OK);
    sqlite3_close(db);
    set_schema_version(path_, "4");
    old_row.paired = {};
    {
        std::unique_ptr<StudyStore> reader = StudyStore::open_read_only(path_);
        EXPECT_EQ(reader->opened_schema_version(), 4);
        expect_same(old_row, reader->evaluations().at(0));
        expect_same(old_row, *reader->find(old_row.route.hash()));
    }
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    EXPECT_EQ(store->opened_schema_version(), 4);
    expect_old_row_unpaired_and_new_row_paired(*store, old_row);
    EXPECT_EQ(StudyStore::open_read_only(path_)->opened_schema_version(), 5);
}

TEST_F(StudyStoreTest, ForeignFilesAreRefused) {
    fs::create_directories(dir_);
    fs::path text = dir_ / "notes.txt";
    std::ofstream(text) << "this is not a database, just some text that is long enough to be a header.....\n";
    EXPECT_NE(open_error(text).find("not a routetune study store"), std::string::npos);

    fs::path other = dir_ / "other.sqlite";
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE t (x)", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    EXPECT_EQ(open_error(other), other.string() + ": is not a routetune study store (an SQLite database of another "
                                                  "application); routetune keeps studies only in its own SQLite files "
                                                  "and leaves this one alone");
    EXPECT_EQ(open_error(dir_ / "absent.sqlite", true), (dir_ / "absent.sqlite").string() + ": no study store here");
}

TEST_F(StudyStoreTest, ReaderSeesCommitsWhileTheWriterIsOpen) {
    std::unique_ptr<StudyStore> writer = StudyStore::open(path_);
    writer->record(sample_evaluation("-O=1"));
    std::unique_ptr<StudyStore> reader = StudyStore::open_read_only(path_);
    EXPECT_EQ(reader->count(), 1u);
    writer->record(sample_evaluation("-O=2"));
    EXPECT_EQ(reader->count(), 2u);
    EXPECT_EQ(reader->evaluations().back().route.to_string(), "-O=2");
}

TEST_F(StudyStoreTest, OneWriterAtATime) {
    {
        std::unique_ptr<StudyStore> writer = StudyStore::open(path_);
        try {
            StudyStore::open(path_);
            FAIL() << "a second writer opened the store";
        } catch (const RuntimeFailure& error) {
            EXPECT_NE(std::string(error.what()).find(path_.string() + ": the study is being written by routetune pid " +
                                                     std::to_string(getpid()) + " on host "), std::string::npos);
        }
        EXPECT_NO_THROW(StudyStore::open_read_only(path_));
    }
    EXPECT_NO_THROW(StudyStore::open(path_));
}

TEST_F(StudyStoreTest, RecordedEvaluationSurvivesKillNine) {
    int pipe_fds[2];
    ASSERT_EQ(pipe(pipe_fds), 0);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(pipe_fds[0]);
        std::unique_ptr<StudyStore> store = StudyStore::open(path_);
        store->write_header(sample_header());
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
    EXPECT_EQ(WTERMSIG(status), SIGKILL);

    std::unique_ptr<StudyStore> store = StudyStore::open(path_);  // the killed writer's lock is gone with it
    EXPECT_EQ(store->read_header(), sample_header());
    auto found = store->find(Route::parse("-O=3 -funroll-loops=on").hash());
    ASSERT_TRUE(found.has_value());
    expect_same(sample_evaluation("-O=3 -funroll-loops=on"), *found);
    auto all = store->evaluations();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[1].status, Status::Pending);
}

TEST_F(StudyStoreTest, CorruptRouteTextIsARuntimeFailure) {
    StudyStore::open(path_)->record(sample_evaluation("-O=1"));
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, "UPDATE evaluation SET route = '-O=1 -O=2'", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    try {
        store->evaluations();
        FAIL() << "expected a RuntimeFailure";
    } catch (const RuntimeFailure& error) {
        EXPECT_NE(std::string(error.what()).find(path_.string() + ": corrupt route '-O=1 -O=2' in the store"),
                  std::string::npos) << error.what();
    }
}

TEST(StudyStoreSchemaTest, MigrationsAreNumberedFromOne) {
    const auto& migrations = store_migrations();
    ASSERT_FALSE(migrations.empty());
    for (std::size_t i = 0; i < migrations.size(); ++i) EXPECT_EQ(migrations[i].version, static_cast<int>(i + 1));
    EXPECT_EQ(current_store_schema_version(), static_cast<int>(migrations.size()));
}

TEST(StudyStoreSamplesTest, SamplesEncodeExactly) {
    std::vector<double> samples = {0.1, 1.0 / 3.0, 1e-300, 12345.678, std::numeric_limits<double>::infinity()};
    EXPECT_EQ(decode_samples(encode_samples(samples)), samples);
    EXPECT_EQ(encode_samples({0.25, 2}), "0.25 2");
    EXPECT_TRUE(decode_samples("").empty());
    EXPECT_THROW(decode_samples("0.1 x"), RuntimeFailure);
}

}  // namespace
}  // namespace routetune
