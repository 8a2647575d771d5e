// End-to-end: `tune --time-limit` ends the study soon after the limit. fake_timed.toml (reported
// timing: builds run ahead of the one measurement lane) with quick builds, one build that
// hangs, and measurements of about 1 s each; --jobs 4 builds every candidate during the
// default's measurement. After the limit (1 s) nothing new starts: the hung build is cancelled, the
// built candidates are left pending (not finished in the store), and `tune --continue`
// evaluates them.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <set>

#include "e2e/cli_harness.hpp"
#include "store/study_store.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

// fake_timed.toml with 3 runs per case (2 cases) and a short confirmation.
fs::path quick_confirmation_spec(const fs::path& specs) {
    std::string spec = read_file(specs / "fake_timed.toml").value_or("");
    const std::string timing = "warmup = 1\nrepeats = 5\n";
    auto at = spec.find(timing);
    EXPECT_NE(at, std::string::npos) << "fake_timed.toml's [timing] changed";
    if (at != std::string::npos) spec.replace(at, timing.size(), "warmup = 0\nrepeats = 3\nconfirm_top = 1\nconfirm_rounds = 2\n");
    write_file(specs / "time_limited.toml", spec);
    return specs / "time_limited.toml";
}

std::set<std::string> routes_with(const fs::path& cache, bool pending) {
    std::set<std::string> routes;
    std::unique_ptr<StudyStore> store = StudyStore::open_read_only(cache);
    for (const auto& e : store->evaluations(CaseRows::Skip)) {
        if ((e.status == Status::Pending) == pending) routes.insert(e.route.to_string());
    }
    return routes;
}

TEST(TimeLimitCli, TheStudyEndsSoonAfterTheLimitAndContinueEvaluatesWhatWasLeft) {
    fs::path specs = scratch_specs();
    fs::path spec = quick_confirmation_spec(specs);
    fs::path cache = specs / ".routetune/fake_timed.sqlite";  // named after the spec's name
    constexpr double kRunSleep = 0.1;  // a measurement: 6 runs, about 0.6 s
    std::map<std::string, std::string> env{{"FAKE_RUN_SLEEP_S", std::to_string(kRunSleep)},
                                           {"FAKE_BUILD_HANG_ON", "-march=native"}, {"FAKE_BUILD_HANG_S", "100"}};
    ASSERT_EQ(run_cli({"knobs", spec.filename().string()}, specs).exit_code, 0);  // discovery before the clock
    auto start = std::chrono::steady_clock::now();
    CliResult limited =
        run_cli({"tune", spec.filename().string(), "--jobs", "4", "--time-limit", "1s", "--json"}, specs, env);
    double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(limited.exit_code, 0) << limited.err;
    // The hung build would end at its 30 s timeout, the candidates built ahead take about
    // 0.6 s each to measure; what may run past the limit is the measurement in flight and the
    // confirmation.
    EXPECT_LT(wall_s, 1 + 6 * kRunSleep + 4) << limited.err;
    std::cerr << "time-limited run: " << wall_s << " s\n";
    std::size_t planned = json::parse(limited.out).at("candidates_total").get<std::size_t>();

    std::set<std::string> pending = routes_with(cache, true);
    std::set<std::string> finished = routes_with(cache, false);
    EXPECT_GE(pending.size(), 2u) << "the candidates built ahead were measured after the limit";
    EXPECT_EQ(pending.count("-march=native"), 1u) << "the hung build was not left pending";
    for (const auto& route : pending) EXPECT_EQ(finished.count(route), 0u) << route << " is finished too";
    EXPECT_EQ(finished.size() + pending.size(), planned);
    EXPECT_NE(limited.err.find("time limit reached (1s): stopped after " + std::to_string(finished.size()) +
                               " evaluations of " + std::to_string(planned) + " planned; " + std::to_string(pending.size()) +
                               " candidates built or building not measured, left pending for `tune --continue`"),
              std::string::npos)
        << limited.err;

    env.erase("FAKE_BUILD_HANG_ON");
    CliResult resumed = run_cli({"tune", spec.filename().string(), "--continue", "--jobs", "4", "--json"}, specs, env);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_EQ(routes_with(cache, true), std::set<std::string>{}) << "something is still pending";
    std::set<std::string> now_finished = routes_with(cache, false);
    for (const auto& route : pending) EXPECT_EQ(now_finished.count(route), 1u) << route << " was not evaluated";
    json summary = json::parse(resumed.out);
    EXPECT_EQ(summary.at("winner").at("route"), "-O=3") << resumed.out;
    EXPECT_EQ(summary.at("evaluations").size(), planned) << "a route was evaluated twice";
}

// The whole command within its limit: slow fake builds (0.3 s) and runs (0.1 s a run, 0.2 s a
// round of both cases; paired timing doubles the runs of every search-phase measurement, the
// default's included); the confirmation (2 rounds of the default and one route) and one paired
// measurement are reserved from the default's timed runs, so the search stops early enough for
// it, the candidates not measured stay pending, and the study still ends with a confirmed winner
// within the limit.
TEST(TimeLimitCli, AStudyEndsWithinItsLimitWithAConfirmedResult) {
    fs::path specs = scratch_specs();
    fs::path spec = quick_confirmation_spec(specs);
    std::map<std::string, std::string> env{{"FAKE_RUN_SLEEP_S", "0.1"}, {"FAKE_BUILD_SLEEP_S", "0.3"}, {"FAKE_JITTER", "0"}};
    ASSERT_EQ(run_cli({"knobs", spec.filename().string()}, specs).exit_code, 0);  // discovery before the clock
    constexpr double kLimit = 6;
    auto start = std::chrono::steady_clock::now();
    CliResult r = run_cli({"tune", spec.filename().string(), "--jobs", "2", "--time-limit", "6s", "--json"}, specs, env);
    double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json s = json::parse(r.out);
    EXPECT_EQ(s.at("outcome"), "improved") << r.err;
    EXPECT_EQ(s.at("winner").at("route"), "-O=3");
    EXPECT_LE(s.at("time").at("wall_s").get<double>(), kLimit) << r.err;
    EXPECT_TRUE(s.at("time").at("within_limit").get<bool>());
    EXPECT_GT(s.at("time").at("confirmation_reserve_s").get<double>(), 0.8) << "2 passes x 2 routes x 0.2 s, and a measurement";
    EXPECT_GT(s.at("time").at("confirmation_s").get<double>(), 0);
    EXPECT_EQ(s.at("time").at("confirmation_deadline_s").get<double>(), kLimit) << "no warm processes to close after it";
    EXPECT_LT(wall_s, kLimit + 1) << "the process (startup and catalog included) ran well past the limit";
    std::size_t measured = 0;
    for (const auto& e : s.at("evaluations")) measured += e.at("status") != "pending";
    EXPECT_LT(measured, s.at("candidates_total").get<std::size_t>()) << "the limit cut nothing: the test shows nothing";
    EXPECT_NE(r.err.find(" s of the 6s --time-limit; the search kept "), std::string::npos) << r.err;
}

// The wall time reported against the limit is the whole command's: the setup before the study
// (here the compiler's discovery, a few seconds for a compiler path not seen before) counts.
TEST(TimeLimitCli, TheWallTimeAgainstTheLimitIsTheWholeCommands) {
    fs::path specs = scratch_specs();  // a new path of fake_timed_cc: discovery runs again
    fs::path spec = quick_confirmation_spec(specs);
    auto start = std::chrono::steady_clock::now();
    CliResult r = run_cli({"tune", spec.filename().string(), "--time-limit", "10m", "--json"}, specs, {{"FAKE_JITTER", "0"}});
    double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    double reported = json::parse(r.out).at("time").at("wall_s").get<double>();
    EXPECT_LE(reported, wall_s);
    EXPECT_GT(reported, wall_s - 0.5) << "the reported wall time leaves out the setup (" << wall_s - reported << " s)";
}

// quick_confirmation_spec whose confirmation builds every route three times afresh, one build at
// a time: with builds of 1 s (FAKE_BUILD_SLEEP_S) it needs about 6 s.
fs::path rebuilding_confirmation_spec(const fs::path& specs) {
    fs::path spec = quick_confirmation_spec(specs);
    std::string text = read_file(spec).value_or("");
    text.replace(text.find("confirm_rounds = 2\n"), 19, "confirm_rounds = 2\nconfirm_rebuild = true\nconfirm_builds = 3\n");
    write_file(spec, text);
    return spec;
}

std::size_t measured_evaluations(const json& summary) {
    std::size_t measured = 0;
    for (const auto& e : summary.at("evaluations")) measured += e.at("status") != "pending";
    return measured;
}

// The limit the outcome's message gives for `tune --continue` ("... a limit of at least 7 s
// confirms ..."); 0 when it gives none.
double continue_limit_s(const std::string& message) {
    const std::string lead = "`tune --continue` with a limit of at least ";
    auto at = message.find(lead);
    return at == std::string::npos ? 0 : std::stod(message.substr(at + lead.size()));
}

// A limit that cannot hold even the confirmation (three fresh builds of each route at 1 s each,
// one at a time: about 6 s, with a 5 s limit) is said as soon as the default's cost is known; the
// search then uses the limit (each candidate builds for 1 s and measures in a moment), and
// nothing is confirmed: the outcome says what the confirmation needs and the limit with which
// `tune --continue` confirms.
TEST(TimeLimitCli, ALimitTooShortForTheConfirmationIsSaidOnceTheDefaultIsMeasuredAndTheSearchUsesIt) {
    fs::path specs = scratch_specs();
    fs::path spec = rebuilding_confirmation_spec(specs);
    ASSERT_EQ(run_cli({"knobs", spec.filename().string()}, specs).exit_code, 0);  // discovery's probes without the sleep
    constexpr double kLimit = 5;
    auto start = std::chrono::steady_clock::now();
    CliResult r = run_cli({"tune", spec.filename().string(), "--time-limit", "5s", "--json"}, specs, {{"FAKE_BUILD_SLEEP_S", "1"}});
    double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json s = json::parse(r.out);
    EXPECT_EQ(s.at("outcome"), "unfinished") << r.err;
    EXPECT_TRUE(s.at("winner").is_null()) << s.at("winner").dump();
    std::size_t measured = measured_evaluations(s);
    EXPECT_GT(measured, 1u) << "no candidate was searched: " << r.err;
    auto notice = r.err.find("the confirmation needs about");
    ASSERT_NE(notice, std::string::npos) << r.err;
    EXPECT_NE(r.err.find("waves of fresh builds", notice), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the search goes on to the limit and nothing is confirmed", notice), std::string::npos) << r.err;
    // The progress lines ("  <status>  <route>"): the default's comes before the notice, every candidate's after it.
    auto default_line = r.err.find("  ok  (default)\n");
    ASSERT_NE(default_line, std::string::npos) << r.err;
    EXPECT_LT(default_line, notice) << r.err;
    EXPECT_LT(notice, r.err.find("\n  ", default_line)) << "said after a candidate was measured: " << r.err;
    std::string message = s.at("message").get<std::string>();
    EXPECT_NE(message.find("the confirmation needs about"), std::string::npos) << message;
    EXPECT_NE(message.find("nothing is confirmed; the search used the limit and has evaluated " +
                           std::to_string(measured - 1) + " candidate"),
              std::string::npos)
        << message;
    EXPECT_GT(continue_limit_s(message), 6) << "the confirmation alone needs 6 s of builds: " << message;
    EXPECT_LE(s.at("time").at("wall_s").get<double>(), kLimit + 0.5) << r.err;
    EXPECT_LT(wall_s, kLimit + 2) << "the process ran well past the limit: " << r.err;
}

// After a study whose confirmation did not fit (10 interleaved rounds of 0.2 s against a 5 s
// limit, each search measurement about 1.2 s: 3 runs paired with 3 of the default), `tune
// --continue` with the limit the outcome names confirms the best route: nothing the search
// measured is measured or built again (the confirmation reuses the kept artifacts), and the
// command ends within that limit. Its builds hang (30 s): a candidate the search starts in the
// moment that limit leaves it is cancelled, and a rebuild of the winner would show.
TEST(TimeLimitCli, ContinueWithTheLimitTheOutcomeNamesConfirmsWhatTheSearchMeasured) {
    fs::path specs = scratch_specs();
    fs::path spec = quick_confirmation_spec(specs);
    std::string text = read_file(spec).value_or("");
    text.replace(text.find("confirm_rounds = 2\n"), 19, "confirm_rounds = 10\n");
    write_file(spec, text);
    fs::path cache = specs / ".routetune/fake_timed.sqlite";
    fs::path compiler_log = specs / "compiler.log";
    std::map<std::string, std::string> env{{"FAKE_RUN_SLEEP_S", "0.1"}, {"FAKE_JITTER", "0"}};
    ASSERT_EQ(run_cli({"knobs", spec.filename().string()}, specs).exit_code, 0);  // discovery before the clock
    CliResult limited = run_cli({"tune", spec.filename().string(), "--time-limit", "5s", "--json"}, specs, env);
    ASSERT_EQ(limited.exit_code, 0) << limited.err;
    json first = json::parse(limited.out);
    ASSERT_EQ(first.at("outcome"), "unfinished") << limited.err;
    double limit_s = continue_limit_s(first.at("message").get<std::string>());
    ASSERT_GT(limit_s, 4) << first.at("message");
    std::map<std::string, std::string> measured;  // route -> finished_at
    for (const auto& e : StudyStore::open_read_only(cache)->evaluations(CaseRows::Skip)) {
        if (e.status != Status::Pending) measured[e.route.to_string()] = e.finished_at;
    }
    ASSERT_EQ(measured.count("-O=3"), 1u) << "the test needs the winner measured in the search: " << limited.err;

    env["FAKE_CC_LOG"] = compiler_log.string();
    env["FAKE_BUILD_SLEEP_S"] = "30";
    std::string limit = std::to_string(static_cast<int>(limit_s)) + "s";
    CliResult resumed =
        run_cli({"tune", spec.filename().string(), "--continue", "--time-limit", limit, "--json"}, specs, env);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    json s = json::parse(resumed.out);
    EXPECT_EQ(s.at("outcome"), "improved") << resumed.err;
    EXPECT_EQ(s.at("winner").at("route"), "-O=3") << resumed.out;
    EXPECT_GT(s.at("time").at("confirmation_s").get<double>(), 0) << resumed.err;
    EXPECT_TRUE(s.at("time").at("within_limit").get<bool>()) << resumed.err;
    for (const auto& e : StudyStore::open_read_only(cache)->evaluations(CaseRows::Skip)) {
        auto before = measured.find(e.route.to_string());
        if (before != measured.end()) EXPECT_EQ(e.finished_at, before->second) << before->first << " was evaluated again";
    }
    for (const auto& [route, finished_at] : measured) {
        if (!route.empty()) EXPECT_EQ(resumed.err.find("  " + route + "\n"), std::string::npos) << route << ": " << resumed.err;
    }
    EXPECT_EQ(read_file(compiler_log).value_or("").find(" -O3 "), std::string::npos) << "-O=3 was built again";
}

// A search that uses the limit and measures no candidate the confirmation would take (min_gain
// 30%: the fastest accurate route is 1.25x) ends with the default staying, which costs no
// measurement, not unfinished.
TEST(TimeLimitCli, ASearchThatUsedTheLimitAndFoundNothingToConfirmLeavesTheDefault) {
    fs::path specs = scratch_specs();
    fs::path spec = rebuilding_confirmation_spec(specs);
    std::string text = read_file(spec).value_or("");
    text.replace(text.find("min_gain = 0.02\n"), 16, "min_gain = 0.3\n");
    write_file(spec, text);
    ASSERT_EQ(run_cli({"knobs", spec.filename().string()}, specs).exit_code, 0);  // discovery's probes without the sleep
    CliResult r = run_cli({"tune", spec.filename().string(), "--time-limit", "5s", "--json"}, specs, {{"FAKE_BUILD_SLEEP_S", "1"}});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("the search goes on to the limit and nothing is confirmed"), std::string::npos) << r.err;
    json s = json::parse(r.out);
    EXPECT_EQ(s.at("outcome"), "default-stays") << s.at("message");
    EXPECT_GT(measured_evaluations(s), 1u) << r.err;
}

// A limit shorter than the default's own build (every build sleeps 30 s, the limit is 2 s): the
// default's build is stopped at the limit like any other, the study ends unfinished saying so,
// nothing is measured, and `tune --continue` with quick builds evaluates the default and the rest.
TEST(TimeLimitCli, ALimitThatEndsDuringTheDefaultsBuildStopsIt) {
    fs::path specs = scratch_specs();
    fs::path spec = quick_confirmation_spec(specs);
    fs::path cache = specs / ".routetune/fake_timed.sqlite";
    ASSERT_EQ(run_cli({"knobs", spec.filename().string()}, specs).exit_code, 0);  // discovery's probes without the sleep
    auto start = std::chrono::steady_clock::now();
    CliResult r = run_cli({"tune", spec.filename().string(), "--jobs", "2", "--time-limit", "2s", "--json"}, specs,
                          {{"FAKE_BUILD_SLEEP_S", "30"}});
    double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_LT(wall_s, 2 + 4) << "the default's build ran on past the limit: " << r.err;
    json s = json::parse(r.out);
    EXPECT_EQ(s.at("outcome"), "unfinished") << r.out;
    EXPECT_TRUE(s.at("default").is_null()) << s.at("default").dump();
    EXPECT_NE(s.at("message").get<std::string>().find("while the default route was still building"), std::string::npos)
        << s.dump(2);
    EXPECT_EQ(routes_with(cache, false), std::set<std::string>{}) << "something was measured";

    CliResult resumed = run_cli({"tune", spec.filename().string(), "--continue", "--jobs", "2", "--json"}, specs);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_EQ(routes_with(cache, true), std::set<std::string>{}) << "something is still pending";
    EXPECT_EQ(json::parse(resumed.out).at("default").at("status"), "ok") << resumed.out;
}

}  // namespace
}  // namespace routetune::e2e
