// `routetune serve` on a study kept in PostgreSQL, against the real server: `serve URL --study
// NAME` answers the page and the state of that study (not another of the same database), as
// `report --store URL --study NAME` reads it; the state is a versioned JSON document.
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "pg/pg_test_database.hpp"

namespace routetune::e2e {
namespace {

TEST(ServePostgres, ServesTheNamedStudyOfADatabase) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    std::map<std::string, std::string> env{{"FAKE_JITTER", "0"}};
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--store", url, "--study", "nightly", "--search", "full", "--routes",
                       "-O=[2|3] -funroll-loops=[on|off]", "--json"},
                      specs, env)
                  .exit_code,
              0);
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--store", url, "--study", "other", "--search", "full", "--routes",
                       "-O=[1|2]", "--json"},
                      specs, env)
                  .exit_code,
              0);
    BackgroundCli serve({"serve", url, "--study", "nightly", "--port", "0"}, specs);
    std::string host;
    int port = served_port(specs / "background.log", host);
    ASSERT_GT(port, 0) << read_file(specs / "background.log").value_or("");
    httplib::Client client("127.0.0.1", port);
    auto state = client.Get("/state");
    ASSERT_TRUE(state) << "no answer";
    ASSERT_EQ(state->status, 200) << state->body;
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(state->body);
    EXPECT_EQ(doc.begin().key(), "schema_version");
    EXPECT_EQ(doc.at("studies").at(0).at("study"), "nightly");
    // The default and three routes (-O=2 -funroll-loops=off is the default itself); "other" has two.
    EXPECT_EQ(doc.at("studies").at(0).at("evaluations"), 4u) << state->body;
    auto page = client.Get("/");
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_NE(page->body.find("-funroll-loops"), std::string::npos);
    serve.signal(SIGTERM);
    EXPECT_EQ(serve.wait(), 0);
}

}  // namespace
}  // namespace routetune::e2e
