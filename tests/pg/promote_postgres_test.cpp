// promote on a study kept in PostgreSQL, against the real server: `promote --store URL --study
// NAME` reads the study's winner and evidence from the database, builds and A/Bs afresh, and
// writes a lock naming the database (without its password) and the study; the fresh builds
// and the lock registry go where a local study of that name keeps its files; verify works on
// the lock, review re-runs it (noting that it does not read the database). Bad input: a route
// the study never evaluated (exit 2, naming the URL and the study), a store named twice.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "pg/pg_test_database.hpp"
#include "store/postgres/pg_connection.hpp"
#include "util/files.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

json read_json(const fs::path& file) {
    std::ifstream in(file);
    return json::parse(in);
}

TEST(PromotePostgres, PromotesTheWinnerOfADatabaseStudyAndRecordsTheUrlAndStudy) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    std::map<std::string, std::string> env{{"FAKE_JITTER", "0"}};
    CliResult tuned = run_cli({"tune", "fake_timed.toml", "--store", url, "--study", "nightly", "--search", "full",
                               "--routes", "-O=[2|3] -funroll-loops=[on|off]", "--json"},
                              specs, env);
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    // A second study in the same database: promote must take the one --study names.
    CliResult other = run_cli({"tune", "fake_timed.toml", "--store", url, "--study", "other", "--search", "full",
                               "--routes", "-O=[1|2]", "--json"},
                              specs, env);
    ASSERT_EQ(other.exit_code, 0) << other.err;

    CliResult promoted = run_cli({"promote", "--store", url, "--study", "nightly", "--lock", "routetune.lock.json",
                                  "--owner", "ci", "--json"},
                                 specs, env);
    ASSERT_EQ(promoted.exit_code, 0) << promoted.out << promoted.err;
    json out = json::parse(promoted.out);
    EXPECT_EQ(out.at("route"), "-O=3 -funroll-loops=on");
    json lock = read_json(specs / "routetune.lock.json");
    EXPECT_EQ(lock.at("route"), "-O=3 -funroll-loops=on");
    const json& evidence = lock.at("evidence");
    EXPECT_EQ(evidence.at("store"), url);
    EXPECT_EQ(evidence.at("study"), "nightly");
    std::int64_t winner_id = PgConnection(url)
                                 .exec("SELECT e.id FROM evaluation e JOIN study s ON s.id = e.study_id "
                                       "WHERE s.name = 'nightly' AND e.route = '-O=3 -funroll-loops=on'")
                                 .integer(0, 0);
    EXPECT_EQ(evidence.at("route_evaluation_id"), winner_id);
    EXPECT_EQ(evidence.at("study_outcome"), "improved");
    EXPECT_EQ(evidence.at("builds"), 2);
    fs::path registry = specs / ".routetune" / "nightly.sqlite.locks.json";
    ASSERT_TRUE(fs::exists(registry));
    EXPECT_NE(read_file(registry).value_or("").find("routetune.lock.json"), std::string::npos);
    EXPECT_FALSE(fs::exists(specs / ".routetune" / "nightly.sqlite"));  // nothing pretends to be the store

    CliResult verified = run_cli({"verify", "routetune.lock.json"}, specs, env);
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
    CliResult reviewed = run_cli({"review", "routetune.lock.json", "--json"}, specs, env);
    ASSERT_EQ(reviewed.exit_code, 0) << reviewed.out << reviewed.err;
    json review = json::parse(reviewed.out);
    EXPECT_EQ(review.at("recommendation"), "keep") << review.dump();  // the fake compiler's -O=3 gain is steady
    std::string reasons = review.at("reasons").dump();
    EXPECT_NE(reasons.find("study 'nightly' in PostgreSQL (" + url + "); review does not read the database"),
              std::string::npos) << reasons;
    json reviewed_lock = read_json(specs / "routetune.lock.json");
    EXPECT_EQ(reviewed_lock.at("last_review").at("recommendation"), "keep");
}

TEST(PromotePostgres, ARouteTheDatabaseStudyNeverEvaluatedOrAStoreNamedTwiceIsBadInput) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    CliResult tuned = run_cli({"tune", "fake_timed.toml", "--store", url, "--search", "full", "--routes", "-O=[2|3]"},
                              specs, {{"FAKE_JITTER", "0"}});
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    CliResult unknown = run_cli({"promote", "--store", url, "--route", "-O=1", "--lock", "x.lock.json"}, specs);
    EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
    EXPECT_NE(unknown.err.find(url + " (study fake_timed): the study never evaluated the route '-O=1'"), std::string::npos)
        << unknown.err;
    EXPECT_FALSE(fs::exists(specs / "x.lock.json"));
    CliResult twice = run_cli({"promote", "study.sqlite", "--store", url, "--lock", "x.lock.json"}, specs);
    EXPECT_EQ(twice.exit_code, 2);
    EXPECT_NE(twice.err.find("name the study's store once"), std::string::npos) << twice.err;
}

}  // namespace
}  // namespace routetune::e2e
