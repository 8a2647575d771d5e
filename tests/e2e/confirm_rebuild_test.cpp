// [timing] confirm_rebuild: a speed that belonged to one build is not what confirms a route.
// fake_timed_cc with FAKE_LUCKY_DIR gives only the first build of each command line its
// flags' gains (later builds of -O3 run at the -O2 time), as a compiler whose kernel choices
// vary from build to build would. Reusing the search's build confirms the lucky -O3; building
// afresh for the confirmation finds no gain.
#include <gtest/gtest.h>

#include <algorithm>

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

// A compiler whose every build lands elsewhere (fake_timed_cc with FAKE_BUILD_SPREAD: the n-th
// build of a command line runs at 1.0, 1.3, 0.9 x its time): the confirmation builds each route
// confirm_builds = 3 times, reports each build's median, and says that the default's own
// builds spread wider than min_gain.
TEST(ConfirmRebuild, TheSpreadOfFreshBuildsIsReportedAndTheDefaultsIsCalledOut) {
    fs::path specs = scratch_specs();
    std::string spec = lucky_spec(true);
    spec.replace(spec.find("confirm_rebuild = true\n"), 23, "confirm_rebuild = true\nconfirm_builds = 3\n");
    write_file(specs / "fake_spread.toml", spec);
    fs::create_directories(specs / "spread");
    CliResult r = run_cli({"tune", "fake_spread.toml", "--json"}, specs,
                          {{"FAKE_SPREAD_DIR", (specs / "spread").string()}, {"FAKE_BUILD_SPREAD", "1.0 1.3 0.9"},
                           {"FAKE_JITTER", "0"}, {"FAKE_CC_LOG", (specs / "cc.log").string()}});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json s = json::parse(r.out);
    // Search builds: the default's and -O=3's first (x 1.0); the confirmation's: their 2nd to 4th.
    std::vector<double> medians = s.at("default_build_medians_s").get<std::vector<double>>();
    std::sort(medians.begin(), medians.end());
    ASSERT_EQ(medians.size(), 3u) << s.dump(2);
    EXPECT_NEAR(medians[0], 0.09, 1e-9);
    EXPECT_NEAR(medians[1], 0.10, 1e-9);
    EXPECT_NEAR(medians[2], 0.13, 1e-9);
    EXPECT_NEAR(s.at("default_build_spread").get<double>(), 0.13 / 0.09 - 1, 1e-6);
    ASSERT_EQ(s.at("confirmations").size(), 1u);
    EXPECT_EQ(s.at("confirmations")[0].at("build_medians_s").size(), 3u);
    EXPECT_NE(s.at("message").get<std::string>().find("the default's 3 fresh builds measured 90 to 130 ms (44.4% apart), "
                                                      "wider than min_gain 2%"),
              std::string::npos)
        << s.at("message");
    std::string log = read_file(specs / "cc.log").value_or("");
    std::size_t builds = 0;  // the log holds discovery's probes too (-o /dev/null)
    for (std::size_t at = log.find("/artifact"); at != std::string::npos; at = log.find("/artifact", at + 1)) ++builds;
    EXPECT_EQ(builds, 2u + 2u * 3u) << "two search builds, then three fresh builds of each route\n" << log;
}

}  // namespace
}  // namespace routetune::e2e
