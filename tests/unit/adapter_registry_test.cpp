#include <gtest/gtest.h>

#include <set>

#include "adapters/adapter_registry.hpp"
#include "routetune/error.hpp"

namespace routetune {
namespace {

TEST(AdapterRegistry, EveryRowMakesTheAdapterItNames) {
    std::set<std::string_view> seen;
    for (const AdapterEntry& entry : adapter_registry()) {
        EXPECT_TRUE(seen.insert(entry.name).second) << entry.name << " is listed twice";
        EXPECT_EQ(entry.make({})->name(), entry.name);
        EXPECT_EQ(make_adapter(std::string(entry.name), {})->name(), entry.name);
        EXPECT_EQ(find_adapter(entry.name), &entry);
    }
    EXPECT_EQ(seen.size(), adapter_names().size());
    EXPECT_EQ(find_adapter("clang++"), nullptr);
}

TEST(AdapterRegistry, ListsInSpecOrderWithTheirDefaultsAndTimingTraits) {
    EXPECT_EQ(adapter_list(", "), "gcc, clang, nvcc, trtexec, inductor, custom");
    EXPECT_EQ(find_adapter("clang")->default_compiler, "clang");
    EXPECT_EQ(find_adapter("gcc")->default_compiler, "gcc");
    EXPECT_EQ(find_adapter("inductor")->default_compiler, "python3");
    EXPECT_EQ(find_adapter("custom")->default_compiler, "");
    EXPECT_TRUE(find_adapter("trtexec")->times_on_stdout);
    EXPECT_FALSE(find_adapter("gcc")->times_on_stdout);
}

TEST(AdapterRegistry, BuildsVaryWhereTheCompilerChoosesKernelsByTiming) {
    EXPECT_TRUE(find_adapter("inductor")->builds_vary) << "Inductor autotunes and picks kernels by timing";
    EXPECT_TRUE(find_adapter("trtexec")->builds_vary) << "TensorRT picks tactics by timing";
    for (const char* name : {"gcc", "clang", "nvcc", "custom"}) EXPECT_FALSE(find_adapter(name)->builds_vary) << name;
    EXPECT_GE(kVaryingConfirmBuilds, 3) << "a spread needs three builds";
}

TEST(AdapterRegistry, TimesOnStdoutMatchesWhatTheAdapterReads) {
    const std::string trtexec_summary = "[I] GPU Compute Time: min = 1 ms, max = 3 ms, mean = 2 ms, median = 2 ms\n";
    for (const AdapterEntry& entry : adapter_registry()) {
        bool reads = entry.make({})->times_from_output(trtexec_summary).has_value();
        EXPECT_EQ(reads, entry.times_on_stdout) << entry.name;
    }
}

}  // namespace
}  // namespace routetune
