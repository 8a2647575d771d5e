// The Clang adapter against the real clang of this machine (Debian 12's clang 14 for the
// exact figures), the route → flags mapping with -mllvm pairs, the cache and the registry.
#include <gtest/gtest.h>

#include <unistd.h>

#include "adapters/clang_adapter.hpp"
#include "routetune/error.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

class ClangAdapterTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (find_executable("clang").empty()) return;
        cache_dir_ = fs::temp_directory_path() / ("routetune-clang-adapter-test-" + std::to_string(::getpid()));
        fs::remove_all(cache_dir_);
        adapter_ = new ClangAdapter(options({"-O2"}));
        catalog_ = new Catalog(adapter_->discover());
    }
    static void TearDownTestSuite() {
        delete catalog_;
        delete adapter_;
        fs::remove_all(cache_dir_);
    }
    void SetUp() override {
        if (!catalog_) GTEST_SKIP() << "no clang on PATH";
    }
    static AdapterOptions options(std::vector<std::string> base) {
        AdapterOptions result;
        result.compiler = "clang";
        result.base_flags = std::move(base);
        result.cache_dir = cache_dir_;
        return result;
    }
    static const Knob& get(const std::string& name) {
        const Knob* knob = catalog_->find(name);
        if (!knob) throw std::runtime_error("no knob " + name);
        return *knob;
    }

    static inline fs::path cache_dir_;
    static inline ClangAdapter* adapter_ = nullptr;
    static inline Catalog* catalog_ = nullptr;
};

TEST_F(ClangAdapterTest, DiscoversTheRealCompiler) {
    EXPECT_EQ(catalog_->compiler.adapter, "clang");
    EXPECT_GE(catalog_->knobs().size(), 100u);
    std::size_t llvm_with_default = 0;
    for (const auto& knob : catalog_->knobs()) {
        if (knob.name.starts_with("-mllvm:") && !knob.default_value.empty()) ++llvm_with_default;
    }
    EXPECT_GE(llvm_with_default, 10u);
    EXPECT_EQ(get("-O").default_value, "2");
    EXPECT_EQ(get("-fvectorize").default_value, "on");     // driver line unchanged by -fvectorize at -O2
    EXPECT_EQ(get("-fmerge-all-constants").default_value, "off");
    EXPECT_EQ(get("-mavx2").default_value, "off");         // __AVX2__ undefined at x86-64
    EXPECT_EQ(get("-msse2").default_value, "on");
    EXPECT_TRUE(get("-march").allows("native"));
    EXPECT_TRUE(get("-march").allows("x86-64"));
    EXPECT_EQ(get("-march").default_value, "x86-64");
    EXPECT_FALSE(get("-march").allows("i386"));             // not in 64-bit mode
    EXPECT_EQ(get("-mtune").default_value, "generic");
    EXPECT_EQ(get("-mllvm:inline-threshold").default_value, "225");
    EXPECT_EQ(get("-mllvm:vectorize-loops").default_value, "on");
    EXPECT_TRUE(get("-ffast-math").has_tag("unsafe"));
    // Candidates from clang's own option list that it accepts and ignores (a Fortran option,
    // "argument unused during compilation") or that belong to another target: probed away.
    for (const char* name : {"-ffrontend-optimize", "-maltivec", "-mthumb", "-mabicalls", "-mhvx"}) {
        EXPECT_EQ(catalog_->find(name), nullptr) << name;
    }
    EXPECT_GT(adapter_->last_probe().rejected_values, 10u);
}

TEST_F(ClangAdapterTest, RoutesBecomeClangFlags) {
    AdapterOptions with_pair = options({"-O2", "-mllvm", "-unroll-threshold=5", "-mllvm", "-inline-threshold=9"});
    ClangAdapter adapter(with_pair);
    Route route = Route::parse("-O=3 -fvectorize=off -mllvm:unroll-threshold=300 -mllvm:vectorize-loops=off");
    auto applied = adapter.apply(route, *catalog_);
    EXPECT_EQ(applied.flags, (std::vector<std::string>{"-mllvm", "-inline-threshold=9", "-O3", "-fno-vectorize", "-mllvm",
                                                       "-unroll-threshold=300", "-mllvm", "-vectorize-loops=false"}));
    fs::path out = cache_dir_ / "route.o";
    ProcessSpec compile;
    compile.argv = {"clang"};
    compile.argv.insert(compile.argv.end(), applied.flags.begin(), applied.flags.end());
    for (const char* arg : {"-c", "-x", "c", "-", "-o"}) compile.argv.push_back(arg);
    compile.argv.push_back(out.string());
    compile.stdin_data = "int f(int*a,int n){int s=0;for(int i=0;i<n;++i)s+=a[i];return s;}\n";
    auto result = run_process(compile);
    EXPECT_TRUE(result.succeeded()) << result.err;
}

TEST_F(ClangAdapterTest, SecondDiscoveryIsServedFromTheCache) {
    ClangAdapter again(options({"-O2"}));
    EXPECT_EQ(catalog_to_json(again.discover()), catalog_to_json(*catalog_));
    EXPECT_EQ(again.fresh_discoveries(), 0u);
}

TEST_F(ClangAdapterTest, LeavesOutWhatThisCpuCannotRun) {
    if (catalog_->find("-mavx512f") == nullptr || catalog_->find("-mxop") == nullptr) GTEST_SKIP() << "not an x86 clang";
    // No x86-64 CPU has both XOP and AVX-512F: one of the switches, and the -march values
    // that enable it (bdver2, or skylake-avx512), are left out of `~`.
    const Knob& march = get("-march");
    bool xop = get("-mxop").left_out_reason("on") != nullptr && march.left_out_reason("bdver2") != nullptr;
    bool avx512 = get("-mavx512f").left_out_reason("on") != nullptr && march.left_out_reason("skylake-avx512") != nullptr;
    EXPECT_TRUE(xop || avx512);
    EXPECT_EQ(march.left_out_reason("native"), nullptr);
    EXPECT_EQ(get("-mtune").left_out.size(), 0u);
    AdapterOptions off = options({"-O2"});
    off.host_isa_only = false;
    Catalog all = ClangAdapter(off).discover();
    EXPECT_TRUE(all.find("-march")->left_out.empty());
    EXPECT_TRUE(all.find("-mxop")->left_out.empty());
}

TEST(ClangAdapterErrors, RegistryKnowsClang) {
    EXPECT_EQ(make_adapter("clang", {})->name(), "clang");
    AdapterOptions options;
    options.compiler = "routetune-no-such-clang";
    EXPECT_THROW(make_adapter("clang", options)->discover(), UsageError);
}

}  // namespace
}  // namespace routetune
