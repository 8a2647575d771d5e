// The route is what was built, end to end (docs/design.md, "Evidence that cannot lie"; issue 23):
// a study of tiny.c through fakecc (the real gcc, logging each call's argv) builds the issue's
// fast-math route as recorded, which gcc -Q confirms over the logged build flags, and refuses a
// route GCC would override as route_conflict, naming the overriding flag in --json and in the
// table, without building it.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "util/files.hpp"
#include "util/process.hpp"
#include "util/text.hpp"

namespace routetune::e2e {
namespace {

// The flags of each build of tiny.c in a fakecc log (the items between the compiler and tiny.c).
std::vector<std::vector<std::string>> logged_builds(const fs::path& log) {
    std::vector<std::vector<std::string>> builds;
    for (std::string_view line : split_lines(read_file(log).value_or(""))) {
        auto items = split_words(line);
        auto source = std::find(items.begin(), items.end(), "tiny.c");
        if (source != items.end()) builds.emplace_back(items.begin(), source);
    }
    return builds;
}

// What gcc -Q says of the option under flags ("[enabled]", "[disabled]").
std::string gcc_state(const std::vector<std::string>& flags, const std::string& option) {
    ProcessSpec spec;
    spec.argv = {"gcc", "-Q", "--help=optimizers"};
    spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
    spec.env = {{"LC_ALL", "C"}};
    auto result = run_process(spec);
    for (std::string_view line : split_lines(result.out)) {
        auto words = split_words(line);
        if (words.size() == 2 && words[0] == option) return words[1];
    }
    return "(none)";
}

TEST(RouteFidelityCli, TheIssuesFastMathRouteIsBuiltAsRecorded) {
    fs::path specs = scratch_specs();
    fs::path log = specs / "cc.log";
    CliResult r = run_cli({"tune", "route_fidelity.toml", "--json"}, specs, {{"FAKECC_LOG", log.string()}});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json s = nlohmann::json::parse(r.out);
    const std::string route = "-fassociative-math=on -ffast-math=off -fsigned-zeros=off -ftrapping-math=off";
    bool recorded = false;
    for (const auto& e : s.at("evaluations")) {
        if (e.at("route") != route) continue;
        recorded = true;
        EXPECT_EQ(e.at("status"), "ok") << e.dump();
    }
    EXPECT_TRUE(recorded) << r.out;
    bool built = false;
    for (const auto& flags : logged_builds(log)) {
        if (std::find(flags.begin(), flags.end(), "-fassociative-math") == flags.end()) continue;
        built = true;
        std::vector<std::string> given(flags.begin() + 1, flags.end());  // without the compiler
        EXPECT_EQ(gcc_state(given, "-fassociative-math"), "[enabled]");
        EXPECT_EQ(gcc_state(given, "-fsigned-zeros"), "[disabled]");
        EXPECT_EQ(gcc_state(given, "-ftrapping-math"), "[disabled]");
    }
    EXPECT_TRUE(built);
}

TEST(RouteFidelityCli, ARouteGccWouldOverrideIsRouteConflictNamingTheOverridingFlag) {
    fs::path specs = scratch_specs();
    fs::path log = specs / "cc.log";
    // -mavx512f needs AVX, so GCC turns -mno-avx back on; -ffp-contract=on is off in GCC 12.
    CliResult r = run_cli({"tune", "route_fidelity.toml", "--json", "--search", "full", "--routes",
                           "-mavx=off -mavx512f=[off|on] -ffp-contract=[fast|on]"},
                          specs, {{"FAKECC_LOG", log.string()}});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json s = nlohmann::json::parse(r.out);
    std::map<std::string, nlohmann::json> by_route;
    for (const auto& e : s.at("evaluations")) by_route[e.at("route").get<std::string>()] = e;
    EXPECT_EQ(by_route.at("-ffp-contract=fast -mavx=off -mavx512f=off").at("status"), "ok");
    const auto& avx = by_route.at("-ffp-contract=fast -mavx=off -mavx512f=on");
    EXPECT_EQ(avx.at("status"), "route_conflict");
    EXPECT_EQ(avx.at("message"), "GCC would not build the route as recorded: -mavx=off ends as on in GCC's report, "
                                 "overridden by -mavx512f");
    const auto& contract = by_route.at("-ffp-contract=on -mavx=off -mavx512f=off");
    EXPECT_EQ(contract.at("status"), "route_conflict");
    EXPECT_NE(contract.at("message").get<std::string>().find(
                  "-ffp-contract=on ends as off in GCC's report, even with no other flag"),
              std::string::npos)
        << contract.dump();
    EXPECT_EQ(s.at("counts").at("route_conflict"), 3);
    for (const auto& flags : logged_builds(log)) {
        bool both = std::find(flags.begin(), flags.end(), "-mno-avx") != flags.end() &&
                    std::find(flags.begin(), flags.end(), "-mavx512f") != flags.end();
        EXPECT_FALSE(both) << "a route_conflict candidate was built";
    }
    CliResult table = run_cli({"report", ".routetune/route_fidelity.sqlite"}, specs);
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("route_conflict"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("overridden by -mavx512f"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("route_conflict 3"), std::string::npos) << table.out;
}

}  // namespace
}  // namespace routetune::e2e
