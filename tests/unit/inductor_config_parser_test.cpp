// The inductor adapter: the config dump parser against the hand-written fixture, route
// application, discovery through a fake Python, and the Python helper's route parsing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "adapters/inductor_adapter.hpp"
#include "adapters/inductor_config_parser.hpp"
#include "routetune/error.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

std::string fixture_text(const std::string& name = "config_dump.json") {
    std::ifstream in(std::string(ROUTETUNE_FIXTURES) + "/inductor/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

const Knob* find(const InductorConfig& config, const std::string& name) {
    for (const auto& knob : config.knobs) {
        if (knob.name == name) return &knob;
    }
    return nullptr;
}

TEST(InductorConfigParser, ReadsTheFixture) {
    InductorConfig config = parse_inductor_config_dump(fixture_text());
    EXPECT_EQ(config.torch_version, "2.5.1+cu124");
    EXPECT_EQ(config.knobs.size(), 85u);
    const Knob* autotune = find(config, "-inductor:max_autotune");
    ASSERT_NE(autotune, nullptr);
    EXPECT_EQ(autotune->type, KnobType::Bool);
    EXPECT_EQ(autotune->values, (std::vector<std::string>{"on", "off"}));
    EXPECT_EQ(autotune->default_value, "off");
    EXPECT_EQ(autotune->help, "torch._inductor.config.max_autotune");
    EXPECT_TRUE(autotune->has_tag("inductor"));
    EXPECT_EQ(find(config, "-inductor:epilogue_fusion")->default_value, "on");
    const Knob* cudagraphs = find(config, "-inductor:triton.cudagraphs");
    ASSERT_NE(cudagraphs, nullptr);
    EXPECT_EQ(cudagraphs->default_value, "off");
    const Knob* fusion = find(config, "-inductor:max_fusion_size");
    ASSERT_NE(fusion, nullptr);
    EXPECT_EQ(fusion->type, KnobType::Int);
    EXPECT_FALSE(fusion->bounded);
    EXPECT_EQ(fusion->default_value, "64");
    EXPECT_EQ(find(config, "-inductor:triton.max_tiles")->default_value, "2");
    EXPECT_EQ(find(config, "-inductor:cpp.threads")->default_value, "-1");
    EXPECT_EQ(find(config, "-inductor:cpp.simdlen")->default_value, "");
    EXPECT_EQ(find(config, "-inductor:triton.autotune_at_compile_time")->default_value, "");
    const Knob* backends = find(config, "-inductor:max_autotune_gemm_backends");
    ASSERT_NE(backends, nullptr);
    EXPECT_EQ(backends->type, KnobType::Enum);
    EXPECT_TRUE(backends->bounded);
    EXPECT_EQ(backends->default_value, "ATEN,TRITON,CPP");
    EXPECT_EQ(backends->values.size(), 8u);
    EXPECT_TRUE(find(config, "-inductor:cuda.use_fast_math")->has_tag("unsafe"));
    EXPECT_FALSE(find(config, "-inductor:max_autotune")->has_tag("unsafe"));
    for (const auto& knob : config.knobs) EXPECT_TRUE(is_valid_knob_name(knob.name)) << knob.name;
}

TEST(InductorConfigParser, ReadsTheDumpCapturedFromTorch211OnTheGpuMachine) {
    InductorConfig config = parse_inductor_config_dump(fixture_text("config_dump_torch2.11.json"));
    EXPECT_EQ(config.torch_version, "2.11.0+cu130");
    EXPECT_GE(config.knobs.size(), 200u);
    for (const char* name : {"-inductor:triton.cudagraphs", "-inductor:max_autotune_gemm", "-inductor:freezing"}) {
        const Knob* knob = find(config, name);
        ASSERT_NE(knob, nullptr) << name;
        EXPECT_EQ(knob->type, KnobType::Bool) << name;
        EXPECT_EQ(knob->default_value, "off") << name;
    }
    const Knob* epilogue = find(config, "-inductor:epilogue_fusion");
    ASSERT_NE(epilogue, nullptr);
    EXPECT_EQ(epilogue->default_value, "on");
}

TEST(InductorConfigParser, HandlesFloatsAndSkipsUntunableEntries) {
    std::string text = R"({"format": "routetune-inductor-config-1", "torch_version": "2.6.0", "entries": [
        {"name": "ratio", "type": "float", "default": 1.5},
        {"name": "free_text", "type": "str", "default": "x"},
        {"name": "callback", "type": "callable", "default": null},
        {"name": "mode", "type": "str", "default": "b", "values": ["a"]},
        {"name": "spaced", "type": "str", "default": "a", "values": ["a", "b c"]}]})";
    InductorConfig config = parse_inductor_config_dump(text);
    ASSERT_EQ(config.knobs.size(), 2u);
    EXPECT_EQ(config.knobs[0].name, "-inductor:ratio");
    EXPECT_EQ(config.knobs[0].type, KnobType::Enum);
    EXPECT_FALSE(config.knobs[0].bounded);
    EXPECT_EQ(config.knobs[0].values, (std::vector<std::string>{"1.5"}));
    EXPECT_TRUE(config.knobs[0].allows("0.75"));
    EXPECT_EQ(config.knobs[1].values, (std::vector<std::string>{"a", "b"}));
}

TEST(InductorConfigParser, RejectsOtherDocuments) {
    EXPECT_THROW(parse_inductor_config_dump("{\"entries\": []}"), UsageError);
    EXPECT_THROW(parse_inductor_config_dump("not json"), UsageError);
    EXPECT_THROW(parse_inductor_config_dump("[]"), UsageError);
}

Catalog fixture_catalog() {
    Catalog catalog;
    for (auto& knob : parse_inductor_config_dump(fixture_text()).knobs) catalog.add(knob);
    return catalog;
}

TEST(InductorApply, RouteTextGoesToTheEnvironment) {
    Catalog catalog = fixture_catalog();
    Knob batch;
    batch.name = "-batch";
    batch.type = KnobType::Enum;
    batch.values = {"1", "8"};
    batch.application.env_name = "BATCH";
    catalog.add(batch);
    Route route;
    route.set("-inductor:max_autotune", "on");
    route.set("-inductor:triton.cudagraphs", "on");
    route.set("-batch", "8");
    AppliedRoute applied =
        apply_inductor_route({"--model=resnet", "-inductor:max_autotune=off", "-inductor:freezing=on"}, route, catalog);
    EXPECT_EQ(applied.flags, (std::vector<std::string>{"--model=resnet"}));
    EXPECT_EQ(applied.environment.at("ROUTETUNE_INDUCTOR_ROUTE"),
              "-inductor:freezing=on -inductor:max_autotune=on -inductor:triton.cudagraphs=on");
    EXPECT_EQ(applied.environment.at("BATCH"), "8");
    AppliedRoute plain = apply_inductor_route({}, Route(), catalog);
    EXPECT_EQ(plain.environment.at("ROUTETUNE_INDUCTOR_ROUTE"), "");
}

TEST(InductorAdapter, HelperIsFound) {
    fs::path helper = inductor_helper_path();
    ASSERT_FALSE(helper.empty());
    EXPECT_EQ(helper.filename(), "routetune_inductor.py");
}

TEST(InductorAdapter, DiscoversThroughAFakePythonAndCaches) {
    fs::path cache_dir = fs::temp_directory_path() / ("routetune_inductor_test_" + std::to_string(getpid()));
    AdapterOptions options;
    options.compiler = std::string(ROUTETUNE_FAKES) + "/fake_inductor_python";
    options.cache_dir = cache_dir;
    Knob tile;
    tile.name = "-tile";
    tile.type = KnobType::Int;
    tile.min = 1;
    tile.max = 8;
    tile.application.env_name = "TILE";
    options.declared_knobs.push_back(tile);
    auto adapter = make_inductor_adapter(options);
    EXPECT_EQ(adapter->name(), "inductor");
    Catalog first = adapter->discover();
    EXPECT_EQ(first.compiler.adapter, "inductor");
    EXPECT_EQ(first.compiler.version, "torch 2.5.1+cu124");
    EXPECT_EQ(first.knobs().size(), 86u);
    ASSERT_NE(first.find("-tile"), nullptr);
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(cache_dir)) files += entry.is_regular_file() ? 1 : 0;
    EXPECT_EQ(files, 1u);
    Catalog second = make_inductor_adapter(options)->discover();
    EXPECT_EQ(catalog_to_json(second), catalog_to_json(first));
    fs::remove_all(cache_dir);
}

TEST(InductorHelper, ParsesRoutesIntoPythonValues) {
    auto python = find_executable("python3");
    if (python.empty()) GTEST_SKIP() << "no python3 installed";
    ProcessSpec spec;
    spec.argv = {python.string(), std::string(ROUTETUNE_SOURCE_DIR) + "/python/routetune_inductor.py", "--parse-route",
                 "-O=3 -inductor:max_autotune=on -inductor:triton.cudagraphs=off -inductor:max_fusion_size=32 "
                 "-inductor:max_autotune_gemm_backends=ATEN,TRITON"};
    spec.env["PYTHONDONTWRITEBYTECODE"] = "1";
    ProcessResult result = run_process(spec);
    ASSERT_TRUE(result.succeeded()) << result.err;
    EXPECT_EQ(result.out,
              "{\"max_autotune\": true, \"max_autotune_gemm_backends\": \"ATEN,TRITON\", \"max_fusion_size\": 32, "
              "\"triton.cudagraphs\": false}\n");
}

TEST(InductorHelper, RefusesKnobsThatDoNotApplyToThePathAndNamesWhy) {
    auto python = find_executable("python3");
    if (python.empty()) GTEST_SKIP() << "no python3 installed";
    auto parse = [&](const std::string& route, const std::string& path) {
        ProcessSpec spec;
        spec.argv = {python.string(), std::string(ROUTETUNE_SOURCE_DIR) + "/python/routetune_inductor.py", "--parse-route",
                     route, "--path", path};
        spec.env["PYTHONDONTWRITEBYTECODE"] = "1";
        return run_process(spec);
    };
    ProcessResult refused = parse("-inductor:triton.cudagraphs=on -inductor:max_autotune=on", "aoti");
    EXPECT_EQ(refused.exit_code, 1);
    EXPECT_TRUE(refused.out.empty()) << "a refused route printed its values: " << refused.out;
    EXPECT_NE(refused.err.find("-inductor:triton.cudagraphs does not apply to aoti: an AOTInductor package is run by its "
                               "own C++ runner"),
              std::string::npos)
        << refused.err;
    EXPECT_TRUE(parse("-inductor:triton.cudagraphs=on", "jit").succeeded()) << "cudagraphs applies to torch.compile";
    ProcessResult kept = parse("-inductor:max_autotune=on", "aoti");
    EXPECT_TRUE(kept.succeeded()) << kept.err;
    EXPECT_EQ(kept.out, "{\"max_autotune\": true}\n");
}

}  // namespace
}  // namespace routetune
