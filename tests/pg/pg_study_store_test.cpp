// The PostgreSQL study store against a real server: every field round-trips through a reopen,
// one database holds several studies picked by name, a route is recorded once, a second
// coordinator of a study is refused, a newer schema is refused, set_aside keeps the old study,
// and an unreachable server's message names the URL without its password.
#include <gtest/gtest.h>

#include "pg/pg_test_database.hpp"
#include "routetune/error.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/pg_schema.hpp"
#include "store/study_store.hpp"
#include "unit/store_samples.hpp"

namespace routetune {
namespace {

using namespace routetune::testing;

TEST(PgStudyStore, EveryFieldRoundTripsAndSurvivesReopen) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    Evaluation evaluation = sample_evaluation("-O=3 -funroll-loops=on");
    StudyHeader header = sample_header();
    {
        std::unique_ptr<StudyStore> store = StudyStore::open(StoreLocation(url, "matmul"));
        EXPECT_EQ(store->opened_schema_version(), 0);
        EXPECT_FALSE(store->read_header().has_value());
        store->write_header(header);
        store->mark_pending(Route::parse("-O=2"), "fast", "2026-11-29T23:00:00Z");
        evaluation.id = store->record(evaluation);
        StudyOutcome outcome;
        outcome.outcome = Outcome::Improved;
        outcome.winner = evaluation.route;
        outcome.speedup = 1.5;
        outcome.recorded_at = "2026-11-29T23:10:00Z";
        store->record_outcome(outcome);
        StudyConfirmation confirmation;
        confirmation.rounds = 4;
        confirmation.baseline = Confirmation{Route{}, {}, {{0.2, 0.21}, 0.205, 0.2, 0.21}, 1, 1, 1};
        confirmation.candidates.push_back(Confirmation{evaluation.route, {}, {{0.1}, 0.1, 0.1, 0.1}, 2, 1.9, 2.1});
        store->write_note("metric", "rel_l2");
        store->record_confirmation(confirmation);
    }
    std::unique_ptr<StudyStore> store = StudyStore::open_read_only(url);  // the only study
    EXPECT_EQ(store->opened_schema_version(), current_pg_schema_version());
    header.name = "matmul";
    EXPECT_EQ(store->read_header(), header);
    std::vector<Evaluation> all = store->evaluations();
    ASSERT_EQ(all.size(), 2u);
    expect_same(evaluation, all[0]);
    EXPECT_EQ(all[1].status, Status::Pending);
    EXPECT_EQ(store->count(), 2u);
    ASSERT_TRUE(store->find(evaluation.route.hash()).has_value());
    expect_same(evaluation, *store->find(evaluation.route.hash()));
    EXPECT_EQ(store->read_outcome()->winner, evaluation.route);
    auto confirmation = store->read_confirmation();
    ASSERT_TRUE(confirmation.has_value());
    EXPECT_EQ(confirmation->rounds, 4);
    ASSERT_TRUE(confirmation->baseline.has_value());
    ASSERT_EQ(confirmation->candidates.size(), 1u);
    EXPECT_EQ(confirmation->candidates[0].ci_high, 2.1);
    EXPECT_EQ(confirmation->candidates[0].default_timing.median_s, 0.205);
    EXPECT_EQ(store->read_note("metric"), "rel_l2");
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

TEST(PgStudyStore, SetAsideKeepsTheOldStudyUnderANewName) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    std::unique_ptr<StudyStore> store = StudyStore::open(StoreLocation(url, "s"));
    store->write_header(sample_header());
    store->record(sample_evaluation("-O=3"));
    EXPECT_TRUE(store->set_aside(".old"));
    EXPECT_FALSE(store->read_header().has_value());
    store->write_header(sample_header());
    EXPECT_EQ(store->count(), 0u);
    EXPECT_EQ(StudyStore::open_read_only(StoreLocation(url, "s.old"))->count(), 1u);
}

TEST(PgStudyStore, ANewerSchemaIsRefused) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    StudyStore::open(StoreLocation(url, "s"));
    PgConnection(url).exec("UPDATE routetune_meta SET value = '99' WHERE key = 'schema_version'");
    try {
        StudyStore::open(StoreLocation(url, "s"));
        FAIL() << "schema 99 opened";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("version 99 is newer"), std::string::npos) << error.what();
    }
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
        "ALTER TABLE evaluation DROP COLUMN paired_default_samples, DROP COLUMN paired_samples; "
        "UPDATE routetune_meta SET value = '2' WHERE key = 'schema_version'");
    EXPECT_THROW(StudyStore::open_read_only(StoreLocation(url, "s")), UsageError) << "read-only needs the current schema";
    std::unique_ptr<StudyStore> store = StudyStore::open(StoreLocation(url, "s"));
    EXPECT_EQ(store->opened_schema_version(), 2);
    expect_old_row_unpaired_and_new_row_paired(*store, old_row);
}

TEST(PgStudyStore, ADatabaseOfAnotherApplicationIsRefused) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    PgConnection(url).exec("CREATE TABLE study (x int)");
    EXPECT_THROW(StudyStore::open(StoreLocation(url, "s")), UsageError);
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
}

}  // namespace
}  // namespace routetune
