// The command line keeps its promises: what a new user runs into first (issue 12, item 4).
// Each test is one promise, checked through the real executable with the fake compilers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

TEST(CliContract, ContinueWithoutAStudyIsBadInputAndSaysSo) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fake_timed.toml", "--continue"}, specs);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("there is no study to continue at"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("[0/"), std::string::npos) << "no stray progress line before the error: " << r.err;
    EXPECT_FALSE(fs::exists(specs / ".routetune" / "fake_timed.sqlite")) << "nothing ran";
}

TEST(CliContract, ARerunSaysItMovedTheOldStudyAside) {
    fs::path specs = scratch_specs();
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--max-routes", "2"}, specs).exit_code, 0);
    CliResult again = run_cli({"tune", "fake_timed.toml", "--max-routes", "2"}, specs);
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.err.find("moved it aside to " + (specs / ".routetune" / "fake_timed.sqlite").string() + "."),
              std::string::npos) << again.err;
    std::size_t old = 0;
    for (const auto& entry : fs::directory_iterator(specs / ".routetune"))
        old += entry.path().string().find(".sqlite.") != std::string::npos && entry.path().extension() == ".old";
    EXPECT_EQ(old, 1u);
}

TEST(CliContract, ReportGivesBackWhatTunePrinted) {
    fs::path specs = scratch_specs();
    CliResult tuned_run = run_cli({"tune", "fake_timed.toml", "--json", "--keep-artifacts"}, specs);
    ASSERT_EQ(tuned_run.exit_code, 0) << tuned_run.err;
    json tuned = json::parse(tuned_run.out);
    CliResult r = run_cli({"report", ".routetune/fake_timed.sqlite", "--format", "json"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json reported = json::parse(r.out);
    EXPECT_EQ(reported.at("metric"), "rel_l2");
    EXPECT_GT(tuned.at("artifact_bytes").get<std::uint64_t>(), 0u);
    for (const char* key : {"metric", "candidates_total", "artifact_bytes", "wall_s", "outcome", "winner", "counts"})
        EXPECT_EQ(reported.at(key), tuned.at(key)) << key;
    EXPECT_NE(tuned.at("wall_s").get<double>(), std::floor(tuned.at("wall_s").get<double>())) << "not rounded";
}

TEST(CliContract, JsonHasNoInfinityStringsAndNotesWhatNullLossesMean) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fault_injection.toml", "--json"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("\"Infinity\""), std::string::npos);
    EXPECT_EQ(r.out.find("\"NaN\""), std::string::npos);
    json s = json::parse(r.out);
    bool nonfinite = false;
    for (const auto& e : s.at("evaluations")) {
        if (!e.contains("loss_nonfinite")) continue;
        nonfinite = true;
        for (const auto& [name, which] : e.at("loss_nonfinite").items()) EXPECT_TRUE(e.at("loss").at(name).is_null());
    }
    EXPECT_TRUE(nonfinite) << "fault_injection has a NaN-printing route";
    EXPECT_NE(s.at("notes").dump().find("null"), std::string::npos);
}

TEST(CliContract, NegatedGccGlobsExplainTheOffValue) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fake_timed.toml", "--dry-run", "--routes", "-fno-unroll*=~"}, specs);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("GCC knobs are named -f<name> and take on|off, so write -funroll*=off"), std::string::npos)
        << r.err;
    CliResult named = run_cli({"expand", "fake_timed.toml", "--routes", "-fno-unroll-loops=on"}, specs);
    EXPECT_EQ(named.exit_code, 2);
    EXPECT_NE(named.err.find("write -funroll-loops=off"), std::string::npos) << named.err;
}

TEST(CliContract, KnobsWithoutSpecOrBaseSaysItsDefaultsAreAtO0) {
    fs::path dir = fs::temp_directory_path();
    CliResult bare = run_cli({"knobs", "--filter", "-funroll-loops"}, dir);
    ASSERT_EQ(bare.exit_code, 0) << bare.err;
    EXPECT_NE(bare.err.find("defaults shown are gcc's at -O0"), std::string::npos) << bare.err;
    CliResult based = run_cli({"knobs", "--base", "-O2", "--filter", "-funroll-loops"}, dir);
    EXPECT_EQ(based.err.find("-O0"), std::string::npos) << based.err;
}

TEST(CliContract, WideTablesShowWholeRoutes) {
    fs::path specs = scratch_specs();
    std::string routes = "-O=[2|3] -funroll-loops=[on|off] -param:max-unroll-times=[8|16] -march=[x86-64|native]";
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--search", "full", "--routes", routes}, specs).exit_code, 0);
    const std::string longest = "-O=3 -funroll-loops=on -march=native -param:max-unroll-times=16";
    CliResult cut = run_cli({"report", ".routetune/fake_timed.sqlite"}, specs);
    CliResult wide = run_cli({"report", ".routetune/fake_timed.sqlite", "--wide"}, specs);
    EXPECT_NE(cut.out.find("…"), std::string::npos) << cut.out;
    EXPECT_EQ(wide.out.find("…"), std::string::npos) << wide.out;
    EXPECT_NE(wide.out.find("  " + longest + " "), std::string::npos) << wide.out;
    EXPECT_NE(wide.out.find("artifacts  "), std::string::npos);
    EXPECT_NE(wide.out.find(" KiB kept"), std::string::npos) << "human units: " << wide.out;
}

TEST(CliContract, InspectOfAPlainBuildSaysItWasBuilt) {
    fs::path specs = scratch_specs();
    fs::create_directories(specs / "out");
    CliResult built = run_cli({"build", "fake_timed.toml", "--route", "-O=3", "--output", "out/o3"}, specs);
    ASSERT_EQ(built.exit_code, 0) << built.err;
    CliResult r = run_cli({"inspect", "out/o3"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("outcome     built"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("unfinished"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("not measured"), std::string::npos) << r.out;
}

TEST(CliContract, DryRunJsonIsJsonForEveryStrategy) {
    fs::path specs = scratch_specs();
    for (const char* search : {"fast", "full", "mixed", "random", "greedy", "evolve", "model", "auto"}) {
        CliResult r = run_cli({"tune", "fake_timed.toml", "--dry-run", "--json", "--search", search}, specs);
        ASSERT_EQ(r.exit_code, 0) << search << ": " << r.err;
        json plan = json::parse(r.out, nullptr, false);
        ASSERT_FALSE(plan.is_discarded()) << search << " printed: " << r.out;
        EXPECT_EQ(plan.at("mode"), search);
        EXPECT_EQ(plan.at("schema_version"), 1);
        EXPECT_EQ(plan.at("space"), 32);
        EXPECT_EQ(plan.at("space_exact"), "32");
        EXPECT_TRUE(plan.contains("candidates"));
    }
    EXPECT_FALSE(fs::exists(specs / ".routetune"));
}

TEST(CliContract, DryRunContinueListsWhatRemains) {
    fs::path specs = scratch_specs();
    CliResult none = run_cli({"tune", "fake_timed.toml", "--dry-run", "--continue"}, specs);
    EXPECT_EQ(none.exit_code, 2);
    ASSERT_EQ(run_cli({"tune", "fake_timed.toml", "--max-routes", "3"}, specs).exit_code, 0);
    CliResult r = run_cli({"tune", "fake_timed.toml", "--dry-run", "--continue", "--json"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json plan = json::parse(r.out);
    EXPECT_EQ(plan.at("finished"), 3);
    EXPECT_EQ(plan.at("candidates"), json::array({"-ffast-math=off", "-funroll-loops=on", "-march=native",
                                                  "-param:max-unroll-times=16"}));
    CliResult text = run_cli({"tune", "fake_timed.toml", "--dry-run", "--continue"}, specs);
    EXPECT_EQ(text.out, "# 3 finished in the store; remaining:\n-ffast-math=off\n-funroll-loops=on\n-march=native\n"
                        "-param:max-unroll-times=16\n");
}

TEST(CliContract, ANoisyDefaultIsWarnedAboutAndTheOutcomeSaysWhy) {
    fs::path specs = scratch_specs();
    std::string spec = read_file(specs / "fake_timed.toml").value_or("");
    auto at = spec.find("min_gain = 0.02");
    ASSERT_NE(at, std::string::npos);
    spec.replace(at, 15, "min_gain = 0.001");  // the fake's jitter makes the default's interval 1% wide
    write_file(specs / "strict.toml", spec);
    CliResult r = run_cli({"tune", "strict.toml", "--max-routes", "2"}, specs);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("warning: the default's paired A/A interval (its runs paired with more of its own) is ["),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("wider than min_gain 0.1%"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("reported"), std::string::npos) << "the spec already uses reported timing: " << r.err;
    EXPECT_EQ(r.err.find("warning: the default's"), r.err.rfind("warning: the default's")) << "said once: " << r.err;
    EXPECT_NE(r.out.find("\nwhy "), std::string::npos) << "the table says why: " << r.out;
    CliResult calm = run_cli({"tune", "fake_timed.toml", "--max-routes", "2"}, specs);
    EXPECT_EQ(calm.err.find("warning: the default's"), std::string::npos) << calm.err;
}

TEST(CliContract, StoppingAtTheTimeLimitIsSaid) {
    fs::path specs = scratch_specs();
    CliResult r = run_cli({"tune", "fake_timed.toml", "--time-limit", "1s"}, specs, {{"FAKE_RUN_SLEEP_S", "0.1"}});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("time limit reached (1s): stopped after "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace routetune::e2e
