// The GCC adapter against the real gcc of this machine (GCC 12 expected for the exact
// defaults), the route → flags mapping, the catalog cache and the adapter registry.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "adapters/gcc_adapter.hpp"
#include "adapters/gcc_flags.hpp"
#include "adapters/catalog_cache.hpp"
#include "routetune/error.hpp"
#include "util/files.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

class GccAdapterTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        cache_dir_ = fs::temp_directory_path() / ("routetune-gcc-adapter-test-" + std::to_string(::getpid()));
        fs::remove_all(cache_dir_);
        fs::remove("-.opt-record.json.gz");
        adapter_ = new GccAdapter(options({"-O2"}));
        catalog_ = new Catalog(adapter_->discover());
    }
    static void TearDownTestSuite() {
        delete catalog_;
        delete adapter_;
        fs::remove_all(cache_dir_);
    }
    static AdapterOptions options(std::vector<std::string> base) {
        AdapterOptions result;
        result.compiler = "gcc";
        result.base_flags = std::move(base);
        result.cache_dir = cache_dir_;
        return result;
    }
    static bool is_gcc12() { return catalog_->compiler.version.find(") 12.") != std::string::npos; }

    static inline fs::path cache_dir_;
    static inline GccAdapter* adapter_ = nullptr;
    static inline Catalog* catalog_ = nullptr;
};

const Knob& get(const Catalog& catalog, const std::string& name) {
    const Knob* knob = catalog.find(name);
    if (!knob) throw std::runtime_error("no knob " + name);
    return *knob;
}

// catalog without the host-ISA marks, which are added after the cache.
Catalog without_left_out(const Catalog& catalog) {
    Catalog plain;
    plain.compiler = catalog.compiler;
    for (Knob knob : catalog.knobs()) {
        knob.left_out.clear();
        plain.add(std::move(knob));
    }
    return plain;
}

TEST_F(GccAdapterTest, DiscoversTheRealCompiler) {
    const Catalog& catalog = *catalog_;
    EXPECT_GE(catalog.knobs().size(), 200u);
    EXPECT_EQ(catalog.compiler.adapter, "gcc");
    EXPECT_EQ(catalog.compiler.path.front(), '/');
    EXPECT_FALSE(fs::exists("-.opt-record.json.gz"));  // probe compiles run in a scratch folder
    EXPECT_EQ(catalog.compiler.binary_sha256.size(), 64u);
    EXPECT_EQ(get(catalog, "-O").default_value, "2");
    EXPECT_EQ(get(catalog, "-fgcse").default_value, "on");
    EXPECT_FALSE(get(catalog, "-fgcse").has_tag("inactive-at-O0"));
    const Knob& march = get(catalog, "-march");
    EXPECT_TRUE(march.allows("native"));
    EXPECT_TRUE(march.allows("x86-64"));
    EXPECT_FALSE(march.allows("i386"));  // not valid in 64-bit mode: the compiler's own list
    EXPECT_TRUE(get(catalog, "-mtune").allows("generic"));
    EXPECT_FALSE(get(catalog, "-mbionic").allows("off"));  // -mno-bionic is rejected
    EXPECT_TRUE(get(catalog, "-mbionic").allows("on"));
    const Knob& unroll_times = get(catalog, "-param:max-unroll-times");
    EXPECT_EQ(unroll_times.default_value, "8");
    EXPECT_EQ(unroll_times.min, 0);
    EXPECT_EQ(unroll_times.max, 2147483647);
    EXPECT_EQ(get(catalog, "-param:avg-loop-niter").min, 1);
    EXPECT_EQ(get(catalog, "-funroll-loops").help, "Perform loop unrolling when iteration count is known.");
    EXPECT_GT(adapter_->last_probe().compiles, 3u);
    EXPECT_GT(adapter_->last_probe().rejected_values, 10u);
    if (is_gcc12()) {
        EXPECT_EQ(get(catalog, "-funroll-loops").default_value, "off");
        EXPECT_EQ(get(catalog, "-param:evrp-mode").values,
                  (std::vector<std::string>{"legacy", "legacy-first", "ranger", "ranger-first"}));
        // GCC 12.2 takes 128|256|512|none, not any integer (32 and 64 fail every build).
        for (const char* name : {"-mstore-max", "-mmove-max"}) {
            EXPECT_EQ(get(catalog, name).values, (std::vector<std::string>{"128", "256", "512", "none"})) << name;
            EXPECT_EQ(get(catalog, name).type, KnobType::Enum) << name;
        }
        // Accepted with "no longer supported" or "ignored in 64bit mode": no-ops are no knobs.
        for (const char* name : {"-mmpx", "-mpcommit", "-mmitigate-rop", "-mrtd"}) {
            EXPECT_EQ(catalog.find(name), nullptr) << name;
        }
    }
}

TEST_F(GccAdapterTest, DefaultsFollowTheBaseLevel) {
    GccAdapter o3(options({"-O3"}));
    Catalog catalog = o3.discover();
    EXPECT_EQ(get(catalog, "-O").default_value, "3");
    EXPECT_EQ(get(catalog, "-fpeel-loops").default_value, "on");
    EXPECT_EQ(get(*catalog_, "-fpeel-loops").default_value, "off");
    if (is_gcc12()) EXPECT_EQ(get(catalog, "-funroll-loops").default_value, "off");
    EXPECT_FALSE(get(catalog, "-fgcse").has_tag("inactive-at-O0"));
    GccAdapter o0(options({}));
    Catalog unoptimized = o0.discover();
    EXPECT_EQ(get(unoptimized, "-O").default_value, "0");
    EXPECT_TRUE(get(unoptimized, "-fgcse").has_tag("inactive-at-O0"));
    EXPECT_TRUE(get(unoptimized, "-param:max-unroll-times").has_tag("inactive-at-O0"));
    EXPECT_FALSE(get(unoptimized, "-ffast-math").has_tag("inactive-at-O0"));
    EXPECT_FALSE(get(unoptimized, "-march").has_tag("inactive-at-O0"));
}

TEST_F(GccAdapterTest, SecondDiscoveryIsServedFromTheCache) {
    GccAdapter again(options({"-O2"}));
    Catalog cached = again.discover();
    EXPECT_EQ(again.fresh_discoveries(), 0u);
    EXPECT_EQ(catalog_to_json(cached), catalog_to_json(*catalog_));
    std::string key = CatalogCache::key(catalog_->compiler, {"-O2"}, gcc_discovery_version);
    fs::path file = CatalogCache(cache_dir_).file_of(key);
    ASSERT_TRUE(fs::exists(file));
    Catalog edited = *catalog_;
    Knob marked = get(edited, "-funroll-loops");
    marked.help = "served from the cache file";
    edited.add(marked);
    ASSERT_TRUE(write_file(file, catalog_to_json(edited)));
    EXPECT_EQ(get(again.discover(), "-funroll-loops").help, "served from the cache file");
    ASSERT_TRUE(write_file(file, "{ not json"));
    Catalog rediscovered = again.discover();
    EXPECT_EQ(again.fresh_discoveries(), 1u);
    EXPECT_EQ(catalog_to_json(rediscovered), catalog_to_json(*catalog_));
    EXPECT_EQ(catalog_to_json(catalog_from_json(*read_file(file))), catalog_to_json(without_left_out(*catalog_)));
}

TEST_F(GccAdapterTest, TheHostIsaFilterRunsAfterTheCache) {
    if (catalog_->find("-mavx2") == nullptr) GTEST_SKIP() << "not an x86 gcc";
    // No x86-64 CPU has both XOP and AVX-512F, so one of them is always left out.
    bool xop = get(*catalog_, "-mxop").left_out_reason("on") != nullptr;
    bool avx512 = get(*catalog_, "-mavx512f").left_out_reason("on") != nullptr;
    EXPECT_TRUE(xop || avx512);
    EXPECT_GT(adapter_->last_host_isa().left_out, 0u);
    EXPECT_EQ(adapter_->last_host_isa().skipped, "");
    std::string key = CatalogCache::key(catalog_->compiler, {"-O2"}, gcc_discovery_version);
    EXPECT_EQ(read_file(CatalogCache(cache_dir_).file_of(key))->find("left_out"), std::string::npos);
    GccAdapter again(options({"-O2"}));
    Catalog cached = again.discover();
    EXPECT_EQ(catalog_to_json(cached), catalog_to_json(*catalog_));
    EXPECT_EQ(again.last_host_isa().compiler_runs, 1u);  // the -march table came from the cache
    AdapterOptions off = options({"-O2"});
    off.host_isa_only = false;
    GccAdapter cross(off);
    EXPECT_EQ(catalog_to_json(cross.discover()), catalog_to_json(without_left_out(*catalog_)));
    EXPECT_EQ(cross.last_host_isa().compiler_runs, 0u);
}

TEST_F(GccAdapterTest, NoCacheWritesNothing) {
    fs::path empty_dir = cache_dir_ / "unused";
    AdapterOptions uncached = options({"-O1"});
    uncached.cache_dir = empty_dir;
    uncached.use_cache = false;
    GccAdapter adapter(uncached);
    EXPECT_EQ(get(adapter.discover(), "-O").default_value, "1");
    EXPECT_EQ(adapter.fresh_discoveries(), 1u);
    EXPECT_FALSE(fs::exists(empty_dir));
}

TEST_F(GccAdapterTest, ApplyOverridesBaseFlags) {
    GccAdapter adapter(options({"-O2", "-fno-unroll-loops", "-g", "--param", "max-unroll-times=4",
                                "--param=avg-loop-niter=20", "-march=x86-64", "-mavx2", "-fgcse", "-Wall"}));
    Route route;
    route.set("-O", "3");
    route.set("-funroll-loops", "on");
    route.set("-fgcse", "off");
    route.set("-param:max-unroll-times", "16");
    route.set("-march", "native");
    route.set("-mavx2", "off");
    route.set("-fvect-cost-model", "cheap");
    route.set("-falign-functions", "32");
    auto applied = adapter.apply(route, *catalog_);
    EXPECT_EQ(applied.flags, (std::vector<std::string>{"-g", "--param=avg-loop-niter=20", "-Wall", "-O3",
                                                       "-march=native", "-falign-functions=32", "-fno-gcse",
                                                       "-funroll-loops", "-fvect-cost-model=cheap", "-mno-avx2",
                                                       "--param=max-unroll-times=16"}));
    EXPECT_TRUE(applied.environment.empty());
    EXPECT_EQ(adapter.apply(Route{}, *catalog_).flags, adapter.apply(Route{}, *catalog_).flags);
    EXPECT_EQ(adapter.apply(Route{}, *catalog_).flags.size(), 10u);
    Route off;
    off.set("-falign-functions", "off");
    off.set("-O", "fast");
    GccAdapter plain(options({"-Os", "-falign-functions=16"}));
    EXPECT_EQ(plain.apply(off, *catalog_).flags, (std::vector<std::string>{"-Ofast", "-fno-align-functions"}));
}

TEST_F(GccAdapterTest, DeclaredKnobsAndValuesStayArgvItems) {
    AdapterOptions declared = options({"-O2"});
    Knob tile;
    tile.name = "-tile";
    tile.type = KnobType::Int;
    tile.min = 1;
    tile.max = 64;
    tile.application.argv_template = "-DTILE={value}";
    Knob threads = tile;
    threads.name = "-threads";
    threads.application = {"", "OMP_NUM_THREADS"};
    declared.declared_knobs = {tile, threads};
    GccAdapter adapter(declared);
    Catalog catalog = adapter.discover();
    EXPECT_EQ(adapter.fresh_discoveries(), 0u);
    ASSERT_NE(catalog.find("-tile"), nullptr);
    Route route;
    route.set("-tile", "8");
    route.set("-threads", "4");
    route.set("-march", "native;rm");
    auto applied = adapter.apply(route, catalog);
    EXPECT_EQ(applied.flags, (std::vector<std::string>{"-O2", "-march=native;rm", "-DTILE=8"}));
    EXPECT_EQ(applied.environment, (std::map<std::string, std::string>{{"OMP_NUM_THREADS", "4"}}));
}

TEST(GccAdapterErrors, MissingCompilerIsAUsageError) {
    AdapterOptions options;
    options.compiler = "routetune-no-such-gcc";
    GccAdapter adapter(options);
    try {
        adapter.discover();
        FAIL() << "expected UsageError";
    } catch (const UsageError& error) {
        EXPECT_STREQ(error.what(),
                     "compiler 'routetune-no-such-gcc' not found on PATH (set [compiler] path or --compiler)");
    }
}

TEST(GccAdapterErrors, RegistryKnowsGcc) {
    auto names = adapter_names();
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    EXPECT_EQ(std::count(names.begin(), names.end(), "gcc"), 1);
    EXPECT_EQ(make_adapter("gcc", {})->name(), "gcc");
    try {
        make_adapter("icc", {});
        FAIL() << "expected UsageError";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("unknown adapter 'icc' (known adapters: "), std::string::npos);
        EXPECT_NE(std::string(error.what()).find("gcc"), std::string::npos);
    }
}

TEST(GccFlags, FlagForEachKnobKind) {
    Knob level{.name = "-O", .type = KnobType::Enum};
    EXPECT_EQ(gcc_flag_for(level, "s"), "-Os");
    Knob param{.name = "-param:max-unroll-times", .type = KnobType::Int};
    EXPECT_EQ(gcc_flag_for(param, "3"), "--param=max-unroll-times=3");
    Knob negative{.name = "-mno-default", .type = KnobType::Bool};
    EXPECT_EQ(gcc_flag_for(negative, "on"), "-mno-default");
    EXPECT_EQ(gcc_flag_for(negative, "off"), "-mdefault");
    EXPECT_TRUE(gcc_flag_sets("-O", "-O"));
    EXPECT_TRUE(gcc_flag_sets("-fno-gcse", "-fgcse"));
    EXPECT_FALSE(gcc_flag_sets("-mavx2", "-mavx"));
    EXPECT_FALSE(gcc_flag_sets("-Wall", "-O"));
}

}  // namespace
}  // namespace routetune
