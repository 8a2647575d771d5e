// The trtexec adapter against tests/fakes/fake_trtexec (TensorRT is not installed here):
// knob database parsing, route application, and a build + run through the fake whose GPU
// time is read back from its performance summary.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "adapters/trtexec_adapter.hpp"
#include "adapters/trtexec_catalog_parser.hpp"
#include "eval/output_reader.hpp"
#include "routetune/error.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;
using Flags = std::vector<std::string>;

const std::string fake = std::string(ROUTETUNE_FAKES) + "/fake_trtexec";

TEST(TrtexecCatalogParser, ReadsTypesFromAllowedValues) {
    std::string text = R"(&&&& RUNNING TensorRT.trtexec [TensorRT v110100] # trtexec --helpBuildRoute
{"tuner_version": "2.19.45", "tuner_options": [
 {"option": "-conv_use_long_w", "allowed_values": "-conv_use_long_w=[on|off]", "default_value": "on", "help": "h1"},
 {"option": "-kgen:tiling", "allowed_values": "-kgen:tiling=[0|1|2]", "default_value": "0", "help": "h2"},
 {"option": "-gemm_splitk", "allowed_values": "-gemm_splitk=[1|2|4|...]", "default_value": "1", "help": ""},
 {"option": "-depth", "allowed_values": "-depth=<int>", "default_value": "16"},
 {"option": "-source", "allowed_values": "-source=<string>", "default_value": "auto"},
 {"option": "-mode", "allowed_values": "-mode=[fast|small]", "default_value": "auto"}
]})";
    TrtexecKnobDatabase database = parse_trtexec_build_route_help(text);
    EXPECT_EQ(database.tuner_version, "2.19.45");
    ASSERT_EQ(database.knobs.size(), 6u);
    const Knob& long_w = database.knobs[0];
    EXPECT_EQ(long_w.name, "-conv_use_long_w");
    EXPECT_EQ(long_w.type, KnobType::Bool);
    EXPECT_EQ(long_w.values, (Flags{"on", "off"}));
    EXPECT_EQ(long_w.default_value, "on");
    EXPECT_EQ(long_w.help, "h1");
    EXPECT_TRUE(long_w.has_tag("trtexec"));
    const Knob& tiling = database.knobs[1];
    EXPECT_EQ(tiling.type, KnobType::Enum);
    EXPECT_TRUE(tiling.bounded);
    EXPECT_EQ(tiling.values, (Flags{"0", "1", "2"}));
    const Knob& splitk = database.knobs[2];
    EXPECT_EQ(splitk.type, KnobType::Enum);
    EXPECT_FALSE(splitk.bounded);
    EXPECT_EQ(splitk.values, (Flags{"1", "2", "4"}));
    EXPECT_TRUE(splitk.allows("16"));
    const Knob& depth = database.knobs[3];
    EXPECT_EQ(depth.type, KnobType::Int);
    EXPECT_FALSE(depth.bounded);
    EXPECT_TRUE(depth.allows("3"));
    EXPECT_FALSE(depth.allows("x"));
    const Knob& source = database.knobs[4];
    EXPECT_EQ(source.type, KnobType::Enum);
    EXPECT_FALSE(source.bounded);
    EXPECT_EQ(source.values, (Flags{"auto"}));
    const Knob& mode = database.knobs[5];
    EXPECT_EQ(mode.values, (Flags{"fast", "small", "auto"}));
}

TEST(TrtexecCatalogParser, MalformedDatabaseIsAUsageError) {
    EXPECT_THROW(parse_trtexec_build_route_help("no json here"), UsageError);
    EXPECT_THROW(parse_trtexec_build_route_help("{\"tuner_version\": \"1\"}"), UsageError);
    EXPECT_THROW(parse_trtexec_build_route_help("{\"tuner_options\": [{\"option\": \"bad name\"}]}"), UsageError);
}

TEST(TrtexecGpuTime, ReadsTheMedianOfTheSummaryLine) {
    std::string text =
        "[I] Latency: min = 6.12 ms, max = 8.45 ms, mean = 6.79 ms, median = 6.75 ms\n"
        "[07/25/2022-19:02:56] [I] GPU Compute Time: min = 5.99756 ms, max = 9.45909 ms, mean = 7.35231 ms, "
        "median = 7.1825 ms, percentile(99%) = 9.2168 ms\n"
        "[I] Total GPU Compute Time: 7.02881 s\n";
    auto time = parse_trtexec_gpu_time(text);
    ASSERT_TRUE(time.has_value());
    EXPECT_DOUBLE_EQ(*time, 7.1825);
}

TEST(TrtexecGpuTime, FallsBackToTheMeanAndIgnoresTheTotal) {
    EXPECT_DOUBLE_EQ(parse_trtexec_gpu_time("[I] GPU Compute Time: mean = 0.855457 ms\n").value(), 0.855457);
    EXPECT_FALSE(parse_trtexec_gpu_time("[I] Total GPU Compute Time: 3.1 s\n").has_value());
    EXPECT_FALSE(parse_trtexec_gpu_time("").has_value());
}

TEST(TrtexecAdapter, ReportsTheGpuComputeMedianOfARunsStdoutInSeconds) {
    auto adapter = make_trtexec_adapter({});
    auto times = adapter->times_from_output(
        "[I] GPU Compute Time: min = 0.5 ms, max = 0.9 ms, mean = 0.7 ms, median = 0.625 ms\n");
    ASSERT_TRUE(times.has_value());
    EXPECT_EQ(*times, std::vector<double>{0.000625});
    EXPECT_FALSE(adapter->times_from_output("[I] Total GPU Compute Time: 3.1 s\n").has_value());
}

Catalog fake_catalog() {
    AdapterOptions options;
    options.compiler = fake;
    options.use_cache = false;
    return make_trtexec_adapter(options)->discover();
}

TEST(TrtexecAdapter, DiscoversTheFakeKnobDatabase) {
    Catalog catalog = fake_catalog();
    EXPECT_EQ(catalog.compiler.adapter, "trtexec");
    EXPECT_EQ(catalog.compiler.version, "TensorRT v110100 tuner 2.19.45");
    EXPECT_EQ(catalog.knobs().size(), 11u);
    ASSERT_NE(catalog.find("-kgen:codegen:unroll"), nullptr);
    EXPECT_EQ(catalog.find("-kgen:codegen:unroll")->values, (Flags{"1", "2", "4", "8"}));
    EXPECT_EQ(catalog.find("-max_fusion_depth")->type, KnobType::Int);
    EXPECT_EQ(catalog.find("-layer_norm_fusion")->default_value, "off");
}

TEST(TrtexecAdapter, AppliesOneSetBuildRouteItemMergedOverTheBase) {
    Catalog catalog = fake_catalog();
    Knob batch;
    batch.name = "-batch";
    batch.type = KnobType::Enum;
    batch.values = {"1", "8"};
    batch.application.argv_template = "--shapes=input:{value}x3x224x224";
    catalog.add(batch);
    Flags base = {"--onnx=model.onnx", "--setBuildRoute=-copy_ppg=on -gemm_splitk=2", "--noDataTransfers"};
    Route route;
    route.set("-gemm_splitk", "4");
    route.set("-match_ragged_mha", "off");
    route.set("-batch", "8");
    AppliedRoute applied = apply_trtexec_route(base, route, catalog);
    EXPECT_EQ(applied.flags, (Flags{"--onnx=model.onnx", "--noDataTransfers",
                                    "--setBuildRoute=-copy_ppg=on -gemm_splitk=4 -match_ragged_mha=off",
                                    "--shapes=input:8x3x224x224"}));
    EXPECT_EQ(apply_trtexec_route({"--onnx=m.onnx"}, Route(), catalog).flags, (Flags{"--onnx=m.onnx"}));
}

struct Scratch {
    fs::path dir;
    Scratch() {
        dir = fs::temp_directory_path() / ("routetune_trtexec_test_" + std::to_string(getpid()));
        fs::create_directories(dir);
        std::ofstream(dir / "model.onnx") << "onnx";
    }
    ~Scratch() { fs::remove_all(dir); }
};

ProcessResult run_fake(const Flags& flags) {
    ProcessSpec spec;
    spec.argv = {fake};
    spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
    spec.timeout_s = 30;
    return run_process(spec);
}

TEST(TrtexecAdapter, BuildAndRunThroughTheFake) {
    Scratch scratch;
    Catalog catalog = fake_catalog();
    AdapterOptions options;
    options.compiler = fake;
    options.base_flags = {"--onnx=" + (scratch.dir / "model.onnx").string()};
    auto adapter = make_trtexec_adapter(options);
    std::string engine = (scratch.dir / "engine.plan").string();
    auto build = [&](const std::string& text) {
        Flags flags = adapter->apply(Route::parse(text), catalog).flags;
        flags.push_back("--saveEngine=" + engine);
        flags.push_back("--skipInference");
        return run_fake(flags);
    };
    auto run = [&] {
        return run_fake({"--loadEngine=" + engine, "--exportOutput=" + (scratch.dir / "out.json").string()});
    };

    ASSERT_TRUE(build("").succeeded());
    ProcessResult baseline = run();
    ASSERT_TRUE(baseline.succeeded()) << baseline.err;
    EXPECT_DOUBLE_EQ(parse_trtexec_gpu_time(baseline.out).value(), 1.0);

    ASSERT_TRUE(build("-match_ragged_mha=off -gemm_splitk=4").succeeded());
    ProcessResult faster = run();
    ASSERT_TRUE(faster.succeeded());
    EXPECT_DOUBLE_EQ(parse_trtexec_gpu_time(faster.out).value(), 0.84);
    std::ifstream out(scratch.dir / "out.json");
    std::stringstream exported;
    exported << out.rdbuf();
    EXPECT_EQ(read_output(exported.str(), OutputFormat::TrtexecJson).values, (std::vector<double>{1.0, 2.0, 3.0, 4.0}));

    ProcessResult failed = build("-copy_ppg=off");
    EXPECT_EQ(failed.outcome, ProcessOutcome::Exited);
    EXPECT_EQ(failed.exit_code, 1);
    EXPECT_NE(failed.err.find("Could not find any implementation"), std::string::npos);
    ProcessResult crashed = build("-kgen:tiling=2");
    EXPECT_EQ(crashed.outcome, ProcessOutcome::Signaled);
    EXPECT_EQ(crashed.signal, SIGSEGV);
}

}  // namespace
}  // namespace routetune
