// What only the PostgreSQL study store has, against a real server (the interface's contract is
// tests/pg/study_store_conformance_test.cpp, run against every backend): one database holds
// several studies picked by name, a route is recorded once, a coordinator of one study does not
// block another, a new study keeps the old one under a new name, an older schema is upgraded,
// and an unreachable server's message names the URL without its password.
#include <gtest/gtest.h>

#include "pg/pg_test_database.hpp"
#include "routetune/error.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/pg_study_store.hpp"
#include "store/study_store.hpp"
#include "unit/store_samples.hpp"

namespace routetune {
namespace {

using namespace routetune::testing;

TEST(PgStudyStore, AReaderWithoutANameTakesTheDatabasesOnlyStudy) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    Evaluation evaluation = sample_evaluation("-O=3 -funroll-loops=on");
    {
        std::unique_ptr<StudyStore> store = StudyStore::open(StoreLocation(url, "matmul"));
        store->write_header(sample_header());
        store->record(evaluation);
    }
    std::unique_ptr<StudyStore> store = StudyStore::open_read_only(url);
    EXPECT_EQ(store->read_header(), sample_header());
    expect_same(evaluation, store->evaluations().at(0));
    EXPECT_NE(store->location().find("(study matmul)"), std::string::npos) << store->location();
}

TEST(PgStudyStore, OneDatabaseHoldsSeveralStudiesByName) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    for (const char* name : {"alpha", "beta"}) {
        std::unique_ptr<StudyStore> store = StudyStore::open(StoreLocation(url, name));
        StudyHeader header = sample_header();
        header.expression = name;
        store->write_header(header);
        store->record(sample_evaluation(name == std::string("alpha") ? "-O=1" : "-O=2"));
    }
    EXPECT_EQ(StudyStore::open_read_only(StoreLocation(url, "beta"))->read_header()->expression, "beta");
    EXPECT_EQ(StudyStore::open_read_only(StoreLocation(url, "alpha"))->evaluations().at(0).route, Route::parse("-O=1"));
    try {
        StudyStore::open_read_only(url);
        FAIL() << "a database of two studies opened without a name";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("alpha, beta"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("--study"), std::string::npos) << error.what();
    }
    EXPECT_THROW(StudyStore::open_read_only(StoreLocation(url, "gamma")), UsageError);
}

TEST(PgStudyStore, ARouteIsRecordedOnceAndTheFirstRecordWins) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    std::unique_ptr<StudyStore> store = StudyStore::open(StoreLocation(url, "s"));
    store->write_header(sample_header());
    Evaluation first = sample_evaluation("-O=3");
    Evaluation second = first;
    second.message = "second";
    std::int64_t id = store->record(first);
    EXPECT_EQ(store->record(second), id);
    ASSERT_EQ(store->evaluations().size(), 1u);
    EXPECT_EQ(store->evaluations()[0].message, first.message);
}

TEST(PgStudyStore, ASecondCoordinatorOfTheSameStudyIsRefusedUntilTheFirstCloses) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    {
        std::unique_ptr<StudyStore> first = StudyStore::open(StoreLocation(url, "s"));
        EXPECT_THROW(StudyStore::open(StoreLocation(url, "s")), RuntimeFailure);
        EXPECT_NO_THROW(StudyStore::open(StoreLocation(url, "other")));
    }
    EXPECT_NO_THROW(StudyStore::open(StoreLocation(url, "s")));
}

TEST(PgStudyStore, ANewStudyKeepsTheOldOneUnderANewName) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    {
        std::unique_ptr<StudyStore> store = StudyStore::open(StoreLocation(url, "s"));
        store->write_header(sample_header());
        store->record(sample_evaluation("-O=3"));
    }
    std::unique_ptr<StudyStore> store = StudyStore::open_new_study(StoreLocation(url, "s"), {});
    EXPECT_FALSE(store->read_header().has_value());
    store->write_header(sample_header());
    EXPECT_EQ(store->count(), 0u);
    std::vector<std::string> names = pg_study_names(url);
    ASSERT_EQ(names.size(), 2u);
    EXPECT_EQ(names[0].rfind("s.", 0), 0u) << names[0];
    EXPECT_EQ(names[0].substr(names[0].size() - 4), ".old") << names[0];
    EXPECT_NE(store->moved_aside_to().find("(study " + names[0] + ")"), std::string::npos) << store->moved_aside_to();
    EXPECT_EQ(StudyStore::open_read_only(StoreLocation(url, names[0]))->count(), 1u);
}

// Schema 3 added the paired rounds: a version-2 database is upgraded when opened for writing,
// its old rows read as unpaired.
TEST(PgStudyStore, AVersionTwoDatabaseIsUpgradedAndItsRowsReadAsUnpaired) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    Evaluation old_row = sample_evaluation("-O=2");
    {
        std::unique_ptr<StudyStore> store = StudyStore::open(StoreLocation(url, "s"));
        store->write_header(sample_header());
        store->record(old_row);
    }
    PgConnection(url).exec_script(
        "ALTER TABLE evaluation DROP COLUMN paired_default_samples, DROP COLUMN paired_samples, "
        "DROP COLUMN run_first_s, DROP COLUMN run_repeat_s; "
        "UPDATE routetune_meta SET value = '2' WHERE key = 'schema_version'");
    EXPECT_THROW(StudyStore::open_read_only(StoreLocation(url, "s")), UsageError) << "read-only needs the current schema";
    std::unique_ptr<StudyStore> store = StudyStore::open(StoreLocation(url, "s"));
    EXPECT_EQ(store->opened_schema_version(), 2);
    expect_old_row_unpaired_and_new_row_paired(*store, old_row);
}

TEST(PgStudyStore, AnUnreachableServerNamesTheRedactedUrlAndTheServerMessage) {
    std::string url = "postgresql://ann:s3cret@127.0.0.1:1/db?connect_timeout=2";
    try {
        StudyStore::open(StoreLocation(url, "s"));
        FAIL() << "connected to port 1";
    } catch (const RuntimeFailure& error) {
        std::string message = error.what();
        EXPECT_EQ(message.find("s3cret"), std::string::npos) << message;
        EXPECT_NE(message.find("postgresql://ann:***@127.0.0.1:1/db"), std::string::npos) << message;
        EXPECT_NE(message.find("Connection refused"), std::string::npos) << message;
    }
}

TEST(StoreLocation, RedactsPasswordsInUserinfoAndQuery) {
    EXPECT_EQ(redact_location("postgresql://u:pw@h:5/d"), "postgresql://u:***@h:5/d");
    EXPECT_EQ(redact_location("postgres://u@h/d?sslmode=require&password=pw&x=1"),
              "postgres://u@h/d?sslmode=require&password=***&x=1");
    EXPECT_EQ(redact_location("postgresql://h/d?PASSWORD=pw"), "postgresql://h/d?PASSWORD=***");
    EXPECT_EQ(redact_location("/tmp/a:b@c.sqlite"), "/tmp/a:b@c.sqlite");
    EXPECT_TRUE(StoreLocation("postgresql://h/d").is_postgres());
    EXPECT_FALSE(StoreLocation(std::filesystem::path("study.sqlite")).is_postgres());
    EXPECT_TRUE(StoreLocation("postgres://h/d").shares_work());
    EXPECT_FALSE(StoreLocation("postgres://h/d").is_file());
    EXPECT_TRUE(StoreLocation("study.sqlite").is_file());
    EXPECT_FALSE(StoreLocation("study.sqlite").shares_work());
    EXPECT_EQ(StoreLocation("postgresql://u:pw@h/d").for_records(), "postgresql://u:***@h/d");
    EXPECT_EQ(StoreLocation("/a/./b/../s.sqlite").for_records(), "/a/s.sqlite");
}

}  // namespace
}  // namespace routetune
