// End-to-end tests of interruption and resume: kill -9 at several points and Ctrl-C, then
// --continue, against an uninterrupted run of the same deterministic study; and a changed
// environment fingerprint, which --continue refuses with exit 3.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "store/study_store.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// A study long enough to interrupt: each run sleeps, so evaluations finish ~0.2 s apart.
const std::map<std::string, std::string> kSlowRuns{{"FAKE_RUN_SLEEP_S", "0.02"}};

std::size_t finished_in(const fs::path& cache) {
    if (!fs::exists(cache)) return 0;
    try {
        std::unique_ptr<StudyStore> store = StudyStore::open_read_only(cache);
        std::size_t n = 0;
        for (const auto& e : store->evaluations(CaseRows::Skip)) n += e.status != Status::Pending;
        return n;
    } catch (const std::exception&) {
        return 0;
    }
}

bool wait_for(const std::function<bool()>& condition, std::chrono::seconds limit = 60s) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition()) return true;
        std::this_thread::sleep_for(20ms);
    }
    return false;
}

std::map<std::string, std::pair<std::string, double>> outcomes(const json& s) {
    std::map<std::string, std::pair<std::string, double>> by_route;
    for (const auto& e : s.at("evaluations")) {
        std::string route = e.at("route");
        EXPECT_EQ(by_route.count(route), 0u) << "evaluated twice: " << route;
        // Only an ok route's time is a median of exact repeats; an inaccurate one keeps its
        // single first-round time, which depends on where the fake's jitter cycle stood.
        bool ok = e.at("status") == "ok";
        by_route[route] = {e.at("status"), ok ? e.at("time").get<double>() : -1.0};
    }
    return by_route;
}

std::vector<std::string> full_args() {
    return {"tune", "fake_timed.toml", "--search", "full", "--routes",
            "-O=[2|3] -funroll-loops=[on|off] -march=[x86-64|native] -ffast-math=[on|off]"};
}

TEST(ResumeCli, KillNineAtSeveralPointsThenContinueMatchesAnUninterruptedRun) {
    fs::path reference_specs = scratch_specs();
    std::vector<std::string> json_args = full_args();
    json_args.push_back("--json");
    CliResult whole = run_cli(json_args, reference_specs, kSlowRuns);
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    json expected = json::parse(whole.out);

    fs::path specs = scratch_specs();
    fs::path cache = specs / ".routetune/fake_timed.sqlite";
    std::size_t kill_points[] = {1, 4, 9};
    bool first = true;
    for (std::size_t point : kill_points) {
        std::vector<std::string> args = full_args();
        if (!first) args.push_back("--continue");
        first = false;
        BackgroundCli cli(args, specs, kSlowRuns);
        ASSERT_TRUE(wait_for([&] { return finished_in(cache) >= point || !cli.running(); })) << point;
        cli.signal(SIGKILL);
        cli.wait();
        EXPECT_GE(finished_in(cache), point);
    }
    json_args.push_back("--continue");
    CliResult rest = run_cli(json_args, specs, kSlowRuns);
    ASSERT_EQ(rest.exit_code, 0) << rest.err;
    json resumed = json::parse(rest.out);
    EXPECT_EQ(outcomes(resumed), outcomes(expected));
    EXPECT_EQ(resumed.at("winner").at("route"), expected.at("winner").at("route"));
    EXPECT_NEAR(resumed.at("winner").at("speedup").get<double>(), expected.at("winner").at("speedup").get<double>(), 0.01);
}

TEST(ResumeCli, ContinueAfterAFinishedStudyRunsNothingAgain) {
    fs::path specs = scratch_specs();
    std::map<std::string, std::string> env{{"FAKE_CC_LOG", (specs / "builds.log").string()}};
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml"}, specs, env).exit_code, 0);
    auto lines = [&] {
        std::ifstream in(specs / "builds.log");
        std::size_t n = 0;
        for (std::string line; std::getline(in, line);) n += line.find("tiny.c") != std::string::npos;
        return n;
    };
    std::size_t builds = lines();
    EXPECT_EQ(builds, 7u);
    CliResult again = run_cli({"tune", "fake_timed.toml", "--continue", "--json"}, specs, env);
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(lines(), builds);
    EXPECT_EQ(json::parse(again.out).at("winner").at("route"), "-O=3");
}

TEST(ResumeCli, CtrlCSavesStateExits130AndContinueFinishes) {
    fs::path specs = scratch_specs();
    fs::path cache = specs / ".routetune/fake_timed.sqlite";
    {
        BackgroundCli cli(full_args(), specs, kSlowRuns);
        ASSERT_TRUE(wait_for([&] { return finished_in(cache) >= 3; }));
        cli.signal(SIGINT);
        EXPECT_EQ(cli.wait(), 130);
    }
    std::ifstream log(specs / "background.log");
    std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("--continue"), std::string::npos) << text;
    EXPECT_NE(text.find("planned evaluations remain"), std::string::npos) << text;
    EXPECT_EQ(text.find("[0/"), std::string::npos) << "no stray progress line after Ctrl-C: " << text;
    std::size_t saved = finished_in(cache);
    EXPECT_GE(saved, 3u);
    std::vector<std::string> args = full_args();
    args.push_back("--continue");
    args.push_back("--json");
    CliResult rest = run_cli(args, specs, kSlowRuns);
    ASSERT_EQ(rest.exit_code, 0) << rest.err;
    EXPECT_EQ(json::parse(rest.out).at("counts").at("total"), 17);  // the default and 16 routes
}

TEST(ResumeCli, ChangedCompilerIsRefusedWithExit3) {
    fs::path specs = scratch_specs();
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--max-routes", "2"}, specs).exit_code, 0);
    std::ofstream(specs / "../../fakes/fake_timed_cc", std::ios::app) << "\n# a changed compiler\n";
    CliResult r = run_cli({"tune", "fake_timed.toml", "--continue"}, specs);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("compiler.sha256"), std::string::npos) << r.err;
    CliResult forced = run_cli({"tune", "fake_timed.toml", "--continue", "--ignore-fingerprint"}, specs);
    EXPECT_EQ(forced.exit_code, 0) << forced.err;
}

TEST(ResumeCli, ANewStudyMovesTheOldOneAsideInsteadOfOverwritingIt) {
    fs::path specs = scratch_specs();
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--max-routes", "1"}, specs).exit_code, 0);
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--max-routes", "1"}, specs).exit_code, 0);
    std::size_t old_studies = 0;
    for (const auto& entry : fs::directory_iterator(specs / ".routetune")) {
        old_studies += entry.path().filename().string().find(".sqlite.") != std::string::npos &&
                       entry.path().extension() == ".old";
    }
    EXPECT_EQ(old_studies, 1u);
}

}  // namespace
}  // namespace routetune::e2e
