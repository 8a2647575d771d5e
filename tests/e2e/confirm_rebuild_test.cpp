// [timing] confirm_rebuild: a speed that belonged to one build is not what confirms a route.
// fake_timed_cc with FAKE_LUCKY_DIR gives only the first build of each command line its
// flags' gains (later builds of -O3 run at the -O2 time), as a compiler whose kernel choices
// vary from build to build would. Reusing the search's build confirms the lucky -O3; building
// afresh for the confirmation finds no gain.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "util/files.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

std::string lucky_spec(bool rebuild) {
    return fake_timed_spec("fake_lucky", std::string("confirm_top = 1\n") + (rebuild ? "confirm_rebuild = true\n" : ""),
                           "-O=[2|3]", "full");
}

json tune_lucky(bool rebuild) {
    fs::path specs = scratch_specs();
    write_file(specs / "fake_lucky.toml", lucky_spec(rebuild));
    fs::create_directories(specs / "lucky");
    CliResult r = run_cli({"tune", "fake_lucky.toml", "--json"}, specs,
                          {{"FAKE_LUCKY_DIR", (specs / "lucky").string()}, {"FAKE_JITTER", "0"}});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
}

TEST(ConfirmRebuild, ReusingTheSearchBuildConfirmsALuckyBuild) {
    json s = tune_lucky(false);
    EXPECT_EQ(s.at("outcome"), "improved") << s.dump(2);
    EXPECT_EQ(s.at("winner").at("route"), "-O=3");
}

TEST(ConfirmRebuild, FreshBuildsFindThatTheGainWasTheBuildsNotTheRoutes) {
    json s = tune_lucky(true);
    EXPECT_EQ(s.at("outcome"), "default-stays") << s.dump(2);
    EXPECT_TRUE(s.at("winner").is_null());
}

}  // namespace
}  // namespace routetune::e2e
