// What a running study tells its user (issue 12, item 4): the confirmation's own progress, a
// build cut at the relative limit, the metric named before the study ends, kept bytes split
// into binaries and outputs, and the vs-default figure with its interval. Each test runs the
// real executable with the fake compilers (tests/fakes/README.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "e2e/cli_harness.hpp"
#include "e2e/hung_build_checks.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

// fake_timed.toml with text inserted after the line that starts with after.
fs::path edited_spec(const fs::path& specs, const std::string& after, const std::string& text, const std::string& name) {
    std::string spec = read_file(specs / "fake_timed.toml").value_or("");
    auto at = spec.find(after);
    EXPECT_NE(at, std::string::npos) << after;
    spec.insert(spec.find('\n', at) + 1, text);
    write_file(specs / name, spec);
    return specs / name;
}

TEST(StudyFeedback, TheConfirmationShowsItsOwnProgressAndTheFinalLineComesLast) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fake_timed.toml"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // -O=3, -march=native and -funroll-loops=on beat the default by 2%: confirm_top 3, 10 rounds.
    auto first = r.err.find("confirming 3 routes against the default: warm-up pass");
    auto last = r.err.find("confirming 3 routes against the default: round 10/10");
    EXPECT_NE(first, std::string::npos) << r.err;
    EXPECT_NE(r.err.find("confirming 3 routes against the default: round 1/10"), std::string::npos) << r.err;
    ASSERT_NE(last, std::string::npos) << r.err;
    EXPECT_NE(r.err.find("100%] ok 6, failed 1", last), std::string::npos) << "the final counters come last: " << r.err;
}

TEST(StudyFeedback, ABuildIsCutAtTheRelativeLimitOfTheDefaultsBuildTime) {
    fs::path specs = scratch_specs();
    hung_build_spec(specs, "slow_builds.toml");
    auto started = std::chrono::steady_clock::now();
    CliResult r = run_cli({"tune", "slow_builds.toml", "--json"}, specs);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_hung_build_cut_at_relative_limit(json::parse(r.out));
    EXPECT_LT(took, 60) << "the hung build did not hold the study for its 100 s";
}

TEST(StudyFeedback, RelativeTimeoutFloorsAreRangeCheckedSpecKeys) {
    fs::path specs = scratch_specs();
    edited_spec(specs, "relative_timeout = 0", "relative_timeout_floor_s = -1\n", "bad_floor.toml");
    CliResult r = run_cli({"tune", "bad_floor.toml", "--dry-run"}, specs);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("relative_timeout_floor_s"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at least 0"), std::string::npos) << r.err;
}

TEST(StudyFeedback, ARunningStudyNamesItsMetric) {
    fs::path specs = scratch_specs();
    BackgroundCli tune({"tune", "fake_timed.toml"}, specs, {{"FAKE_RUN_SLEEP_S", "0.3"}});
    json reported;
    for (int i = 0; i < 300 && tune.running(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (!fs::exists(specs / ".routetune" / "fake_timed.sqlite")) continue;
        CliResult r = run_cli({"report", ".routetune/fake_timed.sqlite", "--format", "json"}, specs);
        if (r.exit_code != 0) continue;
        reported = json::parse(r.out, nullptr, false);
        if (!reported.is_discarded() && !reported.at("evaluations").empty()) break;
    }
    ASSERT_TRUE(tune.running()) << "the study ended before a report of it running was taken";
    ASSERT_TRUE(reported.is_object());
    EXPECT_EQ(reported.at("outcome"), "unfinished");
    EXPECT_EQ(reported.at("metric"), "rel_l2");
}

TEST(StudyFeedback, KeptBytesAreSplitIntoBinariesAndOutputsEverywhere) {
    fs::path specs = scratch_specs();
    CliResult tuned = run_cli({"tune", "fake_timed.toml", "--json", "--keep-artifacts"}, specs);
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    json s = json::parse(tuned.out);
    auto binaries = s.at("binary_bytes").get<std::uint64_t>();
    auto outputs = s.at("output_bytes").get<std::uint64_t>();
    EXPECT_GT(binaries, 0u);
    EXPECT_GT(outputs, 0u);
    EXPECT_EQ(binaries + outputs, s.at("artifact_bytes").get<std::uint64_t>());
    json reported = json::parse(run_cli({"report", ".routetune/fake_timed.sqlite", "--format", "json"}, specs).out);
    EXPECT_EQ(reported.at("binary_bytes"), binaries);
    EXPECT_EQ(reported.at("output_bytes"), outputs);
    std::regex split(R"(\(binaries [0-9.]+ (B|KiB), outputs [0-9.]+ (B|KiB)\))");
    for (const char* format : {"table", "markdown", "html"}) {
        CliResult r = run_cli({"report", ".routetune/fake_timed.sqlite", "--format", format}, specs);
        EXPECT_TRUE(std::regex_search(r.out, split)) << format << ":\n" << r.out.substr(0, 4000);
    }
}

TEST(StudyFeedback, VsDefaultCarriesItsInterval) {
    fs::path specs = scratch_specs();
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml"}, specs).exit_code, 0);
    // -O=3 is 100/80 = 1.25 × the default; the fake's jitter is at most 0.5%.
    std::regex with_interval(R"(1\.2[4-6]× \[1\.2[0-9], 1\.2[0-9]\])");
    for (const char* format : {"table", "markdown"}) {
        CliResult r = run_cli({"report", ".routetune/fake_timed.sqlite", "--format", format}, specs);
        EXPECT_TRUE(std::regex_search(r.out, with_interval)) << format << ":\n" << r.out;
    }
}

}  // namespace
}  // namespace routetune::e2e
