// End-to-end tests of routetune as a stand-in for `trtexec --tuneBuildRoutes`, against
// tests/fakes/fake_trtexec: tuning with GPU times read from trtexec's stdout and accuracy
// from --exportOutput JSON, importing a GPT tuning cache, and exporting a study as one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "gpt/trtexec_cache.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

std::map<std::string, json> by_route(const json& summary) {
    std::map<std::string, json> rows;
    for (const auto& e : summary.at("evaluations")) rows[e.at("route").get<std::string>()] = e;
    return rows;
}

TEST(TrtexecCli, TuneWithTheFakeFindsItsFastestAccurateRouteAndSortsEveryFault) {
    fs::path dir = scratch_trtexec();
    CliResult r = run_cli({"tune", "spec_fake.toml", "--json"}, dir, {}, 120);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json s = json::parse(r.out);
    auto rows = by_route(s);
    ASSERT_EQ(rows.size(), 8u) << r.out;
    EXPECT_EQ(rows.at("").at("status"), "ok");
    EXPECT_EQ(rows.at("-conv_lowering=off").at("status"), "inaccurate");
    EXPECT_EQ(rows.at("-copy_ppg=off").at("status"), "build_failed");
    EXPECT_EQ(rows.at("-kgen:tiling=1").at("status"), "ok");
    EXPECT_EQ(rows.at("-kgen:tiling=2").at("status"), "build_crashed");
    EXPECT_EQ(rows.at("-match_ragged_mha=off").at("status"), "ok");
    EXPECT_EQ(rows.at("-kgen:codegen:unroll=8").at("status"), "run_crashed");
    EXPECT_EQ(rows.at("-layer_norm_fusion=on").at("status"), "ok");
    // The times are trtexec's "GPU Compute Time" medians, in seconds, not process wall times.
    EXPECT_DOUBLE_EQ(rows.at("").at("time").get<double>(), 0.001);
    EXPECT_DOUBLE_EQ(rows.at("-kgen:tiling=1").at("time").get<double>(), 0.00097);
    EXPECT_DOUBLE_EQ(rows.at("-layer_norm_fusion=on").at("time").get<double>(), 0.00094);
    // One of the four output values differs: l0 loss 1/4.
    EXPECT_DOUBLE_EQ(rows.at("-conv_lowering=off").at("loss").at("model").get<double>(), 0.25);
    EXPECT_DOUBLE_EQ(rows.at("-match_ragged_mha=off").at("loss").at("model").get<double>(), 0.0);
    EXPECT_EQ(s.at("outcome"), "improved");
    EXPECT_EQ(s.at("winner").at("route"), "-match_ragged_mha=off");
    EXPECT_NEAR(s.at("winner").at("speedup").get<double>(), 1000.0 / 880.0, 1e-9);
}

TEST(TrtexecCli, ImportedTuningCacheIsReportedIterationByIteration) {
    fs::path dir = scratch_trtexec();
    CliResult imported = run_cli({"import-trtexec", "tuning_cache.jsonl", "--cache", "gpt.sqlite"}, dir);
    ASSERT_EQ(imported.exit_code, 0) << imported.err;
    CliResult r = run_cli({"report", "gpt.sqlite", "--format", "json"}, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json s = json::parse(r.out);
    EXPECT_EQ(s.at("study"), "tuning_cache");
    EXPECT_EQ(s.at("search"), "fast");
    EXPECT_EQ(s.at("expression"), "-conv_lowering=[on|off] -copy_ppg=[on|off] -kgen:tiling=[0|1|2] -match_ragged_mha=[on|off]");
    const json& evaluations = s.at("evaluations");
    ASSERT_EQ(evaluations.size(), 6u);
    std::vector<std::string> statuses;
    for (const auto& e : evaluations) statuses.push_back(e.at("status"));
    EXPECT_EQ(statuses, (std::vector<std::string>{"ok", "inaccurate", "build_failed", "ok", "build_crashed", "ok"}));
    EXPECT_EQ(evaluations[5].at("route"), "-conv_lowering=on -copy_ppg=on -kgen:tiling=0 -match_ragged_mha=off");
    EXPECT_DOUBLE_EQ(evaluations[5].at("time").get<double>(), 0.00088);
    EXPECT_DOUBLE_EQ(evaluations[1].at("loss").at("output").get<double>(), 0.125);
    EXPECT_EQ(s.at("default").at("route"), "-conv_lowering=on -copy_ppg=on -kgen:tiling=0 -match_ragged_mha=on");
    EXPECT_EQ(s.at("outcome"), "improved");
    EXPECT_EQ(s.at("winner").at("route"), "-conv_lowering=on -copy_ppg=on -kgen:tiling=0 -match_ragged_mha=off");
    EXPECT_NEAR(s.at("winner").at("speedup").get<double>(), 1.002 / 0.88, 1e-9);

    // A looser threshold turns the 0.125 loss into an accurate, and fastest, route.
    CliResult loose = run_cli({"import-trtexec", "tuning_cache.jsonl", "--cache", "loose.sqlite", "--threshold", "0.2"}, dir);
    ASSERT_EQ(loose.exit_code, 0) << loose.err;
    json l = json::parse(run_cli({"report", "loose.sqlite", "--format", "json"}, dir).out);
    EXPECT_EQ(l.at("evaluations")[1].at("status"), "ok");
    EXPECT_EQ(l.at("winner").at("route"), "-conv_lowering=off -copy_ppg=on -kgen:tiling=0 -match_ragged_mha=on");

    // Importing again into the same store is refused rather than mixing two sweeps.
    EXPECT_EQ(run_cli({"import-trtexec", "tuning_cache.jsonl", "--cache", "gpt.sqlite"}, dir).exit_code, 2);
}

TEST(TrtexecCli, ImportThenExportGivesTheTuningCacheBack) {
    fs::path dir = scratch_trtexec();
    ASSERT_EQ(run_cli({"import-trtexec", "tuning_cache.jsonl", "--cache", "gpt.sqlite"}, dir).exit_code, 0);
    CliResult r = run_cli({"export-trtexec", "gpt.sqlite", "--output", "again.jsonl"}, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    TrtexecCache original = parse_trtexec_cache(read_file(dir / "tuning_cache.jsonl").value());
    TrtexecCache again = parse_trtexec_cache(read_file(dir / "again.jsonl").value());
    EXPECT_EQ(again.header.tuning_expr, original.header.tuning_expr);
    EXPECT_EQ(again.header.command_line, original.header.command_line);
    EXPECT_EQ(again.header.default_build_route, original.header.default_build_route);
    EXPECT_EQ(again.header.argv, original.header.argv);
    EXPECT_DOUBLE_EQ(again.header.accuracy_parameter.epsilon, 0.01);
    EXPECT_EQ(write_trtexec_cache(again), write_trtexec_cache(original));
}

TEST(TrtexecCli, ExportOfATunedStudyReadsBackWithTheParser) {
    fs::path dir = scratch_trtexec();
    ASSERT_EQ(run_cli({"tune", "spec_fake.toml", "--json", "--cache", "tuned.sqlite"}, dir, {}, 120).exit_code, 0);
    CliResult r = run_cli({"export-trtexec", "tuned.sqlite", "--output", "tuned.jsonl"}, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    TrtexecCache cache = parse_trtexec_cache(read_file(dir / "tuned.jsonl").value());
    EXPECT_EQ(cache.header.tuner_version, "2.19.45");
    EXPECT_EQ(cache.header.searching_algorithm, "fast");
    EXPECT_EQ(cache.header.accuracy_algorithm, "l0");
    EXPECT_DOUBLE_EQ(cache.header.accuracy_parameter.epsilon, 0.01);
    std::map<std::string, TrtexecCacheIteration> rows;
    for (const auto& iteration : cache.iterations) rows[iteration.build_route] = iteration;
    ASSERT_EQ(rows.size(), 8u);
    EXPECT_DOUBLE_EQ(rows.at("").gpu_time_ms.value(), 1.0);
    EXPECT_DOUBLE_EQ(rows.at("-match_ragged_mha=off").gpu_time_ms.value(), 0.88);
    EXPECT_TRUE(rows.at("-kgen:tiling=2").crash);
    EXPECT_FALSE(rows.at("-copy_ppg=off").gpu_time_ms.has_value());
    EXPECT_NE(rows.at("-copy_ppg=off").error_message.find("exited with code 1"), std::string::npos)
        << rows.at("-copy_ppg=off").error_message;
    EXPECT_DOUBLE_EQ(rows.at("-conv_lowering=off").accuracy_loss.value().at("model"), 0.25);
}

}  // namespace
}  // namespace routetune::e2e
