// Search-phase intervals under drifting load (docs/design.md, "Evidence that cannot lie"):
// fake_timed_cc's FAKE_DRIFT_FILE makes every run of any artifact 1% faster than the run
// before it, and the routes searched here change nothing the fake's time model reads, so every
// candidate is as fast as the default. Timed alone after the default ([timing] paired = false)
// they look faster, intervals clear of 1.0; paired with the default's runs, no interval
// excludes 1.0 and the header says the figures are paired.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "util/files.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

std::string drifting_spec(bool paired) {
    return fake_timed_spec("drifting", paired ? "" : "paired = false\n",
                           "-ftree-slsr=[on|off] -fgcse-las=[on|off] -fsplit-paths=[on|off]", "fast",
                           "relative_timeout = 0\n");
}

struct Tuned {
    json summary;
    std::string table;
};

Tuned tune_drifting(bool paired) {
    fs::path specs = scratch_specs();
    write_file(specs / "drifting.toml", drifting_spec(paired));
    std::map<std::string, std::string> env{{"FAKE_DRIFT_FILE", (specs / "drift.count").string()},
                                           {"FAKE_DRIFT", "-0.01"},
                                           {"FAKE_JITTER", "0"}};
    CliResult r = run_cli({"tune", "drifting.toml", "--json"}, specs, env);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    CliResult table = run_cli({"report", ".routetune/drifting.sqlite"}, specs);
    EXPECT_EQ(table.exit_code, 0) << table.err;
    return {json::parse(r.out), table.out};
}

// The report header's line of label, "" when absent.
std::string header_line(const std::string& table, const std::string& label) {
    std::size_t at = table.find("\n" + label + " ");
    return at == std::string::npos ? "" : table.substr(at + 1, table.find('\n', at + 1) - at - 1);
}

bool excludes_one(const json& interval) {
    return interval.at(0).get<double>() > 1.0 || interval.at(1).get<double>() < 1.0;
}

TEST(PairedTiming, DriftManufacturesGainsWhenRoutesAreTimedAlone) {
    Tuned t = tune_drifting(false);
    std::size_t gains = 0, candidates = 0;
    for (const auto& e : t.summary.at("evaluations")) {
        if (e.at("route") == "" || e.at("status") != "ok") continue;
        ++candidates;
        EXPECT_FALSE(e.at("speedup_paired").get<bool>());
        EXPECT_FALSE(e.contains("paired_rounds_s"));
        gains += e.at("speedup_ci95").at(0).get<double>() > 1.02;
    }
    EXPECT_EQ(candidates, 3u);
    EXPECT_GE(gains, 2u) << "unpaired figures under drift show identical routes as gains: " << t.summary.dump(2);
    EXPECT_NE(header_line(t.table, "speedups").find("unpaired"), std::string::npos) << t.table;
}

TEST(PairedTiming, PairedFiguresShowNoGainUnderTheSameDrift) {
    Tuned t = tune_drifting(true);
    std::size_t candidates = 0;
    for (const auto& e : t.summary.at("evaluations")) {
        if (e.at("status") != "ok") continue;
        EXPECT_TRUE(e.at("speedup_paired").get<bool>()) << e.dump();
        EXPECT_EQ(e.at("paired_rounds_s").at("default").size(), 5u) << e.dump();
        EXPECT_FALSE(excludes_one(e.at("speedup_ci95"))) << e.dump();
        candidates += e.at("route") != "";
    }
    EXPECT_EQ(candidates, 3u);
    EXPECT_EQ(t.summary.at("outcome"), "default-stays") << t.summary.dump(2);
    EXPECT_NE(header_line(t.table, "speedups").find("paired with the default's runs"), std::string::npos) << t.table;
    EXPECT_EQ(header_line(t.table, "speedups").find("unpaired"), std::string::npos) << t.table;
}

}  // namespace
}  // namespace routetune::e2e
