// End-to-end tests of `routetune tune` with deterministic fake compilers: the winner, search
// modes, every failure status, dry runs and budgets, artifacts, reports and bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "util/sha256.hpp"
#include "util/text.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

json summary_of(const CliResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out);
}

std::map<std::string, std::string> statuses(const json& summary) {
    std::map<std::string, std::string> by_route;
    for (const auto& e : summary.at("evaluations")) {
        std::string route = e.at("route").get<std::string>();
        EXPECT_EQ(by_route.count(route), 0u) << "evaluated twice: " << route;
        by_route[route] = e.at("status").get<std::string>();
    }
    return by_route;
}

TEST(TuneCli, FakeTimedFastFindsTheKnownWinnerAndRejectsFastMath) {
    fs::path specs = scratch_specs();
    json s = summary_of(run_cli({"tune", "fake_timed.toml", "--json"}, specs));
    EXPECT_EQ(s.at("outcome"), "improved");
    EXPECT_EQ(s.at("winner").at("route"), "-O=3");
    EXPECT_NEAR(s.at("winner").at("speedup").get<double>(), 1.25, 0.01);
    auto by_route = statuses(s);
    EXPECT_EQ(by_route.at(""), "ok");
    EXPECT_EQ(by_route.at("-ffast-math=on"), "inaccurate");
    EXPECT_EQ(by_route.at("-march=native"), "ok");
    EXPECT_EQ(s.at("counts").at("inaccurate"), 1);
    double ci_low = s.at("winner").at("speedup_ci95").at(0).get<double>();
    EXPECT_GE(ci_low, 1.02);
}

TEST(TuneCli, FullSearchFindsTheBestCombination) {
    fs::path specs = scratch_specs();
    json s = summary_of(run_cli({"tune", "fake_timed.toml", "--json", "--search", "full", "--routes",
                                 "-O=[2|3] -funroll-loops=[on|off] -march=[x86-64|native]"},
                                specs));
    EXPECT_EQ(s.at("winner").at("route"), "-O=3 -funroll-loops=on -march=native");
    EXPECT_NEAR(s.at("winner").at("speedup").get<double>(), 1.0 / (0.8 * 0.9 * 0.85), 0.02);
    EXPECT_EQ(s.at("counts").at("total"), 8);  // 8 routes, the all-default one being the default
}

TEST(TuneCli, MinimizeKeepsOnlyTheChangesThatPayAndReconfirms) {
    fs::path specs = scratch_specs();
    CliResult tuned = run_cli({"tune", "fake_timed.toml", "--json", "--search", "full", "--minimize", "--routes",
                               "-O=[2|3] -funroll-loops=[on|off] -fgcse=[on|off] -fipa-pta=[on|off]"},
                              specs);
    json s = summary_of(tuned);
    ASSERT_EQ(s.at("outcome"), "improved");
    // The shrinking shows its progress: the first trial removes some of the winner's 4 changes.
    EXPECT_NE(tuned.err.find("minimizing the winner: trial 1, removing "), std::string::npos) << tuned.err;
    EXPECT_NE(tuned.err.find(" of 4 changes, "), std::string::npos) << tuned.err;
    EXPECT_EQ(s.at("winner").at("route").get<std::string>().find("-O=3"), 0u);
    ASSERT_FALSE(s.at("minimal").is_null()) << s.dump();
    EXPECT_EQ(s.at("minimal").at("route"), "-O=3 -funroll-loops=on");  // -fgcse, -fipa-pta: no effect
    EXPECT_NEAR(s.at("minimal").at("speedup").get<double>(), 1.0 / (0.8 * 0.9), 0.03);
    EXPECT_GE(s.at("minimal").at("speedup_ci95").at(0).get<double>(), 1.02);
}

TEST(TuneCli, WithoutMinimizeThereIsNoMinimalRoute) {
    fs::path specs = scratch_specs();
    json s = summary_of(run_cli({"tune", "fake_timed.toml", "--json"}, specs));
    EXPECT_TRUE(s.at("minimal").is_null());
}

TEST(TuneCli, MixedCombinesOnlyConfidentWinnersOfPhaseOne) {
    fs::path specs = scratch_specs();
    json s = summary_of(run_cli({"tune", "fake_timed.toml", "--json", "--search", "mixed"}, specs));
    auto by_route = statuses(s);
    EXPECT_EQ(by_route.count("-O=3 -funroll-loops=on -march=native -param:max-unroll-times=16"), 1u);
    bool combined = false;
    for (const auto& [route, status] : by_route) {
        if (route.find("-ffast-math=on") != std::string::npos && route != "-ffast-math=on")
            ADD_FAILURE() << "an inaccurate value reached phase two: " << route;
        if (route.find("-O=3") != std::string::npos && route.find("-march=native") != std::string::npos) combined = true;
    }
    EXPECT_TRUE(combined);
    EXPECT_NEAR(s.at("winner").at("speedup").get<double>(), 1.0 / (0.8 * 0.9 * 0.95 * 0.85), 0.03);
}

TEST(TuneCli, EveryInjectedFaultLandsInItsOwnStatusAndTheStudyCompletes) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fault_injection.toml", "--json"}, specs);
    json s = summary_of(r);
    auto by_route = statuses(s);
    EXPECT_EQ(by_route.at(""), "ok");
    EXPECT_EQ(by_route.at("-O=3"), "ok");
    EXPECT_EQ(by_route.at("-funroll-loops=on"), "build_failed");
    EXPECT_EQ(by_route.at("-fpeel-loops=on"), "build_crashed");
    EXPECT_EQ(by_route.at("-ftracer=on"), "build_timeout");
    EXPECT_EQ(by_route.at("-fgcse-sm=on"), "run_crashed");
    EXPECT_EQ(by_route.at("-fsplit-paths=on"), "run_timeout");
    EXPECT_EQ(by_route.at("-fipa-pta=on"), "run_failed");
    EXPECT_EQ(by_route.at("-ffast-math=on"), "inaccurate");
    EXPECT_TRUE(s.at("outcome") == "improved" || s.at("outcome") == "default-stays");
    for (const auto& e : s.at("evaluations")) {
        std::string route = e.at("route");
        if (route == "-fpeel-loops=on" || route == "-fgcse-sm=on")
            EXPECT_NE(e.at("message").get<std::string>().find("killed by SIGSEGV (signal 11)"), std::string::npos)
                << route << ": " << e.at("message");
    }
}

TEST(TuneCli, DryRunPrintsCandidatesAndRunsNothing) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fake_timed.toml", "--dry-run"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "(default)\n-O=3\n-ffast-math=on\n-ffast-math=off\n-funroll-loops=on\n-march=native\n"
                     "-param:max-unroll-times=16\n");
    EXPECT_FALSE(fs::exists(specs / ".routetune"));
}

TEST(TuneCli, FullSearchLargerThanMaxRoutesIsRefusedWithExit2) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fake_timed.toml", "--search", "full", "--max-routes", "10"}, specs);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("32 candidates"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--max-routes 10"), std::string::npos) << r.err;
}

TEST(TuneCli, MaxRoutesBoundsTheCandidatesEvaluated) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fake_timed.toml", "--json", "--max-routes", "3"}, specs);
    json s = summary_of(r);
    EXPECT_EQ(s.at("counts").at("total"), 3);  // the default and two candidates
    EXPECT_EQ(s.at("candidates_total"), 3);
    EXPECT_NE(r.err.find("[3/3 100%]"), std::string::npos) << "the progress total agrees: " << r.err;
    EXPECT_EQ(r.err.find("/4"), std::string::npos) << r.err;
}

TEST(TuneCli, OutputWritesTheWinnerWithAManifestThatInspectChecks) {
    fs::path specs = scratch_specs();
    fs::create_directory(specs / "out");  // routetune creates no folder for an output
    CliResult r = run_cli({"tune", "fake_timed.toml", "--output", "out/best"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_TRUE(fs::exists(specs / "out/best"));
    CliResult ok = run_cli({"inspect", "out/best", "--json"}, specs);
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
    json manifest = json::parse(ok.out);
    EXPECT_NE(manifest.dump().find("-O=3"), std::string::npos) << ok.out;
    write_file(specs / "out/best", "tampered");
    CliResult bad = run_cli({"inspect", "out/best"}, specs);
    EXPECT_EQ(bad.exit_code, 1);
}

TEST(TuneCli, ReportReadsTheSameStudyBack) {
    fs::path specs = scratch_specs();
    json tuned = summary_of(run_cli({"tune", "fake_timed.toml", "--json"}, specs));
    CliResult r = run_cli({"report", ".routetune/fake_timed.sqlite", "--format", "json"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json reported = json::parse(r.out);
    EXPECT_EQ(reported.at("winner").at("route"), tuned.at("winner").at("route"));
    EXPECT_EQ(reported.at("counts"), tuned.at("counts"));
    CliResult md = run_cli({"report", ".routetune/fake_timed.sqlite", "--format", "markdown"}, specs);
    EXPECT_NE(md.out.find("| -O=3"), std::string::npos) << md.out;
}

// Start-up asks the compiler once: the catalog cache's key and the fingerprint share the answer.
TEST(TuneCli, TheCompilerIsAskedItsVersionOnce) {
    fs::path specs = scratch_specs();
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--dry-run"}, specs).exit_code, 0);  // the catalog is cached
    fs::path log = specs / "cc.log";
    json s = summary_of(run_cli({"tune", "fake_timed.toml", "--json"}, specs, {{"FAKE_CC_LOG", log.string()}}));
    EXPECT_EQ(s.at("outcome"), "improved");
    std::size_t asked = 0;
    std::size_t builds = 0;
    std::string calls = read_file(log).value_or("");
    for (std::string_view line : split_lines(calls)) {
        asked += line == "--version";
        builds += line.find(" -o ") != std::string::npos;
    }
    EXPECT_EQ(asked, 1u);
    EXPECT_EQ(builds, 7u);
}

// The notes are written before the store closes, so the audit's hash is of the final file.
TEST(TuneCli, TheFinishedAuditEntryHashesTheStoreAsItIsLeft) {
    fs::path specs = scratch_specs();
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml"}, specs).exit_code, 0);
    std::string audit = read_file(specs / ".routetune/fake_timed.sqlite.audit.jsonl").value_or("");
    std::vector<std::string_view> lines = split_lines(audit);
    ASSERT_FALSE(lines.empty());
    json last = json::parse(lines.back());
    ASSERT_EQ(last.at("action"), "tune-finished");
    EXPECT_EQ(last.at("evidence").at("store_sha256"), sha256_file(specs / ".routetune/fake_timed.sqlite").value_or("?"));
}

TEST(TuneCli, KeepArtifactsKeepsEveryEvaluatedBuild) {
    fs::path specs = scratch_specs();
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--keep-artifacts"}, specs).exit_code, 0);
    std::size_t folders = 0;
    for (const auto& entry : fs::directory_iterator(specs / ".routetune/fake_timed.d/work")) folders += entry.is_directory();
    EXPECT_EQ(folders, 7u);
    fs::path plain = scratch_specs();
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml"}, plain).exit_code, 0);
    folders = 0;
    for (const auto& entry : fs::directory_iterator(plain / ".routetune/fake_timed.d/work")) folders += entry.is_directory();
    EXPECT_EQ(folders, 2u);  // the default's and the winner's
}

TEST(TuneCli, ParallelBuildsGiveTheSameStudy) {
    fs::path specs = scratch_specs();
    json s = summary_of(run_cli({"tune", "fake_timed.toml", "--json", "--jobs", "4"}, specs));
    EXPECT_EQ(s.at("winner").at("route"), "-O=3");
    EXPECT_EQ(s.at("counts").at("total"), 7);
    statuses(s);
}

class BadSpec : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(BadSpec, ExitsTwoNamingTheProblem) {
    fs::path specs = scratch_specs();
    auto [file, needle] = GetParam();
    CliResult r = run_cli({"tune", file}, specs);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(specs / ".routetune"));
}

INSTANTIATE_TEST_SUITE_P(
    Specs, BadSpec,
    ::testing::Values(std::pair<std::string, std::string>{"bad_malformed_toml.toml", "bad_malformed_toml.toml:"},
                      std::pair<std::string, std::string>{"bad_unknown_key.toml", "repeat"},
                      std::pair<std::string, std::string>{"bad_unknown_table.toml", "bad_unknown_table.toml:"},
                      std::pair<std::string, std::string>{"bad_enum_timing_source.toml", "process"},
                      std::pair<std::string, std::string>{"bad_enum_accuracy_metric.toml", "rel_l2"},
                      std::pair<std::string, std::string>{"bad_enum_search_mode.toml", "fast"},
                      std::pair<std::string, std::string>{"bad_wrong_type.toml", "bad_wrong_type.toml:"},
                      std::pair<std::string, std::string>{"bad_unknown_placeholder.toml", "{"},
                      std::pair<std::string, std::string>{"bad_missing_input.toml", "bad_missing_input.toml"},
                      std::pair<std::string, std::string>{"bad_route_syntax.toml", "column"},
                      std::pair<std::string, std::string>{"no_such_spec.toml", "no_such_spec.toml"}));

TEST(TuneCli, UnknownKnobInRoutesNamesTheClosestKnobs) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fake_timed.toml", "--routes", "-funrol-loops=[on|off]"}, specs);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("-funroll-loops"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace routetune::e2e

namespace routetune::e2e {
namespace {

// A copy of fake_timed.toml whose runs first note the GPU they were given.
fs::path lane_logging_spec(const fs::path& specs) {
    std::string text = read_file(specs / "fake_timed.toml").value();
    std::string from = "command = [\"{artifact}\", \"{metrics}\", \"{input}\"]";
    std::string to = "command = [\"sh\", \"-c\", \"echo $CUDA_VISIBLE_DEVICES >> \\\"$0\\\"; exec \\\"$1\\\" \\\"$2\\\" \\\"$3\\\"\", "
                     "\"{spec_dir}/lanes.log\", \"{artifact}\", \"{metrics}\", \"{input}\"]";
    text.replace(text.find(from), from.size(), to);
    write_file(specs / "lanes.toml", text);
    return specs / "lanes.toml";
}

TEST(TuneCli, MeasureLanesPinEachLaneToItsGpuAndGiveTheSameStudy) {
    fs::path specs = scratch_specs();
    lane_logging_spec(specs);
    CliResult r = run_cli({"tune", "lanes.toml", "--json", "--jobs", "4", "--measure-lanes", "2"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json s = nlohmann::json::parse(r.out);
    EXPECT_EQ(s.at("winner").at("route"), "-O=3");
    EXPECT_EQ(s.at("counts").at("total"), 7);
    std::string log = read_file(specs / "lanes.log").value();
    EXPECT_NE(log.find("0\n"), std::string::npos) << log;
    EXPECT_NE(log.find("1\n"), std::string::npos) << log;
}

TEST(TuneCli, MeasureLanesNeedReportedTiming) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fault_injection.toml", "--measure-lanes", "2"}, specs);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--measure-lanes 2"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(specs / ".routetune"));
}

}  // namespace
}  // namespace routetune::e2e

namespace routetune::e2e {
namespace {

TEST(TuneCli, AFailingDefaultWithoutGoldenReferencesStopsTheStudy) {
    fs::path specs = scratch_specs();
    std::string text = read_file(specs / "fault_injection.toml").value();
    std::string from = "FAKECC_FAIL_ON = \"-funroll-loops\"";
    text.replace(text.find(from), from.size(), "FAKECC_FAIL_ON = \"-O2\"");
    write_file(specs / "default_fails.toml", text);
    CliResult r = run_cli({"tune", "default_fails.toml"}, specs);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("the default route is build_failed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing can be validated"), std::string::npos) << r.err;
    CliResult report = run_cli({"report", ".routetune/fault_injection.sqlite", "--format", "json"}, specs);
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_EQ(nlohmann::json::parse(report.out).at("outcome"), "no-eligible-route");
}

}  // namespace
}  // namespace routetune::e2e
