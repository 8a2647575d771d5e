// One answer per artifact in a study kept in PostgreSQL: the store keeps same_as (an older
// schema is upgraded), the queue lets one candidate per run identity measure an artifact and
// the others wait for its answer (a claim moves only from a holder that is no longer evaluated
// and recorded no run), and a study whose candidates build byte-identical binaries with the
// real gcc, evaluated by two worker threads, runs each artifact once.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "e2e/cli_harness.hpp"
#include "e2e/identical_knobs.hpp"
#include "pg/pg_test_database.hpp"
#include "store/postgres/pg_connection.hpp"
#include "store/postgres/work_queue.hpp"
#include "store/study_store.hpp"

namespace routetune {
namespace {

using namespace routetune::testing;

StudyHeader header() { return StudyHeader{"q", "x", "", "", "full", 0, "{}", "", "", "", "", ""}; }

Evaluation measured(const char* route, const std::string& sha) {
    Evaluation e;
    e.route = Route::parse(route);
    e.status = Status::Ok;
    e.artifact_sha256 = sha;
    e.timing = summarize({1.0, 1.1, 1.2});
    return e;
}

// Study "q" with -a=1 and -a=2 queued.
void queue_two_routes(const std::string& url) {
    StudyStore::open(StoreLocation(url, "q"))->write_header(header());
    WorkQueue coordinator(url, "coordinator", "here");
    ASSERT_TRUE(coordinator.attach("q"));
    coordinator.enqueue(Route::parse("-a=1"), "full");
    coordinator.enqueue(Route::parse("-a=2"), "full");
}

TEST(SameArtifactPg, SameAsRoundTripsAndAnOlderSchemaIsUpgraded) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    {
        auto store = StudyStore::open(StoreLocation(url, "q"));
        store->write_header(header());
        Evaluation twin = measured("-a=2", "abc");
        twin.same_as = "-a=1";
        store->record(twin);
    }
    EXPECT_EQ(StudyStore::open_read_only(StoreLocation(url, "q"))->evaluations().at(0).same_as, "-a=1");
    PgConnection db(url);  // back to schema version 1: no same_as, no claims, no paired rounds
    db.exec("ALTER TABLE evaluation DROP COLUMN same_as, DROP COLUMN paired_default_samples, DROP COLUMN paired_samples, "
            "DROP COLUMN run_first_s, DROP COLUMN run_repeat_s");
    db.exec("DROP TABLE artifact_claim");
    db.exec("DROP INDEX evaluation_by_artifact");
    db.exec("UPDATE routetune_meta SET value = '1' WHERE key = 'schema_version'");
    auto store = StudyStore::open(StoreLocation(url, "q"));
    EXPECT_EQ(store->opened_schema_version(), 1);
    EXPECT_EQ(store->evaluations().at(0).same_as, "") << "rows recorded before the upgrade are unique";
    Evaluation twin = measured("-a=3", "abc");
    twin.same_as = "(default)";
    store->record(twin);
    EXPECT_EQ(store->find(twin.route.hash())->same_as, "(default)");
}

TEST(SameArtifactPg, OneCandidateMeasuresAnArtifactAndTheOthersWaitForItsAnswer) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    queue_two_routes(url);
    WorkQueue first(url, "w1", "here"), second(url, "w2", "here");
    ASSERT_TRUE(first.attach("q"));
    ASSERT_TRUE(second.attach("q"));
    std::optional<Claim> one = first.claim(60), two = second.claim(60);
    ASSERT_TRUE(one && two);
    EXPECT_EQ(first.claim_artifact("id", one->route_hash), one->route_hash) << "the first asker holds it";
    EXPECT_EQ(second.claim_artifact("id", two->route_hash), one->route_hash) << "the second is told who does";
    EXPECT_EQ(first.claim_artifact("id", one->route_hash), one->route_hash) << "asking again changes nothing";
    EXPECT_FALSE(second.take_over_artifact("id", one->route_hash, two->route_hash, "abc"))
        << "the holder is running under a live lease";
    EXPECT_TRUE(second.measured_artifact("abc").empty());

    Evaluation answer = measured("-a=1", "abc");
    answer.route = one->route;
    ASSERT_TRUE(first.commit(*one, answer));
    std::vector<Evaluation> twins = second.measured_artifact("abc");
    ASSERT_EQ(twins.size(), 1u);
    EXPECT_EQ(twins[0].route, one->route);
    EXPECT_FALSE(second.take_over_artifact("id", one->route_hash, two->route_hash, "abc"))
        << "the holder recorded its run: its answer is taken, not a second measurement";
    EXPECT_TRUE(second.measured_artifact("other").empty());
}

TEST(SameArtifactPg, AClaimWhoseHolderLostItsLeaseIsTakenOver) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    queue_two_routes(url);
    WorkQueue dying(url, "w1", "here"), waiting(url, "w2", "here");
    ASSERT_TRUE(dying.attach("q"));
    ASSERT_TRUE(waiting.attach("q"));
    std::optional<Claim> held = dying.claim(0.2), mine = waiting.claim(60);
    ASSERT_TRUE(held && mine);
    ASSERT_EQ(dying.claim_artifact("id", held->route_hash), held->route_hash);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));  // w1's lease runs out: it died
    EXPECT_TRUE(waiting.take_over_artifact("id", held->route_hash, mine->route_hash, "abc"));
    EXPECT_EQ(waiting.claim_artifact("id", mine->route_hash), mine->route_hash);
    EXPECT_FALSE(waiting.take_over_artifact("id", held->route_hash, mine->route_hash, "abc")) << "moved once";
}

TEST(SameArtifactPg, TwoWorkerThreadsRunEachArtifactOnce) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    using namespace routetune::e2e;
    KnobStudy setup = prepare();
    ASSERT_GE(setup.identical.size(), 2u);
    write_file(setup.dir / "sameas.toml", spec_text(setup));
    CliResult r = run_cli({"tune", "sameas.toml", "--store", url, "--jobs", "2", "--json"}, setup.dir, {}, 240);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, int> runs = runs_by_sha(setup.dir);
    EXPECT_EQ(runs.size(), 2u);
    expect_each_artifact_measured_once(runs, setup.default_sha, 1);
    auto summary = nlohmann::json::parse(r.out);
    std::size_t same = 0;
    for (const auto& e : summary.at("evaluations")) {
        if (!e.contains("same_as")) continue;
        ++same;
        EXPECT_EQ(e.at("same_as"), "(default)") << e.dump();
        EXPECT_DOUBLE_EQ(e.at("speedup").get<double>(), 1.0) << e.dump();
    }
    EXPECT_EQ(same, setup.identical.size());
    remove_tree_quietly(setup.dir);
}

// Two candidates build one binary other than the default's (the changing knob alone, and with
// an identical knob beside it) while two worker threads evaluate them: the second built waits
// for the first's measurement (each run sleeps, so the two would overlap) and takes its answer.
TEST(SameArtifactPg, ACandidateWhoseTwinAnotherWorkerMeasuresWaitsForItsAnswer) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    using namespace routetune::e2e;
    KnobStudy setup = prepare();
    ASSERT_FALSE(setup.identical.empty());
    std::string routes = setup.changing.knob + "=[on|off] " + setup.identical.front().knob + "=[on|off]";
    write_file(setup.dir / "sameas.toml", spec_text(setup, "full", routes));
    CliResult r = run_cli({"tune", "sameas.toml", "--store", url, "--jobs", "2", "--json"}, setup.dir,
                          {{"RUN_SLEEP_S", "0.4"}}, 240);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, int> runs = runs_by_sha(setup.dir);
    EXPECT_EQ(runs.size(), 2u);
    expect_each_artifact_measured_once(runs, setup.default_sha, 1);
    nlohmann::json summary = nlohmann::json::parse(r.out);
    std::vector<std::pair<std::string, std::string>> unrolled;  // route, same_as: the changed binary's builds
    for (const auto& e : summary.at("evaluations")) {
        std::string route = e.at("route").get<std::string>();
        if (route.find(route_of(setup.changing)) != std::string::npos) unrolled.emplace_back(route, e.value("same_as", ""));
    }
    ASSERT_EQ(unrolled.size(), 2u) << summary.dump(1);
    bool first_measured = unrolled[0].second.empty() && unrolled[1].second == unrolled[0].first;
    bool second_measured = unrolled[1].second.empty() && unrolled[0].second == unrolled[1].first;
    EXPECT_TRUE(first_measured || second_measured) << "one measured, the other its answer: " << summary.dump(1);
    remove_tree_quietly(setup.dir);
}

}  // namespace
}  // namespace routetune
