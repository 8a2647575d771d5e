// The nvcc adapter: applying routes to base flags (pure), and discovery against the real
// nvcc when one is installed (skipped otherwise: CI has no CUDA toolkit).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "adapters/nvcc_adapter.hpp"
#include "routetune/error.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;
using Flags = std::vector<std::string>;

std::string read_fixture(const std::string& name) {
    std::ifstream in(std::string(ROUTETUNE_FIXTURES) + "/nvcc13/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

Catalog fixture_catalog() { return build_nvcc_catalog(read_fixture("nvcc_help.txt"), read_fixture("ptxas_help.txt")); }

Route route_of(std::initializer_list<std::pair<const char*, const char*>> values) {
    Route route;
    for (const auto& [name, value] : values) route.set(name, value);
    return route;
}

TEST(NvccApply, DefaultRouteKeepsBaseFlags) {
    Flags base = {"-arch=sm_90", "-O3", "-Xptxas", "-v"};
    AppliedRoute applied = apply_nvcc_route(base, Route(), fixture_catalog());
    EXPECT_EQ(applied.flags, base);
    EXPECT_TRUE(applied.environment.empty());
    EXPECT_TRUE(applied.files.empty());
}

TEST(NvccApply, WritesEachFormUseFastMathFirstThenInKnobOrder) {
    Route route = route_of({{"-ftz", "on"},
                            {"-prec-div", "off"},
                            {"-use_fast_math", "on"},
                            {"-extra-device-vectorization", "off"},
                            {"-maxrregcount", "64"},
                            {"-Xptxas:-O", "2"},
                            {"-Xptxas:-dlcm", "cg"},
                            {"-Xptxas:-allow-expensive-optimizations", "off"}});
    AppliedRoute applied = apply_nvcc_route({"-arch=sm_90"}, route, fixture_catalog());
    // --use_fast_math implies --ftz and --prec-div: it comes first, so the route's own values win.
    EXPECT_EQ(applied.flags, (Flags{"-arch=sm_90", "--use_fast_math", "-Xptxas", "--opt-level=2", "-Xptxas",
                                    "--allow-expensive-optimizations=false", "-Xptxas", "--def-load-cache=cg",
                                    "--ftz=true", "--maxrregcount=64", "--prec-div=false"}));
}

TEST(NvccApply, RouteOverridesBaseFlagsNamingTheSameOption) {
    Flags base = {"-arch=sm_90", "--use_fast_math", "-ftz=false", "-maxrregcount", "32", "--prec-div=true",
                  "-Xptxas", "-O3,-v", "-Xptxas=-dlcm=ca", "--ptxas-options=-O1", "-lineinfo"};
    Route route = route_of({{"-use_fast_math", "off"},
                            {"-ftz", "on"},
                            {"-maxrregcount", "128"},
                            {"-Xptxas:-O", "1"},
                            {"-Xptxas:-dlcm", "cs"}});
    AppliedRoute applied = apply_nvcc_route(base, route, fixture_catalog());
    EXPECT_EQ(applied.flags, (Flags{"-arch=sm_90", "--prec-div=true", "-Xptxas", "-v", "-lineinfo", "-Xptxas",
                                    "--opt-level=1", "-Xptxas", "--def-load-cache=cs", "--ftz=true",
                                    "--maxrregcount=128"}));
}

TEST(NvccApply, OptLevelPrefixDoesNotSwallowOtherPtxasOptions) {
    Flags base = {"-Xptxas", "-Ofc=max,-O2"};
    AppliedRoute applied = apply_nvcc_route(base, route_of({{"-Xptxas:-O", "3"}}), fixture_catalog());
    EXPECT_EQ(applied.flags, (Flags{"-Xptxas", "-Ofc=max", "-Xptxas", "--opt-level=3"}));
}

TEST(NvccApply, DeclaredKnobsAreAppliedAfterNvccKnobs) {
    Catalog catalog = fixture_catalog();
    Knob tile;
    tile.name = "-tile";
    tile.type = KnobType::Enum;
    tile.values = {"8", "16", "32"};
    tile.application.argv_template = "-DTILE={value}";
    tile.application.env_name = "TILE";
    catalog.add(tile);
    AppliedRoute applied = apply_nvcc_route({}, route_of({{"-tile", "16"}, {"-fmad", "off"}}), catalog);
    EXPECT_EQ(applied.flags, (Flags{"--fmad=false", "-DTILE=16"}));
    EXPECT_EQ(applied.environment.at("TILE"), "16");
}

std::string installed_nvcc() {
    for (const char* candidate : {"nvcc", "/usr/local/cuda/bin/nvcc"}) {
        auto path = find_executable(candidate);
        if (!path.empty()) return path.string();
    }
    return "";
}

TEST(NvccAdapter, DiscoversTheInstalledToolkit) {
    std::string nvcc = installed_nvcc();
    if (nvcc.empty()) GTEST_SKIP() << "no nvcc installed";
    AdapterOptions options;
    options.compiler = nvcc;
    options.use_cache = false;
    Knob tile;
    tile.name = "-tile";
    tile.type = KnobType::Int;
    tile.min = 1;
    tile.max = 64;
    tile.application.argv_template = "-DTILE={value}";
    options.declared_knobs.push_back(tile);
    auto adapter = make_nvcc_adapter(options);
    EXPECT_EQ(adapter->name(), "nvcc");
    Catalog catalog = adapter->discover();
    EXPECT_EQ(catalog.compiler.adapter, "nvcc");
    EXPECT_NE(catalog.compiler.version.find("release"), std::string::npos) << catalog.compiler.version;
    ASSERT_NE(catalog.find("-ftz"), nullptr);
    EXPECT_EQ(catalog.find("-ftz")->default_value, "off");
    ASSERT_NE(catalog.find("-Xptxas:-O"), nullptr);
    EXPECT_EQ(catalog.find("-Xptxas:-O")->default_value, "3");
    ASSERT_NE(catalog.find("-tile"), nullptr);
    EXPECT_TRUE(catalog.find("-tile")->has_tag("declared"));
}

// Every knob at a non-default value, applied to real flags: nvcc and ptxas must accept them
// all (device code only: no GPU is needed).
TEST(NvccAdapter, InstalledNvccAcceptsEveryKnob) {
    std::string nvcc = installed_nvcc();
    if (nvcc.empty()) GTEST_SKIP() << "no nvcc installed";
    AdapterOptions options;
    options.compiler = nvcc;
    options.use_cache = false;
    options.base_flags = {"-arch=sm_90", "-Xptxas", "-O3"};
    auto adapter = make_nvcc_adapter(options);
    Catalog catalog = adapter->discover();
    Route route;
    for (const auto& knob : catalog.knobs()) {
        if (knob.type == KnobType::Int) {
            route.set(knob.name, std::to_string(knob.min + (knob.max - knob.min) / 2));
        } else {
            for (const auto& value : knob.values) {
                if (value != knob.default_value) {
                    route.set(knob.name, value);
                    break;
                }
            }
        }
    }
    ASSERT_EQ(route.assignments().size(), catalog.knobs().size());
    fs::path dir = fs::temp_directory_path() / ("routetune_nvcc_test_" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "k.cu") << "__global__ void k(float* a, const float* b, int n) {\n"
                                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "  if (i < n) a[i] = b[i] * 2.f + 1.f / b[i];\n}\n";
    ProcessSpec spec;
    spec.argv = {nvcc, "-cubin"};
    for (const auto& flag : adapter->apply(route, catalog).flags) spec.argv.push_back(flag);
    spec.argv.insert(spec.argv.end(), {(dir / "k.cu").string(), "-o", (dir / "k.cubin").string()});
    spec.timeout_s = 120;
    ProcessResult result = run_process(spec);
    fs::remove_all(dir);
    EXPECT_TRUE(result.succeeded()) << route.to_string() << "\n" << result.err;
}

TEST(NvccAdapter, MissingCompilerIsAUsageError) {
    AdapterOptions options;
    options.compiler = "/nonexistent/nvcc";
    auto adapter = make_nvcc_adapter(options);
    EXPECT_THROW(adapter->discover(), UsageError);
}

}  // namespace
}  // namespace routetune
