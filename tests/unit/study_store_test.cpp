// What only the SQLite study store has (the interface's contract is
// tests/pg/study_store_conformance_test.cpp, run against every backend): a finished route
// recorded again is a second row, a new file is created in one piece in WAL mode, its messages
// name the file, older schemas are read as they are and upgraded for writing, and foreign
// files are refused.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

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
        std::unique_ptr<StudyStore> store = StudyStore::open_new_study(path_, {});
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
    for (const char* column : {"owner", "pgid", "pgid_ticks", "same_as", "paired_default_samples", "paired_samples",
                               "run_first_s", "run_repeat_s"})
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
    for (const char* column : {"same_as", "paired_default_samples", "paired_samples", "run_first_s", "run_repeat_s"})
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
    for (const char* column : {"paired_default_samples", "paired_samples", "run_first_s", "run_repeat_s"})
        EXPECT_EQ(sqlite3_exec(db, ("ALTER TABLE evaluation DROP COLUMN " + std::string(column)).c_str(), nullptr, nullptr,
                               nullptr),
                  SQLITE_OK);
    sqlite3_close(db);
    set_schema_version(path_, "4");
    old_row.paired = {};
    old_row.run_first_s = old_row.run_repeat_s = 0;
    {
        std::unique_ptr<StudyStore> reader = StudyStore::open_read_only(path_);
        EXPECT_EQ(reader->opened_schema_version(), 4);
        expect_same(old_row, reader->evaluations().at(0));
        expect_same(old_row, *reader->find(old_row.route.hash()));
    }
    std::unique_ptr<StudyStore> store = StudyStore::open(path_);
    EXPECT_EQ(store->opened_schema_version(), 4);
    expect_old_row_unpaired_and_new_row_paired(*store, old_row);
    EXPECT_EQ(StudyStore::open_read_only(path_)->opened_schema_version(), current_store_schema_version());
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
