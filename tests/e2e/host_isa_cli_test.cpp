// The host-ISA filter end to end: the built routetune with the real gcc behind fakecc, whose
// FAKECC_NATIVE_MARCH makes `-march=native` mean a CPU these tests know (x86-64-v2: SSE4.2,
// no AVX; haswell: AVX2, no AVX-512), so the expectations hold on any x86-64 machine. The
// two "machines" share one catalog cache, as machines with different CPUs may.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "util/process.hpp"

namespace routetune::e2e {
namespace {

class HostIsaCli : public ::testing::Test {
protected:
    void SetUp() override {
        ProcessSpec machine;
        machine.argv = {"gcc", "-dumpmachine"};
        auto result = run_process(machine);
        if (!result.succeeded() || !result.out.starts_with("x86_64")) GTEST_SKIP() << "needs an x86-64 gcc";
        dir_ = fs::temp_directory_path() / ("routetune-host-isa-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        write_spec("spec.toml", "");
        write_spec("cross.toml", "host_isa_only = false\n");
    }
    void TearDown() override {
        if (!dir_.empty()) fs::remove_all(dir_);
    }

    void write_spec(const std::string& name, const std::string& compiler_extra) {
        std::string text = "name = \"hostisa\"\n[compiler]\nadapter = \"gcc\"\npath = \"" + std::string(ROUTETUNE_FAKES) +
                           "/fakecc\"\nbase = [\"-O2\"]\n" + compiler_extra +
                           "[build]\ncommand = [\"{compiler}\", \"{flags}\", \"tiny.c\", \"-o\", \"{artifact}\"]\n"
                           "[run]\ncommand = [\"{artifact}\"]\n[[case]]\nname = \"tiny\"\n"
                           "[search]\nroutes = \"-march=~\"\n";
        ASSERT_TRUE(write_file(dir_ / name, text));
    }

    CliResult run(std::vector<std::string> args, const std::string& native = "x86-64-v2") {
        return run_cli(args, dir_, {{"FAKECC_NATIVE_MARCH", native}});
    }

    static std::vector<std::string> candidates(const CliResult& result) {
        return nlohmann::json::parse(result.out).at("candidates").get<std::vector<std::string>>();
    }

    static bool has(const std::vector<std::string>& routes, const std::string& route) {
        return std::find(routes.begin(), routes.end(), route) != routes.end();
    }

    fs::path dir_;
};

TEST_F(HostIsaCli, TildeLeavesOutMarchValuesTheHostCannotRun) {
    auto result = run({"expand", "spec.toml", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    auto routes = candidates(result);
    EXPECT_FALSE(has(routes, "-march=haswell"));
    EXPECT_FALSE(has(routes, "-march=x86-64-v3"));
    EXPECT_FALSE(has(routes, "-march=bdver3"));
    EXPECT_TRUE(has(routes, "-march=x86-64-v2"));
    EXPECT_TRUE(has(routes, "-march=nehalem"));
    EXPECT_TRUE(has(routes, "-march=native"));
    auto doc = nlohmann::json::parse(result.out);
    bool names_haswell = false;
    for (const auto& entry : doc.at("left_out")) names_haswell = names_haswell || entry.at("value") == "haswell";
    EXPECT_TRUE(names_haswell);
    EXPECT_NE(result.err.find("`~` left out"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("host_isa_only = false"), std::string::npos) << result.err;
}

TEST_F(HostIsaCli, TuneSaysWhatItLeftOut) {
    auto plan = run({"tune", "spec.toml", "--dry-run"});
    ASSERT_EQ(plan.exit_code, 0) << plan.err;
    EXPECT_NE(plan.err.find("routetune: note: `~` left out"), std::string::npos) << plan.err;
    EXPECT_EQ(plan.out.find("-march=haswell"), std::string::npos) << plan.out;
    EXPECT_NE(plan.out.find("-march=nehalem"), std::string::npos) << plan.out;
    auto cross = run({"tune", "cross.toml", "--dry-run"});
    EXPECT_EQ(cross.err.find("left out"), std::string::npos) << cross.err;
    EXPECT_NE(cross.out.find("-march=haswell"), std::string::npos) << cross.out;
}

TEST_F(HostIsaCli, TheStudyRecordsWhatItLeftOutForItsReport) {
    ASSERT_TRUE(write_file(dir_ / "tiny.c", "int main(void) { return 0; }\n"));
    auto tuned = run({"tune", "spec.toml", "--max-routes", "3", "--json"});
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    auto summary = nlohmann::json::parse(tuned.out);
    bool names_haswell = false;
    for (const auto& entry : summary.at("left_out"))
        names_haswell = names_haswell || (entry.at("knob") == "-march" && entry.at("value") == "haswell");
    EXPECT_TRUE(names_haswell) << tuned.out;
    auto report = run({"report", ".routetune/hostisa.sqlite", "--format", "table"});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_NE(report.out.find("\nleft out        `~` left out "), std::string::npos) << report.out;
    EXPECT_NE(report.out.find("cannot run: -march=["), std::string::npos) << report.out;
}

TEST_F(HostIsaCli, TheSpecKeyKeepsEveryValue) {
    auto filtered = run({"expand", "spec.toml", "--json"});
    auto all = run({"expand", "cross.toml", "--json"});
    ASSERT_EQ(all.exit_code, 0) << all.err;
    auto routes = candidates(all);
    EXPECT_TRUE(has(routes, "-march=haswell"));
    EXPECT_TRUE(has(routes, "-march=bdver3"));
    EXPECT_GT(routes.size(), candidates(filtered).size());
    EXPECT_FALSE(nlohmann::json::parse(all.out).contains("left_out"));
    EXPECT_EQ(all.err.find("left out"), std::string::npos) << all.err;
    auto flag = run({"expand", "spec.toml", "--all-isa", "--json"});
    EXPECT_EQ(candidates(flag), routes);
    auto knobs = run({"knobs", "spec.toml", "--all-isa", "--filter", "-march"});
    EXPECT_EQ(knobs.out.find("left out"), std::string::npos) << knobs.out;
}

TEST_F(HostIsaCli, ExplicitValuesAreTriedAsWritten) {
    auto result = run({"expand", "spec.toml", "--routes", "-march=[haswell|x86-64-v2] -mavx2=on", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(has(candidates(result), "-march=haswell -mavx2=on"));
    EXPECT_EQ(result.err.find("note: `~` left out"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("warning: -march=haswell is written explicitly, so it is tried"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("warning: -mavx2=on is written explicitly"), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("-march=x86-64-v2 is written"), std::string::npos) << result.err;
}

TEST_F(HostIsaCli, GlobsSkipSwitchesTheHostLacks) {
    auto result = run({"expand", "spec.toml", "--routes", "-mavx*=~ -msse4.2=~", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    auto routes = candidates(result);
    EXPECT_TRUE(has(routes, "-msse4.2=on"));
    for (const char* lacking : {"-mavx=on", "-mavx2=on", "-mavx512f=on", "-mavxvnni=on"}) EXPECT_FALSE(has(routes, lacking)) << lacking;
    EXPECT_TRUE(has(routes, "-mavx256-split-unaligned-load=on"));  // a tuning switch, not an instruction set
    auto all = run({"expand", "cross.toml", "--routes", "-mavx*=~ -msse4.2=~", "--json"});
    EXPECT_TRUE(has(candidates(all), "-mavx2=on"));
}

TEST_F(HostIsaCli, KnobsSaysWhatIsLeftOutAndWhy) {
    auto table = run({"knobs", "spec.toml", "--filter", "-m[a]*"});
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("left out of `~`"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("  -march=haswell: needs -mavx -mavx2"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("  -mavx2=on: this machine's CPU (x86-64-v2) lacks it"), std::string::npos) << table.out;
    EXPECT_EQ(table.out.find("  -march=nehalem:"), std::string::npos) << table.out;
    auto json = run({"knobs", "spec.toml", "--filter", "-march", "--json"});
    auto knob = nlohmann::json::parse(json.out).at("knobs").at(0);
    ASSERT_TRUE(knob.contains("left_out"));
    EXPECT_GT(knob.at("left_out").size(), 10u);
}

TEST_F(HostIsaCli, ASharedCacheServesEachMachineItsOwnView) {
    auto v2 = run({"expand", "spec.toml", "--json"}, "x86-64-v2");
    auto haswell = run({"expand", "spec.toml", "--json"}, "haswell");
    auto again = run({"expand", "spec.toml", "--json"}, "x86-64-v2");
    ASSERT_EQ(haswell.exit_code, 0) << haswell.err;
    EXPECT_TRUE(has(candidates(haswell), "-march=haswell"));
    EXPECT_TRUE(has(candidates(haswell), "-march=x86-64-v3"));
    EXPECT_FALSE(has(candidates(haswell), "-march=x86-64-v4"));
    EXPECT_FALSE(has(candidates(again), "-march=haswell"));
    EXPECT_EQ(candidates(again), candidates(v2));
    for (const auto& entry : fs::directory_iterator(shared_cache_home() / "routetune" / "catalogs")) {
        auto text = read_file(entry.path());
        EXPECT_EQ(text.value_or("").find("left_out"), std::string::npos) << entry.path();
    }
}

}  // namespace
}  // namespace routetune::e2e
